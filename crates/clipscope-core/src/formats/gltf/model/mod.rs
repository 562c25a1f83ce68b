//! The document's [`Model`] from a glTF file: every node (with the track name its tracks use,
//! its parent and rest transform), the meshes of the default scene's nodes, the skins deforming
//! them, their materials and the images their textures show, read the way three.js r187's
//! GLTFLoader builds its scene.
//!
//! * Nodes: TRS, or the decomposed `matrix`; `weights` (else the mesh's) as the default morph
//!   weights. Only nodes of the default scene (`scene`, else the first) show their meshes; a
//!   file without scenes shows every node's.
//! * Skins ([`skin`]): joints and `inverseBindMatrices` (identity when absent).
//! * Meshes ([`primitive`]): triangle lists, strips and fans (points and lines are not drawn),
//!   `POSITION`, `NORMAL`, `COLOR_0`, `TEXCOORD_n`, `JOINTS_0/1` + `WEIGHTS_0/1` (up to eight
//!   influences), morph targets' `POSITION` and `NORMAL` offsets.
//! * Materials and images ([`material`]): the base colour factor and texture, alpha mode,
//!   images from `data:` URIs, files beside the glTF file (the buffer uri rules) or buffer
//!   views.
//!
//! A model never stops the clips from reading: a part that cannot be read (a bad accessor, a
//! missing image, a compressed mesh) is left out and described in [`Model::notes`] with its
//! JSON path. A file without meshes has no model.

mod material;
mod primitive;
mod skin;

use std::path::Path;

use serde_json::{Map, Value};

use super::schema::{GltfJson, target_labels};
use super::skeleton::parents;
use super::trs::decomposed;
use crate::formats::json::Located;
use crate::model::{Mesh, Model, ModelNode};

/// What reading the model needs besides the typed JSON.
pub(crate) struct Sources<'a> {
    /// The whole JSON as written (materials, images, samplers, skins' matrices are read from
    /// it, so a malformed one never stops the typed parse).
    pub root: &'a Map<String, Value>,
    /// The buffers' bytes.
    pub buffers: &'a [Vec<u8>],
    /// The folder of the glTF file (images beside it).
    pub folder: &'a Path,
}

/// The model of the file, or `None` when it has no meshes (or no node tree to hang them on).
pub(crate) fn model(json: &GltfJson, names: &[String], sources: &Sources<'_>) -> Option<Model> {
    if json.meshes.is_empty() {
        return None;
    }
    let parent = parents(json).ok()?;
    let mut model = Model::default();
    let mut notes = Vec::new();
    let shown = scene_nodes(sources.root, json.nodes.len(), &parent);
    for (i, node) in json.nodes.iter().enumerate() {
        model
            .nodes
            .push(model_node(json, node, &names[i], parent[i], shown[i]));
    }
    for (s, _) in json.skins.iter().enumerate() {
        match skin::skin(json, sources, s) {
            Ok(skin) => model.skins.push(skin),
            Err(e) => {
                notes.push(note(&e));
                model.skins.push(Default::default());
                for n in &mut model.nodes {
                    if n.skin == Some(s) {
                        n.skin = None;
                    }
                }
            }
        }
    }
    for (m, mesh) in json.meshes.iter().enumerate() {
        model
            .meshes
            .push(read_mesh(json, sources, m, mesh, &mut notes));
    }
    let (materials, images) = material::materials(sources, &mut notes);
    model.materials = materials;
    model.images = images;
    for mesh in &mut model.meshes {
        for p in &mut mesh.primitives {
            p.material = p.material.filter(|&m| m < model.materials.len());
        }
    }
    model.notes = notes;
    Some(model)
}

/// A node as the model keeps it.
fn model_node(
    json: &GltfJson,
    node: &gltf_json::Node,
    name: &str,
    parent: Option<usize>,
    shown: bool,
) -> ModelNode {
    let mut out = ModelNode::new(name, parent);
    if let Some(m) = node.matrix {
        let (s, r, t) = decomposed(&m);
        out.translation = t.to_array();
        out.rotation = r.to_array();
        out.scale = s.to_array();
    } else {
        if let Some(t) = node.translation {
            out.translation = t;
        }
        if let Some(r) = node.rotation {
            out.rotation = r.0;
        }
        if let Some(s) = node.scale {
            out.scale = s;
        }
    }
    let mesh = node
        .mesh
        .map(|m| m.value())
        .filter(|&m| m < json.meshes.len());
    out.mesh = mesh.filter(|_| shown);
    out.skin = node
        .skin
        .map(|s| s.value())
        .filter(|&s| s < json.skins.len());
    out.weights = node
        .weights
        .clone()
        .or_else(|| mesh.and_then(|m| json.meshes[m].weights.clone()))
        .unwrap_or_default();
    out
}

/// Whether each node belongs to the default scene (`scene`, else the first of `scenes`); all
/// nodes when the file has no scenes.
fn scene_nodes(root: &Map<String, Value>, n: usize, parent: &[Option<usize>]) -> Vec<bool> {
    let Some(scenes) = root.get("scenes").and_then(Value::as_array) else {
        return vec![true; n];
    };
    let index = root.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize;
    let Some(scene) = scenes.get(index) else {
        return vec![true; n];
    };
    let mut shown = vec![false; n];
    let roots: Vec<usize> = scene
        .get("nodes")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).map(|i| i as usize))
        .into_iter()
        .flatten()
        .filter(|&i| i < n)
        .collect();
    for r in roots {
        shown[r] = true;
    }
    // Every descendant of a scene root shows too.
    for i in 0..n {
        let mut at = Some(i);
        let mut steps = 0;
        while let Some(j) = at {
            if shown[j] {
                shown[i] = true;
                break;
            }
            steps += 1;
            if steps > n {
                break;
            }
            at = parent[j];
        }
    }
    shown
}

/// Mesh `m` with every primitive that reads (the others noted).
fn read_mesh(
    json: &GltfJson,
    sources: &Sources<'_>,
    m: usize,
    mesh: &gltf_json::Mesh,
    notes: &mut Vec<String>,
) -> Mesh {
    let target_names = target_labels(mesh);
    let target_count = target_names.len();
    let mut out = Mesh {
        name: mesh.name.clone().unwrap_or_default(),
        primitives: Vec::with_capacity(mesh.primitives.len()),
        target_names,
        weights: mesh.weights.clone().unwrap_or_default(),
    };
    for (p, prim) in mesh.primitives.iter().enumerate() {
        let raw = sources
            .root
            .get("meshes")
            .and_then(|v| v.get(m))
            .and_then(|v| v.get("primitives"))
            .and_then(|v| v.get(p));
        match primitive::primitive(json, sources.buffers, (m, p), prim, raw, target_count) {
            Ok(Some(primitive)) => out.primitives.push(primitive),
            Ok(None) => {}
            Err(e) => notes.push(note(&e)),
        }
    }
    out
}

/// A note for [`Model::notes`]: `PATH: REASON (not drawn)`.
fn note(e: &Located) -> String {
    format!("{}: {} (not drawn)", e.path, e.reason)
}

#[cfg(test)]
mod tests;
