//! Writing a document as `.gltf` (JSON, the buffer embedded as a base64 `data:` URI) or `.glb`
//! (JSON chunk plus BIN chunk).
//!
//! A document read from glTF is written back by [`patch`](super::patch), which keeps the rest
//! of the file. Any other document gets a fresh file from its [`plan`](super::plan): the
//! skeleton's bones as a node tree with their rest pose, one node per other animated name
//! (a flat list under one scene), a mesh for every node whose weights are animated (the
//! document's morph mesh, or a placeholder triangle) and one animation per clip. Every
//! sampler has its own input (times) and output accessor, all with `min`/`max`; data views are
//! 4-byte aligned and have no stride. Number precision options do not apply: the numbers live
//! in the binary buffer as `f32`.

use std::collections::BTreeMap;

use gltf_json::accessor::Type;
use gltf_json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf_json::buffer::Target as ViewTarget;
use gltf_json::mesh::{Mode, MorphTarget, Primitive, Semantic};
use gltf_json::validation::Checked;
use gltf_json::{Animation, Index, Mesh, Node};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::bin::Bin;
use super::plan::{MorphPlan, MorphSource, Plan, plan};
use super::sampling::Sampling;
use super::{glb, patch, uri};
use crate::formats::{Document, Format, WriteOptions};
use crate::model::MorphMesh;

/// `doc` as a `.gltf` or `.glb` file (by its format). Tracks glTF cannot hold are left out:
/// check with [`check_writable`](crate::formats::check_writable) first.
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    let plan = plan(doc);
    if let Some(src) = super::plan::base(doc) {
        return patch::write_back(doc, src, &plan, opts);
    }
    let mut bin = Bin::new(Vec::new(), 0, 0, 0);
    let mut meshes: Vec<Value> = Vec::new();
    let mut document_mesh: Option<u32> = None;
    let mut nodes: Vec<Value> = Vec::with_capacity(plan.nodes.len());
    let mut children: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for (i, node) in plan.nodes.iter().enumerate() {
        if let Some(p) = node.parent {
            children.entry(p).or_default().push(i as u32);
        }
    }
    for (i, n) in plan.nodes.iter().enumerate() {
        let mut node = Node {
            name: Some(n.name.clone()),
            children: children
                .get(&i)
                .map(|c| c.iter().map(|&k| Index::new(k)).collect()),
            ..Node::default()
        };
        if let Some((t, r, s)) = n.rest {
            node.translation = (t != [0.0; 3]).then_some(t);
            node.rotation =
                (r != [0.0, 0.0, 0.0, 1.0]).then_some(gltf_json::scene::UnitQuaternion(r));
            node.scale = (s != [1.0; 3]).then_some(s);
        }
        if let Some(morph) = &n.morph {
            let index = match (&morph.source, &doc.mesh) {
                (MorphSource::Document, Some(mesh)) => *document_mesh.get_or_insert_with(|| {
                    meshes.push(real_mesh(&mut bin, mesh));
                    (meshes.len() - 1) as u32
                }),
                _ => {
                    meshes.push(placeholder_mesh(&mut bin, morph));
                    (meshes.len() - 1) as u32
                }
            };
            node.mesh = Some(Index::new(index));
        }
        nodes.push(serde_json::to_value(node).unwrap_or(Value::Null));
    }
    let node_index: Vec<u32> = (0..plan.nodes.len() as u32).collect();
    let animations = animations_json(&plan, &mut bin, &node_index);
    let roots: Vec<u32> = plan
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.parent.is_none())
        .map(|(i, _)| i as u32)
        .collect();
    let mut root = Map::new();
    root.insert(
        "asset".into(),
        json!({"version": "2.0", "generator": concat!("clipscope ", env!("CARGO_PKG_VERSION"))}),
    );
    if !nodes.is_empty() {
        root.insert("scene".into(), json!(0));
        root.insert("scenes".into(), json!([{ "nodes": roots }]));
        root.insert("nodes".into(), Value::Array(nodes));
    }
    if !meshes.is_empty() {
        root.insert("meshes".into(), Value::Array(meshes));
    }
    if !animations.is_empty() {
        root.insert("animations".into(), Value::Array(animations));
    }
    let Bin {
        data,
        views,
        accessors,
        ..
    } = bin;
    if !accessors.is_empty() {
        root.insert("accessors".into(), Value::Array(accessors));
        root.insert("bufferViews".into(), Value::Array(views));
    }
    let buffers = if data.is_empty() {
        Vec::new()
    } else {
        vec![(Map::new(), data)]
    };
    finish(root, buffers, doc.format, opts.pretty)
}

