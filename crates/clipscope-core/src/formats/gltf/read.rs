//! Reading a `.gltf` or `.glb` file into a [`Document`].
//!
//! Every animation becomes a clip (its name, or `animation_N`); every channel one track named
//! after its node ([`names`]): `translation` → `NODE.position` (vector),
//! `rotation` → `NODE.quaternion`, `scale` → `NODE.scale`, and `weights` → one number track
//! per morph target, `NODE.morphTargetInfluences[NAME]` with the name from
//! `mesh.extras.targetNames` or the target's index. `LINEAR` samplers read as linear (slerp
//! for quaternions, as in three.js and glTF), `STEP` as discrete and `CUBICSPLINE` as bezier
//! with handles that draw the same Hermite curve ([`hermite`](crate::model::hermite)).
//!
//! `KHR_animation_pointer` channels ([`pointer`]) whose pointer names a node's
//! translation, rotation, scale or weights read as those ordinary tracks; any other pointer
//! (a material's colour, a camera's field of view, a light's intensity) gives a track named by
//! the pointer itself (`/materials/0/pbrMetallicRoughness/baseColorFactor`), a number track for
//! a `SCALAR` output and a vector track otherwise. Channels clipscope cannot read (a path glTF
//! does not define, no node and no pointer) are listed in the document's
//! [`unread`](Document::unread) and remembered, so a write-back can say so.
//!
//! Buffers come from the GLB BIN chunk, `data:` URIs or files in the glTF file's folder
//! ([`uri`](super::uri)). Every index, count and byte range is checked: a bad file is a
//! [`ReadError`] with the JSON path of the culprit, never a panic. The lenient read behind
//! `validate` ([`Mode::Lenient`]) leaves out the channels and skins the glTF checks
//! ([`check`](super::check)) found broken and reads the rest.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::{Map, Value};

use super::accessor::{Decoded, decode};
use super::check::Checked;
use super::glb::split_input;
use super::read_clips::ReadClips;
use super::schema::{GltfJson, Parsed, SamplerJson, parse, target_names};
use super::{GltfSource, mesh, names, pointer, skeleton};
use crate::formats::codec::{Input, Steps};
use crate::formats::document::{Source, Unread};
use crate::formats::json::Located;
use crate::formats::{Document, Format, LoadProgress, ReadError, ReadOptions};
use crate::model::{Clip, Extras, Interpolation, Track, TrackKind};

/// Strict (the first problem stops the read) or lenient (for `validate`).
#[derive(Clone, Copy)]
pub(crate) enum Mode<'c> {
    /// Every problem is an error.
    Strict,
    /// Channels and skins the checks found broken are left out; a mesh that cannot be read
    /// is left out.
    Lenient(&'c Checked),
}

/// A document as read, with the tracks whose keys the file does not store.
pub(crate) struct Built {
    /// The document.
    pub doc: Document,
    /// Tracks `(clip, track)` read from accessors without data (zeros by definition).
    pub unstored: Vec<(usize, usize)>,
}

/// Reads glTF (`input.bytes`, the contents of `input.file`, whose folder external buffers are
/// read from); progress advances channel by channel.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    let strict = || -> Result<Document, Located> {
        let (format, text, bin) = split_input(input)?;
        let mut parsed = parse(text)?;
        input.step(0, 1)?;
        let mut buffers =
            super::buffers::load(&parsed.json, &parsed.root, bin, folder(input.file))?;
        super::pack::decompress::decompress(&mut parsed.root, &mut buffers)?;
        Ok(build(input, format, parsed, buffers, Mode::Strict)?.doc)
    };
    strict().map_err(|f| f.in_file(input.file))
}

