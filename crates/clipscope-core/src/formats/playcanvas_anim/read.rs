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
//! `localEulerAngles` keys are turned into quaternions by the engine's
//! `Quat.setFromEulerAngles` (a cubic Euler curve is sampled at 30 fps in Euler degrees first,
//! then turned; a linear one, which the engine lerps in degrees, gets keys where the slerp
//! between its rotations would stray from that lerp by more than 0.045°); `localRotation` keys are quaternions already. Where the engine would throw or
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
use crate::formats::json::Located;
use crate::formats::json::path::{field, index};
use crate::formats::{Accepted, Document, Format, ReadError};
use crate::model::interpolant::Sampler;
use crate::model::interpolant::slerp_flat;
use crate::model::{Clip, Interpolation, Track, TrackKind};

/// The frame rate cubic Euler curves are sampled at.
const EULER_BAKE_FPS: f64 = 30.0;

/// Reads an anim clip (`input.bytes`, the contents of `input.file`); progress advances curve
/// by curve.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    read_inner(input).map_err(|l| l.in_file(input.file))
}

/// The numbers of the array at `path`, each finite.
fn numbers(v: Option<&Value>, path: &str) -> Result<Vec<f32>, Located> {
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new(path, "expected an array of numbers"))?;
    list.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_f64()
                .filter(|f| f.is_finite() && f.abs() <= f32::MAX as f64)
                .map(|f| f as f32)
                .ok_or_else(|| Located::new(index(path, i), format!("{x} is not a finite number")))
        })
        .collect()
}

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
    let inputs = inputs(&root)?;
    let outputs = outputs(&root)?;
    let curves = root
        .get("curves")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("curves", "expected an array of curves"))?;
    let mut steps = input.steps(curves.len());
    let mut tracks = Vec::with_capacity(curves.len());
    let mut origins = HashMap::new();
    let mut accepted = Vec::new();
    for (c, curve) in curves.iter().enumerate() {
        steps.next()?;
        let (track, origin, note) = read_curve(curve, &index("curves", c), &inputs, &outputs)?;
        accepted.extend(note);
        origins.insert(track.name.clone(), origin);
        tracks.push(track);
    }
    let name = root
        .get("name")
        .and_then(Value::as_str)
        .map_or_else(|| "clip".to_string(), str::to_string);
    let duration = root
        .get("duration")
        .and_then(Value::as_f64)
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

/// The clip's `inputs`: one array of key times each.
fn inputs(root: &Map<String, Value>) -> Result<Vec<Vec<f32>>, Located> {
    root.get("inputs")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("inputs", "expected an array of key time arrays"))?
        .iter()
        .enumerate()
        .map(|(i, v)| numbers(Some(v), &index("inputs", i)))
        .collect()
}

