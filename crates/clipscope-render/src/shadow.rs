//! The key light's shadow map: a depth texture rendered from the light, an orthographic light
//! camera fitted to the boxes, and the comparison sampler the shaders filter it with.

use glam::camera::rh::proj::directx;
use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec3};

use super::Bounds;

/// Shadow map side in texels.
pub(crate) const SHADOW_SIZE: u32 = 2048;

/// The shadow map's depth format.
pub(crate) const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The shadow map texture and the bind group (texture + comparison sampler) the main pass
/// reads it through.
pub(crate) struct ShadowMap {
    /// Depth attachment of the shadow pass.
    pub view: wgpu::TextureView,
    /// Group 1 of the ground and box pipelines.
    pub bind_group: wgpu::BindGroup,
}

impl ShadowMap {
    /// Creates the texture, sampler and bind group for `layout` (see [`ShadowMap::layout`]).
    pub fn new(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> ShadowMap {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("clipscope shadow map"),
            size: wgpu::Extent3d {
                width: SHADOW_SIZE,
                height: SHADOW_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SHADOW_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("clipscope shadow sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("clipscope shadow bind group"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        ShadowMap { view, bind_group }
    }

    /// The layout of group 1: the depth texture and its comparison sampler.
    pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("clipscope shadow layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
            ],
        })
    }
}

/// World → clip of an orthographic camera looking along −`light` (towards the scene) that
/// holds every box in `bounds` and reaches down past the ground at `ground_y`. Shadows fall
/// along the light direction, so covering the casters covers every shadow they throw.
pub(crate) fn light_view_projection(bounds: Bounds, light: Vec3, ground_y: f32) -> Mat4 {
    let light = light.normalize_or(Vec3::Y);
    let centre = bounds.centre();
    let radius = bounds.radius().max(0.05) * 1.02;
    let eye = centre + light * radius * 2.0;
    let up = if light.y.abs() > 0.99 {
        Vec3::Z
    } else {
        Vec3::Y
    };
    let view = look_at_mat4(eye, centre, up);
    let drop = (centre.y - ground_y).max(0.0) / light.y.max(0.1);
    let far = radius * 3.0 + drop + radius;
    let projection = directx::orthographic(-radius, radius, -radius, radius, radius * 0.5, far);
    projection * view
}
