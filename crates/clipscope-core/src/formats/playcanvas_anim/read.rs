//! Reading an anim clip like the engine's `AnimClipHandler.open`: `inputs` are the key time
//! arrays, `outputs` `{components, data}` the value arrays, and each curve pairs one input with
//! one output for one `path` ([`Locator`]) with an `interpolation` (0 step, 1 linear, 2 cubic;
//! linear when absent). A cubic output holds an in-tangent, the value and an out-tangent per
//! key, Hermite tangents scaled by the key interval as in the engine's `AnimCache` (and glTF),
//! read as bezier handles that draw the same curve.
//!
//! An output with more components than its transform takes (the engine's own example clip
//! `alarm-on-clip` stores 4 per `localEulerAngles` key) is read as the engine's binder reads it:
//! the first 3 (or 4) of each key, the rest ignored; the document lists it in
//! [`Document::accepted`] and `validate` notes it (`playcanvas-extra-components`).
//!
//! Numbers written as text (`"0.5"`) where the engine's JavaScript reads them as numbers (key
//! times in `inputs`, whose comparisons and subtraction convert them; `duration`; an output's
//! `components` and a curve's `inputIndex`/`outputIndex`, used as counts and array indices) are
//! read as the numbers they spell and listed in [`Document::accepted`] (`validate` notes them,
//! `playcanvas-number-as-string`). Values in `data` written as text stay an error: the engine's
//! lerp joins such text instead of adding it. A curve without `interpolation` is read as linear,
//! though the engine evaluates no value for it (its `AnimCache` has no case for a missing
//! interpolation, so the property is held at 0); `validate` warns
//! (`playcanvas-missing-interpolation`).
//!
//! `localEulerAngles` keys are turned into quaternions by the engine's
//! `Quat.setFromEulerAngles`. The engine evaluates such a curve in degrees (a lerp, or a cubic
//! Hermite with the key tangents) and then turns the degrees into a rotation, so keys are added
//! wherever the slerp between the read rotations would stray from that by more than 0.045°
//! (checked at 7 points inside every interval, split in half until it holds): the read follows
//! the engine everywhere, not only at sampled frames. `localRotation` keys are quaternions
//! already. Where the engine would throw or
//! read garbage (an index past the arrays, an output too short for its keys), the read stops
//! with the JSON path.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::path::{Locator, Transform};
use super::{AnimClipSource, CurveOrigin};
use crate::formats::codec::Input;
use crate::formats::document::Source;
use crate::formats::euler::quaternion_from_euler;
use crate::formats::fidelity::angle_deg;
use crate::formats::json::path::{field, index};
use crate::formats::json::{Located, js_number};
use crate::formats::{Accepted, Document, Format, ReadError};
use crate::model::interpolant::slerp_flat;
use crate::model::{Clip, Interpolation, Track, TrackKind};

/// Reads an anim clip (`input.bytes`, the contents of `input.file`); progress advances curve
/// by curve.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    read_inner(input).map_err(|l| l.in_file(input.file))
}

/// The numbers of the array at `path`, each finite; with `text_ok`, decimals written as text
/// (`"0.5"`) too, as the engine's comparisons and arithmetic turn key times into numbers. Also
/// whether any was text.
fn numbers(v: Option<&Value>, path: &str, text_ok: bool) -> Result<(Vec<f32>, bool), Located> {
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new(path, "expected an array of numbers"))?;
    let mut text = false;
    let values = list
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let number = match x {
                Value::String(s) if text_ok => {
                    text = true;
                    js_number(s)
                }
                Value::String(_) => {
                    return Err(Located::new(
                        index(path, i),
                        format!(
                            "{x} is text, not a number (the engine's interpolation would join \
                             the text instead of adding numbers)"
                        ),
                    ));
                }
                _ => x.as_f64(),
            };
            number
                .filter(|f| f.is_finite() && f.abs() <= f32::MAX as f64)
                .map(|f| f as f32)
                .ok_or_else(|| Located::new(index(path, i), format!("{x} is not a finite number")))
        })
        .collect::<Result<_, _>>()?;
    Ok((values, text))
}

