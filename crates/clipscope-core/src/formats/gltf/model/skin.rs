//! A glTF skin as the model keeps it: its joints (checked against the nodes) and inverse bind
//! matrices (identity for every joint when the skin has none, as glTF says).

use glam::Mat4;
use serde_json::Value;

use super::Sources;
use crate::formats::gltf::accessor::decode;
use crate::formats::gltf::schema::GltfJson;
use crate::formats::json::Located;
use crate::model::Skin;

/// Skin `s` of the file.
pub(super) fn skin(json: &GltfJson, sources: &Sources<'_>, s: usize) -> Result<Skin, Located> {
    let path = format!("skins[{s}]");
    let raw = sources
        .root
        .get("skins")
        .and_then(|v| v.get(s))
        .and_then(Value::as_object);
    let joints = json.skins[s]
        .joints
        .as_ref()
        .ok_or_else(|| Located::new(&path, "missing field `joints`"))?;
    let n = json.nodes.len();
    let mut out = Skin {
        name: raw
            .and_then(|r| r.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        joints: Vec::with_capacity(joints.len()),
        inverse_bind_matrices: Vec::new(),
        skeleton: raw
            .and_then(|r| r.get("skeleton"))
            .and_then(Value::as_u64)
            .map(|i| i as usize)
            .filter(|&i| i < n),
    };
    for (j, &joint) in joints.iter().enumerate() {
        if joint as usize >= n {
            return Err(Located::new(
                format!("{path}.joints[{j}]"),
                format!("node {joint} does not exist (the file has {n})"),
            ));
        }
        out.joints.push(joint as usize);
    }
    match raw.and_then(|r| r.get("inverseBindMatrices")) {
        None => out.inverse_bind_matrices = vec![Mat4::IDENTITY; out.joints.len()],
        Some(v) => {
            let referrer = format!("{path}.inverseBindMatrices");
            let index = v
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| Located::new(&referrer, "expected an accessor index"))?;
            let d = decode(json, sources.buffers, index, &referrer)?;
            if d.components != 16 {
                return Err(Located::new(
                    format!("accessors[{index}].type"),
                    format!("inverse bind matrices must be MAT4, not {}", d.type_name),
                ));
            }
            if d.count < out.joints.len() {
                return Err(Located::new(
                    format!("accessors[{index}].count"),
                    format!(
                        "{} inverse bind matrices for {} joints",
                        d.count,
                        out.joints.len()
                    ),
                ));
            }
            out.inverse_bind_matrices = d
                .values
                .chunks_exact(16)
                .take(out.joints.len())
                .map(|m| {
                    let mut a = [0.0; 16];
                    a.copy_from_slice(m);
                    Mat4::from_cols_array(&a)
                })
                .collect();
        }
    }
    Ok(out)
}
