//! Clips nobody has looked at, for the players harness: random node hierarchies with every
//! interpolation, quaternion keys in opposite hemispheres and wide turns, loops (last key equal
//! to the first, the clip running past its last key), written by clipscope in the formats it
//! reads: three.js clip JSON, glTF (a node hierarchy with STEP, LINEAR and CUBICSPLINE samplers),
//! a PlayCanvas anim clip (cubic and Euler curves, engine 2.x paths), PlayCanvas animation
//! JSON, an anim clip in the engine's `alarm-on-clip` shape (4-component Euler outputs), a
//! cubic Euler anim clip with fast turns, and the lenient shapes of [`super::lenient`].

use std::path::{Path, PathBuf};

use crate::test_support::rng::Rng;
use clipscope_core::formats::{Document, Format, WriteOptions, write_file};
use clipscope_core::model::{
    Bone, Clip, HandleSide, Interpolation, Skeleton, Tangents, Track, TrackKind,
};

/// A number in `[lo, hi)`.
fn range(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.unit_f32()
}

/// A random unit quaternion about a random axis, turned `degrees` from the identity.
fn rotation(rng: &mut Rng, degrees: f32) -> [f32; 4] {
    let axis = [
        range(rng, -1.0, 1.0),
        range(rng, -1.0, 1.0),
        range(rng, -1.0, 1.0),
    ];
    let len = axis.iter().map(|a| a * a).sum::<f32>().sqrt().max(1e-3);
    let h = degrees.to_radians() / 2.0;
    let s = h.sin() / len;
    [axis[0] * s, axis[1] * s, axis[2] * s, h.cos()]
}

