//! What a primitive of a [`Model`](super::Model) looks like: a base colour (factor, vertex
//! colours, a texture) and how its alpha is used, as glTF's metallic-roughness material gives
//! it and three.js's `MeshStandardMaterial` reads it. Lighting beyond the base colour
//! (metalness, roughness, normal maps) is the viewer's own.

use std::sync::Arc;

/// How a material's alpha is used (glTF `alphaMode`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha is ignored: fully opaque.
    #[default]
    Opaque,
    /// Pixels whose alpha is below the cutoff are not drawn.
    Mask(f32),
    /// Alpha blends with what is behind.
    Blend,
}

/// A material: base colour and how it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// The material's name in the file (may be empty).
    pub name: String,
    /// The base colour factor, linear RGBA (`pbrMetallicRoughness.baseColorFactor`), which
    /// multiplies the texture and the vertex colours.
    pub base_colour: [f32; 4],
    /// The base colour texture, if any.
    pub texture: Option<TextureRef>,
    /// How alpha is used.
    pub alpha_mode: AlphaMode,
    /// Whether back faces are drawn (glTF `doubleSided`); clipscope draws both sides always,
    /// so a model seen from inside still reads, and keeps this for reporting.
    pub double_sided: bool,
}

impl Default for Material {
    /// glTF's default material: white, opaque, single-sided.
    fn default() -> Self {
        Material {
            name: String::new(),
            base_colour: [1.0; 4],
            texture: None,
            alpha_mode: AlphaMode::Opaque,
            double_sided: false,
        }
    }
}

/// A texture as a material uses it: which image, which texture coordinate set and how it is
/// sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureRef {
    /// Index into [`Model::images`](super::Model::images).
    pub image: usize,
    /// The texture coordinate set (`TEXCOORD_n`).
    pub tex_coord: usize,
    /// How the image is sampled.
    pub sampler: Sampler,
}

/// How a texture is wrapped and filtered (glTF samplers; the defaults are glTF's and
/// three.js's: repeat, linear).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampler {
    /// Wrapping along u.
    pub wrap_u: Wrap,
    /// Wrapping along v.
    pub wrap_v: Wrap,
    /// Nearest-texel magnification (glTF `magFilter` 9728) instead of linear.
    pub nearest: bool,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler {
            wrap_u: Wrap::Repeat,
            wrap_v: Wrap::Repeat,
            nearest: false,
        }
    }
}

/// Texture wrapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wrap {
    /// The texture repeats (glTF 10497).
    #[default]
    Repeat,
    /// Coordinates outside 0–1 take the edge texel (33071).
    Clamp,
    /// The texture repeats mirrored (33648).
    Mirror,
}

impl Wrap {
    /// The wrap mode of a glTF sampler's `wrapS`/`wrapT` code (unknown codes repeat).
    pub fn from_gl(code: u64) -> Wrap {
        match code {
            33071 => Wrap::Clamp,
            33648 => Wrap::Mirror,
            _ => Wrap::Repeat,
        }
    }
}

/// An image a texture shows, still encoded (PNG or JPEG): decoding is the renderer's.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// The image's name, or where it came from (its uri).
    pub name: String,
    /// The media type, when the file says or the bytes show it (`image/png`, `image/jpeg`).
    pub mime: Option<String>,
    /// The encoded bytes.
    pub bytes: Arc<[u8]>,
}

impl Image {
    /// The media type of encoded image `bytes` by their signature: PNG, JPEG, WebP, or `None`.
    pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some("image/png")
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some("image/jpeg")
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some("image/webp")
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_told_by_their_signature() {
        assert_eq!(Image::sniff(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(Image::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(Image::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(Image::sniff(b"GIF89a"), None);
        assert_eq!(Wrap::from_gl(33071), Wrap::Clamp);
        assert_eq!(Wrap::from_gl(1), Wrap::Repeat);
        assert_eq!(Material::default().base_colour, [1.0; 4]);
    }
}
