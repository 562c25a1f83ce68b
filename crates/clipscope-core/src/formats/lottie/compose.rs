//! Building a Lottie composition for a document that was not read from Lottie.
//!
//! The first clip becomes the main composition (Bodymovin `v` 5.7.4, `fr` from the clip's `fps`
//! extra or 30, `ip` 0, `op = ceil(duration · fr)`, [`WIDTH`] × [`HEIGHT`]); every animated node
//! becomes one null layer (`ty` 3) named after it: the bone name of `.bones[X]…` tracks, the node
//! name of `X.position`, the clip name for root tracks. With a skeleton, the animated bones'
//! ancestors get layers too, `parent` links them, and unanimated properties take the bones' rest
//! pose.
//!
//! Units (3D, y up → Lottie's 2D pixels, y down), with [`PIXELS_PER_UNIT`] = 100:
//! * position `p = (x · 100 + w/2, −y · 100 + h/2)` for a layer without parent, `(x · 100,
//!   −y · 100)` for a child (its parent's origin is its origin); z is dropped;
//! * rotation `r = −degrees(2 · atan2(q.z, q.w))`: the twist about the view axis, negated since
//!   y points down (a positive Lottie angle turns clockwise on screen); x/y rotations are dropped;
//! * scale `s = (x · 100, y · 100)` percent; opacity `o` = `material.opacity · 100` or 100.
//!
//! Keys: linear tracks become linear keyframes (`o` = (0, 0), `i` = (1, 1)), discrete ones hold
//! keys, Bezier ones keep their easing (handles recovered from the tangents as when writing an
//! edited Lottie track), smooth ones are sampled at every frame into linear keys. Rotation
//! (a non-linear function of the quaternion) is sampled at every frame, unwrapped, unless the
//! track is discrete. What cannot be carried is listed by [`losses`].

use std::collections::HashMap;

use super::emit::{Point, frame_times, handle_text, handles, lottie_keys, numbers, resampled};
use crate::formats::json::number::{write_f32, write_f64};
use crate::formats::json::write_str;
use crate::formats::{Document, NotWritable, WriteOptions};
use crate::model::binding::parse_track_name;
use crate::model::interpolant::Sampler;
use crate::model::{Clip, Interpolation, Track, TrackKind, Values};

/// Composition width in pixels.
pub const WIDTH: f64 = 512.0;
/// Composition height in pixels.
pub const HEIGHT: f64 = 512.0;
/// Pixels per scene unit for positions.
pub const PIXELS_PER_UNIT: f64 = 100.0;

/// The transform property a track feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Channel {
    /// `position` → `p`.
    Position,
    /// `quaternion` → `r`.
    Rotation,
    /// `scale` → `s`.
    Scale,
    /// `material.opacity` → `o`.
    Opacity,
}

/// The layer node and channel a track animates, or `None` when Lottie has no place for it.
fn target(clip: &Clip, track: &Track) -> Option<(String, Channel)> {
    let path = parse_track_name(&track.name).ok()?;
    let vs = track.value_size();
    let channel = match (
        path.object_name.as_deref(),
        path.property_name.as_str(),
        &path.property_index,
    ) {
        (None | Some("bones"), "position", None) if vs >= 2 => Channel::Position,
        (None | Some("bones"), "quaternion", None) if vs == 4 => Channel::Rotation,
        (None | Some("bones"), "scale", None) if vs >= 2 => Channel::Scale,
        (Some("material"), "opacity", None) if vs == 1 => Channel::Opacity,
        _ => return None,
    };
    track.values.as_numbers()?;
    let node = match path.object_name.as_deref() {
        Some("bones") => path.object_index.clone()?,
        _ => path
            .node_name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| clip.name.clone()),
    };
    Some((node, channel))
}

