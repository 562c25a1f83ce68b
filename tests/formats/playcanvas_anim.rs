//! PlayCanvas anim clips (the anim system's JSON asset): curves read as the engine evaluates
//! them (positions, quaternion and Euler-degree rotations, scales, cubic curves, properties of
//! other components as tracks named by their path), played, written back unchanged and edited,
//! converted to and from every format, bad input located, and `convert --to playcanvas-anim`.

use std::f64::consts::FRAC_1_SQRT_2;
use std::path::Path;
use std::process::Command;

use clipscope_core::formats::{
    self, Document, Format, WriteOptions, check_writable, conversion_losses, read_bytes,
    write_bytes,
};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Interpolation, TrackKind};

/// A clip with a linear position, a linear Euler rotation (90° about Y at the end), a cubic
/// quaternion rotation, a stepped scale and a light colour; one input shared by most curves.
const CLIP: &str = r#"{"name":"Wave","duration":1,
"inputs":[[0,0.5,1],[0,1]],
"outputs":[
 {"components":3,"data":[0,0,0, 0,2,0, 0,0,0]},
 {"components":3,"data":[0,0,0, 0,45,0, 0,90,0]},
 {"components":4,"data":[0,0,0,0, 0,0,0,1, 0,0,0,0,  0,0,0,0, 0,0,0.7071068,0.7071068, 0,0,0,0]},
 {"components":3,"data":[1,1,1, 2,2,2]},
 {"components":3,"data":[1,0,0, 0,0,1]}],
"curves":[
 {"path":"Root.Arm/entity/localPosition","inputIndex":0,"outputIndex":0,"interpolation":1},
 {"path":"Root.Arm/entity/localEulerAngles","inputIndex":0,"outputIndex":1,"interpolation":1},
 {"path":{"entityPath":["Root","Hand"],"component":"graph","propertyPath":["localRotation"]},"inputIndex":1,"outputIndex":2,"interpolation":2},
 {"path":"Root.Arm/entity/localScale","inputIndex":1,"outputIndex":3,"interpolation":0},
 {"path":"Root.Spot/light/color","inputIndex":1,"outputIndex":4}],
"events":[{"time":0.5,"name":"clap"}]}"#;

fn at(doc: &Document, track: usize, t: f64) -> Vec<f64> {
    let track = &doc.clips[0].tracks[track];
    let mut out = vec![0.0; track.value_size()];
    Sampler::new(track).evaluate_f64(t, &mut out);
    out
}

#[test]
fn curves_read_as_the_engine_evaluates_them() {
    let doc = read_bytes(CLIP.as_bytes(), Path::new("wave.json")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::PlayCanvasAnim);
    let clip = &doc.clips[0];
    assert_eq!((clip.name.as_str(), clip.duration), ("Wave", 1.0));
    let names: Vec<(&str, TrackKind, Interpolation)> = clip
        .tracks
        .iter()
        .map(|t| (t.name.as_str(), t.kind, t.interpolation))
        .collect();
    assert_eq!(
        names,
        [
            ("Arm.position", TrackKind::Vector, Interpolation::Linear),
            (
                "Arm.quaternion",
                TrackKind::Quaternion,
                Interpolation::Linear
            ),
            (
                "Hand.quaternion",
                TrackKind::Quaternion,
                Interpolation::Bezier
            ),
            ("Arm.scale", TrackKind::Vector, Interpolation::Discrete),
            (
                "Root.Spot/light/color",
                TrackKind::Color,
                Interpolation::Linear
            ),
        ]
    );
    assert_eq!(at(&doc, 0, 0.25), [0.0, 1.0, 0.0]);
    // 90° about Y, as Quat.setFromEulerAngles(0, 90, 0) gives.
    let q = at(&doc, 1, 1.0);
    assert!(
        (q[1] - FRAC_1_SQRT_2).abs() < 1e-6 && (q[3] - FRAC_1_SQRT_2).abs() < 1e-6,
        "{q:?}"
    );
    // The cubic curve with zero tangents passes through its keys.
    let q = at(&doc, 2, 1.0);
    assert!((q[2] - FRAC_1_SQRT_2).abs() < 1e-6, "{q:?}");
    assert_eq!(at(&doc, 3, 0.9), [1.0, 1.0, 1.0]);
    assert_eq!(at(&doc, 4, 0.5), [0.5, 0.0, 0.5]);
    // The format's own rules find only what engine 2.x would trip on: string paths (its anim
    // component cannot bind them) and the colour curve without an interpolation.
    let linted = formats::lint_bytes(CLIP.as_bytes(), Path::new("wave.json"), &Default::default());
    let found: Vec<String> = linted
        .problems
        .iter()
        .map(|p| format!("{} {}", p.code, p.message.split(':').next().unwrap_or("")))
        .collect();
    assert_eq!(
        found,
        [
            "playcanvas-string-path curves[0]",
            "playcanvas-string-path curves[1]",
            "playcanvas-string-path curves[3]",
            "playcanvas-string-path curves[4]",
            "playcanvas-missing-interpolation curves[4]",
        ]
    );
}