/// `a · b` (rotation `b` then `a`).
fn multiply(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Sorted key times over `[start, end]`, `n` of them, some close together.
fn times(rng: &mut Rng, n: usize, start: f32, end: f32) -> Vec<f32> {
    let mut t: Vec<f32> = (0..n)
        .map(|i| start + (end - start) * (i as f32 + 0.5 * rng.unit_f32()) / n as f32)
        .collect();
    t[0] = start;
    t.sort_by(f32::total_cmp);
    t.dedup();
    t
}

/// Random bezier handles for every key of `track`, anywhere inside their interval.
fn handles(rng: &mut Rng, track: &Track) -> Tangents {
    let vs = track.value_size();
    let n = track.len();
    let values = track.values.as_numbers().unwrap();
    let mut t = Tangents::new(vec![0.0; n * vs * 2], vec![0.0; n * vs * 2]);
    for k in 0..n {
        let tk = track.times[k] as f64;
        let before = if k > 0 {
            tk - track.times[k - 1] as f64
        } else {
            0.3
        };
        let after = if k + 1 < n {
            track.times[k + 1] as f64 - tk
        } else {
            0.3
        };
        for c in 0..vs {
            let v = values[k * vs + c] as f64;
            let slope = range(rng, -2.0, 2.0) as f64;
            let a = before * range(rng, 0.1, 0.9) as f64;
            let b = after * range(rng, 0.1, 0.9) as f64;
            t.set_point(HandleSide::In, k, c, vs, (tk - a, v - slope * a));
            t.set_point(HandleSide::Out, k, c, vs, (tk + b, v + slope * b));
        }
    }
    t
}

/// A track of `kind` on `name` with `n` keys and `interpolation`.
fn track(
    rng: &mut Rng,
    name: &str,
    kind: TrackKind,
    interpolation: Interpolation,
    keys: &[f32],
    looped: bool,
) -> Track {
    let n = keys.len();
    let values: Vec<f32> = match kind {
        TrackKind::Quaternion => {
            let angle = range(rng, 0.0, 90.0);
            let mut q = rotation(rng, angle);
            let mut out = Vec::new();
            for k in 0..n {
                // Wide turns between keys (up to 170°), and every other key's sign flipped.
                let angle = range(rng, 2.0, 170.0);
                q = multiply(rotation(rng, angle), q);
                let sign = if rng.unit_f32() < 0.5 { -1.0 } else { 1.0 };
                out.extend(q.map(|c| c * sign));
                if k == 0 && looped {
                    continue;
                }
            }
            out
        }
        _ => {
            let size = if name.ends_with("morphTargetInfluences[0]") {
                1
            } else {
                3
            };
            let scale = name.ends_with(".scale");
            (0..n * size)
                .map(|_| {
                    if scale {
                        range(rng, 0.5, 2.0)
                    } else {
                        range(rng, -3.0, 3.0)
                    }
                })
                .collect()
        }
    };
    let mut values = values;
    let size = values.len() / n;
    if looped && n > 2 {
        let first = values[..size].to_vec();
        values[(n - 1) * size..].copy_from_slice(&first);
    }
    let mut t = Track::numeric(name, kind, keys.to_vec(), values);
    t.interpolation = interpolation;
    if interpolation == Interpolation::Bezier {
        t.tangents = Some(handles(rng, &t));
    }
    t
}

/// A random clip on `nodes`: each node moves, turns and scales with a random interpolation.
fn clip(rng: &mut Rng, name: &str, nodes: &[String], bones: bool) -> Clip {
    let duration = range(rng, 0.8, 2.5);
    let looped = rng.unit_f32() < 0.5;
    let mut tracks = Vec::new();
    for node in nodes {
        let prefix = if bones {
            format!(".bones[{node}]")
        } else {
            node.clone()
        };
        for (property, kind) in [
            ("position", TrackKind::Vector),
            ("quaternion", TrackKind::Quaternion),
            ("scale", TrackKind::Vector),
        ] {
            if rng.unit_f32() < 0.2 {
                continue;
            }
            let modes: &[Interpolation] = if kind == TrackKind::Quaternion {
                &[
                    Interpolation::Linear,
                    Interpolation::Discrete,
                    Interpolation::Linear,
                ]
            } else {
                &Interpolation::ALL
            };
            let mode = modes[(rng.next_u64() % modes.len() as u64) as usize];
            let n = 2 + (rng.next_u64() % 6) as usize;
            // Some tracks start late or end early; a loop ends with the clip.
            let start = if rng.unit_f32() < 0.3 {
                range(rng, 0.0, 0.3)
            } else {
                0.0
            };
            let end = if looped || rng.unit_f32() < 0.6 {
                duration
            } else {
                range(rng, 0.5, 1.0) * duration
            };
            let keys = times(rng, n, start, end.max(start + 0.2));
            let name = format!("{prefix}.{property}");
            tracks.push(track(rng, &name, kind, mode, &keys, looped));
        }
    }
    // A clip that runs past its last key holds the last values.
    let duration = if looped { duration } else { duration + 0.25 };
    let mut clip = Clip::new(name, duration as f64, tracks);
    clip.uuid = None;
    clip
}

/// A random hierarchy of `n` bones (each parented to an earlier one, or a root).
fn skeleton(rng: &mut Rng, n: usize) -> Skeleton {
    let bones = (0..n)
        .map(|i| {
            let parent =
                (i > 0 && rng.unit_f32() < 0.8).then(|| (rng.next_u64() % i as u64) as usize);
            let mut b = Bone::new(format!("joint{i}"), parent);
            b.position = [range(rng, -1.0, 1.0), range(rng, 0.0, 1.0), 0.0];
            b
        })
        .collect();
    Skeleton { bones }
}

/// Writes the generated sources into `dir` (seeded: the same files every run) and returns them.
pub fn write_sources(dir: &Path, seed: u64) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut write = |doc: &Document, name: &str| {
        let path = dir.join(name);
        write_file(doc, &path, &WriteOptions::default()).unwrap();
        out.push(path);
    };
    // three.js clips on named nodes, two clips per file.
    for i in 0..3 {
        let nodes: Vec<String> = (0..3).map(|n| format!("node{i}_{n}")).collect();
        let clips = vec![
            clip(&mut rng, &format!("take{i}"), &nodes, false),
            clip(&mut rng, &format!("take{i}b"), &nodes, false),
        ];
        write(
            &Document::new(Format::ThreeJs, clips),
            &format!("generated{i}.threejs.json"),
        );
    }
    // glTF node hierarchies (written as glTF by clipscope: STEP, LINEAR, CUBICSPLINE).
    for i in 0..2 {
        let sk = skeleton(&mut rng, 4 + i);
        let names: Vec<String> = sk.bones.iter().map(|b| b.name.clone()).collect();
        let mut doc = Document::new(
            Format::Gltf,
            vec![clip(&mut rng, &format!("gltf{i}"), &names, false)],
        );
        doc.skeleton = Some(sk);
        write(&doc, &format!("generated{i}.gltf"));
    }
    // A PlayCanvas anim clip and a PlayCanvas animation (one clip each).
    let nodes: Vec<String> = (0..3).map(|n| format!("pc{n}")).collect();
    let anim = Document::new(
        Format::PlayCanvasAnim,
        vec![clip(&mut rng, "anim", &nodes, false)],
    );
    write(&anim, "generated.anim.json");
    let legacy = Document::new(
        Format::PlayCanvas,
        vec![clip(&mut rng, "legacy", &nodes, false)],
    );
    write(&legacy, "generated.playcanvas.json");
    // An anim clip in the engine's own example shape (`alarm-on-clip`): 4 numbers per
    // `localEulerAngles` key, the 4th unused, beside a 4-component localPosition output.
    let mut data = Vec::new();
    let mut positions = Vec::new();
    for _ in 0..5 {
        data.extend([range(&mut rng, -60.0, 60.0), range(&mut rng, -80.0, 80.0)]);
        data.extend([range(&mut rng, -170.0, 170.0), range(&mut rng, -1.0, 1.0)]);
        positions.extend([0.0, range(&mut rng, 0.0, 2.0), 0.0, 1.0]);
    }
    let alarm = serde_json::json!({
        "name": "alarm-on",
        "duration": 1.0,
        "inputs": [[0.0, 0.2, 0.45, 0.7, 1.0]],
        "outputs": [{"components": 4, "data": data}, {"components": 4, "data": positions}],
        "curves": [
            {"path": {"entityPath": ["alarm", "bell"], "component": "entity",
                      "propertyPath": ["localEulerAngles"]},
             "inputIndex": 0, "outputIndex": 0, "interpolation": 1},
            {"path": {"entityPath": ["alarm", "bell"], "component": "entity",
                      "propertyPath": ["localPosition"]},
             "inputIndex": 0, "outputIndex": 1, "interpolation": 1}
        ]
    });
    let path = dir.join("generated.alarm-on-clip.json");
    std::fs::write(&path, serde_json::to_vec(&alarm).unwrap()).unwrap();
    out.push(path);
    // A cubic localEulerAngles curve with fast turns (up to ~300° between keys 0.1–0.3 s
    // apart, steep tangents): the engine evaluates the Hermite in degrees, then turns it.
    let times = [0.0f32, 0.15, 0.45, 0.55, 0.85, 1.0];
    let mut data = Vec::new();
    for _ in times {
        for _ in 0..3 {
            data.push(range(&mut rng, -900.0, 900.0)); // in-tangent (degrees per second)
        }
        data.extend([range(&mut rng, -80.0, 80.0), range(&mut rng, -300.0, 300.0)]);
        data.push(range(&mut rng, -170.0, 170.0));
        for _ in 0..3 {
            data.push(range(&mut rng, -900.0, 900.0)); // out-tangent
        }
    }
    let cubic = serde_json::json!({
        "name": "cubic-euler",
        "duration": 1.0,
        "inputs": [times],
        "outputs": [{"components": 3, "data": data}],
        "curves": [
            {"path": {"entityPath": ["rig", "spinner"], "component": "entity",
                      "propertyPath": ["localEulerAngles"]},
             "inputIndex": 0, "outputIndex": 0, "interpolation": 2}
        ]
    });
    let path = dir.join("generated.cubic-euler.anim.json");
    std::fs::write(&path, serde_json::to_vec(&cubic).unwrap()).unwrap();
    out.push(path);
    super::lenient::write_sources(dir, &mut rng, &mut out);
    out
}
