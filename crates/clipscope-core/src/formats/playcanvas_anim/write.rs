//! Writing a clip as an anim clip: `{"name", "duration", "inputs", "outputs", "curves"}`.
//!
//! A document read from an anim clip and not edited is written back as the file's own bytes.
//! Otherwise each track becomes a curve: a track read from the file keeps its `path` (and a
//! `localEulerAngles` curve is written in Euler degrees again, with the engine's inverse); a
//! `NODE.position`, `NODE.quaternion` or `NODE.scale` track (or `.bones[NODE].…`) goes to
//! `NODE/entity/localPosition`, `localRotation` or `localScale`; a track named by a path
//! (`Spot/light/color`) goes to that path. Keys become samplers as for glTF (step, linear, or
//! cubic with Hermite tangents when the bezier handles sit at the thirds, else baked at 30 fps;
//! quaternions normalized), curves with the same key times share one input, and the other
//! top-level fields of the file read (events, say) are kept in their place.

use std::collections::HashMap;

use serde_json::Value;

use super::AnimClipSource;
use super::path::{Locator, Transform};
use crate::formats::euler::euler_for_f32_quaternion;
use crate::formats::json::number::write_f64;
use crate::formats::json::{Out, write_str};
use crate::formats::sampler_keys::{Keys, Sampling, convert};
use crate::formats::{Document, NotWritable, WriteOptions};
use crate::model::binding::parse_track_name;
use crate::model::ops::bake::{sample_numbers, span_times};
use crate::model::{BlendMode, Clip, Track};

/// The fields of the clip object the writer fills.
const FIELDS: [&str; 5] = ["name", "duration", "inputs", "outputs", "curves"];

/// One curve to write.
struct PlannedCurve {
    /// Its `path`, as written.
    path: Value,
    /// The keys (Euler degrees for a `localEulerAngles` curve).
    keys: Keys,
}

/// What writing a clip gives: its curves, and what changes or is left out.
#[derive(Default)]
struct Plan {
    /// The curves, in track order.
    curves: Vec<PlannedCurve>,
    /// Human-readable notes (for `convert`).
    notes: Vec<String>,
}

/// Where `track` goes: its path and whether it is written in Euler degrees; `None` when no anim
/// curve path names what it animates.
fn destination(track: &Track, src: Option<&AnimClipSource>) -> Option<(Value, bool)> {
    if let Some(origin) = src.and_then(|s| s.origins.get(&track.name)) {
        return Some((origin.path.clone(), origin.euler));
    }
    if track.name.contains('/')
        && let Ok(l) = Locator::parse(&Value::String(track.name.clone()))
    {
        return Some((Value::String(l.encode()), false));
    }
    let parsed = parse_track_name(&track.name).ok()?;
    if parsed.property_index.is_some() {
        return None;
    }
    let node = match (parsed.object_name.as_deref(), parsed.object_index) {
        (Some("bones"), Some(bone)) => bone,
        (Some(_), _) => return None,
        (None, _) => parsed.node_name.filter(|n| !n.is_empty())?,
    };
    let t = match parsed.property_name.as_str() {
        "position" => Transform::Position,
        "quaternion" => Transform::Rotation,
        "scale" => Transform::Scale,
        _ => return None,
    };
    Some((Value::String(Locator::transform(&node, t).encode()), false))
}

/// `clip '…' track '…': why`.
fn note(clip: &Clip, track: &Track, why: &str) -> String {
    format!("clip '{}' track '{}': {why}", clip.name, track.name)
}

/// Plans writing `clip` (of a document read from `src`, if any).
fn plan(clip: &Clip, src: Option<&AnimClipSource>) -> Plan {
    let mut out = Plan::default();
    for track in &clip.tracks {
        let Some((path, euler)) = destination(track, src) else {
            out.notes.push(note(
                clip,
                track,
                "no anim curve path names what it animates; left out",
            ));
            continue;
        };
        if track.is_empty() || track.values.as_numbers().is_none() {
            out.notes
                .push(note(clip, track, "it has no numeric keys; left out"));
            continue;
        }
        let rotation = track.kind == crate::model::TrackKind::Quaternion;
        let (mut keys, notes) = convert(track, rotation);
        out.notes.extend(notes.iter().map(|n| note(clip, track, n)));
        if euler {
            if keys.sampling == Sampling::CubicSpline {
                let times = span_times(
                    &track.times,
                    track.times[0],
                    track.times[track.times.len() - 1],
                );
                keys = Keys {
                    sampling: Sampling::Linear,
                    values: sample_numbers(&keys.as_track(track.kind), times.iter().copied()),
                    times,
                    tangents: None,
                    width: 4,
                };
                out.notes.push(note(
                    clip,
                    track,
                    "its curve (localEulerAngles are written linear, sampled at 30 fps)",
                ));
            }
            keys.values = keys
                .values
                .chunks_exact(4)
                .flat_map(|q| euler_for_f32_quaternion([q[0], q[1], q[2], q[3]]).map(|e| e as f32))
                .collect();
            keys.width = 3;
        }
        out.curves.push(PlannedCurve { path, keys });
    }
    if clip.blend_mode == BlendMode::Additive {
        out.notes.push(format!(
            "clip '{}': additive blending (an anim clip has no blend mode; the state graph decides)",
            clip.name
        ));
    }
    out
}

