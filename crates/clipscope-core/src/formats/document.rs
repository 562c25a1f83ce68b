//! A loaded file: its clips plus what a writer needs to put the file back together.

use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use super::Format;
use crate::model::{Clip, Model, MorphMesh, Skeleton};

/// How the original file was laid out, so writing back keeps its shape and unmodelled fields.
/// Only the format module that read the file knows the type inside (its layout: top-level
/// fields, single clip or array, the original bytes or glTF buffers); everything else just
/// carries it along.
#[derive(Clone, Default)]
pub(crate) struct Source(Option<Arc<dyn Any + Send + Sync>>);

impl Source {
    /// A source holding `layout`, the reading format's own description of the file.
    pub(crate) fn new<T: Any + Send + Sync>(layout: T) -> Source {
        Source(Some(Arc::new(layout)))
    }

    /// The layout, when it is a `T` (the format module that made it asks).
    pub(crate) fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_deref()?.downcast_ref::<T>()
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Source(..)"
        } else {
            "None"
        })
    }
}

/// The clips of one file, with where they came from and the original layout for round trips.
#[derive(Debug, Clone)]
pub struct Document {
    /// The file the document was read from, if any.
    pub path: Option<PathBuf>,
    /// The detected (or chosen) format.
    pub format: Format,
    /// The clips, in file order.
    pub clips: Vec<Clip>,
    /// The bone hierarchy, when the file has one (legacy three.js `bones`, glTF skins).
    pub skeleton: Option<Skeleton>,
    /// The morph-target mesh, when the file is a model with morph targets (legacy three.js
    /// format 3, glTF meshes with targets). Shared, so views of it (the viewport's player, the
    /// GPU upload) are cheap and can tell the same mesh by pointer.
    pub mesh: Option<Arc<MorphMesh>>,
    /// The file's 3D model, when it has meshes to draw (glTF meshes, skins and materials; a
    /// legacy three.js skinned model): what the viewport shows the clips playing on. Shared
    /// like [`mesh`](Self::mesh).
    pub model: Option<Arc<Model>>,
    /// Keyframe data the file holds in a shape clipscope does not read, where it is and what it
    /// is: never shown or checked, so `validate` reports each (`unsupported-content`) and
    /// `info` and the editor list them.
    pub unread: Vec<Unread>,
    /// Unusual shapes the reader accepted the way the destination's own engine reads them (an
    /// anim clip's 4-component `localEulerAngles` output, say): `info` lists them and
    /// `validate` notes each.
    pub accepted: Vec<Accepted>,
    /// The original layout (top-level fields, single clip or array), kept for writing back.
    pub(crate) source: Source,
}

/// A shape a reader accepted because the engine the file is made for accepts it, though the
/// format's own writers do not make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The JSON path of the data (`curves[3]`).
    pub path: String,
    /// What was accepted and how it is read, as a phrase.
    pub what: String,
}

impl Accepted {
    /// `what` at JSON path `path`.
    pub fn new(path: impl Into<String>, what: impl Into<String>) -> Accepted {
        Accepted {
            path: path.into(),
            what: what.into(),
        }
    }

    /// The one-line description `info` shows: `PATH: WHAT`.
    pub fn describe(&self) -> String {
        format!("{}: {}", self.path, self.what)
    }
}

/// Keyframe data a reader skipped because clipscope does not read its shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// The JSON path of the data (`animations[0].channels[2]`, `layers[3].ks.sk`).
    pub path: String,
    /// What it is, as a phrase (`a channel aimed at /cameras/0/zfar`).
    pub what: String,
    /// The clip it would belong to, when it belongs to one.
    pub clip: Option<usize>,
}

impl Unread {
    /// Keyframe data at `path` described by `what`, outside any clip.
    pub fn new(path: impl Into<String>, what: impl Into<String>) -> Unread {
        Unread {
            path: path.into(),
            what: what.into(),
            clip: None,
        }
    }

    /// The same, belonging to clip `clip`.
    pub fn in_clip(mut self, clip: usize) -> Unread {
        self.clip = Some(clip);
        self
    }

    /// The one-line description `info` and the editor show: `PATH: WHAT (not read)`.
    pub fn describe(&self) -> String {
        format!("{}: {} (not read)", self.path, self.what)
    }
}

impl Document {
    /// This document with `clips` in place of its own (everything else copied, the old clips
    /// not): what an operation that rebuilds every clip writes.
    pub fn with_clips(&self, clips: Vec<Clip>) -> Document {
        Document {
            path: self.path.clone(),
            format: self.format,
            clips,
            skeleton: self.skeleton.clone(),
            mesh: self.mesh.clone(),
            model: self.model.clone(),
            source: self.source.clone(),
            unread: self.unread.clone(),
            accepted: self.accepted.clone(),
        }
    }

    /// A document of `format` holding `clips`, not read from any file. A three.js writer puts
    /// one clip as a clip object and any other number as an array of clips.
    pub fn new(format: Format, clips: Vec<Clip>) -> Document {
        Document {
            path: None,
            format,
            clips,
            skeleton: None,
            mesh: None,
            model: None,
            unread: Vec::new(),
            accepted: Vec::new(),
            source: Source::default(),
        }
    }

    /// The same document to be written as `format`: when that is another format, the layout of
    /// the file it was read from is forgotten, so the writer picks that format's natural shape.
    /// Clips, skeleton, mesh and model are kept (see [`conversion_losses`](super::conversion_losses) for
    /// what the target cannot hold). Between formats of one family (`.gltf` and `.glb`)
    /// the file is kept: only its container changes.
    pub fn converted_to(mut self, format: Format) -> Document {
        if !format.same_family(self.format) {
            self.source = Source::default();
        }
        self.format = format;
        self
    }

    /// The layout of the file the document was read from, when its reader stored a `T`.
    pub(crate) fn source<T: Any>(&self) -> Option<&T> {
        self.source.get::<T>()
    }

    /// What draws the document's compositions, when its format has artwork (Lottie's shapes,
    /// solids, precompositions, masks and mattes): the viewport and `clipscope render` ask it
    /// for a clip's [`Picture`](crate::model::picture::Picture) at a time. Made from the file
    /// each time it is asked (callers keep it).
    pub fn artwork(&self) -> Option<Arc<dyn crate::model::picture::Artwork>> {
        self.format.codec().artwork(self)
    }

    /// What of the document's artwork is not drawn (text, effects, blend modes, …), one
    /// `(JSON path, why)` each.
    pub fn artwork_notes(&self) -> Vec<(String, String)> {
        self.format.codec().artwork_notes(self)
    }

    /// Whether the document was read from a file whose layout it keeps for writing back.
    pub(crate) fn has_source(&self) -> bool {
        self.source.0.is_some()
    }
}
