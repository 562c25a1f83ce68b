//! Reading a `.gltf` or `.glb` file into a [`Document`].
//!
//! Every animation becomes a clip (its name, or `animation_N`); every channel one track named
//! after its node ([`names`]): `translation` → `NODE.position` (vector),
//! `rotation` → `NODE.quaternion`, `scale` → `NODE.scale`, and `weights` → one number track
//! per morph target, `NODE.morphTargetInfluences[NAME]` with the name from
//! `mesh.extras.targetNames` or the target's index. `LINEAR` samplers read as linear (slerp
//! for quaternions, as in three.js and glTF), `STEP` as discrete and `CUBICSPLINE` as bezier
//! with handles that draw the same Hermite curve ([`hermite`]). Channels aimed
//! at anything but a node's TRS or weights (`KHR_animation_pointer`) are skipped and
//! remembered, so a write-back can say so.
//!
//! Buffers come from the GLB BIN chunk, `data:` URIs or files in the glTF file's folder
//! ([`uri`](super::uri)). Every index, count and byte range is checked: a bad file is a
//! [`ReadError`] with the JSON path of the culprit, never a panic.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::accessor::{Decoded, decode};
use super::schema::{GltfJson, SamplerJson, parse, target_names};
use super::{GltfSource, glb, mesh, names, skeleton};
use crate::formats::codec::{Input, Steps};
use crate::formats::document::Source;
use crate::formats::json::Located;
use crate::formats::{Document, Format, ReadError};
use crate::model::{Clip, Extras, Interpolation, Track, TrackKind};

/// Reads glTF (`input.bytes`, the contents of `input.file`, whose folder external buffers are
/// read from); progress advances channel by channel.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    read_inner(input).map_err(|f| f.in_file(input.file))
}

/// [`read`] with failures still located by JSON path only.
fn read_inner(input: &Input<'_>) -> Result<Document, Located> {
    let (bytes, file) = (input.bytes, input.file);
    let (format, json_text, bin) = if bytes.starts_with(glb::MAGIC) {
        let glb = glb::parse(bytes).map_err(|e| Located::syntax("", e))?;
        (Format::Glb, glb.json, glb.bin)
    } else {
        (Format::Gltf, bytes, None)
    };
    let parsed = parse(json_text)?;
    let json = &parsed.json;
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    input.step(0, 1)?;
    let buffers = super::buffers::load(json, bin, folder)?;
    let node_names = names::node_names(&json.nodes);
    let channels = json.animations.iter().map(|a| a.channels.len()).sum();
    let mut steps = input.steps(channels);
    let mut clips = Vec::with_capacity(json.animations.len());
    let mut skipped_channels = Vec::new();
    let raw_animations = parsed.root.get("animations").and_then(Value::as_array);
    for a in 0..json.animations.len() {
        let raw = raw_animations
            .and_then(|arr| arr.get(a))
            .and_then(Value::as_object);
        clips.push(read_animation(
            json,
            &buffers,
            &node_names,
            a,
            raw,
            &mut skipped_channels,
            &mut steps,
        )?);
    }
    let skeleton = skeleton::skeleton(json, &node_names)?;
    let mesh = mesh::morph_mesh(json, &buffers, &node_names)?;
    let source = GltfSource {
        root: parsed.root,
        buffers,
        node_names,
        clips: clips.clone(),
        skipped_channels,
    };
    Ok(Document {
        path: Some(file.to_path_buf()),
        format,
        clips,
        skeleton,
        mesh: mesh.map(Arc::new),
        source: Source::new(source),
    })
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
}

impl Channel {
    /// The channel for a target path, `None` for paths clipscope does not read.
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

/// Animation `a` as a clip.
fn read_animation(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    node_names: &[String],
    a: usize,
    raw: Option<&Map<String, Value>>,
    skipped: &mut Vec<String>,
    steps: &mut Steps,
) -> Result<Clip, Located> {
    let animation = &json.animations[a];
    let apath = format!("animations[{a}]");
    let mut tracks = Vec::new();
    for (c, channel) in animation.channels.iter().enumerate() {
        steps.next()?;
        let cpath = format!("{apath}.channels[{c}]");
        let (Some(node), Some(kind)) = (
            channel.target.node,
            Channel::from_path(&channel.target.path),
        ) else {
            skipped.push(cpath);
            continue;
        };
        let node = node as usize;
        let Some(node_name) = node_names.get(node) else {
            return Err(Located::new(
                format!("{cpath}.target.node"),
                format!(
                    "node {node} does not exist (the file has {})",
                    node_names.len()
                ),
            ));
        };
        let s = channel.sampler as usize;
        let sampler = animation.samplers.get(s).ok_or_else(|| {
            Located::new(
                format!("{cpath}.sampler"),
                format!(
                    "sampler {s} does not exist (the animation has {})",
                    animation.samplers.len()
                ),
            )
        })?;
        let spath = format!("{apath}.samplers[{s}]");
        let keys = read_sampler(json, buffers, sampler, &spath, kind, node, &cpath)?;
        tracks.extend(tracks_of(keys, kind, node_name, json, node));
    }
    let name = animation
        .name
        .clone()
        .unwrap_or_else(|| format!("animation_{a}"));
    let mut clip = Clip::new(name, -1.0, tracks);
    clip.uuid = None;
    if let Some(raw) = raw {
        if let Some(extras) = raw.get("extras") {
            clip.user_data = extras.clone();
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

/// Decodes sampler `spath` for a channel of `kind` on `node` (`cpath` names the channel).
fn read_sampler(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    sampler: &SamplerJson,
    spath: &str,
    kind: Channel,
    node: usize,
    cpath: &str,
) -> Result<Keys, Located> {
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
    let input = decode(json, buffers, sampler.input, &format!("{spath}.input"))?;
    if input.components != 1 {
        return Err(Located::new(
            format!("accessors[{}].type", sampler.input),
            format!("key times must be SCALAR, not {}", input.type_name),
        ));
    }
    let n = input.count;
    if n == 0 {
        return Err(Located::new(
            format!("accessors[{}].count", sampler.input),
            "the key times accessor has no keys",
        ));
    }
    let output = decode(json, buffers, sampler.output, &format!("{spath}.output"))?;
    let opath = format!("accessors[{}]", sampler.output);
    let want_type = match kind {
        Channel::Translation | Channel::Scale => 3,
        Channel::Rotation => 4,
        Channel::Weights => 1,
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
    let elements_per_key = match kind {
        Channel::Weights => morph_target_count(json, node, &output, n * per_key, cpath)?,
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
        let (mut a, mut v, mut b) = (
            Vec::with_capacity(n * width),
            Vec::with_capacity(n * width),
            Vec::with_capacity(n * width),
        );
        for key in values.chunks_exact(3 * width) {
            a.extend_from_slice(&key[..width]);
            v.extend_from_slice(&key[width..2 * width]);
            b.extend_from_slice(&key[2 * width..]);
        }
        (v, Some((a, b)))
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
    }
}
