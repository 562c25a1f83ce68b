//! The document's morph mesh from a glTF mesh with morph targets.
//!
//! The mesh is the one on the first node a `weights` channel animates (or, without such a
//! channel, the first node whose mesh has targets). Its triangle primitives (mode 4, indexed or
//! not) are joined into one [`MorphMesh`]; glTF targets hold position offsets, which become
//! the absolute positions the model stores (`base + offset`). The mesh is named after its
//! node's track name, so `NODE.morphTargetInfluences[…]` tracks bind to it, and its targets
//! after `mesh.extras.targetNames` (or their indices).

use gltf_json::mesh::{Mode, Semantic};
use gltf_json::validation::Checked;

use super::accessor::decode;
use super::schema::{GltfJson, target_labels};
use crate::formats::json::Located;
use crate::model::{MorphMesh, MorphTarget};

/// The morph mesh of the file, if one of its nodes has a mesh with morph targets.
pub(crate) fn morph_mesh(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    names: &[String],
) -> Result<Option<MorphMesh>, Located> {
    let has_targets = |node: usize| {
        json.nodes
            .get(node)
            .and_then(|n| n.mesh)
            .and_then(|m| json.meshes.get(m.value()))
            .is_some_and(|m| {
                m.primitives
                    .iter()
                    .any(|p| p.targets.as_ref().is_some_and(|t| !t.is_empty()))
            })
    };
    let animated = json
        .animations
        .iter()
        .flat_map(|a| &a.channels)
        .filter(|c| c.path() == Some("weights"))
        .filter_map(|c| c.node().map(|n| n as usize))
        .find(|&n| has_targets(n));
    let Some(node) = animated.or_else(|| (0..json.nodes.len()).find(|&n| has_targets(n))) else {
        return Ok(None);
    };
    let Some(m) = json.nodes[node].mesh.map(|m| m.value()) else {
        return Ok(None);
    };
    let mesh = &json.meshes[m];
    let labels = target_labels(mesh);
    let mut out = MorphMesh {
        name: names[node].clone(),
        targets: labels
            .into_iter()
            .map(|name| MorphTarget {
                name,
                vertices: Vec::new(),
            })
            .collect(),
        ..MorphMesh::default()
    };
    for (p, primitive) in mesh.primitives.iter().enumerate() {
        let ppath = format!("meshes[{m}].primitives[{p}]");
        if !matches!(primitive.mode, Checked::Valid(Mode::Triangles)) {
            continue;
        }
        let Some(position) = primitive
            .attributes
            .get(&Checked::Valid(Semantic::Positions))
        else {
            continue;
        };
        let positions = vec3s(
            json,
            buffers,
            position.value() as u32,
            &format!("{ppath}.attributes.POSITION"),
        )?;
        let base = out.vertices.len();
        let count = positions.len();
        let indices: Vec<u32> = match primitive.indices {
            Some(i) => {
                let decoded = decode(json, buffers, i.value() as u32, &format!("{ppath}.indices"))?;
                let mut v = Vec::with_capacity(decoded.values.len());
                for (k, &x) in decoded.values.iter().enumerate() {
                    if !(x >= 0.0 && (x as usize) < count) {
                        return Err(Located::new(
                            format!("accessors[{}]", i.value()),
                            format!(
                                "index {k} ({x}) is not one of the primitive's {count} vertices"
                            ),
                        ));
                    }
                    v.push(x as u32);
                }
                v
            }
            None => (0..count as u32).collect(),
        };
        let targets = primitive.targets.as_deref().unwrap_or_default();
        for (j, target) in out.targets.iter_mut().enumerate() {
            let offsets = match targets.get(j).and_then(|t| t.positions) {
                Some(a) => {
                    let tpath = format!("{ppath}.targets[{j}].POSITION");
                    let o = vec3s(json, buffers, a.value() as u32, &tpath)?;
                    if o.len() != count {
                        return Err(Located::new(
                            tpath,
                            format!("{} offsets for {count} vertices", o.len()),
                        ));
                    }
                    o
                }
                None => vec![[0.0; 3]; count],
            };
            target.vertices.extend(
                positions
                    .iter()
                    .zip(&offsets)
                    .map(|(p, o)| [p[0] + o[0], p[1] + o[1], p[2] + o[2]]),
            );
        }
        out.vertices.extend_from_slice(&positions);
        out.triangles.extend(
            indices
                .chunks_exact(3)
                .map(|t| [t[0] + base as u32, t[1] + base as u32, t[2] + base as u32]),
        );
    }
    Ok((!out.triangles.is_empty()).then_some(out))
}

/// A `VEC3` accessor as points.
fn vec3s(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    index: u32,
    referrer: &str,
) -> Result<Vec<[f32; 3]>, Located> {
    let d = decode(json, buffers, index, referrer)?;
    if d.components != 3 {
        return Err(Located::new(
            format!("accessors[{index}].type"),
            format!("positions must be VEC3, not {}", d.type_name),
        ));
    }
    Ok(d.values
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect())
}
