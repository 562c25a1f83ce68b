//! A fresh glTF file for a document that was not read from glTF: the skeleton's bones as a node
//! tree with their rest pose, one node per other animated name (a flat list under one scene), a
//! mesh for every node whose weights are animated (the document's morph mesh, or a placeholder
//! triangle) and one animation per clip, all from the document's [`plan`](super::plan).

use std::collections::BTreeMap;

use gltf_json::{Index, Node};
use serde_json::{Map, Value, json};

use super::bin::Bin;
use super::emit::{animations_json, declare_pointer, finish, placeholder_mesh, real_mesh};
use super::plan::{MorphSource, Plan};
use crate::formats::{Document, WriteOptions};

/// `doc` as a new `.gltf` or `.glb` file (by its format), following `plan`.
pub(crate) fn write(doc: &Document, plan: &Plan, opts: &WriteOptions) -> Vec<u8> {
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
    let animations = animations_json(plan, &mut bin, &node_index);
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
    declare_pointer(&mut root, plan);
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
    finish(root, buffers, doc.format, opts)
}