/// A count or index the engine reads from `v`: a JSON integer, or the same written as text
/// (`"0"`), which JavaScript's property access and arithmetic read alike. Also whether it was
/// text.
fn count(v: Option<&Value>) -> Option<(u64, bool)> {
    match v? {
        Value::String(s) => s
            .parse::<u64>()
            .ok()
            .filter(|n| n.to_string() == *s)
            .map(|n| (n, true)),
        v => v.as_u64().map(|n| (n, false)),
    }
}

/// How the engine reads numbers written as text where it reads them as numbers, for
/// [`Document::accepted`].
const AS_TEXT: &str = "written as text; read as the number it spells, as the engine's \
                       JavaScript reads it";

/// [`read`] with failures located by JSON path only.
fn read_inner(input: &Input<'_>) -> Result<Document, Located> {
    let bytes = input
        .bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(input.bytes);
    let root: Map<String, Value> = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(Located::new("", "expected an anim clip object")),
        Err(e) => {
            let (path, reason) = crate::formats::json::path::syntax_error(bytes, &e);
            return Err(Located::syntax(path, reason));
        }
    };
    input.step(0, 1)?;
    let mut accepted = Vec::new();
    let inputs = inputs(&root, &mut accepted)?;
    let outputs = outputs(&root, &mut accepted)?;
    let curves = root
        .get("curves")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("curves", "expected an array of curves"))?;
    let mut steps = input.steps(curves.len());
    let mut tracks = Vec::with_capacity(curves.len());
    let mut origins = HashMap::new();
    for (c, curve) in curves.iter().enumerate() {
        steps.next()?;
        let (track, origin, notes) = read_curve(curve, &index("curves", c), &inputs, &outputs)?;
        accepted.extend(notes);
        origins.insert(track.name.clone(), origin);
        tracks.push(track);
    }
    let name = root
        .get("name")
        .and_then(Value::as_str)
        .map_or_else(|| "clip".to_string(), str::to_string);
    let duration = match root.get("duration") {
        Some(Value::String(text)) => {
            let d = js_number(text).filter(|d| *d >= 0.0);
            if d.is_some() {
                accepted.push(Accepted::new("duration", AS_TEXT));
            }
            d
        }
        d => d.and_then(Value::as_f64),
    }
    .filter(|d| d.is_finite() && *d >= 0.0)
    .unwrap_or(-1.0);
    let mut clip = Clip::new(name, duration, tracks);
    clip.uuid = None;
    let source = AnimClipSource {
        bytes: input.bytes.to_vec(),
        fields: root,
        clips: vec![clip.clone()],
        origins,
    };
    Ok(Document {
        path: Some(input.file.to_path_buf()),
        format: Format::PlayCanvasAnim,
        clips: vec![clip],
        skeleton: None,
        mesh: None,
        model: None,
        unread: Vec::new(),
        accepted,
        source: Source::new(source),
    })
}

/// The clip's `inputs`: one array of key times each (times written as text noted in
/// `accepted`).
fn inputs(
    root: &Map<String, Value>,
    accepted: &mut Vec<Accepted>,
) -> Result<Vec<Vec<f32>>, Located> {
    root.get("inputs")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("inputs", "expected an array of key time arrays"))?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let at = index("inputs", i);
            let (times, text) = numbers(Some(v), &at, true)?;
            if text {
                accepted.push(Accepted::new(at, format!("key times {AS_TEXT}")));
            }
            Ok(times)
        })
        .collect()
}

/// The clip's `outputs`: the components per key and the numbers of each (a count written as
/// text noted in `accepted`).
fn outputs(
    root: &Map<String, Value>,
    accepted: &mut Vec<Accepted>,
) -> Result<Vec<(usize, Vec<f32>)>, Located> {
    root.get("outputs")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("outputs", "expected an array of {components, data}"))?
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let at = index("outputs", i);
            let (components, text) = count(o.get("components"))
                .filter(|&(c, _)| (1..=16).contains(&c))
                .ok_or_else(|| Located::new(field(&at, "components"), "expected 1 to 16"))?;
            if text {
                accepted.push(Accepted::new(field(&at, "components"), AS_TEXT));
            }
            let (data, _) = numbers(o.get("data"), &field(&at, "data"), false)?;
            Ok((components as usize, data))
        })
        .collect()
}

