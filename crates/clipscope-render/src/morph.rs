//! A morph mesh on the GPU: its shapes, triangles and colours uploaded once, and the active
//! target weights plus the model transform written each frame (see shaders/morph.wgsl).

use std::sync::Arc;

use glam::Mat4;
use wgpu::util::DeviceExt;

use clipscope_core::model::MorphMesh;

/// The colour of triangles when the mesh has none: a warm clay (sRGB `#C9A27E`).
const CLAY: u32 = 0xC9_A27E;

/// Bytes of the per-frame uniform: a 4×4 matrix and four counts.
const PARAMS_SIZE: u64 = 16 * 4 + 4 * 4;

/// The GPU side of one morph mesh.
pub(crate) struct MorphGpu {
    /// The mesh uploaded (compared by pointer to know when to upload another).
    mesh: Arc<MorphMesh>,
    params: wgpu::Buffer,
    active: wgpu::Buffer,
    /// Group 2 of the morph pipelines.
    pub bind_group: wgpu::BindGroup,
    /// Vertices to draw: three per triangle.
    pub vertex_count: u32,
    /// Staging for the active-target list, kept to avoid allocating per frame.
    active_bytes: Vec<u8>,
}

impl MorphGpu {
    /// The bind group layout of group 2: params, shapes, corners, colours, active targets.
    pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
        let storage = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("clipscope morph layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                storage(1),
                storage(2),
                storage(3),
                storage(4),
            ],
        })
    }

    /// Uploads `mesh`: base shape and target offsets, triangle corners and linear colours.
    pub fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        mesh: Arc<MorphMesh>,
    ) -> MorphGpu {
        let vertex_count = mesh.vertices.len();
        let mut shapes: Vec<f32> = Vec::with_capacity(vertex_count * 4 * (mesh.targets.len() + 1));
        for v in &mesh.vertices {
            shapes.extend_from_slice(&[v[0], v[1], v[2], 1.0]);
        }
        for target in &mesh.targets {
            for (i, base) in mesh.vertices.iter().enumerate() {
                let t = target.vertices.get(i).unwrap_or(base);
                shapes.extend_from_slice(&[t[0] - base[0], t[1] - base[1], t[2] - base[2], 0.0]);
            }
        }
        let corners: Vec<u32> = mesh
            .triangles
            .iter()
            .flatten()
            .map(|&i| if (i as usize) < vertex_count { i } else { 0 })
            .collect();
        let clay = clipscope_scene::colour::srgb(CLAY);
        let colours: Vec<f32> = (0..mesh.triangles.len())
            .flat_map(|i| {
                let c = mesh
                    .triangle_colours
                    .get(i)
                    .map(|c| c.map(srgb_to_linear))
                    .unwrap_or(clay);
                [c[0], c[1], c[2], 1.0]
            })
            .collect();
        let storage = |label, bytes: Vec<u8>| {
            // A storage binding may not be empty.
            let bytes = if bytes.is_empty() { vec![0; 16] } else { bytes };
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &bytes,
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let shapes = storage("clipscope morph shapes", le_bytes(&shapes));
        let corners = storage(
            "clipscope morph corners",
            corners.iter().flat_map(|c| c.to_le_bytes()).collect(),
        );
        let colours = storage("clipscope morph colours", le_bytes(&colours));
        let active = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("clipscope morph active targets"),
            size: (mesh.targets.len().max(1) * 8) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("clipscope morph params"),
            size: PARAMS_SIZE,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("clipscope morph bind group"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: shapes.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: corners.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: colours.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: active.as_entire_binding(),
                },
            ],
        });
        MorphGpu {
            vertex_count: (mesh.triangles.len() * 3) as u32,
            mesh,
            params,
            active,
            bind_group,
            active_bytes: Vec::new(),
        }
    }

    /// Whether this is the upload of `mesh`.
    pub fn holds(&self, mesh: &Arc<MorphMesh>) -> bool {
        Arc::ptr_eq(&self.mesh, mesh)
    }

    /// Writes the frame's transform and the targets with non-zero weight.
    pub fn update(&mut self, queue: &wgpu::Queue, transform: Mat4, weights: &[f32]) {
        self.active_bytes.clear();
        let mut active = 0u32;
        for (i, &w) in weights.iter().enumerate().take(self.mesh.targets.len()) {
            if w != 0.0 && w.is_finite() {
                self.active_bytes
                    .extend_from_slice(&(i as f32).to_le_bytes());
                self.active_bytes.extend_from_slice(&w.to_le_bytes());
                active += 1;
            }
        }
        if !self.active_bytes.is_empty() {
            queue.write_buffer(&self.active, 0, &self.active_bytes);
        }
        let mut params = le_bytes(&transform.to_cols_array());
        for count in [self.mesh.vertices.len() as u32, active, 0, 0] {
            params.extend_from_slice(&count.to_le_bytes());
        }
        queue.write_buffer(&self.params, 0, &params);
    }
}

/// One sRGB channel (0–1) as linear.
fn srgb_to_linear(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Little-endian bytes of `values`.
fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}