/// The folder external buffers of `file` are read from.
pub(crate) fn folder(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The document of a parsed glTF file whose buffers are `buffers`.
pub(crate) fn build(
    input: &Input<'_>,
    format: Format,
    parsed: Parsed,
    buffers: Vec<Vec<u8>>,
    mode: Mode<'_>,
) -> Result<Built, Located> {
    let Parsed { json: typed, root } = parsed;
    let json = &typed;
    let node_names = names::node_names(&json.nodes);
    let mut found = Found::default();
    let clips = read_clips(
        input,
        (json, &root, &buffers, &node_names),
        mode,
        &mut found,
    )?;
    let (skeleton, mesh) = match mode {
        Mode::Strict => (
            skeleton::skeleton(json, &node_names, &HashSet::new())?,
            mesh::morph_mesh(json, &buffers, &node_names)?,
        ),
        Mode::Lenient(checked) => (
            skeleton::skeleton(json, &node_names, &checked.broken_skins)?,
            mesh::morph_mesh(json, &buffers, &node_names).unwrap_or(None),
        ),
    };
    let model = super::model::model(
        json,
        &node_names,
        &super::model::Sources {
            root: &root,
            buffers: &buffers,
            folder: folder(input.file),
        },
    );
    let source = GltfSource {
        root,
        json: typed,
        buffers,
        node_names,
        clips: match mode {
            Mode::Strict => ReadClips::later(&clips),
            // The lenient read's checks are not kept to repeat: the clips are copied.
            Mode::Lenient(_) => ReadClips::copied(copy_clips(&clips)),
        },
        skipped_channels: found.skipped,
        broken: Default::default(),
    };
    Ok(Built {
        doc: Document {
            path: Some(input.file.to_path_buf()),
            format,
            clips,
            skeleton,
            mesh: mesh.map(Arc::new),
            model: model.map(Arc::new),
            unread: found.unread,
            accepted: Vec::new(),
            source: Source::new(source),
        },
        unstored: found.unstored,
    })
}

/// The parts of a glTF file its clips are read from: the typed JSON, the JSON as written, the
/// buffers' bytes and every node's track name.
type ClipSources<'a> = (
    &'a GltfJson,
    &'a Map<String, Value>,
    &'a [Vec<u8>],
    &'a [String],
);

/// Every animation of the file as a clip, in order; progress advances channel by channel.
fn read_clips(
    input: &Input<'_>,
    (json, root, buffers, node_names): ClipSources<'_>,
    mode: Mode<'_>,
    found: &mut Found,
) -> Result<Vec<Clip>, Located> {
    let channels = json.animations.iter().map(|a| a.channels.len()).sum();
    let mut steps = input.steps(channels);
    let mut clips = Vec::with_capacity(json.animations.len());
    let raw_animations = root.get("animations").and_then(Value::as_array);
    for a in 0..json.animations.len() {
        let raw = raw_animations
            .and_then(|arr| arr.get(a))
            .and_then(Value::as_object);
        let ctx = AnimationCtx {
            json,
            buffers,
            node_names,
            a,
            raw,
            mode,
        };
        clips.push(ctx.read(found, &mut steps)?);
    }
    Ok(clips)
}

/// The clips a strict read of `src`'s file made, decoded again from what the source keeps
/// (see [`ReadClips`]); empty if they no longer decode, which no document then equals.
pub(crate) fn decode_clips(src: &GltfSource) -> Vec<Clip> {
    let (options, progress) = (ReadOptions::default(), LoadProgress::new());
    let input = Input {
        bytes: &[],
        file: Path::new(""),
        options: &options,
        progress: &progress,
        detached_bin: None,
    };
    let sources = (&src.json, &src.root, &src.buffers[..], &src.node_names[..]);
    read_clips(&input, sources, Mode::Strict, &mut Found::default()).unwrap_or_default()
}

/// A copy of `clips` for the source to compare against, each clip's tracks copied on the
/// worker threads: a long take's keys are megabytes, and copying them was a quarter of its read.
fn copy_clips(clips: &[Clip]) -> Vec<Clip> {
    clips
        .iter()
        .map(|c| c.with_tracks(c.tracks.par_iter().cloned().collect()))
        .collect()
}

/// What a channel animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Channel {
    /// `translation`: `NODE.position`.
    Translation,
    /// `rotation`: `NODE.quaternion`.
    Rotation,
    /// `scale`: `NODE.scale`.
    Scale,
    /// `weights`: the morph target influences.
    Weights,
    /// Anything else a `KHR_animation_pointer` pointer names: a track named by the pointer.
    Pointer,
}

impl Channel {
    /// The channel for a node target path, `None` for paths clipscope does not read.
    fn from_path(path: &str) -> Option<Channel> {
        Some(match path {
            "translation" => Channel::Translation,
            "rotation" => Channel::Rotation,
            "scale" => Channel::Scale,
            "weights" => Channel::Weights,
            _ => return None,
        })
    }
}

/// What a channel animates: its node (none for a pointer track), its kind and, for a pointer
/// track, its pointer.
type Aim = (Option<usize>, Channel, Option<String>);

