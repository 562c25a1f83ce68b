//! A model on the GPU (shaders/skin.wgsl): its geometry, morph offsets and textures uploaded
//! once; each frame only the palettes (joint and node matrices), the active morph targets and
//! the draw parameters are written, and the vertex shader skins every vertex.
//!
//! One draw per primitive of every mesh instance (the same primitive drawn at two nodes is two
//! draws over the same vertices); its instance index picks its [`DrawParams`] record, so a
//! whole model is drawn from one vertex buffer, one index buffer and one bind group, plus each
//! material's texture.

mod pipelines;
mod textures;
mod vertex;

use std::sync::Arc;

use glam::Mat4;
use wgpu::util::DeviceExt;

use clipscope_core::model::{AlphaMode, Model};

pub(crate) use pipelines::SkinPipelines;

/// Bytes of one `DrawParams` record.
const DRAW_BYTES: usize = 64;
/// The largest texture side uploaded (bigger images are scaled down).
const MAX_TEXTURE: u32 = 2048;
/// `DrawParams::flags` bits.
const HAS_NORMALS: u32 = 1;
const TEXTURED: u32 = 2;
const MASKED: u32 = 4;

/// One draw: which indices, with which material, and its parameters.
struct Draw {
    /// Index range in the index buffer.
    indices: std::ops::Range<u32>,
    /// The material's bind group (index into `SkinGpu::materials`; the last is the default).
    material: usize,
    /// Drawn with blending, after everything opaque.
    blend: bool,
    /// The mesh instance (for its active morph targets).
    instance: usize,
    /// The `DrawParams` record, active targets left 0 (written each frame).
    params: [u32; DRAW_BYTES / 4],
}

/// The GPU side of one model.
pub(crate) struct SkinGpu {
    /// The model uploaded (compared by pointer).
    model: Arc<Model>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    palette: wgpu::Buffer,
    draws_buffer: wgpu::Buffer,
    active: wgpu::Buffer,
    /// Group 2.
    bind_group: wgpu::BindGroup,
    /// Group 3 of every material, then the default (white) material.
    materials: Vec<wgpu::BindGroup>,
    draws: Vec<Draw>,
    /// Per mesh instance: its palette size and morph target count, in frame order.
    instances: Vec<(usize, usize)>,
    /// Matrices the palette buffer holds.
    palette_len: usize,
    /// Reused per frame: active targets and draw records.
    staging: Vec<u8>,
    /// Images that could not be decoded (their materials draw untextured).
    pub notes: Vec<String>,
}

impl SkinGpu {
    /// Uploads `model`: geometry, morph offsets, textures and each draw's parameters.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pipelines: &SkinPipelines,
        model: Arc<Model>,
    ) -> SkinGpu {
        let geometry = vertex::build(&model);
        let storage = |label, bytes: &[u8], usage: wgpu::BufferUsages| {
            let min = [0u8; 64];
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: if bytes.is_empty() { &min } else { bytes },
                usage,
            })
        };
        let vertices = storage(
            "clipscope model vertices",
            &geometry.vertices,
            wgpu::BufferUsages::VERTEX,
        );
        let index_bytes: Vec<u8> = geometry
            .indices
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let indices = storage(
            "clipscope model indices",
            &index_bytes,
            wgpu::BufferUsages::INDEX,
        );
        let delta_bytes: Vec<u8> = geometry
            .deltas
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let deltas = storage(
            "clipscope model morph offsets",
            &delta_bytes,
            wgpu::BufferUsages::STORAGE,
        );
        let (materials, notes) = material_groups(device, queue, pipelines, &model);
        let Layout {
            draws,
            instances,
            palette_len,
            active_len,
        } = layout(&model, &geometry);
        let writable = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let buffer = |label, size: usize| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(64) as u64,
                usage: writable,
                mapped_at_creation: false,
            })
        };
        let palette = buffer("clipscope model palette", palette_len * 64);
        let draws_buffer = buffer("clipscope model draws", draws.len() * DRAW_BYTES);
        let active = buffer("clipscope model active targets", active_len * 8);
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("clipscope model bind group"),
            layout: &pipelines.model_layout,
            entries: &[&palette, &draws_buffer, &deltas, &active]
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        SkinGpu {
            model,
            vertices,
            indices,
            palette,
            draws_buffer,
            active,
            bind_group,
            materials,
            draws,
            instances,
            palette_len,
            staging: Vec::new(),
            notes,
        }
    }

    /// Whether this is the upload of `model`.
    pub fn holds(&self, model: &Arc<Model>) -> bool {
        Arc::ptr_eq(&self.model, model)
    }

    /// Writes the frame's palettes (`joints`, see `FigureFrame::joints`) and morph weights
    /// (`weights`, the targets of each morphing instance in turn).
    pub fn update(&mut self, queue: &wgpu::Queue, joints: &[Mat4], weights: &[f32]) {
        self.staging.clear();
        for m in joints.iter().take(self.palette_len) {
            for x in m.to_cols_array() {
                self.staging.extend_from_slice(&x.to_le_bytes());
            }
        }
        if !self.staging.is_empty() {
            queue.write_buffer(&self.palette, 0, &self.staging);
        }
        // The active targets of each instance, and where they start.
        self.staging.clear();
        let mut spans = Vec::with_capacity(self.instances.len());
        let (mut at, mut count) = (0usize, 0u32);
        for &(_, targets) in &self.instances {
            let start = count;
            for (k, &w) in weights.iter().skip(at).take(targets).enumerate() {
                if w != 0.0 && w.is_finite() {
                    self.staging.extend_from_slice(&(k as f32).to_le_bytes());
                    self.staging.extend_from_slice(&w.to_le_bytes());
                    count += 1;
                }
            }
            at += targets;
            spans.push((start, count - start));
        }
        if !self.staging.is_empty() {
            queue.write_buffer(&self.active, 0, &self.staging);
        }
        self.staging.clear();
        for draw in &self.draws {
            let mut params = draw.params;
            let (start, n) = spans.get(draw.instance).copied().unwrap_or((0, 0));
            params[6] = start;
            params[7] = n;
            for x in params {
                self.staging.extend_from_slice(&x.to_le_bytes());
            }
        }
        if !self.staging.is_empty() {
            queue.write_buffer(&self.draws_buffer, 0, &self.staging);
        }
    }

    /// Records the draws into `pass` (whose pipeline is set): the opaque and masked ones, or
    /// the blended ones; `materials` binds each draw's texture as group 3 (the main pass), off
    /// for the shadow pass.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, blended: bool, materials: bool) {
        pass.set_bind_group(2, &self.bind_group, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        for (i, draw) in self.draws.iter().enumerate() {
            if draw.blend != blended || draw.indices.is_empty() {
                continue;
            }
            if materials {
                pass.set_bind_group(3, &self.materials[draw.material], &[]);
            }
            pass.draw_indexed(draw.indices.clone(), 0, i as u32..i as u32 + 1);
        }
    }

    /// Whether any draw is blended.
    pub fn has_blended(&self) -> bool {
        self.draws.iter().any(|d| d.blend)
    }
}

