//! Legacy three.js JSON (model format 3 / 3.1, the old Blender exporter's `.js` models): bone
//! animations under `bones` + `animation(s)[].hierarchy[].keys`, their "serialized" variant with
//! flat key arrays, and morph-target models (`vertices`, `faces`, `morphTargets`, `morphColors`).
//!
//! Split like [`threejs`](super::threejs): [`schema`] mirrors the file, [`read`] converts
//! animations and bones with three.js r184's `AnimationClip.parseAnimation` rules (spec §5),
//! the shared [`legacy_geometry`](crate::formats::legacy_geometry) builds the morph mesh like the
//! legacy JSONLoader, and [`write`](mod@write) puts bone tracks back into hierarchy keys. A file read from disk is written back with every other
//! top-level field verbatim ([`LegacyLayout`]); the clips a morph model implies are not written
//! (the model's targets already say them). [`codec`] is its entry in the format registry.

pub(crate) mod codec;
pub(crate) mod read;
pub(crate) mod schema;
pub(crate) mod write;

use serde_json::value::RawValue;

use crate::formats::json::Key;

pub(crate) use codec::CODEC;
pub(crate) use schema::AnimationsShape;

/// How a legacy file was laid out, kept in the [`Document`](crate::formats::Document) so that
/// writing back replaces only its animations.
#[derive(Debug, Clone)]
pub(crate) struct LegacyLayout {
    /// Every top-level field but `animation` / `animations`, verbatim and in order (a repeated
    /// key keeps its first position and its last value, like `JSON.parse`).
    pub fields: Vec<(String, Box<RawValue>)>,
    /// Index in `fields` before which the animations go (`None` when the file had none).
    pub animations_at: Option<usize>,
    /// The shape the animations had.
    pub shape: AnimationsShape,
    /// Animations that gave no clip (no keys on any bone; three.js leaves them out), verbatim.
    pub skipped: Vec<Box<RawValue>>,
    /// Whether the hierarchy keys were in the serialized (flat array) shape.
    pub serialized: bool,
    /// The frame rate the morph-target clips were made with.
    pub morph_fps: f64,
}

impl LegacyLayout {
    /// The layout of a file with top-level `fields`.
    pub(crate) fn new(
        fields: &[(Key, &RawValue)],
        shape: AnimationsShape,
        skipped: Vec<Box<RawValue>>,
        serialized: bool,
        morph_fps: f64,
    ) -> LegacyLayout {
        let mut kept: Vec<(String, Box<RawValue>)> = Vec::new();
        let mut animations_at = None;
        for (k, raw) in fields {
            if matches!(&*k.0, "animation" | "animations") {
                animations_at.get_or_insert(kept.len());
                continue;
            }
            match kept.iter_mut().find(|(name, _)| name == &*k.0) {
                Some(slot) => slot.1 = (*raw).to_owned(),
                None => kept.push((k.0.to_string(), (*raw).to_owned())),
            }
        }
        LegacyLayout {
            fields: kept,
            animations_at,
            shape,
            skipped,
            serialized,
            morph_fps,
        }
    }

    /// The names of the kept top-level fields, in order.
    pub(crate) fn field_names(&self) -> Vec<&str> {
        self.fields.iter().map(|(k, _)| k.as_str()).collect()
    }
}