/// The track of the curve `curve` at JSON path `at`, where it came from, and what was accepted
/// that the format's writers do not make; its keys taken from `inputs` and `outputs` and
/// checked as the engine needs them.
fn read_curve(
    curve: &Value,
    at: &str,
    inputs: &[Vec<f32>],
    outputs: &[(usize, Vec<f32>)],
) -> Result<(Track, CurveOrigin, Vec<Accepted>), Located> {
    let path = curve
        .get("path")
        .ok_or_else(|| Located::new(at, "missing \"path\""))?;
    let locator =
        Locator::parse(path).map_err(|r| Located::new(field(at, "path"), r.to_string()))?;
    let mut accepted = Vec::new();
    let mut get_index = |key: &str, len: usize, what: &str| -> Result<usize, Located> {
        let (i, text) = count(curve.get(key))
            .ok_or_else(|| Located::new(field(at, key), "expected an index"))?;
        let i = i as usize;
        if text {
            accepted.push(Accepted::new(field(at, key), AS_TEXT));
        }
        if i >= len {
            return Err(Located::new(
                field(at, key),
                format!("{what} {i} does not exist (the clip has {len})"),
            ));
        }
        Ok(i)
    };
    let times = &inputs[get_index("inputIndex", inputs.len(), "input")?];
    let (components, data) = &outputs[get_index("outputIndex", outputs.len(), "output")?];
    let interpolation = match curve.get("interpolation") {
        None => 1,
        Some(v) => v.as_u64().filter(|&i| i <= 2).ok_or_else(|| {
            Located::new(
                field(at, "interpolation"),
                format!("{v} is not 0 (step), 1 (linear) or 2 (cubic)"),
            )
        })?,
    };
    let per_key = if interpolation == 2 { 3 } else { 1 };
    let width = *components;
    let need = times.len() * per_key * width;
    if data.len() < need {
        return Err(Located::new(
            field(at, "outputIndex"),
            format!(
                "the output has {} numbers; {} keys{} × {width} components need {need}",
                data.len(),
                times.len(),
                if per_key == 3 { " × 3 (cubic)" } else { "" }
            ),
        ));
    }
    if let Some(k) = (1..times.len()).find(|&k| times[k] < times[k - 1]) {
        return Err(Located::new(
            index(&field(at, "inputIndex"), k),
            format!("key time {} comes before {}", times[k], times[k - 1]),
        ));
    }
    let transform = locator.transform_of();
    let mut data = std::borrow::Cow::Borrowed(&data[..need]);
    let mut width = width;
    if let Some(t) = transform {
        let takes = t.components();
        if width < takes {
            return Err(Located::new(
                field(at, "outputIndex"),
                format!(
                    "{} takes {takes} components, the output has {width}",
                    t.property()
                ),
            ));
        }
        if width > takes {
            // The binder packs the first components into the property and ignores the rest.
            data = std::borrow::Cow::Owned(
                data.chunks_exact(width)
                    .flat_map(|group| group[..takes].iter().copied())
                    .collect(),
            );
            accepted.push(Accepted::new(
                at,
                format!(
                    "the output has {width} components where {} takes {takes}; read as the \
                     engine's binder reads it, the first {takes} of each key (the rest ignored)",
                    t.property()
                ),
            ));
            width = takes;
        }
    }
    let track = curve_track(&locator, transform, times, &data, width, interpolation);
    let origin = CurveOrigin {
        path: path.clone(),
        euler: transform == Some(Transform::Euler),
    };
    Ok((track, origin, accepted))
}

