//! A loaded file: its clips plus what a writer needs to put the file back together.

use std::path::PathBuf;
use std::sync::Arc;

use crate::model::{Clip, MorphMesh, Skeleton};

use super::lottie::LottieSource;
use super::playcanvas::PlayCanvasLayout;
use super::threejs::Layout;
use super::threejs_legacy::LegacyLayout;

/// The file formats clipscope reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// three.js JSON: `AnimationClip.toJSON` clips, arrays of them, or ObjectLoader files.
    ThreeJs,
    /// Legacy three.js JSON (model format 3): `bones` with `hierarchy` animations, or morph-target
    /// models such as the horse.
    ThreeJsLegacy,
    /// Lottie / Bodymovin JSON: layer transforms of each composition as clips.
    Lottie,
    /// PlayCanvas animation JSON (versions 3 and 4): nodes with Euler-degree keys.
    PlayCanvas,
    /// glTF 2.0 JSON (`.gltf`), buffers embedded as base64 `data:` URIs when written.
    Gltf,
    /// Binary glTF 2.0 (`.glb`).
    Glb,
}

impl Format {
    /// Every format clipscope writes, in menu order.
    pub const ALL: &[Format] = &[
        Format::ThreeJs,
        Format::ThreeJsLegacy,
        Format::PlayCanvas,
        Format::Lottie,
        Format::Gltf,
        Format::Glb,
    ];

    /// A human-readable name for menus ("three.js AnimationClip JSON").
    pub fn description(self) -> &'static str {
        match self {
            Format::ThreeJs => "three.js AnimationClip JSON",
            Format::ThreeJsLegacy => "legacy three.js JSON (model format 3)",
            Format::Lottie => "Lottie / Bodymovin JSON",
            Format::PlayCanvas => "PlayCanvas animation JSON",
            Format::Gltf => "glTF 2.0 (.gltf, embedded buffers)",
            Format::Glb => "binary glTF 2.0 (.glb)",
        }
    }

    /// The short name used on the command line and in reports (`threejs`).
    pub fn name(self) -> &'static str {
        match self {
            Format::ThreeJs => "threejs",
            Format::ThreeJsLegacy => "threejs-legacy",
            Format::Lottie => "lottie",
            Format::PlayCanvas => "playcanvas",
            Format::Gltf => "gltf",
            Format::Glb => "glb",
        }
    }

    /// The usual file extension of the format, without the dot (`json`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::ThreeJs | Format::ThreeJsLegacy | Format::Lottie | Format::PlayCanvas => "json",
            Format::Gltf => "gltf",
            Format::Glb => "glb",
        }
    }

    /// Whether a file of this format holds a single clip (PlayCanvas animation JSON), so a
    /// document with more is written one file per clip.
    pub fn holds_one_clip(self) -> bool {
        matches!(self, Format::PlayCanvas)
    }

    /// The format with short name `name` (see [`Format::name`]), if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How the original file was laid out, so writing back keeps its shape and unmodelled fields.
#[derive(Debug, Clone, Default)]
pub(crate) enum Source {
    /// Built in memory: writers pick a natural shape.
    #[default]
    None,
    /// Read from a three.js JSON file.
    ThreeJs(Layout),
    /// Read from a legacy three.js JSON file (model format 3).
    ThreeJsLegacy(LegacyLayout),
    /// Read from a Lottie file: the file itself and where each track came from.
    Lottie(LottieSource),
    /// Read from a PlayCanvas animation file.
    PlayCanvas(PlayCanvasLayout),
    /// Read from a glTF file (`.gltf` or `.glb`): its JSON and buffers.
    Gltf(super::gltf::SharedSource),
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
    /// The original layout (top-level fields, single clip or array), kept for writing back.
    pub(crate) source: Source,
}

impl Document {
    /// A document of `format` holding `clips`, not read from any file. A three.js writer puts
    /// one clip as a clip object and any other number as an array of clips.
    pub fn new(format: Format, clips: Vec<Clip>) -> Document {
        Document {
            path: None,
            format,
            clips,
            skeleton: None,
            mesh: None,
            source: Source::None,
        }
    }

    /// The same document to be written as `format`: when that is another format, the layout of
    /// the file it was read from is forgotten, so the writer picks that format's natural shape.
    /// Clips, skeleton and mesh are kept (see [`conversion_losses`](super::conversion_losses) for
    /// what the target cannot hold). Between `.gltf` and `.glb` the file is kept: only its
    /// container changes.
    pub fn converted_to(mut self, format: Format) -> Document {
        let both_gltf = super::gltf::is_gltf(format) && super::gltf::is_gltf(self.format);
        if format != self.format && both_gltf {
            self.format = format;
        } else if format != self.format {
            self.format = format;
            self.source = Source::None;
        }
        self
    }
}
