//! The registry entries of the raw-file rules of PlayCanvas animation files
//! ([`lint`](super::lint)).

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::Warning;

/// The PlayCanvas animation rules.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        code: "playcanvas-ignored-channel",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A PlayCanvas node keys a channel its defaults override (the engine ignores the keys).",
        fix: "Remove the channel from defaults (to play the keys) or from the keys (to keep the default).",
        explanation: "The engine's parser takes a channel listed in a node's defaults for every key and never reads the keyed values, so the keys in the file are dead.",
    },
    Rule {
        code: "playcanvas-lenient-shape",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A PlayCanvas animation has a shape the engine's parser reads leniently: the version as text, or a key value with other than 3 numbers.",
        fix: "Nothing needed for playback; write the version as a number and 3 numbers per value to make the file plain.",
        explanation: "The engine's loader calls _parseAnimationV${version}, so \"4\" picks the same parser as 4; the parser builds new Vec3(p[0], p[1], p[2]) and setFromEulerAngles(r[0], r[1], r[2]), which ignore further numbers and take a missing position or scale component as 0 (a missing angle would be NaN, and is refused). clipscope reads such files the same way and says so in info.",
    },
];
