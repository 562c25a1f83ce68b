//! Converting a Lottie file into a [`Document`]: one clip per composition, one track per layer
//! transform property (see the [module docs](super) for names and the keyframe mapping).
//!
//! Static values become one-key tracks at time 0. Keyframed values become tracks whose keys sit
//! at `(t − origin) / fr` seconds — keyframe times are frames of the composition holding the
//! layer; `st` does not shift them (spec A2). Properties with motion paths or orientation
//! blends are baked from [`Keys::value_at`]; everything else keeps its keys and easing.

use std::sync::Arc;

use super::schema::{
    Composition, Layer, Located, Node, Numbers as _, Obj, PropValue, Property, TransformProp,
    parse_top,
};
use super::value::{Keys, PropKind};
use super::{CompBinding, LottieSource, OriginalKey, PropBinding, SourceData};
use crate::formats::codec::{Input, Steps};
use crate::formats::document::Source;
use crate::formats::json::path::field;
use crate::formats::json::top_object;
use crate::formats::{Document, Format, ReadError};
use crate::model::binding::sanitize_node_name;
use crate::model::ops::Marker;
use crate::model::{self, Clip, Interpolation, Tangents, Track, TrackKind};

/// How finely motion paths are baked: a key is added between two keys wherever the path strays
/// more than this (in the property's units, pixels for positions) from the straight line.
pub const BAKE_TOLERANCE: f64 = 0.005;

/// The most frames the baked tracks of one property are sampled at between their keys (over
/// nine hours at 30 fps); longer spans are sampled at every n-th frame.
const MAX_BAKE_FRAMES: f64 = 1e6;

/// The deepest halving of a frame when baking (1/256 frame).
const BAKE_MAX_DEPTH: u32 = 8;

/// Reads Lottie (`input.bytes`, the contents of `input.file`); progress advances layer by layer
/// over every composition.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    let (bytes, file) = (input.bytes, input.file);
    let fail = |l: Located| l.in_file(file);
    let (_, top) = top_object(bytes, file, "a Lottie composition object", parse_top)?;
    let comp = Composition::decode(top).map_err(fail)?;
    let layers = comp.layers.len() + comp.precomps.iter().map(|p| p.layers.len()).sum::<usize>();
    let mut steps = input.steps(layers);

    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut clips = Vec::new();
    let mut comps = Vec::new();
    let mut props = Vec::new();
    let main_name = comp.name.clone().unwrap_or(stem);
    let main = CompContext {
        version: comp.version.clone(),
        obj: &comp.obj,
        name: main_name,
        fr: comp.fr,
        origin: comp.ip,
        duration: (comp.op - comp.ip) / comp.fr,
        id: None,
        op: Some(comp.op),
    };
    read_comp(
        bytes,
        &main,
        &comp.layers,
        &mut clips,
        &mut comps,
        &mut props,
        &mut steps,
    )
    .map_err(fail)?;
    for pre in &comp.precomps {
        let fr = pre.fr.unwrap_or(comp.fr);
        let mut name = pre.name.clone().unwrap_or_else(|| pre.id.clone());
        if clips.iter().any(|c: &Clip| c.name == name) {
            name = format!("{name}#{}", pre.id);
        }
        // A precomp has no in/out of its own: its clip runs to its layers' latest out point.
        let end = pre
            .layers
            .iter()
            .filter_map(|l| l.record.op)
            .fold(0.0f64, f64::max);
        let ctx = CompContext {
            version: None,
            obj: &pre.obj,
            name,
            fr,
            origin: 0.0,
            duration: end / fr,
            id: Some(pre.id.clone()),
            op: None,
        };
        read_comp(
            bytes,
            &ctx,
            &pre.layers,
            &mut clips,
            &mut comps,
            &mut props,
            &mut steps,
        )
        .map_err(fail)?;
    }
    let source = SourceData {
        bytes: bytes.to_vec(),
        comps,
        props,
        art: std::sync::OnceLock::new(),
    };
    let unread = super::unread::unread(bytes, &clips);
    let accepted = comp
        .layers
        .iter()
        .chain(comp.precomps.iter().flat_map(|p| &p.layers))
        .flat_map(|l| l.accepted.iter().cloned())
        .collect();
    Ok(Document {
        path: Some(file.to_path_buf()),
        format: Format::Lottie,
        clips,
        skeleton: None,
        mesh: None,
        model: None,
        unread,
        accepted,
        source: Source::new(LottieSource(Arc::new(source))),
    })
}

