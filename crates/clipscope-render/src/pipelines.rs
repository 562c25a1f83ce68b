//! The render pipelines (backdrop, ground, boxes and morph meshes, each of the last two also
//! into the shadow map) and the bind group layouts they share, built once from the WGSL in
//! `shaders/`.

use super::instances::InstanceBuffer;
use super::mesh::CubeMesh;
use super::morph::MorphGpu;
use super::shadow::{SHADOW_FORMAT, ShadowMap};
use super::target::{COLOUR_FORMAT, DEPTH_FORMAT, SAMPLE_COUNT};

/// Globals, background and fog: the start of every shader.
pub(crate) const COMMON: &str = include_str!("../../../shaders/common.wgsl");
/// Shadow filtering and the lighting model.
pub(crate) const LIGHTING: &str = include_str!("../../../shaders/lighting.wgsl");
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
        let layouts = Layouts::new(device);
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
        let mesh_buffers = [Some(CubeMesh::layout()), Some(InstanceBuffer::layout())];
        let less = wgpu::CompareFunction::Less;
        let background = main_pipeline(
            device,
            VertexStage {
                label: "clipscope background",
                layout: &layouts.plain,
                module: &background_module,
                vertex: "vs_background",
                buffers: &[],
            },
            "fs_background",
            main_depth(false, wgpu::CompareFunction::Always),
        );
        let ground = main_pipeline(
            device,
            VertexStage {
                label: "clipscope ground",
                layout: &layouts.lit,
                module: &ground_module,
                vertex: "vs_ground",
                buffers: &[],
            },
            "fs_ground",
            main_depth(true, less),
        );
        let boxes = main_pipeline(
            device,
            VertexStage {
                label: "clipscope boxes",
                layout: &layouts.lit,
                module: &boxes_module,
                vertex: "vs_box",
                buffers: &mesh_buffers,
            },
            "fs_box",
            main_depth(true, less),
        );
        let shadow = shadow_pipeline(
            device,
            VertexStage {
                label: "clipscope shadow",
                layout: &layouts.plain,
                module: &boxes_module,
                vertex: "vs_shadow",
                buffers: &mesh_buffers,
            },
        );
        let morph = main_pipeline(
            device,
            VertexStage {
                label: "clipscope morph",
                layout: &layouts.morph_lit,
                module: &morph_module,
                vertex: "vs_morph",
                buffers: &[],
            },
            "fs_box",
            main_depth(true, less),
        );
        let morph_shadow = shadow_pipeline(
            device,
            VertexStage {
                label: "clipscope morph shadow",
                layout: &layouts.morph_shadow,
                module: &morph_module,
                vertex: "vs_morph_shadow",
                buffers: &[],
            },
        );
        Pipelines {
            globals_layout: layouts.globals,
            shadow_layout: layouts.shadow,
            morph_layout: layouts.morph,
            background,
            ground,
            boxes,
            shadow,
            morph,
            morph_shadow,
        }
    }
}

/// The bind group layouts (groups 0–2) and the pipeline layouts made of them.
struct Layouts {
    /// Group 0: the globals uniform.
    globals: wgpu::BindGroupLayout,
    /// Group 1: the shadow map.
    shadow: wgpu::BindGroupLayout,
    /// Group 2 of the morph pipelines: the mesh's buffers.
    morph: wgpu::BindGroupLayout,
    /// Globals only (backdrop, box shadows).
    plain: wgpu::PipelineLayout,
    /// Globals and the shadow map (ground, boxes).
    lit: wgpu::PipelineLayout,
    /// Globals, the shadow map and the mesh (morph meshes).
    morph_lit: wgpu::PipelineLayout,
    /// Globals and the mesh (morph mesh shadows).
    morph_shadow: wgpu::PipelineLayout,
}

impl Layouts {
    fn new(device: &wgpu::Device) -> Layouts {
        let globals = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
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
        let shadow = ShadowMap::layout(device);
        let morph = MorphGpu::layout(device);
        let layout = |label, groups: &[Option<&wgpu::BindGroupLayout>]| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: groups,
                immediate_size: 0,
            })
        };
        let morph_lit = layout(
            "clipscope morph layout",
            &[Some(&globals), Some(&shadow), Some(&morph)],
        );
        let morph_shadow = layout(
            "clipscope morph shadow layout",
            &[Some(&globals), None, Some(&morph)],
        );
        let lit = layout("clipscope lit layout", &[Some(&globals), Some(&shadow)]);
        let plain = layout("clipscope plain layout", &[Some(&globals)]);
        Layouts {
            globals,
            shadow,
            morph,
            plain,
            lit,
            morph_lit,
            morph_shadow,
        }
    }
}

/// The vertex side of a pipeline: its name, layout, shader module, vertex entry point and
/// vertex buffers.
pub(crate) struct VertexStage<'a> {
    pub label: &'a str,
    pub layout: &'a wgpu::PipelineLayout,
    pub module: &'a wgpu::ShaderModule,
    pub vertex: &'a str,
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
}

impl VertexStage<'_> {
    /// The vertex state of a pipeline made from this stage.
    pub(crate) fn vertex_state(&self) -> wgpu::VertexState<'_> {
        wgpu::VertexState {
            module: self.module,
            entry_point: Some(self.vertex),
            compilation_options: Default::default(),
            buffers: self.buffers,
        }
    }
}

/// Depth testing in the main pass: written or not, compared by `compare`.
pub(crate) fn main_depth(write: bool, compare: wgpu::CompareFunction) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: Default::default(),
        bias: Default::default(),
    }
}

/// The triangles every pipeline draws (no culling: boxes and meshes are seen from inside too).
pub(crate) fn triangles() -> wgpu::PrimitiveState {
    wgpu::PrimitiveState {
        topology: wgpu::PrimitiveTopology::TriangleList,
        cull_mode: None,
        ..Default::default()
    }
}

/// A pipeline of the main pass: `stage`, then `fragment` into the multisampled colour target.
fn main_pipeline(
    device: &wgpu::Device,
    stage: VertexStage<'_>,
    fragment: &str,
    depth: wgpu::DepthStencilState,
) -> wgpu::RenderPipeline {
    let colour_target = [Some(wgpu::ColorTargetState {
        format: COLOUR_FORMAT,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(stage.label),
        layout: Some(stage.layout),
        vertex: stage.vertex_state(),
        primitive: triangles(),
        depth_stencil: Some(depth),
        multisample: wgpu::MultisampleState {
            count: SAMPLE_COUNT,
            mask: !0,
            alpha_to_coverage_enabled: false,
        },
        fragment: Some(wgpu::FragmentState {
            module: stage.module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &colour_target,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A pipeline into the shadow map: depth only, biased against shadow acne.
pub(crate) fn shadow_pipeline(
    device: &wgpu::Device,
    stage: VertexStage<'_>,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(stage.label),
        layout: Some(stage.layout),
        vertex: stage.vertex_state(),
        primitive: triangles(),
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
}