/// The clip's `outputs`: the components per key and the numbers of each.
fn outputs(root: &Map<String, Value>) -> Result<Vec<(usize, Vec<f32>)>, Located> {
    root.get("outputs")
        .and_then(Value::as_array)
        .ok_or_else(|| Located::new("outputs", "expected an array of {components, data}"))?
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let at = index("outputs", i);
            let components = o
                .get("components")
                .and_then(Value::as_u64)
                .filter(|&c| (1..=16).contains(&c))
                .ok_or_else(|| Located::new(field(&at, "components"), "expected 1 to 16"))?;
            Ok((
                components as usize,
                numbers(o.get("data"), &field(&at, "data"))?,
            ))
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
) -> Result<(Track, CurveOrigin, Option<Accepted>), Located> {
    let path = curve
        .get("path")
        .ok_or_else(|| Located::new(at, "missing \"path\""))?;
    let locator =
        Locator::parse(path).map_err(|r| Located::new(field(at, "path"), r.to_string()))?;
    let get_index = |key: &str, len: usize, what: &str| -> Result<usize, Located> {
        let i = curve
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| Located::new(field(at, key), "expected an index"))?
            as usize;
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
    let mut accepted = None;
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
            accepted = Some(Accepted::new(
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
        let (mut a, mut v, mut b) = (Vec::new(), Vec::new(), Vec::new());
        for key in data.chunks_exact(3 * width) {
            a.extend_from_slice(&key[..width]);
            v.extend_from_slice(&key[width..2 * width]);
            b.extend_from_slice(&key[2 * width..]);
        }
        (v, Some((a, b)))
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
    // Euler degrees → quaternions, key by key (a cubic curve sampled in Euler space first).
    let (times, degrees) = if track.interpolation == Interpolation::Bezier {
        let mut euler = track.clone();
        euler.kind = TrackKind::Vector;
        let span = times.last().copied().unwrap_or(0.0) - times.first().copied().unwrap_or(0.0);
        let frames = (span as f64 * EULER_BAKE_FPS).ceil().max(1.0) as usize;
        let first = times.first().copied().unwrap_or(0.0);
        let mut grid: Vec<f32> = (0..=frames)
            .map(|f| first + (f as f64 / EULER_BAKE_FPS) as f32)
            .filter(|&t| t <= first + span)
            .collect();
        grid.extend_from_slice(times);
        grid.sort_by(f32::total_cmp);
        grid.dedup();
        let mut sampler = Sampler::new(&euler);
        let mut buf = [0.0f64; 3];
        let mut values = Vec::with_capacity(grid.len() * 3);
        for &t in &grid {
            sampler.evaluate_f64(t as f64, &mut buf);
            values.extend(buf.iter().map(|&v| v as f32));
        }
        (grid, values)
    } else if track.interpolation == Interpolation::Linear {
        euler_lerp_keys(times, track.values.as_numbers().unwrap_or_default())
    } else {
        (
            times.to_vec(),
            track.values.as_numbers().unwrap_or_default().to_vec(),
        )
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

/// How far (degrees) a slerp between two Euler keys' rotations may stray from the engine's lerp
/// of their degrees before a key is added between them.
const EULER_LERP_TOLERANCE_DEG: f64 = 0.045;

/// Deepest split of one interval of an Euler curve.
const EULER_MAX_DEPTH: usize = 20;

/// Linear Euler keys (`times`, 3 degrees each) as keys whose rotations, slerped as the model
/// plays quaternion keys, follow the engine's lerp of the degrees within
/// [`EULER_LERP_TOLERANCE_DEG`]: intervals are split where they stray, the new key's degrees the
/// lerp's.
fn euler_lerp_keys(times: &[f32], degrees: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let euler = |k: usize| [0, 1, 2].map(|i| degrees[k * 3 + i] as f64);
    let mut out_t = Vec::with_capacity(times.len());
    let mut out_d = Vec::with_capacity(degrees.len());
    for k in 0..times.len().min(degrees.len() / 3) {
        if k > 0 {
            split_euler(
                (times[k - 1], euler(k - 1)),
                (times[k], euler(k)),
                0,
                &mut out_t,
                &mut out_d,
            );
        }
        out_t.push(times[k]);
        out_d.extend(euler(k).map(|d| d as f32));
    }
    (out_t, out_d)
}

/// Adds keys strictly between `a` and `b` (time, degrees) until the slerp follows the lerp.
fn split_euler(
    a: (f32, [f64; 3]),
    b: (f32, [f64; 3]),
    depth: usize,
    times: &mut Vec<f32>,
    degrees: &mut Vec<f32>,
) {
    if depth >= EULER_MAX_DEPTH || b.0 <= a.0.next_up() {
        return;
    }
    let lerp = |s: f64| [0, 1, 2].map(|i| a.1[i] + (b.1[i] - a.1[i]) * s);
    let (qa, qb) = (quaternion_from_euler(a.1), quaternion_from_euler(b.1));
    let strays = [0.25, 0.5, 0.75].iter().any(|&s| {
        let slerp = slerp_flat(qa, qb, s);
        angle_deg(&slerp, &quaternion_from_euler(lerp(s))) > EULER_LERP_TOLERANCE_DEG
    });
    if !strays {
        return;
    }
    let t = ((a.0 as f64 + b.0 as f64) / 2.0) as f32;
    if !(t > a.0 && t < b.0) {
        return;
    }
    let mid = (t, lerp((t as f64 - a.0 as f64) / (b.0 as f64 - a.0 as f64)));
    split_euler(a, mid, depth + 1, times, degrees);
    times.push(t);
    degrees.extend(mid.1.map(|d| d as f32));
    split_euler(mid, b, depth + 1, times, degrees);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_curve_takes_its_keys_and_names_its_place() {
        let inputs = vec![vec![0.0, 1.0]];
        let outputs = vec![(3, vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0]), (1, vec![5.0])];
        let curve =
            json!({"path": "Root.Hips/graph/localPosition", "inputIndex": 0, "outputIndex": 0});
        let (track, origin, accepted) = read_curve(&curve, "curves[0]", &inputs, &outputs).unwrap();
        assert_eq!(accepted, None);
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
        assert_eq!(none, None);
        let accepted = accepted.unwrap();
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
        assert!(accepted.is_some());
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
}
