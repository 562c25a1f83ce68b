//! Procedural cycles end to end: the shipped Hero run reproduces the seed's hand-written
//! formulas exactly, parameters scale the baked motion by the expected factors, every shipped
//! cycle loops without a seam, `clipscope bake` writes clips three.js plays, and bad input gets
//! one-line errors.

use std::f64::consts::{PI, TAU};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

use clipscope_core::formats::read_file;
use clipscope_core::model::{Clip, Track, Values};
use clipscope_scene::procedural::{self, BakeOptions, Cycle, quaternion_from_euler_xyz};

/// The seed's `Hero.prototype.run`, written out by hand: every value it sets at phase `t`
/// (already wrapped to 0…2π), keyed like the cycle's channels.
fn seed_run(t: f64) -> Vec<(&'static str, f64)> {
    let amp = 4.0;
    let (leg_r_rot, leg_l_rot) = if t < PI {
        ((t * 2.0 + PI / 2.0).cos() * PI / 4.0, 0.0)
    } else {
        (0.0, (t * 2.0 + PI / 2.0).cos() * PI / 4.0)
    };
    vec![
        ("legR.position.x", t.cos() * amp),
        ("legR.position.y", 0f64.max(-t.sin() * amp)),
        ("legL.position.x", (t + PI).cos() * amp),
        ("legL.position.y", 0f64.max(-(t + PI).sin() * amp)),
        ("legR.rotation.z", leg_r_rot),
        ("legL.rotation.z", leg_l_rot),
        ("torso.position.y", 8.0 - (t * 2.0).cos() * amp * 0.2),
        ("torso.rotation.y", -(t + PI).cos() * amp * 0.05),
        ("head.position.y", 21.0 - (t * 2.0).cos() * amp * 0.3),
        ("head.rotation.x", t.cos() * amp * 0.02),
        ("head.rotation.y", t.cos() * amp * 0.01),
        ("handR.position.x", -t.cos() * amp),
        ("handR.rotation.z", -t.cos() * PI / 8.0),
        ("handL.position.x", -(t + PI).cos() * amp),
        ("handL.rotation.z", -(t + PI).cos() * PI / 8.0),
    ]
}

fn run() -> &'static Cycle {
    Cycle::builtin("hero-run").expect("the Hero run ships")
}

fn track<'a>(clip: &'a Clip, name: &str) -> &'a Track {
    clip.tracks
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no track {name}"))
}

fn numbers(track: &Track) -> &[f32] {
    match &track.values {
        Values::Numbers(v) => v,
        other => panic!("not numeric: {other:?}"),
    }
}

/// Component `c` of every key of `track`.
fn component(track: &Track, c: usize) -> Vec<f64> {
    let stride = track.value_size();
    numbers(track)
        .chunks(stride)
        .map(|k| f64::from(k[c]))
        .collect()
}

fn peak_to_peak(v: &[f64]) -> f64 {
    let max = v.iter().cloned().fold(f64::MIN, f64::max);
    let min = v.iter().cloned().fold(f64::MAX, f64::min);
    max - min
}

fn bake(values: &[f64], fps: f64, cycles: u32) -> Clip {
    run()
        .bake(
            values,
            &BakeOptions {
                fps,
                cycles,
                ..BakeOptions::default()
            },
        )
        .unwrap()
        .clip
}

#[test]
fn the_hero_run_is_the_seed_formula_for_formula() {
    let cycle = run();
    let values = cycle.defaults();
    let mut out = Vec::new();
    for k in 0..2000 {
        let t = TAU * k as f64 / 2000.0;
        cycle.evaluate(&values, t, &mut out).unwrap();
        let seed = seed_run(t);
        assert_eq!(cycle.channels.len(), seed.len());
        for (channel, (&got, (key, want))) in cycle.channels.iter().zip(out.iter().zip(&seed)) {
            assert_eq!(channel.key(), *key);
            assert_eq!(got, *want, "{key} at t = {t}");
        }
    }
}

#[test]
fn the_baked_run_holds_the_seed_values_at_every_key() {
    let cycle = run();
    let clip = bake(&cycle.defaults(), 30.0, 1);
    let rate = cycle.rate(&cycle.defaults());
    assert_eq!(clip.duration, (1.0 / rate) as f32 as f64);
    let leg = track(&clip, "legR.position");
    let quat = track(&clip, "legR.quaternion");
    assert_eq!(
        leg.times.len(),
        25,
        "24 frames at 30 fps over 0.8 s, and the end"
    );
    for k in 0..24 {
        assert_eq!(leg.times[k], (k as f64 / 30.0) as f32);
        let u = k as f64 / 30.0 * rate;
        let t = TAU * (u - u.floor());
        let seed: std::collections::HashMap<_, _> = seed_run(t).into_iter().collect();
        let p = &numbers(leg)[k * 3..k * 3 + 3];
        // x and y from the formulas, z the rig's rest value.
        assert_eq!(
            p,
            [
                seed["legR.position.x"] as f32,
                seed["legR.position.y"] as f32,
                7.0
            ]
        );
        let q = quaternion_from_euler_xyz([0.0, 0.0, seed["legR.rotation.z"]]);
        assert_eq!(&numbers(quat)[k * 4..k * 4 + 4], q.map(|c| c as f32));
    }
}

