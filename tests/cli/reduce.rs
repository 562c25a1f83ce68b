//! `clipscope reduce` through the built binary: help that names the units, the text and JSON
//! reports, one-line errors for bad input, inputs left alone, and real Lottie files.

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

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `clipscope reduce INPUT -o DIR/NAME --max-error BUDGET EXTRA…`: the output's path and the
/// run.
fn reduce_into(
    dir: &tempfile::TempDir,
    input: &std::path::Path,
    name: &str,
    budget: &str,
    extra: &[&str],
) -> (std::path::PathBuf, Output) {
    let out = dir.path().join(name);
    let mut args = vec![
        "reduce",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--max-error",
        budget,
    ];
    args.extend_from_slice(extra);
    let o = clipscope(&args);
    (out, o)
}

#[test]
fn help_names_the_units_and_the_options() {
    let o = clipscope(&["reduce", "--help"]);
    assert!(o.status.success());
    let help = text(&o.stdout);
    for word in [
        "--max-error",
        "--max-angle",
        "--skeleton",
        "--unit",
        "--json",
        "metres for glTF",
        "pixels for Lottie",
        "3 cm",
    ] {
        assert!(help.contains(word), "help lacks {word:?}:\n{help}");
    }
    assert!(text(&clipscope(&["--help"]).stdout).contains("reduce"));
}