#[test]
fn unedited_is_written_back_byte_for_byte_and_edits_keep_paths_and_fields() {
    let doc = read_bytes(CLIP.as_bytes(), Path::new("wave.json")).unwrap();
    assert_eq!(write_bytes(&doc, &WriteOptions::default()), CLIP.as_bytes());
    assert!(conversion_losses(&doc, Format::PlayCanvasAnim).is_empty());
    let mut edited = doc.clone();
    edited.clips[0].name = "Wave2".into();
    let bytes = write_bytes(&edited, &WriteOptions::default());
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json["name"], "Wave2");
    assert_eq!(json["events"][0]["name"], "clap");
    assert_eq!(
        json["curves"][1]["path"],
        "Root.Arm/entity/localEulerAngles"
    );
    assert_eq!(
        json["curves"][2]["path"]["propertyPath"],
        serde_json::json!(["localRotation"])
    );
    // Euler degrees again (engine inverse), shared inputs, cubic kept cubic.
    let euler = &json["outputs"][json["curves"][1]["outputIndex"].as_u64().unwrap() as usize];
    assert_eq!(euler["components"], 3);
    assert_eq!(
        euler["data"],
        serde_json::json!([0, 0, 0, 0, 45, 0, 0, 90, 0])
    );
    assert_eq!(json["curves"][2]["interpolation"], 2);
    assert_eq!(json["inputs"].as_array().unwrap().len(), 2);
    let back = read_bytes(&bytes, Path::new("wave2.json")).unwrap();
    assert_eq!(back.clips[0].tracks.len(), 5);
    for (a, b) in back.clips[0].tracks.iter().zip(&edited.clips[0].tracks) {
        assert_eq!((&a.name, &a.times), (&b.name, &b.times));
        let (a, b) = (
            a.values.as_numbers().unwrap(),
            b.values.as_numbers().unwrap(),
        );
        assert!(
            a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6),
            "{a:?} {b:?}"
        );
    }
}

#[test]
fn every_format_converts_to_and_from_anim_clips() {
    let walk = formats::read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap();
    let doc = walk.clone().converted_to(Format::PlayCanvasAnim);
    check_writable(&doc).unwrap();
    let bytes = write_bytes(&doc, &WriteOptions::default());
    let back = read_bytes(&bytes, Path::new("walk.anim.json")).unwrap();
    assert_eq!(back.format, Format::PlayCanvasAnim);
    let (a, b) = (&walk.clips[0], &back.clips[0]);
    // `.bones[upperArm.L].position` is written on node `upperArm.L` and reads back as
    // `upperArmL.position` (node names sanitized as three.js's PropertyBinding does).
    let node_form = |name: &str| match name.strip_prefix(".bones[") {
        Some(rest) => {
            let (bone, property) = rest.split_once(']').unwrap();
            format!(
                "{}{property}",
                clipscope_core::model::binding::sanitize_node_name(bone)
            )
        }
        None => name.to_string(),
    };
    let losses = conversion_losses(&walk, Format::PlayCanvasAnim);
    for track in &a.tracks {
        if track.name.contains("morphTargetInfluences") || track.name == ".visible" {
            // No anim curve path names a three.js morph influence or the root's visibility.
            assert!(
                losses
                    .iter()
                    .any(|l| l.contains(&track.name) && l.contains("left out")),
                "{losses:?}"
            );
            continue;
        }
        let other = b
            .tracks
            .iter()
            .find(|t| t.name == node_form(&track.name))
            .unwrap_or_else(|| panic!("{} lost", track.name));
        for t in [0.0, 0.13, 0.4, 0.77] {
            let (mut x, mut y) = (vec![0.0; track.value_size()], vec![0.0; track.value_size()]);
            Sampler::new(track).evaluate_f64(t, &mut x);
            Sampler::new(other).evaluate_f64(t, &mut y);
            assert!(
                x.iter().zip(&y).all(|(p, q)| (p - q).abs() < 1e-4),
                "{} at {t}: {x:?} {y:?}",
                track.name
            );
        }
    }
    let wave = read_bytes(CLIP.as_bytes(), Path::new("wave.json")).unwrap();
    for &format in Format::ALL {
        let converted = wave.clone().converted_to(format);
        if check_writable(&converted).is_err() {
            continue;
        }
        let out = write_bytes(&converted, &WriteOptions::default());
        let name = format!("x.{}", format.extension());
        read_bytes(&out, Path::new(&name)).unwrap_or_else(|e| panic!("{format}: {e}"));
    }
    let losses = conversion_losses(&wave, Format::ThreeJs);
    assert!(losses.iter().any(|l| l.contains("events")), "{losses:?}");
}

#[test]
fn bad_clips_name_the_json_path() {
    let bad = |from: &str, to: &str| {
        let text = CLIP.replace(from, to);
        read_bytes(text.as_bytes(), Path::new("bad.json"))
            .unwrap_err()
            .to_string()
    };
    let e = bad(r#""outputIndex":4}"#, r#""outputIndex":9}"#);
    assert!(
        e.contains("curves[4].outputIndex: output 9 does not exist (the clip has 5)"),
        "{e}"
    );
    let e = bad("[0,0.5,1]", "[0,1,0.5]");
    assert!(
        e.contains("curves[0].inputIndex[2]: key time 0.5 comes before 1"),
        "{e}"
    );
    let e = bad(r#""components":4"#, r#""components":3"#);
    assert!(e.contains("localRotation takes 4 components"), "{e}");
    let e = bad(r#""Root.Arm/entity/localScale""#, r#""Arm/localScale""#);
    assert!(e.contains("curves[3].path"), "{e}");
    let e = bad("0,2,0,", r#"0,"x",0,"#);
    assert!(e.contains("outputs[0].data[4]"), "{e}");
}

#[test]
fn convert_offers_the_anim_clip_as_a_target() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.anim.json");
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args([
            "convert",
            concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json"),
        ])
        .arg("-o")
        .arg(&out)
        .args(["--to", "playcanvas-anim"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // One file per clip when the document has several.
    let written: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(!written.is_empty());
    let out = written[0].clone();
    let doc = formats::read_file(&out).unwrap();
    assert_eq!(doc.format, Format::PlayCanvasAnim);
    let info = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("info")
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&info.stdout).contains("playcanvas-anim file"));
}
