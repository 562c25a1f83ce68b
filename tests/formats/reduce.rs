//! Lossy reduction with a guaranteed world-space error (`clipscope reduce`), checked with an
//! evaluator that shares no code with the reducer (`benches/support/world_error.rs`, and the
//! local measures below): random hierarchies and clips with every interpolation, sign flips,
//! constant and near-constant tracks and loops; the synthetic mocap take in every format.

use std::path::Path;
use std::process::Command;

use clipscope_core::formats::{self, Curves, Format, WriteOptions};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::ops::reduce::{CurveFit, ReduceOptions, Reduced, reduce_clip};
use clipscope_core::model::{
    Bone, Clip, Interpolation, Skeleton, Tangents, Track, TrackKind, Values,
};

use crate::mocap;
use crate::test_support::Rng;
use crate::world_error::world_error;

/// A number in `[lo, hi)`.
fn range(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.unit_f32() as f64
}

/// A random unit quaternion.
fn random_quaternion(rng: &mut Rng) -> [f64; 4] {
    let q = [
        range(rng, -1.0, 1.0),
        range(rng, -1.0, 1.0),
        range(rng, -1.0, 1.0),
        range(rng, -1.0, 1.0),
    ];
    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-9);
    q.map(|x| x / n)
}

/// A random skeleton of `n` bones: random parents, offsets, rest rotations and (sometimes
/// non-uniform) scales.
pub(crate) fn random_skeleton(rng: &mut Rng, n: usize) -> Skeleton {
    let bones = (0..n)
        .map(|i| {
            let parent = (i > 0).then(|| (rng.next_u64() % i as u64) as usize);
            let mut b = Bone::new(format!("b{i}"), parent);
            b.position = [0, 1, 2].map(|_| range(rng, -0.4, 0.4) as f32);
            b.rotation = random_quaternion(rng).map(|x| x as f32);
            b.scale = match rng.next_u64() % 5 {
                0 => [0, 1, 2].map(|_| range(rng, 0.5, 1.8) as f32),
                1 => [range(rng, 0.5, 1.8) as f32; 3],
                _ => [1.0; 3],
            };
            b
        })
        .collect();
    Skeleton { bones }
}

/// Key times: `frames` increasing times, some evenly spaced, some not.
fn random_times(rng: &mut Rng, frames: usize) -> Vec<f32> {
    let even = rng.next_u64().is_multiple_of(2);
    let mut t = 0.0f64;
    (0..frames)
        .map(|_| {
            let now = t as f32;
            t += if even {
                1.0 / 30.0
            } else {
                range(rng, 0.01, 0.08)
            };
            now
        })
        .collect()
}

/// Sets a random interpolation on `track`: linear (most), smooth, bezier with random handles
/// at the thirds or off them, or discrete.
fn random_interpolation(rng: &mut Rng, track: &mut Track) {
    let vs = track.value_size();
    match rng.next_u64() % 8 {
        0 if track.kind != TrackKind::Quaternion => track.interpolation = Interpolation::Smooth,
        1 => track.interpolation = Interpolation::Discrete,
        2 | 3 => {
            let n = track.len();
            let values = track.values.as_numbers().unwrap().to_vec();
            let mut ins = vec![0.0f32; n * vs * 2];
            let mut outs = vec![0.0f32; n * vs * 2];
            for k in 0..n {
                let t = track.times[k];
                let before = if k > 0 { t - track.times[k - 1] } else { 0.03 };
                let after = if k + 1 < n {
                    track.times[k + 1] - t
                } else {
                    0.03
                };
                let off = rng.next_u64().is_multiple_of(2);
                for c in 0..vs {
                    let v = values[k * vs + c];
                    let slope = range(rng, -2.0, 2.0) as f32
                        * if track.kind == TrackKind::Quaternion {
                            0.1
                        } else {
                            1.0
                        };
                    let (bi, ai) = if off {
                        (before * 0.6, after * 0.2)
                    } else {
                        (before / 3.0, after / 3.0)
                    };
                    ins[(k * vs + c) * 2] = t - bi;
                    ins[(k * vs + c) * 2 + 1] = v - slope * bi;
                    outs[(k * vs + c) * 2] = t + ai;
                    outs[(k * vs + c) * 2 + 1] = v + slope * ai;
                }
            }
            track.interpolation = Interpolation::Bezier;
            track.tangents = Some(Tangents::new(ins, outs));
        }
        _ => {}
    }
}

