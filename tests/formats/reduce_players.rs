//! `clipscope reduce` measured by the players themselves: every reduced file is loaded by
//! three.js r187 (GLTFLoader, AnimationMixer, every node's world matrix, every skinned vertex)
//! or lottie-web (every layer's content through its parents) in `tests/conformance/
//! measure_error.mjs`, and the error they see must stay within the budget `reduce` was given and
//! match the error `reduce` reported. None of the reducer's code takes part in the measure.
//!
//! Files: a humanoid laid out like a Mixamo export with static end bones, random hierarchies
//! with static leaves, the shared glTF and Lottie samples, generated Lottie compositions with
//! parented, auto-oriented, split-position and 3D layers.

use std::path::{Path, PathBuf};
use std::process::Command;

use clipscope_core::formats::{self, Document, Format, WriteOptions};
use serde_json::Value;

use crate::common::node_package;
use crate::mocap;
use crate::skinned_character::{self, Character};

/// Runs `clipscope reduce INPUT -o OUT --max-error BUDGET --json` with `extra` arguments and
/// returns its report.
pub fn reduce(input: &Path, out: &Path, budget: f64, extra: &[&str]) -> Value {
    let result = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("reduce")
        .arg(input)
        .arg("-o")
        .arg(out)
        .args(["--max-error", &budget.to_string(), "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}: {}",
        input.display(),
        String::from_utf8_lossy(&result.stderr)
    );
    serde_json::from_slice(&result.stdout).unwrap()
}

/// The shell radii a `reduce --json` report gives its nodes, as `measure_error.mjs --shells`
/// reads them: `{name: radius}`.
fn shells(report: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for clip in report["clips"].as_array().unwrap() {
        for node in clip["nodes"].as_array().unwrap() {
            if let Some(r) = node["shell"].as_f64() {
                out.insert(node["name"].as_str().unwrap().to_string(), r.into());
            }
        }
    }
    Value::Object(out)
}

/// What the player measures between `original` and `changed` (`measure_error.mjs`'s JSON),
/// with the shell points of `report` and the time of its worst error when given; `None` (after
/// a SKIPPED line) without node.
pub fn measure(original: &Path, changed: &Path, report: Option<&Value>) -> Option<Value> {
    let conformance = node_package("three")?;
    node_package("lottie-web")?;
    let mut command = Command::new("node");
    command
        .arg(conformance.join("measure_error.mjs"))
        .arg(original)
        .arg(changed)
        .current_dir(&conformance);
    let shells_file = changed.with_extension("shells.json");
    if let Some(report) = report {
        std::fs::write(&shells_file, shells(report).to_string()).unwrap();
        command.arg("--shells").arg(&shells_file);
        // The player checks the reported error where the reduction found it too.
        if let Some(time) = report["worst"]["time"].as_f64() {
            command.arg("--times").arg(time.to_string());
        }
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "measure_error.mjs {}: {}",
        changed.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

/// The largest error of a kind of point in a measurement (0 when none was measured).
fn kind(measured: &Value, kind: &str) -> f64 {
    measured[kind]["error"].as_f64().unwrap_or(0.0)
}

/// Writes `doc` to `dir/name` and returns the path.
fn write(doc: &Document, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    formats::write_file(doc, &path, &WriteOptions::default()).unwrap();
    path
}

/// Reduces `input` at `budget` and checks it with the player: within the budget, and the
/// reported error the player's (the largest over nodes and vertices, or nodes and shells in a
/// file without meshes) to `slack`.
/// Returns (reported, measured, report).
fn reduce_and_measure(
    input: &Path,
    dir: &Path,
    budget: f64,
    slack: f64,
    extra: &[&str],
) -> Option<(f64, Value, Value)> {
    let stem = input.file_stem().unwrap().to_string_lossy().to_string();
    let ext = input.extension().unwrap().to_string_lossy().to_string();
    let out = dir.join(format!("{stem}.reduced{budget}.{ext}"));
    let report = reduce(input, &out, budget, extra);
    let measured = measure(input, &out, Some(&report))?;
    let reported = report["max_error"].as_f64().unwrap();
    let seen = measured["seen"].as_f64().unwrap();
    let context = format!(
        "{} at {budget}: reported {reported} ({}), player {seen} ({})",
        input.display(),
        report["worst"],
        measured["worst"]
    );
    eprintln!(
        "{context}; keys {} → {}",
        report["keys_before"], report["keys_after"]
    );
    assert!(seen <= budget, "{context}: over the budget");
    assert!(reported <= budget, "{context}");
    assert!(
        (reported - seen).abs() <= slack,
        "{context}: the reported error is not the player's"
    );
    Some((reported, measured, report))
}

#[test]
fn a_humanoid_with_end_bones_keeps_the_budget_where_three_js_looks() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        &mocap::document(8.0, 11, Format::Glb),
        dir.path(),
        "humanoid.glb",
    );
    for budget in [0.01, 0.02, 0.05] {
        let Some((_, measured, report)) = reduce_and_measure(&input, dir.path(), budget, 2e-5, &[])
        else {
            return;
        };
        // Every node counts: the five end bones are in the tree and measured by three.js.
        let nodes: Vec<&str> = report["clips"][0]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap())
            .collect();
        for (end, _, _) in mocap::END_BONES {
            assert!(nodes.contains(&end), "{end} missing from {nodes:?}");
        }
        let head_top = kind(&measured, "nodes");
        assert!(head_top <= budget, "{measured}");
        assert!(report["keys_after"].as_u64() < report["keys_before"].as_u64());
    }
}