/// Why clipscope does not read a channel glTF allows (the channel is listed as not read).
#[derive(Debug, Clone, PartialEq, Eq)]
enum NotRead {
    /// A `pointer` channel without a `KHR_animation_pointer` pointer.
    NoPointer,
    /// A channel aimed at a path glTF does not define: the path.
    UndefinedPath(String),
    /// A node transform or weights channel without a node: its path.
    NoNode(String),
}

impl fmt::Display for NotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRead::NoPointer => write!(
                f,
                "a channel with path \"pointer\" but no {} pointer",
                pointer::EXTENSION
            ),
            NotRead::UndefinedPath(path) => write!(
                f,
                "a channel aimed at path {path:?}, which glTF does not define"
            ),
            NotRead::NoNode(path) => {
                write!(
                    f,
                    "a {path} channel without a target node (glTF ignores it)"
                )
            }
        }
    }
}

impl std::error::Error for NotRead {}

/// What reading the channels found besides tracks.
#[derive(Default)]
struct Found {
    /// Channels not read, as JSON paths.
    skipped: Vec<String>,
    /// Keyframe data not read, for the document.
    unread: Vec<Unread>,
    /// Tracks read from accessors without data.
    unstored: Vec<(usize, usize)>,
}

/// One animation being read.
struct AnimationCtx<'a> {
    /// The typed file.
    json: &'a GltfJson,
    /// The buffers' bytes.
    buffers: &'a [Vec<u8>],
    /// Every node's track name.
    node_names: &'a [String],
    /// The animation's index.
    a: usize,
    /// The animation as written (extras, extensions, channel targets).
    raw: Option<&'a Map<String, Value>>,
    /// Strict or lenient.
    mode: Mode<'a>,
}

