//! Read errors: one line naming the file, where in the file, and what is wrong.

use std::fmt;
use std::path::PathBuf;

/// Why a file could not be read. Its [`Display`](fmt::Display) is a single line
/// `"{file}: {json_path}: {reason}"` (the path part is left out when the culprit is the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file that was being read (as given by the caller).
    pub file: PathBuf,
    /// Where in the file the culprit sits, e.g. `tracks[3].times[7]`; empty for the whole file.
    pub json_path: String,
    /// What is wrong, e.g. `null is not a number`.
    pub reason: String,
}

impl ReadError {
    /// An error at `json_path` in `file`.
    pub fn new(
        file: impl Into<PathBuf>,
        json_path: impl Into<String>,
        reason: impl Into<String>,
    ) -> ReadError {
        ReadError {
            file: file.into(),
            json_path: json_path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.json_path.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.reason)
        } else {
            write!(
                f,
                "{}: {}: {}",
                self.file.display(),
                self.json_path,
                self.reason
            )
        }
    }
}

impl std::error::Error for ReadError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_with_path() {
        let e = ReadError::new("a.json", "tracks[3].times[7]", "null is not a number");
        assert_eq!(
            e.to_string(),
            "a.json: tracks[3].times[7]: null is not a number"
        );
        let e = ReadError::new("a.json", "", "file is empty");
        assert_eq!(e.to_string(), "a.json: file is empty");
    }
}