/// A composition being read.
struct CompContext<'c, 'a> {
    /// The root's Bodymovin version `v`.
    version: Option<String>,
    /// Its object.
    obj: &'c Obj<'a>,
    /// The clip name.
    name: String,
    /// Frames per second.
    fr: f64,
    /// The frame at clip time 0.
    origin: f64,
    /// The clip duration in seconds.
    duration: f64,
    /// The asset id of a precomp (`None` for the root).
    id: Option<String>,
    /// The root's end frame.
    op: Option<f64>,
}

/// Reads one composition's layers into a clip, its binding and its tracks' bindings.
fn read_comp(
    file: &[u8],
    ctx: &CompContext,
    layers: &[Layer],
    clips: &mut Vec<Clip>,
    comps: &mut Vec<CompBinding>,
    props: &mut Vec<PropBinding>,
    steps: &mut Steps,
) -> Result<(), Located> {
    let clip_index = clips.len();
    let names = layer_names(layers);
    let mut tracks = Vec::new();
    let mut table = Vec::new();
    for (layer, prefix) in layers.iter().zip(&names) {
        steps.next()?;
        let mut record = model::Layer {
            name: prefix.clone(),
            ..layer.record.clone()
        };
        let Some(transform) = &layer.transform else {
            table.push(record);
            continue;
        };
        for (key, prop) in &transform.props {
            let (property, kind) = property_name(key);
            let parts: Vec<(String, &Property, PropKind)> = match prop {
                TransformProp::Plain(p) => vec![(format!("{prefix}.{property}"), p, kind)],
                TransformProp::Split(parts) => parts
                    .iter()
                    .map(|(axis, p)| (format!("{prefix}.{property}[{axis}]"), p, PropKind::Scalar))
                    .collect(),
            };
            for (name, p, kind) in parts {
                if p.obj.get_some("x").is_some()
                    && let Some(suffix) = name.strip_prefix(&format!("{prefix}."))
                {
                    record.expressions.push(suffix.to_string());
                }
                let (track, binding) = import_property(file, ctx, clip_index, name, p, kind)?;
                tracks.push(track);
                props.push(binding);
            }
        }
        table.push(record);
    }
    let mut duration = ctx.duration;
    if ctx.id.is_some() {
        // A precomp's clip also reaches its last key.
        let last = tracks
            .iter()
            .filter_map(Track::end_time)
            .fold(0.0f32, f32::max);
        duration = duration.max(last as f64);
    }
    let mut clip = Clip::new(ctx.name.clone(), duration, tracks);
    clip.uuid = None;
    let size = |key: &str| ctx.obj.get_some(key).and_then(|n| n.f64().ok());
    let composition = match &ctx.id {
        Some(id) => model::Composition::Precomp { asset: id.clone() },
        None => model::Composition::Main {
            version: ctx.version.clone(),
            start_frame: ctx.origin,
            end_frame: ctx.op,
            width: size("w"),
            height: size("h"),
        },
    };
    clip.layers = Some(Arc::new(model::Layers {
        fps: ctx.fr,
        composition,
        layers: table,
    }));
    let (markers_span, markers) = match (&ctx.id, ctx.obj.get_some("markers")) {
        (None, Some(node)) => {
            let entries = node.array("an array of markers").unwrap_or_default();
            let list: Vec<_> = entries
                .iter()
                .map(|e| (lottie_marker(e, ctx.fr, ctx.origin), e.span(file)))
                .collect();
            (Some(node.span(file)), list)
        }
        _ => (None, Vec::new()),
    };
    let read: Vec<Marker> = markers.iter().filter_map(|(m, _)| m.clone()).collect();
    if !read.is_empty() {
        // Lottie markers become the clip's markers (kept in userData.markers).
        let _ = clip.set_markers(&read);
    }
    comps.push(CompBinding {
        span: ctx.obj.span(file),
        name_span: ctx.obj.get_some("nm").map(|n| n.span(file)),
        op_span: match ctx.id {
            None => ctx.obj.get_some("op").map(|n| n.span(file)),
            Some(_) => None,
        },
        name: clip.name.clone(),
        duration: clip.duration,
        fr: ctx.fr,
        origin: ctx.origin,
        root: ctx.id.is_none(),
        markers_span,
        markers,
    });
    clips.push(clip);
    Ok(())
}

