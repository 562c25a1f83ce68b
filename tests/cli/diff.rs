//! `clipscope diff OLD NEW`: exit statuses, the text and JSON reports, faithful conversions
//! between formats reporting no change, `--tolerance`, `--skeleton` and the review page without
//! previews (the previews are drawn in `tests/gui/previews.rs`, where there is a GPU).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::test_support::rng::Rng;
use crate::test_support::sample_data;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A three.js clip file of `nodes` joints with random linear position, rotation and scale
/// keys, the joints named as `name(k)` spells them (`joint3`, `.bones[joint3]`).
pub fn random_clips(seed: u64, nodes: usize, name: &dyn Fn(usize) -> String) -> Value {
    let mut rng = Rng::new(seed);
    let mut r = move || rng.unit_f32() - 0.5;
    let mut tracks = Vec::new();
    for k in 0..nodes {
        let keys = 5 + k % 7;
        let times: Vec<f32> = (0..keys)
            .map(|i| i as f32 / (keys - 1) as f32 * 1.5)
            .collect();
        let position: Vec<f32> = (0..keys * 3).map(|_| r()).collect();
        let mut rotation = Vec::new();
        for _ in 0..keys {
            let q = [r(), r(), r(), r() + 1.5];
            let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
            rotation.extend(q.map(|v| v / n));
        }
        let scale: Vec<f32> = (0..keys * 3).map(|_| 1.0 + r() * 0.2).collect();
        for (prop, kind, values) in [
            ("position", "vector", position),
            ("quaternion", "quaternion", rotation),
            ("scale", "vector", scale),
        ] {
            tracks.push(json!({
                "name": format!("{}.{prop}", name(k)), "type": kind,
                "times": times, "values": values,
            }));
        }
    }
    json!([{ "name": "take", "duration": 1.5, "tracks": tracks },
           { "name": "still", "duration": 1.0, "tracks": [
               { "name": format!("{}.position", name(0)), "type": "vector",
                 "times": [0, 1], "values": [0, 1, 0, 0, 1, 0] }] }])
}

fn write_json(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(value).unwrap()).unwrap();
    p
}

fn convert(from: &Path, to: &Path, format: &str) {
    let o = clipscope(&["convert", s(from), "--to", format, "-o", s(to)]);
    assert!(o.status.success(), "convert: {}", stderr(&o));
}

#[test]
fn a_faithful_conversion_is_no_change_in_any_direction() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, spelling) in [(1u64, "node"), (2, "bones")] {
        let name = move |k: usize| match spelling {
            "node" => format!("joint{k}"),
            _ => format!(".bones[joint{k}]"),
        };
        let original = write_json(
            dir.path(),
            &format!("{spelling}.json"),
            &random_clips(seed, 24, &name),
        );
        for (format, ext) in [("glb", "glb"), ("gltf", "gltf"), ("threejs", "copy.json")] {
            let converted = dir.path().join(format!("{spelling}.{ext}"));
            convert(&original, &converted, format);
            for (a, b) in [(&original, &converted), (&converted, &original)] {
                let o = clipscope(&["diff", s(a), s(b)]);
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{spelling} → {format}: {}",
                    stdout(&o)
                );
                assert!(stdout(&o).contains("no changes"), "{}", stdout(&o));
            }
        }
    }
    for sample in [
        "gltf/BoxAnimated.gltf",
        "gltf/SimpleSkin.gltf",
        "gltf/AnimatedTriangle.gltf",
    ] {
        let Some(path) = sample_data(sample) else {
            return;
        };
        let json = dir.path().join("sample.json");
        convert(&path, &json, "threejs");
        let o = clipscope(&["diff", s(&path), s(&json)]);
        assert_eq!(o.status.code(), Some(0), "{sample}: {}", stdout(&o));
    }
}

