//! The model pipelines (shaders/skin.wgsl): opaque and alpha-masked primitives, blended ones
//! (drawn after, without writing depth) and the shadow pass, with the layouts of group 2 (the
//! model's palette, draws, morph offsets and active targets) and group 3 (a material's texture).

use super::vertex::LAYOUT;
use crate::pipelines::{COMMON, LIGHTING, VertexStage, main_depth, shadow_pipeline, triangles};
use crate::target::{COLOUR_FORMAT, SAMPLE_COUNT};

/// The model passes.
const SKIN: &str = include_str!("../../../../shaders/skin.wgsl");

/// The model pipelines and their group layouts.
pub(crate) struct SkinPipelines {
    /// Group 2: palette, draws, morph offsets, active targets.
    pub model_layout: wgpu::BindGroupLayout,
    /// Group 3: the base colour texture and its sampler.
    pub material_layout: wgpu::BindGroupLayout,
    /// Opaque and masked primitives.
    pub opaque: wgpu::RenderPipeline,
    /// Blended primitives.
    pub blend: wgpu::RenderPipeline,
    /// Into the shadow map.
    pub shadow: wgpu::RenderPipeline,
}

impl SkinPipelines {
    /// Compiles the shader and builds the pipelines on the renderer's globals and shadow
    /// layouts (groups 0 and 1).
    pub fn new(
        device: &wgpu::Device,
        globals: &wgpu::BindGroupLayout,
        shadow: &wgpu::BindGroupLayout,
    ) -> SkinPipelines {
        let model_layout = model_layout(device);
        let material_layout = material_layout(device);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("clipscope skin.wgsl"),
            source: wgpu::ShaderSource::Wgsl([COMMON, LIGHTING, SKIN].concat().into()),
        });
        let layout = |label, groups: &[Option<&wgpu::BindGroupLayout>]| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: groups,
                immediate_size: 0,
            })
        };
        let lit = layout(
            "clipscope skin layout",
            &[
                Some(globals),
                Some(shadow),
                Some(&model_layout),
                Some(&material_layout),
            ],
        );
        let dark = layout(
            "clipscope skin shadow layout",
            &[Some(globals), None, Some(&model_layout)],
        );
        let buffers = [Some(LAYOUT)];
        let stage = |label, layout, vertex| VertexStage {
            label,
            layout,
            module: &module,
            vertex,
            buffers: &buffers,
        };
        let opaque = colour_pipeline(
            device,
            stage("clipscope skin", &lit, "vs_skin"),
            "fs_skin",
            None,
        );
        let blend = colour_pipeline(
            device,
            stage("clipscope skin blend", &lit, "vs_skin"),
            "fs_skin_blend",
            Some(wgpu::BlendState::ALPHA_BLENDING),
        );
        let shadow = shadow_pipeline(
            device,
            stage("clipscope skin shadow", &dark, "vs_skin_shadow"),
        );
        SkinPipelines {
            model_layout,
            material_layout,
            opaque,
            blend,
            shadow,
        }
    }
}

/// A main-pass pipeline for `stage` with fragment entry `fragment`: opaque (writing depth) or
/// blended (testing depth only).
fn colour_pipeline(
    device: &wgpu::Device,
    stage: VertexStage<'_>,
    fragment: &str,
    blend: Option<wgpu::BlendState>,
) -> wgpu::RenderPipeline {
    let targets = [Some(wgpu::ColorTargetState {
        format: COLOUR_FORMAT,
        blend,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(stage.label),
        layout: Some(stage.layout),
        vertex: stage.vertex_state(),
        primitive: triangles(),
        depth_stencil: Some(main_depth(blend.is_none(), wgpu::CompareFunction::Less)),
        multisample: wgpu::MultisampleState {
            count: SAMPLE_COUNT,
            mask: !0,
            alpha_to_coverage_enabled: false,
        },
        fragment: Some(wgpu::FragmentState {
            module: stage.module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &targets,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Group 2: four read-only storage buffers (the draws are read by fragments too).
fn model_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let storage = |binding, visibility| wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let vertex = wgpu::ShaderStages::VERTEX;
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("clipscope skin model layout"),
        entries: &[
            storage(0, vertex),
            storage(1, wgpu::ShaderStages::VERTEX_FRAGMENT),
            storage(2, vertex),
            storage(3, vertex),
        ],
    })
}

/// Group 3: a filterable 2D texture and its sampler.
fn material_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("clipscope skin material layout"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}
