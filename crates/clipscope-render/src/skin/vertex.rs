//! A model's geometry as the GPU reads it: every primitive's vertices interleaved in one vertex
//! buffer, its triangles in one index buffer (absolute vertex indices) and its morph offsets in
//! one storage buffer, each primitive's place in them kept in a [`PrimitiveRange`]. Plain data,
//! built without a device.

use clipscope_core::model::{MAX_INFLUENCES, Model};

/// Bytes per vertex: position, normal (3 × f32 each), uv (2 × f32), colour (4 × f32), joints
/// (8 × u16), weights (8 × f32).
pub(crate) const STRIDE: usize = (3 + 3 + 2 + 4) * 4 + MAX_INFLUENCES * 2 + MAX_INFLUENCES * 4;

/// The attributes of shaders/skin.wgsl's `SkinIn`.
const ATTRIBUTES: [wgpu::VertexAttribute; 8] = wgpu::vertex_attr_array![
    0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x4,
    4 => Uint16x4, 5 => Uint16x4, 6 => Float32x4, 7 => Float32x4
];

/// The vertex buffer layout of the model pipelines.
pub(crate) const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: STRIDE as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &ATTRIBUTES,
};

/// Where one primitive lies in the buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PrimitiveRange {
    /// Its first vertex.
    pub vertex_start: u32,
    /// Its vertices.
    pub vertex_count: u32,
    /// Its first index.
    pub first_index: u32,
    /// Its indices (three per triangle).
    pub index_count: u32,
    /// Its first morph offset (`vec4` units): target `k`, vertex `v` at
    /// `target_base + (k · vertex_count + v) · 2` (position), `+ 1` (normal).
    pub target_base: u32,
    /// Whether it has normals (else it is shaded flat).
    pub has_normals: bool,
}

/// The whole model's buffers' contents.
#[derive(Debug, Default)]
pub(crate) struct Geometry {
    /// Interleaved vertices, [`STRIDE`] bytes each.
    pub vertices: Vec<u8>,
    /// Triangle indices into all vertices.
    pub indices: Vec<u32>,
    /// Morph offsets: position then normal, `vec4` each.
    pub deltas: Vec<f32>,
    /// For each mesh, for each primitive, where it lies.
    pub ranges: Vec<Vec<PrimitiveRange>>,
}

/// The buffers of `model`: each primitive's texture coordinates are the set its material's
/// texture reads.
pub(crate) fn build(model: &Model) -> Geometry {
    let mut g = Geometry::default();
    for mesh in &model.meshes {
        let mut ranges = Vec::with_capacity(mesh.primitives.len());
        for p in &mesh.primitives {
            let start = (g.vertices.len() / STRIDE) as u32;
            let count = p.positions.len();
            let set = p
                .material
                .and_then(|m| model.materials.get(m))
                .and_then(|m| m.texture)
                .map_or(0, |t| t.tex_coord);
            let uvs = p.uvs.get(set).filter(|u| u.len() == count);
            let normals = (p.normals.len() == count).then_some(&p.normals);
            let colours = (p.colours.len() == count).then_some(&p.colours);
            let skinned = p.is_skinned() && p.joints.len() == count;
            g.vertices.reserve(count * STRIDE);
            for v in 0..count {
                let mut f = [0.0f32; 12];
                f[..3].copy_from_slice(&p.positions[v]);
                f[3..6].copy_from_slice(&normals.map_or([0.0; 3], |n| n[v]));
                f[6..8].copy_from_slice(&uvs.map_or([0.0; 2], |u| u[v]));
                f[8..].copy_from_slice(&colours.map_or([1.0; 4], |c| c[v]));
                for x in f {
                    g.vertices.extend_from_slice(&x.to_le_bytes());
                }
                let (joints, weights) = if skinned {
                    (p.joints[v], p.weights[v])
                } else {
                    ([0; MAX_INFLUENCES], [0.0; MAX_INFLUENCES])
                };
                for j in joints {
                    g.vertices.extend_from_slice(&j.to_le_bytes());
                }
                for w in weights {
                    g.vertices.extend_from_slice(&w.to_le_bytes());
                }
            }
            let first_index = g.indices.len() as u32;
            g.indices.extend(
                p.triangles
                    .iter()
                    .flatten()
                    .map(|&i| start + if (i as usize) < count { i } else { 0 }),
            );
            // Every target of the mesh, so the shader's target indices always land.
            let target_base = (g.deltas.len() / 4) as u32;
            for k in 0..mesh.target_names.len() {
                let t = p.targets.get(k);
                for v in 0..count {
                    let d = t
                        .and_then(|t| t.positions.get(v))
                        .copied()
                        .unwrap_or([0.0; 3]);
                    let n = t
                        .and_then(|t| t.normals.get(v))
                        .copied()
                        .unwrap_or([0.0; 3]);
                    g.deltas
                        .extend_from_slice(&[d[0], d[1], d[2], 0.0, n[0], n[1], n[2], 0.0]);
                }
            }
            ranges.push(PrimitiveRange {
                vertex_start: start,
                vertex_count: count as u32,
                first_index,
                index_count: g.indices.len() as u32 - first_index,
                target_base,
                has_normals: normals.is_some(),
            });
        }
        g.ranges.push(ranges);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Mesh, MorphDelta, Primitive};

    #[test]
    fn primitives_follow_each_other() {
        let tri = Primitive {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![[0, 1, 2]],
            targets: vec![MorphDelta {
                positions: vec![[0.0, 0.0, 1.0]; 3],
                normals: vec![],
            }],
            ..Primitive::default()
        };
        let mut model = Model::default();
        model.meshes.push(Mesh {
            primitives: vec![tri.clone(), tri],
            target_names: vec!["up".into()],
            ..Mesh::default()
        });
        let g = build(&model);
        assert_eq!(g.vertices.len(), 6 * STRIDE);
        assert_eq!(g.indices, [0, 1, 2, 3, 4, 5]);
        let second = g.ranges[0][1];
        assert_eq!((second.vertex_start, second.first_index), (3, 3));
        assert_eq!(
            second.target_base, 6,
            "three vertices of two vec4s before it"
        );
        assert_eq!(g.deltas[(6 + 2) * 4 + 2], 1.0);
        assert!(!second.has_normals);
        assert_eq!(STRIDE, 96);
    }
}
