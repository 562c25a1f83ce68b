//! Lottie (Bodymovin JSON): spec A10's lottie-web reference values (easing 1e-4 relative, motion
//! paths 0.01 px), every shared sample file, byte-exact round trips, edits written back to the
//! right key, errors with JSON paths, and the `sample` / `convert` commands.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::test_support::{sample_data, sample_data_root};
use clipscope_core::formats::lottie::{layers, world_matrix};
use clipscope_core::formats::{
    self, Document, Format, WriteOptions, check_writable, read_bytes, read_file, write_bytes,
};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Interpolation, Track, TrackKind, Values};
use serde_json::{Value, json};

fn data(name: &str) -> PathBuf {
    sample_data_root().join("lottie").join(name)
}

const FILES: [&str; 12] = [
    "Boat_Loader.json",
    "adrock.json",
    "dalek.json",
    "issue_1717.json",
    "issue_1725.json",
    "pr_2478.json",
    "pr_2559.json",
    "starfish.json",
    "success.json",
    "time_remap.json",
    "time_stretch.json",
    "transform.json",
];

/// A one-layer composition at 30 fps from frame 0 whose transform is `ks`.
fn comp(ks: Value) -> String {
    comp_with(ks, json!({}))
}

/// Like [`comp`], with extra layer fields.
fn comp_with(ks: Value, layer: Value) -> String {
    let mut l = json!({"ddd":0,"ind":1,"ty":3,"nm":"L","ip":0,"op":60,"st":0,"ks":ks});
    for (k, v) in layer.as_object().unwrap() {
        l[k] = v.clone();
    }
    json!({"v":"5.7.4","fr":30,"ip":0,"op":60,"w":200,"h":200,"nm":"t","layers":[l]}).to_string()
}

fn read(text: &str) -> Document {
    read_bytes(text.as_bytes(), Path::new("t.json")).unwrap_or_else(|e| panic!("{e}"))
}

fn track<'d>(doc: &'d Document, name: &str) -> &'d Track {
    doc.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no track {name}"))
}

/// The track's value at composition frame `frame` (30 fps, `ip` 0), the time rounded to `f32`
/// like key times are.
fn at(track: &Track, frame: f64) -> Vec<f64> {
    let mut out = vec![0.0; track.value_size()];
    Sampler::new(track).evaluate_f64((frame / 30.0) as f32 as f64, &mut out);
    out
}

/// Within 1e-4 relative (absolute near zero).
fn ease_close(got: &[f64], want: &[f64]) {
    for (g, w) in got.iter().zip(want) {
        let tol = 1e-4 * w.abs().max(1.0);
        assert!((g - w).abs() <= tol, "got {got:?}, want {want:?}");
    }
}

/// Within 0.01 px.
fn px_close(got: &[f64], want: &[f64]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 0.01, "got {got:?}, want {want:?}");
    }
}

const EASE: &str = r#""o":{"x":[0.333],"y":[0]},"i":{"x":[0.667],"y":[1]}"#;

fn keys(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a10_scalar_ease() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0],{EASE}}},{{"t":30,"s":[90]}}]"#
    ));
    let doc = read(&comp(json!({"r":{"a":1,"k":k}})));
    let t = track(&doc, "L.rotation");
    assert_eq!(t.interpolation, Interpolation::Bezier);
    for (f, v) in [
        (-5.0, 0.0),
        (3.0, 2.523502),
        (7.5, 14.071992),
        (22.5, 75.928008),
        (29.0, 89.706143),
        (30.0, 90.0),
        (40.0, 90.0),
    ] {
        ease_close(&at(t, f), &[v]);
    }
}

#[test]
fn a10_hold_mix() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0],"h":1}},{{"t":10,"s":[50],{EASE}}},{{"t":20,"s":[100],"h":1}},{{"t":30,"s":[7]}}]"#
    ));
    let doc = read(&comp(json!({"o":{"a":1,"k":k}})));
    let t = track(&doc, "L.opacity");
    for (f, v) in [
        (9.99, 0.0),
        (10.0, 50.0),
        (15.0, 75.0),
        (19.9, 99.985071),
        (20.0, 100.0),
        (29.99, 100.0),
        (30.0, 7.0),
    ] {
        ease_close(&at(t, f), &[v]);
    }
}

#[test]
fn a10_holds_only_make_a_discrete_track() {
    let k = keys(r#"[{"t":0,"s":[0],"h":1},{"t":10,"s":[50],"h":1},{"t":20,"s":[7]}]"#);
    let doc = read(&comp(json!({"o":{"a":1,"k":k}})));
    let t = track(&doc, "L.opacity");
    assert_eq!(t.interpolation, Interpolation::Discrete);
    assert_eq!(t.len(), 3);
    for (f, v) in [
        (-1.0, 0.0),
        (9.99, 0.0),
        (10.0, 50.0),
        (19.99, 50.0),
        (20.0, 7.0),
    ] {
        ease_close(&at(t, f), &[v]);
    }
}

#[test]
fn a10_spatial_eased() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0,0,0],"to":[50,0,0],"ti":[0,-50,0],{EASE}}},{{"t":60,"s":[100,100,0]}}]"#
    ));
    let doc = read(&comp(json!({"p":{"a":1,"k":k}})));
    let t = track(&doc, "L.position");
    assert_eq!(
        t.interpolation,
        Interpolation::Linear,
        "motion paths are baked"
    );
    assert!(t.len() > 60);
    for (f, x, y) in [
        (6.0, 4.340413, 0.125864),
        (15.0, 23.852022, 3.652939),
        (30.0, 68.749153, 31.250845),
        (45.0, 96.347061, 76.14798),
        (54.0, 99.874138, 95.659584),
    ] {
        px_close(&at(t, f), &[x, y, 0.0]);
    }
}

