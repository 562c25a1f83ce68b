//! How each animation track of a glTF or GLB file is stored: its interpolation, key count,
//! component type and meshopt filter, and the bytes its output takes in the file (compressed
//! where it is). What `reduce` reports per track.

use serde_json::Value;

use super::EXTENSION;
use crate::formats::gltf::glb::split;
use crate::formats::gltf::names::node_names;
use crate::formats::gltf::schema::parse;

/// How one animation track of a glTF file is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackStorage {
    /// The animation's name (`animation_N` when it has none).
    pub clip: String,
    /// The track's name as clipscope reads it (`Hips.quaternion`, `Face.morphTargetInfluences`).
    pub track: String,
    /// `LINEAR`, `STEP` or `CUBICSPLINE`.
    pub interpolation: String,
    /// Keys.
    pub keys: usize,
    /// The output's numbers: `f32`, `i16 normalized`, `u16 normalized`, `i8 normalized`, ….
    pub components: String,
    /// The meshopt filter of its output view (`NONE`, `QUATERNION`, `EXPONENTIAL`), when the
    /// view is compressed.
    pub meshopt: Option<String>,
    /// The bytes its output takes in the file (the compressed bytes when compressed).
    pub bytes: usize,
    /// Its key times: the input accessor's index (tracks with equal times share one) and the
    /// bytes it takes in the file.
    pub times: (usize, usize),
}

/// The storage of every animation channel of the glTF or GLB file `bytes`; empty for anything
/// else (or a file that does not parse).
pub fn track_storage(bytes: &[u8]) -> Vec<TrackStorage> {
    let Ok((_, text, _)) = split(bytes) else {
        return Vec::new();
    };
    let Ok(parsed) = parse(text) else {
        return Vec::new();
    };
    let names = node_names(&parsed.json.nodes);
    let root = &parsed.root;
    let array = |key: &str| root.get(key).and_then(Value::as_array);
    let mut out = Vec::new();
    for (a, animation) in array("animations").into_iter().flatten().enumerate() {
        let clip = animation
            .get("name")
            .and_then(Value::as_str)
            .map_or_else(|| format!("animation_{a}"), str::to_string);
        let samplers = animation.get("samplers").and_then(Value::as_array);
        let channels = animation.get("channels").and_then(Value::as_array);
        for channel in channels.into_iter().flatten() {
            let sampler = channel
                .get("sampler")
                .and_then(Value::as_u64)
                .and_then(|s| samplers?.get(s as usize));
            let Some(sampler) = sampler else { continue };
            let node = channel
                .pointer("/target/node")
                .and_then(Value::as_u64)
                .and_then(|n| names.get(n as usize))
                .cloned()
                .unwrap_or_default();
            let property = match channel.pointer("/target/path").and_then(Value::as_str) {
                Some("translation") => "position",
                Some("rotation") => "quaternion",
                Some("scale") => "scale",
                Some("weights") => "morphTargetInfluences",
                Some(other) => other,
                None => "",
            };
            let input_index = sampler.get("input").and_then(Value::as_u64);
            let input = input_index.and_then(|i| array("accessors")?.get(i as usize));
            let input_view = input
                .and_then(|o| o.get("bufferView"))
                .and_then(Value::as_u64)
                .and_then(|v| array("bufferViews")?.get(v as usize));
            let input_ext = input_view.and_then(|v| v.pointer(&format!("/extensions/{EXTENSION}")));
            let output = sampler
                .get("output")
                .and_then(Value::as_u64)
                .and_then(|i| array("accessors")?.get(i as usize));
            let view = output
                .and_then(|o| o.get("bufferView"))
                .and_then(Value::as_u64)
                .and_then(|v| array("bufferViews")?.get(v as usize));
            let ext = view.and_then(|v| v.pointer(&format!("/extensions/{EXTENSION}")));
            out.push(TrackStorage {
                clip: clip.clone(),
                track: format!("{node}.{property}"),
                interpolation: sampler
                    .get("interpolation")
                    .and_then(Value::as_str)
                    .unwrap_or("LINEAR")
                    .to_string(),
                keys: input
                    .and_then(|i| i.get("count"))
                    .and_then(Value::as_u64)
                    .unwrap_or(0) as usize,
                components: output.map_or_else(String::new, components),
                meshopt: ext.map(|e| {
                    e.get("filter")
                        .and_then(Value::as_str)
                        .unwrap_or("NONE")
                        .to_string()
                }),
                bytes: share(output, ext, view),
                times: (
                    input_index.unwrap_or(u64::MAX) as usize,
                    share(input, input_ext, input_view),
                ),
            });
        }
    }
    out
}

/// The bytes of `output`'s values in the file: its share of its view's compressed bytes
/// (`ext`), or its elements' bytes.
fn share(output: Option<&Value>, ext: Option<&Value>, view: Option<&Value>) -> usize {
    let number = |v: Option<&Value>, key: &str| {
        v.and_then(|v| v.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize
    };
    let count = number(output, "count");
    match ext {
        Some(_) => {
            let total = number(ext, "count").max(1);
            (number(ext, "byteLength") as f64 * count as f64 / total as f64).round() as usize
        }
        None => {
            let n = match output.and_then(|o| o.get("type")).and_then(Value::as_str) {
                Some("VEC2") => 2,
                Some("VEC3") => 3,
                Some("VEC4") => 4,
                Some("MAT4") => 16,
                _ => 1,
            };
            let size = match number(output, "componentType") {
                5120 | 5121 => 1,
                5122 | 5123 => 2,
                _ => 4,
            };
            (count * n * size).min(number(view, "byteLength").max(count * n * size))
        }
    }
}

/// An accessor's component type in words.
fn components(accessor: &Value) -> String {
    let normalized = accessor.get("normalized").and_then(Value::as_bool) == Some(true);
    let name = match accessor.get("componentType").and_then(Value::as_u64) {
        Some(5120) => "i8",
        Some(5121) => "u8",
        Some(5122) => "i16",
        Some(5123) => "u16",
        Some(5125) => "u32",
        Some(5126) => "f32",
        _ => "?",
    };
    if normalized {
        format!("{name} normalized")
    } else {
        name.to_string()
    }
}
