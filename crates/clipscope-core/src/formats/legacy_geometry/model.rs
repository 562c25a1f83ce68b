//! The model part of a format-3 geometry: the arrays [`read_mesh`](super::read_mesh) builds a
//! morph mesh from, each kept raw.

use crate::formats::json::Node;

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
    /// `morphTargets`: `[{name, vertices}]`.
    pub morph_targets: Option<Node<'de>>,
    /// `morphColors`: `[{name, colors}]`, one RGB triple per face.
    pub morph_colors: Option<Node<'de>>,
}