#[test]
fn amplitude_and_multipliers_scale_the_baked_motion() {
    let cycle = run();
    let base = cycle.defaults();
    let mut double = base.clone();
    procedural::set_from_text(cycle, &mut double, "amp=8").unwrap();
    let (a, b) = (bake(&base, 30.0, 1), bake(&double, 30.0, 1));
    for (name, c) in [
        ("legR.position", 0),
        ("legR.position", 1),
        ("torso.position", 1),
        ("head.position", 1),
        ("handL.position", 0),
    ] {
        let ratio = peak_to_peak(&component(track(&b, name), c))
            / peak_to_peak(&component(track(&a, name), c));
        assert!((ratio - 2.0).abs() < 1e-5, "{name}[{c}]: ratio {ratio}");
    }
    // The stride multiplier moves the feet only.
    let mut stride = base.clone();
    procedural::set_from_text(cycle, &mut stride, "stride=1.5").unwrap();
    let s = bake(&stride, 30.0, 1);
    let ratio = peak_to_peak(&component(track(&s, "legR.position"), 0))
        / peak_to_peak(&component(track(&a, "legR.position"), 0));
    assert!((ratio - 1.5).abs() < 1e-5, "stride ratio {ratio}");
    assert_eq!(track(&s, "handR.position"), track(&a, "handR.position"));
    // Speed sets the rate: twice as fast, half as long.
    let mut fast = base.clone();
    procedural::set_from_text(cycle, &mut fast, "speed=2.5").unwrap();
    assert!((bake(&fast, 30.0, 1).duration - 0.4).abs() < 1e-6);
}

#[test]
fn every_shipped_cycle_loops_without_a_seam() {
    for cycle in Cycle::builtins() {
        let defaults = cycle.defaults();
        let draws = [
            defaults.clone(),
            procedural::randomize(cycle, &defaults, 7),
            procedural::randomize(cycle, &defaults, 99),
        ];
        for values in &draws {
            assert!(cycle.seam_jumps(values).is_empty(), "{}", cycle.id);
            for (fps, cycles) in [(30.0, 1), (24.0, 3), (60.0, 2)] {
                let baked = cycle
                    .bake(
                        values,
                        &BakeOptions {
                            fps,
                            cycles,
                            ..BakeOptions::default()
                        },
                    )
                    .unwrap();
                let clip = &baked.clip;
                assert!(
                    clip.validate().is_empty(),
                    "{}: {:?}",
                    cycle.id,
                    clip.validate()
                );
                for t in &clip.tracks {
                    let n = t.value_size();
                    let v = numbers(t);
                    assert_eq!(&v[..n], &v[v.len() - n..], "{} {}", cycle.id, t.name);
                    assert_eq!(*t.times.last().unwrap() as f64, clip.duration);
                }
                // Optimizing loses nothing: the same curve, fewer or equal keys.
                let optimized = cycle
                    .bake(
                        values,
                        &BakeOptions {
                            fps,
                            cycles,
                            optimize: true,
                            ..BakeOptions::default()
                        },
                    )
                    .unwrap();
                assert!(optimized.clip.key_count() <= clip.key_count());
                assert!(optimized.optimized.is_some());
            }
        }
    }
}

#[test]
fn the_dog_trot_keeps_rest_rotations_it_does_not_animate() {
    let cycle = Cycle::builtin("dog-trot").unwrap();
    let clip = cycle
        .bake(&cycle.defaults(), &BakeOptions::default())
        .unwrap()
        .clip;
    // The tail's rest tilt (35° about x) stays under the wag.
    let tail = track(&clip, "tail.quaternion");
    let first = glam::Quat::from_slice(&numbers(tail)[..4]);
    let (x, _, _) = first.to_euler(glam::EulerRot::XYZ);
    assert!((x.to_degrees() - 35.0).abs() < 1e-3, "{}", x.to_degrees());
    assert!(clip.tracks.iter().all(|t| t.name != "tail.position"));
}