/// A random clip on `skeleton`: rotations (smooth swings, capture noise, sign flips, constant
/// or near-constant), some translations and scales, a morph weight, an opacity and a
/// visibility flag; every track looping (its first and last keys equal) when `looping`.
pub(crate) fn random_clip(rng: &mut Rng, skeleton: &Skeleton, looping: bool) -> Clip {
    let frames = 20 + (rng.next_u64() % 80) as usize;
    let times = random_times(rng, frames);
    let mut tracks = Vec::new();
    for bone in &skeleton.bones {
        let kind = rng.next_u64() % 6;
        if kind == 5 {
            continue;
        }
        let (f, a, noise) = (
            range(rng, 0.2, 3.0),
            range(rng, 0.0, 1.2),
            range(rng, 0.0, 0.01),
        );
        let base = random_quaternion(rng);
        let mut values = Vec::with_capacity(frames * 4);
        for (k, &t) in times.iter().enumerate() {
            let angle = match kind {
                0 => 0.0,                   // constant
                1 => 1e-7 * (k % 3) as f64, // near-constant
                _ => a * (f * t as f64).sin() + noise * range(rng, -1.0, 1.0),
            };
            let half = angle / 2.0;
            let swing = [half.sin() * 0.6, half.sin() * 0.8, 0.0, half.cos()];
            let mut q = multiply(base, swing);
            if kind == 4 && rng.next_u64().is_multiple_of(3) {
                q = q.map(|x| -x); // the same rotation, the other sign
            }
            values.extend(q.map(|x| x as f32));
        }
        let mut track = Track::numeric(
            format!("{}.quaternion", bone.name),
            TrackKind::Quaternion,
            times.clone(),
            values,
        );
        random_interpolation(rng, &mut track);
        tracks.push(track);
        if rng.next_u64().is_multiple_of(3) {
            let mut values = Vec::new();
            for &t in &times {
                let w = range(rng, 0.5, 4.0) * t as f64;
                values.extend([
                    bone.position[0] + (0.1 * w.sin()) as f32,
                    bone.position[1] + (0.05 * w.cos()) as f32,
                    bone.position[2],
                ]);
            }
            let mut track = Track::numeric(
                format!("{}.position", bone.name),
                TrackKind::Vector,
                times.clone(),
                values,
            );
            random_interpolation(rng, &mut track);
            tracks.push(track);
        }
        if rng.next_u64().is_multiple_of(6) {
            let mut values = Vec::new();
            for &t in &times {
                let s = 1.0 + 0.2 * (2.0 * t as f64).sin();
                values.extend([s as f32, (s * 0.9) as f32, 1.0]);
            }
            let mut track = Track::numeric(
                format!("{}.scale", bone.name),
                TrackKind::Vector,
                times.clone(),
                values,
            );
            random_interpolation(rng, &mut track);
            tracks.push(track);
        }
    }
    let weights: Vec<f32> = times
        .iter()
        .map(|&t| (0.5 + 0.5 * (3.0 * t as f64).sin()) as f32)
        .collect();
    tracks.push(Track::numeric(
        ".morphTargetInfluences[smile]",
        TrackKind::Number,
        times.clone(),
        weights,
    ));
    let opacity: Vec<f32> = times.iter().map(|&t| (t * 0.1).min(1.0)).collect();
    tracks.push(Track::numeric(
        "b0.material.opacity",
        TrackKind::Number,
        times.clone(),
        opacity,
    ));
    tracks.push(Track::new(
        "b0.visible",
        TrackKind::Bool,
        times.clone(),
        Values::Bools((0..frames).map(|k| k % 7 < 4).collect()),
    ));
    if looping {
        for track in &mut tracks {
            let vs = track.value_size();
            let n = track.len();
            if let Values::Numbers(v) = &mut track.values {
                let first: Vec<f32> = v[..vs].to_vec();
                v[(n - 1) * vs..].copy_from_slice(&first);
            }
            if let Some(t) = &mut track.tangents {
                t.in_tangents.truncate(0);
                t.out_tangents.truncate(0);
                track.tangents = None;
                track.interpolation = Interpolation::Linear;
            }
        }
    }
    let duration = times.last().copied().unwrap_or(0.0) as f64;
    Clip::new("random", duration, tracks)
}

