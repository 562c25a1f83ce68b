//! The `clipscope` command-line contract, exercised through the built binary: output shapes,
//! exit codes, atomic writes and one-line errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::test_support::sample_data;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn demo() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json").to_string()
}

/// A sample data file as an argument, or `None` (the test is skipped) without the sample data.
fn shared(rel: &str) -> Option<String> {
    sample_data(rel).map(|p| p.to_string_lossy().into_owned())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

const UNSORTED: &str = r#"{"name":"bad","duration":1,"tracks":[
  {"name":".x","times":[0,0.5,1],"values":[0,1,2],"type":"number"},
  {"name":".y","times":[0,0.6,0.5,1],"values":[0,1,2,3],"type":"number"}]}"#;

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "info", "validate", "optimize", "trim", "convert", "sample", "open", "edit",
    ] {
        let o = clipscope(&[sub, "--help"]);
        assert!(o.status.success(), "{sub} --help failed");
        assert!(
            stdout(&o).contains("Usage:"),
            "{sub} --help: {}",
            stdout(&o)
        );
    }
    let o = clipscope(&["--help"]);
    assert!(o.status.success());
    for sub in ["info", "validate", "optimize", "trim", "convert", "sample"] {
        assert!(stdout(&o).contains(sub));
    }
}

#[test]
fn bad_arguments_exit_2() {
    assert_eq!(clipscope(&["optimize"]).status.code(), Some(2));
    assert_eq!(clipscope(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        clipscope(&["sample", &demo(), "--times", "a,b"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(clipscope(&["validate"]).status.code(), Some(2));
}

#[test]
fn info_json_shape() {
    let o = clipscope(&["info", &demo(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["format"], "threejs");
    let clips = v["clips"].as_array().unwrap();
    assert_eq!(clips.len(), 2);
    assert_eq!(clips[0]["name"], "walk");
    assert_eq!(clips[0]["duration"], 1.0);
    assert_eq!(clips[0]["blendMode"], "normal");
    assert_eq!(clips[0]["uuid"], "5d1c8f0e-3a7b-4c2e-9f61-2b8d4e7a1c30");
    let t0 = &clips[0]["tracks"][0];
    assert_eq!(t0["name"], ".bones[hips].position");
    assert_eq!(t0["type"], "vector");
    assert_eq!(t0["interpolation"], "linear");
    assert_eq!(t0["keys"], 31);
    assert_eq!(t0["valueSize"], 3);
    let blink = clips[0]["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == ".morphTargetInfluences[blink]")
        .unwrap();
    assert_eq!(blink["interpolation"], "bezier");
    assert_eq!(clips[1]["tracks"][0]["interpolation"], "smooth");
}

#[test]
fn info_text_lists_clips_and_tracks() {
    let o = clipscope(&["info", &demo()]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("clip 0 \"walk\""), "{text}");
    assert!(text.contains(".bones[upperArm.L].quaternion"));
    assert!(text.contains("quaternion"));
}

#[test]
fn info_and_validate_say_what_is_not_read_and_which_clips_are_empty() {
    let dir = tempfile::tempdir().unwrap();
    // A Lottie composition whose only motion is an animated trim path: clipscope reads layer
    // transforms, so the clip stands still.
    let lottie = write(
        dir.path(),
        "trim.json",
        r#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
          {"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{"o":{"a":0,"k":100}},
           "shapes":[{"ty":"tm","e":{"a":1,"k":[{"t":0,"s":[0]},{"t":30,"s":[100]}]}}]}]}"#,
    );
    let lottie = lottie.to_str().unwrap();
    let text = stdout(&clipscope(&["info", lottie]));
    assert!(text.contains("not read (1 place(s)"), "{text}");
    assert!(
        text.contains("clip 0: layers[0].shapes[0].e: 1 animated property"),
        "{text}"
    );
    let v: Value = serde_json::from_str(&stdout(&clipscope(&["info", lottie, "--json"]))).unwrap();
    assert_eq!(v["unread"][0]["path"], "layers[0].shapes[0].e");
    assert_eq!(v["unread"][0]["clip"], 0);
    let o = clipscope(&["validate", lottie]);
    assert!(!stdout(&o).contains(": ok"), "{}", stdout(&o));
    assert!(stdout(&o).contains("unsupported-content"), "{}", stdout(&o));
    // A clip file with an empty clip says so.
    let empty = write(
        dir.path(),
        "empty.json",
        r#"{"name":"nothing","tracks":[]}"#,
    );
    let text = stdout(&clipscope(&["info", empty.to_str().unwrap()]));
    assert!(
        text.contains("(no tracks: the clip animates nothing)"),
        "{text}"
    );
    let o = clipscope(&["validate", empty.to_str().unwrap()]);
    assert!(stdout(&o).contains("empty-clip"), "{}", stdout(&o));
}

#[test]
fn info_reads_a_real_scene_file() {
    let Some(scene) = shared("threejs/scene-animation.json") else {
        return;
    };
    let o = clipscope(&["info", &scene, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(!v["clips"].as_array().unwrap().is_empty());
}

#[test]
fn validate_good_file_exits_0() {
    let o = clipscope(&["validate", &demo(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["files"][0]["ok"], true);
    assert_eq!(v["files"][0]["format"], "threejs");
}

#[test]
fn validate_locates_unsorted_keys_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", UNSORTED);
    let o = clipscope(&["validate", bad.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let file = &v["files"][0];
    assert_eq!(file["ok"], false);
    let p = file["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "unsorted-times")
        .expect("an unsorted-times problem");
    assert_eq!(p["severity"], "error");
    assert_eq!(p["clip"], 0);
    assert_eq!(p["track"], 1);
    assert_eq!(p["key"], 2);
    // The text report names the file, the code and the place.
    let o = clipscope(&["validate", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("unsorted-times") && text.contains("track 1") && text.contains("key 2"),
        "{text}"
    );
}

#[test]
fn validate_searches_directories_and_reports_unreadable_files_with_2() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a/good.json",
        &std::fs::read_to_string(demo()).unwrap(),
    );
    write(dir.path(), "a/b/bad.json", UNSORTED);
    write(
        dir.path(),
        "c/broken.json",
        r#"{"name":"x","tracks":[{"name":".a","#,
    );
    write(dir.path(), "c/notes.txt", "not a clip");
    let o = clipscope(&["validate", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{v}");
    let broken = files
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("broken.json"))
        .unwrap();
    assert_eq!(broken["ok"], false);
    assert_eq!(broken["problems"][0]["code"], "parse");
    assert_eq!(broken["problems"][0]["severity"], "error");
}

#[test]
fn optimize_writes_a_smaller_file_and_leaves_the_input_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "in.json",
        r#"{"name":"c","duration":4,"tracks":[{"name":".x","times":[0,1,2,3,4],"values":[0,0,0,0,1],"type":"number"}],"uuid":"u-1","blendMode":2500,"userData":"{}"}"#,
    );
    let before = std::fs::read(&input).unwrap();
    let out = dir.path().join("out.json");
    let o = clipscope(&[
        "optimize",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("5 → 3 keys"), "{}", stdout(&o));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["tracks"][0]["times"], serde_json::json!([0, 3, 4]));
    assert_eq!(v["tracks"][0]["values"], serde_json::json!([0, 0, 1]));
    assert_eq!(v["uuid"], "u-1");
}

#[test]
fn trim_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "in.json",
        r#"{"name":"c","duration":1,"tracks":[{"name":".x","times":[-1,0.5,1,2],"values":[0.123456,1.987654,2,3],"type":"number"}]}"#,
    );
    let out = dir.path().join("trim.json");
    let o = clipscope(&["trim", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["tracks"][0]["times"], serde_json::json!([0.5, 1]));

    let out = dir.path().join("rounded.json");
    let o = clipscope(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--precision",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(
        v["tracks"][0]["values"],
        serde_json::json!([0.12, 1.99, 2, 3])
    );

    let out = dir.path().join("pretty.json");
    let o = clipscope(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--pretty",
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.lines().count() > 3, "{text}");
    assert!(
        text.contains("[-1,0.5,1,2]") || text.contains("[-1, 0.5, 1, 2]"),
        "{text}"
    );
}

#[test]
fn sample_prints_one_object_keyed_by_clip_and_track() {
    let o = clipscope(&["sample", &demo(), "--times", "-1,0,0.25,0.5,2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let hips = v["walk|.bones[hips].position"].as_array().unwrap();
    assert_eq!(hips.len(), 5);
    assert_eq!(hips[0].as_array().unwrap().len(), 3);
    assert_eq!(v["walk|.visible"][0], serde_json::json!([true]));
    assert!(v.get("idle|.bones[head].quaternion").is_some());
}

/// Bad input: exit 2, one line on stderr naming the file, the JSON path and the reason; no panic;
/// an existing output file is left exactly as it was.
#[test]
fn bad_input_gives_one_line_errors() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("empty", "", &[]),
        (
            "truncated",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,1"#,
            &[],
        ),
        (
            "wrong-type",
            r#"{"name":"c","tracks":[{"name":".x","times":"0,1","values":[0,1],"type":"number"}]}"#,
            &["tracks[0].times"],
        ),
        (
            "string-time",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,"a"],"values":[0,1],"type":"number"}]}"#,
            &["tracks[0].times[1]"],
        ),
        (
            "null-value",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,1],"values":[0,null],"type":"number"}]}"#,
            &["tracks[0].values[1]"],
        ),
        (
            "value-size",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,1,2],"values":[0,1,2,3,4,5,6],"type":"vector"}]}"#,
            &["tracks[0]"],
        ),
        (
            "unknown-type",
            r#"{"name":"c","tracks":[{"name":".x","times":[0],"values":[0],"type":"matrix"}]}"#,
            &["tracks[0]", "matrix"],
        ),
        (
            "missing-type",
            r#"{"name":"c","tracks":[{"name":".x","times":[0],"values":[0]}]}"#,
            &["tracks[0]"],
        ),
        (
            "empty-times",
            r#"{"name":"c","tracks":[{"name":".x","times":[],"values":[],"type":"number"}]}"#,
            &["tracks[0]"],
        ),
        (
            "huge",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,1],"values":[0,1e39],"type":"number"}]}"#,
            &["tracks[0].values[1]"],
        ),
        (
            "huger",
            r#"{"name":"c","tracks":[{"name":".x","times":[0,1e400],"values":[0,1],"type":"number"}]}"#,
            &["tracks[0].times[1]"],
        ),
        ("not-a-clip", r#"{"hello":"world"}"#, &[]),
        (
            "array-path",
            r#"[{"name":"a","tracks":[]},{"name":"b","tracks":[{"name":".x","times":[0,true],"values":[0,1],"type":"number"}]}]"#,
            &["[1].tracks[0].times[1]"],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let out = write(dir.path(), "out.json", "precious");
    for (name, text, needles) in cases {
        let input = write(dir.path(), &format!("{name}.json"), text);
        for args in [
            vec!["info", input.to_str().unwrap()],
            vec![
                "optimize",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            vec!["sample", input.to_str().unwrap(), "--times", "0"],
        ] {
            let o = clipscope(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name} {args:?}: {err}");
            assert!(!err.contains("panicked"), "{name}: {err}");
            assert_eq!(
                err.trim_end().lines().count(),
                1,
                "{name}: not one line: {err}"
            );
            assert!(
                err.contains(&format!("{name}.json")),
                "{name}: no file name: {err}"
            );
            for needle in *needles {
                assert!(err.contains(needle), "{name}: {needle:?} missing in: {err}");
            }
        }
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "precious",
            "{name} touched the output"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".json"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn missing_file_and_unwritable_output() {
    let o = clipscope(&["info", "/nonexistent/clip.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/clip.json"));
    let o = clipscope(&["optimize", &demo(), "-o", "/nonexistent-dir/out.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent-dir/out.json"),
        "{}",
        stderr(&o)
    );
}

/// A build without the `gui` feature still knows `render`, and says why it cannot draw.
#[cfg(not(feature = "gui"))]
#[test]
fn render_without_the_gui_feature_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("frame.png");
    let o = clipscope(&["render", &demo(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("this build has no renderer (build with the default `gui` feature)"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn morph_fps_sets_the_rate_of_clips_made_from_morph_targets() {
    let Some(horse) = shared("threejs/horse.json") else {
        return;
    };
    let horse = horse.as_str();
    let json = |args: &[&str]| -> Value {
        let o = clipscope(args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    // 16 targets: 1.6 s at the default 10 fps, 0.64 s at 25 fps.
    let default = json(&["info", horse, "--json"]);
    let fast = json(&["--morph-fps", "25", "info", horse, "--json"]);
    let duration = |v: &Value| v["clips"][0]["duration"].as_f64().unwrap();
    assert!((duration(&default) - 1.6).abs() < 1e-6, "{default}");
    assert!((duration(&fast) - 0.64).abs() < 1e-6, "{fast}");
    let o = clipscope(&["info", horse, "--morph-fps", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a frame rate"));
}