// --- the command line ------------------------------------------------------------------------

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// `clipscope bake --cycle hero-run --fps 30 -o DIR/run.json`, which must succeed.
fn bake_run_at_30_fps(dir: &Path) -> (PathBuf, Output) {
    let out = path(dir, "run.json");
    let o = clipscope(&[
        "bake",
        "--cycle",
        "hero-run",
        "--fps",
        "30",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    (out, o)
}

#[test]
fn bake_writes_a_run_cycle_at_30_fps() {
    let dir = tempfile::tempdir().unwrap();
    let (out, o) = bake_run_at_30_fps(dir.path());
    let said = text(&o.stdout);
    assert!(said.contains("Hero run (hero-run) on BlockHero"), "{said}");
    assert!(said.contains("loops seamlessly"), "{said}");
    let doc = read_file(&out).unwrap();
    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "Hero run");
    assert_eq!(clip, &{
        let mut c = bake(&run().defaults(), 30.0, 1);
        c.uuid = clip.uuid.clone();
        c
    });
    assert_eq!(clip.user_data["cycle"]["id"], "hero-run");
    assert_eq!(clip.user_data["cycle"]["parameters"]["amp"], 4.0);
}

#[test]
fn bake_takes_settings_presets_and_other_formats() {
    let dir = tempfile::tempdir().unwrap();
    let preset = path(dir.path(), "wide.json");
    std::fs::write(
        &preset,
        r#"{"cycle": "hero-run", "parameters": {"amp": 6}}"#,
    )
    .unwrap();
    let out = path(dir.path(), "wide.gltf");
    let o = clipscope(&[
        "bake",
        "--cycle",
        "Hero run",
        "--preset",
        preset.to_str().unwrap(),
        "--set",
        "stride=2",
        "--cycles",
        "2",
        "--fps",
        "24",
        "--optimize",
        "--name",
        "wide run",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc = read_file(&out).unwrap();
    assert_eq!(doc.format.name(), "gltf");
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "wide run");
    assert!((clip.duration - 1.6).abs() < 1e-6);
    // 6 × 2 units each way; 24 fps does not land on the extremes of a 0.8 s cycle exactly.
    let x = peak_to_peak(&component(track(clip, "legR.position"), 0));
    assert!(x > 23.0 && x <= 24.0 + 1e-4, "{x}");
}

#[test]
fn bake_refuses_bad_input_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = path(dir.path(), "x.json");
    let out = out.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["--cycle", "moonwalk"],
            "no cycle named \"moonwalk\" (built in: hero-run, hero-walk, dog-trot",
        ),
        (
            vec!["--cycle", "hero-run", "--set", "ampl=3"],
            "hero-run has no parameter \"ampl\"",
        ),
        (
            vec!["--cycle", "hero-run", "--set", "amp=30"],
            "amp = 30 is outside its range 0 to 10",
        ),
        (
            vec!["--cycle", "hero-run", "--set", "amp"],
            "expected NAME=VALUE",
        ),
    ] {
        let mut all = vec!["bake"];
        all.extend(args);
        all.extend(["-o", out]);
        let o = clipscope(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = text(&o.stderr);
        assert!(err.contains(expected), "{all:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    assert!(!Path::new(out).exists(), "nothing written on bad input");
    let o = clipscope(&["bake", "--cycle", "hero-run", "--fps", "0", "-o", out]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bake_reads_cycle_files_and_flags_a_seam() {
    let dir = tempfile::tempdir().unwrap();
    let cycle = path(dir.path(), "drift.json");
    std::fs::write(
        &cycle,
        r#"{"name": "Drift", "rig": "BlockHero",
            "parameters": [{"name": "speed", "default": 1, "min": 0.5, "max": 2}],
            "channels": {"head.position.x": "t / 2"}}"#,
    )
    .unwrap();
    let out = path(dir.path(), "drift.out.json");
    let o = clipscope(&[
        "bake",
        "--cycle",
        cycle.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "a seam jump fails the bake");
    assert!(
        text(&o.stderr).contains("head.position.x jumps from"),
        "{}",
        text(&o.stderr)
    );
    assert!(out.exists(), "the clip is still written");

    std::fs::write(
        &cycle,
        r#"{"name": "Bad", "rig": "BlockHero", "parameters": [], "channels": {}}"#,
    )
    .unwrap();
    let o = clipscope(&[
        "bake",
        "--cycle",
        cycle.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("drift.json: parameters: a cycle needs a \"speed\" parameter"),
        "{err}"
    );
}

/// Bakes the run from the command line and plays the file in three.js r187 (node and the
/// `three` package in tests/conformance): it validates, and its nodes follow the seed's
/// formulas at every frame.
#[test]
fn three_js_plays_the_baked_run() {
    let Some(conformance) = common::node_package("three") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = bake_run_at_30_fps(dir.path());
    let rate = run().rate(&run().defaults());
    let frames: Vec<f64> = (0..24).map(|k| k as f64 / 30.0).collect();
    let times: Vec<String> = frames.iter().map(|t| format!("{}", *t as f32)).collect();
    let played = Command::new("node")
        .arg(conformance.join("play_baked.mjs"))
        .arg(&out)
        .arg(times.join(","))
        .output()
        .expect("run node");
    assert!(played.status.success(), "{}", text(&played.stderr));
    let result: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    assert_eq!(result["valid"], true);
    assert_eq!(result["name"], "Hero run");
    for (k, pose) in result["poses"].as_array().unwrap().iter().enumerate() {
        let u = frames[k] * rate;
        let t = TAU * (u - u.floor());
        let seed: std::collections::HashMap<_, _> = seed_run(t).into_iter().collect();
        let at = |node: &str, prop: &str, c: usize| pose[node][prop][c].as_f64().unwrap();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-4;
        for (node, c, channel) in [
            ("legR", 0, "legR.position.x"),
            ("legR", 1, "legR.position.y"),
            ("legL", 0, "legL.position.x"),
            ("torso", 1, "torso.position.y"),
            ("head", 1, "head.position.y"),
            ("handR", 0, "handR.position.x"),
        ] {
            assert!(
                close(at(node, "position", c), seed[channel]),
                "{channel}, frame {k}"
            );
        }
        let q = quaternion_from_euler_xyz([0.0, 0.0, seed["legL.rotation.z"]]);
        for (c, want) in q.iter().enumerate() {
            assert!(close(at("legL", "quaternion", c), *want), "frame {k}");
        }
    }
}

/// The baked run written in every format clipscope writes and read back: the same motion at
/// every frame (within f32 rounding), under the name each format gives the node.
#[test]
fn the_baked_run_exports_to_every_format() {
    use clipscope_core::formats::{Document, Format, WriteOptions, read_bytes, write_bytes};
    use clipscope_core::model::interpolant::Sampler;

    let clip = bake(&run().defaults(), 30.0, 1);
    let source = Document::new(Format::ThreeJs, vec![clip.clone()]);
    for &format in Format::ALL {
        let doc = source.clone().converted_to(format);
        let bytes = write_bytes(&doc, &WriteOptions::default());
        let name = format!("run.{}", format.extension());
        let back = read_bytes(&bytes, Path::new(&name)).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(back.clips.len(), 1, "{format}");
        if format == Format::Lottie {
            // Null layers: positions in pixels, rotations about z; checked by the Lottie tests.
            continue;
        }
        let other = &back.clips[0];
        for track in &clip.tracks {
            let node = track.name.split('.').next().unwrap();
            let prop = track.name.rsplit('.').next().unwrap();
            let found = other
                .tracks
                .iter()
                .find(|t| t.name.contains(node) && t.name.ends_with(prop))
                .unwrap_or_else(|| panic!("{format}: no {} in {:?}", track.name, other.tracks));
            for k in 0..24 {
                let t = (k as f64 / 30.0) as f32 as f64;
                let (mut a, mut b) = (vec![0.0; track.value_size()], vec![0.0; 4]);
                Sampler::new(track).evaluate_f64(t, &mut a);
                b.truncate(found.value_size());
                Sampler::new(found).evaluate_f64(t, &mut b);
                for (x, y) in a.iter().zip(&b) {
                    assert!(
                        (x - y).abs() < 1e-5,
                        "{format} {} at {t}: {a:?} vs {b:?}",
                        track.name
                    );
                }
            }
        }
    }
}

#[test]
fn cycles_lists_what_bake_can_do() {
    let o = clipscope(&["cycles"]);
    assert!(o.status.success());
    let said = text(&o.stdout);
    assert!(said.contains("hero-run: Hero run on BlockHero"), "{said}");
    assert!(said.contains("dog-trot: Dog trot on Dog"), "{said}");
    assert!(
        said.lines().any(|l| l.trim_start().starts_with("amp ")),
        "{said}"
    );
    let o = clipscope(&["cycles", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &json["cycles"][0];
    assert_eq!(run["id"], "hero-run");
    assert_eq!(run["parameters"][1]["name"], "amp");
    assert_eq!(run["channels"]["legR.position.x"], "cos(t) * amp * stride");

    let dir = tempfile::tempdir().unwrap();
    let bad = path(dir.path(), "bad.json");
    std::fs::write(
        &bad,
        r#"{"name": "x", "rig": "Hero", "parameters": [], "channels": {}}"#,
    )
    .unwrap();
    let o = clipscope(&["cycles", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("bad.json: parameters: a cycle needs a \"speed\" parameter"));
}
