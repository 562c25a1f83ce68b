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
//!
//! Planning goes in steps, one module each: [`carry`] adapts what glTF can carry, [`nodes`]
//! sets up the nodes and resolves every track's target, [`morphs`] gives weights channels
//! their morph targets, and [`animation`] plans one animation per clip.

mod animation;
mod carry;
mod matrices;
mod morphs;
mod nodes;

use serde_json::Value;

use self::animation::plan_animation;
use self::carry::adapt_clips;
pub(crate) use self::matrices::animated_by_trs;
use self::matrices::matrix_errors;
use self::morphs::plan_morphs;
use self::nodes::{Nodes, naming_notes, resolve_targets};
use super::GltfSource;
use super::check::{self as rules, Doc};
use super::target::Property;
use crate::formats::sampler_keys::Keys;
use crate::formats::{Document, NotWritable};
use crate::model::{Clip, Severity, Track};

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
/// carried forward. Checked once per file read (every element of every sampler's accessors:
/// milliseconds on a long take), however often a conversion asks.
pub(crate) fn broken_animation_data(src: &GltfSource) -> &[String] {
    src.broken.get_or_init(|| check_animation_data(src))
}

/// [`broken_animation_data`] worked out: glTF's rules run over the file.
fn check_animation_data(src: &GltfSource) -> Vec<String> {
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
    src.holds(&doc.clips) && broken_animation_data(src).is_empty()
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
            model: doc.model.clone(),
            unread: doc.unread.clone(),
            accepted: doc.accepted.clone(),
            source: doc.source.clone(),
        }),
        None => plan_adapted(doc),
    };
    out.notes.splice(0..0, notes);
    out
}

/// Plans writing `doc`, whose clips are already adapted.
fn plan_adapted(doc: &Document) -> Plan {
    let base = base(doc);
    let mut out = Plan::default();
    let (mut nodes, mesh_node) = Nodes::of_document(doc, base);
    let targets = resolve_targets(doc, &mut nodes, mesh_node, &mut out);
    plan_morphs(doc, base, &mut nodes.list, &targets.per_clip, &mut out);
    for (clip, per_clip) in doc.clips.iter().zip(&targets.per_clip) {
        if let Some(a) = plan_animation(clip, per_clip, &nodes.list, base.is_some(), &mut out) {
            out.animations.push(a);
        }
    }
    naming_notes(&nodes.list, &targets, &mut out);
    out.nodes = nodes.list;
    if let Some(base) = base {
        let errors = matrix_errors(&out, base);
        out.errors.extend(errors);
    }
    out
}

/// `clip 'NAME' track 'NAME': why`.
fn track_note(clip: &Clip, track: &Track, why: &str) -> String {
    format!("clip '{}' track '{}': {why}", clip.name, track.name)
}

/// `Ok` when every track of `doc` can be written as glTF, else the tracks that cannot (first
/// few named), in one line.
pub(crate) fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    if base(doc).is_some_and(|src| keeps_animations(doc, src)) {
        return Ok(());
    }
    refuse(doc, &plan(doc).errors)
}

/// `Err` naming a plan's `errors` (the first few) when there are any: what
/// [`check_writable`] says of `doc`.
pub(crate) fn refuse(doc: &Document, errors: &[String]) -> Result<(), NotWritable> {
    if errors.is_empty() {
        return Ok(());
    }
    let count = errors.len();
    let mut shown = errors
        .iter()
        .take(5)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if count > 5 {
        shown.push_str(&format!("; and {} more", count - 5));
    }
    Err(NotWritable::new(
        doc.format,
        format!("glTF cannot hold {count} track(s) or node(s) ({shown})"),
    ))
}

