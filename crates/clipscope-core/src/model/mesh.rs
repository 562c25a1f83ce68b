//! A triangle mesh of a [`Model`](super::Model): one or more [`Primitive`]s, each a list of
//! vertices (positions, normals, colours, texture coordinates, skin influences and morph target
//! offsets) with its triangles and its material.
//!
//! Vertex data is per primitive, as glTF keeps it and three.js draws it (one `BufferGeometry`
//! per primitive). Everything is stored the way the renderers use it: colours as linear RGBA,
//! skin weights already normalized, morph targets as offsets from the base shape (glTF's
//! relative targets, three.js's `morphTargetsRelative`).

/// The most joints one vertex follows (two sets of four: glTF's `JOINTS_0`/`JOINTS_1`).
pub const MAX_INFLUENCES: usize = 8;

/// A named mesh: its primitives and the names of its morph targets.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// The mesh's name in the file (may be empty).
    pub name: String,
    /// The primitives, each drawn with its own material.
    pub primitives: Vec<Primitive>,
    /// One name per morph target, in target order (`mesh.extras.targetNames`, or the indices).
    /// Every primitive has this many targets.
    pub target_names: Vec<String>,
    /// The default target weights (`mesh.weights`), one per target; empty means all 0.
    pub weights: Vec<f32>,
}

/// One drawable part of a mesh: vertices, triangles and a material.
///
/// Every per-vertex list is either empty (the file gives none) or holds one entry per
/// [`positions`](Self::positions) entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Primitive {
    /// Vertex positions in the mesh's space.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals (unit length as given); empty: the primitive is flat shaded, as glTF and
    /// three.js's GLTFLoader do for a primitive without normals.
    pub normals: Vec<[f32; 3]>,
    /// Vertex colours, linear RGBA (glTF `COLOR_0`; three components read as alpha 1).
    pub colours: Vec<[f32; 4]>,
    /// Texture coordinate sets (`TEXCOORD_0`, `TEXCOORD_1`, …), each one `[u, v]` per vertex
    /// with v downwards as glTF has it.
    pub uvs: Vec<Vec<[f32; 2]>>,
    /// The joints each vertex follows, as indices into its skin's
    /// [`joints`](super::Skin::joints); empty for a primitive without skin attributes.
    pub joints: Vec<[u16; MAX_INFLUENCES]>,
    /// How much each vertex follows each of its [`joints`](Self::joints): normalized to sum 1
    /// (like three.js's `normalizeSkinWeights`; a vertex whose weights are all 0 follows its
    /// first joint fully). Four-influence files leave the last four 0.
    pub weights: Vec<[f32; MAX_INFLUENCES]>,
    /// Triangles as indices into the vertices (strips and fans already split).
    pub triangles: Vec<[u32; 3]>,
    /// Morph targets, one per [`Mesh::target_names`] entry.
    pub targets: Vec<MorphDelta>,
    /// Index into [`Model::materials`](super::Model::materials); `None` draws the default
    /// material (white, as glTF's default material).
    pub material: Option<usize>,
}

/// One morph target of a primitive: offsets added to the base shape times the target's weight.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphDelta {
    /// Position offsets, one per vertex (empty: the target does not move positions).
    pub positions: Vec<[f32; 3]>,
    /// Normal offsets, one per vertex (empty: none).
    pub normals: Vec<[f32; 3]>,
}

impl Primitive {
    /// Whether the primitive has skin attributes (joints and weights).
    pub fn is_skinned(&self) -> bool {
        !self.joints.is_empty() && self.joints.len() == self.weights.len()
    }

    /// The positions with the morph targets applied: `base + Σ wᵢ·offsetᵢ` (`weights` one per
    /// target, missing ones 0), the shape skinning then deforms.
    pub fn morphed(&self, weights: &[f32]) -> Vec<[f32; 3]> {
        let mut out = self.positions.clone();
        for (target, &w) in self.targets.iter().zip(weights) {
            if w == 0.0 || target.positions.len() != out.len() {
                continue;
            }
            for (o, d) in out.iter_mut().zip(&target.positions) {
                for k in 0..3 {
                    o[k] += w * d[k];
                }
            }
        }
        out
    }
}

/// Normalizes skin weights to sum 1, like three.js's `SkinnedMesh.normalizeSkinWeights`
/// (extended to eight influences): weights that sum to 0 (or are not finite) become `[1, 0, …]`.
pub fn normalize_weights(weights: &mut [f32; MAX_INFLUENCES]) {
    let sum: f32 = weights.iter().map(|w| w.abs()).sum();
    let scale = 1.0 / sum;
    if scale.is_finite() && sum.is_finite() {
        for w in weights.iter_mut() {
            *w *= scale;
        }
    } else {
        *weights = [0.0; MAX_INFLUENCES];
        weights[0] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_normalize_like_three_js() {
        let mut w = [0.5, 0.25, 0.25, 0.5, 0.0, 0.0, 0.0, 0.0];
        normalize_weights(&mut w);
        assert_eq!(w[..4], [1.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 3.0]);
        let mut zero = [0.0; MAX_INFLUENCES];
        normalize_weights(&mut zero);
        assert_eq!(zero[0], 1.0);
        assert_eq!(zero[1..].iter().sum::<f32>(), 0.0);
    }

    #[test]
    fn morph_targets_add_weighted_offsets() {
        let p = Primitive {
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
            targets: vec![
                MorphDelta {
                    positions: vec![[0.0, 1.0, 0.0], [0.0, 2.0, 0.0]],
                    normals: vec![],
                },
                MorphDelta::default(),
            ],
            ..Primitive::default()
        };
        assert_eq!(p.morphed(&[]), p.positions);
        assert_eq!(p.morphed(&[0.5, 1.0]), [[0.0, 0.5, 0.0], [1.0, 1.0, 0.0]]);
        assert!(!p.is_skinned());
    }
}