/// The JSON text and buffers as the file `format` wants: `.gltf` with every buffer a base64
/// `data:` URI, `.glb` with the first buffer in the BIN chunk. `buffers` pairs each buffer's
/// other fields (name, extras, …) with its bytes; they replace the root's `buffers`.
pub(crate) fn finish(
    mut root: Map<String, Value>,
    buffers: Vec<(Map<String, Value>, Vec<u8>)>,
    format: Format,
    pretty: bool,
) -> Vec<u8> {
    let glb = format == Format::Glb;
    let mut bin = None;
    let mut list = Vec::with_capacity(buffers.len());
    for (i, (mut fields, data)) in buffers.into_iter().enumerate() {
        fields.shift_remove("uri");
        fields.insert("byteLength".into(), json!(data.len()));
        if glb && i == 0 {
            bin = Some(data);
        } else {
            fields.insert("uri".into(), Value::String(uri::data_uri(&data)));
        }
        list.push(Value::Object(fields));
    }
    if list.is_empty() {
        root.shift_remove("buffers");
    } else {
        root.insert("buffers".into(), Value::Array(list));
    }
    let root = Value::Object(root);
    let mut text = if pretty {
        serde_json::to_vec_pretty(&root)
    } else {
        serde_json::to_vec(&root)
    }
    .unwrap_or_default();
    if glb {
        glb::build(&text, bin.as_deref())
    } else {
        if pretty {
            text.push(b'\n');
        }
        text
    }
}

/// The animations of `plan` as JSON, their accessors appended to `bin`; `node_index` maps
/// planned nodes to node indices in the file.
pub(crate) fn animations_json(plan: &Plan, bin: &mut Bin, node_index: &[u32]) -> Vec<Value> {
    let mut out = Vec::with_capacity(plan.animations.len());
    for a in &plan.animations {
        let mut samplers = Vec::with_capacity(a.channels.len());
        let mut channels = Vec::with_capacity(a.channels.len());
        // Channels with the same key times share one input accessor.
        let mut inputs: Vec<(&[f32], u32)> = Vec::new();
        for c in &a.channels {
            let input = match inputs.iter().find(|(t, _)| *t == c.keys.times.as_slice()) {
                Some(&(_, i)) => i,
                None => {
                    let i = bin.floats(&c.keys.times, Type::Scalar, None);
                    inputs.push((&c.keys.times, i));
                    i
                }
            };
            let type_ = match c.path {
                "translation" | "scale" => Type::Vec3,
                "rotation" => Type::Vec4,
                _ => Type::Scalar,
            };
            let output = bin.floats(&c.keys.output(), type_, None);
            let property = match c.path {
                "translation" => Property::Translation,
                "rotation" => Property::Rotation,
                "scale" => Property::Scale,
                _ => Property::MorphTargetWeights,
            };
            samplers.push(Sampler {
                extensions: None,
                extras: None,
                input: Index::new(input),
                interpolation: Checked::Valid(match c.keys.sampling {
                    Sampling::Linear => Interpolation::Linear,
                    Sampling::Step => Interpolation::Step,
                    Sampling::CubicSpline => Interpolation::CubicSpline,
                }),
                output: Index::new(output),
            });
            channels.push(Channel {
                sampler: Index::new(samplers.len() as u32 - 1),
                target: Target {
                    extensions: None,
                    extras: None,
                    node: Index::new(node_index[c.node]),
                    path: Checked::Valid(property),
                },
                extensions: None,
                extras: None,
            });
        }
        let animation = Animation {
            extensions: None,
            extras: a
                .extras
                .as_ref()
                .and_then(|e| serde_json::value::to_raw_value(e).ok()),
            channels,
            name: Some(a.name.clone()),
            samplers,
        };
        let mut value = serde_json::to_value(animation).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            for (k, v) in &a.fields {
                map.insert(k.clone(), v.clone());
            }
        }
        out.push(value);
    }
    out
}