/// The clip's frame rate: its `fps` extra when positive, else 30.
pub(crate) fn frame_rate(clip: &Clip) -> f64 {
    clip.extras
        .get("fps")
        .and_then(|raw| raw.get().trim().parse::<f64>().ok())
        .filter(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(30.0)
}

/// One null layer to write.
pub(crate) struct Layer {
    /// Its name (the node name).
    pub name: String,
    /// Index of its parent layer in the layer list.
    pub parent: Option<usize>,
    /// Rest pose: position, rotation quaternion (x, y, z, w), scale.
    rest: ([f32; 3], [f32; 4], [f32; 3]),
    /// The tracks feeding it.
    pub tracks: Vec<(Channel, usize)>,
}

/// The layers of `clip`, in skeleton order then first appearance.
pub(crate) fn plan(doc: &Document, clip: &Clip) -> Vec<Layer> {
    let mut layers: Vec<Layer> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let identity = ([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
    let targets: Vec<(usize, String, Channel)> = clip
        .tracks
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .filter_map(|(i, t)| target(clip, t).map(|(n, c)| (i, n, c)))
        .collect();
    if let Some(skeleton) = &doc.skeleton {
        let bones = &skeleton.bones;
        let mut needed = vec![false; bones.len()];
        let mut bone_named: HashMap<&str, usize> = HashMap::with_capacity(bones.len());
        for (b, bone) in bones.iter().enumerate() {
            bone_named.entry(bone.name.as_str()).or_insert(b);
        }
        for (_, node, _) in &targets {
            let mut at = bone_named.get(node.as_str()).copied();
            while let Some(b) = at {
                if needed[b] {
                    break;
                }
                needed[b] = true;
                at = bones[b].parent.filter(|&p| p < bones.len() && p != b);
            }
        }
        let mut layer_of = vec![None; bones.len()];
        for (b, bone) in bones.iter().enumerate() {
            if !needed[b] || by_name.contains_key(&bone.name) {
                continue;
            }
            layer_of[b] = Some(layers.len());
            by_name.insert(bone.name.clone(), layers.len());
            layers.push(Layer {
                name: bone.name.clone(),
                parent: None,
                rest: (bone.position, bone.rotation, bone.scale),
                tracks: Vec::new(),
            });
        }
        for (b, bone) in bones.iter().enumerate() {
            if let (Some(l), Some(p)) = (layer_of[b], bone.parent) {
                let parent = layer_of.get(p).copied().flatten();
                // A parent listed after its child, or a cycle, would not resolve: leave it out.
                if parent.is_some_and(|p| p < l) {
                    layers[l].parent = parent;
                }
            }
        }
    }
    for (i, node, channel) in targets {
        let l = *by_name.entry(node.clone()).or_insert_with(|| {
            layers.push(Layer {
                name: node,
                parent: None,
                rest: identity,
                tracks: Vec::new(),
            });
            layers.len() - 1
        });
        if !layers[l].tracks.iter().any(|(c, _)| *c == channel) {
            layers[l].tracks.push((channel, i));
        }
    }
    layers
}

/// Whether `track` is written into the composition (the first clip's carried tracks).
fn carried(clip: &Clip, track: &Track) -> bool {
    !track.is_empty() && target(clip, track).is_some()
}

/// Whether `doc` can be turned into a composition: its first clip's key times must be finite
/// and sorted.
pub(crate) fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    let Some(clip) = doc.clips.first() else {
        return Ok(());
    };
    let bad: Vec<String> = clip
        .tracks
        .iter()
        .filter(|t| {
            t.times.iter().any(|x| !x.is_finite()) || t.times.windows(2).any(|w| w[1] < w[0])
        })
        .map(|t| format!("{}|{}", clip.name, t.name))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(NotWritable::new(
            doc.format,
            format!(
                "a Lottie composition needs finite, sorted key times; these tracks have NaN or \
             unsorted times: {}",
                bad.join(", ")
            ),
        ))
    }
}

/// What writing `doc` (not read from Lottie) as a composition leaves out, one line each.
pub(crate) fn losses(doc: &Document) -> Vec<String> {
    let mut lost = Vec::new();
    let Some(clip) = doc.clips.first() else {
        return lost;
    };
    if doc.clips.len() > 1 {
        let names: Vec<&str> = doc.clips[1..].iter().map(|c| c.name.as_str()).collect();
        lost.push(format!(
            "{} other clip(s) ({}): a Lottie file holds one main composition, the first clip",
            names.len(),
            names.join(", ")
        ));
    }
    let dropped: Vec<&str> = clip
        .tracks
        .iter()
        .filter(|t| !carried(clip, t))
        .map(|t| t.name.as_str())
        .collect();
    if !dropped.is_empty() {
        lost.push(format!(
            "tracks a Lottie layer transform has no place for: {}",
            dropped.join(", ")
        ));
    }
    let fr = frame_rate(clip);
    let has = |ch: Channel| {
        clip.tracks
            .iter()
            .filter(|t| carried(clip, t))
            .any(|t| target(clip, t).is_some_and(|(_, c)| c == ch))
    };
    if has(Channel::Position) {
        lost.push(format!(
            "position z (Lottie layers are 2D: p = (x·{p}, −y·{p}) px, plus ({w}, {h}) for \
             layers without parent)",
            p = PIXELS_PER_UNIT,
            w = WIDTH / 2.0,
            h = HEIGHT / 2.0
        ));
    }
    if has(Channel::Rotation) {
        lost.push(format!(
            "rotations about x and y (a quaternion becomes its twist about the view axis, \
             r = −degrees(2·atan2(z, w)), sampled at {fr} fps unless discrete)"
        ));
    }
    if has(Channel::Scale) {
        lost.push("scale z (Lottie scale is 2D percent)".to_string());
    }
    let smooth: Vec<&str> = clip
        .tracks
        .iter()
        .filter(|t| carried(clip, t) && t.interpolation == Interpolation::Smooth)
        .map(|t| t.name.as_str())
        .collect();
    if !smooth.is_empty() {
        lost.push(format!(
            "smooth interpolation of {} (baked at {fr} fps into linear keys)",
            smooth.join(", ")
        ));
    }
    lost
}

/// The composition for `doc`'s first clip (an empty one without clips).
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    let empty = Clip::new("", 0.0, Vec::new());
    let clip = doc.clips.first().unwrap_or(&empty);
    let fr = frame_rate(clip);
    let duration = if clip.duration.is_finite() {
        clip.duration.max(0.0)
    } else {
        0.0
    };
    let op = (duration * fr - 1e-9).ceil().max(0.0);
    let mut out = b"{\"v\":\"5.7.4\",\"fr\":".to_vec();
    write_f64(&mut out, fr, None);
    out.extend_from_slice(b",\"ip\":0,\"op\":");
    write_f64(&mut out, op, None);
    out.extend_from_slice(b",\"w\":");
    write_f64(&mut out, WIDTH, None);
    out.extend_from_slice(b",\"h\":");
    write_f64(&mut out, HEIGHT, None);
    out.extend_from_slice(b",\"nm\":");
    write_str(&mut out, &clip.name);
    out.extend_from_slice(b",\"ddd\":0,\"assets\":[],\"layers\":[");
    for (l, layer) in plan(doc, clip).iter().enumerate() {
        if l > 0 {
            out.push(b',');
        }
        layer_text(&mut out, clip, layer, l, op, fr, opts);
    }
    out.extend_from_slice(b"]}");
    out
}