impl AnimationCtx<'_> {
    /// The raw target object of channel `c`.
    fn raw_target(&self, c: usize) -> Option<&Map<String, Value>> {
        self.raw?
            .get("channels")?
            .as_array()?
            .get(c)?
            .get("target")?
            .as_object()
    }

    /// What channel `c` animates: its node (none for pointer tracks), its kind and, for a
    /// pointer track, its pointer; `Err` with why when clipscope does not read it.
    fn what(&self, c: usize, cpath: &str) -> Result<Result<Aim, NotRead>, Located> {
        let channel = &self.json.animations[self.a].channels[c];
        let Some(path) = channel.path() else {
            return Err(match channel.target {
                None => Located::new(cpath, "missing field `target`"),
                Some(_) => Located::new(format!("{cpath}.target"), "missing field `path`"),
            });
        };
        if pointer::is_pointer_path(path) {
            let Some(Some(p)) = self.raw_target(c).and_then(pointer::of_target) else {
                return Ok(Err(NotRead::NoPointer));
            };
            if !pointer::is_valid(p) {
                return Err(Located::new(
                    format!("{cpath}.target.extensions.{}.pointer", pointer::EXTENSION),
                    format!("{p:?} is not a JSON pointer"),
                ));
            }
            return Ok(Ok(match pointer::node_target(p) {
                Some((node, path)) => (
                    Some(node),
                    Channel::from_path(path).unwrap_or(Channel::Pointer),
                    None,
                ),
                None => (None, Channel::Pointer, Some(p.to_string())),
            }));
        }
        let Some(kind) = Channel::from_path(path) else {
            return Ok(Err(NotRead::UndefinedPath(path.to_string())));
        };
        match channel.node() {
            Some(node) => Ok(Ok((Some(node as usize), kind, None))),
            None => Ok(Err(NotRead::NoNode(path.to_string()))),
        }
    }

    /// The clip of this animation. Which channels give tracks is worked out in order, their
    /// samplers are decoded on the worker threads (a long take's keys are megabytes), and the
    /// tracks are put together in order again, so the first problem in channel order is the
    /// one reported, as when read one channel after another.
    fn read(&self, found: &mut Found, steps: &mut Steps) -> Result<Clip, Located> {
        let (json, a) = (self.json, self.a);
        let animation = &json.animations[a];
        let apath = format!("animations[{a}]");
        let mut reads = Vec::with_capacity(animation.channels.len());
        // The problem that stopped the plan, reported after any in the channels before it.
        let mut stopped = None;
        for c in 0..animation.channels.len() {
            steps.next()?;
            match self.plan_channel(c, &apath, found) {
                Ok(Some(read)) => reads.push(read),
                Ok(None) => {}
                Err(e) => {
                    stopped = Some(e);
                    break;
                }
            }
        }
        let decoded: Vec<Result<Vec<Track>, Located>> = reads
            .par_iter()
            .map(|r| {
                let keys = read_sampler(
                    json,
                    self.buffers,
                    r.sampler,
                    &r.spath,
                    r.kind,
                    r.node,
                    &r.cpath,
                )?;
                Ok(match (r.node_name, &r.pointer) {
                    (Some(name), _) => tracks_of(keys, r.kind, name, json, r.node.unwrap_or(0)),
                    (None, Some(p)) => vec![pointer_track(keys, p.clone())],
                    (None, None) => Vec::new(),
                })
            })
            .collect();
        let mut tracks = Vec::new();
        for (r, read) in reads.iter().zip(decoded) {
            let before = tracks.len();
            tracks.extend(read?);
            if let Mode::Lenient(checked) = self.mode
                && [r.sampler.input, r.sampler.output]
                    .iter()
                    .flatten()
                    .any(|&i| checked.unstored.contains(&(i as usize)))
            {
                found
                    .unstored
                    .extend((before..tracks.len()).map(|t| (a, t)));
            }
        }
        if let Some(e) = stopped {
            return Err(e);
        }
        let name = animation
            .name
            .clone()
            .unwrap_or_else(|| format!("animation_{a}"));
        let mut clip = Clip::new(name, -1.0, tracks);
        clip.uuid = None;
        if let Some(raw) = self.raw {
            if let Some(extras) = raw.get("extras") {
                clip.set_user_data(extras.clone());
            }
            let kept: Vec<_> = raw
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "name" | "channels" | "samplers" | "extras"))
                .filter_map(|(k, v)| Some((k.clone(), serde_json::value::to_raw_value(v).ok()?)))
                .collect();
            clip.extras = Extras(kept);
        }
        Ok(clip)
    }

    /// What channel `c` reads, or `None` when it gives no track (listed in `found` as skipped
    /// or not read).
    fn plan_channel<'s>(
        &'s self,
        c: usize,
        apath: &str,
        found: &mut Found,
    ) -> Result<Option<ChannelRead<'s>>, Located> {
        let (json, a) = (self.json, self.a);
        let animation = &json.animations[a];
        let channel = &animation.channels[c];
        let cpath = format!("{apath}.channels[{c}]");
        if let Mode::Lenient(checked) = self.mode
            && checked.skip_channels.contains(&(a, c))
        {
            // Broken: reported by the checks, whose message says what is wrong. A channel
            // glTF says to ignore (no node, no pointer) is listed as not read.
            let ignored =
                channel.node().is_none() && channel.path().and_then(Channel::from_path).is_some();
            if ignored && let Ok(Err(phrase)) = self.what(c, &cpath) {
                found
                    .unread
                    .push(Unread::new(cpath.clone(), phrase.to_string()).in_clip(a));
            }
            found.skipped.push(cpath);
            return Ok(None);
        }
        let (node, kind, pointer) = match self.what(c, &cpath)? {
            Ok(what) => what,
            Err(phrase) => {
                found
                    .unread
                    .push(Unread::new(cpath.clone(), phrase.to_string()).in_clip(a));
                found.skipped.push(cpath);
                return Ok(None);
            }
        };
        let node_name = match node {
            Some(node) => Some(self.node_names.get(node).ok_or_else(|| {
                Located::new(
                    format!("{cpath}.target.node"),
                    format!(
                        "node {node} does not exist (the file has {})",
                        self.node_names.len()
                    ),
                )
            })?),
            None => None,
        };
        let Some(s) = channel.sampler else {
            return Err(Located::new(cpath, "missing field `sampler`"));
        };
        let s = s as usize;
        let sampler = animation.samplers.get(s).ok_or_else(|| {
            Located::new(
                format!("{cpath}.sampler"),
                format!(
                    "sampler {s} does not exist (the animation has {})",
                    animation.samplers.len()
                ),
            )
        })?;
        Ok(Some(ChannelRead {
            node,
            node_name: node_name.map(String::as_str),
            kind,
            pointer,
            sampler,
            spath: format!("{apath}.samplers[{s}]"),
            cpath,
        }))
    }
}