#[test]
fn a_skinned_character_keeps_the_budget_at_every_vertex_three_js_skins() {
    let dir = tempfile::tempdir().unwrap();
    let characters = [
        ("tall", Character::default()),
        (
            "mixamo_like",
            Character {
                height: 1.8,
                radius: 0.15,
                joints: 5,
                scale: 0.01,
                seed: 3,
                ..Character::default()
            },
        ),
        (
            "two_joints",
            Character {
                height: 12.0,
                radius: 1.5,
                joints: 2,
                swing: 0.9,
                seed: 11,
                ..Character::default()
            },
        ),
    ];
    for (name, character) in characters {
        let input = dir.path().join(format!("{name}.gltf"));
        std::fs::write(&input, skinned_character::gltf(&character).to_string()).unwrap();
        character_within(&input, dir.path(), character.height, &[]);
    }
}

#[test]
fn a_packed_skinned_character_keeps_the_budget_at_every_vertex_three_js_skins() {
    let dir = tempfile::tempdir().unwrap();
    let character = Character::default();
    let input = dir.path().join("tall.gltf");
    std::fs::write(&input, skinned_character::gltf(&character).to_string()).unwrap();
    if let Ok(keep) = std::env::var("CLIPSCOPE_KEEP_CHARACTER") {
        std::fs::copy(&input, keep).unwrap();
    }
    character_within(
        &input,
        dir.path(),
        character.height,
        &["--quantize", "--meshopt"],
    );
}

/// Reduces the character at `input` at budgets in proportion to its `height` (with `extra`
/// arguments) and checks every vertex three.js skins.
fn character_within(input: &Path, dir: &Path, height: f32, extra: &[&str]) {
    for budget in [0.01 * height as f64, 0.002 * height as f64] {
        let Some((reported, measured, report)) =
            reduce_and_measure(input, dir, budget, 1e-4 * budget.max(1.0), extra)
        else {
            return;
        };
        // The vertices are where the error is: three.js's skinning of every vertex is the
        // largest error, and the report names a vertex of the cylinder.
        let vertices = kind(&measured, "vertices");
        assert!(vertices <= budget, "{measured}");
        assert!(
            (reported - vertices.max(kind(&measured, "nodes"))).abs() <= 1e-4 * budget.max(1.0),
            "{report} {measured}"
        );
        assert!(report["keys_after"].as_u64() < report["keys_before"].as_u64());
    }
}

/// The shared files the players can load, reduced at a budget in their own units (glTF:
/// metres; Lottie: composition pixels).
const SHARED: [(&str, f64); 13] = [
    ("gltf/AnimatedTriangle.gltf", 0.01),
    ("gltf/BoxAnimated.gltf", 0.01),
    ("gltf/SimpleMorph.gltf", 0.01),
    ("gltf/SimpleSkin.gltf", 0.01),
    ("lottie/adrock.json", 0.5),
    ("lottie/Boat_Loader.json", 0.5),
    ("lottie/dalek.json", 0.5),
    ("lottie/starfish.json", 0.5),
    ("lottie/issue_1717.json", 0.5),
    ("lottie/issue_1725.json", 0.5),
    ("lottie/success.json", 0.5),
    ("lottie/time_stretch.json", 0.5),
    ("lottie/transform.json", 0.5),
];