#[test]
fn a10_spatial_linear() {
    let k = keys(
        r#"[{"t":0,"s":[0,0],"to":[50,0],"ti":[0,-50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":60,"s":[100,100]}]"#,
    );
    let doc = read(&comp(json!({"p":{"a":1,"k":k}})));
    let t = track(&doc, "L.position");
    for (f, x, y) in [
        (15.0, 37.360806, 8.896465),
        (30.0, 68.749153, 31.250845),
        (45.0, 91.103539, 62.639194),
    ] {
        px_close(&at(t, f), &[x, y]);
    }
    // Between whole frames the bake stays within 0.01 px of the path as well.
    let mid = at(t, 15.5);
    assert!((mid[0] - at(t, 15.0)[0]).abs() > 0.1);
}

#[test]
fn a10_per_dimension_ease() {
    let k = keys(
        r#"[{"t":0,"s":[0,0],"o":{"x":[0.5,0.1],"y":[0,0]},"i":{"x":[0.5,0.9],"y":[1,1]}},{"t":10,"s":[100,100]}]"#,
    );
    let doc = read(&comp(json!({"s":{"a":1,"k":k}})));
    let t = track(&doc, "L.scale");
    assert_eq!(t.interpolation, Interpolation::Bezier);
    ease_close(&at(t, 2.5), &[10.589254, 22.539721]);
    ease_close(&at(t, 7.5), &[89.410744, 77.460281]);
}

#[test]
fn a10_old_s_e_keys() {
    let k = keys(
        r#"[{"t":0,"s":[0,10],"e":[100,20],"o":{"x":[0.5,0.1],"y":[0,0]},"i":{"x":[0.5,0.9],"y":[1,1]}},
            {"t":10,"s":[100,20],"e":[50,50],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":20}]"#,
    );
    let doc = read(&comp(json!({"a":{"a":1,"k":k}})));
    let t = track(&doc, "L.anchor");
    ease_close(&at(t, 2.5), &[10.589254, 12.253972]);
    ease_close(&at(t, 15.0), &[75.0, 35.0]);
    ease_close(&at(t, 25.0), &[50.0, 50.0]);
}

#[test]
fn a10_overshoot() {
    let k = keys(
        r#"[{"t":0,"s":[0],"o":{"x":[0.3],"y":[-0.5]},"i":{"x":[0.7],"y":[1.5]}},{"t":10,"s":[100]}]"#,
    );
    let doc = read(&comp(json!({"sk":{"a":1,"k":k},"sa":{"a":0,"k":0}})));
    let t = track(&doc, "L.skew");
    for (f, v) in [
        (1.0, -8.079161),
        (2.0, -3.092803),
        (5.0, 50.0),
        (8.0, 103.092803),
        (9.0, 108.079161),
    ] {
        ease_close(&at(t, f), &[v]);
    }
    assert_eq!(track(&doc, "L.skewAxis").len(), 1);
}

#[test]
fn a10_st_does_not_shift_keys() {
    let k = keys(
        r#"[{"t":10,"s":[0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":20,"s":[100]}]"#,
    );
    let doc = read(&comp_with(json!({"r":{"a":1,"k":k}}), json!({"st":5})));
    let t = track(&doc, "L.rotation");
    assert_eq!(t.interpolation, Interpolation::Linear);
    ease_close(&at(t, 15.0), &[50.0]);
}

#[test]
fn a10_duplicated_times() {
    let lin = r#""o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}"#;
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0],{lin}}},{{"t":10,"s":[10],{lin}}},{{"t":10,"s":[50],{lin}}},{{"t":20,"s":[60]}}]"#
    ));
    let doc = read(&comp(json!({"r":{"a":1,"k":k}})));
    let t = track(&doc, "L.rotation");
    ease_close(&at(t, 9.999), &[9.999]);
    ease_close(&at(t, 10.0), &[50.0]);
    ease_close(&at(t, 15.0), &[55.0]);
}

#[test]
fn a10_collinear_tangents_are_plain_lerp() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0,0],"to":[10,0],"ti":[-10,0],{EASE}}},{{"t":10,"s":[90,0]}}]"#
    ));
    let doc = read(&comp(json!({"p":{"a":1,"k":k}})));
    let t = track(&doc, "L.position");
    assert_eq!(t.interpolation, Interpolation::Bezier, "not baked");
    assert_eq!(t.len(), 2);
    ease_close(&at(t, 2.5), &[14.071992, 0.0]);
}

