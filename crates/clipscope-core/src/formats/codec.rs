//! What a format module gives the [`registry`](super::registry): one [`Codec`] per module, which
//! detects, reads, lints and writes its format and says what a conversion into it (or out of a
//! file of it) loses. Readers get everything they need in one [`Input`]: the bytes, the file
//! name for errors, the [`ReadOptions`] and the [`LoadProgress`] to report to and stop on.

use std::io::Write;
use std::path::Path;

use super::fidelity::Played;
use super::json::Located;
use super::{
    Document, Format, Linted, LoadProgress, NotWritable, ReadError, ReadOptions, WriteOptions,
};
use crate::model::Problem;

/// One file being read: its bytes, its name, how to read it and where progress goes.
pub(crate) struct Input<'a> {
    /// The file's contents.
    pub bytes: &'a [u8],
    /// The file (named in errors; relative references such as glTF buffers are resolved
    /// against its folder).
    pub file: &'a Path,
    /// How to read it.
    pub options: &'a ReadOptions,
    /// Where the read reports how far it got, and whether it should stop.
    pub progress: &'a LoadProgress,
    /// For a GLB file read in two parts, its BIN chunk's data (then `bytes` holds the file up
    /// to it): the glTF reader takes it as the first buffer instead of copying it.
    pub detached_bin: Option<&'a DetachedBin>,
}

/// A GLB file's BIN chunk data, read into a buffer of its own
/// ([`read_file_with`](super::read_file_with)): on a long take that is megabytes the reader
/// need not copy out of the file's bytes.
pub(crate) struct DetachedBin {
    /// The data, until the reader takes it.
    data: std::sync::Mutex<Option<Vec<u8>>>,
    /// Its length in bytes (part of the file's size, for progress).
    len: usize,
}

impl DetachedBin {
    /// Holds `data` until the reader takes it.
    pub(crate) fn new(data: Vec<u8>) -> DetachedBin {
        DetachedBin {
            len: data.len(),
            data: std::sync::Mutex::new(Some(data)),
        }
    }

    /// The data, the first time it is asked for.
    pub(crate) fn take(&self) -> Option<Vec<u8>> {
        self.data.lock().ok()?.take()
    }
}

impl Input<'_> {
    /// `Err(cancelled)` once the read was asked to stop; readers call it between tracks,
    /// layers, animations or nodes.
    pub(crate) fn check_cancelled(&self) -> Result<(), ReadError> {
        if self.progress.is_cancelled() {
            Err(ReadError::cancelled(self.file))
        } else {
            Ok(())
        }
    }

    /// Records that `done` of `total` units of work (tracks, layers, channels) are read, as
    /// the matching share of the file, and says whether to stop (`Err` once cancelled, to be
    /// placed in the file with [`Located::in_file`]).
    pub(crate) fn step(&self, done: usize, total: usize) -> Result<(), Located> {
        if total > 0 {
            let size = self.bytes.len() + self.detached_bin.map_or(0, |bin| bin.len);
            let share = (done.min(total) as f64 / total as f64 * size as f64) as usize;
            self.progress.advance_to(share);
        }
        if self.progress.is_cancelled() {
            Err(Located::cancelled())
        } else {
            Ok(())
        }
    }
}

/// A count of units of work across a read (layers of every composition, say), reporting each
/// one to an [`Input`] as it starts.
pub(crate) struct Steps<'i> {
    /// Where progress goes.
    input: &'i Input<'i>,
    /// Units started so far.
    done: usize,
    /// Units in all.
    total: usize,
}

impl Steps<'_> {
    /// Starts the next unit: reports the ones done and says whether to stop.
    pub(crate) fn next(&mut self) -> Result<(), Located> {
        self.input.step(self.done, self.total)?;
        self.done += 1;
        Ok(())
    }
}

impl<'i> Input<'i> {
    /// A counter of `total` units of work for [`Steps::next`].
    pub(crate) fn steps(&'i self, total: usize) -> Steps<'i> {
        Steps {
            input: self,
            done: 0,
            total,
        }
    }
}

/// A file format's reading, checking and writing, as the registry calls it. Implement it in
/// the format's module (`<format>/codec.rs`) and list it in [`registry`](super::registry).
pub(crate) trait Codec: Sync {
    /// The format of `bytes` when this codec reads them (decided by content, scanning as
    /// little as it can), else `None`.
    fn detect(&self, bytes: &[u8]) -> Option<Format>;

    /// Reads the file strictly: the document, or the first problem as a one-line error.
    /// Honours `input.options`, reports progress and stops when cancelled.
    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError>;

    /// The lenient read behind `clipscope validate`: the document (when it can be read at all)
    /// plus every problem found, or an error when nothing could be checked. By default the
    /// strict read, the model's validation of every clip, then the format's raw-file
    /// [`rules`](Codec::rules).
    fn lint(&self, input: &Input<'_>) -> Result<Linted, ReadError> {
        let doc = self.read(input)?;
        let mut problems = validate_clips(&doc);
        problems.extend(self.rules(input, &doc));
        Ok(Linted {
            doc: Some(doc),
            problems,
            unstored: Vec::new(),
        })
    }

