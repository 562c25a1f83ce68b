//! A morph-target mesh: a triangle mesh plus whole-mesh alternative vertex positions that
//! `.morphTargetInfluences[name]` tracks blend between (legacy three.js models such as the
//! horse, glTF meshes with targets).
//!
//! Targets hold absolute positions, like three.js's legacy `morphTargets` (not relative
//! offsets): the blended position is `base + Σ wᵢ·(targetᵢ − base)`, which is what three.js
//! computes with `morphTargetBaseInfluence = 1 − Σ wᵢ`.

/// One morph target: a name tracks address it by and a position for every mesh vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphTarget {
    /// The target's name (`horse_A_001`), used in `.morphTargetInfluences[name]`.
    pub name: String,
    /// Absolute positions, one per entry of [`MorphMesh::vertices`].
    pub vertices: Vec<[f32; 3]>,
}

/// A triangle mesh with morph targets and flat per-triangle colours.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphMesh {
    /// The mesh's name (the file stem when the file has none).
    pub name: String,
    /// Base (rest) vertex positions, already multiplied by any file-level scale.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles as indices into [`vertices`](Self::vertices), counter-clockwise when seen from
    /// outside. Quads are split into two triangles.
    pub triangles: Vec<[u32; 3]>,
    /// One sRGB colour (components 0–1) per triangle; empty when the file gives none.
    pub triangle_colours: Vec<[f32; 3]>,
    /// The morph targets, in file order (track indices `.morphTargetInfluences[3]` refer to it).
    pub targets: Vec<MorphTarget>,
}

impl MorphMesh {
    /// The index of the target a track's `.morphTargetInfluences[key]` means: a name, or a
    /// number used as an index (three.js accepts both).
    pub fn target_index(&self, key: &str) -> Option<usize> {
        self.targets.iter().position(|t| t.name == key).or_else(|| {
            key.parse::<usize>()
                .ok()
                .filter(|&i| i < self.targets.len())
        })
    }

    /// The target names, in order (input for `create_clips_from_morph_target_sequences`).
    pub fn target_names(&self) -> Vec<String> {
        self.targets.iter().map(|t| t.name.clone()).collect()
    }

    /// Vertex positions with the targets blended by `weights` (one per target, missing ones 0):
    /// `base + Σ wᵢ·(targetᵢ − base)`. The CPU reference for the GPU blend.
    pub fn blend(&self, weights: &[f32]) -> Vec<[f32; 3]> {
        let mut out = self.vertices.clone();
        for (target, &w) in self.targets.iter().zip(weights) {
            if w == 0.0 {
                continue;
            }
            for ((o, t), b) in out.iter_mut().zip(&target.vertices).zip(&self.vertices) {
                for k in 0..3 {
                    o[k] += w * (t[k] - b[k]);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh() -> MorphMesh {
        MorphMesh {
            name: "m".into(),
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![[0, 1, 2]],
            triangle_colours: vec![],
            targets: vec![
                MorphTarget {
                    name: "up".into(),
                    vertices: vec![[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.0, 1.0, 2.0]],
                },
                MorphTarget {
                    name: "wide".into(),
                    vertices: vec![[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                },
            ],
        }
    }

    #[test]
    fn blend_is_base_plus_weighted_offsets() {
        let m = mesh();
        assert_eq!(m.blend(&[]), m.vertices);
        let v = m.blend(&[0.5, 0.5]);
        assert_eq!(v[1], [2.0, 0.0, 1.0]);
    }

    #[test]
    fn target_index_by_name_or_number() {
        let m = mesh();
        assert_eq!(m.target_index("wide"), Some(1));
        assert_eq!(m.target_index("0"), Some(0));
        assert_eq!(m.target_index("2"), None);
        assert_eq!(m.target_index("x"), None);
    }
}
