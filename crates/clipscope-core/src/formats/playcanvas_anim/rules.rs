//! The registry entries of the raw-file rules of PlayCanvas anim clips ([`lint`](super::lint)).

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::Warning;

/// The anim clip rules.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        code: "playcanvas-quaternion-flip",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "Neighbouring keys of an anim clip's localRotation curve lie in opposite hemispheres, so the engine turns the long way round.",
        fix: "Negate the key so each key lies in the hemisphere of the one before it.",
        explanation: "The anim system interpolates curves component by component (AnimCache), which for quaternions a and b with a·b < 0 passes through the far side of the rotation; three.js's slerp, which clipscope previews with, takes the short way, so the preview does not show it.",
    },
    Rule {
        code: "playcanvas-extra-components",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "An anim clip curve's output has more components than its transform property takes; the engine uses the first ones and ignores the rest.",
        fix: "Nothing needed for playback; write the output with 3 components (4 for localRotation) to make the file plain.",
        explanation: "The anim component's binder packs a localPosition, localEulerAngles or localScale value from the first 3 numbers of each key (a localRotation from the first 4) and never reads the others, so the engine plays such a curve (its own example clip alarm-on-clip stores 4 per localEulerAngles key). clipscope reads it the same way and says so in info.",
    },
    Rule {
        code: "playcanvas-number-as-string",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "An anim clip's key times, duration, components or curve indices are numbers written as text (\"0.5\"); the engine reads them as the numbers.",
        fix: "Nothing needed for playback; write plain JSON numbers to make the file plain.",
        explanation: "AnimClipParser.open keeps the JSON values as they are, and the engine's JavaScript turns such text into numbers where it compares and subtracts key times and indexes arrays, so the clip plays; clipscope reads it the same way and says so in info. Values in an output's data written as text are refused: the engine's lerp joins text instead of adding it.",
    },
    Rule {
        code: "playcanvas-missing-interpolation",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "An anim clip curve has no interpolation; the engine evaluates nothing for it and holds the property at 0.",
        fix: "Write \"interpolation\": 1 (linear), 0 (step) or 2 (cubic).",
        explanation: "AnimCurve keeps the missing value as undefined, and AnimCache.eval has a case for 0, 1 and 2 only, so the curve's result keeps its initial zeros: a position or scale of 0, a zero rotation. clipscope reads such a curve as linear, as it was surely meant, so its preview differs from the engine until the interpolation is written.",
    },
    Rule {
        code: "playcanvas-string-path",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "An anim clip curve's path is a string; engine 2.x's anim component cannot bind it.",
        fix: "Write the path as an object: {\"entityPath\": [...], \"component\", \"propertyPath\": [...]}.",
        explanation: "AnimClipParser.open keeps the path as it is, but the anim component's binder reads path.entityPath, path.component and path.propertyPath and throws on a string (older engines split such strings). clipscope reads the path the string spells, so its preview plays a curve the engine does not.",
    },
];