/// One null layer.
fn layer_text(
    out: &mut Vec<u8>,
    clip: &Clip,
    layer: &Layer,
    l: usize,
    op: f64,
    fr: f64,
    opts: &WriteOptions,
) {
    out.extend_from_slice(b"{\"ddd\":0,\"ind\":");
    write_f64(out, (l + 1) as f64, None);
    out.extend_from_slice(b",\"ty\":3,\"nm\":");
    write_str(out, &layer.name);
    if let Some(p) = layer.parent {
        out.extend_from_slice(b",\"parent\":");
        write_f64(out, (p + 1) as f64, None);
    }
    out.extend_from_slice(b",\"sr\":1,\"ks\":{");
    let track_of = |ch: Channel| {
        layer
            .tracks
            .iter()
            .find(|(c, _)| *c == ch)
            .map(|&(_, i)| &clip.tracks[i])
    };
    let root = layer.parent.is_none();
    let (rest_p, rest_q, rest_s) = layer.rest;
    // Opacity.
    out.extend_from_slice(b"\"o\":");
    let opacity = track_of(Channel::Opacity)
        .map(|t| mapped(t, fr, |_, v| v * 100.0, 1))
        .unwrap_or_else(|| constant(&[100.0]));
    property(out, &opacity, fr, true, opts);
    // Rotation.
    out.extend_from_slice(b",\"r\":");
    let rotation = match track_of(Channel::Rotation) {
        Some(t) => rotation_track(t, fr),
        None => constant(&[twist_degrees(rest_q.map(f64::from)) + 0.0]),
    };
    property(out, &rotation, fr, true, opts);
    // Position.
    let (cx, cy) = if root {
        (WIDTH / 2.0, HEIGHT / 2.0)
    } else {
        (0.0, 0.0)
    };
    let to_px = move |c: usize, v: f64| match c {
        0 => v * PIXELS_PER_UNIT + cx,
        _ => -v * PIXELS_PER_UNIT + cy,
    };
    out.extend_from_slice(b",\"p\":");
    let position = match track_of(Channel::Position) {
        Some(t) => mapped(t, fr, to_px, 2),
        None => constant(&[to_px(0, rest_p[0] as f64), to_px(1, rest_p[1] as f64)]),
    };
    property(out, &position, fr, false, opts);
    // Anchor.
    out.extend_from_slice(b",\"a\":{\"a\":0,\"k\":[0,0]}");
    // Scale.
    out.extend_from_slice(b",\"s\":");
    let scale = match track_of(Channel::Scale) {
        Some(t) => mapped(t, fr, |_, v| v * 100.0, 2),
        None => constant(&[rest_s[0] as f64 * 100.0, rest_s[1] as f64 * 100.0]),
    };
    property(out, &scale, fr, false, opts);
    out.extend_from_slice(b"},\"ao\":0,\"ip\":0,\"op\":");
    write_f64(out, op, None);
    out.extend_from_slice(b",\"st\":0,\"bm\":0}");
}