#[test]
fn a10_matrices_through_tracks() {
    let text = comp(json!({
        "a":{"a":0,"k":[10,20,0]},"p":{"a":0,"k":[100,50,0]},"s":{"a":0,"k":[200,50,100]},
        "r":{"a":0,"k":30},"sk":{"a":0,"k":20},"sa":{"a":0,"k":45},"o":{"a":0,"k":100}
    }));
    let doc = read(&text);
    let m = world_matrix(&doc.clips[0], "L", 0.0).unwrap();
    let want = [1.234858, 1.133222, -0.374298, 0.466318, 95.137383, 29.34141];
    for (a, b) in m.iter().zip(want) {
        assert!((a - b).abs() < 1e-5, "{m:?}");
    }
    // Split position: x linear 0 → 100 over 10 frames, y 7; frame 5 → e = 50, f = 7.
    let lin = r#""o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}"#;
    let x = keys(&format!(
        r#"[{{"t":0,"s":[0],{lin}}},{{"t":10,"s":[100]}}]"#
    ));
    let doc = read(&comp(
        json!({"p":{"s":true,"x":{"a":1,"k":x},"y":{"a":0,"k":7}}}),
    ));
    assert_eq!(track(&doc, "L.position[x]").kind, TrackKind::Number);
    let m = world_matrix(&doc.clips[0], "L", 5.0 / 30.0).unwrap();
    assert!(
        (m[4] - 50.0).abs() < 1e-4 && (m[5] - 7.0).abs() < 1e-9,
        "{m:?}"
    );
}

#[test]
fn parenting_multiplies_parent_matrices() {
    let parent = json!({"ddd":0,"ind":1,"ty":3,"nm":"P","ip":0,"op":60,"st":0,
        "ks":{"p":{"a":0,"k":[100,50,0]},"r":{"a":0,"k":90}}});
    let child = json!({"ddd":0,"ind":2,"ty":3,"nm":"C","parent":1,"ip":0,"op":60,"st":0,
        "ks":{"p":{"a":0,"k":[10,0,0]}}});
    let text = json!({"v":"5.7.4","fr":30,"ip":0,"op":60,"w":200,"h":200,"layers":[parent, child]});
    let doc = read(&text.to_string());
    let m = world_matrix(&doc.clips[0], "C", 0.0).unwrap();
    // The child's origin (10, 0) rotated 90° clockwise and moved to (100, 50).
    assert!(
        (m[4] - 100.0).abs() < 1e-9 && (m[5] - 60.0).abs() < 1e-9,
        "{m:?}"
    );
    let info = layers(&doc.clips[0]);
    assert_eq!(info[1].parent, Some(1.0));
    assert_eq!(info[1].name, "C");
}

