//! File formats: reading bytes into a [`Document`] and writing it back.
//!
//! Each format lives in its own module ([`threejs`], [`threejs_legacy`], [`playcanvas`],
//! [`playcanvas_anim`], [`lottie`], [`gltf`]) with a serde schema that mirrors the file, converters to and from the
//! [`model`](crate::model), and a [`Codec`](codec::Codec) that the [`registry`] lists. The
//! registry is the one place that knows every format: its name and extensions, content
//! detection (in one order), reading, linting, writing and what a conversion loses. The
//! functions here are the whole public interface and go through it.
//!
//! Reading never panics: a [`ReadError`] has a [`ReadErrorKind`] and names the file, the JSON
//! path of the culprit (`tracks[3].times[7]`) and the reason, on one line. Every reader takes
//! the same [`ReadOptions`], reports progress and stops when cancelled. [`lint_bytes`] is the
//! lenient read behind `clipscope validate`. Writing goes through one JSON layer ([`json`]: one
//! number formatter, one writer) and one atomic file writer ([`atomic`]); a document read from a
//! file is written back in the same shape.

pub(crate) mod adapt;
pub(crate) mod applicability;
pub(crate) mod atomic;
pub(crate) mod codec;
pub(crate) mod comparison;
pub(crate) mod document;
pub(crate) mod error;
pub mod euler;
pub(crate) mod fidelity;
pub(crate) mod file_bytes;
pub(crate) mod gltf;
pub mod json;
pub(crate) mod keys;
pub(crate) mod legacy_geometry;
pub mod lottie;
pub(crate) mod options;
pub(crate) mod playcanvas;
pub(crate) mod playcanvas_anim;
pub(crate) mod progress;
pub(crate) mod property;
pub(crate) mod reduction;
pub(crate) mod registry;
pub(crate) mod rig_file;
pub(crate) mod rule;
pub(crate) mod sampler_keys;
pub(crate) mod stamp;
pub(crate) mod threejs;
pub(crate) mod threejs_legacy;

use std::path::Path;

pub use atomic::write_atomic;
pub use comparison::diff_documents;
pub use document::{Accepted, Document, Unread};
pub use error::{NotWritable, ReadError, ReadErrorKind, WriteError};
pub use fidelity::readback::aliases as track_aliases;
pub use fidelity::{
    DEFAULT_RELATIVE, DEFAULT_ROTATION_DEG, Fidelity, Limits, LimitsError, Quantity, Seam,
    Tolerance, TrackFidelity,
};
pub use file_bytes::{DEFAULT_MAX_FILE_SIZE, FileReadError, read_limited};
pub use gltf::pack::storage::{TrackStorage, track_storage};
pub use gltf::pack::stored::{packed_storage, stored_track};
pub use options::{Packing, ReadOptions, WriteOptions};
pub use progress::LoadProgress;
pub use property::Property;
pub use reduction::Budget;
pub use registry::{
    Curves, Format, FormatSpec, LengthUnit, PropertyUnit, clip_extensions, is_clip_extension,
};
pub use rig_file::{PartFile, RigFile};
pub use rule::{Applies, Rule};
pub use stamp::FileStamp;

use crate::model::Problem;
use codec::Input;
use file_bytes::FileBytes;

/// The frame rate the file of `clip` states: its `fps` field (three.js, legacy three.js,
/// PlayCanvas) or the Lottie composition's frame rate; `None` when it states none.
pub fn stated_frame_rate(clip: &crate::model::Clip) -> Option<f64> {
    adapt::stated_fps(clip)
}

/// Reads and parses the file at `path` with the default options (see [`read_file_with`]).
pub fn read_file(path: &Path) -> Result<Document, ReadError> {
    read_file_with(path, &ReadOptions::default())
}

