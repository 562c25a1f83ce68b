//! glTF lint rules that need the raw file, run by `validate` after the strict read:
//!
//! * `gltf-sampler-input-not-increasing`: a sampler's input times must strictly increase (the
//!   glTF spec); equal or falling times are reported at the first offending key;
//! * `gltf-accessor-bounds`: an animation accessor's `min`/`max` must equal the component-wise
//!   bounds of its data (viewers and validators trust them).
//!
//! Findings name the JSON path and belong to the animation's clip.

use std::path::Path;

use serde_json::Value;

use super::accessor::decode;
use super::glb;
use super::schema::parse;
use crate::model::Problem;

/// The raw-file findings of the glTF or GLB `bytes` (the contents of `file`).
pub(crate) fn lint(bytes: &[u8], file: &Path) -> Vec<Problem> {
    let (json_text, bin) = if bytes.starts_with(glb::MAGIC) {
        match glb::parse(bytes) {
            Ok(g) => (g.json, g.bin),
            Err(_) => return Vec::new(),
        }
    } else {
        (bytes, None)
    };
    let Ok(parsed) = parse(json_text) else {
        return Vec::new();
    };
    let json = &parsed.json;
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(buffers) = super::buffers::load(json, bin, folder) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut checked_bounds = Vec::new();
    for (a, animation) in json.animations.iter().enumerate() {
        for (s, sampler) in animation.samplers.iter().enumerate() {
            let spath = format!("animations[{a}].samplers[{s}]");
            let Ok(input) = decode(json, &buffers, sampler.input, &spath) else {
                continue;
            };
            if let Some(k) =
                (1..input.values.len()).find(|&k| input.values[k] <= input.values[k - 1])
            {
                out.push(
                    Problem::error(
                        "gltf-sampler-input-not-increasing",
                        format!(
                            "{spath}.input: time {k} ({} s) does not come after time {} ({} s); glTF requires strictly increasing times",
                            input.values[k],
                            k - 1,
                            input.values[k - 1]
                        ),
                    )
                    .in_clip(a)
                    .at_key_time(input.values[k]),
                );
            }
            for index in [sampler.input, sampler.output] {
                if checked_bounds.contains(&index) {
                    continue;
                }
                checked_bounds.push(index);
                if let Some(p) = bounds(json, &buffers, index, &spath) {
                    out.push(p.in_clip(a));
                }
            }
        }
    }
    out
}

/// The `gltf-accessor-bounds` finding of accessor `index`, if its min/max are wrong.
fn bounds(
    json: &super::schema::GltfJson,
    buffers: &[Vec<u8>],
    index: u32,
    referrer: &str,
) -> Option<Problem> {
    let accessor = json.accessors.get(index as usize)?;
    let data = decode(json, buffers, index, referrer).ok()?;
    if data.count == 0 || data.components == 0 {
        return None;
    }
    let n = data.components;
    let mut lo = vec![f64::INFINITY; n];
    let mut hi = vec![f64::NEG_INFINITY; n];
    for element in data.values.chunks_exact(n) {
        for (c, &v) in element.iter().enumerate() {
            lo[c] = lo[c].min(v as f64);
            hi[c] = hi[c].max(v as f64);
        }
    }
    for (name, declared, actual) in [("min", &accessor.min, &lo), ("max", &accessor.max, &hi)] {
        let Some(Value::Array(declared)) = declared else {
            continue;
        };
        let wrong = declared.len() != n
            || declared.iter().zip(actual.iter()).any(|(d, &a)| {
                d.as_f64()
                    .is_none_or(|d| (d - a).abs() > 1e-6 + 1e-5 * a.abs().max(d.abs()))
            });
        if wrong {
            let actual: Vec<String> = actual.iter().map(|v| (*v as f32).to_string()).collect();
            return Some(Problem::error(
                "gltf-accessor-bounds",
                format!(
                    "accessors[{index}].{name} is {} but the data's {name} is [{}]",
                    Value::Array(declared.clone()),
                    actual.join(", ")
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    /// A one-node glTF with a scale animation over `times`, whose input accessor declares `max`.
    fn gltf(times: [f32; 3], max: f32) -> String {
        let mut bytes = Vec::new();
        for t in times {
            bytes.extend_from_slice(&t.to_le_bytes());
        }
        for _ in 0..9 {
            bytes.extend_from_slice(&1.0f32.to_le_bytes());
        }
        let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
        format!(
            r#"{{"asset":{{"version":"2.0"}},"nodes":[{{"name":"box"}}],
            "buffers":[{{"byteLength":48,"uri":"data:application/octet-stream;base64,{data}"}}],
            "bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":12}},{{"buffer":0,"byteOffset":12,"byteLength":36}}],
            "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[{max}]}},
                         {{"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"}}],
            "animations":[{{"channels":[{{"sampler":0,"target":{{"node":0,"path":"scale"}}}}],
                            "samplers":[{{"input":0,"output":1}}]}}]}}"#
        )
    }

    fn codes(text: &str) -> Vec<String> {
        lint(text.as_bytes(), Path::new("t.gltf"))
            .into_iter()
            .map(|p| p.code)
            .collect()
    }

    #[test]
    fn increasing_times_with_true_bounds_pass() {
        assert!(codes(&gltf([0.0, 0.5, 1.0], 1.0)).is_empty());
    }

    #[test]
    fn repeated_times_and_wrong_bounds_warn() {
        let p = lint(gltf([0.0, 1.0, 1.0], 2.0).as_bytes(), Path::new("t.gltf"));
        let codes: Vec<&str> = p.iter().map(|p| p.code.as_str()).collect();
        assert_eq!(
            codes,
            ["gltf-sampler-input-not-increasing", "gltf-accessor-bounds"]
        );
        assert!(
            p[0].message
                .starts_with("animations[0].samplers[0].input: time 2")
        );
        assert!(
            p[1].message
                .starts_with("accessors[0].max is [2] but the data's max is [1]"),
            "{}",
            p[1].message
        );
        assert_eq!(p[0].clip, Some(0));
    }
}