#[test]
fn every_shared_file_reads() {
    if sample_data("lottie").is_none() {
        return;
    }
    for name in FILES {
        let doc = read_file(&data(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.format, Format::Lottie, "{name}");
        assert!(!doc.clips.is_empty(), "{name}");
        let top: Value = serde_json::from_slice(&std::fs::read(data(name)).unwrap()).unwrap();
        let precomps = top["assets"].as_array().map_or(0, |a| {
            a.iter().filter(|a| a.get("layers").is_some()).count()
        });
        assert_eq!(
            doc.clips.len(),
            1 + precomps,
            "{name}: one clip per composition"
        );
        let fr = top["fr"].as_f64().unwrap();
        let ip = top["ip"].as_f64().unwrap();
        let op = top["op"].as_f64().unwrap();
        assert!(
            (doc.clips[0].duration - (op - ip) / fr).abs() < 1e-9,
            "{name}"
        );
        for clip in &doc.clips {
            assert!(
                clip.validate()
                    .iter()
                    .all(|p| p.severity != clipscope_core::model::Severity::Error),
                "{name}: {:?}",
                clip.validate()
            );
            let mut names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
            names.sort();
            let before = names.len();
            names.dedup();
            assert_eq!(before, names.len(), "{name}: track names are unique");
        }
    }
}

#[test]
fn shared_file_details() {
    if sample_data("lottie").is_none() {
        return;
    }
    let doc = read_file(&data("transform.json")).unwrap();
    assert_eq!(doc.clips[0].name, "Animation");
    let skew = doc.clips[0]
        .tracks
        .iter()
        .find(|t| t.name.ends_with(".skew"))
        .expect("a skew track");
    assert_eq!(skew.len(), 1);

    // dalek: old s/e keys, duplicated layer names made unique with #ind.
    let doc = read_file(&data("dalek.json")).unwrap();
    let clip = &doc.clips[0];
    assert!(clip.tracks.iter().any(|t| t.name.contains('#')));
    assert!(
        clip.tracks
            .iter()
            .any(|t| t.interpolation == Interpolation::Bezier)
    );
    assert_eq!(layers(clip).len(), 46);

    // issue_1717: new-format keys with split positions inside precomps.
    let doc = read_file(&data("issue_1717.json")).unwrap();
    assert_eq!(doc.clips[0].name, "@4x_Master_Comp");
    assert!(
        doc.clips
            .iter()
            .flat_map(|c| &c.tracks)
            .any(|t| t.name.ends_with(".position[x]"))
    );
    // Root clip time 0 is the composition's ip (347).
    assert_eq!(doc.clips[0].duration, (1050.0 - 347.0) / 60.0);
}

#[test]
fn unmodified_round_trip_is_byte_for_byte() {
    if sample_data("lottie").is_none() {
        return;
    }
    for name in FILES {
        let bytes = std::fs::read(data(name)).unwrap();
        let doc = read_bytes(&bytes, &data(name)).unwrap();
        check_writable(&doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = write_bytes(&doc, &WriteOptions::default());
        assert!(out == bytes, "{name}: round trip changed the file");
        let a: Value = serde_json::from_slice(&bytes).unwrap();
        let b: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(a, b);
    }
}

/// Replaces the value of key `k` of the track `name` in clip 0 (all components by `f`).
fn edit_key(doc: &mut Document, name: &str, k: usize, f: impl Fn(f32) -> f32) {
    let t = doc.clips[0]
        .tracks
        .iter_mut()
        .find(|t| t.name == name)
        .unwrap();
    let vs = t.value_size();
    if let Values::Numbers(v) = &mut t.values {
        for x in &mut v[k * vs..(k + 1) * vs] {
            *x = f(*x);
        }
    }
}

#[test]
fn an_edited_key_lands_in_its_keyframe() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0],{EASE}}},{{"t":10,"s":[50],"h":1}},{{"t":20,"s":[100],{EASE}}},{{"t":30,"s":[7]}}]"#
    ));
    let text = comp(json!({"r":{"a":1,"k":k,"ix":10},"o":{"a":0,"k":100}}));
    let mut doc = read(&text);
    let before: Vec<usize> = vec![track(&doc, "L.rotation").len()];
    assert_eq!(before[0], 5, "the hold adds one key");
    // Key 3 of the model is the file's key 2 (t 20): 100 → 120.
    edit_key(&mut doc, "L.rotation", 3, |v| v + 20.0);
    let out = write_bytes(&doc, &WriteOptions::default());
    let v: Value = serde_json::from_slice(&out).unwrap();
    let r = &v["layers"][0]["ks"]["r"];
    assert_eq!(r["ix"], 10, "other fields kept");
    assert_eq!(r["a"], 1);
    let k = r["k"].as_array().unwrap();
    assert_eq!(k.len(), 4);
    assert_eq!(k[2]["s"], json!([120]));
    assert_eq!(k[2]["t"], 20);
    assert_eq!(k[1]["h"], 1, "the hold is still a hold");
    assert_eq!(
        k[0]["o"],
        json!({"x":[0.333],"y":[0]}),
        "untouched segment keeps its handles"
    );
    // Untouched properties are byte-identical.
    let orig: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["layers"][0]["ks"]["o"], orig["layers"][0]["ks"]["o"]);
    // The written file evaluates like the edited document.
    let back = read_bytes(&out, Path::new("t.json")).unwrap();
    let (a, b) = (track(&doc, "L.rotation"), track(&back, "L.rotation"));
    for f in [0.0, 5.0, 10.0, 15.0, 19.99, 20.0, 25.0, 30.0, 35.0] {
        let (x, y) = (at(a, f), at(b, f));
        assert!(
            (x[0] - y[0]).abs() < 1e-3 * x[0].abs().max(1.0),
            "frame {f}: {x:?} vs {y:?}"
        );
    }
}

#[test]
fn edits_on_a_real_file_round_trip() {
    if sample_data("lottie").is_none() {
        return;
    }
    let path = data("dalek.json");
    let bytes = std::fs::read(&path).unwrap();
    let mut doc = read_bytes(&bytes, &path).unwrap();
    // The first non-baked keyframed track of the root composition.
    let name = doc.clips[0]
        .tracks
        .iter()
        .find(|t| t.len() > 2 && t.interpolation == Interpolation::Bezier)
        .map(|t| t.name.clone())
        .unwrap();
    edit_key(&mut doc, &name, 1, |v| v + 3.0);
    let out = write_bytes(&doc, &WriteOptions::default());
    assert_ne!(out, bytes);
    let back = read_bytes(&out, &path).unwrap();
    let (a, b) = (
        doc.clips[0].tracks.iter().find(|t| t.name == name).unwrap(),
        back.clips[0]
            .tracks
            .iter()
            .find(|t| t.name == name)
            .unwrap(),
    );
    assert_eq!(a.times, b.times, "{name}");
    let (va, vb) = (
        a.values.as_numbers().unwrap(),
        b.values.as_numbers().unwrap(),
    );
    for (x, y) in va.iter().zip(vb) {
        assert!(
            (x - y).abs() <= 1e-4 * x.abs().max(1.0),
            "{name}: {va:?} vs {vb:?}"
        );
    }
    // Every other track reads back identically.
    for (ta, tb) in doc
        .clips
        .iter()
        .flat_map(|c| &c.tracks)
        .zip(back.clips.iter().flat_map(|c| &c.tracks))
    {
        if ta.name != name {
            assert_eq!(ta, tb);
        }
    }
    // A static value edited: written as a static value.
    let mut doc = read_bytes(&bytes, &path).unwrap();
    let stat = doc.clips[0]
        .tracks
        .iter()
        .find(|t| t.len() == 1 && t.name.ends_with(".rotation"))
        .map(|t| t.name.clone())
        .unwrap();
    edit_key(&mut doc, &stat, 0, |_| 12.5);
    let back = read_bytes(&write_bytes(&doc, &WriteOptions::default()), &path).unwrap();
    let t = back.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == stat)
        .unwrap();
    assert_eq!(t.values, Values::Numbers(vec![12.5]));
}