/// Reads and parses the file at `path`, detecting the format by content, with `opts` (the
/// frame rate of morph-target clips, progress and cancel). A large GLB file laid out as
/// writers lay it out has its BIN chunk's data read into a buffer of its own, which the reader
/// keeps as the file's first buffer instead of copying it.
pub fn read_file_with(path: &Path, opts: &ReadOptions) -> Result<Document, ReadError> {
    let read = file_bytes::read_limited_detaching(path, opts.max_file_size, |first, len| {
        gltf::glb::bin_data_start(first, len)
    })
    .map_err(|e| ReadError::file(path, e))?;
    match read {
        FileBytes::Whole(bytes) => read_bytes_with(&bytes, path, opts),
        // Laid out as the file's first bytes said when they were read again (not rewritten
        // meanwhile): the glTF reader takes the data.
        FileBytes::Detached { head, tail }
            if gltf::glb::detached_json(&head, tail.len()).is_some() =>
        {
            let total = head.len() + tail.len();
            let bin = codec::DetachedBin::new(tail);
            with_input_of(&head, total, Some(&bin), path, opts, |input| {
                let (_, codec) = registry::detect(&head);
                input.check_cancelled()?;
                codec.read(input)
            })
        }
        FileBytes::Detached { mut head, tail } => {
            head.extend_from_slice(&tail);
            read_bytes_with(&head, path, opts)
        }
    }
}

/// Parses `bytes` (the contents of `file`, named in errors) with the default options.
pub fn read_bytes(bytes: &[u8], file: &Path) -> Result<Document, ReadError> {
    read_bytes_with(bytes, file, &ReadOptions::default())
}

/// Parses `bytes` (the contents of `file`, named in errors), detecting the format by content,
/// with `opts`. Progress goes to `opts.progress`, which ends at 1 when the read succeeds; a
/// cancelled read stops early with a [`ReadErrorKind::Cancelled`] error.
pub fn read_bytes_with(
    bytes: &[u8],
    file: &Path,
    opts: &ReadOptions,
) -> Result<Document, ReadError> {
    with_input(bytes, file, opts, |input| {
        let (_, codec) = registry::detect(bytes);
        input.check_cancelled()?;
        codec.read(input)
    })
}

/// Parses `bytes` (the contents of `file`) as `format`, whatever their content suggests: what
/// a caller that already knows the format (a fuzz target, a `--format` option) uses. Errors
/// and progress as [`read_bytes_with`].
pub fn read_bytes_as(
    format: Format,
    bytes: &[u8],
    file: &Path,
    opts: &ReadOptions,
) -> Result<Document, ReadError> {
    with_input(bytes, file, opts, |input| format.codec().read(input))
}

/// The lenient read of [`lint_bytes`] with `format` chosen by the caller, not detected.
pub fn lint_bytes_as(format: Format, bytes: &[u8], file: &Path, opts: &ReadOptions) -> Linted {
    finish_lint(with_input(bytes, file, opts, |input| {
        format.codec().lint(input)
    }))
}

/// What the lenient read behind `clipscope validate` found in a file.
#[derive(Debug, Default)]
pub struct Linted {
    /// The document, when the file is readable at all.
    pub doc: Option<Document>,
    /// Every problem found: the readers', the model's validation of every clip, the format's
    /// raw-file rules and one `unsupported-content` per place of [`Document::unread`].
    pub problems: Vec<Problem>,
    /// Tracks `(clip, track)` whose keys the file does not store but the format defines (a
    /// glTF accessor without a buffer view holds zeros): rules about key data say nothing
    /// about the file there, so the validation engine does not apply them.
    pub unstored: Vec<(usize, usize)>,
}

impl Linted {
    /// A file that could not be read at all: the one `parse` problem.
    pub fn unreadable(reason: String) -> Linted {
        Linted {
            doc: None,
            problems: vec![Problem::error("parse", reason)],
            unstored: Vec::new(),
        }
    }
}

/// The lenient read behind `clipscope validate` for the file at `path` (see [`lint_bytes`]).
pub fn lint_file(path: &Path, opts: &ReadOptions) -> Linted {
    match read_limited(path, opts.max_file_size) {
        Ok(bytes) => lint_bytes(&bytes, path, opts),
        Err(e) => Linted::unreadable(ReadError::file(path, e).reason),
    }
}

