//! Rendering without a window: a device of its own (preferring a software or low-power
//! adapter, with no surface), the same [`Renderer`] as the viewport, and the frame read back
//! as an image. Used by `clipscope render` and by the render tests.

use image::RgbaImage;

use super::{Camera, Frame, RenderError, Renderer};

/// A device and queue with a renderer, for drawing many frames without a window.
pub struct Headless {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: Option<Renderer>,
}

impl Headless {
    /// Opens a device on the preferred adapter (see [`find_adapter`]); fails with
    /// [`RenderError::NoAdapter`] where there is none, [`RenderError::Device`] where opening it
    /// fails.
    pub fn new() -> Result<Headless, RenderError> {
        let adapter = find_adapter()?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("clipscope headless"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device {
            adapter: adapter.get_info().name,
            reason: e.to_string(),
        })?;
        Ok(Headless {
            device,
            queue,
            renderer: None,
        })
    }

    /// The device frames are drawn with.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The device's queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The renderer, created on first use and kept (with its target) for later frames.
    pub fn renderer(&mut self, width: u32, height: u32) -> &mut Renderer {
        let renderer = self
            .renderer
            .get_or_insert_with(|| Renderer::new(&self.device, width, height));
        renderer.resize(&self.device, width, height);
        renderer
    }

    /// Draws one `width` × `height` frame and reads it back; fails with
    /// [`RenderError::EmptyFrame`] or [`RenderError::FrameTooLarge`] for an unusable size, or
    /// with the read-back's error.
    pub fn render(
        &mut self,
        frame: &Frame<'_>,
        camera: &Camera,
        width: u32,
        height: u32,
    ) -> Result<RgbaImage, RenderError> {
        check_size(width, height, &self.device)?;
        let (device, queue) = (self.device.clone(), self.queue.clone());
        let renderer = self.renderer(width, height);
        renderer.render(&device, &queue, camera, frame);
        let mut pixels = renderer.read_rgba(&device, &queue)?;
        if renderer.transparent {
            unpremultiply(&mut pixels);
        }
        RgbaImage::from_raw(width, height, pixels).ok_or(RenderError::WrongSize)
    }
}

/// Turns the resolved picture's premultiplied colour (sRGB bytes of linear colour times
/// coverage) into the straight alpha PNG files hold: colour divided by alpha in linear light.
fn unpremultiply(pixels: &mut [u8]) {
    let decode = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let encode = |c: f32| {
        let c = c.clamp(0.0, 1.0);
        let s = if c <= 0.0031308 {
            c * 12.92
        } else {
            1.055 * c.powf(1.0 / 2.4) - 0.055
        };
        (s * 255.0).round() as u8
    };
    for px in pixels.chunks_exact_mut(4) {
        let a = px[3];
        if a == 0 {
            px[..3].fill(0);
        } else if a < 255 {
            let k = 255.0 / f32::from(a);
            for c in &mut px[..3] {
                *c = encode(decode(*c) * k);
            }
        }
    }
}

/// Renders one frame headless: opens a device, draws `frame` seen by `camera` at
/// `width` × `height`, and returns the picture (sRGB RGBA8). Fails with a readable message
/// when no GPU adapter exists (see [`find_adapter`]) or the size is unusable.
pub fn render_rgba(
    frame: &Frame<'_>,
    camera: &Camera,
    width: u32,
    height: u32,
) -> Result<RgbaImage, RenderError> {
    Headless::new()?.render(frame, camera, width, height)
}

/// The adapter headless rendering uses: a CPU (software) adapter such as Mesa's lavapipe when
/// there is one, so frames look the same on every machine, else an integrated, then a discrete
/// GPU; Vulkan, Metal and DX12 before GL. `WGPU_BACKEND` narrows the choice. With no adapter at
/// all it is [`RenderError::NoAdapter`], whose message says how to get one.
pub fn find_adapter() -> Result<wgpu::Adapter, RenderError> {
    let mut allowed = wgpu::InstanceDescriptor::new_without_display_handle_from_env().backends;
    allowed.remove(wgpu::Backends::BROWSER_WEBGPU);
    // GL only when no primary backend has an adapter: even starting it wakes up window-system
    // code that complains on headless machines.
    let enumerate = |backends: wgpu::Backends| {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        descriptor.backends = backends;
        let instance = wgpu::Instance::new(descriptor);
        pollster::block_on(instance.enumerate_adapters(backends))
    };
    let mut adapters = enumerate(allowed & wgpu::Backends::PRIMARY);
    if adapters.is_empty() && !(allowed - wgpu::Backends::PRIMARY).is_empty() {
        adapters = enumerate(allowed - wgpu::Backends::PRIMARY);
    }
    adapters.retain(|a| a.get_info().backend != wgpu::Backend::Noop);
    adapters.sort_by_key(|a| {
        let info = a.get_info();
        let kind = match info.device_type {
            wgpu::DeviceType::Cpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::DiscreteGpu => 2,
            wgpu::DeviceType::VirtualGpu | wgpu::DeviceType::Other => 3,
        };
        let backend = match info.backend {
            wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12 => 0,
            _ => 1,
        };
        (kind, backend)
    });
    adapters.into_iter().next().ok_or(RenderError::NoAdapter)
}

/// Whether headless rendering can run here: the adapter's name and backend, or why not.
pub fn check_adapter() -> Result<String, RenderError> {
    let info = find_adapter()?.get_info();
    Ok(format!(
        "{} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    ))
}

/// Rejects empty frames and frames larger than the device's biggest texture.
fn check_size(width: u32, height: u32, device: &wgpu::Device) -> Result<(), RenderError> {
    fits(width, height, device.limits().max_texture_dimension_2d)
}

/// Rejects empty frames and frames with a side over `max`.
fn fits(width: u32, height: u32, max: u32) -> Result<(), RenderError> {
    if width == 0 || height == 0 {
        return Err(RenderError::EmptyFrame { width, height });
    }
    if width > max || height > max {
        return Err(RenderError::FrameTooLarge { width, height, max });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_pixels_are_unpremultiplied() {
        // Half coverage of white: linear 0.5 (sRGB byte 188) at alpha 128 becomes white.
        let mut px = [188, 188, 188, 128, 9, 9, 9, 0, 10, 20, 30, 255];
        unpremultiply(&mut px);
        assert_eq!(px, [255, 255, 255, 128, 0, 0, 0, 0, 10, 20, 30, 255]);
    }

    #[test]
    fn frames_must_have_pixels_and_fit_the_device() {
        assert!(fits(320, 240, 8192).is_ok());
        assert!(fits(8192, 8192, 8192).is_ok());
        assert!(matches!(
            fits(0, 240, 8192),
            Err(RenderError::EmptyFrame {
                width: 0,
                height: 240
            })
        ));
        assert!(matches!(
            fits(320, 9000, 8192),
            Err(RenderError::FrameTooLarge { max: 8192, .. })
        ));
    }
}
