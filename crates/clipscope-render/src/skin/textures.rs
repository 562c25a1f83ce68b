//! A model's images as GPU textures: decoded once (PNG or JPEG, with the `image` crate), turned
//! into sRGB textures with a full mip chain, and sampled as their material's sampler says.

use clipscope_core::model::{Image, Sampler, Wrap};
use image::RgbaImage;
use image::imageops::FilterType;

/// The texture format: 8-bit sRGB with alpha (glTF base colour textures are sRGB).
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// An image of a model that does not decode: its name and the decoder's error.
#[derive(Debug)]
pub(crate) struct DecodeError {
    /// The image's name, or "an image".
    name: String,
    /// Why the decoder refused it.
    source: image::ImageError,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: cannot decode ({})", self.name, self.source)
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// The pixels of an encoded image, or why they cannot be had.
pub(crate) fn decode(image: &Image) -> Result<RgbaImage, DecodeError> {
    let name = if image.name.is_empty() {
        "an image"
    } else {
        image.name.as_str()
    };
    image::load_from_memory(&image.bytes)
        .map(|i| i.to_rgba8())
        .map_err(|source| DecodeError {
            name: name.to_string(),
            source,
        })
}

/// Uploads `pixels` with every mip level down to 1×1 (each a triangle-filtered half of the one
/// before), no side larger than `max_side`.
pub(crate) fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    pixels: RgbaImage,
    max_side: u32,
) -> wgpu::TextureView {
    let mut level = pixels;
    if level.width() > max_side || level.height() > max_side {
        let scale = max_side as f32 / level.width().max(level.height()) as f32;
        let w = ((level.width() as f32 * scale) as u32).max(1);
        let h = ((level.height() as f32 * scale) as u32).max(1);
        level = image::imageops::resize(&level, w, h, FilterType::Triangle);
    }
    let (width, height) = level.dimensions();
    let mips = 32 - width.max(height).leading_zeros();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("clipscope model texture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for mip in 0..mips {
        if mip > 0 {
            let w = (level.width() / 2).max(1);
            let h = (level.height() / 2).max(1);
            level = image::imageops::resize(&level, w, h, FilterType::Triangle);
        }
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: mip,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            level.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * level.width()),
                rows_per_image: None,
            },
            wgpu::Extent3d {
                width: level.width(),
                height: level.height(),
                depth_or_array_layers: 1,
            },
        );
    }
    texture.create_view(&Default::default())
}

/// A 1×1 white texture: what untextured materials sample.
pub(crate) fn white(device: &wgpu::Device, queue: &wgpu::Queue) -> wgpu::TextureView {
    upload(
        device,
        queue,
        RgbaImage::from_pixel(1, 1, image::Rgba([255; 4])),
        1,
    )
}

/// A sampler as `s` says: wrapping per axis, linear or nearest magnification, trilinear
/// minification.
pub(crate) fn sampler(device: &wgpu::Device, s: &Sampler) -> wgpu::Sampler {
    let mode = |w: Wrap| match w {
        Wrap::Repeat => wgpu::AddressMode::Repeat,
        Wrap::Clamp => wgpu::AddressMode::ClampToEdge,
        Wrap::Mirror => wgpu::AddressMode::MirrorRepeat,
    };
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("clipscope model sampler"),
        address_mode_u: mode(s.wrap_u),
        address_mode_v: mode(s.wrap_v),
        mag_filter: if s.nearest {
            wgpu::FilterMode::Nearest
        } else {
            wgpu::FilterMode::Linear
        },
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn png_and_jpeg_decode_and_garbage_says_so() {
        let mut png = Vec::new();
        let mut jpeg = Vec::new();
        let pixels = RgbaImage::from_pixel(4, 2, image::Rgba([200, 10, 10, 255]));
        pixels
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        image::DynamicImage::ImageRgba8(pixels)
            .to_rgb8()
            .write_to(
                &mut std::io::Cursor::new(&mut jpeg),
                image::ImageFormat::Jpeg,
            )
            .unwrap();
        for bytes in [png, jpeg] {
            let image = Image {
                name: "skin.png".into(),
                mime: None,
                bytes: Arc::from(bytes),
            };
            let decoded = decode(&image).unwrap();
            assert_eq!(decoded.dimensions(), (4, 2));
            assert!(decoded.get_pixel(1, 1)[0] > 180);
        }
        let bad = Image {
            name: "x.png".into(),
            mime: None,
            bytes: Arc::from(&b"nope"[..]),
        };
        let err = decode(&bad).unwrap_err();
        assert!(err.to_string().starts_with("x.png: cannot decode"), "{err}");
        assert!(std::error::Error::source(&err).is_some());
    }
}