/// The marker a Lottie `markers` entry holds (`tm`: its frame, `cm`: its comment), in clip time
/// (`(tm − origin) / fr` seconds); `None` for an entry that is not an object with a numeric
/// `tm`.
fn lottie_marker(entry: &Node<'_>, fr: f64, origin: f64) -> Option<Marker> {
    let obj = entry.object().ok()?;
    let tm: f64 = serde_json::from_str(obj.get_some("tm")?.raw.get()).ok()?;
    let name = obj
        .get_some("cm")
        .and_then(|n| n.string().ok())
        .unwrap_or_default();
    let time = (tm - origin) / fr;
    time.is_finite().then_some(Marker { name, time })
}

/// The track-name prefix of each layer: its sanitized name (`layer` when it has none), with
/// `#<ind>` (or `#<position>` without an `ind`) appended when several layers share it.
fn layer_names(layers: &[Layer]) -> Vec<String> {
    let base: Vec<String> = layers
        .iter()
        .map(|l| {
            let name = sanitize_node_name(l.record.nm.as_deref().unwrap_or(""));
            if name.is_empty() {
                "layer".to_string()
            } else {
                name
            }
        })
        .collect();
    let mut names: Vec<String> = base
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if base.iter().filter(|b| *b == name).count() > 1 {
                match layers[i].record.ind {
                    Some(ind) => format!("{name}#{}", number_text(ind)),
                    None => format!("{name}#{i}"),
                }
            } else {
                name.clone()
            }
        })
        .collect();
    for i in 0..names.len() {
        if names[..i].contains(&names[i]) {
            names[i] = format!("{}#{i}", names[i]);
        }
    }
    names
}

/// A number as short text (`3`, `2.5`).
fn number_text(v: f64) -> String {
    crate::formats::json::number::format_f64(v)
}

/// The track property name and evaluation kind of a transform key.
fn property_name(key: &str) -> (&'static str, PropKind) {
    match key {
        "a" => ("anchor", PropKind::Vector),
        "p" => ("position", PropKind::Vector),
        "s" => ("scale", PropKind::Vector),
        "r" => ("rotation", PropKind::Scalar),
        "rx" => ("rotationX", PropKind::Scalar),
        "ry" => ("rotationY", PropKind::Scalar),
        "rz" => ("rotationZ", PropKind::Scalar),
        "or" => ("orientation", PropKind::Orientation),
        "o" => ("opacity", PropKind::Scalar),
        "sk" => ("skew", PropKind::Scalar),
        _ => ("skewAxis", PropKind::Scalar),
    }
}

/// The track of one property, and where it came from.
fn import_property(
    file: &[u8],
    ctx: &CompContext,
    clip: usize,
    name: String,
    prop: &Property,
    kind: PropKind,
) -> Result<(Track, PropBinding), Located> {
    let time = |frame: f64| ((frame - ctx.origin) / ctx.fr) as f32;
    let track_kind = match kind {
        PropKind::Scalar => TrackKind::Number,
        _ => TrackKind::Vector,
    };
    let fields = prop
        .obj
        .fields
        .0
        .iter()
        .map(|(k, raw)| (k.0.to_string(), Node::new(raw, "").span(file)))
        .collect();
    let mut number = false;
    let mut baked = false;
    let mut originals = Vec::new();
    let track = match &prop.value {
        PropValue::Static { values, number: n } => {
            number = *n;
            static_track(&name, track_kind, values)
        }
        PropValue::Keyed(frames) => {
            let k_path = field(&prop.obj.path, "k");
            let keys = Keys::decode(frames, kind, &k_path)?;
            for (kf, key) in frames.iter().zip(&keys.keys) {
                let span = |n: &str| kf.obj.get_some(n).map(|n| n.span(file));
                originals.push(OriginalKey {
                    time: time(kf.t),
                    t: span("t").unwrap_or_default(),
                    value: key.value.iter().map(|&v| v as f32).collect(),
                    s: span("s"),
                    o: span("o"),
                    i: span("i"),
                    hold: kf.hold,
                });
            }
            if keys.keys.len() == 1 {
                // lottie-web throws on a single keyframe; Bodymovin never writes one.
                static_track(&name, track_kind, &keys.keys[0].value)
            } else if keys.needs_bake() {
                baked = true;
                bake(&name, track_kind, &keys, time)
            } else {
                keyed_track(&name, track_kind, &keys, time)
            }
        }
    };
    let binding = PropBinding {
        clip,
        imported: track.clone(),
        span: prop.obj.span(file),
        fields,
        fr: ctx.fr,
        origin: ctx.origin,
        number,
        baked,
        keys: originals,
    };
    Ok((track, binding))
}