/// The Hamilton product of two quaternions (x, y, z, w).
fn multiply(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1],
        a[1] * b[3] + a[3] * b[1] + a[2] * b[0] - a[0] * b[2],
        a[2] * b[3] + a[3] * b[2] + a[0] * b[1] - a[1] * b[0],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// The largest absolute difference of two tracks' values at every key time of `a` and every
/// midpoint (both sampled with the model's interpolants).
fn track_difference(a: &Track, b: &Track) -> f64 {
    let mut times: Vec<f64> = a.times.iter().map(|&t| t as f64).collect();
    let mids: Vec<f64> = a
        .times
        .windows(2)
        .map(|w| (w[0] as f64 + w[1] as f64) / 2.0)
        .collect();
    times.extend(mids);
    let (mut sa, mut sb) = (Sampler::new(a), Sampler::new(b));
    let mut worst: f64 = 0.0;
    for t in times {
        if let (Values::Numbers(x), Values::Numbers(y)) = (sa.evaluate(t), sb.evaluate(t)) {
            for (p, q) in x.iter().zip(&y) {
                worst = worst.max((p - q).abs() as f64);
            }
        }
    }
    worst
}

/// Checks `reduced` against `clip` on `skeleton` for `options`: the world budget (measured
/// independently), never more keys than the lossless optimize, loops kept, constant tracks as
/// one key, weights and numbers within their tolerances, flags untouched.
fn check(
    clip: &Clip,
    reduced: &Reduced,
    skeleton: &Skeleton,
    options: &ReduceOptions,
    context: &str,
) {
    let shells: Vec<Option<f64>> = reduced.report.nodes.iter().map(|n| n.shell).collect();
    let reduced = &reduced.clip;
    let m = world_error(clip, reduced, skeleton, &shells);
    assert!(
        m.distance <= options.max_error * (1.0 + 1e-6),
        "{context}: measured {} > budget {} at joint {:?}",
        m.distance,
        options.max_error,
        m.worst
    );
    if let Some(a) = options.max_angle {
        assert!(
            m.angle_deg <= a.to_degrees() * (1.0 + 1e-4) + 1e-6,
            "{context}: angle {}°",
            m.angle_deg
        );
    }
    for (a, b) in clip.tracks.iter().zip(&reduced.tracks) {
        assert_eq!(a.name, b.name);
        let mut lossless = a.clone();
        if matches!(
            a.interpolation,
            Interpolation::Linear | Interpolation::Discrete
        ) {
            lossless.optimize();
        }
        assert!(
            b.len() <= lossless.len(),
            "{context}: {} kept {} keys, optimize keeps {}",
            a.name,
            b.len(),
            lossless.len()
        );
        if a.kind == TrackKind::Bool {
            assert_eq!(b, &lossless, "{context}: {} is lossless only", a.name);
        }
        if a.name.contains("morphTargetInfluences") {
            assert!(
                track_difference(a, b) <= options.weight_error * (1.0 + 1e-6),
                "{context}: {}",
                a.name
            );
        }
        if a.name.ends_with("opacity") {
            assert!(
                track_difference(a, b) <= options.number_error * (1.0 + 1e-6),
                "{context}: {}",
                a.name
            );
        }
        // A loop keeps its ends equal.
        let vs = a.value_size();
        if let (Some(va), Some(vb)) = (a.values.as_numbers(), b.values.as_numbers())
            && va[..vs] == va[va.len() - vs..]
        {
            assert_eq!(vb[..vs], vb[vb.len() - vs..], "{context}: {} loops", a.name);
        }
    }
}

