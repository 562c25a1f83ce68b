//! The VALIDATION panel driven through egui_kittest: validating a bad clip shows the lint
//! finding, the panel's Fix button repairs it as one undoable edit, and undo brings it back;
//! the editor shows exactly the findings `clipscope validate --format json` prints for the same
//! files (with the folder's `clipscope.toml`, named in the panel), before and after an edit;
//! keyframe data clipscope does not read is flagged in the clip list.
#![cfg(feature = "gui")]

use crate::common;

use common::gui::editor;
use std::path::{Path, PathBuf};

use clipscope::ui::ClipscopeApp;
use clipscope_editor::ClipId;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

/// A clip whose quaternions are not unit length (a safe fix normalizes them).
const CLIP: &str = r#"{"name":"nod","duration":1,"tracks":[
  {"name":"head.quaternion","type":"quaternion","times":[0,1],"values":[0,0,0,2, 0,0,1,1]}]}"#;

const FINDING: &str = "(non-unit-quaternion)";

fn clip_file(dir: &Path) -> PathBuf {
    let path = dir.join("nod.json");
    std::fs::write(&path, CLIP).unwrap();
    path
}

fn quaternion_length(harness: &Harness<'_, ClipscopeApp>) -> f32 {
    let clip = harness.state().ws.clip(ClipId { doc: 0, clip: 0 }).unwrap();
    let v = clip.tracks[0].values.as_numbers().unwrap();
    v[..4].iter().map(|c| c * c).sum::<f32>().sqrt()
}

#[test]
fn fix_button_repairs_the_finding_and_undo_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.get_by_label("Clip").click();
    harness.run();
    harness.get_by_label("Validate all clips").click();
    harness.run();
    harness.get_by_label_contains(FINDING);
    assert_eq!(quaternion_length(&harness), 2.0);

    harness.get_by_label("Fix").click();
    harness.run();
    assert!(harness.query_by_label_contains(FINDING).is_none());
    assert!((quaternion_length(&harness) - 1.0).abs() < 1e-6);
    assert_eq!(harness.state().ws.history.undo_label(), Some("Fix"));

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    harness.get_by_label_contains(FINDING);
    assert_eq!(quaternion_length(&harness), 2.0);
}

/// A clip with a redundant key (made an error by the config below) and a duration far past its
/// last key.
const WASTEFUL: &str = r#"{"name":"jump","duration":5,"tracks":[
  {"name":"hips.position","times":[0,0.5,1,1.5],"values":[0,0,0, 0,1,0, 0,1,0, 0,1,0],"type":"vector"}]}"#;

/// A walk whose ends differ (loop-seam, turned off by the config) and whose quaternions are
/// not unit length.
const SEAM: &str = r#"{"name":"walk","duration":1,"tracks":[
  {"name":"hips.position","times":[0,1],"values":[0,0,0, 0,0.5,0],"type":"vector"},
  {"name":"hips.quaternion","times":[0,0.5,1],"values":[0,0,0,2, 0,0,1,2, 0,0,0,2],"type":"quaternion"}]}"#;

/// The folder of clips the editor and the CLI both check: a `clipscope.toml`, clips of every
/// kind of finding, and (with the sample data) real files of every format.
fn project(dir: &Path) -> Vec<PathBuf> {
    std::fs::write(
        dir.join("clipscope.toml"),
        "[rules]\nredundant-keys = \"error\"\nloop-seam = \"off\"\n\n[[overrides]]\nfiles = [\"gltf/**\"]\nrules = { gltf-sampler-input-without-bounds = \"warning\" }\n",
    )
    .unwrap();
    let mut files = Vec::new();
    for (name, text) in [("jump.json", WASTEFUL), ("walk.json", SEAM)] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    if let Some(data) = crate::test_support::sample_data("") {
        for rel in [
            "gltf-validator/animation/sampler_input_no_bounds.gltf",
            "gltf-validator/animation_data/quaternion_non_unit_values.gltf",
            "gltf-validator/animation_data/quaternion_non_unit_values.bin",
            "gltf-validator/skin/no_common_root.gltf",
            "gltf-validator/KHR_animation_pointer/valid.gltf",
            "gltf/SimpleSkin.gltf",
            "lottie/success.json",
            "threejs/scene-animation.json",
            "playcanvas/playbot-run.json",
        ] {
            let to = dir.join(rel.replace("gltf-validator/", "gltf/"));
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(data.join(rel), &to).unwrap();
            if !rel.ends_with(".bin") {
                files.push(to);
            }
        }
    }
    files
}