/// The track of one curve (see the module docs).
fn curve_track(
    locator: &Locator,
    transform: Option<Transform>,
    times: &[f32],
    data: &[f32],
    width: usize,
    interpolation: u64,
) -> Track {
    let name = locator.track_name();
    let (values, tangents) = if interpolation == 2 {
        let (v, tangents) = crate::formats::keys::Keys::split_cubic(data, width);
        (v, Some(tangents))
    } else {
        (data.to_vec(), None)
    };
    let kind = match (transform, width) {
        (Some(Transform::Rotation | Transform::Euler), _) => TrackKind::Quaternion,
        (Some(_), _) => TrackKind::Vector,
        (None, 1) => TrackKind::Number,
        (None, 3)
            if locator
                .property
                .last()
                .is_some_and(|p| p.to_lowercase().contains("color")) =>
        {
            TrackKind::Color
        }
        (None, _) => TrackKind::Vector,
    };
    let hermite = tangents
        .as_ref()
        .filter(|_| transform == Some(Transform::Euler))
        .cloned();
    let hermite = hermite.as_ref().map(|(a, b)| (&a[..], &b[..]));
    let mut track = Track::numeric(&name, kind, times.to_vec(), values);
    track.interpolation = match interpolation {
        0 => Interpolation::Discrete,
        2 => Interpolation::Bezier,
        _ => Interpolation::Linear,
    };
    if let Some((a, b)) = tangents {
        track.tangents = Some(crate::model::Tangents::from_hermite(
            times,
            track.values.as_numbers().unwrap_or_default(),
            &a,
            &b,
            width,
        ));
    }
    if transform != Some(Transform::Euler) {
        return track;
    }
    // Euler degrees → quaternions, with keys added where the slerp between them would stray
    // from the engine's evaluation of the degrees (linear or cubic Hermite).
    let degrees = track.values.as_numbers().unwrap_or_default();
    let (times, degrees) = match track.interpolation {
        Interpolation::Discrete => (times.to_vec(), degrees.to_vec()),
        _ => euler_keys(times, degrees, hermite),
    };
    let quaternions: Vec<f32> = degrees
        .chunks_exact(3)
        .flat_map(|e| {
            quaternion_from_euler([e[0] as f64, e[1] as f64, e[2] as f64]).map(|q| q as f32)
        })
        .collect();
    let mut q = Track::numeric(name, TrackKind::Quaternion, times, quaternions);
    q.interpolation = match track.interpolation {
        Interpolation::Discrete => Interpolation::Discrete,
        _ => Interpolation::Linear,
    };
    q
}

/// How far (degrees) a slerp between two Euler keys' rotations may stray from the engine's
/// evaluation of their degrees before a key is added between them.
const EULER_TOLERANCE_DEG: f64 = 0.045;

/// Deepest split of one interval of an Euler curve.
const EULER_MAX_DEPTH: usize = 20;

/// Where inside an interval the slerp is compared with the engine's curve (fractions of it).
const EULER_PROBES: [f64; 7] = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];