/// A one-key track at time 0.
fn static_track(name: &str, kind: TrackKind, values: &[f64]) -> Track {
    let mut t = Track::numeric(
        name,
        kind,
        vec![0.0],
        values.iter().map(|&v| v as f32).collect(),
    );
    t.interpolation = Interpolation::Linear;
    t
}

/// The class of one segment, for choosing the track's interpolation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SegmentClass {
    /// Two keys at one frame: never evaluated inside.
    Instant,
    /// A hold.
    Hold,
    /// Linear easing in every dimension.
    Linear,
    /// Anything else.
    Eased,
}

/// The class of segment `k` of `keys`.
fn segment_class(keys: &Keys, k: usize) -> SegmentClass {
    let key = &keys.keys[k];
    if keys.keys[k + 1].t == key.t {
        SegmentClass::Instant
    } else if key.hold {
        SegmentClass::Hold
    } else if key.ease.is_linear() {
        SegmentClass::Linear
    } else {
        SegmentClass::Eased
    }
}

/// A track keeping the keys: discrete when every segment holds, linear when none is eased,
/// Bezier otherwise, with a flat segment and a repeated key for each hold in a non-discrete track.
fn keyed_track(name: &str, kind: TrackKind, keys: &Keys, time: impl Fn(f64) -> f32) -> Track {
    let n = keys.keys.len();
    let dims = keys.dims;
    let classes: Vec<SegmentClass> = (0..n - 1).map(|k| segment_class(keys, k)).collect();
    let interpolation = if classes
        .iter()
        .all(|c| matches!(c, SegmentClass::Hold | SegmentClass::Instant))
    {
        Interpolation::Discrete
    } else if classes.iter().all(|c| *c != SegmentClass::Eased) {
        Interpolation::Linear
    } else {
        Interpolation::Bezier
    };
    let mut times = Vec::new();
    let mut values: Vec<f32> = Vec::new();
    let mut ins: Vec<f32> = Vec::new();
    let mut outs: Vec<f32> = Vec::new();
    // The in handles of the next key, set by the segment before it.
    let mut pending_in: Option<Vec<(f64, f64)>> = None;
    for (k, key) in keys.keys.iter().enumerate() {
        let t0 = time(key.t) as f64;
        let at_key: Vec<(f64, f64)> = key.value.iter().map(|&v| (t0, v)).collect();
        times.push(t0 as f32);
        values.extend(key.value.iter().map(|&v| v as f32));
        push_handles(&mut ins, pending_in.take().as_deref().unwrap_or(&at_key));
        if k + 1 == n {
            push_handles(&mut outs, &at_key);
            break;
        }
        let next = &keys.keys[k + 1];
        let t1 = time(next.t) as f64;
        match classes[k] {
            SegmentClass::Hold if interpolation != Interpolation::Discrete => {
                // Flat to a copy of this value at the next key's time; the next key follows.
                push_handles(&mut outs, &at_key);
                times.push(t1 as f32);
                values.extend(key.value.iter().map(|&v| v as f32));
                let copy: Vec<(f64, f64)> = key.value.iter().map(|&v| (t1, v)).collect();
                push_handles(&mut ins, &copy);
                push_handles(&mut outs, &copy);
            }
            SegmentClass::Linear | SegmentClass::Eased => {
                let dt = t1 - t0;
                let mut out = Vec::with_capacity(dims);
                let mut inn = Vec::with_capacity(dims);
                for d in 0..dims {
                    let (v0, v1) = (key.value[d], next.value[d]);
                    let dv = v1 - v0;
                    let (ox, oy, ix, iy) = key.ease.curve(d).handles();
                    out.push((t0 + ox * dt, v0 + oy * dv));
                    inn.push((t0 + ix * dt, v0 + iy * dv));
                }
                push_handles(&mut outs, &out);
                pending_in = Some(inn);
            }
            _ => push_handles(&mut outs, &at_key),
        }
    }
    let mut track = Track::numeric(name, kind, times, values);
    track.interpolation = interpolation;
    if interpolation == Interpolation::Bezier {
        track.tangents = Some(Tangents::new(ins, outs));
    }
    track
}

/// Appends one key's handles (one `(time, value)` per component) to a tangent array.
fn push_handles(arr: &mut Vec<f32>, handles: &[(f64, f64)]) {
    for &(t, v) in handles {
        arr.push(t as f32);
        arr.push(v as f32);
    }
}