#[test]
fn one_changed_track_is_named_with_its_change_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let name = |k: usize| format!("joint{k}");
    let old = random_clips(7, 12, &name);
    let mut new = old.clone();
    // Turn joint 5's third key by 30° about z on top of what it was.
    let track = &mut new[0]["tracks"][5 * 3 + 1];
    let q: Vec<f64> = (8..12)
        .map(|i| track["values"][i].as_f64().unwrap())
        .collect();
    let (sz, cz) = (15f64.to_radians().sin(), 15f64.to_radians().cos());
    let turned = [
        cz * q[0] - sz * q[1],
        cz * q[1] + sz * q[0],
        cz * q[2] + sz * q[3],
        cz * q[3] - sz * q[2],
    ];
    for (i, v) in turned.iter().enumerate() {
        track["values"][8 + i] = json!(v);
    }
    let key_time = track["times"][2].as_f64().unwrap();
    let (a, b) = (
        write_json(dir.path(), "a.json", &old),
        write_json(dir.path(), "b.json", &new),
    );
    let o = clipscope(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("~ clip \"take\": 1 track(s) changed, 35 unchanged"),
        "{text}"
    );
    assert!(
        text.contains("~ joint5.quaternion: up to 30.0° at "),
        "{text}"
    );
    assert!(!text.contains("joint4"), "{text}");
    assert!(text.contains("1 clip(s) unchanged"), "{text}");

    let o = clipscope(&["diff", "--json", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["identical"], false);
    assert_eq!(v["old"]["format"], "threejs");
    assert_eq!(v["unchanged_clips"], 1);
    let clip = &v["clips"][0];
    assert_eq!(clip["status"], "changed");
    assert_eq!(clip["name"], "take");
    assert_eq!(clip["unchanged_tracks"], 35);
    assert_eq!(clip["counts"]["old"]["tracks"], 36);
    let t = &clip["tracks"][0];
    assert_eq!(t["name"], "joint5.quaternion");
    assert_eq!(t["status"], "changed");
    assert_eq!(t["measure"], "rotation");
    assert_eq!(t["unit"], "°");
    assert_eq!(t["index"], json!({"old": 16, "new": 16}));
    let amount = t["largest"]["amount"].as_f64().unwrap();
    assert!((amount - 30.0).abs() < 0.01, "{amount}");
    assert!((t["largest"]["time"].as_f64().unwrap() - key_time).abs() < 1e-6);
    assert_eq!(t["largest"]["new"].as_array().unwrap().len(), 4);
    assert!(t.get("keys_added").is_none() && t.get("interpolation").is_none());
}