/// The engine's value of an Euler curve between keys `k` and `k + 1` (times `t0`, `t1`, 3
/// degrees each in `degrees`) at time `t`, as its `AnimCache` evaluates it: a lerp of the
/// degrees, or with `hermite` (in- and out-tangents per key) the cubic Hermite
/// `h00·v0 + h10·out0·len + h01·v1 + h11·in1·len`.
fn euler_at(
    degrees: &[f32],
    hermite: Option<(&[f32], &[f32])>,
    k: usize,
    (t0, t1): (f32, f32),
    t: f64,
) -> [f64; 3] {
    let len = t1 as f64 - t0 as f64;
    let s = if len > 0.0 {
        ((t - t0 as f64) / len).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = |v: &[f32], key: usize, i: usize| v[key * 3 + i] as f64;
    [0, 1, 2].map(|i| {
        let (v0, v1) = (at(degrees, k, i), at(degrees, k + 1, i));
        match hermite {
            None => v0 + (v1 - v0) * s,
            Some((ins, outs)) => {
                let (s2, omt) = (s * s, 1.0 - s);
                let omt2 = omt * omt;
                (1.0 + 2.0 * s) * omt2 * v0
                    + s * omt2 * at(outs, k, i) * len
                    + s2 * (3.0 - 2.0 * s) * v1
                    + s2 * (s - 1.0) * at(ins, k + 1, i) * len
            }
        }
    })
}

/// Euler keys (`times`, 3 degrees each; with `hermite` a cubic curve's in- and out-tangents) as
/// keys whose rotations, slerped as the model plays quaternion keys, follow the engine's curve
/// of the degrees within [`EULER_TOLERANCE_DEG`]: intervals are split where they stray, each new
/// key's degrees the engine's value at its time.
fn euler_keys(
    times: &[f32],
    degrees: &[f32],
    hermite: Option<(&[f32], &[f32])>,
) -> (Vec<f32>, Vec<f32>) {
    let keys = times.len().min(degrees.len() / 3);
    let key = |k: usize| [0, 1, 2].map(|i| degrees[k * 3 + i] as f64);
    let mut out_t = Vec::with_capacity(times.len());
    let mut out_d = Vec::with_capacity(degrees.len());
    for k in 0..keys {
        if k > 0 {
            let span = (times[k - 1], times[k]);
            let curve = |t: f64| euler_at(degrees, hermite, k - 1, span, t);
            let mut split = Split {
                curve: &curve,
                times: &mut out_t,
                degrees: &mut out_d,
            };
            split.between((times[k - 1], key(k - 1)), (times[k], key(k)), 0);
        }
        out_t.push(times[k]);
        out_d.extend(key(k).map(|d| d as f32));
    }
    (out_t, out_d)
}

/// Keys being added inside one interval of an Euler curve.
struct Split<'a> {
    /// The engine's degrees at a time inside the interval.
    curve: &'a dyn Fn(f64) -> [f64; 3],
    /// The key times so far.
    times: &'a mut Vec<f32>,
    /// Their degrees.
    degrees: &'a mut Vec<f32>,
}