/// A linear track sampled from lottie-web's evaluation: every key, every whole frame inside each
/// moving segment, more keys where the curve strays from the chords by more than
/// [`BAKE_TOLERANCE`], and a repeated key where the value jumps.
fn bake(name: &str, kind: TrackKind, keys: &Keys, time: impl Fn(f64) -> f32) -> Track {
    let dims = keys.dims;
    let n = keys.keys.len();
    let eval = |frame: f64| {
        let mut v = vec![0.0; dims];
        keys.value_at(frame, &mut v);
        v
    };
    let mut samples: Vec<(f64, Vec<f64>)> = Vec::new();
    // Every whole frame of the moving segments, or every n-th where they span more than
    // MAX_BAKE_FRAMES frames in all (a keyframe a billion frames away would otherwise take
    // all memory, and beyond 2^53 a frame counter stops advancing).
    let span: f64 = keys
        .keys
        .windows(2)
        .map(|w| (w[1].t - w[0].t).max(0.0))
        .filter(|d| d.is_finite())
        .sum();
    let step = (span / MAX_BAKE_FRAMES).ceil().max(1.0);
    // Sampled coarsely, such a span is not refined between frames either.
    let first_depth = if step > 1.0 { BAKE_MAX_DEPTH } else { 0 };
    for k in 0..n - 1 {
        let (fa, fb) = (keys.keys[k].t, keys.keys[k + 1].t);
        if fb <= fa {
            continue;
        }
        let start = eval(fa);
        let mut end = vec![0.0; dims];
        keys.end_of_segment(k, &mut end);
        let moving = keys.keys[k].path.is_some() || !keys.keys[k].hold;
        samples.push((fa, start.clone()));
        if moving {
            let first = (fa / step).floor() * step + step;
            let count = ((fb - first) / step).ceil().clamp(0.0, MAX_BAKE_FRAMES) as usize;
            let mut inner: Vec<f64> = (0..count)
                .map(|i| first + i as f64 * step)
                .filter(|&f| f > fa && f < fb)
                .collect();
            inner.dedup();
            inner.push(fb);
            let mut prev = (fa, start);
            for (j, &f) in inner.iter().enumerate() {
                let value = if j + 1 == inner.len() {
                    end.clone()
                } else {
                    eval(f)
                };
                refine(&eval, &prev, (f, &value), first_depth, &mut samples);
                if j + 1 < inner.len() {
                    samples.push((f, value.clone()));
                }
                prev = (f, value);
            }
        }
        if end != eval(fb) {
            samples.push((fb, end));
        }
    }
    let last = keys.keys[n - 1].t;
    samples.push((last, eval(last)));
    let times = samples.iter().map(|(f, _)| time(*f)).collect();
    let values = samples
        .iter()
        .flat_map(|(_, v)| v.iter().map(|&x| x as f32))
        .collect();
    let mut track = Track::numeric(name, kind, times, values);
    track.interpolation = Interpolation::Linear;
    track
}