/// A one-key track holding `values`.
fn constant(values: &[f64]) -> Track {
    let kind = if values.len() == 1 {
        TrackKind::Number
    } else {
        TrackKind::Vector
    };
    Track::numeric(
        "",
        kind,
        vec![0.0],
        values.iter().map(|&v| v as f32).collect(),
    )
}

/// `track`'s first `size` components mapped by `f(component, value)` (an increasing or
/// decreasing affine map, so Bezier tangents map alike); smooth tracks are first sampled at `fr`.
fn mapped(track: &Track, fr: f64, f: impl Fn(usize, f64) -> f64, size: usize) -> Track {
    let source = match track.interpolation {
        Interpolation::Smooth => resampled(track, fr),
        _ => track.clone(),
    };
    let vs = source.value_size();
    let values = source.values.as_numbers().unwrap_or(&[]);
    let n = source.len();
    let mut out_values = Vec::with_capacity(n * size);
    for k in 0..n {
        for c in 0..size {
            // `+ 0.0` turns −0 into 0.
            out_values.push(f(c, values[k * vs + c] as f64) as f32 + 0.0);
        }
    }
    let kind = if size == 1 {
        TrackKind::Number
    } else {
        TrackKind::Vector
    };
    let mut out = Track::numeric(source.name.clone(), kind, source.times.clone(), out_values);
    out.interpolation = source.interpolation;
    if let (Interpolation::Bezier, Some(t)) = (source.interpolation, &source.tangents) {
        let mut tangents =
            crate::model::Tangents::new(vec![0.0; n * size * 2], vec![0.0; n * size * 2]);
        for side in [crate::model::HandleSide::In, crate::model::HandleSide::Out] {
            for k in 0..n {
                for c in 0..size {
                    if let Some((time, v)) = t.point(side, k, c, vs) {
                        tangents.set_point(side, k, c, size, (time, f(c, v)));
                    }
                }
            }
        }
        out.tangents = Some(tangents);
    }
    out
}

/// `−degrees(2 · atan2(z, w))` of a quaternion `(x, y, z, w)`.
fn twist_degrees(q: [f64; 4]) -> f64 {
    -(2.0 * q[2].atan2(q[3])).to_degrees()
}

