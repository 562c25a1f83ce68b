//! What the fresh write and the write-back both emit: animations with their accessors,
//! placeholder and real morph meshes, and the finished file (`.gltf` JSON with `data:` URIs, or
//! `.glb` with a BIN chunk).

use std::collections::{BTreeMap, HashMap};

use gltf_json::accessor::Type;
use gltf_json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf_json::buffer::Target as ViewTarget;
use gltf_json::mesh::{Mode, MorphTarget, Primitive, Semantic};
use gltf_json::validation::Checked;
use gltf_json::{Animation, Index, Mesh};
use rayon::prelude::*;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::bin::{Bin, Floats};
use super::pack::decompress::is_fallback;
use super::plan::{MorphPlan, Plan};
use super::pointer::EXTENSION;
use super::{glb, pack, uri};
use crate::formats::sampler_keys::Sampling;
use crate::formats::{Format, WriteOptions};
use crate::model::MorphMesh;

/// The JSON text and buffers as the file `format` wants: `.gltf` with every buffer a base64
/// `data:` URI, `.glb` with the first buffer in the BIN chunk. `buffers` pairs each buffer's
/// other fields (name, extras, …) with its bytes; they replace the root's `buffers`. With
/// [`Packing`](crate::formats::Packing) the animation data is packed first ([`pack`]).
pub(crate) fn finish(
    mut root: Map<String, Value>,
    mut buffers: Vec<(Map<String, Value>, Vec<u8>)>,
    format: Format,
    opts: &WriteOptions,
) -> Vec<u8> {
    let pretty = opts.pretty;
    if opts.packing.any() && !buffers.is_empty() {
        buffers = pack::pack(&mut root, &buffers, &opts.packing);
    }
    let glb = format == Format::Glb;
    let mut bin = None;
    let mut list = Vec::with_capacity(buffers.len());
    for (i, (mut fields, data)) in buffers.into_iter().enumerate() {
        fields.shift_remove("uri");
        if data.is_empty() && is_fallback(&Value::Object(fields.clone())) {
            // A meshopt fallback buffer without data keeps its stated length and no uri.
            list.push(Value::Object(fields));
            continue;
        }
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
        // Channels with the same key times share one input accessor (looked up by the times'
        // bits, with -0 as 0 so that equal times match as `==` would).
        let mut inputs: HashMap<Vec<u32>, usize> = HashMap::new();
        // Each channel's times as that key and its accessors' extremes, made on the worker
        // threads (a pass over every value), then appended in channel order all at once.
        let ready: Vec<(Vec<u32>, Floats, Floats)> = a
            .channels
            .par_iter()
            .map(|c| {
                let key: Vec<u32> = c.keys.times.iter().map(|t| (t + 0.0).to_bits()).collect();
                let input = Floats::new(c.keys.times.as_slice(), Type::Scalar);
                let output = Floats::new(c.keys.output(), output_type(c.path, c.keys.width));
                (key, input, output)
            })
            .collect();
        // Which of the appended accessors each channel's input and output are.
        let mut appended = Vec::with_capacity(2 * ready.len());
        let mut slots = Vec::with_capacity(ready.len());
        for (key, input, output) in ready {
            let input = *inputs.entry(key).or_insert_with(|| {
                appended.push(input);
                appended.len() - 1
            });
            appended.push(output);
            slots.push((input, appended.len() - 1));
        }
        let accessors = bin.append_all(appended);
        for (c, (input, output)) in a.channels.iter().zip(slots) {
            let (input, output) = (accessors[input], accessors[output]);
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
            let sampler = samplers.len() - 1;
            channels.push(match (c.node, &c.pointer) {
                (Some(node), _) => {
                    let property = match c.path {
                        "translation" => Property::Translation,
                        "rotation" => Property::Rotation,
                        "scale" => Property::Scale,
                        _ => Property::MorphTargetWeights,
                    };
                    let channel = Channel {
                        sampler: Index::new(sampler as u32),
                        target: Target {
                            extensions: None,
                            extras: None,
                            node: Index::new(node_index[node]),
                            path: Checked::Valid(property),
                        },
                        extensions: None,
                        extras: None,
                    };
                    serde_json::to_value(channel).unwrap_or(Value::Null)
                }
                (None, pointer) => json!({
                    "sampler": sampler,
                    "target": {
                        "path": "pointer",
                        "extensions": {EXTENSION: {"pointer": pointer}},
                    },
                }),
            });
        }
        let animation = Animation {
            extensions: None,
            extras: a
                .extras
                .as_ref()
                .and_then(|e| serde_json::value::to_raw_value(e).ok()),
            channels: Vec::new(),
            name: Some(a.name.clone()),
            samplers,
        };
        let mut value = serde_json::to_value(animation).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            map.insert("channels".into(), Value::Array(channels));
            for (k, v) in &a.fields {
                map.insert(k.clone(), v.clone());
            }
        }
        out.push(value);
    }
    out
}

/// The accessor type of a channel's output: its `path`'s, or for a pointer its `width`'s.
fn output_type(path: &str, width: usize) -> Type {
    match (path, width) {
        ("translation" | "scale", _) => Type::Vec3,
        ("rotation", _) => Type::Vec4,
        ("pointer", 2) => Type::Vec2,
        ("pointer", 3) => Type::Vec3,
        ("pointer", 4) => Type::Vec4,
        ("pointer", 16) => Type::Mat4,
        _ => Type::Scalar,
    }
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

/// Lists `KHR_animation_pointer` in the root's `extensionsUsed` when `plan` writes a pointer
/// channel (and only then adds the array).
pub(crate) fn declare_pointer(root: &mut Map<String, Value>, plan: &Plan) {
    let uses = plan
        .animations
        .iter()
        .flat_map(|a| &a.channels)
        .any(|c| c.pointer.is_some());
    if !uses {
        return;
    }
    let used = root
        .entry("extensionsUsed")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = used
        && !list.iter().any(|e| e.as_str() == Some(EXTENSION))
    {
        list.push(Value::String(EXTENSION.into()));
    }
}