#[test]
fn shared_files_keep_the_budget_where_the_players_look() {
    let dir = tempfile::tempdir().unwrap();
    for (file, budget) in SHARED {
        let Some(input) = crate::test_support::sample_data(file) else {
            return;
        };
        let stem = input.file_stem().unwrap().to_string_lossy().to_string();
        let ext = input.extension().unwrap().to_string_lossy().to_string();
        let out = dir.path().join(format!("{stem}.reduced.{ext}"));
        let report = reduce(&input, &out, budget, &[]);
        let Some(measured) = measure(&input, &out, Some(&report)) else {
            return;
        };
        let reported = report["max_error"].as_f64().unwrap();
        let seen = measured["seen"].as_f64().unwrap();
        let context = format!(
            "{file} at {budget}: reported {reported} ({}), player {seen} ({})",
            report["worst"], measured["worst"]
        );
        eprintln!("{context}");
        assert!(seen <= budget, "{context}: over the budget");
        assert!(reported <= budget, "{context}");
        if measured["format"] == "gltf" {
            // A glTF's nodes and vertices are measured the same way by both (non-unit
            // quaternion keys included, composed as three.js composes them).
            assert!(
                (seen - reported).abs() <= 1e-3 * budget,
                "{context}: the reported error is not the player's"
            );
        } else {
            // Measured only where the composition shows each layer (in and out points,
            // precompositions through the layers that show them), shape layers at the hull
            // of the path points they draw: lottie-web's number.
            assert!(
                (seen - reported).abs() <= 0.05 * budget,
                "{context}: the reported error is not the player's"
            );
        }
    }
}