/// What writing `doc` as glTF changes or leaves out, one line each (empty for a glTF document
/// written back unchanged).
pub(crate) fn losses(doc: &Document) -> Vec<String> {
    if let Some(src) = base(doc) {
        let broken = broken_animation_data(src);
        if src.holds(&doc.clips) && broken.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::model::TrackKind;

    #[test]
    fn a_file_s_broken_animation_data_is_found_once() {
        // One rotation key of length 2: glTF's non-unit-quaternion rule.
        let gltf = r#"{
            "asset": {"version": "2.0"},
            "nodes": [{"name": "a"}],
            "scenes": [{"nodes": [0]}],
            "buffers": [{"byteLength": 40, "uri": "data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAACAPw=="}],
            "bufferViews": [
                {"buffer": 0, "byteOffset": 0, "byteLength": 8},
                {"buffer": 0, "byteOffset": 8, "byteLength": 32}
            ],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}
            ],
            "animations": [{
                "samplers": [{"input": 0, "output": 1}],
                "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]
            }]
        }"#;
        let doc = crate::formats::read_bytes(gltf.as_bytes(), std::path::Path::new("a.gltf"))
            .expect("reads");
        let src = base(&doc).expect("a glTF source");
        let first = broken_animation_data(src);
        assert_eq!(first, ["gltf-non-unit-quaternion"]);
        // Asked again (a conversion asks four times), the same answer, not checked again.
        assert!(std::ptr::eq(first, broken_animation_data(src)));
        assert!(!keeps_animations(&doc, src));
        let notes = losses(&doc);
        assert!(
            notes.iter().any(|n| n.contains("gltf-non-unit-quaternion")),
            "{notes:?}"
        );
    }

    fn doc(tracks: Vec<Track>) -> Document {
        Document::new(Format::Gltf, vec![Clip::new("c", 1.0, tracks)])
    }

    #[test]
    fn nodes_channels_and_morph_targets() {
        let mut weights = Track::numeric(
            "face.morphTargetInfluences[smile]",
            TrackKind::Number,
            vec![0.0, 1.0],
            vec![0.0, 1.0],
        );
        weights.name = "face.morphTargetInfluences[smile]".into();
        let plan = plan(&doc(vec![
            Track::numeric(
                "Hips.position",
                TrackKind::Vector,
                vec![0.0, 1.0],
                vec![0.0; 6],
            ),
            Track::numeric(".scale", TrackKind::Vector, vec![0.0, 1.0], vec![1.0; 6]),
            weights,
            Track::numeric("a.visible", TrackKind::Number, vec![0.0], vec![1.0]),
        ]));
        let names: Vec<&str> = plan.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["Hips", "root", "face"]);
        let morph = plan.nodes[2].morph.as_ref().unwrap();
        assert_eq!(morph.names, ["smile"]);
        assert_eq!(morph.source, MorphSource::Placeholder);
        let paths: Vec<&str> = plan.animations[0].channels.iter().map(|c| c.path).collect();
        assert_eq!(paths, ["translation", "scale", "weights"]);
        assert!(plan.errors.is_empty(), "{:?}", plan.errors);
        let left_out = plan.notes.iter().filter(|n| n.contains("left out")).count();
        assert_eq!(left_out, 1, "{:?}", plan.notes);
        assert!(
            plan.notes
                .iter()
                .any(|n| n.starts_with("the root object as a target"))
        );
    }

    #[test]
    fn broken_keys_refuse_the_document() {
        let twice = |name: &str| Track::numeric(name, TrackKind::Vector, vec![0.0], vec![0.0; 3]);
        let unsorted = Track::numeric(
            "b.position",
            TrackKind::Vector,
            vec![1.0, 0.5],
            vec![0.0; 6],
        );
        let d = doc(vec![twice("a.position"), twice("a.position"), unsorted]);
        let e = check_writable(&d).unwrap_err();
        assert_eq!(e.format, Format::Gltf);
        assert!(
            e.reason
                .starts_with("glTF cannot hold 2 track(s) or node(s) ("),
            "{e}"
        );
        assert!(
            e.reason
                .contains("a second track for the translation of node 'a'"),
            "{e}"
        );
        assert!(check_writable(&doc(vec![twice("a.position")])).is_ok());
        // Checked and written in one call: the same refusal, or the same bytes.
        let opts = crate::formats::WriteOptions::default();
        assert_eq!(crate::formats::write_bytes_checked(&d, &opts), Err(e));
        let fine = doc(vec![twice("a.position")]);
        assert_eq!(
            crate::formats::write_bytes_checked(&fine, &opts),
            Ok(crate::formats::write_bytes(&fine, &opts))
        );
    }
}
