//! Writing a clip as an anim clip: `{"name", "duration", "inputs", "outputs", "curves"}`.
//!
//! A document read from an anim clip and not edited is written back as the file's own bytes.
//! Otherwise each track becomes a curve: a track read from the file keeps its `path` (and a
//! `localEulerAngles` curve is written in Euler degrees again, with the engine's inverse); a
//! `NODE.position`, `NODE.quaternion` or `NODE.scale` track (or `.bones[NODE].…`) goes to
//! `{"entityPath": ["RootNode", …, NODE], "component": "graph", "propertyPath":
//! ["localPosition"]}` (or `localRotation`, `localScale`), the object form engine 2.x binds (its
//! binder cannot read the 1.x string form), the names between being the node's ancestors in the
//! document's skeleton; a track named by a path (`Spot/light/color`) goes to that path. Keys
//! become samplers as for glTF (step, linear, or cubic with Hermite tangents when the bezier
//! handles sit at the thirds, else Hermite keys fitted to the curve; quaternions normalized),
//! curves with the same key times share one input, and the other top-level fields of the file
//! read (events, say) are kept in their place.
//!
//! The engine plays keys its own way (see [`fidelity`](crate::formats::fidelity)): a linear
//! curve interpolates each component and the binder normalizes rotations, and a
//! `localEulerAngles` curve interpolates Euler degrees. So rotations are written for that
//! player: quaternion keys on the side of the key before (else the engine turns the long way
//! round), Euler keys as the equivalent angles nearest the key before, and keys added wherever
//! the engine's playback would stray from the source's slerp by more than the tolerance
//! ([`WriteOptions::tolerance`](crate::formats::WriteOptions::tolerance)).

use std::collections::HashMap;

use serde_json::Value;

use super::AnimClipSource;
use super::path::{Locator, Transform};
use crate::formats::euler::euler_for_f32_quaternion;
use crate::formats::fidelity::fit::{
    Channel, Encode, euler_continuous, fit_one, hemisphere_continuous,
};
use crate::formats::fidelity::{Curve, Played, Player, Quantity, Tolerance};
use crate::formats::json::number::{rounded_f32, write_f64};
use crate::formats::json::{Out, write_str};
use crate::formats::sampler_keys::{Keys, Sampling, convert_with};
use crate::formats::{Document, NotWritable, WriteOptions};
use crate::model::binding::parse_track_name;
use crate::model::{BlendMode, Clip, Skeleton, Track, TrackKind};

/// The fields of the clip object the writer fills.
const FIELDS: [&str; 5] = ["name", "duration", "inputs", "outputs", "curves"];

/// The first name of the entity paths of fresh curves: the node the engine's FBX import makes
/// above a model's hierarchy. The binder finds the rest of the path below the anim component's
/// entity, or the node by name anywhere under it.
const ROOT: &str = "RootNode";

/// One curve to write.
struct PlannedCurve {
    /// The source track's index in its clip.
    track: usize,
    /// Its `path`, as written.
    path: Value,
    /// The keys (Euler degrees for a `localEulerAngles` curve).
    keys: Keys,
    /// How the engine plays them.
    player: Player,
    /// Keys added so the engine plays the source.
    added: usize,
}

/// What writing a clip gives: its curves, and what changes or is left out.
#[derive(Default)]
struct Plan {
    /// The curves, in track order.
    curves: Vec<PlannedCurve>,
    /// Human-readable notes (for `convert`).
    notes: Vec<String>,
}

/// The names from the top of `skeleton`'s hierarchy down to bone `node` (just `[node]` when the
/// skeleton has no such bone).
fn chain(node: &str, skeleton: Option<&Skeleton>) -> Vec<String> {
    let Some(skeleton) = skeleton else {
        return vec![node.to_string()];
    };
    let Some(mut i) = skeleton.bones.iter().position(|b| b.name == node) else {
        return vec![node.to_string()];
    };
    let mut names = vec![node.to_string()];
    let mut hops = 0;
    while let Some(p) = skeleton.bones[i].parent {
        if p >= skeleton.bones.len() || hops > skeleton.bones.len() {
            break;
        }
        names.push(skeleton.bones[p].name.clone());
        i = p;
        hops += 1;
    }
    names.reverse();
    names
}