#[test]
fn keys_interpolation_durations_markers_and_clips_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let old = json!([
        { "name": "walk", "duration": 1, "userData": "{\"markers\":[{\"name\":\"step\",\"time\":0.5}]}",
          "tracks": [
            { "name": "hip.position", "type": "vector", "times": [0, 0.5, 1], "values": [0,0,0, 0,1,0, 0,0,0] },
            { "name": "hip.visible", "type": "bool", "times": [0, 0.5], "values": [true, false] } ] },
        { "name": "idle", "duration": 1, "tracks": [
            { "name": "hip.scale", "type": "vector", "times": [0, 1], "values": [1,1,1, 2,2,2] } ] },
        { "name": "gone", "duration": 1, "tracks": [
            { "name": "x.position", "type": "vector", "times": [0], "values": [0,0,0] } ] }
    ]);
    let new = json!([
        { "name": "walk", "duration": 1.25, "blendMode": 2501,
          "userData": "{\"markers\":[{\"name\":\"step\",\"time\":0.6}]}",
          "tracks": [
            { "name": "hip.position", "type": "vector", "interpolation": 2300,
              "times": [0, 0.55, 1, 1.25], "values": [0,0,0, 0,1,0, 0,0,0, 0,0,0] },
            { "name": "hip.visible", "type": "bool", "times": [0, 0.5], "values": [true, true] },
            { "name": "hip.quaternion", "type": "quaternion", "times": [0], "values": [0,0,0,1] } ] },
        { "name": "idle_loop", "duration": 1, "tracks": [
            { "name": "hip.scale", "type": "vector", "times": [0, 1], "values": [1,1,1, 2,2,2] } ] },
        { "name": "wave", "duration": 2, "tracks": [
            { "name": "arm.position", "type": "vector", "times": [0, 2], "values": [0,0,0, 1,1,1] } ] }
    ]);
    let (a, b) = (
        write_json(dir.path(), "a.json", &old),
        write_json(dir.path(), "b.json", &new),
    );
    let o = clipscope(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    for expected in [
        "~ clip \"walk\": 3 track(s) changed, 0 unchanged",
        "    duration 1 s → 1.25 s",
        "    blend mode normal → additive",
        "    ~ marker \"step\" moved 0.5 s → 0.6 s",
        "interpolation linear → discrete",
        "1 key moved (0.5 → 0.55 s)",
        "1 key added (1.25 s)",
        "3 → 4 keys",
        "~ hip.visible: false → true at 0.5 s",
        "+ hip.quaternion: quaternion, 1 key(s), 0–0 s",
        "~ clip \"idle_loop\" (renamed from \"idle\"): no track changed (1 unchanged)",
        "+ clip \"wave\" added: 2 s, 1 track(s), 2 key(s)",
        "- clip \"gone\" removed: 1 s, 1 track(s), 1 key(s)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn tolerance_ignores_float_noise_and_exit_statuses_follow_diff() {
    let dir = tempfile::tempdir().unwrap();
    let name = |k: usize| format!("joint{k}");
    let old = random_clips(3, 6, &name);
    let mut noisy = old.clone();
    for track in noisy[0]["tracks"].as_array_mut().unwrap() {
        for v in track["values"].as_array_mut().unwrap() {
            *v = json!(v.as_f64().unwrap() + 2e-6);
        }
    }
    let (a, b) = (
        write_json(dir.path(), "a.json", &old),
        write_json(dir.path(), "b.json", &noisy),
    );
    assert_eq!(clipscope(&["diff", s(&a), s(&a)]).status.code(), Some(0));
    assert_eq!(clipscope(&["diff", s(&a), s(&b)]).status.code(), Some(1));
    let o = clipscope(&["diff", "--tolerance", "0.001", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Trouble is 2, with one line naming the file.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"tracks\": [").unwrap();
    let o = clipscope(&["diff", s(&a), s(&broken)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("broken.json"), "{}", stderr(&o));
    let o = clipscope(&["diff", s(&a), s(&dir.path().join("missing.json"))]);
    assert_eq!(o.status.code(), Some(2));
    let o = clipscope(&["diff", "--tolerance", "-1", s(&a), s(&a)]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn joints_move_in_world_space_through_the_skeleton() {
    let dir = tempfile::tempdir().unwrap();
    // A two-joint arm: the hand hangs 1 unit along the shoulder's x axis.
    let rig = json!({ "name": "arm", "parts": [
        { "name": "shoulder", "size": [0.1, 0.1, 0.1], "colour": "#808080", "position": [0, 0, 0] },
        { "name": "hand", "parent": "shoulder", "size": [0.1, 0.1, 0.1], "colour": "#808080",
          "position": [1, 0, 0] } ] });
    let skeleton = write_json(dir.path(), "arm.rig.json", &rig);
    let clip = |deg: f64| {
        let h = deg.to_radians() / 2.0;
        json!({ "name": "raise", "duration": 1, "tracks": [
            { "name": ".bones[shoulder].quaternion", "type": "quaternion", "times": [0, 1],
              "values": [0, 0, 0, 1, 0, 0, h.sin(), h.cos()] } ] })
    };
    let (a, b) = (
        write_json(dir.path(), "a.json", &clip(90.0)),
        write_json(dir.path(), "b.json", &clip(60.0)),
    );
    let o = clipscope(&["diff", "--json", "--skeleton", s(&skeleton), s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let joints = v["clips"][0]["joints"].as_array().unwrap();
    assert_eq!(joints[0]["name"], "hand", "{joints:?}");
    let chord = 2.0 * 15f64.to_radians().sin();
    assert!(
        (joints[0]["distance"].as_f64().unwrap() - chord).abs() < 1e-4,
        "{joints:?}"
    );
    assert!((joints[0]["angle"].as_f64().unwrap() - 30.0).abs() < 1e-3);
    let text = stdout(&clipscope(&[
        "diff",
        "--skeleton",
        s(&skeleton),
        s(&a),
        s(&b),
    ]));
    assert!(text.contains("joints in world space:"), "{text}");
    assert!(
        text.contains("hand: moved 0.518 units at 1 s, turned 30.0° at 1 s"),
        "{text}"
    );
}

#[test]
fn the_review_page_stands_alone_and_names_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let name = |k: usize| format!("joint{k}");
    let old = random_clips(11, 4, &name);
    let mut new = old.clone();
    new[0]["tracks"][0]["values"][3] = json!(5.0);
    // A finding in the new version: the duration runs far past the keys.
    new[1]["duration"] = json!(9.0);
    let (a, b) = (
        write_json(dir.path(), "a.json", &old),
        write_json(dir.path(), "b.json", &new),
    );
    let page = dir.path().join("review.html");
    let o = clipscope(&["diff", s(&a), s(&b), "--html", s(&page), "--no-previews"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Nothing it needs is elsewhere.
    for outside in [
        "http:", "https:", "//", "<script", "<link", "@import", "url(",
    ] {
        assert!(!html.contains(outside), "the page refers to {outside:?}");
    }
    assert!(
        html.contains("joint0.position"),
        "the changed track is named"
    );
    assert!(html.contains("up to "), "its change is given");
    assert!(html.contains("<svg"), "its curves are plotted");
    assert!(html.contains("class=\"old\"") && html.contains("class=\"new\""));
    assert!(
        html.contains("duration-longer-than-keys"),
        "findings are listed"
    );
    assert!(html.contains("<h2>Validation</h2>"));
    assert!(
        !html.contains("joint1.quaternion"),
        "unchanged tracks are not listed"
    );
}

#[test]
fn dev_null_is_a_file_added_or_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let name = |k: usize| format!("joint{k}");
    let a = write_json(dir.path(), "a.json", &random_clips(4, 2, &name));
    let o = clipscope(&["diff", "/dev/null", s(&a), "--new-label", "walk.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("new file: walk.json (threejs)"), "{text}");
    assert!(text.contains("+ clip \"take\" added"), "{text}");
    let o = clipscope(&["diff", "--json", s(&a), "/dev/null"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["new"]["format"], Value::Null);
    assert_eq!(v["clips"][0]["status"], "removed");
    let page = dir.path().join("added.html");
    let o = clipscope(&[
        "diff",
        "/dev/null",
        s(&a),
        "--html",
        s(&page),
        "--no-previews",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains("not in this version")
    );
    assert_eq!(
        clipscope(&["diff", "/dev/null", "/dev/null"]).status.code(),
        Some(2)
    );
}
