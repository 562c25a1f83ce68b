//! glTF materials, textures, samplers and images as the model keeps them, read from the raw
//! JSON so that a material clipscope cannot use never stops a file from reading: the base
//! colour factor and texture (`pbrMetallicRoughness`), `alphaMode` / `alphaCutoff`,
//! `doubleSided`; each texture's image and sampler; each image's bytes from a `data:` URI, a file
//! beside the glTF file or a buffer view. What cannot be read is noted and left out (the
//! material then draws untextured).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Sources;
use crate::formats::gltf::uri;
use crate::formats::json::Located;
use crate::model::{AlphaMode, Image, Material, Sampler, TextureRef, Wrap};

/// The file's materials and the images their textures show (an image that cannot be read
/// stays as an empty entry, so indices hold, and its textures are dropped).
pub(super) fn materials(
    sources: &Sources<'_>,
    notes: &mut Vec<String>,
) -> (Vec<Material>, Vec<Image>) {
    let root = sources.root;
    let list = |key: &str| -> &[Value] {
        root.get(key)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    };
    let mut images = Vec::new();
    let mut readable = Vec::new();
    for (i, raw) in list("images").iter().enumerate() {
        match image(sources, i, raw) {
            Ok(image) => {
                images.push(image);
                readable.push(true);
            }
            Err(e) => {
                notes.push(super::note(&e));
                images.push(Image {
                    name: String::new(),
                    mime: None,
                    bytes: Arc::from(&[][..]),
                });
                readable.push(false);
            }
        }
    }
    let materials = list("materials")
        .iter()
        .enumerate()
        .map(|(m, raw)| {
            material(raw, |index, tex_coord| {
                let path = format!("materials[{m}].pbrMetallicRoughness.baseColorTexture");
                texture(root, index, tex_coord, &readable)
                    .map_err(|reason| notes.push(format!("{path}: {reason} (not drawn)")))
                    .ok()
            })
        })
        .collect();
    (materials, images)
}

/// One material; `texture(index, texCoord)` resolves its base colour texture.
fn material(raw: &Value, mut texture: impl FnMut(usize, usize) -> Option<TextureRef>) -> Material {
    let mut out = Material {
        name: str_of(raw, "name").unwrap_or_default().to_string(),
        double_sided: raw.get("doubleSided").and_then(Value::as_bool) == Some(true),
        ..Material::default()
    };
    let pbr = raw.get("pbrMetallicRoughness");
    if let Some(factor) = pbr.and_then(|p| p.get("baseColorFactor")).and_then(numbers)
        && factor.len() == 4
    {
        out.base_colour = [factor[0], factor[1], factor[2], factor[3]];
    }
    if let Some(t) = pbr.and_then(|p| p.get("baseColorTexture"))
        && let Some(index) = t.get("index").and_then(Value::as_u64)
    {
        let tex_coord = t.get("texCoord").and_then(Value::as_u64).unwrap_or(0);
        out.texture = texture(index as usize, tex_coord as usize);
    }
    out.alpha_mode = match str_of(raw, "alphaMode") {
        Some("MASK") => AlphaMode::Mask(
            raw.get("alphaCutoff")
                .and_then(Value::as_f64)
                .unwrap_or(0.5) as f32,
        ),
        Some("BLEND") => AlphaMode::Blend,
        _ => AlphaMode::Opaque,
    };
    out
}

/// Texture `index` used with coordinate set `tex_coord`: its image and sampler, or why not.
fn texture(
    root: &Map<String, Value>,
    index: usize,
    tex_coord: usize,
    readable: &[bool],
) -> Result<TextureRef, String> {
    let textures = root.get("textures").and_then(Value::as_array);
    let t = textures
        .and_then(|t| t.get(index))
        .ok_or_else(|| format!("texture {index} does not exist"))?;
    let image = t
        .get("source")
        .and_then(Value::as_u64)
        .map(|s| s as usize)
        .ok_or_else(|| format!("textures[{index}] has no source image clipscope reads"))?;
    match readable.get(image) {
        Some(true) => {}
        Some(false) => return Err(format!("images[{image}] could not be read")),
        None => {
            return Err(format!(
                "textures[{index}].source: image {image} does not exist"
            ));
        }
    }
    let mut sampler = Sampler::default();
    if let Some(s) = t.get("sampler").and_then(Value::as_u64)
        && let Some(raw) = root
            .get("samplers")
            .and_then(Value::as_array)
            .and_then(|a| a.get(s as usize))
    {
        let wrap = |key| {
            raw.get(key)
                .and_then(Value::as_u64)
                .map_or(Wrap::Repeat, Wrap::from_gl)
        };
        sampler.wrap_u = wrap("wrapS");
        sampler.wrap_v = wrap("wrapT");
        sampler.nearest = raw.get("magFilter").and_then(Value::as_u64) == Some(9728);
    }
    Ok(TextureRef {
        image,
        tex_coord,
        sampler,
    })
}

/// Image `i`: its bytes from its uri or buffer view.
fn image(sources: &Sources<'_>, i: usize, raw: &Value) -> Result<Image, Located> {
    let path = format!("images[{i}]");
    let declared = str_of(raw, "mimeType").map(str::to_string);
    let bytes = if let Some(u) = str_of(raw, "uri") {
        uri::read(u, sources.folder)
            .map_err(|e| Located::new(format!("{path}.uri"), e.to_string()))?
    } else if let Some(v) = raw.get("bufferView").and_then(Value::as_u64) {
        view(sources, v as usize)
            .map_err(|reason| Located::new(format!("{path}.bufferView"), reason))?
    } else {
        return Err(Located::new(
            &path,
            "the image has neither a uri nor a bufferView",
        ));
    };
    let name = str_of(raw, "name")
        .or_else(|| str_of(raw, "uri").filter(|u| !u.starts_with("data:")))
        .unwrap_or_default()
        .to_string();
    let mime = Image::sniff(&bytes).map(str::to_string).or(declared);
    Ok(Image {
        name,
        mime,
        bytes: Arc::from(bytes),
    })
}

/// The bytes of buffer view `v` (`byteOffset`, `byteLength`), checked against its buffer.
fn view(sources: &Sources<'_>, v: usize) -> Result<Vec<u8>, String> {
    let raw = sources
        .root
        .get("bufferViews")
        .and_then(Value::as_array)
        .and_then(|a| a.get(v))
        .ok_or_else(|| format!("buffer view {v} does not exist"))?;
    let buffer = raw
        .get("buffer")
        .and_then(Value::as_u64)
        .unwrap_or(u64::MAX) as usize;
    let data = sources
        .buffers
        .get(buffer)
        .ok_or_else(|| format!("bufferViews[{v}].buffer: buffer {buffer} does not exist"))?;
    let offset = raw.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
    let length = raw.get("byteLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    offset
        .checked_add(length)
        .and_then(|end| data.get(offset..end))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| format!("bufferViews[{v}] lies outside buffers[{buffer}]"))
}

/// The string field `key` of `raw`.
fn str_of<'a>(raw: &'a Value, key: &str) -> Option<&'a str> {
    raw.get(key).and_then(Value::as_str)
}

/// An array of numbers as `f32`s (`None` when it holds anything else).
fn numbers(v: &Value) -> Option<Vec<f32>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_f64().map(|x| x as f32))
        .collect()
}
