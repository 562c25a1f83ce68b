//! Rules on clips: three.js's own checks (`AnimationClip.parse` and `validate()`: the errors),
//! and clipscope's advice on top (`model::ops::lint`: the warnings). They run on the clips any
//! reader produces, so each says which formats' files it is meaningful for.

use super::{Formats, GLTF, Rule};
use crate::formats::Format;
use crate::model::Severity::{Error, Warning};

/// Formats whose clip keys are the file's keys, one for one: three.js clip JSON, glTF samplers
/// and PlayCanvas anim curves. Elsewhere a reader derives the keys (Lottie bakes motion paths
/// and writes hold keyframes as two keys; legacy three.js and PlayCanvas animation files key
/// every channel of a node at once and fill channels from `defaults`), so advice about single
/// keys says nothing about the file.
const KEY_EXACT: &[Format] = &[Format::ThreeJs, Format::Gltf, Format::Glb];

/// The clip rules.
pub(super) const RULES: &[Rule] = &[
    Rule {
        code: "empty-track",
        severity: Error,
        formats: Formats::All,
        summary: "A track has no keys.",
        fix: "Delete the track or give it keys.",
        explanation: "three.js's validate() rejects a clip with a track of no keys, so the whole clip would not play.",
    },
    Rule {
        code: "invalid-value-size",
        severity: Error,
        formats: Formats::All,
        summary: "The value count is not a whole multiple of the key count.",
        fix: "Give every key the same number of values (3 for a position, 4 for a quaternion).",
        explanation: "three.js reads the values per key as values.length / times.length; when that is not a whole number its validate() rejects the track and the clip.",
    },
    Rule {
        code: "time-not-a-number",
        severity: Error,
        formats: Formats::All,
        summary: "A key time is NaN (or not a number in the file).",
        fix: "Write a number for the key's time.",
        explanation: "three.js's validate() rejects a track with a NaN time; a time that is not a JSON number becomes NaN in three.js's Float32Array.",
    },
    Rule {
        code: "unsorted-times",
        severity: Error,
        formats: Formats::All,
        summary: "A key comes before the key before it.",
        fix: "Sort the keys by time (validate --fix does when nothing else is wrong).",
        explanation: "three.js's validate() rejects a track whose times go backwards; interpolation searches the times assuming they are sorted.",
    },
    Rule {
        code: "value-not-a-number",
        severity: Error,
        formats: Formats::All,
        summary: "A numeric value is NaN (or not a number in the file).",
        fix: "Write a number for the value.",
        explanation: "three.js's validate() rejects numeric tracks with NaN values; a value that is not a JSON number becomes NaN.",
    },
    Rule {
        code: "unsupported-interpolation",
        severity: Warning,
        formats: Formats::All,
        summary: "The interpolation is not available for the track's kind.",
        fix: "Use an interpolation the track kind supports (discrete for bool and string tracks).",
        explanation: "three.js falls back to the kind's default interpolation (linear, or discrete for bool and string tracks), so the clip plays but not as the file says.",
    },
    Rule {
        code: "duplicate-times",
        severity: Warning,
        formats: Formats::Except(&[Format::Gltf, Format::Glb, Format::Lottie]),
        summary: "Two neighbouring keys share a time.",
        fix: "Remove one of the keys, or move it by a frame if a jump was meant.",
        explanation: "three.js accepts equal times and jumps from one value to the other there, which is rarely what an exporter meant. glTF forbids them (gltf-sampler-input-not-increasing reports them there); a Lottie reader writes hold keyframes as two keys at one time, so Lottie files are not checked.",
    },
    Rule {
        code: "negative-time",
        severity: Warning,
        formats: Formats::Except(&[Format::Gltf, Format::Glb, Format::Lottie]),
        summary: "A key is at a negative time.",
        fix: "Shift the keys so the first one is at 0 or later, or trim the clip.",
        explanation: "three.js plays from time 0, so keys before it are never reached except through interpolation into the first visible key. glTF forbids negative times (gltf-sampler-input-negative reports them there); Lottie layers and precompositions start before 0 as a matter of course.",
    },
    Rule {
        code: "bezier-without-tangents",
        severity: Warning,
        formats: Formats::All,
        summary: "A bezier track has no tangents.",
        fix: "Give the track its tangents, or make it linear.",
        explanation: "three.js's bezier interpolant needs in and out tangents per key; without them it interpolates linearly, which is not what the track says.",
    },
    Rule {
        code: "tangent-length",
        severity: Warning,
        formats: Formats::All,
        summary: "The tangent arrays do not match the keys.",
        fix: "Give each key two numbers (time, value) per value in both tangent arrays.",
        explanation: "A bezier track needs keys × values-per-key × 2 numbers in inTangents and in outTangents; other lengths make three.js read the wrong handles.",
    },
    Rule {
        code: "non-unit-quaternion",
        severity: Warning,
        formats: Formats::Except(GLTF),
        summary: "A quaternion key is not unit length.",
        fix: "Normalize the quaternions (validate --fix does).",
        explanation: "Rotations are unit quaternions; three.js's slerp assumes unit length, so longer or shorter ones scale or skew what they drive. The tolerance is [tolerances] quaternion-length. glTF requires unit quaternions, so it is an error there (gltf-non-unit-quaternion).",
    },
    Rule {
        code: "quaternion-flip",
        severity: Warning,
        formats: Formats::All,
        summary: "Neighbouring quaternion keys of a curve lie in opposite hemispheres (dot < 0).",
        fix: "Negate the key so each key lies in the hemisphere of the one before it.",
        explanation: "q and -q are the same rotation, but a curve between a key and one near the other's negation goes the long way round. Only curves that interpolate components are checked (bezier and cubic keys): three.js's and glTF's linear slerp take the short way by themselves.",
    },
    Rule {
        code: "duration-shorter-than-keys",
        severity: Warning,
        formats: Formats::Except(&[Format::Lottie]),
        summary: "Keys lie beyond the clip's duration (trim would cut them).",
        fix: "Reset the duration to the last key (validate --fix does), or trim the keys.",
        explanation: "three.js plays a clip up to its duration, so later keys are never reached and trim() removes them. Times are compared as the file stores them (32-bit floats), so a duration written as the last key's time is not reported. Lottie layers keep keys past the composition's end as a matter of course.",
    },
    Rule {
        code: "duration-longer-than-keys",
        severity: Warning,
        formats: Formats::Except(&[Format::Lottie]),
        summary: "The clip lasts much longer than its last key.",
        fix: "Reset the duration to the last key (validate --fix does), or add the missing keys.",
        explanation: "A clip that runs on after its last key holds still at the end, which usually means a wrong duration or lost keys. Allowed: [tolerances] duration-slack of the last key's time plus one 30 fps frame. A Lottie composition that outlasts its last keyframe is normal (the layers hold), so Lottie files are not checked.",
    },
    Rule {
        code: "empty-clip",
        severity: Warning,
        formats: Formats::All,
        summary: "The clip has no tracks.",
        fix: "Delete the clip, or check that its keyframes are in a shape clipscope reads (see unsupported-content).",
        explanation: "A clip without tracks plays nothing. When the file holds keyframes clipscope does not read, unsupported-content names them; otherwise the clip really is empty.",
    },
    Rule {
        code: "duplicate-track",
        severity: Warning,
        formats: Formats::Except(GLTF),
        summary: "Two tracks of a clip animate the same property.",
        fix: "Merge the tracks or delete one.",
        explanation: "three.js's mixer lets the later track win, so the first one's keys are dead weight. glTF forbids two channels on one target (gltf-duplicate-targets reports it there).",
    },
    Rule {
        code: "redundant-keys",
        severity: Warning,
        formats: Formats::Only(KEY_EXACT),
        summary: "Keys that optimize would remove losslessly.",
        fix: "Run clipscope optimize (or validate --fix).",
        explanation: "Keys that lie on the straight line between their neighbours (or repeat them) change nothing three.js plays. Checked where clip keys are the file's own keys (three.js clip JSON, glTF, PlayCanvas anim clips): Lottie keys are partly baked by the reader, and legacy three.js and PlayCanvas animation files key all channels of a node together, so a single channel's key cannot go.",
    },
    Rule {
        code: "constant-track",
        severity: Warning,
        formats: Formats::Only(KEY_EXACT),
        summary: "Every key of the track holds the same value.",
        fix: "Replace the track by one key, or delete it if the rest pose already has the value.",
        explanation: "A track that never changes costs a key per frame for nothing. Checked where clip keys are the file's own keys (three.js clip JSON, glTF, PlayCanvas anim clips); PlayCanvas animation files hold constant channels in defaults, and Lottie and legacy three.js keys are partly made by the reader.",
    },
    Rule {
        code: "loop-seam",
        severity: Warning,
        formats: Formats::All,
        summary: "A loop's first and last pose differ.",
        fix: "Make the last key equal the first (or mark the clip as not a loop in clipscope.toml).",
        explanation: "A looping clip pops each time it wraps when its ends differ. A clip is a loop when clipscope.toml says so, or its name contains loop, cycle, walk or run as a word (loop-names). Tolerance: [tolerances] loop-seam.",
    },
    Rule {
        code: "unparsable-track-name",
        severity: Warning,
        formats: Formats::Only(&[Format::ThreeJs, Format::ThreeJsLegacy]),
        summary: "The track name does not fit three.js's track-name grammar.",
        fix: "Rename the track to NODE.property (or .bones[NAME].property).",
        explanation: "three.js's PropertyBinding throws when it binds a name it cannot parse, so the track never plays. Other formats' track names are made by their readers (glTF pointers and PlayCanvas paths are kept as written), so only three.js files are checked.",
    },
    Rule {
        code: "unbound-track",
        severity: Warning,
        formats: Formats::All,
        summary: "The track animates a node the rig does not have.",
        fix: "Rename the track to a node of the rig, or delete it.",
        explanation: "With --rig FILE (or rig in clipscope.toml) every track must bind to a node of that rig; a track that binds to nothing is usually a renamed or missing bone.",
    },
    Rule {
        code: "bezier-fold",
        severity: Warning,
        formats: Formats::All,
        summary: "A bezier handle's time goes backwards, so the curve folds over itself.",
        fix: "Move the handle so its time stays between the key and its neighbour.",
        explanation: "A bezier segment whose handles leave the key interval is no longer a function of time; three.js's solver then picks one branch, which jumps.",
    },
    Rule {
        code: "non-finite-value",
        severity: Warning,
        formats: Formats::All,
        summary: "A time, value or tangent is infinite (or a tangent is NaN).",
        fix: "Replace the number by a finite one.",
        explanation: "three.js's validate() only rejects NaN; infinite numbers pass and poison every pose they touch.",
    },
];