#[test]
fn renamed_clip_and_new_duration_are_written() {
    let mut doc = read(&comp(json!({"r":{"a":0,"k":0}})));
    doc.clips[0].name = "renamed".into();
    doc.clips[0].duration = 1.0;
    let v: Value = serde_json::from_slice(&write_bytes(&doc, &WriteOptions::default())).unwrap();
    assert_eq!(v["nm"], "renamed");
    assert_eq!(v["op"], 30);
}

#[test]
fn foreign_tracks_and_documents_are_refused() {
    let mut doc = read(&comp(json!({"r":{"a":0,"k":0}})));
    doc.clips[0].tracks.push(Track::numeric(
        "other.position",
        TrackKind::Vector,
        vec![0.0],
        vec![1.0, 2.0, 3.0],
    ));
    let e = check_writable(&doc).unwrap_err();
    assert!(e.reason.contains("t|other.position"), "{e}");
    let threejs = read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap()
    .converted_to(Format::Lottie);
    // Another document becomes a new composition, unless its times are NaN or unsorted.
    assert!(check_writable(&threejs).is_ok());
    let mut bad = threejs.clone();
    bad.clips[0].tracks[0].times[1] = f32::NAN;
    let e = check_writable(&bad).unwrap_err();
    assert!(e.reason.contains("walk|.bones[hips].position"), "{e}");
}