/// A channel that gives tracks, as [`AnimationCtx::read`] plans it before decoding.
struct ChannelRead<'a> {
    /// The node it animates (none for a pointer track).
    node: Option<usize>,
    /// That node's track name.
    node_name: Option<&'a str>,
    /// What it animates.
    kind: Channel,
    /// A pointer track's pointer.
    pointer: Option<String>,
    /// Its sampler.
    sampler: &'a SamplerJson,
    /// The sampler's JSON path.
    spath: String,
    /// The channel's JSON path.
    cpath: String,
}

/// The track of a pointer channel: named by the pointer, a number track for one value per key
/// and a vector track otherwise.
fn pointer_track(keys: Keys, pointer: String) -> Track {
    let Keys {
        times,
        width,
        values,
        tangents,
        interpolation,
    } = keys;
    let kind = if width == 1 {
        TrackKind::Number
    } else {
        TrackKind::Vector
    };
    let mut track = Track::numeric(pointer, kind, times, values);
    track.interpolation = interpolation;
    if let Some((a, b)) = tangents {
        track.tangents = Some(crate::model::Tangents::from_hermite(
            &track.times,
            track.values.as_numbers().unwrap_or_default(),
            &a,
            &b,
            width,
        ));
    }
    track
}

/// A sampler's keys, decoded and split.
struct Keys {
    /// Key times.
    times: Vec<f32>,
    /// Values per key (3, 4, or the number of morph targets).
    width: usize,
    /// `times × width` values.
    values: Vec<f32>,
    /// CUBICSPLINE in- and out-tangents (`times × width` each).
    tangents: Option<(Vec<f32>, Vec<f32>)>,
    /// The model interpolation.
    interpolation: Interpolation,
}

/// Decodes sampler `spath` for a channel of `kind` on `node` (none for a pointer track; `cpath`
/// names the channel).
fn read_sampler(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    sampler: &SamplerJson,
    spath: &str,
    kind: Channel,
    node: Option<usize>,
    cpath: &str,
) -> Result<Keys, Located> {
    let required = |index: Option<u32>, name: &str| {
        index.ok_or_else(|| Located::new(spath, format!("missing field `{name}`")))
    };
    let (input_index, output_index) = (
        required(sampler.input, "input")?,
        required(sampler.output, "output")?,
    );
    let (interpolation, per_key) = match sampler.interpolation.as_deref() {
        None | Some("LINEAR") => (Interpolation::Linear, 1),
        Some("STEP") => (Interpolation::Discrete, 1),
        Some("CUBICSPLINE") => (Interpolation::Bezier, 3),
        Some(other) => {
            return Err(Located::new(
                format!("{spath}.interpolation"),
                format!("unknown interpolation {other:?} (expected LINEAR, STEP or CUBICSPLINE)"),
            ));
        }
    };
    let input = decode(json, buffers, input_index, &format!("{spath}.input"))?;
    if input.components != 1 {
        return Err(Located::new(
            format!("accessors[{input_index}].type"),
            format!("key times must be SCALAR, not {}", input.type_name),
        ));
    }
    let n = input.count;
    if n == 0 {
        return Err(Located::new(
            format!("accessors[{input_index}].count"),
            "the key times accessor has no keys",
        ));
    }
    let output = decode(json, buffers, output_index, &format!("{spath}.output"))?;
    let opath = format!("accessors[{output_index}]");
    let want_type = match kind {
        Channel::Translation | Channel::Scale => 3,
        Channel::Rotation => 4,
        Channel::Weights => 1,
        Channel::Pointer => output.components,
    };
    if output.components != want_type {
        let want = ["", "SCALAR", "", "VEC3", "VEC4"][want_type];
        return Err(Located::new(
            format!("{opath}.type"),
            format!(
                "{} output must be {want}, not {}",
                path_name(kind),
                output.type_name
            ),
        ));
    }
    let elements_per_key = match (kind, node) {
        (Channel::Weights, Some(node)) => {
            morph_target_count(json, node, &output, n * per_key, cpath)?
        }
        _ => 1,
    };
    let expected = n * per_key * elements_per_key;
    if output.count != expected {
        let shape = if per_key == 3 { "3 × " } else { "" };
        let targets = if kind == Channel::Weights {
            format!(" × {elements_per_key} morph targets")
        } else {
            String::new()
        };
        return Err(Located::new(
            format!("{spath}.output"),
            format!(
                "the output has {} elements, expected {shape}{n} keys{targets} = {expected}",
                output.count
            ),
        ));
    }
    let width = want_type * elements_per_key;
    let Decoded { values, .. } = output;
    let (values, tangents) = if per_key == 3 {
        let (v, tangents) = crate::formats::keys::Keys::split_cubic(&values, width);
        (v, Some(tangents))
    } else {
        (values, None)
    };
    Ok(Keys {
        times: input.values,
        width,
        values,
        tangents,
        interpolation,
    })
}