#[test]
fn the_json_report_has_the_documented_shape_and_keeps_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.json");
    let input = std::fs::read(demo()).unwrap();
    let o = clipscope(&[
        "reduce",
        &demo(),
        "-o",
        out.to_str().unwrap(),
        "--max-error",
        "0.01",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let before = report["keys_before"].as_u64().unwrap();
    let after = report["keys_after"].as_u64().unwrap();
    assert!(after < before, "{after} of {before}");
    assert!(report["max_error"].as_f64().unwrap() <= 0.01);
    assert!(report["max_angle_deg"].as_f64().is_some());
    assert!(report["worst"]["node"].is_string());
    // Without a skeleton the worst place is a track, with no single time.
    assert!(report["worst"]["time"].is_null());
    assert_eq!(report["world"], false);
    assert_eq!(report["unit"], "m");
    let clips = report["clips"].as_array().unwrap();
    assert_eq!(clips.len(), 2);
    let per_clip: u64 = clips
        .iter()
        .map(|c| c["keys_after"].as_u64().unwrap())
        .sum();
    assert_eq!(per_clip, after);
    for track in clips[0]["tracks"].as_array().unwrap() {
        assert!(track["keys_after"].as_u64() <= track["keys_before"].as_u64());
    }
    // The written file reads back with those keys; the input is untouched.
    let back = clipscope(&["info", out.to_str().unwrap(), "--json"]);
    assert!(back.status.success(), "{}", text(&back.stderr));
    let info: Value = serde_json::from_slice(&back.stdout).unwrap();
    let written: u64 = info["clips"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["tracks"].as_array().unwrap())
        .map(|t| t["keys"].as_u64().unwrap())
        .sum();
    assert_eq!(written, after);
    assert_eq!(std::fs::read(demo()).unwrap(), input);
}

#[test]
fn the_text_report_says_how_the_error_was_measured() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.json");
    let o = clipscope(&[
        "reduce",
        &demo(),
        "-o",
        out.to_str().unwrap(),
        "--max-error",
        "2",
        "--unit",
        "cm",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report = text(&o.stdout);
    assert!(report.starts_with("reduce: 309 → "), "{report}");
    assert!(report.contains("budget 2.0000 cm"), "{report}");
    assert!(
        report.contains("measured per track in local space"),
        "{report}"
    );
    assert!(report.contains("clip \"walk\""), "{report}");
    assert!(report.contains("max angle"), "{report}");
}

#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let out = out.to_str().unwrap();
    // Arguments clap turns down.
    for args in [
        vec!["reduce", &demo(), "-o", out],
        vec!["reduce", &demo(), "-o", out, "--max-error", "0"],
        vec!["reduce", &demo(), "-o", out, "--max-error", "x"],
        vec![
            "reduce",
            &demo(),
            "-o",
            out,
            "--max-error",
            "0.01",
            "--max-angle",
            "-2",
        ],
        vec!["reduce", &demo(), "--max-error", "0.01"],
    ] {
        let o = clipscope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    // Files clipscope cannot read: the file and the reason on one line.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"tracks\": [1, 2").unwrap();
    let skeleton = dir.path().join("none.json");
    for args in [
        vec![
            "reduce",
            "/no/such/file.json",
            "-o",
            out,
            "--max-error",
            "0.01",
        ],
        vec![
            "reduce",
            broken.to_str().unwrap(),
            "-o",
            out,
            "--max-error",
            "0.01",
        ],
        vec![
            "reduce",
            &demo(),
            "-o",
            out,
            "--max-error",
            "0.01",
            "--skeleton",
            skeleton.to_str().unwrap(),
        ],
    ] {
        let o = clipscope(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = text(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("clipscope: "), "{err}");
    }
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn lottie_files_are_reduced_in_composition_pixels() {
    let Some(path) = sample_data("lottie/dalek.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, o) = reduce_into(&dir, &path, "dalek.json", "0.5", &["--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["unit"], "px");
    assert!(report["keys_after"].as_u64() < report["keys_before"].as_u64());
    let error = report["max_error"].as_f64().unwrap();
    assert!(error > 0.0 && error <= 0.5, "{error}");
    // The worst place is a corner of some layer's content (a solid's box or the hull of a
    // shape layer's paths), in composition space.
    let point = &report["worst"]["point"];
    assert!(
        point == "corner" || point == "outline",
        "{}",
        report["worst"]
    );
    assert!(report["world"].as_bool().unwrap());
    for clip in report["clips"].as_array().unwrap() {
        for track in clip["tracks"].as_array().unwrap() {
            let name = track["name"].as_str().unwrap();
            let error = track["error"].as_f64().unwrap();
            if name.ends_with(".opacity") {
                // Opacity keeps its own (default) tolerance in percent.
                assert!(error <= 0.5, "{name}: {error}%");
            } else if track["bound"] == "world" {
                // Transforms report how far their layer's content moved.
                assert!(error <= 0.5, "{name}: {error} px");
            }
        }
    }
    let text_report = clipscope(&[
        "reduce",
        path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--max-error",
        "0.5",
    ]);
    let report = text(&text_report.stdout);
    assert!(report.contains("in composition space"), "{report}");
    assert!(
        report.contains("corner") || report.contains("outline point"),
        "{report}"
    );
    assert!(!report.contains("max angle"), "{report}");
}

/// adrock.json's layers keep moving after its out point (frame 20): those keys are never seen,
/// so they go, and within the frames it shows nothing moves (written with every digit; the
/// default, fewer digits within the budget, moves points by their rounding only).
#[test]
fn keys_past_a_composition_s_out_point_count_for_nothing() {
    let Some(path) = sample_data("lottie/adrock.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (_, o) = reduce_into(
        &dir,
        &path,
        "adrock.json",
        "0.5",
        &["--precision", "9", "--json"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let (before, after) = (
        report["keys_before"].as_u64().unwrap(),
        report["keys_after"].as_u64().unwrap(),
    );
    assert!(after * 2 < before, "{before} → {after}");
    assert_eq!(report["max_error"].as_f64(), Some(0.0), "{report}");
}

#[test]
fn the_output_s_extension_picks_the_gltf_container_and_refuses_another_format() {
    let Some(gltf) = sample_data("gltf/BoxAnimated.gltf") else {
        return;
    };
    let gltf = gltf.to_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let ok = |args: &[&str]| {
        let o = clipscope(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    };
    let budget = ["--max-error", "0.01"];
    // .gltf to .glb: binary glTF, whichever command writes it.
    ok(&[&["reduce", &gltf, "-o", &at("box.glb")][..], &budget].concat());
    ok(&["optimize", &gltf, "-o", &at("box-optimized.glb")]);
    ok(&["trim", &gltf, "-o", &at("box-trimmed.glb")]);
    ok(&["edit", &gltf, "-o", &at("box-edited.glb"), "--shift", "0.5"]);
    for name in [
        "box.glb",
        "box-optimized.glb",
        "box-trimmed.glb",
        "box-edited.glb",
    ] {
        let bytes = std::fs::read(at(name)).unwrap();
        assert_eq!(&bytes[..4], b"glTF", "{name} is not GLB");
    }
    // .glb to .gltf: JSON again, its buffers embedded.
    ok(&[
        &["reduce", &at("box.glb"), "-o", &at("back.gltf")][..],
        &budget,
    ]
    .concat());
    let json: Value = serde_json::from_slice(&std::fs::read(at("back.gltf")).unwrap()).unwrap();
    let uri = json["buffers"][0]["uri"].as_str().unwrap();
    assert!(uri.starts_with("data:"), "{uri}");
    // Another format's extension: one line, nothing written.
    for (args, says) in [
        (
            [&["reduce", &demo(), "-o", &at("walk.glb")][..], &budget].concat(),
            "a .glb file is not three.js AnimationClip JSON",
        ),
        (
            vec!["optimize", &at("box.glb"), "-o", &at("box.json")],
            "a .json file is not binary glTF 2.0 (.glb)",
        ),
    ] {
        let o = clipscope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(says) && err.contains("clipscope convert"),
            "{err}"
        );
        assert!(
            !std::path::Path::new(args[3]).exists(),
            "{args:?} wrote a file"
        );
    }
}

#[test]
fn a_source_the_format_cannot_hold_as_it_is_is_named_as_the_reason() {
    // The validator's case: rotation keys of length 0.55, which glTF stores normalized, and
    // three.js plays as they are (scaling the node's shell by 2.8 cm).
    let Some(path) = sample_data("gltf-validator/animation_data/quaternion_non_unit_values.gltf")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, o) = reduce_into(&dir, &path, "out.glb", "0.01", &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for part in [
        "off by more than the budget",
        "writing glb changes the source itself",
        "node_0.quaternion': its quaternions' lengths (up to 0.452 off 1; normalized)",
        "convert the file first",
    ] {
        assert!(err.contains(part), "{part:?} not in {err}");
    }
    assert!(!err.contains("--precision"), "{err}");
    assert!(!out.exists());
}