impl Split<'_> {
    /// Adds keys strictly between `a` and `b` (time, degrees) until the slerp follows the curve.
    fn between(&mut self, a: (f32, [f64; 3]), b: (f32, [f64; 3]), depth: usize) {
        if depth >= EULER_MAX_DEPTH || b.0 <= a.0.next_up() {
            return;
        }
        let (qa, qb) = (quaternion_from_euler(a.1), quaternion_from_euler(b.1));
        let (ta, tb) = (a.0 as f64, b.0 as f64);
        let strays = EULER_PROBES.iter().any(|&s| {
            let engine = quaternion_from_euler((self.curve)(ta + (tb - ta) * s));
            angle_deg(&slerp_flat(qa, qb, s), &engine) > EULER_TOLERANCE_DEG
        });
        if !strays {
            return;
        }
        let t = ((ta + tb) / 2.0) as f32;
        if !(t > a.0 && t < b.0) {
            return;
        }
        let mid = (t, (self.curve)(t as f64));
        self.between(a, mid, depth + 1);
        self.times.push(t);
        self.degrees.extend(mid.1.map(|d| d as f32));
        self.between(mid, b, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interpolant::Sampler;
    use serde_json::json;

    #[test]
    fn a_curve_takes_its_keys_and_names_its_place() {
        let inputs = vec![vec![0.0, 1.0]];
        let outputs = vec![(3, vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0]), (1, vec![5.0])];
        let curve =
            json!({"path": "Root.Hips/graph/localPosition", "inputIndex": 0, "outputIndex": 0});
        let (track, origin, accepted) = read_curve(&curve, "curves[0]", &inputs, &outputs).unwrap();
        assert!(accepted.is_empty());
        assert_eq!(track.name, "Hips.position");
        assert_eq!(track.times, [0.0, 1.0]);
        assert!(!origin.euler);
        let short = json!({"path": "a/entity/localScale", "inputIndex": 0, "outputIndex": 1});
        let e = read_curve(&short, "curves[4]", &inputs, &outputs).unwrap_err();
        assert_eq!(e.path, "curves[4].outputIndex");
        let bad_path = json!({"path": 3, "inputIndex": 0, "outputIndex": 0});
        let e = read_curve(&bad_path, "curves[1]", &inputs, &outputs).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.reason.as_str()),
            (
                "curves[1].path",
                "a curve path is a string or an object, not 3"
            )
        );
    }

    #[test]
    fn outputs_with_extra_components_read_as_the_binder_reads_them() {
        // alarm-on-clip's shape: 4 numbers per localEulerAngles key, the 4th ignored.
        let inputs = vec![vec![0.0, 1.0]];
        let four = (4, vec![0.0, 0.0, 0.0, 7.0, 0.0, 90.0, 0.0, -3.0]);
        let three = (3, vec![0.0, 0.0, 0.0, 0.0, 90.0, 0.0]);
        let two = (2, vec![0.0, 0.0, 0.0, 90.0]);
        let outputs = vec![four, three, two];
        let euler = |o: usize| {
            json!({"path": {"entityPath": ["a"], "component": "entity", "propertyPath": ["localEulerAngles"]},
                   "inputIndex": 0, "outputIndex": o})
        };
        let (wide, _, accepted) = read_curve(&euler(0), "curves[2]", &inputs, &outputs).unwrap();
        let (plain, _, none) = read_curve(&euler(1), "curves[0]", &inputs, &outputs).unwrap();
        assert_eq!(wide.values, plain.values);
        assert_eq!(wide.kind, TrackKind::Quaternion);
        assert!(none.is_empty());
        let accepted = &accepted[0];
        assert_eq!(accepted.path, "curves[2]");
        assert_eq!(
            accepted.what,
            "the output has 4 components where localEulerAngles takes 3; read as the engine's \
             binder reads it, the first 3 of each key (the rest ignored)"
        );
        // Cubic keys: each of in-tangent, value and out-tangent loses its extra component.
        let cubic = vec![(
            4,
            vec![
                1.0, 1.0, 1.0, 9.0, 0.0, 0.0, 0.0, 9.0, 1.0, 1.0, 1.0, 9.0, 1.0, 1.0, 1.0, 9.0,
                0.0, 90.0, 0.0, 9.0, 1.0, 1.0, 1.0, 9.0,
            ],
        )];
        let curve = json!({"path": "a/entity/localPosition", "inputIndex": 0, "outputIndex": 0,
                           "interpolation": 2});
        let (track, _, accepted) = read_curve(&curve, "curves[0]", &inputs, &cubic).unwrap();
        assert_eq!(accepted.len(), 1);
        assert_eq!(
            track.values.as_numbers().unwrap(),
            [0.0, 0.0, 0.0, 0.0, 90.0, 0.0]
        );
        // Fewer components than the property takes is still refused.
        let e = read_curve(&euler(2), "curves[1]", &inputs, &outputs).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.reason.as_str()),
            (
                "curves[1].outputIndex",
                "localEulerAngles takes 3 components, the output has 2"
            )
        );
    }

    #[test]
    fn linear_euler_curves_read_as_the_engine_lerps_their_degrees() {
        let inputs = vec![vec![0.0, 1.0]];
        let outputs = vec![
            (3, vec![0.0, 0.0, 0.0, 60.0, 80.0, 0.0]),
            (3, vec![0.0, 0.0, 0.0, 0.0, 90.0, 0.0]),
        ];
        let euler = |o: usize| {
            json!({"path": {"entityPath": ["a"], "component": "entity", "propertyPath": ["localEulerAngles"]},
                   "inputIndex": 0, "outputIndex": o})
        };
        let (track, _, _) = read_curve(&euler(0), "curves[0]", &inputs, &outputs).unwrap();
        assert!(track.len() > 2, "{}", track.len());
        let mut sampler = Sampler::new(&track);
        let mut q = [0.0; 4];
        for i in 0..=100 {
            let t = i as f64 / 100.0;
            sampler.evaluate_f64(t, &mut q);
            let engine = quaternion_from_euler([60.0 * t, 80.0 * t, 0.0]);
            assert!(angle_deg(&q, &engine) <= 0.05, "at {t}");
        }
        // About one axis the lerp of degrees is the slerp: no keys added.
        let (track, _, _) = read_curve(&euler(1), "curves[0]", &inputs, &outputs).unwrap();
        assert_eq!(track.len(), 2);
    }

    #[test]
    fn numbers_written_as_text_are_read_as_the_engine_reads_them() {
        let text = r#"{"name":"t","duration":"1","inputs":[["0","0.5"]],
            "outputs":[{"components":"3","data":[0,0,0,2,4,6]}],
            "curves":[{"path":{"entityPath":["r","n"],"component":"entity",
                               "propertyPath":["localPosition"]},
                       "inputIndex":"0","outputIndex":"0","interpolation":1}]}"#;
        let file = std::path::Path::new("t.json");
        let doc = crate::formats::read_bytes(text.as_bytes(), file).unwrap();
        assert_eq!(doc.format, Format::PlayCanvasAnim);
        assert_eq!(doc.clips[0].duration, 1.0);
        assert_eq!(doc.clips[0].tracks[0].times, [0.0, 0.5]);
        let paths: Vec<&str> = doc.accepted.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "inputs[0]",
                "outputs[0].components",
                "curves[0].inputIndex",
                "curves[0].outputIndex",
                "duration"
            ]
        );
        // Values as text stay refused (the engine's lerp joins text), as does an index the
        // engine would not find ("00" is no array index in JavaScript).
        let bad = text.replace("[0,0,0,2,4,6]", r#"["0",0,0,2,4,6]"#);
        let e = crate::formats::read_bytes(bad.as_bytes(), file).unwrap_err();
        assert!(e.to_string().contains("outputs[0].data[0]"), "{e}");
        let bad = text.replace(r#""inputIndex":"0""#, r#""inputIndex":"00""#);
        let e = crate::formats::read_bytes(bad.as_bytes(), file).unwrap_err();
        assert!(e.to_string().contains("curves[0].inputIndex"), "{e}");
    }

    #[test]
    fn cubic_euler_curves_read_within_tolerance_of_the_engine_everywhere() {
        // Fast turns: 300° in 0.2 s about a tilted axis, with steep tangents.
        let times = [0.0f32, 0.2, 0.5, 0.55, 1.0];
        let values: [[f32; 3]; 5] = [
            [0.0, 0.0, 0.0],
            [40.0, 300.0, -60.0],
            [-80.0, 120.0, 170.0],
            [-70.0, 160.0, 150.0],
            [10.0, -20.0, 30.0],
        ];
        let ins: [[f32; 3]; 5] = [
            [0.0; 3],
            [500.0, 900.0, -200.0],
            [-300.0, 100.0, 800.0],
            [600.0, -700.0, 50.0],
            [0.0, 0.0, 0.0],
        ];
        let outs: [[f32; 3]; 5] = [
            [200.0, 1500.0, -400.0],
            [-900.0, 100.0, 900.0],
            [300.0, 200.0, -600.0],
            [100.0, -900.0, 300.0],
            [0.0; 3],
        ];
        let mut data = Vec::new();
        for k in 0..times.len() {
            data.extend(ins[k]);
            data.extend(values[k]);
            data.extend(outs[k]);
        }
        let inputs = vec![times.to_vec()];
        let outputs = vec![(3, data.clone())];
        let curve = json!({"path": {"entityPath": ["a"], "component": "entity",
                                    "propertyPath": ["localEulerAngles"]},
                           "inputIndex": 0, "outputIndex": 0, "interpolation": 2});
        let (track, _, _) = read_curve(&curve, "curves[0]", &inputs, &outputs).unwrap();
        assert_eq!(track.interpolation, Interpolation::Linear);
        let degrees: Vec<f32> = values.concat();
        let (a, b) = (ins.concat(), outs.concat());
        let mut sampler = Sampler::new(&track);
        let mut q = [0.0; 4];
        let mut worst = 0.0f64;
        for i in 0..=4000 {
            let t = i as f64 / 4000.0;
            let k = times.iter().rposition(|&x| x as f64 <= t).unwrap().min(3);
            let engine = euler_at(&degrees, Some((&a, &b)), k, (times[k], times[k + 1]), t);
            sampler.evaluate_f64(t, &mut q);
            worst = worst.max(angle_deg(&q, &quaternion_from_euler(engine)));
        }
        assert!(worst <= 0.05, "{worst}° off the engine");
        // Far fewer keys than a dense bake would need for that.
        assert!(track.len() < 400, "{} keys", track.len());
    }
}
