//! [`AutosaveError`]: why the autosave writer could not write a document's recovery files.

use std::fmt;

use clipscope_core::formats::WriteError;

/// Why a recovery entry could not be written; the writer reports it as one line and tries
/// again at the next autosave.
#[derive(Debug)]
#[non_exhaustive]
pub(crate) enum AutosaveError {
    /// The document's format writer (or the file system under it) failed.
    Document(WriteError),
    /// The entry's metadata could not be put into JSON.
    Meta(serde_json::Error),
    /// The metadata file could not be written.
    Io(std::io::Error),
}

impl fmt::Display for AutosaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutosaveError::Document(e) => e.fmt(f),
            AutosaveError::Meta(e) => e.fmt(f),
            AutosaveError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AutosaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AutosaveError::Document(e) => Some(e),
            AutosaveError::Meta(e) => Some(e),
            AutosaveError::Io(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::AutosaveError;

    #[test]
    fn the_text_is_the_cause_and_the_cause_is_the_source() {
        let e = AutosaveError::Io(std::io::Error::other("disk full"));
        assert_eq!(e.to_string(), "disk full");
        assert!(e.source().is_some());
    }
}