/// Adds samples strictly between `a` and `b` while the curve strays from the chord by more than
/// [`BAKE_TOLERANCE`] at a quarter, the middle or three quarters of the way (one probe alone
/// misses the error where the chord crosses the curve, as at the middle of a symmetric ease).
fn refine(
    eval: &impl Fn(f64) -> Vec<f64>,
    a: &(f64, Vec<f64>),
    b: (f64, &[f64]),
    depth: u32,
    out: &mut Vec<(f64, Vec<f64>)>,
) {
    if depth >= BAKE_MAX_DEPTH {
        return;
    }
    let strays = |f: f64| {
        let v = eval(a.0 + (b.0 - a.0) * f);
        v.iter()
            .zip(a.1.iter().zip(b.1))
            .map(|(m, (x, y))| (m - (x + (y - x) * f)).abs())
            .fold(0.0, f64::max)
            > BAKE_TOLERANCE
    };
    if !(strays(0.5) || strays(0.25) || strays(0.75)) {
        return;
    }
    let fm = (a.0 + b.0) / 2.0;
    let mid = (fm, eval(fm));
    refine(eval, a, (mid.0, &mid.1), depth + 1, out);
    out.push(mid.clone());
    refine(eval, &mid, b, depth + 1, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::lottie::schema::Composition;
    use crate::model::interpolant::Sampler;

    #[test]
    fn a_keyframe_billions_of_frames_away_is_baked_in_bounded_memory() {
        // A motion path to a key 1e10 frames away took all memory (16 GB in 20 s).
        let json = br#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":100,"h":100,"layers":[{"ty":4,
            "ind":1,"ip":0,"op":60,"st":0,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0,0],
            "to":[10,10,0],"ti":[-10,0,0],"i":{"x":0.5,"y":0.5},"o":{"x":0.5,"y":0.5}},
            {"t":1e10,"s":[50,50,0]}]}},"shapes":[]}]}"#;
        let doc =
            crate::formats::read_bytes(json, std::path::Path::new("far.json")).expect("reads");
        let track = doc.clips[0]
            .tracks
            .iter()
            .find(|t| t.name.ends_with(".position"))
            .expect("the position track");
        assert!(
            track.len() <= MAX_BAKE_FRAMES as usize + 2,
            "{}",
            track.len()
        );
        assert!(track.times.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Every property of a composition with the parameters its frames map to clip time by.
    fn properties<'c, 'a>(layers: &'c [Layer<'a>]) -> Vec<(&'c Property<'a>, PropKind)> {
        let mut out = Vec::new();
        for layer in layers {
            let Some(t) = &layer.transform else { continue };
            for (key, prop) in &t.props {
                let (_, kind) = property_name(key);
                match prop {
                    TransformProp::Plain(p) => out.push((p, kind)),
                    TransformProp::Split(parts) => {
                        out.extend(parts.iter().map(|(_, p)| (p, PropKind::Scalar)))
                    }
                }
            }
        }
        out
    }

    /// Every track of every shared sample file evaluates like lottie-web's `interpolateValue`
    /// (our port in `value.rs`): within 1e-4 of the property's range for kept keys, 0.01 for
    /// baked ones, at
    /// every quarter frame from two frames before the first key to two after the last.
    #[test]
    fn shared_files_evaluate_like_lottie_web() {
        let Some(dir) = clipscope_test_support::sample_data("lottie") else {
            return;
        };
        let mut checked = 0;
        let mut worst_kept: f64 = 0.0;
        let mut worst_baked: f64 = 0.0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let doc = crate::formats::read_bytes(&bytes, &path).unwrap();
            let top = parse_top(&bytes).unwrap().unwrap();
            let comp = Composition::decode(top).unwrap();
            let mut comps = vec![(&comp.layers, comp.fr, comp.ip)];
            for p in &comp.precomps {
                comps.push((&p.layers, p.fr.unwrap_or(comp.fr), 0.0));
            }
            for ((layers, fr, origin), clip) in comps.into_iter().zip(&doc.clips) {
                let props = properties(layers);
                assert_eq!(props.len(), clip.tracks.len(), "{path:?}");
                for ((prop, kind), track) in props.iter().zip(&clip.tracks) {
                    let PropValue::Keyed(frames) = &prop.value else {
                        continue;
                    };
                    let keys = Keys::decode(frames, *kind, "k").unwrap();
                    let baked = keys.needs_bake();
                    let first = keys.keys[0].t - 2.0;
                    let last = keys.keys[keys.keys.len() - 1].t + 2.0;
                    let mut sampler = Sampler::new(track);
                    let mut got = vec![0.0; keys.dims];
                    let mut want = vec![0.0; keys.dims];
                    // Relative to the property's range: f32 key times alone move a steep
                    // segment by about 1e-7 of its range per second of clip time.
                    let range = (0..keys.dims)
                        .map(|d| {
                            let vals = keys.keys.iter().map(|k| k.value[d]);
                            vals.clone().fold(f64::MIN, f64::max) - vals.fold(f64::MAX, f64::min)
                        })
                        .fold(1.0, f64::max);
                    let mut frame = first.floor();
                    while frame <= last {
                        keys.value_at(frame, &mut want);
                        let time = ((frame - origin) / fr) as f32 as f64;
                        sampler.evaluate_f64(time, &mut got);
                        for (g, w) in got.iter().zip(&want) {
                            let err = (g - w).abs() / w.abs().max(range);
                            if baked {
                                worst_baked = worst_baked.max((g - w).abs());
                            } else {
                                worst_kept = worst_kept.max(err);
                            }
                            assert!(
                                if baked {
                                    (g - w).abs() <= 0.01
                                } else {
                                    err <= 1e-4
                                },
                                "{path:?} {} frame {frame}: {got:?} vs {want:?}",
                                track.name
                            );
                        }
                        checked += 1;
                        frame += 0.25;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        eprintln!("checked {checked}; worst kept {worst_kept:e} relative, baked {worst_baked:e}");
    }
}