/// Reads `bytes` leniently: the document when it is readable at all, plus every problem found.
/// What makes three.js's `parse` throw is an error with code `parse` (the track or clip is left
/// out or empty); a value count that is not a whole number per key is `invalid-value-size` (the
/// track is left out); non-numbers are `time-not-a-number` / `value-not-a-number` at their key
/// (kept as three.js's `Float32Array` would store them). glTF files get every check of the
/// Khronos glTF-Validator on animation data, and the channels they break are left out. Messages
/// carry the JSON path (a JSON pointer for glTF). Other formats are read strictly: their first
/// problem is the one `parse` error, otherwise the problems are the model's validation of their
/// clips plus the format's own rules. Keyframe data the reader skipped is `unsupported-content`.
pub fn lint_bytes(bytes: &[u8], file: &Path, opts: &ReadOptions) -> Linted {
    finish_lint(with_input(bytes, file, opts, |input| {
        let (_, codec) = registry::detect(bytes);
        codec.lint(input)
    }))
}

/// The lenient read's result with the `unsupported-content` warnings added, or the one `parse`
/// problem of a file that could not be read at all.
fn finish_lint(read: Result<Linted, ReadError>) -> Linted {
    match read {
        Ok(mut linted) => {
            if let Some(doc) = &linted.doc {
                linted.problems.extend(unsupported_content(doc));
            }
            linted
        }
        Err(e) => Linted::unreadable(e.located_reason()),
    }
}

/// The problems of a document in memory (one being edited, or not writable as a file): the
/// model's validation of every clip and one `unsupported-content` per place of
/// [`Document::unread`]. The format's raw-file rules need the file, so they are not run.
pub fn lint_document(doc: &Document) -> Vec<Problem> {
    let mut problems = codec::validate_clips(doc);
    problems.extend(unsupported_content(doc));
    problems
}

/// One `unsupported-content` warning per place of `doc.unread`, then one per part of the
/// document's artwork that is not drawn ([`Document::artwork_notes`]).
fn unsupported_content(doc: &Document) -> impl Iterator<Item = Problem> + '_ {
    let unread = doc.unread.iter().map(|u| {
        let mut p = Problem::warning(
            "unsupported-content",
            format!(
                "{}: {}, which clipscope does not read (it is not shown, checked or converted)",
                u.path, u.what
            ),
        );
        p.clip = u.clip;
        p
    });
    let art = doc.artwork_notes().into_iter().map(|(path, why)| {
        Problem::warning(
            "unsupported-content",
            format!("{path}: {why} (the composition's art is drawn without it)"),
        )
    });
    unread.chain(art)
}

