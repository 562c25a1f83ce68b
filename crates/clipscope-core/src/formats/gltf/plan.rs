//! What writing a document as glTF will produce: the nodes, the morph meshes they need, one
//! animation per clip with its channels' keys, the notes for `convert`'s summary and the
//! tracks glTF cannot hold.
//!
//! Three kinds of trouble are told apart. A track on a property glTF has no channel for
//! (`.visible`, `.material.opacity`, Euler `.rotation`) is left out and noted, like any other
//! loss in a conversion. What glTF cannot store but can carry is adapted and noted: keys
//! before time 0 (Lottie precomps) are cut at 0 after an exact sample there, 2-component
//! positions and scales are padded to 3. Keys that are broken for a property it does have
//! (unsorted times, NaN, a zero quaternion, two tracks for one node property, weights on a
//! glTF node without morph targets) are errors: writing refuses the document rather than
//! write an invalid file.
//!
//! The same plan serves [`check_writable`](crate::formats::check_writable) (its errors),
//! [`conversion_losses`](crate::formats::conversion_losses) (its notes), the fresh writer
//! ([`write`](super::write)) and the write-back ([`patch`](super::patch)).
//!
//! Nodes: for a document read from glTF the original nodes, found by their track names, plus
//! new ones for names the file did not have; otherwise the skeleton's bones (with their
//! hierarchy and rest pose), the morph mesh's node and one node per other animated name, in
//! order of appearance. `.bones[X]` tracks go to node `X`; tracks on the root object to the
//! mesh's node, or a node called `root`.
//!
//! Morph weights need a mesh with as many targets: the original mesh of a glTF node, the
//! document's morph mesh (legacy three.js models), or else a one-triangle placeholder mesh
//! whose targets move nothing but carry the names (`mesh.extras.targetNames`).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::GltfSource;
use super::check::{self as rules, Doc};
use super::names::unique;
use super::target::{NodeKey, Property, Target, check, target};
use super::weights::{Input, merge};
use crate::formats::sampler_keys::{Keys, Sampling, convert};
use crate::formats::{Document, adapt};
use crate::model::binding::sanitize_node_name;
use crate::model::{BlendMode, Clip, Severity, Track, TrackKind};

/// The most morph targets a placeholder mesh gets (a track index beyond it is refused).
const MAX_TARGETS: usize = 1024;

/// Where a node's morph targets come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MorphSource {
    /// The node's mesh in the original glTF file.
    Existing,
    /// The document's morph mesh.
    Document,
    /// A placeholder triangle with this many targets.
    Placeholder,
}

/// The morph targets of a node with a weights channel.
#[derive(Debug, Clone)]
pub(crate) struct MorphPlan {
    /// Target names (indices as text where the target has none).
    pub names: Vec<String>,
    /// The weight of targets no track animates.
    pub defaults: Vec<f32>,
    /// Where the mesh comes from.
    pub source: MorphSource,
}

impl MorphPlan {
    /// The target a track's `[key]` means: a name first, then an index (three.js's order).
    fn resolve(&self, key: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| n == key)
            .or_else(|| key.parse::<usize>().ok().filter(|&j| j < self.names.len()))
    }
}

/// One node of the written file.
#[derive(Debug, Clone)]
pub(crate) struct NodePlan {
    /// The name tracks use for it (written as the node's name for new nodes).
    pub name: String,
    /// Its index in the original file, when it has one.
    pub existing: Option<usize>,
    /// Its parent among the planned nodes (new nodes only).
    pub parent: Option<usize>,
    /// Rest translation, rotation and scale (skeleton bones).
    pub rest: Option<([f32; 3], [f32; 4], [f32; 3])>,
    /// Its morph targets, when a weights channel or the document's mesh needs them.
    pub morph: Option<MorphPlan>,
}

impl NodePlan {
    /// A new node called `name`.
    fn new(name: String) -> NodePlan {
        NodePlan {
            name,
            existing: None,
            parent: None,
            rest: None,
            morph: None,
        }
    }
}

/// One channel: a node's property (or what a `KHR_animation_pointer` pointer names) driven
/// by keys.
#[derive(Debug, Clone)]
pub(crate) struct ChannelPlan {
    /// The node (index into [`Plan::nodes`]); `None` for a pointer channel.
    pub node: Option<usize>,
    /// `translation`, `rotation`, `scale`, `weights` or `pointer`.
    pub path: &'static str,
    /// The JSON pointer of a `pointer` channel.
    pub pointer: Option<String>,
    /// The keys.
    pub keys: Keys,
}

/// A track's place in the written file: its node (none for a pointer channel) and property.
type Resolved = (Option<usize>, Property);