fn error(text: &str) -> String {
    match read_bytes(text.as_bytes(), Path::new("bad.json")) {
        Ok(_) => panic!("read {text} without error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_input_errors_name_the_json_path() {
    let k = r#"[{"t":0,"s":[0,0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":5,"s":"oops"}]"#;
    let text = comp(json!({"p":{"a":1,"k":keys(k)}}));
    assert_eq!(
        error(&text),
        "bad.json: layers[0].ks.p.k[1].s: expected an array of numbers, found a string"
    );
    let base = |fr: &str| format!(r#"{{"v":"5.7.4",{fr}"ip":0,"op":10,"layers":[]}}"#);
    assert_eq!(
        error(&base(r#""fr":0,"#)),
        "bad.json: fr: the frame rate must be a positive number, not 0"
    );
    assert_eq!(error(&base("")), "bad.json: fr: missing frame rate \"fr\"");
    assert_eq!(
        error(&base(r#""fr":"30","#)),
        "bad.json: fr: expected a number, found a string"
    );
    assert_eq!(
        error(r#"{"v":"5","fr":30,"ip":0,"op":10,"layers":{}}"#),
        "bad.json: layers: expected an array of layers, found an object"
    );
    assert_eq!(
        error(r#"{"v":"5","fr":30,"ip":0,"op":10,"layers":[3]}"#),
        "bad.json: layers[0]: expected an object, found a number"
    );
    let text = comp(json!({"r":{"a":1,"k":keys(r#"[{"t":5,"s":[0]},{"t":2,"s":[1]}]"#)}}));
    assert!(
        error(&text)
            .starts_with("bad.json: layers[0].ks.r.k[1].t: keyframe times must not go back")
    );
    let text = comp(json!({"r":{"a":1,"k":keys(r#"[{"t":0},{"t":2,"s":[1]}]"#)}}));
    assert_eq!(
        error(&text),
        "bad.json: layers[0].ks.r.k[0].s: missing keyframe value \"s\""
    );
    let text = comp(json!({"s":{"a":1,"k":keys(r#"[{"t":0,"s":[1,2]},{"t":2,"s":[1]}]"#)}}));
    assert_eq!(
        error(&text),
        "bad.json: layers[0].ks.s.k[1].s: expected 2 numbers like the first keyframe, found 1"
    );
    let text = comp(json!({"r":{"a":1,"k":"x"}}));
    assert_eq!(
        error(&text),
        "bad.json: layers[0].ks.r.k: expected a number, an array of numbers or an array of keyframes, found a string"
    );
    // Truncated and non-object files.
    let full = comp(json!({"r":{"a":0,"k":0}}));
    let cut = &full[..full.len() - 20];
    let e = error(cut);
    assert!(e.contains("truncated JSON"), "{e}");
    assert!(e.starts_with("bad.json: layers[0]"), "{e}");
    if sample_data("lottie").is_none() {
        return;
    }
    // Every prefix of a real file fails cleanly, without a panic.
    let bytes = std::fs::read(data("transform.json")).unwrap();
    for cut in (0..bytes.len()).step_by(97) {
        let _ = read_bytes(&bytes[..cut], Path::new("cut.json"));
    }
}

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

#[test]
fn cli_sample_gives_lottie_web_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ease.json");
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0],{EASE}}},{{"t":30,"s":[90]}}]"#
    ));
    std::fs::write(&file, comp(json!({"r":{"a":1,"k":k}}))).unwrap();
    // Frames 3, 7.5 and 22.5 at 30 fps.
    let o = clipscope(&["sample", file.to_str().unwrap(), "--times", "0.1,0.25,0.75"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v["t|L.rotation"].as_array().unwrap();
    for (row, want) in rows.iter().zip([2.523502, 14.071992, 75.928008]) {
        let got = row[0].as_f64().unwrap();
        assert!((got - want).abs() < 1e-4 * want, "{got} vs {want}");
    }
}

#[test]
fn cli_convert_to_and_from_threejs() {
    if sample_data("lottie").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dalek.threejs.json");
    let o = clipscope(&[
        "convert",
        data("dalek.json").to_str().unwrap(),
        "--to",
        "threejs",
        "-o",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("lottie → threejs"), "{text}");
    assert!(text.contains("not written: layer parenting"), "{text}");
    assert!(text.contains("motion-path tangents"), "{text}");
    // The three.js file evaluates like the Lottie document (Bezier tangents carried).
    let lottie = read_file(&data("dalek.json")).unwrap();
    let three = read_file(&out).unwrap();
    assert_eq!(three.format, Format::ThreeJs);
    assert_eq!(lottie.clips.len(), three.clips.len());
    for (a, b) in lottie.clips[0].tracks.iter().zip(&three.clips[0].tracks) {
        assert_eq!(a.name, b.name);
        for f in [0.0, 7.3, 40.0, 121.5] {
            assert_eq!(at(a, f), at(b, f), "{}", a.name);
        }
    }
    // Parenting survives as userData.
    assert_eq!(layers(&three.clips[0]).len(), 46);

    // three.js → Lottie becomes a composition of null layers, listing what is lost.
    let back = dir.path().join("back.json");
    let o = clipscope(&[
        "convert",
        out.to_str().unwrap(),
        "--to",
        "lottie",
        "-o",
        back.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("threejs → lottie"), "{text}");
    assert!(text.contains("not written: position z"), "{text}");
    assert!(back.exists());

    // Lottie → Lottie through the CLI keeps the file byte for byte.
    let same = dir.path().join("same.json");
    let o = clipscope(&[
        "convert",
        data("starfish.json").to_str().unwrap(),
        "-o",
        same.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&same).unwrap(),
        std::fs::read(data("starfish.json")).unwrap()
    );
}

#[test]
fn lint_reads_lottie() {
    if sample_data("lottie").is_none() {
        return;
    }
    let formats::Linted { doc, problems, .. } =
        formats::lint_file(&data("dalek.json"), &Default::default());
    assert!(doc.is_some());
    assert!(
        problems
            .iter()
            .all(|p| p.severity != clipscope_core::model::Severity::Error)
    );
}

#[test]
fn edited_baked_paths_and_interpolation_changes_write_back_faithfully() {
    let k = keys(&format!(
        r#"[{{"t":0,"s":[0,0,0],"to":[50,0,0],"ti":[0,-50,0],{EASE}}},{{"t":60,"s":[100,100,0]}}]"#
    ));
    let text = comp(
        json!({"p":{"a":1,"k":k,"ix":2},"r":{"a":1,"k":keys(&format!(
            r#"[{{"t":0,"s":[0],{EASE}}},{{"t":10,"s":[30],{EASE}}},{{"t":20,"s":[90]}}]"#
        ))},"o":{"a":1,"k":keys(&format!(
            r#"[{{"t":0,"s":[0],{EASE}}},{{"t":10,"s":[100]}}]"#
        ))}}),
    );
    let mut doc = read(&text);
    // A baked motion path, edited: written as its linear keys, without tangents.
    let n = track(&doc, "L.position").len();
    edit_key(&mut doc, "L.position", n / 2, |v| v + 1.0);
    // Rotation switched to discrete: every key but the last holds.
    let r = doc.clips[0]
        .tracks
        .iter_mut()
        .find(|t| t.name == "L.rotation")
        .unwrap();
    r.interpolation = Interpolation::Discrete;
    r.tangents = None;
    // Opacity cut to one key: a static value.
    let o = doc.clips[0]
        .tracks
        .iter_mut()
        .find(|t| t.name == "L.opacity")
        .unwrap();
    o.times.truncate(1);
    o.values = Values::Numbers(vec![40.0]);
    o.tangents = None;
    let out = write_bytes(&doc, &WriteOptions::default());
    let v: Value = serde_json::from_slice(&out).unwrap();
    let ks = &v["layers"][0]["ks"];
    let p = ks["p"]["k"].as_array().unwrap();
    assert_eq!(p.len(), n);
    assert!(p.iter().all(|k| k.get("to").is_none()));
    assert_eq!(ks["p"]["ix"], 2);
    let r = ks["r"]["k"].as_array().unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!((r[0]["h"].clone(), r[1]["h"].clone()), (json!(1), json!(1)));
    assert_eq!(ks["o"], json!({"a":0,"k":[40]}));
    // What lottie-web reads from the output is what the edited document holds.
    let back = read_bytes(&out, Path::new("t.json")).unwrap();
    for name in ["L.position", "L.rotation", "L.opacity"] {
        let (a, b) = (track(&doc, name), track(&back, name));
        for f in [0.0, 4.5, 10.0, 15.0, 29.5, 30.0, 59.0, 61.0] {
            let (x, y) = (at(a, f), at(b, f));
            for (p, q) in x.iter().zip(&y) {
                assert!((p - q).abs() < 1e-3, "{name} frame {f}: {x:?} vs {y:?}");
            }
        }
    }
}

/// The layer node a three.js track name animates (bone, node or, for root tracks, `root`).
fn node_of(name: &str, root: &str) -> String {
    if let Some(rest) = name.strip_prefix(".bones[") {
        return rest[..rest.rfind(']').unwrap()].to_string();
    }
    let node = name[..name.rfind('.').unwrap()].trim_end_matches(".material");
    if node.is_empty() {
        root.to_string()
    } else {
        node.to_string()
    }
}

/// Converts `doc` to Lottie, reads it back and checks that every position, rotation, scale
/// and opacity track evaluates like the source at 5 frame times after the unit mapping;
/// returns the written JSON and the document read back.
fn to_lottie_and_back(doc: Document) -> (Value, Document) {
    assert!(check_writable(&doc.clone().converted_to(Format::Lottie)).is_ok());
    let losses = formats::conversion_losses(&doc, Format::Lottie);
    assert!(!losses.is_empty());
    let src = doc.clips[0].clone();
    let lottie = doc.converted_to(Format::Lottie);
    let bytes = write_bytes(&lottie, &WriteOptions::default());
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    let back = read_bytes(&bytes, Path::new("out.json")).unwrap_or_else(|e| panic!("{e}"));
    let fr = json["fr"].as_f64().unwrap();
    let op = json["op"].as_f64().unwrap();
    assert_eq!(op, (src.duration * fr).ceil());
    let mut checked = 0;
    for t in &src.tracks {
        let prop = t.name.rsplit('.').next().unwrap();
        if !matches!(prop, "position" | "quaternion" | "scale" | "opacity") {
            continue;
        }
        let node = node_of(&t.name, &src.name);
        let layer = json["layers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["nm"] == node.as_str())
            .unwrap_or_else(|| panic!("no layer {node}"));
        let child = layer.get("parent").is_some();
        let sanitized = clipscope_core::model::binding::sanitize_node_name(&node);
        let lottie_prop = match prop {
            "quaternion" => "rotation",
            p => p,
        };
        let read = track(&back, &format!("{sanitized}.{lottie_prop}"));
        for i in 0..5 {
            let time = ((op * i as f64 / 4.0).floor() / fr).min(src.duration);
            let a = at_time(t, time);
            let b = at_time(read, time);
            let expected: Vec<f64> = match prop {
                "position" => {
                    let c = if child { 0.0 } else { 256.0 };
                    vec![a[0] * 100.0 + c, -a[1] * 100.0 + c]
                }
                "quaternion" => vec![-(2.0 * a[2].atan2(a[3])).to_degrees()],
                "scale" => vec![a[0] * 100.0, a[1] * 100.0],
                _ => vec![a[0] * 100.0],
            };
            for (e, g) in expected.iter().zip(&b) {
                let d = if prop == "quaternion" {
                    ((e - g + 180.0).rem_euclid(360.0) - 180.0).abs()
                } else {
                    (e - g).abs()
                };
                assert!(d < 1e-3, "{} at {time}: {expected:?} vs {b:?}", t.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
    (json, back)
}

/// The track's value at `time` seconds, rounded to `f32` like key times are.
fn at_time(track: &Track, time: f64) -> Vec<f64> {
    let mut out = vec![0.0; track.value_size()];
    Sampler::new(track).evaluate_f64(time as f32 as f64, &mut out);
    out
}

#[test]
fn demo_walk_becomes_a_composition_of_null_layers() {
    let doc = read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap();
    let losses = formats::conversion_losses(&doc, Format::Lottie);
    let all = losses.join("\n");
    assert!(all.contains("(idle)"), "{all}");
    assert!(all.contains(".morphTargetInfluences[blink]"), "{all}");
    let (json, back) = to_lottie_and_back(doc);
    assert_eq!(json["v"], "5.7.4");
    assert_eq!(json["op"], 30);
    assert_eq!(json["w"], 512);
    let names: Vec<&str> = json["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["nm"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "hips",
            "torso",
            "head",
            "upperArm.L",
            "upperArm.R",
            "upperLeg.L",
            "upperLeg.R",
            "lowerLeg.L",
            "lowerLeg.R"
        ]
    );
    for (i, l) in json["layers"].as_array().unwrap().iter().enumerate() {
        assert_eq!(l["ty"], 3);
        assert_eq!(l["ind"], i + 1);
    }
    assert_eq!(back.clips.len(), 1);
    assert_eq!(back.clips[0].name, "walk");
    assert_eq!(layers(&back.clips[0]).len(), 9);
    // Linear keys: lottie-web's linear handles.
    let k = &json["layers"][0]["ks"]["p"]["k"][0];
    assert_eq!(k["o"], json!({"x":[0,0],"y":[0,0]}));
    assert_eq!(k["i"], json!({"x":[1,1],"y":[1,1]}));
}

#[test]
fn playcanvas_and_gltf_become_compositions() {
    if sample_data("lottie").is_none() {
        return;
    }
    let shared = |rel: &str| sample_data_root().join(rel);
    let cube = read_file(&shared("playcanvas/cube.animation.json")).unwrap();
    let (json, _) = to_lottie_and_back(cube);
    assert_eq!(json["layers"].as_array().unwrap().len(), 1);
    let box_ = read_file(&shared("gltf/BoxAnimated.gltf")).unwrap();
    let losses = formats::conversion_losses(&box_, Format::Lottie).join("\n");
    assert!(losses.contains("other clip"), "{losses}");
    let (json, back) = to_lottie_and_back(box_);
    // The node hierarchy becomes layer parenting.
    let parents: Vec<Value> = json["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["parent"].clone())
        .collect();
    assert_eq!(parents, [Value::Null, json!(1), json!(2)]);
    assert_eq!(layers(&back.clips[0])[2].parent, Some(2.0));
    // A rotation about the view axis is carried.
    let triangle = read_file(&shared("gltf/AnimatedTriangle.gltf")).unwrap();
    let (json, _) = to_lottie_and_back(triangle);
    assert_eq!(json["layers"][0]["ks"]["r"]["a"], 1);
}

#[test]
fn bezier_discrete_and_smooth_tracks_evaluate_alike_in_lottie() {
    let mut doc = read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap();
    doc.clips.truncate(1);
    let mut bezier = Track::numeric(
        "a.position",
        TrackKind::Vector,
        vec![0.0, 1.0],
        vec![0.0, 0.0, 0.0, 1.0, 2.0, 0.5],
    );
    bezier.interpolation = Interpolation::Bezier;
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    for (k, (t, v)) in [(0.0f32, [0.0f32, 0.0, 0.0]), (1.0, [1.0, 2.0, 0.5])]
        .into_iter()
        .enumerate()
    {
        for (c, value) in v.iter().enumerate() {
            ins.extend([t - 0.3, value - 0.1 * k as f32]);
            outs.extend([t + 0.4, value + 0.2 * c as f32]);
        }
    }
    bezier.tangents = Some(clipscope_core::model::Tangents::new(ins, outs));
    let mut discrete = Track::numeric(
        "a.scale",
        TrackKind::Vector,
        vec![0.0, 0.5, 1.0],
        vec![1.0, 1.0, 1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0],
    );
    discrete.interpolation = Interpolation::Discrete;
    let mut smooth = Track::numeric(
        "b.position",
        TrackKind::Vector,
        vec![0.0, 0.4, 1.0],
        vec![0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.5, 0.5, 0.0],
    );
    smooth.interpolation = Interpolation::Smooth;
    let opacity = Track::numeric(
        "b.material.opacity",
        TrackKind::Number,
        vec![0.0, 1.0],
        vec![1.0, 0.25],
    );
    doc.clips[0].tracks = vec![bezier, discrete, smooth, opacity];
    doc.clips[0].duration = 1.0;
    let (json, _) = to_lottie_and_back(doc);
    let ks = &json["layers"][0]["ks"];
    assert_eq!(ks["s"]["k"][0]["h"], 1);
    assert_eq!(
        json["layers"][1]["ks"]["p"]["k"].as_array().unwrap().len(),
        31
    );
    assert_eq!(json["layers"][1]["ks"]["o"]["k"][1]["s"], json!([25]));
}

#[test]
fn markers_are_read_as_the_clips_markers_and_written_back_when_edited() {
    use clipscope_core::model::ops::Marker;
    let ks = json!({"p":{"a":0,"k":[0,0,0]}});
    let mut text: Value = serde_json::from_str(&comp(ks)).unwrap();
    text["ip"] = json!(10);
    text["markers"] = json!([
        {"tm": 25, "cm": "contact", "dr": 5},
        {"tm": "oops"},
        {"tm": 40, "cm": "lift", "dr": 0}
    ]);
    let text = text.to_string();
    let doc = read(&text);
    let m = |name: &str, time: f64| Marker {
        name: name.into(),
        time,
    };
    // Frame 25 of a composition starting at frame 10, 30 fps: 0.5 s.
    assert_eq!(doc.clips[0].markers(), [m("contact", 0.5), m("lift", 1.0)]);
    // Unedited: byte for byte.
    let out = write_bytes(&doc, &WriteOptions::default());
    assert_eq!(String::from_utf8(out).unwrap(), text);
    // Rename one, add one: the untouched marker keeps its text (dr: 5), the entry not
    // understood stays, the new one is written in frames.
    let mut doc = doc;
    doc.clips[0]
        .set_markers(&[m("contact", 0.5), m("lift off", 1.0), m("land", 1.5)])
        .unwrap();
    let out = write_bytes(&doc, &WriteOptions::default());
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["markers"],
        json!([
            {"tm": 25, "cm": "contact", "dr": 5},
            {"tm": 40, "cm": "lift off", "dr": 0},
            {"tm": 55, "cm": "land", "dr": 0},
            {"tm": "oops"}
        ])
    );
    let back = read(std::str::from_utf8(&out).unwrap());
    assert_eq!(
        back.clips[0].markers(),
        [m("contact", 0.5), m("lift off", 1.0), m("land", 1.5)]
    );
    // A file without markers gets them inserted.
    let mut plain = read(&comp(json!({"p":{"a":0,"k":[0,0,0]}})));
    plain.clips[0].set_markers(&[m("hit", 1.0)]).unwrap();
    let out = write_bytes(&plain, &WriteOptions::default());
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["markers"], json!([{"tm": 30, "cm": "hit", "dr": 0}]));
}
