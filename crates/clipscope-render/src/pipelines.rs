//! The render pipelines (backdrop, ground, boxes and morph meshes, each of the last two also
//! into the shadow map) and the bind group layouts they share, built once from the WGSL in
//! `shaders/`.

use super::instances::InstanceBuffer;
use super::mesh::CubeMesh;
use super::morph::MorphGpu;
use super::shadow::{SHADOW_FORMAT, ShadowMap};
use super::target::{COLOUR_FORMAT, DEPTH_FORMAT, SAMPLE_COUNT};

/// Globals, background and fog: the start of every shader.
const COMMON: &str = include_str!("../../../shaders/common.wgsl");
/// Shadow filtering and the lighting model.
const LIGHTING: &str = include_str!("../../../shaders/lighting.wgsl");
/// The backdrop pass.
const BACKGROUND: &str = include_str!("../../../shaders/background.wgsl");
/// The ground pass.
const GROUND: &str = include_str!("../../../shaders/ground.wgsl");
/// The box and shadow passes.
const BOXES: &str = include_str!("../../../shaders/boxes.wgsl");
/// The morph mesh passes (after the box shader, whose shading they reuse).
const MORPH: &str = include_str!("../../../shaders/morph.wgsl");

/// The pipelines and layouts.
pub(crate) struct Pipelines {
    /// Group 0: the globals uniform.
    pub globals_layout: wgpu::BindGroupLayout,
    /// Group 1: the shadow map.
    pub shadow_layout: wgpu::BindGroupLayout,
    /// Group 2 of the morph pipelines: the mesh's buffers.
    pub morph_layout: wgpu::BindGroupLayout,
    /// Full-screen gradient.
    pub background: wgpu::RenderPipeline,
    /// Ground plane with grid and shadows.
    pub ground: wgpu::RenderPipeline,
    /// Instanced boxes.
    pub boxes: wgpu::RenderPipeline,
    /// Instanced boxes into the shadow map.
    pub shadow: wgpu::RenderPipeline,
    /// Morph meshes.
    pub morph: wgpu::RenderPipeline,
    /// Morph meshes into the shadow map.
    pub morph_shadow: wgpu::RenderPipeline,
}

impl Pipelines {
    /// Compiles the shaders and builds the pipelines.
    pub fn new(device: &wgpu::Device) -> Pipelines {
        let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("clipscope globals layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let shadow_layout = ShadowMap::layout(device);
        let morph_layout = MorphGpu::layout(device);
        let morph_lit_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("clipscope morph layout"),
            bind_group_layouts: &[
                Some(&globals_layout),
                Some(&shadow_layout),
                Some(&morph_layout),
            ],
            immediate_size: 0,
        });
        let morph_shadow_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("clipscope morph shadow layout"),
            bind_group_layouts: &[Some(&globals_layout), None, Some(&morph_layout)],
            immediate_size: 0,
        });
        let lit_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("clipscope lit layout"),
            bind_group_layouts: &[Some(&globals_layout), Some(&shadow_layout)],
            immediate_size: 0,
        });
        let plain_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("clipscope plain layout"),
            bind_group_layouts: &[Some(&globals_layout)],
            immediate_size: 0,
        });
        let module = |label, parts: &[&str]| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(parts.concat().into()),
            })
        };
        let background_module = module("clipscope background.wgsl", &[COMMON, BACKGROUND]);
        let ground_module = module("clipscope ground.wgsl", &[COMMON, LIGHTING, GROUND]);
        let boxes_module = module("clipscope boxes.wgsl", &[COMMON, LIGHTING, BOXES]);
        let morph_module = module("clipscope morph.wgsl", &[COMMON, LIGHTING, BOXES, MORPH]);

        let main_depth = |write: bool, compare| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        };
        let colour_target = [Some(wgpu::ColorTargetState {
            format: COLOUR_FORMAT,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        let msaa = wgpu::MultisampleState {
            count: SAMPLE_COUNT,
            mask: !0,
            alpha_to_coverage_enabled: false,
        };
        let mesh_buffers = [Some(CubeMesh::layout()), Some(InstanceBuffer::layout())];
        let main = |label,
                    layout: &wgpu::PipelineLayout,
                    module: &wgpu::ShaderModule,
                    vs,
                    fs,
                    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
                    depth: wgpu::DepthStencilState| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(depth),
                multisample: msaa,
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &colour_target,
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let background = main(
            "clipscope background",
            &plain_layout,
            &background_module,
            "vs_background",
            "fs_background",
            &[],
            main_depth(false, wgpu::CompareFunction::Always),
        );
        let ground = main(
            "clipscope ground",
            &lit_layout,
            &ground_module,
            "vs_ground",
            "fs_ground",
            &[],
            main_depth(true, wgpu::CompareFunction::Less),
        );
        let boxes = main(
            "clipscope boxes",
            &lit_layout,
            &boxes_module,
            "vs_box",
            "fs_box",
            &mesh_buffers,
            main_depth(true, wgpu::CompareFunction::Less),
        );
        let shadow_pipeline =
            |label,
             layout: &wgpu::PipelineLayout,
             module: &wgpu::ShaderModule,
             vs,
             buffers: &[Option<wgpu::VertexBufferLayout<'_>>]| {
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(label),
                    layout: Some(layout),
                    vertex: wgpu::VertexState {
                        module,
                        entry_point: Some(vs),
                        compilation_options: Default::default(),
                        buffers,
                    },
                    primitive: wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::TriangleList,
                        cull_mode: None,
                        ..Default::default()
                    },
                    depth_stencil: Some(wgpu::DepthStencilState {
                        format: SHADOW_FORMAT,
                        depth_write_enabled: Some(true),
                        depth_compare: Some(wgpu::CompareFunction::Less),
                        stencil: Default::default(),
                        bias: wgpu::DepthBiasState {
                            constant: 2,
                            slope_scale: 2.0,
                            clamp: 0.0,
                        },
                    }),
                    multisample: Default::default(),
                    fragment: None,
                    multiview_mask: None,
                    cache: None,
                })
            };
        let shadow = shadow_pipeline(
            "clipscope shadow",
            &plain_layout,
            &boxes_module,
            "vs_shadow",
            &mesh_buffers,
        );
        let morph = main(
            "clipscope morph",
            &morph_lit_layout,
            &morph_module,
            "vs_morph",
            "fs_box",
            &[],
            main_depth(true, wgpu::CompareFunction::Less),
        );
        let morph_shadow = shadow_pipeline(
            "clipscope morph shadow",
            &morph_shadow_layout,
            &morph_module,
            "vs_morph_shadow",
            &[],
        );
        Pipelines {
            globals_layout,
            shadow_layout,
            morph_layout,
            background,
            ground,
            boxes,
            shadow,
            morph,
            morph_shadow,
        }
    }
}
