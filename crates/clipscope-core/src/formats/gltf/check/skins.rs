//! Skins and skinned nodes, which decide what an animation does to a skinned model: the joints
//! (present, resolved, under one root, in the scenes that show the mesh), the skeleton root,
//! the inverse bind matrices (format, stride, count), and the transforms a skinned mesh
//! ignores (its node's own and its parents').

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::accessors::{FLOAT, component_of, count_of, format_of, normalized, stride, type_of};
use super::{Checked, Doc, empty, index, undefined, unresolved};
use crate::formats::gltf::skeleton::descends_from;
use crate::model::Problem;

/// Checks every skin of `doc` and every node with a skinned mesh.
pub(super) fn check(doc: &Doc<'_>, out: &mut Checked) {
    let nodes = doc.list("nodes");
    let parents = parents(nodes);
    let skins = doc.list("skins");
    let mut joints_of: Vec<Vec<usize>> = Vec::with_capacity(skins.len());
    for (k, skin) in skins.iter().enumerate() {
        let joints = match skin.as_object() {
            Some(skin) => check_skin(doc, k, skin, &parents, out),
            None => Vec::new(),
        };
        joints_of.push(joints);
    }
    let scenes = scene_members(doc, nodes.len());
    for (n, node) in nodes.iter().enumerate() {
        let Some(node) = node.as_object() else {
            continue;
        };
        let Some(skin) = node.get("skin") else {
            continue;
        };
        let Some(k) = index(Some(skin)).filter(|&k| k < skins.len()) else {
            out.problems.push(unresolved(
                &format!("/nodes/{n}/skin"),
                "skin",
                skin,
                skins.len(),
            ));
            continue;
        };
        if !node.contains_key("mesh") {
            continue;
        }
        let joints = &joints_of[k];
        if scenes
            .iter()
            .any(|members| members.contains(&n) && joints.iter().any(|j| !members.contains(j)))
        {
            out.problems.push(Problem::error(
                "gltf-skin-joints-not-in-scene",
                format!("/nodes/{n}: the node's skinned mesh is in a scene that does not contain the joints of skins[{k}]"),
            ));
        }
        if has_transform(node) {
            out.problems.push(Problem::warning(
                "gltf-skinned-mesh-local-transform",
                format!("/nodes/{n}: the node has a skinned mesh, which ignores the node's own transform"),
            ));
        }
        let mut at = parents[n];
        let mut steps = 0;
        while let Some(p) = at {
            if nodes[p].as_object().is_some_and(has_transform) {
                out.problems.push(Problem::warning(
                    "gltf-skinned-mesh-parent-transform",
                    format!("/nodes/{n}: parent node {p} has a transform, which the node's skinned mesh ignores"),
                ));
                break;
            }
            steps += 1;
            if steps > nodes.len() {
                break;
            }
            at = parents[p];
        }
    }
}