#[test]
fn the_budget_holds_on_random_hierarchies_and_clips() {
    let mut rng = Rng::new(0x005E_ED14);
    let cases: usize = std::env::var("REDUCE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for case in 0..cases {
        let joints = 3 + (rng.next_u64() % 14) as usize;
        let skeleton = random_skeleton(&mut rng, joints);
        let looping = case % 4 == 0;
        let clip = random_clip(&mut rng, &skeleton, looping);
        let budget = [0.0005, 0.003, 0.02, 0.1][case % 4];
        let curves = if case % 2 == 0 {
            CurveFit::Linear
        } else {
            CurveFit::Cubic {
                flat_where_level: case % 3 == 0,
            }
        };
        let options = ReduceOptions {
            max_error: budget,
            max_angle: (case % 5 == 0).then(|| 1.5f64.to_radians()),
            curves,
            ..ReduceOptions::default()
        };
        let reduced = reduce_clip(&clip, Some(&skeleton), &options);
        let context = format!(
            "case {case} ({joints} joints, budget {budget}, {curves:?}, reported {:?} at {:?})",
            reduced.report.max_error, reduced.report.worst
        );
        check(&clip, &reduced, &skeleton, &options, &context);
        assert!(reduced.report.world, "{context}");
        assert!(
            reduced.report.max_error <= budget,
            "{context}: {:?}",
            reduced.report.max_error
        );
        // Constant tracks end as one key.
        for (a, b) in clip.tracks.iter().zip(&reduced.clip.tracks) {
            let values = a.values.as_numbers().unwrap_or(&[]);
            let vs = a.value_size().max(1);
            if a.kind.is_numeric()
                && matches!(
                    a.interpolation,
                    Interpolation::Linear | Interpolation::Smooth
                )
                && values.chunks(vs).all(|v| v == &values[..vs])
            {
                assert_eq!(b.len(), 1, "{context}: {} is constant", a.name);
            }
        }
    }
}

#[test]
fn without_a_skeleton_each_track_is_bounded_in_its_own_space() {
    let mut rng = Rng::new(77);
    let skeleton = random_skeleton(&mut rng, 8);
    let clip = random_clip(&mut rng, &skeleton, false);
    let options = ReduceOptions {
        max_error: 0.005,
        curves: CurveFit::Cubic {
            flat_where_level: false,
        },
        ..ReduceOptions::default()
    };
    let reduced = reduce_clip(&clip, None, &options);
    assert!(!reduced.report.world);
    for (a, b) in clip.tracks.iter().zip(&reduced.clip.tracks) {
        if a.name.ends_with(".position") {
            // Distance in the node's own space.
            let d = track_distance(a, b);
            assert!(d <= options.max_error * (1.0 + 1e-6), "{}: {d}", a.name);
        }
        if a.name.ends_with(".quaternion") {
            // The 3 cm axis points move by at most the budget: angle · 3 cm.
            let angle = track_angle(a, b);
            assert!(
                angle * options.axis_length <= options.max_error * (1.0 + 1e-4),
                "{}: {angle} rad",
                a.name
            );
        }
    }
    assert!(reduced.report.keys_after < reduced.report.keys_before);
}

