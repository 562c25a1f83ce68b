//! Reading a `.gltf` or `.glb` file into a [`Document`].
//!
//! Every animation becomes a clip (its name, or `animation_N`); every channel one track named
//! after its node ([`names`](super::names)): `translation` → `NODE.position` (vector),
//! `rotation` → `NODE.quaternion`, `scale` → `NODE.scale`, and `weights` → one number track
//! per morph target, `NODE.morphTargetInfluences[NAME]` with the name from
//! `mesh.extras.targetNames` or the target's index. `LINEAR` samplers read as linear (slerp
//! for quaternions, as in three.js and glTF), `STEP` as discrete and `CUBICSPLINE` as bezier
//! with handles that draw the same Hermite curve ([`hermite`](super::hermite)). Channels aimed
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
use super::{Fail, GltfSource, glb, hermite, mesh, names, skeleton, uri};
use crate::formats::document::Source;
use crate::formats::{Document, Format, ReadError};
use crate::model::{Clip, Extras, Interpolation, Problem, Track, TrackKind};

/// Reads glTF `bytes` (the contents of `file`, whose folder external buffers are read from).
pub(crate) fn read(bytes: &[u8], file: &Path) -> Result<Document, ReadError> {
    read_inner(bytes, file).map_err(|f| ReadError::new(file, f.path, f.reason))
}

/// The lenient read behind `validate`: the strict read, the model's validation of every clip,
/// then the raw-file rules of [`lint`](super::lint).
pub(crate) fn lint(bytes: &[u8], file: &Path) -> Result<(Document, Vec<Problem>), ReadError> {
    let doc = read(bytes, file)?;
    let mut problems: Vec<Problem> = doc
        .clips
        .iter()
        .enumerate()
        .flat_map(|(c, clip)| clip.validate().into_iter().map(move |p| p.in_clip(c)))
        .collect();
    problems.extend(super::lint::lint(bytes, file));
    Ok((doc, problems))
}

/// [`read`] with failures still located by JSON path only.
fn read_inner(bytes: &[u8], file: &Path) -> Result<Document, Fail> {
    let (format, json_text, bin) = if bytes.starts_with(glb::MAGIC) {
        let glb = glb::parse(bytes).map_err(|e| Fail::new("", e))?;
        (Format::Glb, glb.json, glb.bin)
    } else {
        (Format::Gltf, bytes, None)
    };
    let parsed = parse(json_text).map_err(|(path, reason)| Fail::new(path, reason))?;
    let json = &parsed.json;
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let buffers = load_buffers(json, bin, folder)?;
    let node_names = names::node_names(&json.nodes);
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
        source: Source::Gltf(Arc::new(source)),
    })
}

/// The bytes of every buffer, truncated to its `byteLength`.
pub(crate) fn load_buffers(
    json: &GltfJson,
    bin: Option<&[u8]>,
    folder: &Path,
) -> Result<Vec<Vec<u8>>, Fail> {
    let mut out = Vec::with_capacity(json.buffers.len());
    for (i, buffer) in json.buffers.iter().enumerate() {
        let path = format!("buffers[{i}]");
        let mut data = match (&buffer.uri, bin) {
            (Some(u), _) => {
                uri::read(u, folder).map_err(|e| Fail::new(format!("{path}.uri"), e))?
            }
            (None, Some(bin)) if i == 0 => bin.to_vec(),
            (None, None) if i == 0 => {
                return Err(Fail::new(
                    format!("{path}.uri"),
                    "the buffer has no uri and there is no GLB BIN chunk to take its bytes from",
                ));
            }
            (None, _) => {
                return Err(Fail::new(
                    format!("{path}.uri"),
                    "the buffer has no uri (only the first buffer of a GLB file uses the BIN chunk)",
                ));
            }
        };
        let length = buffer.byte_length.0;
        if (data.len() as u64) < length {
            return Err(Fail::new(
                format!("{path}.byteLength"),
                format!(
                    "byteLength is {length} but the data has {} bytes",
                    data.len()
                ),
            ));
        }
        data.truncate(length as usize);
        out.push(data);
    }
    Ok(out)
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
) -> Result<Clip, Fail> {
    let animation = &json.animations[a];
    let apath = format!("animations[{a}]");
    let mut tracks = Vec::new();
    for (c, channel) in animation.channels.iter().enumerate() {
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
            return Err(Fail::new(
                format!("{cpath}.target.node"),
                format!(
                    "node {node} does not exist (the file has {})",
                    node_names.len()
                ),
            ));
        };
        let s = channel.sampler as usize;
        let sampler = animation.samplers.get(s).ok_or_else(|| {
            Fail::new(
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
) -> Result<Keys, Fail> {
    let (interpolation, per_key) = match sampler.interpolation.as_deref() {
        None | Some("LINEAR") => (Interpolation::Linear, 1),
        Some("STEP") => (Interpolation::Discrete, 1),
        Some("CUBICSPLINE") => (Interpolation::Bezier, 3),
        Some(other) => {
            return Err(Fail::new(
                format!("{spath}.interpolation"),
                format!("unknown interpolation {other:?} (expected LINEAR, STEP or CUBICSPLINE)"),
            ));
        }
    };
    let input = decode(json, buffers, sampler.input, &format!("{spath}.input"))?;
    if input.components != 1 {
        return Err(Fail::new(
            format!("accessors[{}].type", sampler.input),
            format!("key times must be SCALAR, not {}", input.type_name),
        ));
    }
    let n = input.count;
    if n == 0 {
        return Err(Fail::new(
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
        return Err(Fail::new(
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
        return Err(Fail::new(
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
) -> Result<usize, Fail> {
    if let Some(m) = json.nodes[node].mesh {
        let m = m.value();
        let mesh = json.meshes.get(m).ok_or_else(|| {
            Fail::new(
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
            return Err(Fail::new(
                format!("{cpath}.target.node"),
                format!("a weights channel on node {node}, whose mesh {m} has no morph targets"),
            ));
        }
        return Ok(targets);
    }
    if keys == 0 || output.count == 0 || !output.count.is_multiple_of(keys) {
        return Err(Fail::new(
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
            track.tangents = Some(hermite::to_tangents(
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
