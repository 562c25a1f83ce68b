//! Morph targets for the nodes a weights channel animates. glTF weights need a mesh with as
//! many targets: the original mesh of a glTF node, the document's morph mesh (legacy three.js
//! models), or else a one-triangle placeholder mesh whose targets move nothing but carry the
//! names (`mesh.extras.targetNames`). A placeholder gets the target keys all clips use: named
//! keys take the lowest indices no numeric key uses.

use std::collections::HashSet;

use serde_json::Value;

use super::super::GltfSource;
use super::super::target::Property;
use super::{MorphPlan, MorphSource, NodePlan, Plan, Resolved};
use crate::formats::Document;

/// The most morph targets a placeholder mesh gets (a track index beyond it is refused).
const MAX_TARGETS: usize = 1024;

/// Gives every node a weights channel needs its morph targets: the original mesh's, the
/// document mesh's, or a placeholder's built from the target keys all clips use.
pub(super) fn plan_morphs(
    doc: &Document,
    base: Option<&GltfSource>,
    list: &mut [NodePlan],
    targets: &[Vec<Option<Resolved>>],
    out: &mut Plan,
) {
    // Keys per node, in order of first use; the widest all-targets track.
    let mut keys: Vec<(usize, Vec<String>, usize)> = Vec::new();
    for (c, clip) in doc.clips.iter().enumerate() {
        for (t, track) in clip.tracks.iter().enumerate() {
            let Some((Some(node), property)) = &targets[c][t] else {
                continue;
            };
            let entry = match keys.iter().position(|k| k.0 == *node) {
                Some(i) => &mut keys[i],
                None => {
                    keys.push((*node, Vec::new(), 0));
                    keys.last_mut().expect("just pushed")
                }
            };
            match property {
                Property::Weight(k) if !entry.1.contains(k) => entry.1.push(k.clone()),
                Property::Weights => entry.2 = entry.2.max(track.value_size()),
                _ => {}
            }
        }
    }
    for (node, names, width) in keys {
        if names.is_empty() && width == 0 {
            continue;
        }
        if list[node].morph.is_some() {
            continue;
        }
        if let (Some(src), Some(i)) = (base, list[node].existing) {
            list[node].morph = existing_morph(src, i);
            if list[node].morph.is_none() {
                out.errors.push(format!(
                    "node '{}' has no mesh with morph targets, so glTF cannot animate its weights",
                    list[node].name
                ));
            }
            continue;
        }
        // A placeholder: named keys take the lowest indices no numeric key uses.
        let mut slots: Vec<Option<String>> = vec![None; width];
        let mut numeric = HashSet::new();
        let mut named = Vec::new();
        for key in &names {
            match key.parse::<usize>() {
                Ok(j) if j < MAX_TARGETS => {
                    numeric.insert(j);
                    if slots.len() <= j {
                        slots.resize(j + 1, None);
                    }
                }
                Ok(j) => out.errors.push(format!(
                    "node '{}': morph target index {j} is beyond the {MAX_TARGETS} targets a \
                     placeholder mesh gets",
                    list[node].name
                )),
                Err(_) => named.push(key.clone()),
            }
        }
        for name in named {
            let free = (0..slots.len()).find(|j| slots[*j].is_none() && !numeric.contains(j));
            match free {
                Some(j) => slots[j] = Some(name),
                None => slots.push(Some(name)),
            }
        }
        let names: Vec<String> = slots
            .into_iter()
            .enumerate()
            .map(|(j, n)| n.unwrap_or_else(|| j.to_string()))
            .collect();
        out.notes.push(format!(
            "a mesh for node '{}' (its weights are animated on a placeholder triangle with {} \
             morph target(s) that move nothing)",
            list[node].name,
            names.len()
        ));
        list[node].morph = Some(MorphPlan {
            defaults: vec![0.0; names.len()],
            names,
            source: MorphSource::Placeholder,
        });
    }
}

/// The morph targets of original node `i`: its mesh's target count, `extras.targetNames` and
/// default weights (the node's `weights`, else the mesh's, else 0).
fn existing_morph(src: &GltfSource, i: usize) -> Option<MorphPlan> {
    let node = src.root.get("nodes")?.get(i)?;
    let mesh = src
        .root
        .get("meshes")?
        .get(node.get("mesh")?.as_u64()? as usize)?;
    let count = mesh
        .get("primitives")?
        .as_array()?
        .iter()
        .map(|p| {
            p.get("targets")
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        })
        .max()?;
    if count == 0 {
        return None;
    }
    let names: Vec<String> = mesh
        .get("extras")
        .and_then(|e| e.get("targetNames"))
        .and_then(Value::as_array)
        .filter(|a| a.len() == count)
        .and_then(|a| {
            a.iter()
                .map(|n| n.as_str().filter(|s| !s.is_empty()).map(String::from))
                .collect()
        })
        .unwrap_or_else(|| (0..count).map(|j| j.to_string()).collect());
    let weights = |v: Option<&Value>| -> Option<Vec<f32>> {
        let a = v?.as_array()?;
        (a.len() == count).then(|| a.iter().map(|w| w.as_f64().unwrap_or(0.0) as f32).collect())
    };
    let defaults = weights(node.get("weights"))
        .or_else(|| weights(mesh.get("weights")))
        .unwrap_or_else(|| vec![0.0; count]);
    Some(MorphPlan {
        names,
        defaults,
        source: MorphSource::Existing,
    })
}