/// starfish.json's path points follow null layers through expressions, and the nulls'
/// positions have expressions that read their own keys (`nearestKey`, `velocityAtTime`):
/// those keys are kept exactly, and the nulls' anchors are measured.
#[test]
fn properties_driven_by_expressions_keep_their_keys() {
    let Some(input) = crate::test_support::sample_data("lottie/starfish.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("starfish.json");
    let report = reduce(&input, &out, 0.5, &[]);
    let tracks: Vec<&Value> = report["clips"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["tracks"].as_array().unwrap())
        .collect();
    let kept = tracks
        .iter()
        .find(|t| t["name"] == "Shape_Layer_1_Path_1_19.position")
        .unwrap();
    assert_eq!(kept["keys_after"], kept["keys_before"], "{kept}");
    assert_eq!(kept["bound"], "lossless", "{kept}");
}

/// Random hierarchies (3 to 16 nodes, random rests, static and moving leaves) with random
/// takes (linear, smooth, stepped and cubic tracks, quaternions of any sign and length),
/// written as GLB, reduced by the CLI and played by three.js.
#[test]
fn random_hierarchies_keep_the_budget_in_three_js() {
    use crate::test_support::Rng;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(0x0C0F_FEE5);
    for case in 0..8 {
        let joints = 3 + (rng.next_u64() % 14) as usize;
        let skeleton = crate::reduce::random_skeleton(&mut rng, joints);
        let clip = crate::reduce::random_clip(&mut rng, &skeleton, case % 4 == 0);
        let mut doc = Document::new(Format::Glb, vec![clip]);
        doc.skeleton = Some(skeleton);
        let input = write(&doc, dir.path(), &format!("random{case}.glb"));
        let budget = [0.002, 0.01, 0.05, 0.2][case % 4];
        if reduce_and_measure(&input, dir.path(), budget, 1e-4 * budget.max(1.0), &[]).is_none() {
            return;
        }
    }
}

/// Random hierarchies (5 to 20 joints, random rests and scales, static end bones on some
/// leaves) moving smoothly (a few slow waves per joint, a drifting root), keyed every frame
/// for 4 s: most keys go, and three.js sees every node within the budget the CLI reports.
#[test]
fn smooth_random_hierarchies_lose_most_keys_within_the_budget_in_three_js() {
    use crate::test_support::Rng;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(0x5300_7411);
    for case in 0..6 {
        let joints = 5 + (rng.next_u64() % 16) as usize;
        let mut skeleton = crate::reduce::random_skeleton(&mut rng, joints);
        let moving = skeleton.bones.len();
        // Static end bones under some of the joints, like a Mixamo export's.
        for j in 0..moving {
            if rng.next_u64().is_multiple_of(3) {
                let mut end = clipscope_core::model::Bone::new(format!("b{j}_End"), Some(j));
                end.position = [0.0, 0.05 + rng.unit_f32() * 0.2, 0.0];
                skeleton.bones.push(end);
            }
        }
        let clip = smooth_clip(&mut rng, &skeleton, moving);
        let mut doc = Document::new(Format::Glb, vec![clip]);
        doc.skeleton = Some(skeleton);
        let input = write(&doc, dir.path(), &format!("smooth{case}.glb"));
        let budget = [0.005, 0.01, 0.02][case % 3];
        let Some((_, _, report)) =
            reduce_and_measure(&input, dir.path(), budget, 1e-4 * budget.max(1.0), &[])
        else {
            return;
        };
        let (before, after) = (
            report["keys_before"].as_u64().unwrap(),
            report["keys_after"].as_u64().unwrap(),
        );
        assert!(after * 4 < before, "case {case}: {before} → {after} keys");
    }
}

/// Smooth motion for the first `moving` bones of `skeleton` at 30 fps for 4 s: each turns
/// about a random axis by a sum of three slow waves (0.1 to 1.2 Hz, up to 0.5 rad), the root
/// and about one bone in five move along a slow wave too.
fn smooth_clip(
    rng: &mut crate::test_support::Rng,
    skeleton: &clipscope_core::model::Skeleton,
    moving: usize,
) -> clipscope_core::model::Clip {
    use clipscope_core::model::{Clip, Track, TrackKind};
    let mut range = |lo: f64, hi: f64| lo + (hi - lo) * rng.unit_f32() as f64;
    let times: Vec<f32> = (0..120).map(|k| k as f32 / 30.0).collect();
    let mut tracks = Vec::new();
    for bone in &skeleton.bones[..moving] {
        let axis = {
            let a = [range(-1.0, 1.0), range(-1.0, 1.0), range(-1.0, 1.0)];
            let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt().max(1e-6);
            a.map(|x| x / n)
        };
        let waves: Vec<(f64, f64, f64)> = (0..3)
            .map(|_| {
                (
                    range(0.0, 0.5),
                    range(0.1, 1.2),
                    range(0.0, std::f64::consts::TAU),
                )
            })
            .collect();
        let rest = bone.rotation.map(f64::from);
        let mut values = Vec::with_capacity(times.len() * 4);
        for &t in &times {
            let angle: f64 = waves
                .iter()
                .map(|(a, f, p)| a * (std::f64::consts::TAU * f * t as f64 + p).sin())
                .sum();
            let (s, c) = (angle / 2.0).sin_cos();
            let swing = [axis[0] * s, axis[1] * s, axis[2] * s, c];
            let [ax, ay, az, aw] = rest;
            let [bx, by, bz, bw] = swing;
            let q = [
                ax * bw + aw * bx + ay * bz - az * by,
                ay * bw + aw * by + az * bx - ax * bz,
                az * bw + aw * bz + ax * by - ay * bx,
                aw * bw - ax * bx - ay * by - az * bz,
            ];
            values.extend(q.map(|x| x as f32));
        }
        tracks.push(Track::numeric(
            format!("{}.quaternion", bone.name),
            TrackKind::Quaternion,
            times.clone(),
            values,
        ));
        if bone.parent.is_none() || rng_pick(&mut range) {
            let (f, a) = (range(0.1, 0.6), range(0.02, 0.3));
            let rest = bone.position.map(f64::from);
            let values = times
                .iter()
                .flat_map(|&t| {
                    let d = a * (std::f64::consts::TAU * f * t as f64).sin();
                    [rest[0] + d, rest[1] + 0.5 * d, rest[2] - d].map(|x| x as f32)
                })
                .collect();
            tracks.push(Track::numeric(
                format!("{}.position", bone.name),
                TrackKind::Vector,
                times.clone(),
                values,
            ));
        }
    }
    Clip::new("smooth", -1.0, tracks)
}

/// True one time in five.
fn rng_pick(range: &mut impl FnMut(f64, f64) -> f64) -> bool {
    range(0.0, 1.0) < 0.2
}

/// Generated compositions (parented solids and shape layers under a null, auto-oriented,
/// split-position and 3D layers, parents that scale and turn), reduced at 0.5 and 2 px and
/// played by lottie-web: every corner of every layer's content stays within the budget in
/// composition space, and the reported error is lottie-web's.
#[test]
fn parented_and_auto_oriented_layers_keep_the_budget_in_lottie_web() {
    let dir = tempfile::tempdir().unwrap();
    for (case, (layers, seed)) in [(6, 1u64), (9, 2), (12, 3)].into_iter().enumerate() {
        let input = dir.path().join(format!("rig{case}.json"));
        let json = crate::lottie_rig::composition(layers, 3.0, seed);
        std::fs::write(&input, json.to_string()).unwrap();
        for budget in [0.5, 2.0] {
            let Some((_, measured, report)) =
                reduce_and_measure(&input, dir.path(), budget, 0.05 * budget, &[])
            else {
                return;
            };
            assert_eq!(
                measured["layers"].as_u64(),
                Some(layers as u64 - 1),
                "{measured}"
            );
            // At 2 px most keys go, auto-oriented layers too (their positions are kept when
            // that keeps fewer keys in all: ReduceOptions::keep_headings).
            let (before, after) = (
                report["keys_before"].as_u64().unwrap(),
                report["keys_after"].as_u64().unwrap(),
            );
            assert!(after < before, "{report}");
            if budget >= 2.0 {
                assert!(after * 2 < before, "{before} → {after}");
            }
        }
    }
}