/// `extras.targetNames` for a mesh with targets `names`.
fn target_names_extras(names: &[String]) -> Option<Box<RawValue>> {
    serde_json::value::to_raw_value(&json!({ "targetNames": names })).ok()
}

/// A mesh of one triangle whose targets (one shared all-zero offset accessor) move nothing:
/// what a weights channel needs when the document has no mesh for the node.
pub(crate) fn placeholder_mesh(bin: &mut Bin, morph: &MorphPlan) -> Value {
    let positions = bin.floats(
        &[0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1, 0.0],
        Type::Vec3,
        Some(ViewTarget::ArrayBuffer),
    );
    let zero = bin.floats(&[0.0; 9], Type::Vec3, Some(ViewTarget::ArrayBuffer));
    let targets = (0..morph.names.len()).map(|_| zero).collect::<Vec<_>>();
    mesh_value(positions, None, &targets, &morph.names, None)
}

/// The document's morph mesh: positions, triangle indices, and each target as offsets from
/// the base positions (glTF targets are relative).
pub(crate) fn real_mesh(bin: &mut Bin, mesh: &MorphMesh) -> Value {
    let flat = |v: &[[f32; 3]]| v.iter().flatten().copied().collect::<Vec<f32>>();
    let positions = bin.floats(
        &flat(&mesh.vertices),
        Type::Vec3,
        Some(ViewTarget::ArrayBuffer),
    );
    let indices: Vec<u32> = mesh.triangles.iter().flatten().copied().collect();
    let indices = (!indices.is_empty()).then(|| bin.indices(&indices));
    let targets: Vec<u32> = mesh
        .targets
        .iter()
        .map(|t| {
            let offsets: Vec<[f32; 3]> = mesh
                .vertices
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let p = t.vertices.get(i).copied().unwrap_or(*b);
                    [p[0] - b[0], p[1] - b[1], p[2] - b[2]]
                })
                .collect();
            bin.floats(&flat(&offsets), Type::Vec3, Some(ViewTarget::ArrayBuffer))
        })
        .collect();
    let name = (!mesh.name.is_empty()).then(|| mesh.name.clone());
    mesh_value(positions, indices, &targets, &mesh.target_names(), name)
}

/// A one-primitive triangle mesh as JSON.
fn mesh_value(
    positions: u32,
    indices: Option<u32>,
    targets: &[u32],
    names: &[String],
    name: Option<String>,
) -> Value {
    let mut attributes = BTreeMap::new();
    attributes.insert(Checked::Valid(Semantic::Positions), Index::new(positions));
    let mesh = Mesh {
        extensions: None,
        extras: if names.is_empty() {
            None
        } else {
            target_names_extras(names)
        },
        name,
        primitives: vec![Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: indices.map(Index::new),
            material: None,
            mode: Checked::Valid(Mode::Triangles),
            targets: (!targets.is_empty()).then(|| {
                targets
                    .iter()
                    .map(|&t| MorphTarget {
                        positions: Some(Index::new(t)),
                        normals: None,
                        tangents: None,
                    })
                    .collect()
            }),
        }],
        weights: None,
    };
    serde_json::to_value(mesh).unwrap_or(Value::Null)
}
