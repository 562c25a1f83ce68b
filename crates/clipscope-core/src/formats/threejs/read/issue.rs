//! What converting finds wrong, and what a strict or lenient read does with it.
//!
//! Every finding is an [`Issue`]: a problem code, the JSON path of the culprit, a one-line
//! reason and, where known, the key it belongs to. A problem three.js would throw on stops the
//! value being converted (the `Err` of a converter); a problem three.js lives with (a string
//! where a number belongs, a number too large for an `f32`) goes through [`Ctx::soft`], which
//! makes it the error of a strict read and a note of a lenient one (`validate`), where the value
//! is kept as three.js would keep it.

use std::path::Path;

use super::Mode;
use crate::formats::ReadError;
use crate::model::{Problem, Severity};

/// One finding while converting, with where it is.
#[derive(Debug, Clone)]
pub(crate) struct Issue {
    /// The problem code (`parse`, `time-not-a-number`, …).
    code: &'static str,
    /// The JSON path of the culprit.
    path: String,
    /// What is wrong.
    reason: String,
    /// Index of the key the culprit belongs to, when known.
    pub(super) key: Option<usize>,
    /// Error (three.js throws or the data is wrong), or warning (a shape three.js reads,
    /// accepted: [`Ctx::accept`]).
    severity: Severity,
}

impl Issue {
    /// A `parse` issue (three.js's parse would throw, or the value cannot be modelled).
    pub(super) fn parse(path: impl Into<String>, reason: impl Into<String>) -> Issue {
        Issue::coded("parse", path, reason)
    }

    /// An issue with its own code.
    pub(super) fn coded(
        code: &'static str,
        path: impl Into<String>,
        reason: impl Into<String>,
    ) -> Issue {
        Issue {
            code,
            path: path.into(),
            reason: reason.into(),
            key: None,
            severity: Severity::Error,
        }
    }

    /// The same issue located at `key`.
    pub(super) fn at_key(mut self, key: usize) -> Issue {
        self.key = Some(key);
        self
    }

    /// As a `validate` problem (the message carries the JSON path).
    pub(super) fn problem(&self, clip: usize, track: Option<usize>) -> Problem {
        let message = if self.path.is_empty() {
            self.reason.clone()
        } else {
            format!("{}: {}", self.path, self.reason)
        };
        let mut p = Problem::new(self.severity, self.code, message).in_clip(clip);
        p.track = track;
        p.key = self.key;
        p
    }

    /// As the error of a strict read of `file` ([`ReadErrorKind::Schema`](crate::formats::ReadErrorKind::Schema)).
    pub(super) fn in_file(self, file: &Path) -> ReadError {
        ReadError::schema(file, self.path, self.reason)
    }
}

/// The code of numbers written as text, read as three.js reads them.
pub(crate) const NUMBER_AS_STRING: &str = "number-as-string";

/// Where converting one value leaves its non-fatal findings.
pub(super) struct Ctx {
    /// Strict or lenient.
    pub(super) mode: Mode,
    /// Non-fatal issues found so far (lenient mode), and what was accepted (either mode).
    pub(super) issues: Vec<Issue>,
    /// Numbers written as text read as three.js reads them: how many, and the first one's path
    /// and key ([`Ctx::number_as_text`]).
    texts: Option<(usize, String, usize)>,
}

impl Ctx {
    /// A context for a `mode` read with no findings yet.
    pub(super) fn new(mode: Mode) -> Ctx {
        Ctx {
            mode,
            issues: Vec::new(),
            texts: None,
        }
    }

    /// Notes a number written as text at `path` (key `key`), which three.js's `Float32Array`
    /// reads as the number: accepted in either mode, reported once per value by
    /// [`Ctx::finish`].
    pub(super) fn number_as_text(&mut self, path: &str, key: usize) {
        match &mut self.texts {
            Some((n, _, _)) => *n += 1,
            None => self.texts = Some((1, path.to_string(), key)),
        }
    }

    /// Turns what was accepted into its issue (a warning, code `number-as-string`).
    pub(super) fn finish(&mut self) {
        if let Some((n, path, key)) = self.texts.take() {
            let reason = if n == 1 {
                "a number written as text: three.js turns it into the number (its Float32Arrays, \
                 1 / fps), and so does clipscope"
                    .to_string()
            } else {
                format!(
                    "{n} numbers written as text (the first here): three.js turns them into \
                     numbers (its Float32Arrays, 1 / fps), and so does clipscope"
                )
            };
            let mut issue = Issue::coded(NUMBER_AS_STRING, path, reason).at_key(key);
            issue.severity = Severity::Warning;
            self.issues.push(issue);
        }
    }

    /// Records a problem three.js lives with: an error in strict mode, a note in lenient mode.
    pub(super) fn soft(&mut self, issue: Issue) -> Result<(), Issue> {
        match self.mode {
            Mode::Strict => Err(issue),
            Mode::Lenient => {
                self.issues.push(issue);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_findings_stop_strict_reads_only() {
        let issue = || Issue::coded("time-not-a-number", "times[1]", "a string is not a number");
        let mut strict = Ctx::new(Mode::Strict);
        assert!(strict.soft(issue()).is_err());
        assert!(strict.issues.is_empty());
        let mut lenient = Ctx::new(Mode::Lenient);
        assert!(lenient.soft(issue().at_key(1)).is_ok());
        let p = lenient.issues[0].problem(2, Some(3));
        assert_eq!(p.message, "times[1]: a string is not a number");
        assert_eq!((p.clip, p.track, p.key), (Some(2), Some(3), Some(1)));
        assert_eq!(p.code, "time-not-a-number");
        let e = issue().in_file(Path::new("a.json"));
        assert_eq!(e.to_string(), "a.json: times[1]: a string is not a number");
        assert_eq!(
            Issue::parse("", "missing").problem(0, None).message,
            "missing"
        );
    }
}