/// One animation.
#[derive(Debug, Clone)]
pub(crate) struct AnimationPlan {
    /// The clip's name.
    pub name: String,
    /// Its channels, in track order.
    pub channels: Vec<ChannelPlan>,
    /// `extras` (the clip's user data, when it has any).
    pub extras: Option<Value>,
    /// Other fields of a glTF animation read from the original file (`extensions`, …).
    pub fields: Vec<(String, Value)>,
}

/// Everything a glTF writer needs, plus what converting loses and what cannot be written.
#[derive(Debug, Clone, Default)]
pub(crate) struct Plan {
    /// The nodes: the original ones first (write-back), then new ones.
    pub nodes: Vec<NodePlan>,
    /// One animation per written clip.
    pub animations: Vec<AnimationPlan>,
    /// Human-readable notes on what changes or is left out (for `convert`).
    pub notes: Vec<String>,
    /// Tracks glTF cannot hold (for `check_writable`).
    pub errors: Vec<String>,
}

/// The glTF source a document writes back into, if it was read from glTF.
pub(crate) fn base(doc: &Document) -> Option<&GltfSource> {
    doc.source::<GltfSource>()
}

/// The rules whose errors writing the animations anew removes (or, where it cannot, refuses
/// to write the file rather than carry them forward): the layout and format of the sampler
/// accessors, their bounds, keys the plan adapts (negative or repeated times cut or separated,
/// rotations normalized, one-key cubic splines written linear), animated nodes with a matrix
/// (given translation, rotation and scale), and two channels on one target or weights on a
/// node without morph targets (refused, with what to fix).
const RE_ENCODING_FIXES: [&str; 12] = [
    "gltf-target-node-matrix",
    "gltf-duplicate-targets",
    "gltf-weights-without-morph-targets",
    "gltf-sampler-byte-stride",
    "gltf-sampler-input-format",
    "gltf-sampler-input-without-bounds",
    "gltf-sampler-output-format",
    "gltf-accessor-bounds",
    "gltf-sampler-input-negative",
    "gltf-sampler-input-not-increasing",
    "gltf-non-unit-quaternion",
    "gltf-sampler-too-few-keys",
];

