//! File formats: reading bytes into a [`Document`] and writing it back.
//!
//! Each format lives in its own module ([`threejs`], [`threejs_legacy`], [`playcanvas`],
//! [`lottie`], [`gltf`]) with a serde schema that mirrors the file and converters to and from the
//! [`model`](crate::model). Detection looks at content: glTF (the GLB magic, or JSON with glTF's
//! top-level keys) goes to [`gltf`], Lottie compositions to [`lottie`], legacy model files (format
//! 3) to [`threejs_legacy`], PlayCanvas `{"animation": {…}}` files to [`playcanvas`], everything
//! else to [`threejs`].
//! Reading never panics: a [`ReadError`] names the file, the JSON path of the culprit
//! (`tracks[3].times[7]`) and the reason, on one line. [`lint_bytes`] is the lenient read behind
//! `clipscope validate`. Writing goes through one number formatter ([`number`]) and one atomic
//! file writer ([`atomic`]); a document read from a file is written back in the same shape.

pub(crate) mod adapt;
pub mod atomic;
pub(crate) mod detect_scan;
pub mod document;
pub mod error;
pub mod file_bytes;
pub mod gltf;
pub mod json_path;
pub mod lottie;
pub mod number;
pub mod playcanvas;
pub mod progress;
pub(crate) mod raw_node;
pub mod threejs;
pub mod threejs_legacy;

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
    /// Legacy three.js output: write each hierarchy entry as one key of flat arrays
    /// (`{"time":[…],"pos":[…],"rot":[…],"scl":[…]}`, the threejs-serialize-animation shape)
    /// instead of one key object per time. A document read in that shape keeps it either way.
    pub serialized: bool,
}

/// How [`read_bytes_with`] turns what a file implies into clips.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadOptions {
    /// Frames per second of the clips made from a legacy model's numbered morph targets
    /// (`horse_A_001`, …); three.js's loaders and the horse example use 10.
    pub morph_fps: f64,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { morph_fps: 10.0 }
    }
}

/// Reads and parses the file at `path` (see [`read_bytes`]).
pub fn read_file(path: &Path) -> Result<Document, ReadError> {
    let bytes = FileBytes::open(path)
        .map_err(|e| ReadError::new(path, "", format!("cannot read file: {e}")))?;
    read_bytes(&bytes, path)
}

/// Reads and parses the file at `path` with `opts` (see [`read_bytes_with`]).
pub fn read_file_with(path: &Path, opts: &ReadOptions) -> Result<Document, ReadError> {
    let bytes = FileBytes::open(path)
        .map_err(|e| ReadError::new(path, "", format!("cannot read file: {e}")))?;
    read_bytes_with(&bytes, path, opts)
}

/// Parses `bytes` (the contents of `file`, named in errors), detecting the format by content.
pub fn read_bytes(bytes: &[u8], file: &Path) -> Result<Document, ReadError> {
    read_bytes_with(bytes, file, &ReadOptions::default())
}

/// Parses `bytes` like [`read_bytes`], with `opts` (the frame rate of morph-target clips).
pub fn read_bytes_with(
    bytes: &[u8],
    file: &Path,
    opts: &ReadOptions,
) -> Result<Document, ReadError> {
    if gltf::detect(bytes).is_some() {
        return gltf::read::read(bytes, file);
    }
    if lottie::detect(bytes) {
        return lottie::read::read(bytes, file);
    }
    if threejs_legacy::detect(bytes) {
        return threejs_legacy::read::read(bytes, file, opts);
    }
    if playcanvas::detect(bytes) {
        return playcanvas::read::read(bytes, file);
    }
    threejs::read::read(bytes, file, threejs::read::Mode::Strict, None).map(|(doc, _)| doc)
}

/// Reads the file at `path` like [`read_file`], reporting progress to `progress` and stopping
/// with a "cancelled" error when it is cancelled (the editor's background loads).
pub fn read_file_with_progress(
    path: &Path,
    progress: &LoadProgress,
) -> Result<Document, ReadError> {
    read_file_with_progress_and(path, progress, &ReadOptions::default())
}