/// Every draw of a model and the per-frame buffers' sizes.
struct Layout {
    draws: Vec<Draw>,
    /// Per mesh instance: its palette size and morph target count.
    instances: Vec<(usize, usize)>,
    /// Matrices in all palettes.
    palette_len: usize,
    /// Morph targets of all instances.
    active_len: usize,
}

/// One draw per primitive of every mesh instance of `model`, with its parameters.
fn layout(model: &Model, geometry: &vertex::Geometry) -> Layout {
    let mut draws = Vec::new();
    let mut instances = Vec::new();
    let mut palette_len = 0;
    let mut active_len = 0;
    for (n, instance) in model.instances().enumerate() {
        let joints = instance.skin.map_or(0, |s| model.skins[s].joints.len());
        let mesh = &model.meshes[instance.mesh];
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let range = geometry.ranges[instance.mesh][p];
            let material = primitive.material.and_then(|m| model.materials.get(m));
            let (base, flags, cutoff, blend) = match material {
                Some(m) => {
                    let mut flags = u32::from(m.texture.is_some()) * TEXTURED;
                    let mut cutoff = 0.0;
                    if let AlphaMode::Mask(c) = m.alpha_mode {
                        flags |= MASKED;
                        cutoff = c;
                    }
                    (
                        m.base_colour,
                        flags,
                        cutoff,
                        m.alpha_mode == AlphaMode::Blend,
                    )
                }
                None => ([1.0; 4], 0, 0.0, false),
            };
            let skinned = instance.skin.is_some() && primitive.is_skinned();
            let mut params = [0u32; DRAW_BYTES / 4];
            params[..8].copy_from_slice(&[
                palette_len as u32,
                joints as u32,
                u32::from(skinned),
                flags | (u32::from(range.has_normals) * HAS_NORMALS),
                range.vertex_start,
                range.vertex_count,
                0,
                0,
            ]);
            for k in 0..4 {
                params[8 + k] = base[k].to_bits();
            }
            params[12] = range.target_base;
            params[13] = cutoff.to_bits();
            draws.push(Draw {
                indices: range.first_index..range.first_index + range.index_count,
                material: primitive
                    .material
                    .filter(|&m| m < model.materials.len())
                    .unwrap_or(model.materials.len()),
                blend,
                instance: n,
                params,
            });
        }
        palette_len += joints + 1;
        active_len += mesh.target_names.len();
        instances.push((joints + 1, mesh.target_names.len()));
    }
    Layout {
        draws,
        instances,
        palette_len,
        active_len,
    }
}

/// Group 3 for every material of `model` (its texture, else white) and then the default
/// material, plus notes for images that cannot be decoded.
fn material_groups(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    pipelines: &SkinPipelines,
    model: &Model,
) -> (Vec<wgpu::BindGroup>, Vec<String>) {
    let mut notes = Vec::new();
    let used: Vec<bool> = (0..model.images.len())
        .map(|i| {
            model
                .materials
                .iter()
                .any(|m| m.texture.is_some_and(|t| t.image == i))
        })
        .collect();
    let views: Vec<Option<wgpu::TextureView>> = model
        .images
        .iter()
        .zip(&used)
        .map(|(image, &used)| {
            if !used || image.bytes.is_empty() {
                return None;
            }
            match textures::decode(image) {
                Ok(pixels) => Some(textures::upload(device, queue, pixels, MAX_TEXTURE)),
                Err(e) => {
                    notes.push(e.to_string());
                    None
                }
            }
        })
        .collect();
    let white = textures::white(device, queue);
    let group = |view: &wgpu::TextureView, sampler: &wgpu::Sampler| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("clipscope material bind group"),
            layout: &pipelines.material_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(sampler),
                },
            ],
        })
    };
    let default_sampler = textures::sampler(device, &Default::default());
    let mut groups: Vec<wgpu::BindGroup> = model
        .materials
        .iter()
        .map(|m| match m.texture {
            Some(t) => match views.get(t.image).and_then(Option::as_ref) {
                Some(view) => group(view, &textures::sampler(device, &t.sampler)),
                None => group(&white, &default_sampler),
            },
            None => group(&white, &default_sampler),
        })
        .collect();
    groups.push(group(&white, &default_sampler));
    (groups, notes)
}