/// The largest distance between two vector tracks at every key time of `a` and midpoint.
fn track_distance(a: &Track, b: &Track) -> f64 {
    sample_both(a, b)
        .map(|(x, y)| {
            x.iter()
                .zip(&y)
                .map(|(p, q)| ((p - q) as f64).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max)
}

/// The largest angle between two quaternion tracks (normalized; either sign) at every key
/// time of `a` and midpoint, plus how far `b` strays from unit length (which scales).
fn track_angle(a: &Track, b: &Track) -> f64 {
    sample_both(a, b)
        .map(|(x, y)| {
            let nx = x.iter().map(|v| (*v as f64).powi(2)).sum::<f64>().sqrt();
            let ny2 = y.iter().map(|v| (*v as f64).powi(2)).sum::<f64>();
            let dot: f64 = x.iter().zip(&y).map(|(p, q)| *p as f64 * *q as f64).sum();
            let c = (dot / (nx * ny2.sqrt())).abs().min(1.0);
            2.0 * c.acos() + (1.0 - ny2).abs()
        })
        .fold(0.0, f64::max)
}

/// Both tracks' values at every key time of `a` and every midpoint.
fn sample_both<'a>(a: &'a Track, b: &'a Track) -> impl Iterator<Item = (Vec<f32>, Vec<f32>)> + 'a {
    let mut times: Vec<f64> = a.times.iter().map(|&t| t as f64).collect();
    times.extend(
        a.times
            .windows(2)
            .map(|w| (w[0] as f64 + w[1] as f64) / 2.0),
    );
    let (mut sa, mut sb) = (Sampler::new(a), Sampler::new(b));
    times
        .into_iter()
        .filter_map(move |t| match (sa.evaluate(t), sb.evaluate(t)) {
            (Values::Numbers(x), Values::Numbers(y)) => Some((x, y)),
            _ => None,
        })
}

/// The shell radius a `reduce --json` report gives each bone of `skeleton` (by name).
pub fn shells_by_bone(report: &serde_json::Value, skeleton: &Skeleton) -> Vec<Option<f64>> {
    let nodes = report["clips"][0]["nodes"].as_array().unwrap();
    skeleton
        .bones
        .iter()
        .map(|b| {
            nodes
                .iter()
                .find(|n| n["name"] == b.name.as_str())
                .and_then(|n| n["shell"].as_f64())
        })
        .collect()
}

#[test]
fn the_mocap_take_keeps_its_budget_in_every_format_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton = mocap::skeleton();
    // A model file with the skeleton, for formats without one (--skeleton).
    let model = dir.path().join("model.glb");
    formats::write_file(
        &mocap::document(1.0, 1, Format::Glb),
        &model,
        &WriteOptions::default(),
    )
    .unwrap();
    for format in [
        Format::Glb,
        Format::Gltf,
        Format::ThreeJs,
        Format::ThreeJsLegacy,
        Format::PlayCanvas,
    ] {
        let input = dir
            .path()
            .join(format!("walk.{}.{}", format.name(), format.extension()));
        formats::write_file(
            &mocap::document(6.0, 3, format),
            &input,
            &WriteOptions::default(),
        )
        .unwrap();
        let original = formats::read_file(&input).unwrap();
        let out = dir
            .path()
            .join(format!("reduced.{}.{}", format.name(), format.extension()));
        let mut command = Command::new(env!("CARGO_BIN_EXE_clipscope"));
        command.args(["reduce"]).arg(&input).arg("-o").arg(&out);
        command.args(["--max-error", "0.01", "--json"]);
        if original.skeleton.is_none() {
            command.arg("--skeleton").arg(&model);
        }
        let result = command.output().unwrap();
        assert!(
            result.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
        let back = formats::read_file(&out).unwrap();
        assert_eq!(back.format, format);
        let shells = shells_by_bone(&report, &skeleton);
        let m = world_error(&original.clips[0], &back.clips[0], &skeleton, &shells);
        assert!(m.distance <= 0.01, "{format}: measured {}", m.distance);
        let before = report["keys_before"].as_u64().unwrap();
        let after = report["keys_after"].as_u64().unwrap();
        // Straight segments need more keys than curves for the same walk.
        let linear = format.spec().curves == Curves::Linear;
        let kept = if linear { 0.6 } else { 0.5 };
        assert!(
            (after as f64) < kept * before as f64,
            "{format}: {before} → {after}"
        );
        assert!(report["max_error"].as_f64().unwrap() <= 0.01, "{format}");
        assert!(report["worst"]["node"].is_string(), "{format}: {report}");
        assert!(report["world"].as_bool().unwrap(), "{format}");
        let _ = Path::new(&out);
    }
}
