//! The nodes of the written file and which of them each track animates.
//!
//! For a document read from glTF the nodes are the original ones, found by their track names,
//! plus new ones for names the file did not have; otherwise the skeleton's bones (with their
//! hierarchy and rest pose), the morph mesh's node and one node per other animated name, in
//! order of appearance. `.bones[X]` tracks go to node `X`; tracks on the root object to the
//! mesh's node, or a node called `root` (a name no track uses).

use std::collections::{HashMap, HashSet};

use super::super::GltfSource;
use super::super::names::unique;
use rayon::prelude::*;

use super::super::target::{BadKeys, NodeKey, Target, check, target};
use super::{MorphPlan, MorphSource, NodePlan, Plan, Resolved, track_note};
use crate::formats::Document;
use crate::model::binding::sanitize_node_name;

/// The node table while planning.
pub(super) struct Nodes {
    /// The nodes so far, in the order they are written.
    pub list: Vec<NodePlan>,
    /// The index of each node by its track name.
    by_name: HashMap<String, usize>,
    /// Every name taken (by a node or a track), so a made-up name is new.
    used: HashSet<String>,
}

impl Nodes {
    /// The node called `name`, added if new.
    fn get_or_add(&mut self, name: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            return i;
        }
        self.used.insert(name.to_string());
        self.by_name.insert(name.to_string(), self.list.len());
        self.list.push(NodePlan::new(name.to_string()));
        self.list.len() - 1
    }

    /// The nodes `doc` starts with (see the module docs; `base` is the glTF file it was read
    /// from, if any) and the node of the document's morph mesh, if it has one.
    pub(super) fn of_document(doc: &Document, base: Option<&GltfSource>) -> (Nodes, Option<usize>) {
        let mut nodes = Nodes {
            list: Vec::new(),
            by_name: HashMap::new(),
            used: HashSet::new(),
        };
        // Every node name a track uses, so a made-up root name cannot collide with one.
        for clip in &doc.clips {
            for track in &clip.tracks {
                if let Ok(Target {
                    node: NodeKey::Named(n),
                    ..
                }) = target(track)
                {
                    nodes.used.insert(n);
                }
            }
        }
        if let Some(src) = base {
            for (i, name) in src.node_names.iter().enumerate() {
                nodes.by_name.insert(name.clone(), i);
                nodes.used.insert(name.clone());
                nodes.list.push(NodePlan {
                    existing: Some(i),
                    ..NodePlan::new(name.clone())
                });
            }
            return (nodes, None);
        }
        if let Some(skeleton) = &doc.skeleton {
            let mut index = Vec::with_capacity(skeleton.bones.len());
            for bone in &skeleton.bones {
                let i = nodes.get_or_add(&bone.name);
                nodes.list[i].rest = Some((bone.position, bone.rotation, bone.scale));
                index.push(i);
            }
            for (b, bone) in skeleton.bones.iter().enumerate() {
                let parent = bone.parent.and_then(|p| index.get(p).copied());
                if parent != Some(index[b]) && !creates_cycle(&nodes.list, index[b], parent) {
                    nodes.list[index[b]].parent = parent;
                }
            }
        }
        let mut mesh_node = None;
        if let Some(mesh) = &doc.mesh {
            let name = if mesh.name.is_empty() {
                "mesh"
            } else {
                &mesh.name
            };
            let i = nodes.get_or_add(name);
            nodes.list[i].morph = Some(MorphPlan {
                names: mesh.target_names(),
                defaults: vec![0.0; mesh.targets.len()],
                source: MorphSource::Document,
            });
            mesh_node = Some(i);
        }
        (nodes, mesh_node)
    }
}

/// Whether making `parent` the parent of `node` would close a loop.
fn creates_cycle(list: &[NodePlan], node: usize, parent: Option<usize>) -> bool {
    let mut at = parent;
    let mut steps = 0;
    while let Some(p) = at {
        if p == node || steps > list.len() {
            return true;
        }
        steps += 1;
        at = list[p].parent;
    }
    false
}

