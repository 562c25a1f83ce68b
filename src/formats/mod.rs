//! File formats: reading bytes into a [`Document`] and writing it back.
//!
//! Each format lives in its own module (only [`threejs`] so far) with a serde schema that mirrors
//! the file and converters to and from the [`model`](crate::model). Detection looks at content.
//! Reading never panics: a [`ReadError`] names the file, the JSON path of the culprit
//! (`tracks[3].times[7]`) and the reason, on one line. [`lint_bytes`] is the lenient read behind
//! `clipscope validate`. Writing goes through one number formatter ([`number`]) and one atomic
//! file writer ([`atomic`]); a document read from a file is written back in the same shape.

pub mod atomic;
pub mod document;
pub mod error;
pub mod file_bytes;
pub mod json_path;
pub mod number;
pub mod progress;
pub mod threejs;

use std::path::Path;

use file_bytes::FileBytes;

pub use document::{Document, Format};
pub use error::ReadError;
pub use progress::LoadProgress;

use crate::model::Problem;

/// How [`write_bytes`] and [`write_file`] format numbers and layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriteOptions {
    /// Round numbers to this many decimals (trailing zeros trimmed); `None` writes the shortest
    /// text that reads back to the same `f32`.
    pub precision: Option<u32>,
    /// Indent objects (two spaces); numeric arrays stay on one line.
    pub pretty: bool,
}

/// Reads and parses the file at `path` (see [`read_bytes`]).
pub fn read_file(path: &Path) -> Result<Document, ReadError> {
    let bytes = FileBytes::open(path)
        .map_err(|e| ReadError::new(path, "", format!("cannot read file: {e}")))?;
    read_bytes(&bytes, path)
}

/// Parses `bytes` (the contents of `file`, named in errors), detecting the format by content.
pub fn read_bytes(bytes: &[u8], file: &Path) -> Result<Document, ReadError> {
    threejs::read::read(bytes, file, threejs::read::Mode::Strict, None).map(|(doc, _)| doc)
}

/// Reads the file at `path` like [`read_file`], reporting progress to `progress` and stopping
/// with a "cancelled" error when it is cancelled (the editor's background loads).
pub fn read_file_with_progress(
    path: &Path,
    progress: &LoadProgress,
) -> Result<Document, ReadError> {
    let bytes = FileBytes::open(path)
        .map_err(|e| ReadError::new(path, "", format!("cannot read file: {e}")))?;
    progress.set_total(bytes.len());
    let doc = threejs::read::read(&bytes, path, threejs::read::Mode::Strict, Some(progress))
        .map(|(doc, _)| doc)?;
    progress.advance_to(bytes.len());
    Ok(doc)
}

/// The lenient read behind `clipscope validate` for the file at `path` (see [`lint_bytes`]).
pub fn lint_file(path: &Path) -> (Option<Document>, Vec<Problem>) {
    match FileBytes::open(path) {
        Ok(bytes) => lint_bytes(&bytes, path),
        Err(e) => (
            None,
            vec![Problem::error("parse", format!("cannot read file: {e}"))],
        ),
    }
}

/// Reads `bytes` leniently: the document when it is readable at all, plus every problem found.
/// What makes three.js's `parse` throw is an error with code `parse` (the track or clip is left
/// out or empty); a value count that is not a whole number per key is `invalid-value-size` (the
/// track is left out); non-numbers are `time-not-a-number` / `value-not-a-number` at their key
/// (kept as three.js's `Float32Array` would store them). Messages carry the JSON path.
pub fn lint_bytes(bytes: &[u8], file: &Path) -> (Option<Document>, Vec<Problem>) {
    match threejs::read::read(bytes, file, threejs::read::Mode::Lenient, None) {
        Ok((doc, problems)) => (Some(doc), problems),
        Err(e) => {
            let message = if e.json_path.is_empty() {
                e.reason
            } else {
                format!("{}: {}", e.json_path, e.reason)
            };
            (None, vec![Problem::error("parse", message)])
        }
    }
}

/// Serializes `doc` in its format, keeping the shape it was read in.
pub fn write_bytes(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    match doc.format {
        Format::ThreeJs => threejs::write::write(doc, opts),
    }
}

/// Writes `doc` to `path` atomically (temporary file in the same folder, then rename): the
/// target is either untouched or completely replaced.
pub fn write_file(doc: &Document, path: &Path, opts: &WriteOptions) -> std::io::Result<()> {
    atomic::write_atomic_with(path, |out| match doc.format {
        Format::ThreeJs => threejs::write::write_to(doc, opts, out),
    })
}