/// The glTF name of a channel path, for messages.
fn path_name(kind: Channel) -> &'static str {
    match kind {
        Channel::Translation => "a translation",
        Channel::Rotation => "a rotation",
        Channel::Scale => "a scale",
        Channel::Weights => "a weights",
        Channel::Pointer => "a pointer",
    }
}

/// The number of morph targets a `weights` channel on `node` animates: the targets of the
/// node's mesh, or (for a node without one) what the output count implies.
fn morph_target_count(
    json: &GltfJson,
    node: usize,
    output: &Decoded,
    keys: usize,
    cpath: &str,
) -> Result<usize, Located> {
    if let Some(m) = json.nodes[node].mesh {
        let m = m.value();
        let mesh = json.meshes.get(m).ok_or_else(|| {
            Located::new(
                format!("nodes[{node}].mesh"),
                format!(
                    "mesh {m} does not exist (the file has {})",
                    json.meshes.len()
                ),
            )
        })?;
        let targets = mesh
            .primitives
            .iter()
            .map(|p| p.targets.as_ref().map_or(0, Vec::len))
            .max()
            .unwrap_or(0);
        if targets == 0 {
            return Err(Located::new(
                format!("{cpath}.target.node"),
                format!("a weights channel on node {node}, whose mesh {m} has no morph targets"),
            ));
        }
        return Ok(targets);
    }
    if keys == 0 || output.count == 0 || !output.count.is_multiple_of(keys) {
        return Err(Located::new(
            format!("{cpath}.target.node"),
            format!(
                "a weights channel on node {node}, which has no mesh, with {} outputs for {keys} keys",
                output.count
            ),
        ));
    }
    Ok(output.count / keys)
}

/// The tracks one channel gives.
fn tracks_of(
    keys: Keys,
    kind: Channel,
    node_name: &str,
    json: &GltfJson,
    node: usize,
) -> Vec<Track> {
    let Keys {
        times,
        width,
        values,
        tangents,
        interpolation,
    } = keys;
    let make = |name: String,
                track_kind: TrackKind,
                values: Vec<f32>,
                tangents: Option<(Vec<f32>, Vec<f32>)>,
                size: usize| {
        let mut track = Track::numeric(name, track_kind, times.clone(), values);
        track.interpolation = interpolation;
        if let Some((a, b)) = tangents {
            track.tangents = Some(crate::model::Tangents::from_hermite(
                &times,
                track.values.as_numbers().unwrap_or_default(),
                &a,
                &b,
                size,
            ));
        }
        track
    };
    match kind {
        Channel::Translation => vec![make(
            format!("{node_name}.position"),
            TrackKind::Vector,
            values,
            tangents,
            3,
        )],
        Channel::Rotation => vec![make(
            format!("{node_name}.quaternion"),
            TrackKind::Quaternion,
            values,
            tangents,
            4,
        )],
        Channel::Scale => vec![make(
            format!("{node_name}.scale"),
            TrackKind::Vector,
            values,
            tangents,
            3,
        )],
        Channel::Weights => {
            let names = json.nodes[node]
                .mesh
                .and_then(|m| json.meshes.get(m.value()))
                .and_then(target_names)
                .filter(|n| n.len() == width && n.iter().all(|s| !s.is_empty()));
            (0..width)
                .map(|j| {
                    let column = |v: &[f32]| {
                        v.iter()
                            .skip(j)
                            .step_by(width)
                            .copied()
                            .collect::<Vec<f32>>()
                    };
                    let label = names
                        .as_ref()
                        .map_or_else(|| j.to_string(), |n| n[j].clone());
                    make(
                        format!("{node_name}.morphTargetInfluences[{label}]"),
                        TrackKind::Number,
                        column(&values),
                        tangents.as_ref().map(|(a, b)| (column(a), column(b))),
                        1,
                    )
                })
                .collect()
        }
        // A pointer to something else is no node property (see `pointer_track`).
        Channel::Pointer => Vec::new(),
    }
}