/// [`read_file_with_progress`] with `opts` (the frame rate of morph-target clips).
pub fn read_file_with_progress_and(
    path: &Path,
    progress: &LoadProgress,
    opts: &ReadOptions,
) -> Result<Document, ReadError> {
    let bytes = FileBytes::open(path)
        .map_err(|e| ReadError::new(path, "", format!("cannot read file: {e}")))?;
    progress.set_total(bytes.len());
    let doc = if gltf::detect(&bytes).is_some() {
        gltf::read::read(&bytes, path)?
    } else if lottie::detect(&bytes) {
        lottie::read::read(&bytes, path)?
    } else if threejs_legacy::detect(&bytes) {
        threejs_legacy::read::read(&bytes, path, opts)?
    } else if playcanvas::detect(&bytes) {
        playcanvas::read::read(&bytes, path)?
    } else {
        threejs::read::read(&bytes, path, threejs::read::Mode::Strict, Some(progress))
            .map(|(doc, _)| doc)?
    };
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
/// (kept as three.js's `Float32Array` would store them). Messages carry the JSON path. A legacy
/// file is read strictly: its first problem is the one `parse` error, otherwise the problems are
/// the model's validation of its clips.
pub fn lint_bytes(bytes: &[u8], file: &Path) -> (Option<Document>, Vec<Problem>) {
    let read = if gltf::detect(bytes).is_some() {
        gltf::read::lint(bytes, file)
    } else if lottie::detect(bytes) {
        lottie::read::lint(bytes, file)
    } else if threejs_legacy::detect(bytes) {
        threejs_legacy::read::lint(bytes, file)
    } else if playcanvas::detect(bytes) {
        playcanvas::read::lint(bytes, file)
    } else {
        threejs::read::read(bytes, file, threejs::read::Mode::Lenient, None)
    };
    match read {
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

/// Whether `doc` can be written in its format at all: `Err` names broken keys the format cannot
/// store (NaN or unsorted times; for glTF also zero quaternions, two tracks for one node
/// property, weights without morph targets). What a format merely cannot carry is adapted
/// (baked at the source frame rate, padded, cut at time 0) or left out, and listed by
/// [`conversion_losses`]: legacy three.js JSON writes node tracks as bones, PlayCanvas JSON its
/// first clip (`clipscope convert` writes one file per clip), glTF node transforms and weights.
/// [`write_file`] refuses a document this refuses.
pub fn check_writable(doc: &Document) -> Result<(), String> {
    match doc.format {
        Format::ThreeJs => Ok(()),
        Format::ThreeJsLegacy => threejs_legacy::write::check_writable(doc),
        Format::Lottie => lottie::write::check_writable(doc),
        Format::PlayCanvas => playcanvas::write::check_writable(doc),
        Format::Gltf | Format::Glb => gltf::plan::check_writable(doc),
    }
}

/// What writing `doc` as `to` leaves out besides animation (which [`check_writable`] covers):
/// a skeleton or morph mesh three.js clip JSON has no place for, the other top-level fields of
/// the file it came from, clip `userData` and unknown track fields in legacy output. One
/// human-readable line each; empty when nothing is lost.
pub fn conversion_losses(doc: &Document, to: Format) -> Vec<String> {
    let mut lost = Vec::new();
    let other_fields = |names: Vec<&str>| {
        format!(
            "the other top-level fields of the {} file ({})",
            doc.format.name(),
            names.join(", ")
        )
    };
    match (&doc.source, to) {
        (document::Source::ThreeJs(threejs::Layout::Scene { fields, .. }), to)
            if to != Format::ThreeJs && !fields.is_empty() =>
        {
            lost.push(other_fields(
                fields.iter().map(|(k, _)| k.as_str()).collect(),
            ));
        }
        (document::Source::ThreeJsLegacy(layout), to) if to != Format::ThreeJsLegacy => {
            let names = layout.field_names();
            if !names.is_empty() {
                lost.push(other_fields(names));
            }
        }
        (document::Source::PlayCanvas(layout), to) if to != Format::PlayCanvas => {
            lost.extend(layout.losses());
        }
        (document::Source::Gltf(src), to) if !gltf::is_gltf(to) => {
            let names: Vec<&str> = src
                .root
                .keys()
                .map(String::as_str)
                .filter(|k| !matches!(*k, "asset" | "animations"))
                .collect();
            if !names.is_empty() {
                lost.push(other_fields(names));
            }
        }
        _ => {}
    }
    let keeps_model = to == doc.format && !matches!(doc.source, document::Source::None);
    // glTF output writes the morph mesh (or keeps the glTF file's meshes).
    if (to == Format::ThreeJs || !keeps_model)
        && !gltf::is_gltf(to)
        && let Some(mesh) = &doc.mesh
    {
        lost.push(format!(
            "the morph mesh ({} vertices, {} triangles, {} morph targets)",
            mesh.vertices.len(),
            mesh.triangles.len(),
            mesh.targets.len()
        ));
    }
    if to == Format::ThreeJs
        && let Some(skeleton) = &doc.skeleton
    {
        lost.push(format!(
            "the skeleton ({} bones; three.js clip JSON has no bone hierarchy)",
            skeleton.bones.len()
        ));
    }
    if to == Format::ThreeJsLegacy {
        lost.extend(threejs_legacy::write::field_losses(doc));
    }
    lost.extend(lottie::write::losses(doc, to));
    if to == Format::PlayCanvas {
        lost.extend(playcanvas::write::losses(doc));
    }
    if gltf::is_gltf(to) {
        lost.extend(gltf::plan::losses(doc));
    }
    lost
}

/// Serializes `doc` in its format, keeping the shape it was read in. Tracks the format cannot
/// hold are left out: check with [`check_writable`] first ([`write_file`] does).
pub fn write_bytes(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    match doc.format {
        Format::ThreeJs => threejs::write::write(doc, opts),
        Format::ThreeJsLegacy => threejs_legacy::write::write(doc, opts),
        Format::Lottie => lottie::write::write(doc, opts),
        Format::PlayCanvas => playcanvas::write::write(doc, opts),
        Format::Gltf | Format::Glb => gltf::write::write(doc, opts),
    }
}

/// Writes `doc` to `path` atomically (temporary file in the same folder, then rename): the
/// target is either untouched or completely replaced. A document [`check_writable`] refuses is
/// an `InvalidInput` error and leaves the target alone.
pub fn write_file(doc: &Document, path: &Path, opts: &WriteOptions) -> std::io::Result<()> {
    check_writable(doc).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    atomic::write_atomic_with(path, |out| match doc.format {
        Format::ThreeJs => threejs::write::write_to(doc, opts, out),
        Format::ThreeJsLegacy => threejs_legacy::write::write_to(doc, opts, out),
        Format::Lottie => lottie::write::write_to(doc, opts, out),
        Format::PlayCanvas => playcanvas::write::write_to(doc, opts, out),
        Format::Gltf | Format::Glb => out.write_all(&gltf::write::write(doc, opts)),
    })
}