/// The CLI's JSON report on `files`, run in `dir`: path → problems.
fn cli_findings(dir: &Path, files: &[PathBuf]) -> Vec<(String, serde_json::Value)> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .current_dir(dir)
        .arg("validate")
        .args(files)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["problems"].clone(),
            )
        })
        .collect()
}

/// The editor's findings per open document: its file → problems, as the JSON report writes them.
fn editor_findings(harness: &Harness<'_, ClipscopeApp>) -> Vec<(String, serde_json::Value)> {
    let findings = harness.state().findings.as_ref().expect("validated");
    findings
        .docs
        .iter()
        .map(|d| {
            (
                d.check.report.path.clone(),
                serde_json::to_value(&d.check.report.problems).unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_editor_shows_exactly_the_findings_the_cli_prints() {
    let dir = tempfile::tempdir().unwrap();
    let files = project(dir.path());
    let mut harness = editor(&files);
    assert_eq!(harness.state().ws.documents.len(), files.len());
    harness.get_by_label("Clip").click();
    harness.run();
    harness.get_by_label("Validate all clips").click();
    harness.run();

    let mut cli = cli_findings(dir.path(), &files);
    let mut ours = editor_findings(&harness);
    cli.sort_by(|a, b| a.0.cmp(&b.0));
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(ours.len(), cli.len());
    let mut compared = 0;
    for ((path, editor), (cli_path, cli)) in ours.iter().zip(&cli) {
        assert_eq!(path, cli_path);
        assert_eq!(editor, cli, "{path}");
        compared += cli.as_array().unwrap().len();
    }
    assert!(compared >= 3, "{compared} findings compared");
    // The config is the folder's: redundant keys are errors, loop seams are off.
    let jump = ours.iter().find(|(p, _)| p.ends_with("jump.json")).unwrap();
    assert!(
        jump.1
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "redundant-keys" && f["severity"] == "error")
    );
    let walk = ours.iter().find(|(p, _)| p.ends_with("walk.json")).unwrap();
    assert!(
        walk.1
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["code"] != "loop-seam")
    );
    // The panel names the config that applied, and to which files.
    let config = std::path::absolute(dir.path().join("clipscope.toml")).unwrap();
    let needle = format!("config {}: ", config.display());
    let found = harness.get_by_label_contains(&needle);
    let node = found.accesskit_node();
    let line = node.label().or_else(|| node.value()).unwrap_or_default();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(line.contains(&name), "{name}: {line}");
    }

    // After an edit, the findings are those of the file as it would be saved.
    let jump_doc = harness
        .state()
        .ws
        .documents
        .iter()
        .position(|d| {
            d.doc
                .path
                .as_ref()
                .is_some_and(|p| p.ends_with("jump.json"))
        })
        .unwrap();
    harness
        .state_mut()
        .apply(clipscope_editor::Edit::ResetDuration(
            clipscope_editor::ClipScope::Clip(ClipId {
                doc: jump_doc,
                clip: 0,
            }),
        ));
    harness.run();
    let saved = dir.path().join("jump-saved.json");
    clipscope_core::formats::write_file(
        &harness.state().ws.documents[jump_doc].doc,
        &saved,
        &clipscope_core::formats::WriteOptions::default(),
    )
    .unwrap();
    let cli = cli_findings(dir.path(), std::slice::from_ref(&saved));
    let ours = editor_findings(&harness);
    let edited = ours.iter().find(|(p, _)| p.ends_with("jump.json")).unwrap();
    assert_eq!(edited.1, cli[0].1);
    assert!(
        edited
            .1
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["code"] != "duration-longer-than-keys")
    );
    harness.get_by_label_contains("jump.json (edits checked as they would be saved)");
}

#[test]
fn files_with_keyframes_clipscope_does_not_read_say_so_in_the_clip_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trim.json");
    std::fs::write(
        &path,
        r#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
          {"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{"o":{"a":0,"k":100}},
           "shapes":[{"ty":"tm","e":{"a":1,"k":[{"t":0,"s":[0]},{"t":30,"s":[100]}]}}]}]}"#,
    )
    .unwrap();
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, r#"{"name":"nothing","tracks":[]}"#).unwrap();
    let harness = editor(&[path, empty]);
    harness.get_by_label_contains("1 place(s) of keyframes not read");
    harness.get_by_label_contains("nothing   no tracks");
}