/// Checks skin `k`; returns its resolved joints.
fn check_skin(
    doc: &Doc<'_>,
    k: usize,
    skin: &Map<String, Value>,
    parents: &[Option<usize>],
    out: &mut Checked,
) -> Vec<usize> {
    let at = format!("/skins/{k}");
    let n = parents.len();
    let mut broken = false;
    let listed = match skin.get("joints") {
        None => {
            out.problems.push(undefined(&at, "joints"));
            broken = true;
            &[][..]
        }
        Some(Value::Array(list)) => {
            if list.is_empty() {
                out.problems.push(empty(&format!("{at}/joints")));
                broken = true;
            }
            list.as_slice()
        }
        Some(_) => {
            broken = true;
            &[][..]
        }
    };
    let mut joints = Vec::with_capacity(listed.len());
    let mut all_resolved = true;
    for (j, v) in listed.iter().enumerate() {
        match index(Some(v)).filter(|&i| i < n) {
            Some(i) => joints.push(i),
            None => {
                all_resolved = false;
                broken = true;
                out.problems
                    .push(unresolved(&format!("{at}/joints/{j}"), "node", v, n));
            }
        }
    }
    if !listed.is_empty() && (!all_resolved || common_root(&joints, parents).is_none()) {
        out.problems.push(Problem::error(
            "gltf-skin-no-common-root",
            format!("{at}/joints: the joints do not have a common root"),
        ));
    }
    if let Some(v) = skin.get("skeleton") {
        match index(Some(v)).filter(|&s| s < n) {
            None => out
                .problems
                .push(unresolved(&format!("{at}/skeleton"), "node", v, n)),
            Some(s) => {
                if joints.iter().any(|&j| !descends_from(parents, j, s)) {
                    out.problems.push(Problem::error(
                        "gltf-skin-skeleton-not-root",
                        format!(
                            "{at}/skeleton: node {s} is not a common root of the skin's joints"
                        ),
                    ));
                }
            }
        }
    }
    if let Some(v) = skin.get("inverseBindMatrices") {
        let ip = format!("{at}/inverseBindMatrices");
        let accessors = doc.list("accessors");
        match index(Some(v)).and_then(|i| Some((i, accessors.get(i)?.as_object()?))) {
            None => {
                broken = true;
                out.problems
                    .push(unresolved(&ip, "accessor", v, accessors.len()));
            }
            Some((i, accessor)) => {
                if type_of(accessor) != "MAT4"
                    || component_of(accessor) != FLOAT
                    || normalized(accessor)
                {
                    out.problems.push(Problem::error(
                        "gltf-skin-ibm-format",
                        format!(
                            "{ip}: accessor {i} is {}; inverse bind matrices must be {{MAT4, FLOAT}}",
                            format_of(accessor)
                        ),
                    ));
                }
                if let Some((view, s)) = stride(doc, accessor) {
                    out.problems.push(Problem::error(
                        "gltf-skin-ibm-byte-stride",
                        format!(
                            "{ip}: accessor {i} sits in bufferViews[{view}], whose byteStride is {s}; inverse bind matrices must be tightly packed"
                        ),
                    ));
                }
                let count = count_of(accessor);
                if count < listed.len() as u64 {
                    out.problems.push(Problem::error(
                        "gltf-skin-ibm-count",
                        format!(
                            "{ip}: the skin has {} joints but accessor {i} holds {count} matrices",
                            listed.len()
                        ),
                    ));
                }
            }
        }
    }
    if broken {
        out.broken_skins.insert(k);
    }
    joints
}

/// Whether a node sets a transform of its own (`matrix`, `translation`, `rotation`, `scale`).
fn has_transform(node: &Map<String, Value>) -> bool {
    ["matrix", "translation", "rotation", "scale"]
        .iter()
        .any(|k| node.contains_key(*k))
}

/// The parent of every node (the first listing it as a child), ignoring bad indices and links
/// that would close a cycle.
fn parents(nodes: &[Value]) -> Vec<Option<usize>> {
    let n = nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in nodes.iter().enumerate() {
        let children = node
            .get("children")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for c in children.iter().filter_map(|c| index(Some(c))) {
            if c < n && parent[c].is_none() && !descends_from(&parent, i, c) {
                parent[c] = Some(i);
            }
        }
    }
    parent
}

/// The closest node every joint is or lies below, if any.
fn common_root(joints: &[usize], parent: &[Option<usize>]) -> Option<usize> {
    let (&first, rest) = joints.split_first()?;
    let mut candidates = Vec::new();
    let mut at = Some(first);
    while let Some(i) = at {
        if candidates.len() > parent.len() {
            break;
        }
        candidates.push(i);
        at = parent[i];
    }
    let mut alive: HashSet<usize> = candidates.iter().copied().collect();
    for &j in rest {
        let mut chain = HashSet::new();
        let mut at = Some(j);
        while let Some(i) = at {
            if !chain.insert(i) {
                break;
            }
            at = parent[i];
        }
        alive.retain(|c| chain.contains(c));
        if alive.is_empty() {
            return None;
        }
    }
    candidates.into_iter().find(|c| alive.contains(c))
}

/// The nodes of every scene: its roots and everything below them.
fn scene_members(doc: &Doc<'_>, n: usize) -> Vec<HashSet<usize>> {
    let nodes = doc.list("nodes");
    doc.list("scenes")
        .iter()
        .map(|scene| {
            let mut members = HashSet::new();
            let mut stack: Vec<usize> = scene
                .get("nodes")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|v| index(Some(v)))
                .filter(|&i| i < n)
                .collect();
            while let Some(i) = stack.pop() {
                if !members.insert(i) {
                    continue;
                }
                if let Some(children) = nodes[i].get("children").and_then(Value::as_array) {
                    stack.extend(
                        children
                            .iter()
                            .filter_map(|c| index(Some(c)))
                            .filter(|&c| c < n),
                    );
                }
            }
            members
        })
        .collect()
}