/// Where `track` goes: its path and whether it is written in Euler degrees; `None` when no anim
/// curve path names what it animates.
fn destination(
    track: &Track,
    src: Option<&AnimClipSource>,
    skeleton: Option<&Skeleton>,
) -> Option<(Value, bool)> {
    if let Some(origin) = src.and_then(|s| s.origins.get(&track.name)) {
        return Some((origin.path.clone(), origin.euler));
    }
    if track.name.contains('/')
        && let Ok(l) = Locator::parse(&Value::String(track.name.clone()))
    {
        return Some((object_path(&l), false));
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
    let mut entity = chain(&node, skeleton);
    if entity.first().is_none_or(|n| n != ROOT) {
        entity.insert(0, ROOT.to_string());
    }
    let locator = Locator {
        entity,
        component: "graph".into(),
        property: vec![t.property().into()],
    };
    Some((object_path(&locator), false))
}

/// The object form of a curve path (`{"entityPath", "component", "propertyPath"}`).
fn object_path(l: &Locator) -> Value {
    serde_json::json!({
        "entityPath": l.entity,
        "component": l.component,
        "propertyPath": l.property,
    })
}

/// `clip '…' track '…': why`.
fn note(clip: &Clip, track: &Track, why: &str) -> String {
    format!("clip '{}' track '{}': {why}", clip.name, track.name)
}

/// Plans writing `clip` (of a document read from `src`, if any, with `skeleton`). With a
/// `tolerance`, rotations are written for the engine's player (see the module docs); without
/// one the keys are written as the clip holds them (what an unedited file has).
fn plan(
    clip: &Clip,
    src: Option<&AnimClipSource>,
    skeleton: Option<&Skeleton>,
    tolerance: Option<&Tolerance>,
) -> Plan {
    let mut out = Plan::default();
    for (index, track) in clip.tracks.iter().enumerate() {
        let Some((path, euler)) = destination(track, src, skeleton) else {
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
        let rotation = track.kind == TrackKind::Quaternion;
        let player = if euler {
            Player::PlayCanvasEuler
        } else {
            Player::PlayCanvasAnim
        };
        let fit = tolerance.map(|t| (t, player));
        let (mut keys, notes) = convert_with(track, rotation, fit);
        out.notes.extend(notes.iter().map(|n| note(clip, track, n)));
        let mut added = keys.times.len().saturating_sub(track.len());
        if euler {
            if keys.sampling == Sampling::CubicSpline {
                // Euler curves are written linear: the keys, then what the fit adds.
                keys = Keys {
                    sampling: Sampling::Linear,
                    values: keys.values.clone(),
                    times: keys.times.clone(),
                    tangents: None,
                    width: 4,
                };
                out.notes.push(note(
                    clip,
                    track,
                    "its curve (localEulerAngles are written linear, with keys added where the \
                     engine strays from it)",
                ));
            }
            keys.values = keys
                .values
                .chunks_exact(4)
                .flat_map(|q| euler_for_f32_quaternion([q[0], q[1], q[2], q[3]]).map(|e| e as f32))
                .collect();
            keys.width = 3;
            if tolerance.is_some() {
                euler_continuous(&mut keys.values);
            }
        } else if rotation && tolerance.is_some() && keys.sampling == Sampling::Linear {
            hemisphere_continuous(&mut keys.values);
        }
        if let Some(tolerance) = tolerance
            && (euler || (rotation && keys.sampling == Sampling::Linear))
        {
            let (fitted, more) = fit_one(
                Channel {
                    source: track,
                    quantity: Quantity::Rotation,
                    player,
                    encode: if euler {
                        Encode::Euler
                    } else {
                        Encode::Hemisphere
                    },
                    keys,
                },
                tolerance,
            );
            keys = fitted;
            added += more;
        }
        out.curves.push(PlannedCurve {
            track: index,
            path,
            keys,
            player,
            added,
        });
    }
    if clip.blend_mode == BlendMode::Additive {
        out.notes.push(format!(
            "clip '{}': additive blending (an anim clip has no blend mode; the state graph decides)",
            clip.name
        ));
    }
    out
}

/// How the engine plays each track of `doc` written with `opts`.
pub(crate) fn played(doc: &Document, opts: &WriteOptions) -> Vec<Played> {
    let src = doc.source::<AnimClipSource>();
    let Some(clip) = doc.clips.first() else {
        return Vec::new();
    };
    let unedited = src.is_some_and(|s| s.clips == doc.clips);
    let tolerance = (!unedited).then_some(&opts.tolerance);
    played_of(
        plan(clip, src, doc.skeleton.as_ref(), tolerance),
        unedited,
        opts,
    )
}

/// The file `doc` is written as with `opts` ([`write`]) and how the engine plays it
/// ([`played`]), from one plan: `convert` measures what it writes without fitting twice.
pub(crate) fn write_played(doc: &Document, opts: &WriteOptions) -> (Vec<u8>, Vec<Played>) {
    let src = doc.source::<AnimClipSource>();
    let unedited = src.is_some_and(|s| s.clips == doc.clips);
    match doc.clips.first() {
        Some(clip) if !unedited => {
            let plan = plan(clip, src, doc.skeleton.as_ref(), Some(&opts.tolerance));
            let bytes = write_plan(clip, src, &plan, opts);
            (bytes, played_of(plan, false, opts))
        }
        _ => (write(doc, opts), played(doc, opts)),
    }
}

/// How the engine plays the curves of `plan` written with `opts` (as they are, `unedited`).
fn played_of(plan: Plan, unedited: bool, opts: &WriteOptions) -> Vec<Played> {
    plan.curves
        .into_iter()
        .map(|c| {
            let mut keys = c.keys;
            if !unedited {
                round_keys(&mut keys, opts.precision);
            }
            Played {
                clip: 0,
                track: c.track,
                target: match &c.path {
                    Value::String(s) => s.clone(),
                    v => Locator::parse(v).map_or_else(|_| v.to_string(), |l| l.encode()),
                },
                curve: Curve::Keys {
                    keys,
                    player: c.player,
                },
                added: c.added,
                note: None,
            }
        })
        .collect()
}

/// `keys` as the file holds them when numbers are rounded to `precision` decimals.
fn round_keys(keys: &mut Keys, precision: Option<u32>) {
    if precision.is_none() {
        return;
    }
    let round = |v: &mut Vec<f32>| v.iter_mut().for_each(|x| *x = rounded_f32(*x, precision));
    round(&mut keys.times);
    round(&mut keys.values);
    if let Some((a, b)) = &mut keys.tangents {
        round(a);
        round(b);
    }
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
        let tolerance = Tolerance::default();
        lost.extend(plan(clip, src, doc.skeleton.as_ref(), Some(&tolerance)).notes);
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
    let plan = plan(clip, src, doc.skeleton.as_ref(), Some(&opts.tolerance));
    write_plan(clip, src, &plan, opts)
}

/// The anim clip file of `clip` (of a document read from `src`, whose other fields it keeps)
/// as `plan` writes it.
fn write_plan(
    clip: &Clip,
    src: Option<&AnimClipSource>,
    plan: &Plan,
    opts: &WriteOptions,
) -> Vec<u8> {
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
