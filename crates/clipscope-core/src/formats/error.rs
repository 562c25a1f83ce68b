//! Why reading or writing a file failed, as types callers can branch on: a [`ReadError`] has a
//! [`ReadErrorKind`] (cancelled, I/O, syntax, schema, unsupported content) and reads as one line
//! naming the file, where in the file, and what is wrong; a [`WriteError`] says whether the
//! document has no place in the format ([`NotWritable`]) or the disk refused.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use super::Format;

/// What kind of failure a [`ReadError`] is, for callers that treat them differently (a
/// cancelled load is not shown as an error; a syntax error in a file being rewritten is worth a
/// retry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The read was cancelled through its [`LoadProgress`](super::LoadProgress).
    Cancelled,
    /// The file could not be read from disk (missing, no permission, a folder, …).
    Io,
    /// The file is larger than the read's limit
    /// ([`ReadOptions::max_file_size`](super::ReadOptions::max_file_size)); nothing was read.
    TooLarge,
    /// The bytes are not valid JSON (or not a valid GLB container), or the file is empty.
    Syntax,
    /// Valid JSON, but a value breaks the format's rules: the JSON path names it.
    Schema,
    /// The content is not a file clipscope reads, or uses something it does not support (another
    /// glTF major version, a buffer outside the file's folder, …).
    Unsupported,
}

impl ReadErrorKind {
    /// The kind of a `serde_json` error: broken text (or text that ends early) is
    /// [`Syntax`](ReadErrorKind::Syntax), a value of the wrong type or a missing field is
    /// [`Schema`](ReadErrorKind::Schema).
    pub fn of_json(e: &serde_json::Error) -> ReadErrorKind {
        match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                ReadErrorKind::Syntax
            }
            serde_json::error::Category::Data => ReadErrorKind::Schema,
            serde_json::error::Category::Io => ReadErrorKind::Io,
        }
    }
}

/// Why a file could not be read. Its [`Display`](fmt::Display) is a single line
/// `"{file}: {json_path}: {reason}"` (the path part is left out when the culprit is the whole file).
/// An error made from an I/O error keeps it as its [`source`](std::error::Error::source).
/// Two errors are equal when they say the same (the I/O error they keep is not compared).
#[derive(Debug, Clone)]
pub struct ReadError {
    /// What kind of failure this is.
    pub kind: ReadErrorKind,
    /// The file that was being read (as given by the caller).
    pub file: PathBuf,
    /// Where in the file the culprit sits, e.g. `tracks[3].times[7]`; empty for the whole file.
    pub json_path: String,
    /// What is wrong, e.g. `null is not a number`.
    pub reason: String,
    /// The I/O error the read failed with, if it failed with one (shared, so the error stays
    /// cheap to clone).
    io: Option<Arc<std::io::Error>>,
}

impl PartialEq for ReadError {
    fn eq(&self, other: &ReadError) -> bool {
        self.kind == other.kind
            && self.file == other.file
            && self.json_path == other.json_path
            && self.reason == other.reason
    }
}

impl Eq for ReadError {}

impl ReadError {
    /// An error of `kind` at `json_path` in `file`.
    pub fn new(
        kind: ReadErrorKind,
        file: impl Into<PathBuf>,
        json_path: impl Into<String>,
        reason: impl Into<String>,
    ) -> ReadError {
        // File content quoted in the path or the reason (a key with a newline) stays on one line.
        ReadError {
            kind,
            file: file.into(),
            json_path: crate::text::one_line(json_path.into()),
            reason: crate::text::one_line(reason.into()),
            io: None,
        }
    }

    /// A value at `json_path` that breaks the format's rules ([`ReadErrorKind::Schema`]).
    pub fn schema(
        file: impl Into<PathBuf>,
        json_path: impl Into<String>,
        reason: impl Into<String>,
    ) -> ReadError {
        ReadError::new(ReadErrorKind::Schema, file, json_path, reason)
    }

    /// Text that is not valid JSON, found at `json_path` ([`ReadErrorKind::Syntax`]).
    pub fn syntax(
        file: impl Into<PathBuf>,
        json_path: impl Into<String>,
        reason: impl Into<String>,
    ) -> ReadError {
        ReadError::new(ReadErrorKind::Syntax, file, json_path, reason)
    }

    /// The file could not be read from disk ([`ReadErrorKind::Io`]); the error is kept as
    /// the source.
    pub fn io(file: impl Into<PathBuf>, error: std::io::Error) -> ReadError {
        let reason = format!("cannot read file: {error}");
        ReadError {
            io: Some(Arc::new(error)),
            ..ReadError::new(ReadErrorKind::Io, file, "", reason)
        }
    }

