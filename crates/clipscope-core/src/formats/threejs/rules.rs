//! The registry entries of the three.js reader's findings ([`read`](super::read)): numbers and
//! fields three.js would take differently from what the file means.

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::{Error, Warning};

/// The three.js JSON rules.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        code: "unknown-blend-mode",
        severity: Error,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A clip's blendMode is neither 2500 (normal) nor 2501 (additive).",
        fix: "Write blendMode 2500 or 2501, or leave it out.",
        explanation: "three.js keeps whatever number it finds and its mixer then blends the clip in no defined way; clipscope reads the clip as normal.",
    },
    Rule {
        code: "number-as-string",
        severity: Warning,
        formats: Applies::Own,
        replaced_by: None,
        summary: "Times or values are numbers written as text (\"0.5\"); three.js reads them as the numbers.",
        fix: "Nothing needed for playback; write plain JSON numbers to make the file plain.",
        explanation: "AnimationClip.parse hands the arrays to Float32Array, which turns each text into its number, so three.js plays such a track; clipscope reads it the same way and says so in info.",
    },
    Rule {
        code: "number-out-of-range",
        severity: Error,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A number is beyond the 32-bit float range.",
        fix: "Write a number within ±3.4e38.",
        explanation: "three.js stores times and values in Float32Arrays, where such a number becomes Infinity; no tool could write the file back as it was.",
    },
    Rule {
        code: "invalid-tangent-size",
        severity: Error,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A bezier track's inTangents or outTangents do not hold two numbers per value.",
        fix: "Give each value a time and a value in both tangent arrays.",
        explanation: "three.js's bezier interpolant reads past arrays of the wrong length and produces NaN; clipscope leaves such a track out.",
    },
    Rule {
        code: "tangent-not-a-number",
        severity: Error,
        formats: Applies::Own,
        replaced_by: None,
        summary: "A bezier tangent is not a number.",
        fix: "Write numbers in inTangents and outTangents.",
        explanation: "three.js turns a tangent that is not a number into NaN, and every sample of the segment with it.",
    },
];