    /// Findings only the raw file shows (the format's own lint rules), after a strict read
    /// gave `doc`.
    fn rules(&self, _input: &Input<'_>, _doc: &Document) -> Vec<Problem> {
        Vec::new()
    }

    /// Whether `doc` can be written in this format: `Err` names what it has no place for.
    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable>;

    /// `doc` in this format, in memory.
    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8>;

    /// [`check_writable`](Codec::check_writable), then [`write`](Codec::write) when it passes:
    /// a format whose check and writer plan alike overrides it to plan once.
    fn write_checked(&self, doc: &Document, opts: &WriteOptions) -> Result<Vec<u8>, NotWritable> {
        self.check_writable(doc)?;
        Ok(self.write(doc, opts))
    }

    /// Writes `doc` in this format to `out`. By default the file is made in memory and written
    /// in one piece; a format whose files get big streams it piece by piece instead.
    fn write_to(
        &self,
        doc: &Document,
        opts: &WriteOptions,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        out.write_all(&self.write(doc, opts))
    }

    /// What writing `doc` as `to` (one of this codec's formats) leaves out, one line each.
    fn losses_entering(&self, doc: &Document, to: Format) -> Vec<String>;

    /// What converting `doc` (of this codec's format) to the other format `to` leaves out of
    /// the file it came from, one line each.
    fn losses_leaving(&self, _doc: &Document, _to: Format) -> Vec<String> {
        Vec::new()
    }

    /// How the destination's player plays each track of `doc` (a document of this codec's
    /// format) as written with `opts`: per source track, where it goes and the keys the player
    /// gets. By default the file is read back with this codec's reader and the tracks are found
    /// by name ([`fidelity::readback`](super::fidelity::readback)), which is right where the
    /// reader reads the file as its player plays it.
    fn played(&self, doc: &Document, opts: &WriteOptions) -> Vec<Played> {
        super::fidelity::readback::played(doc, opts)
    }

    /// The file [`Codec::write`] makes and how it plays ([`Codec::played`]) at once: a writer
    /// that fits keys for its destination fits them once for both.
    fn write_played(&self, doc: &Document, opts: &WriteOptions) -> (Vec<u8>, Vec<Played>) {
        (self.write(doc, opts), self.played(doc, opts))
    }

    /// What draws `doc`'s compositions (a layered 2D format's artwork), if the format has
    /// any: by default none.
    fn artwork(
        &self,
        _doc: &Document,
    ) -> Option<std::sync::Arc<dyn crate::model::picture::Artwork>> {
        None
    }

    /// What of `doc`'s artwork is not drawn, one `(JSON path, why)` each: by default nothing.
    fn artwork_notes(&self, _doc: &Document) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// The model's validation of every clip of `doc`, each problem placed in its clip.
pub(crate) fn validate_clips(doc: &Document) -> Vec<Problem> {
    doc.clips
        .iter()
        .enumerate()
        .flat_map(|(c, clip)| clip.validate().into_iter().map(move |p| p.in_clip(c)))
        .collect()
}

/// Whether writing `doc` as `to` keeps the model it was read with (same format, read from a
/// file), so a mesh or skeleton the file had is written back with it.
pub(crate) fn keeps_model(doc: &Document, to: Format) -> bool {
    to == doc.format && doc.has_source()
}

/// What a format that holds a morph mesh only in a file of its own loses of `doc` written as
/// `to`: the mesh, unless `doc` was read from such a file ([`keeps_model`]).
pub(crate) fn lost_mesh_unless_kept(doc: &Document, to: Format) -> Vec<String> {
    if keeps_model(doc, to) {
        Vec::new()
    } else {
        lost_mesh(doc).into_iter().collect()
    }
}

/// "the morph mesh (…)" when `doc` has one: what a format without a place for meshes loses.
pub(crate) fn lost_mesh(doc: &Document) -> Option<String> {
    doc.mesh.as_ref().map(|mesh| {
        format!(
            "the morph mesh ({} vertices, {} triangles, {} morph targets)",
            mesh.vertices.len(),
            mesh.triangles.len(),
            mesh.targets.len()
        )
    })
}

/// "the other top-level fields of the {format} file (a, b)" for `names`, or nothing when there
/// are none: what leaving a file's format loses of the file.
pub(crate) fn other_fields(doc: &Document, names: Vec<&str>) -> Option<String> {
    (!names.is_empty()).then(|| {
        format!(
            "the other top-level fields of the {} file ({})",
            doc.format.name(),
            names.join(", ")
        )
    })
}

/// Reads `bytes` with `codec` whatever detection would say, with the default options (tests of
/// one reader's errors).
#[cfg(test)]
pub(crate) fn read_as(codec: &dyn Codec, bytes: &[u8], file: &Path) -> Result<Document, ReadError> {
    let progress = LoadProgress::new();
    codec.read(&Input {
        bytes,
        file,
        options: &ReadOptions::default(),
        progress: &progress,
        detached_bin: None,
    })
}