/// A quaternion track as Lottie rotation degrees: hold keys for a discrete track, else sampled at
/// every frame (and at its keys) into linear keys, unwrapped so turns stay continuous.
fn rotation_track(track: &Track, fr: f64) -> Track {
    let times = if track.interpolation == Interpolation::Discrete {
        track.times.clone()
    } else {
        frame_times(&track.times, fr)
    };
    let mut sampler = Sampler::new(track);
    let mut values: Vec<f32> = Vec::with_capacity(times.len());
    let mut previous: Option<f64> = None;
    for &t in &times {
        let Values::Numbers(q) = sampler.evaluate(t as f64) else {
            continue;
        };
        let mut angle = twist_degrees([q[0] as f64, q[1] as f64, q[2] as f64, q[3] as f64]);
        if let Some(p) = previous {
            angle = p + (angle - p + 180.0).rem_euclid(360.0) - 180.0;
        }
        previous = Some(angle);
        values.push(angle as f32 + 0.0);
    }
    let mut out = Track::numeric(track.name.clone(), TrackKind::Number, times, values);
    out.interpolation = if track.interpolation == Interpolation::Discrete {
        Interpolation::Discrete
    } else {
        Interpolation::Linear
    };
    out
}

/// `{"a":…,"k":…}` for `track` (in Lottie units): a static value for one key, else keyframes.
fn property(out: &mut Vec<u8>, track: &Track, fr: f64, scalar: bool, opts: &WriteOptions) {
    let vs = track.value_size();
    let values = track.values.as_numbers().unwrap_or(&[]);
    if track.len() <= 1 {
        out.extend_from_slice(b"{\"a\":0,\"k\":");
        if scalar && vs == 1 {
            write_f32(
                out,
                values.first().copied().unwrap_or(0.0) + 0.0,
                opts.precision,
            );
        } else {
            numbers(out, &values[..vs.min(values.len())], opts);
        }
        out.push(b'}');
        return;
    }
    out.extend_from_slice(b"{\"a\":1,\"k\":[");
    let keys = lottie_keys(track);
    for (m, key) in keys.iter().enumerate() {
        if m > 0 {
            out.push(b',');
        }
        let j = key.key;
        out.push(b'{');
        if let Some(next) = keys.get(m + 1).filter(|_| !key.hold) {
            let (o, i): (Vec<Point>, Vec<Point>) = handles(track, j, next.key, vs);
            out.extend_from_slice(b"\"i\":");
            handle_text(out, &i, opts);
            out.extend_from_slice(b",\"o\":");
            handle_text(out, &o, opts);
            out.push(b',');
        }
        out.extend_from_slice(b"\"t\":");
        write_f32(out, (track.times[j] as f64 * fr) as f32, opts.precision);
        out.extend_from_slice(b",\"s\":");
        numbers(out, &values[j * vs..(j + 1) * vs], opts);
        if key.hold {
            out.extend_from_slice(b",\"h\":1");
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn doc(clips: Vec<Clip>) -> Document {
        let mut d = crate::formats::read_bytes(b"[]", Path::new("x.json"))
            .unwrap_or_else(|_| panic!("empty threejs"));
        d.clips = clips;
        d
    }

    #[test]
    fn linear_position_becomes_linear_keyframes() {
        let t = Track::numeric(
            "box.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0],
        );
        let d = doc(vec![Clip::new("c", 1.0, vec![t])]);
        let text = String::from_utf8(write(&d, &WriteOptions::default())).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["op"], 30);
        assert_eq!(v["layers"][0]["nm"], "box");
        let p = &v["layers"][0]["ks"]["p"];
        assert_eq!(p["a"], 1);
        assert_eq!(p["k"][0]["s"], serde_json::json!([256, 256]));
        assert_eq!(p["k"][0]["o"]["x"], serde_json::json!([0, 0]));
        assert_eq!(p["k"][0]["i"]["y"], serde_json::json!([1, 1]));
        assert_eq!(p["k"][1]["t"], 30);
        assert_eq!(p["k"][1]["s"], serde_json::json!([356, 56]));
    }

    #[test]
    fn twist_of_a_z_rotation() {
        let h = std::f64::consts::FRAC_PI_4;
        assert!((twist_degrees([0.0, 0.0, h.sin(), h.cos()]) + 90.0).abs() < 1e-9);
    }

    #[test]
    fn nan_times_are_refused() {
        let t = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![f32::NAN],
            vec![0.0; 3],
        );
        let d = doc(vec![Clip::new("c", 1.0, vec![t])]);
        assert!(check_writable(&d).is_err());
    }
}
