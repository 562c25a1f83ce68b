//! `convert` measuring how each written file plays in its destination (the per-file "plays in"
//! line, `--json`'s per-track report, `--tolerance` and `--max-deviation`), PlayCanvas anim
//! clips written for the engine's component-wise quaternion lerp, and anim clips in shapes the
//! engine accepts (`info`, `validate`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A node turning 170° about y in one second, its second key written in the other hemisphere
/// (`-q`): three.js slerps the short way, a component lerp would spin the long way round.
fn spin(dir: &Path) -> PathBuf {
    let h = 85f64.to_radians();
    let (s, c) = (h.sin(), h.cos());
    write(
        dir,
        "spin.json",
        &format!(
            r#"{{"name":"spin","duration":1,"tracks":[{{"name":"Arm.quaternion","type":"quaternion","times":[0,1],"values":[0,0,0,1,0,{},0,{}]}}]}}"#,
            -s, -c
        ),
    )
}

/// The keys of the anim clip `file`'s first curve, 4 numbers each.
fn rotation_keys(file: &Path) -> Vec<[f64; 4]> {
    let v: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let o = v["curves"][0]["outputIndex"].as_u64().unwrap() as usize;
    assert_eq!(v["outputs"][o]["components"], 4);
    v["outputs"][o]["data"]
        .as_array()
        .unwrap()
        .chunks_exact(4)
        .map(|k| std::array::from_fn(|i| k[i].as_f64().unwrap()))
        .collect()
}

