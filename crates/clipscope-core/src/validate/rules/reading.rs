//! What every reader reports while reading a file: that it cannot be read at all, and keyframe
//! data in a shape clipscope does not read. A reader's findings about its own format (the three.js
//! reader's about numbers and fields three.js would take differently) are that format's own
//! rules, kept in its module ([`FormatSpec::rules`](crate::formats::FormatSpec::rules)).

use super::{Applies, Rule};
use crate::model::Severity::{Error, Warning};

/// The reading rules.
pub(super) const RULES: &[Rule] = &[
    Rule {
        code: "parse",
        severity: Error,
        formats: Applies::Always,
        replaced_by: None,
        summary: "The file cannot be read (three.js's parse would throw, or the file is not one clipscope reads).",
        fix: "Fix what the message names at its JSON path; the file is not checked further.",
        explanation: "The message names the file, the JSON path of the culprit and the reason. A file that cannot be read is reported with exit status 2; it cannot be turned off in clipscope.toml.",
    },
    Rule {
        code: "unsupported-content",
        severity: Warning,
        formats: Applies::Always,
        replaced_by: None,
        summary: "The file holds keyframe data in a shape clipscope does not read.",
        fix: "Convert the data to a shape clipscope reads, or remove it if nothing plays it; clipscope shows and checks none of it.",
        explanation: "Keyframes clipscope skips are not shown, played, checked or converted, so a file that holds them must never look empty and fine: each skipped place is reported with its JSON path (an animated property of an unknown kind, a curve path no engine target reads, an object's clips in an unknown layout).",
    },
];
