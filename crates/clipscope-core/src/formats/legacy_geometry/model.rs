//! The model part of a format-3 geometry: the arrays [`read_mesh`](super::read_mesh) builds a
//! morph mesh from and [`read_skinned`](super::read_skinned) a skinned model from, each kept
//! raw.

use crate::formats::json::{Node, Obj};

/// The model part of the file, each array raw.
#[derive(Debug)]
pub(crate) struct ModelJson<'de> {
    /// `scale`: vertices are divided by it.
    pub scale: Option<Node<'de>>,
    /// `vertices`: x, y, z of every vertex, flat.
    pub vertices: Option<Node<'de>>,
    /// `faces`: the type-bitmask encoded faces, flat.
    pub faces: Option<Node<'de>>,
    /// `uvs`: one array per UV layer (empty layers do not count).
    pub uvs: Option<Node<'de>>,
    /// `colors`: `0xRRGGBB` integers that faces index.
    pub colors: Option<Node<'de>>,
    /// `normals`: x, y, z of every normal faces index, flat.
    pub normals: Option<Node<'de>>,
    /// `materials`: the old loader's material descriptions (`colorDiffuse`, `opacity`, …).
    pub materials: Option<Node<'de>>,
    /// `morphTargets`: `[{name, vertices}]`.
    pub morph_targets: Option<Node<'de>>,
    /// `morphColors`: `[{name, colors}]`, one RGB triple per face.
    pub morph_colors: Option<Node<'de>>,
    /// `skinIndices`: `influencesPerVertex` bone indices per vertex, flat.
    pub skin_indices: Option<Node<'de>>,
    /// `skinWeights`: the matching weights, flat.
    pub skin_weights: Option<Node<'de>>,
    /// `influencesPerVertex` (2 when absent, as the loader assumed).
    pub influences_per_vertex: Option<Node<'de>>,
}

impl<'de> ModelJson<'de> {
    /// The model arrays of the object `obj` (a legacy file's top level, an io_three
    /// geometry's `data`).
    pub(crate) fn of(obj: &Obj<'de>) -> ModelJson<'de> {
        ModelJson {
            scale: obj.get_some("scale"),
            vertices: obj.get_some("vertices"),
            faces: obj.get_some("faces"),
            uvs: obj.get_some("uvs"),
            colors: obj.get_some("colors"),
            normals: obj.get_some("normals"),
            materials: obj.get_some("materials"),
            morph_targets: obj.get_some("morphTargets"),
            morph_colors: obj.get_some("morphColors"),
            skin_indices: obj.get_some("skinIndices"),
            skin_weights: obj.get_some("skinWeights"),
            influences_per_vertex: obj.get_some("influencesPerVertex"),
        }
    }
}
