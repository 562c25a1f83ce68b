//! The offscreen target the renderer draws into: a 4× multisampled colour texture and depth
//! buffer, resolved into a single-sampled texture that can be read back or shown by egui.

/// Samples per pixel of the colour and depth attachments.
pub(crate) const SAMPLE_COUNT: u32 = 4;

/// The resolved colour format: 8-bit sRGB, so shaders write linear colour and the bytes read
/// back are ready for a PNG (egui-wgpu samples it the same way as its own textures).
pub(crate) const COLOUR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// The depth format of the main pass.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The target's textures; recreated (only these) when the size changes.
pub(crate) struct Target {
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Multisampled colour attachment.
    pub msaa_view: wgpu::TextureView,
    /// Multisampled depth attachment.
    pub depth_view: wgpu::TextureView,
    /// The resolved picture.
    pub resolved: wgpu::Texture,
    /// A view of the resolved picture.
    pub resolved_view: wgpu::TextureView,
}

impl Target {
    /// Creates the textures for a `width` × `height` target (each at least 1).
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Target {
        let size = (width.max(1), height.max(1));
        let extent = wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        };
        let texture = |label, sample_count, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let msaa = texture(
            "clipscope msaa colour",
            SAMPLE_COUNT,
            COLOUR_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        let depth = texture(
            "clipscope depth",
            SAMPLE_COUNT,
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        let resolved = texture(
            "clipscope frame",
            1,
            COLOUR_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        Target {
            size,
            msaa_view: msaa.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            resolved_view: resolved.create_view(&Default::default()),
            resolved,
        }
    }
}