/// Where every track of a document goes, and what naming the targets took.
pub(super) struct Targets {
    /// Per clip, per track: its node (none for a pointer channel) and property, or `None` for
    /// a track left out (noted) or refused (an error).
    pub per_clip: Vec<Vec<Option<Resolved>>>,
    /// Whether a track used the `.bones[X].…` form.
    pub bones_used: bool,
    /// The node tracks on the root object went to, when there were any.
    pub root: Option<usize>,
}

/// Resolves every track's target once, adding the nodes they name to `nodes`; tracks on the
/// root object go to `mesh_node` when there is one. A property glTF has no channel for leaves
/// the track out (a note in `out`); bad keys for a property it has refuse the document (an
/// error in `out`).
pub(super) fn resolve_targets(
    doc: &Document,
    nodes: &mut Nodes,
    mesh_node: Option<usize>,
    out: &mut Plan,
) -> Targets {
    let mut root_node = mesh_node;
    let mut bones_used = false;
    let mut root_used = false;
    let mut per_clip = Vec::with_capacity(doc.clips.len());
    for clip in &doc.clips {
        let mut targets = Vec::with_capacity(clip.tracks.len());
        // Each track's keys checked on the worker threads (a pass over every value).
        let checked: Vec<Option<Result<(), BadKeys>>> = clip
            .tracks
            .par_iter()
            .map(|track| match target(track) {
                Ok(t) if !track.is_empty() => Some(check(track, &t.property)),
                _ => None,
            })
            .collect();
        for (track, checked) in clip.tracks.iter().zip(checked) {
            let t = match target(track) {
                Ok(t) => t,
                Err(why) => {
                    out.notes
                        .push(track_note(clip, track, &format!("{why}; left out")));
                    targets.push(None);
                    continue;
                }
            };
            if track.is_empty() {
                out.notes
                    .push(track_note(clip, track, "it has no keys; left out"));
                targets.push(None);
                continue;
            }
            if let Some(Err(why)) = checked {
                out.errors.push(track_note(clip, track, &why.to_string()));
                targets.push(None);
                continue;
            }
            bones_used |= t.bone;
            let node = match &t.node {
                NodeKey::Named(n) => Some(nodes.get_or_add(n)),
                NodeKey::Root => {
                    root_used = true;
                    Some(*root_node.get_or_insert_with(|| {
                        let name = unique("root", &mut nodes.used);
                        nodes.get_or_add(&name)
                    }))
                }
                NodeKey::Pointer => None,
            };
            targets.push(Some((node, t.property)));
        }
        per_clip.push(targets);
    }
    Targets {
        per_clip,
        bones_used,
        root: root_node.filter(|_| root_used),
    }
}

/// The notes on how tracks named their nodes: the `.bones[X]` form, the root object, and node
/// names that read back sanitized.
pub(super) fn naming_notes(list: &[NodePlan], targets: &Targets, out: &mut Plan) {
    if targets.bones_used {
        out.notes.push(
            "the '.bones[X].…' form of track names (written on nodes named X, they read back \
             as 'X.…')"
                .into(),
        );
    }
    if let Some(r) = targets.root {
        out.notes.push(format!(
            "the root object as a target (tracks like '.position' are written on node '{}')",
            list[r].name
        ));
    }
    let renamed: Vec<String> = list
        .iter()
        .filter(|n| n.existing.is_none() && sanitize_node_name(&n.name) != n.name)
        .map(|n| format!("'{}' → '{}'", n.name, sanitize_node_name(&n.name)))
        .collect();
    if !renamed.is_empty() {
        let shown: Vec<&str> = renamed.iter().take(5).map(String::as_str).collect();
        out.notes.push(format!(
            "node names as given (they read back sanitized, as three.js's GLTFLoader does: \
             {}{})",
            shown.join(", "),
            if renamed.len() > 5 {
                format!(" and {} more", renamed.len() - 5)
            } else {
                String::new()
            }
        ));
    }
}