/// What is wrong with the sampler data of the file `src` that writing it anew fixes (the codes
/// of glTF's own rules that find such errors, sorted, without repeats): empty when its
/// animations can be written back as they are. A file whose samplers break glTF's rules
/// (strided or ill-formatted accessors, missing bounds, bad times, non-unit rotations) is
/// written with its animations re-encoded, even when nothing was edited, so no such error is
/// carried forward.
pub(crate) fn broken_animation_data(src: &GltfSource) -> Vec<String> {
    let missing = vec![None; src.buffers.len()];
    let checked = rules::check(&Doc {
        root: &src.root,
        json: Some(&src.json),
        buffers: &src.buffers,
        missing: &missing,
    });
    let mut codes: Vec<String> = checked
        .problems
        .into_iter()
        .filter(|p| p.severity == Severity::Error && RE_ENCODING_FIXES.contains(&p.code.as_str()))
        .map(|p| p.code)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

/// Whether writing `doc` back into its glTF file `src` keeps the file's animations as they
/// are: its clips are unchanged and the file's animation data breaks none of glTF's rules.
pub(crate) fn keeps_animations(doc: &Document, src: &GltfSource) -> bool {
    doc.clips == src.clips && broken_animation_data(src).is_empty()
}

/// The node table while planning.
struct Nodes {
    list: Vec<NodePlan>,
    by_name: HashMap<String, usize>,
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
}

/// Plans writing `doc` as glTF (see the module docs), after [`adapt_clips`].
pub(crate) fn plan(doc: &Document) -> Plan {
    let (clips, notes) = adapt_clips(doc);
    let mut out = match clips {
        Some(clips) => plan_adapted(&Document {
            path: doc.path.clone(),
            format: doc.format,
            clips,
            skeleton: doc.skeleton.clone(),
            mesh: doc.mesh.clone(),
            unread: doc.unread.clone(),
            source: doc.source.clone(),
        }),
        None => plan_adapted(doc),
    };
    out.notes.splice(0..0, notes);
    out
}

/// The clips of `doc` with what glTF cannot store but can carry adapted, when anything needed
/// it: keys before time 0 cut at 0 (after an exact sample there; see
/// [`crop_negative`](adapt::crop_negative)) and 2-component positions and scales padded to 3
/// (z = 0, scale z = 1). With one note per kind of change.
fn adapt_clips(doc: &Document) -> (Option<Vec<Clip>>, Vec<String>) {
    let needs = |track: &Track| {
        target(track).is_ok_and(|t| {
            (matches!(t.property, Property::Translation | Property::Scale)
                && track.kind == TrackKind::Vector
                && track.value_size() == 2)
                || track.times.iter().any(|&t| t < 0.0)
                || track.times.windows(2).any(|w| w[0] == w[1])
        })
    };
    if !doc.clips.iter().flat_map(|c| &c.tracks).any(needs) {
        return (None, Vec::new());
    }
    let mut cropped = Vec::new();
    let mut padded = Vec::new();
    let mut repeated = Vec::new();
    let mut clips = doc.clips.clone();
    for clip in &mut clips {
        let fps = adapt::source_fps(clip);
        for track in &mut clip.tracks {
            let Ok(t) = target(track) else {
                continue;
            };
            let flat = matches!(t.property, Property::Translation | Property::Scale)
                && track.kind == TrackKind::Vector
                && !track.is_empty()
                && track.value_size() == 2
                && track.values.len() == track.len() * 2;
            if flat {
                let z = if t.property == Property::Scale {
                    1.0
                } else {
                    0.0
                };
                *track = adapt::pad_to_3(track, z);
                padded.push(track.name.clone());
            }
            if track.times.windows(2).all(|w| w[0] <= w[1])
                && let Some(c) = adapt::crop_negative(track, fps)
            {
                cropped.push(track.name.clone());
                *track = c;
            }
            if let Some(c) = adapt::separate_repeated(track) {
                repeated.push(track.name.clone());
                *track = c;
            }
        }
    }
    let mut notes = Vec::new();
    let list = |names: &[String]| {
        let shown: Vec<&str> = names.iter().take(4).map(String::as_str).collect();
        format!(
            "{}{}",
            shown.join(", "),
            if names.len() > 4 { ", …" } else { "" }
        )
    };
    if !cropped.is_empty() {
        notes.push(format!(
            "the keys before time 0 of {} track(s) ({}): glTF times start at 0, so they are \
             cut at 0 with an exact sample there",
            cropped.len(),
            list(&cropped)
        ));
    }
    if !padded.is_empty() {
        notes.push(format!(
            "2-component values of {} position/scale track(s) ({}), padded to 3 (z = 0, \
             scale z = 1)",
            padded.len(),
            list(&padded)
        ));
    }
    if !repeated.is_empty() {
        notes.push(format!(
            "the repeated key times (jumps) of {} track(s) ({}): glTF times strictly increase, \
             so the key before each jump moves back by one f32 step",
            repeated.len(),
            list(&repeated)
        ));
    }
    let changed = !cropped.is_empty() || !padded.is_empty() || !repeated.is_empty();
    (changed.then_some(clips), notes)
}

/// Plans writing `doc`, whose clips are already adapted.
fn plan_adapted(doc: &Document) -> Plan {
    let base = base(doc);
    let mut out = Plan::default();
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
    let mut mesh_node = None;
    match base {
        Some(src) => {
            for (i, name) in src.node_names.iter().enumerate() {
                nodes.by_name.insert(name.clone(), i);
                nodes.used.insert(name.clone());
                nodes.list.push(NodePlan {
                    existing: Some(i),
                    ..NodePlan::new(name.clone())
                });
            }
        }
        None => {
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
        }
    }
    let mut root_node = mesh_node;
    let mut bones_used = false;
    let mut root_used = false;

    // Resolve every track's target once.
    let mut targets: Vec<Vec<Option<Resolved>>> = Vec::with_capacity(doc.clips.len());
    for clip in &doc.clips {
        let mut per_clip = Vec::with_capacity(clip.tracks.len());
        for track in &clip.tracks {
            // A property glTF has no channel for leaves the track out (noted); bad keys for
            // a property it has refuse the document.
            let t = match target(track) {
                Ok(t) => t,
                Err(why) => {
                    out.notes
                        .push(track_note(clip, track, &format!("{why}; left out")));
                    per_clip.push(None);
                    continue;
                }
            };
            let resolved = (|| -> Result<Option<Resolved>, String> {
                if track.is_empty() {
                    out.notes
                        .push(track_note(clip, track, "it has no keys; left out"));
                    return Ok(None);
                }
                check(track, &t.property)?;
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
                Ok(Some((node, t.property)))
            })();
            match resolved {
                Ok(r) => per_clip.push(r),
                Err(why) => {
                    out.errors.push(track_note(clip, track, &why));
                    per_clip.push(None);
                }
            }
        }
        targets.push(per_clip);
    }

    plan_morphs(doc, base, &mut nodes.list, &targets, &mut out);

    for (c, clip) in doc.clips.iter().enumerate() {
        if let Some(a) = plan_animation(clip, &targets[c], &nodes.list, base.is_some(), &mut out) {
            out.animations.push(a);
        }
    }

    if bones_used {
        out.notes.push(
            "the '.bones[X].…' form of track names (written on nodes named X, they read back \
             as 'X.…')"
                .into(),
        );
    }
    if root_used && let Some(r) = root_node {
        out.notes.push(format!(
            "the root object as a target (tracks like '.position' are written on node '{}')",
            nodes.list[r].name
        ));
    }
    let renamed: Vec<String> = nodes
        .list
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
    out.nodes = nodes.list;
    out
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

/// `clip 'NAME' track 'NAME': why`.
fn track_note(clip: &Clip, track: &Track, why: &str) -> String {
    format!("clip '{}' track '{}': {why}", clip.name, track.name)
}

/// Gives every node a weights channel needs its morph targets: the original mesh's, the
/// document mesh's, or a placeholder's built from the target keys all clips use.
fn plan_morphs(
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

/// The animation for `clip`, or `None` (with a note) when none of its tracks can be written.
fn plan_animation(
    clip: &Clip,
    targets: &[Option<Resolved>],
    nodes: &[NodePlan],
    write_back: bool,
    out: &mut Plan,
) -> Option<AnimationPlan> {
    let mut channels: Vec<ChannelPlan> = Vec::new();
    // Morph inputs per node, in order of first appearance (the channel goes where the first
    // morph track of the node was).
    let mut morph: Vec<(usize, usize, Vec<Input>)> = Vec::new();
    let mut seen: HashSet<(usize, &'static str)> = HashSet::new();
    let mut pointers: HashSet<&str> = HashSet::new();
    for (track, resolved) in clip.tracks.iter().zip(targets) {
        let Some((node, property)) = resolved else {
            continue;
        };
        if let Property::Pointer(p) = property {
            if !pointers.insert(p) {
                out.errors.push(track_note(
                    clip,
                    track,
                    &format!("a second track for pointer {p}"),
                ));
                continue;
            }
            let (keys, notes) = convert(track, false);
            for n in notes {
                out.notes.push(track_note(clip, track, &n));
            }
            if !write_back {
                out.notes.push(track_note(
                    clip,
                    track,
                    &format!(
                        "what its pointer names ({p} is written as a KHR_animation_pointer \
                         channel, but the file written has no such object)"
                    ),
                ));
            }
            channels.push(ChannelPlan {
                node: None,
                path: "pointer",
                pointer: Some(p.clone()),
                keys,
            });
            continue;
        }
        let Some(node) = node else {
            continue;
        };
        let rotation = *property == Property::Rotation;
        let (keys, notes) = convert(track, rotation);
        for n in notes {
            out.notes.push(track_note(clip, track, &n));
        }
        match property {
            Property::Weight(_) | Property::Weights => {
                let Some(plan) = &nodes[*node].morph else {
                    continue; // already an error
                };
                let target = match property {
                    Property::Weight(k) => match plan.resolve(k) {
                        Some(j) => Some(j),
                        None => {
                            out.errors.push(track_note(
                                clip,
                                track,
                                &format!(
                                    "node '{}' has no morph target '{k}' (it has {})",
                                    nodes[*node].name,
                                    plan.names.join(", ")
                                ),
                            ));
                            continue;
                        }
                    },
                    _ => {
                        if track.value_size() != plan.names.len() {
                            out.errors.push(track_note(
                                clip,
                                track,
                                &format!(
                                    "{} weights per key for {} morph targets",
                                    track.value_size(),
                                    plan.names.len()
                                ),
                            ));
                            continue;
                        }
                        None
                    }
                };
                let input = Input {
                    target,
                    track,
                    keys,
                };
                match morph.iter_mut().find(|m| m.0 == *node) {
                    Some(m) => m.2.push(input),
                    None => {
                        morph.push((*node, channels.len(), vec![input]));
                        // A slot, filled once all of the node's morph tracks are known.
                        channels.push(ChannelPlan {
                            node: Some(*node),
                            path: "weights",
                            pointer: None,
                            keys: Keys {
                                sampling: Sampling::Linear,
                                times: Vec::new(),
                                values: Vec::new(),
                                tangents: None,
                                width: 0,
                            },
                        });
                    }
                }
            }
            _ => {
                let path = property.path();
                if !seen.insert((*node, path)) {
                    out.errors.push(track_note(
                        clip,
                        track,
                        &format!(
                            "a second track for the {path} of node '{}'",
                            nodes[*node].name
                        ),
                    ));
                    continue;
                }
                channels.push(ChannelPlan {
                    node: Some(*node),
                    path,
                    pointer: None,
                    keys,
                });
            }
        }
    }
    let mut dropped = Vec::new();
    for (node, slot, inputs) in morph {
        let defaults = nodes[node]
            .morph
            .as_ref()
            .map(|m| m.defaults.clone())
            .unwrap_or_default();
        match merge(inputs, &defaults) {
            Ok((keys, notes)) => {
                for n in notes {
                    out.notes.push(format!(
                        "clip '{}' node '{}': {n}",
                        clip.name, nodes[node].name
                    ));
                }
                channels[slot].keys = keys;
            }
            Err(why) => {
                out.errors.push(format!(
                    "clip '{}' node '{}': {why}",
                    clip.name, nodes[node].name
                ));
                dropped.push(slot);
            }
        }
    }
    let channels: Vec<ChannelPlan> = channels
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(i))
        .map(|(_, c)| c)
        .collect();
    if channels.is_empty() {
        out.notes.push(format!(
            "clip '{}' (no track glTF can hold, and a glTF animation needs at least one \
             channel)",
            clip.name
        ));
        return None;
    }
    let end = channels
        .iter()
        .filter_map(|c| c.keys.times.last())
        .fold(0.0f64, |a, &t| a.max(t as f64));
    if (clip.duration - end).abs() > 1e-6 {
        out.notes.push(format!(
            "clip '{}': its duration of {} s (glTF animations last until their last key, \
             {end} s)",
            clip.name, clip.duration
        ));
    }
    if clip.blend_mode == BlendMode::Additive {
        out.notes.push(format!(
            "clip '{}': additive blending (glTF has no blend mode; it reads back as normal)",
            clip.name
        ));
    }
    for track in &clip.tracks {
        if !track.extras.is_empty() {
            let names: Vec<&str> = track.extras.0.iter().map(|(k, _)| k.as_str()).collect();
            out.notes.push(track_note(
                clip,
                track,
                &format!("its fields {}", names.join(", ")),
            ));
        }
    }
    let extras = match clip.user_data_with_layers().as_ref() {
        Value::Object(o) if o.is_empty() => None,
        Value::Null => None,
        other => Some(other.clone()),
    };
    let mut fields = Vec::new();
    if write_back {
        for (k, raw) in &clip.extras.0 {
            if let Ok(v) = serde_json::from_str(raw.get()) {
                fields.push((k.clone(), v));
            }
        }
    } else if !clip.extras.is_empty() {
        let names: Vec<&str> = clip.extras.0.iter().map(|(k, _)| k.as_str()).collect();
        out.notes.push(format!(
            "clip '{}': its fields {}",
            clip.name,
            names.join(", ")
        ));
    }
    Some(AnimationPlan {
        name: clip.name.clone(),
        channels,
        extras,
        fields,
    })
}

/// `Ok` when every track of `doc` can be written as glTF, else the tracks that cannot (first
/// few named), in one line.
pub(crate) fn check_writable(doc: &Document) -> Result<(), String> {
    if base(doc).is_some_and(|src| keeps_animations(doc, src)) {
        return Ok(());
    }
    let errors = plan(doc).errors;
    if errors.is_empty() {
        return Ok(());
    }
    let count = errors.len();
    let mut shown = errors.into_iter().take(5).collect::<Vec<_>>().join("; ");
    if count > 5 {
        shown.push_str(&format!("; and {} more", count - 5));
    }
    Err(format!(
        "glTF cannot hold {count} track(s) or node(s) ({shown})"
    ))
}

/// What writing `doc` as glTF changes or leaves out, one line each (empty for a glTF document
/// written back unchanged).
pub(crate) fn losses(doc: &Document) -> Vec<String> {
    if let Some(src) = base(doc) {
        let broken = broken_animation_data(src);
        if src.clips == doc.clips && broken.is_empty() {
            return Vec::new();
        }
        let mut notes = plan(doc).notes;
        if !broken.is_empty() {
            notes.push(format!(
                "the file's animation data as it was: it breaks glTF's rules ({}), so the \
                 samplers are written anew",
                broken.join(", ")
            ));
        }
        if !src.skipped_channels.is_empty() {
            let shown: Vec<&str> = src
                .skipped_channels
                .iter()
                .take(3)
                .map(String::as_str)
                .collect();
            notes.push(format!(
                "{} channel(s) aimed at other properties than node TRS or weights (e.g. \
                 KHR_animation_pointer): {}{}",
                src.skipped_channels.len(),
                shown.join(", "),
                if src.skipped_channels.len() > 3 {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        return notes;
    }
    plan(doc).notes
}
