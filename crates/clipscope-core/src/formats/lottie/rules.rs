//! The registry entries of Lottie's raw-file rules ([`lint`](super::lint)).

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::Warning;

/// The Lottie rules.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        code: "lottie-empty-range",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A Lottie composition or layer has ip >= op, or a layer has no ip or op.",
        fix: "Give the composition or layer an in point (ip) and an out point (op) after it.",
        explanation: "A composition or layer is shown from its in point up to its out point; with ip >= op it is never shown, and lottie-web compares the frame with a missing ip or op as undefined, which fails, so such a layer is never drawn (its transform still parents others).",
    },
    Rule {
        code: "lottie-key-outside-layer",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A Lottie keyframe can never be seen: it and its neighbour lie on the same side outside the layer's in/out points.",
        fix: "Delete the keyframe (or move the layer's in/out points if it should be seen).",
        explanation: "A keyframe before a layer's in point still shapes what is seen when the next keyframe lies inside (and one after the out point when the previous one lies inside), so only keyframes whose whole segment is outside [ip, op] are reported: nothing of them is ever drawn.",
    },
    Rule {
        code: "lottie-missing-parent",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A Lottie layer's parent index names no layer.",
        fix: "Point parent at the ind of a layer of the same composition, or remove it.",
        explanation: "Players ignore a parent that names no layer, so the layer moves on its own instead of with the parent the file meant.",
    },
    Rule {
        code: "lottie-lenient-layer",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A Lottie layer's ty is no number, or its ind or parent is written as text; lottie-web reads it leniently.",
        fix: "Nothing needed for playback in lottie-web; write the layer type and indices as numbers to make the file plain (other players may refuse it).",
        explanation: "lottie-web's createItem switches on ty with strict cases and makes any other value a null layer (its transform plays, nothing is drawn), and its parenting compares ind == parent loosely, so \"2\" names layer 2. clipscope reads such layers the same way and says so in info.",
    },
    Rule {
        code: "lottie-unplayable-keyframe",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A Lottie transform keyframe lottie-web cannot evaluate: it eases without o/i handles, or its value s is a bare number.",
        fix: "Give every keyframe but the last o and i handles (or h: 1 for a hold), and write s as an array ([v]).",
        explanation: "lottie-web reads keyData.o.x and keyData.s[0] without checking them, so such a segment shows -999999 or NaN in lottie-web (other players may accept it). clipscope reads the keyframe as meant (linear without handles, [v] for a bare number), so its preview differs from lottie-web until the file is fixed.",
    },
];