/// Runs `read` on the [`Input`] for `bytes`, with progress going to `opts.progress` (or
/// nowhere) and marked complete when the read succeeds.
fn with_input<T>(
    bytes: &[u8],
    file: &Path,
    opts: &ReadOptions,
    read: impl FnOnce(&Input<'_>) -> Result<T, ReadError>,
) -> Result<T, ReadError> {
    with_input_of(bytes, bytes.len(), None, file, opts, read)
}

/// [`with_input`] for a file of `total` bytes, of which `bytes` are the first when a GLB's
/// BIN chunk data was read apart (`detached_bin`).
fn with_input_of<T>(
    bytes: &[u8],
    total: usize,
    detached_bin: Option<&codec::DetachedBin>,
    file: &Path,
    opts: &ReadOptions,
    read: impl FnOnce(&Input<'_>) -> Result<T, ReadError>,
) -> Result<T, ReadError> {
    let unwatched = LoadProgress::new();
    let progress = opts.progress.as_deref().unwrap_or(&unwatched);
    progress.set_total(total);
    let input = Input {
        bytes,
        file,
        options: opts,
        progress,
        detached_bin,
    };
    let result = read(&input)?;
    progress.advance_to(total);
    Ok(result)
}

/// Whether `doc` can be written in its format at all: `Err` names broken keys the format cannot
/// store (NaN or unsorted times; for glTF also zero quaternions, two tracks for one node
/// property, weights without morph targets). What a format merely cannot carry is adapted
/// (baked at the source frame rate, padded, cut at time 0) or left out, and listed by
/// [`conversion_losses`]: legacy three.js JSON writes node tracks as bones, PlayCanvas JSON its
/// first clip (`clipscope convert` writes one file per clip), glTF node transforms and weights.
/// [`write_file`] refuses a document this refuses.
pub fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    doc.format.codec().check_writable(doc)
}

/// What writing `doc` as `to` leaves out besides animation (which [`check_writable`] covers):
/// the other top-level fields of the file it came from, a skeleton or morph mesh the target has
/// no place for, clip `userData` and unknown track fields in legacy output, and so on. One
/// human-readable line each; empty when nothing is lost.
pub fn conversion_losses(doc: &Document, to: Format) -> Vec<String> {
    let mut lost = if doc.format.same_family(to) {
        Vec::new()
    } else {
        doc.format.codec().losses_leaving(doc, to)
    };
    lost.extend(to.codec().losses_entering(doc, to));
    lost
}

/// How `doc` (a document in its destination format, as [`Document::converted_to`] makes it)
/// plays in that format's player once written with `opts`, against how its clips play in the
/// model (three.js r187): per numeric track, where it was written, the largest deviation and
/// when, and the keys the writer added so the destination follows the source. `losses` (from
/// [`conversion_losses`]) name why a track was not written.
pub fn fidelity(doc: &Document, opts: &WriteOptions, losses: &[String]) -> Fidelity {
    let played = doc.format.codec().played(doc, opts);
    fidelity::measure::measure(doc, played, losses)
}

/// `doc` serialized with `opts` ([`write_bytes`]) and how it plays in its destination
/// ([`fidelity`]), from one pass of the writer: what `convert` writes is what it measured.
/// Check [`check_writable`] first.
pub fn write_measured(
    doc: &Document,
    opts: &WriteOptions,
    losses: &[String],
) -> (Vec<u8>, Fidelity) {
    let (bytes, played) = doc.format.codec().write_played(doc, opts);
    (bytes, fidelity::measure::measure(doc, played, losses))
}

/// How `doc` would play exported to `to` with `opts` (what the editor's export dialog shows
/// before writing): the document converted, its [`Fidelity`] measured against the conversion's
/// losses. A document `to` cannot hold at all is its [`NotWritable`].
pub fn export_fidelity(
    doc: &Document,
    to: Format,
    opts: &WriteOptions,
) -> Result<Fidelity, NotWritable> {
    let losses = conversion_losses(doc, to);
    let converted = doc.clone().converted_to(to);
    check_writable(&converted)?;
    Ok(fidelity(&converted, opts, &losses))
}

/// Serializes `doc` in its format, keeping the shape it was read in. Tracks the format cannot
/// hold are left out: check with [`check_writable`] first ([`write_file`] does).
pub fn write_bytes(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    doc.format.codec().write(doc, opts)
}

/// [`write_bytes`] when [`check_writable`] passes, else its error: one call that checks and
/// writes (a glTF writer plans the file once for both).
pub fn write_bytes_checked(doc: &Document, opts: &WriteOptions) -> Result<Vec<u8>, NotWritable> {
    doc.format.codec().write_checked(doc, opts)
}

/// Writes `doc` to `path` atomically (temporary file in the same folder, then rename), streaming
/// it where the format allows: the target is either untouched or completely replaced. A
/// document [`check_writable`] refuses is a [`WriteError::NotWritable`] and leaves the target
/// alone.
pub fn write_file(doc: &Document, path: &Path, opts: &WriteOptions) -> Result<(), WriteError> {
    check_writable(doc)?;
    let codec = doc.format.codec();
    atomic::write_atomic_with(path, |out| codec.write_to(doc, opts, out))?;
    Ok(())
}