/// Always `Ok` but for broken keys: tracks no curve path names are left out and listed by
/// [`losses`]. Key times must be finite and sorted (the engine searches them in order).
pub(crate) fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    if let Some(src) = doc.source::<AnimClipSource>()
        && src.clips == doc.clips
    {
        return Ok(());
    }
    for clip in doc.clips.iter().take(1) {
        for track in &clip.tracks {
            if track.times.iter().any(|t| !t.is_finite())
                || track.times.windows(2).any(|w| w[1] < w[0])
            {
                return Err(NotWritable::new(
                    doc.format,
                    format!(
                        "clip '{}' track '{}': key times must be finite and sorted",
                        clip.name, track.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// What writing `doc` as an anim clip changes or leaves out, one line each.
pub(crate) fn losses(doc: &Document) -> Vec<String> {
    let src = doc.source::<AnimClipSource>();
    if src.is_some_and(|s| s.clips == doc.clips) {
        return Vec::new();
    }
    let mut lost = Vec::new();
    if doc.clips.len() > 1 {
        lost.push(format!(
            "{} clip(s) after the first: an anim clip holds one (clipscope convert writes one file per clip)",
            doc.clips.len() - 1
        ));
    }
    if let Some(clip) = doc.clips.first() {
        lost.extend(plan(clip, src).notes);
    }
    if let Some(skeleton) = &doc.skeleton {
        lost.push(format!(
            "the skeleton ({} bones; an anim clip names the nodes it moves, not their hierarchy)",
            skeleton.bones.len()
        ));
    }
    lost
}

/// `doc`'s first clip as an anim clip (the file's bytes when unedited).
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    let src = doc.source::<AnimClipSource>();
    if let Some(src) = src
        && src.clips == doc.clips
    {
        return src.bytes.clone();
    }
    let empty = Clip::new("clip", 0.0, Vec::new());
    let clip = doc.clips.first().unwrap_or(&empty);
    let plan = plan(clip, src);
    let mut inputs: Vec<&[f32]> = Vec::new();
    let mut input_of: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut curve_inputs = Vec::with_capacity(plan.curves.len());
    for c in &plan.curves {
        let key: Vec<u32> = c.keys.times.iter().map(|t| (t + 0.0).to_bits()).collect();
        let i = *input_of.entry(key).or_insert_with(|| {
            inputs.push(&c.keys.times);
            inputs.len() - 1
        });
        curve_inputs.push(i);
    }
    let duration = if clip.duration >= 0.0 {
        clip.duration
    } else {
        clip.tracks
            .iter()
            .filter_map(|t| t.times.last())
            .fold(0.0f64, |m, &t| m.max(t as f64))
    };
    let mut out = Out::new(opts, 0, 4096);
    out.open(b'{');
    let write_field = |out: &mut Out, key: &str| match key {
        "name" => {
            out.key("name");
            write_str(&mut out.buf, &clip.name);
        }
        "duration" => {
            out.key("duration");
            write_f64(&mut out.buf, duration, None);
        }
        "inputs" => {
            out.key("inputs");
            out.open(b'[');
            for times in &inputs {
                out.next();
                out.f32_array(times);
            }
            out.close(b']');
        }
        "outputs" => {
            out.key("outputs");
            out.open(b'[');
            for c in &plan.curves {
                out.next();
                out.open(b'{');
                out.key("components");
                write_f64(&mut out.buf, c.keys.width as f64, None);
                out.key("data");
                out.f32_array(&c.keys.output());
                out.close(b'}');
            }
            out.close(b']');
        }
        _ => {
            out.key("curves");
            out.open(b'[');
            for (o, (c, &input)) in plan.curves.iter().zip(&curve_inputs).enumerate() {
                out.next();
                out.open(b'{');
                out.key("path");
                out.buf.extend_from_slice(
                    serde_json::to_string(&c.path)
                        .unwrap_or_default()
                        .as_bytes(),
                );
                out.key("inputIndex");
                write_f64(&mut out.buf, input as f64, None);
                out.key("outputIndex");
                write_f64(&mut out.buf, o as f64, None);
                out.key("interpolation");
                let code = match c.keys.sampling {
                    Sampling::Step => 0.0,
                    Sampling::Linear => 1.0,
                    Sampling::CubicSpline => 2.0,
                };
                write_f64(&mut out.buf, code, None);
                out.close(b'}');
            }
            out.close(b']');
        }
    };
    let mut written = Vec::new();
    if let Some(src) = src {
        for (k, v) in &src.fields {
            if FIELDS.contains(&k.as_str()) {
                write_field(&mut out, k);
                written.push(k.as_str());
            } else {
                out.key(k);
                out.buf
                    .extend_from_slice(serde_json::to_string(v).unwrap_or_default().as_bytes());
            }
        }
    }
    for key in FIELDS {
        if !written.contains(&key) {
            write_field(&mut out, key);
        }
    }
    out.close(b'}');
    if opts.pretty {
        out.buf.push(b'\n');
    }
    out.finish().unwrap_or_default().concat()
}