#[test]
fn anim_clips_are_written_for_the_engines_lerp_and_the_summary_says_how_they_play() {
    let dir = tempfile::tempdir().unwrap();
    let src = spin(dir.path());
    let out = dir.path().join("spin.anim.json");
    let o = clipscope(&[
        "convert",
        src.to_str().unwrap(),
        "--to",
        "playcanvas-anim",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = text(&o.stdout);
    let line = summary
        .lines()
        .find(|l| l.starts_with("convert: plays in playcanvas-anim within rotation "))
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(line.contains("'Arm.quaternion'"), "{line}");
    assert!(
        line.contains("key(s) added so it plays the source"),
        "{line}"
    );
    // Every key on the side of the one before it, and enough keys that the lerp stays close.
    let keys = rotation_keys(&out);
    assert!(keys.len() >= 8, "{}", keys.len());
    for w in keys.windows(2) {
        let dot: f64 = (0..4).map(|i| w[0][i] * w[1][i]).sum();
        assert!(dot > 0.0, "{w:?}");
    }
    // clipscope's own validator has nothing to say about the file it just wrote.
    let v = clipscope(&["validate", out.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v.stdout));
    assert!(!text(&v.stdout).contains("playcanvas-quaternion-flip"));
}

#[test]
fn json_reports_each_track_and_the_tolerance_trades_keys_for_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let src = spin(dir.path());
    let report = |tolerance: Option<&str>, name: &str| -> Value {
        let out = dir.path().join(name);
        let mut args = vec![
            "convert",
            src.to_str().unwrap(),
            "--to",
            "playcanvas-anim",
            "-o",
            out.to_str().unwrap(),
            "--json",
        ];
        if let Some(t) = tolerance {
            args.extend(["--tolerance", t]);
        }
        let o = clipscope(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let fine = report(None, "fine.json");
    assert_eq!(fine["from"], "threejs");
    assert_eq!(fine["to"], "playcanvas-anim");
    assert_eq!(fine["written"], true);
    assert_eq!(fine["tolerance"]["rotation"], 0.05);
    let file = &fine["files"][0];
    let track = &file["tracks"][0];
    assert_eq!(track["track"], "Arm.quaternion");
    assert_eq!(track["quantity"], "rotation");
    assert_eq!(track["target"], "RootNode.Arm/graph/localRotation");
    let added = track["keys_added"].as_u64().unwrap();
    assert!(added >= 6, "{track}");
    assert_eq!(file["keys_added"], added);
    let d = track["deviation"].as_f64().unwrap();
    assert!(d <= 0.05, "{track}");
    assert_eq!(file["largest"]["rotation"], track["deviation"]);
    // A coarser tolerance: fewer keys, a larger deviation, still within it.
    let coarse = report(Some("2"), "coarse.json");
    let track = &coarse["files"][0]["tracks"][0];
    assert!(track["keys_added"].as_u64().unwrap() < added, "{track}");
    let d2 = track["deviation"].as_f64().unwrap();
    assert!(d2 > d && d2 <= 2.0, "{d} {d2}");
    // A tolerance must be a number above 0.
    let o = clipscope(&[
        "convert",
        src.to_str().unwrap(),
        "--to",
        "playcanvas-anim",
        "-o",
        "x.json",
        "--tolerance",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("is not a number above 0"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn max_deviation_fails_instead_of_writing() {
    let dir = tempfile::tempdir().unwrap();
    let src = spin(dir.path());
    let out = dir.path().join("kept.json");
    std::fs::write(&out, "untouched").unwrap();
    let o = clipscope(&[
        "convert",
        src.to_str().unwrap(),
        "--to",
        "playcanvas-anim",
        "-o",
        out.to_str().unwrap(),
        "--tolerance",
        "1",
        "--max-deviation",
        "rotation=0.1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(
        err.contains("clip 'spin' track 'Arm.quaternion' plays ")
            && err.contains("° from the source at "),
        "{err}"
    );
    assert!(
        err.contains("nothing written: 1 track(s) would play beyond --max-deviation"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "untouched");
    // Within the limit, the file is written; a limit on another quantity does not apply.
    for limit in ["0.06", "position=0"] {
        let o = clipscope(&[
            "convert",
            src.to_str().unwrap(),
            "--to",
            "playcanvas-anim",
            "-o",
            out.to_str().unwrap(),
            "--max-deviation",
            limit,
        ]);
        assert!(o.status.success(), "{limit}: {}", text(&o.stderr));
    }
    assert_ne!(std::fs::read_to_string(&out).unwrap(), "untouched");
    let o = clipscope(&[
        "convert",
        src.to_str().unwrap(),
        "-o",
        "x.json",
        "--max-deviation",
        "angle=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("unknown quantity 'angle'"),
        "{}",
        text(&o.stderr)
    );
}

/// An anim clip in the engine's `alarm-on-clip` shape: 4 numbers per `localEulerAngles` key.
const ALARM: &str = r#"{"name":"alarm-on","duration":1,"inputs":[[0,1]],
 "outputs":[{"components":4,"data":[0,0,0,0, 0,90,0,0]}],
 "curves":[{"path":{"entityPath":["alarm","bell"],"component":"entity","propertyPath":["localEulerAngles"]},
            "inputIndex":0,"outputIndex":0,"interpolation":1}]}"#;

#[test]
fn info_and_validate_say_how_an_unusual_shape_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "alarm-on-clip.json", ALARM);
    let f = file.to_str().unwrap();
    let o = clipscope(&["info", f]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("read as the engine reads it (1 unusual shape(s)):\n  curves[0]: the output has 4 components where localEulerAngles takes 3; read as the engine's binder reads it, the first 3 of each key (the rest ignored)"),
        "{out}"
    );
    let o = clipscope(&["info", f, "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["accepted"][0]["path"], "curves[0]");
    assert_eq!(v["clips"][0]["tracks"][0]["name"], "bell.quaternion");
    let o = clipscope(&["validate", f]);
    let out = text(&o.stdout);
    assert!(out.contains("playcanvas-extra-components"), "{out}");
    // The 90° turn plays: halfway is 45° about y.
    let o = clipscope(&["sample", f, "--times", "0.5"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let q = &v["alarm-on|bell.quaternion"][0];
    let y = q[1].as_f64().unwrap();
    assert!((y - 22.5f64.to_radians().sin()).abs() < 1e-6, "{q}");
}