    /// The bytes of `file` could not be had: an I/O error ([`ReadErrorKind::Io`], kept as the
    /// source) or a file over the size limit ([`ReadErrorKind::TooLarge`]).
    pub fn file(file: impl Into<PathBuf>, error: super::file_bytes::FileReadError) -> ReadError {
        match error {
            super::file_bytes::FileReadError::Io(e) => ReadError::io(file, e),
            too_large @ super::file_bytes::FileReadError::TooLarge { .. } => {
                ReadError::new(ReadErrorKind::TooLarge, file, "", too_large.to_string())
            }
        }
    }

    /// The read of `file` was cancelled ([`ReadErrorKind::Cancelled`]).
    pub fn cancelled(file: impl Into<PathBuf>) -> ReadError {
        ReadError::new(ReadErrorKind::Cancelled, file, "", "cancelled")
    }

    /// True when the read was cancelled rather than failed.
    pub fn is_cancelled(&self) -> bool {
        self.kind == ReadErrorKind::Cancelled
    }

    /// The error without the file: `"{json_path}: {reason}"`, or just the reason for the whole
    /// file (what a `validate` finding about the file says).
    pub fn located_reason(&self) -> String {
        if self.json_path.is_empty() {
            self.reason.clone()
        } else {
            format!("{}: {}", self.json_path, self.reason)
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.located_reason())
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// A document that cannot be written in a format at all: the keys or tracks it has no place
/// for (NaN or unsorted times, a Lottie file's missing properties, …). Its
/// [`Display`](fmt::Display) is the one-line reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotWritable {
    /// The format the document was to be written in.
    pub format: Format,
    /// What has no place in it, on one line.
    pub reason: String,
}

impl NotWritable {
    /// A document that cannot be written as `format`, for `reason` (one line).
    pub fn new(format: Format, reason: impl Into<String>) -> NotWritable {
        NotWritable {
            format,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for NotWritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for NotWritable {}

/// Why a document could not be written to a file. Its source is the [`NotWritable`] or the
/// I/O error it wraps.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// The document has no place in its format; the file was left alone.
    NotWritable(NotWritable),
    /// The file system refused (no permission, disk full, …); the file was left alone.
    Io(std::io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotWritable(e) => e.fmt(f),
            WriteError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::NotWritable(e) => Some(e),
            WriteError::Io(e) => Some(e),
        }
    }
}

impl From<NotWritable> for WriteError {
    fn from(e: NotWritable) -> WriteError {
        WriteError::NotWritable(e)
    }
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_with_path() {
        let e = ReadError::schema("a.json", "tracks[3].times[7]", "null is not a number");
        assert_eq!(
            e.to_string(),
            "a.json: tracks[3].times[7]: null is not a number"
        );
        assert_eq!(e.kind, ReadErrorKind::Schema);
        let e = ReadError::syntax("a.json", "", "file is empty");
        assert_eq!(e.to_string(), "a.json: file is empty");
        assert_eq!(e.located_reason(), "file is empty");
    }

    #[test]
    fn cancelled_is_a_kind_not_a_string() {
        let e = ReadError::cancelled("big.json");
        assert!(e.is_cancelled());
        assert_eq!(e.to_string(), "big.json: cancelled");
        assert!(!ReadError::schema("a.json", "", "cancelled").is_cancelled());
    }

    #[test]
    fn write_errors_say_why() {
        let e = WriteError::from(NotWritable {
            format: Format::Gltf,
            reason: "track x has NaN times".into(),
        });
        assert_eq!(e.to_string(), "track x has NaN times");
        assert!(matches!(e, WriteError::NotWritable(_)));
        let e = WriteError::from(std::io::Error::other("disk full"));
        assert_eq!(e.to_string(), "disk full");
        let source = std::error::Error::source(&e).expect("the I/O error");
        assert!(source.downcast_ref::<std::io::Error>().is_some());
    }

    #[test]
    fn read_errors_keep_the_io_error() {
        use std::error::Error;
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = ReadError::io("a.json", io);
        assert_eq!(e.to_string(), "a.json: cannot read file: no such file");
        assert_eq!(e.kind, ReadErrorKind::Io);
        let source = e.source().and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(
            source.map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
        let copy = e.clone();
        assert_eq!(copy, e);
        assert!(copy.source().is_some());
        let e = ReadError::file(
            "b.json",
            super::super::file_bytes::FileReadError::Io(std::io::Error::other("gone")),
        );
        assert_eq!(e.to_string(), "b.json: cannot read file: gone");
        assert!(e.source().is_some());
        let too_large = super::super::file_bytes::FileReadError::TooLarge {
            size: 10 << 20,
            limit: 1 << 20,
        };
        let e = ReadError::file("c.json", too_large);
        assert_eq!(e.kind, ReadErrorKind::TooLarge);
        assert!(e.source().is_none());
        assert!(ReadError::schema("a.json", "x", "y").source().is_none());
    }
}
