//! The unit cube every box is drawn from: 24 vertices (four per face, so each face has its own
//! normal for flat shading) and 36 indices, counter-clockwise seen from outside.

use wgpu::util::DeviceExt;

/// Floats per vertex: position xyz, normal xyz.
const FLOATS_PER_VERTEX: usize = 6;

/// The cube's vertex and index buffers on the GPU.
pub(crate) struct CubeMesh {
    /// Positions and normals, interleaved.
    pub vertices: wgpu::Buffer,
    /// Triangle list indices.
    pub indices: wgpu::Buffer,
    /// Number of indices.
    pub index_count: u32,
}

impl CubeMesh {
    /// Uploads the cube.
    pub fn new(device: &wgpu::Device) -> CubeMesh {
        let (vertices, indices) = cube();
        let bytes: Vec<u8> = vertices.iter().flat_map(|v| v.to_le_bytes()).collect();
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        CubeMesh {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("clipscope cube vertices"),
                contents: &bytes,
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("clipscope cube indices"),
                contents: &index_bytes,
                usage: wgpu::BufferUsages::INDEX,
            }),
            index_count: indices.len() as u32,
        }
    }

    /// The vertex buffer layout: position at location 0, normal at location 1.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
        wgpu::VertexBufferLayout {
            array_stride: (FLOATS_PER_VERTEX * 4) as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        }
    }
}

/// The cube's interleaved vertices and its indices.
fn cube() -> (Vec<f32>, Vec<u16>) {
    let mut vertices = Vec::with_capacity(24 * FLOATS_PER_VERTEX);
    let mut indices = Vec::with_capacity(36);
    // For each face: its normal and two tangents u, v with u × v = normal, so the corners
    // n + (±u ±v) in the order below run counter-clockwise seen from outside.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
    ];
    for (n, u, v) in faces {
        let base = (vertices.len() / FLOATS_PER_VERTEX) as u16;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            for k in 0..3 {
                vertices.push(0.5 * (n[k] + su * u[k] + sv * v[k]));
            }
            vertices.extend_from_slice(&n);
        }
        indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    (vertices, indices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn faces_wind_counter_clockwise_from_outside() {
        let (v, i) = cube();
        let p = |k: u16| {
            let o = k as usize * FLOATS_PER_VERTEX;
            (
                Vec3::new(v[o], v[o + 1], v[o + 2]),
                Vec3::new(v[o + 3], v[o + 4], v[o + 5]),
            )
        };
        for tri in i.chunks(3) {
            let (a, n) = p(tri[0]);
            let (b, _) = p(tri[1]);
            let (c, _) = p(tri[2]);
            assert!((b - a).cross(c - a).dot(n) > 0.0);
            assert!(a.abs().max_element() == 0.5);
        }
    }
}
