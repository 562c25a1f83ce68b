//! What readers report while reading a file: that it cannot be read at all, the three.js
//! reader's findings about numbers and fields three.js would take differently, and keyframe data
//! in a shape clipscope does not read.

use super::{Formats, Rule};
use crate::formats::Format;
use crate::model::Severity::{Error, Warning};

/// The reading rules.
pub(super) const RULES: &[Rule] = &[
    Rule {
        code: "parse",
        severity: Error,
        formats: Formats::All,
        replaced_by: None,
        summary: "The file cannot be read (three.js's parse would throw, or the file is not one clipscope reads).",
        fix: "Fix what the message names at its JSON path; the file is not checked further.",
        explanation: "The message names the file, the JSON path of the culprit and the reason. A file that cannot be read is reported with exit status 2; it cannot be turned off in clipscope.toml.",
    },
    Rule {
        code: "unsupported-content",
        severity: Warning,
        formats: Formats::All,
        replaced_by: None,
        summary: "The file holds keyframe data in a shape clipscope does not read.",
        fix: "Convert the data to a shape clipscope reads, or remove it if nothing plays it; clipscope shows and checks none of it.",
        explanation: "Keyframes clipscope skips are not shown, played, checked or converted, so a file that holds them must never look empty and fine: each skipped place is reported with its JSON path (an animated property of an unknown kind, a curve path no engine target reads, an object's clips in an unknown layout).",
    },
    Rule {
        code: "unknown-blend-mode",
        severity: Error,
        formats: Formats::Only(&[Format::ThreeJs]),
        replaced_by: None,
        summary: "A clip's blendMode is neither 2500 (normal) nor 2501 (additive).",
        fix: "Write blendMode 2500 or 2501, or leave it out.",
        explanation: "three.js keeps whatever number it finds and its mixer then blends the clip in no defined way; clipscope reads the clip as normal.",
    },
    Rule {
        code: "number-out-of-range",
        severity: Error,
        formats: Formats::Only(&[Format::ThreeJs]),
        replaced_by: None,
        summary: "A number is beyond the 32-bit float range.",
        fix: "Write a number within ±3.4e38.",
        explanation: "three.js stores times and values in Float32Arrays, where such a number becomes Infinity; no tool could write the file back as it was.",
    },
    Rule {
        code: "invalid-tangent-size",
        severity: Error,
        formats: Formats::Only(&[Format::ThreeJs]),
        replaced_by: None,
        summary: "A bezier track's inTangents or outTangents do not hold two numbers per value.",
        fix: "Give each value a time and a value in both tangent arrays.",
        explanation: "three.js's bezier interpolant reads past arrays of the wrong length and produces NaN; clipscope leaves such a track out.",
    },
    Rule {
        code: "tangent-not-a-number",
        severity: Error,
        formats: Formats::Only(&[Format::ThreeJs]),
        replaced_by: None,
        summary: "A bezier tangent is not a number.",
        fix: "Write numbers in inTangents and outTangents.",
        explanation: "three.js turns a tangent that is not a number into NaN, and every sample of the segment with it.",
    },
];
