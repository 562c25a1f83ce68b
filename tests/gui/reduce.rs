//! The Reduce window driven through egui_kittest: opened from the Clip menu, a preview computed
//! in the background with per-track notes, the A/B switch on key B, Apply as one undo step,
//! Cancel leaving the clip alone, and a changed budget recomputing the preview.
#![cfg(feature = "gui")]

use crate::common;

use common::gui::editor;
use std::path::{Path, PathBuf};

use clipscope::ui::ClipscopeApp;
use clipscope_editor::ClipId;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const WAVE: ClipId = ClipId { doc: 0, clip: 0 };

/// A three.js clip sampled at 60 fps: a smooth position wave (reducible), and a flat scale
/// and rotation (whose inner keys three.js's optimize removes exactly).
fn dense_file(dir: &Path) -> PathBuf {
    let n = 121;
    let times: Vec<f64> = (0..n).map(|i| i as f64 / 60.0).collect();
    let mut position = Vec::new();
    let mut scale = Vec::new();
    let mut rotation = Vec::new();
    for &t in &times {
        let a = std::f64::consts::TAU * t / 2.0;
        position.extend([0.3 * a.sin(), 0.1 * (2.0 * a).cos(), 0.0]);
        scale.extend([1.5, 1.5, 1.5]);
        rotation.extend([0.0, 0.0, 0.0, 1.0]);
    }
    let clip = serde_json::json!([{
    "name": "wave", "duration": 2.0, "tracks": [
        {"name": "hips.position", "type": "vector", "times": times, "values": position},
        {"name": "hips.scale", "type": "vector", "times": times, "values": scale},
        {"name": "hips.quaternion", "type": "quaternion", "times": times, "values": rotation},
    ]}]);
    let path = dir.join("take.json");
    std::fs::write(&path, clip.to_string()).unwrap();
    path
}

fn keys(harness: &Harness<'_, ClipscopeApp>) -> usize {
    harness.state().ws.clip(WAVE).unwrap().key_count()
}

/// Selects the clip and opens Clip › Reduce keys…, then waits for the first preview.
fn open_reduce(harness: &mut Harness<'_, ClipscopeApp>) {
    harness.get_by_label_contains("wave").click();
    harness.run();
    harness.get_by_label("Clip").click();
    harness.run();
    harness.get_by_label("Reduce keys…").click();
    harness.run_steps(1); // the spinner repaints until the preview is in
    assert!(harness.state().reduce.open);
    settle(harness);
}

/// Lets the worker finish the preview the settings ask for and shows it.
fn settle(harness: &mut Harness<'_, ClipscopeApp>) {
    harness.run_steps(1);
    harness.state_mut().wait_for_reduction();
    harness.run_steps(2);
}

#[test]
fn reduce_previews_then_applies_in_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[dense_file(dir.path())]);
    open_reduce(&mut harness);

    let preview = harness.state().reduce.preview.clone().expect("a preview");
    let report = &preview.clips[0].report;
    assert_eq!(report.keys_before, 363);
    assert!(report.keys_after < 60, "{} keys left", report.keys_after);
    assert!(report.max_error <= 0.01 + 1e-9, "{}", report.max_error);
    // The summary and each track's note are on screen.
    let summary = format!("363 -> {} keys", report.keys_after);
    assert!(
        harness.query_by_label_contains(&summary).is_some(),
        "{summary}"
    );
    assert!(
        harness
            .query_by_label("Max error 0.010 units in hips.position")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("measured in its own space")
            .is_some()
    );
    // The flat scale loses its inner keys exactly; the wave strays within the budget.
    let tracks = &report.tracks;
    assert_eq!((tracks[1].keys_after, tracks[1].error), (1, 0.0));
    assert_eq!(
        harness.query_all_by_label("exact").count(),
        2,
        "scale and rotation"
    );
    let wave = clipscope::ui::reduce_panel::track_error(tracks[0].error, tracks[0].metric, "units");
    assert!(
        harness.query_by_label(&wave).is_some(),
        "the wave's note {wave}"
    );
    // The file's bytes before and after, as three.js JSON writes them.
    let (before, after) = preview.bytes.expect("bytes");
    assert!(after < before, "{before} -> {after}");
    let bytes = format!(
        "{} -> {} bytes",
        clipscope_core::text::thousands(before),
        clipscope_core::text::thousands(after)
    );
    assert!(harness.query_by_label_contains(&bytes).is_some(), "{bytes}");
    // Nothing is edited yet.
    assert_eq!(keys(&harness), 363);
    assert!(!harness.state().ws.documents[0].is_dirty());

    // B shows the original, B again the reduction.
    harness.key_press(Key::B);
    harness.run();
    assert!(harness.state().reduce.show_original);
    harness.key_press(Key::B);
    harness.run();
    assert!(!harness.state().reduce.show_original);

    harness.get_by_label("Apply").click();
    harness.run();
    assert!(!harness.state().reduce.open);
    assert_eq!(keys(&harness), report.keys_after);
    assert!(harness.state().ws.documents[0].is_dirty());

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(keys(&harness), 363);
    assert!(!harness.state().ws.documents[0].is_dirty());
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run();
    assert_eq!(keys(&harness), report.keys_after);
}

#[test]
fn a_tighter_budget_recomputes_and_cancel_leaves_the_clip_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[dense_file(dir.path())]);
    open_reduce(&mut harness);
    let loose = harness.state().reduce.preview.as_ref().unwrap().clips[0]
        .report
        .keys_after;

    harness.state_mut().reduce.max_error = 1e-5;
    settle(&mut harness);
    let preview = harness.state().reduce.preview.clone().unwrap();
    assert_eq!(preview.request.budget.max_error, 1e-5);
    let tight = &preview.clips[0].report;
    assert!(tight.keys_after > loose, "{} vs {loose}", tight.keys_after);
    assert!(tight.max_error <= 1e-5 + 1e-12, "{}", tight.max_error);

    harness.get_by_label("Cancel").click();
    harness.run();
    assert!(!harness.state().reduce.open);
    assert!(harness.state().reduce.preview.is_none());
    assert_eq!(keys(&harness), 363);
    assert!(!harness.state().ws.documents[0].is_dirty());
    // B does nothing while the window is closed.
    harness.key_press(Key::B);
    harness.run();
    assert!(!harness.state().reduce.show_original);
}

/// A skinned character: the preview's error is measured at every vertex three.js skins, and
/// the window names the vertex, its mesh and the time where it is largest.
#[test]
fn reduce_names_the_worst_vertex_of_a_skinned_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("character.gltf");
    let character = crate::skinned_character::Character::default();
    std::fs::write(
        &path,
        crate::skinned_character::gltf(&character).to_string(),
    )
    .unwrap();
    let mut harness = editor(&[path]);
    harness.get_by_label_contains("Sway").click();
    harness.run();
    harness.get_by_label("Clip").click();
    harness.run();
    harness.get_by_label("Reduce keys…").click();
    harness.run_steps(1);
    settle(&mut harness);
    let preview = harness.state().reduce.preview.clone().expect("a preview");
    let report = &preview.clips[0].report;
    assert!(report.vertices > 0);
    assert!(report.keys_after < report.keys_before);
    let worst = report.worst.as_ref().expect("a worst point");
    assert!(worst.place().starts_with("vertex "), "{}", worst.place());
    assert!(worst.place().ends_with(" of Cylinder"), "{}", worst.place());
    assert!(
        harness
            .query_by_label_contains(&format!("at {}", worst.place()))
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("every vertex of the meshes")
            .is_some()
    );
}

/// Lets the worker finish until the preview shown is the packed one (quantize and meshopt
/// ticked): the unpacked preview may still have been running when the boxes were ticked.
fn settle_packed(harness: &mut Harness<'_, ClipscopeApp>) {
    harness.run_steps(2);
    let packed = |h: &Harness<'_, ClipscopeApp>| {
        h.state()
            .reduce
            .preview
            .as_ref()
            .is_some_and(|p| p.request.packing.quantize && p.request.packing.meshopt)
    };
    for _ in 0..5 {
        settle(harness);
        if packed(harness) {
            return;
        }
    }
    panic!("no packed preview");
}

/// The dense take as a GLB file.
fn dense_glb(dir: &Path) -> PathBuf {
    let json = dense_file(dir);
    let doc = clipscope_core::formats::read_file(&json).unwrap();
    let glb = dir.join("take.glb");
    clipscope_core::formats::write_file(
        &doc.converted_to(clipscope_core::formats::Format::Glb),
        &glb,
        &Default::default(),
    )
    .unwrap();
    glb
}

#[test]
fn packing_a_gltf_file_shows_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dense_glb(dir.path());
    let mut harness = editor(&[glb]);
    open_reduce(&mut harness);
    let plain = harness
        .state()
        .reduce
        .preview
        .as_ref()
        .unwrap()
        .bytes
        .unwrap();
    harness.get_by_label("quantize").click();
    harness.get_by_label("meshopt").click();
    settle_packed(&mut harness);
    let state = harness.state();
    assert!(state.reduce.quantize && state.reduce.meshopt);
    let packed = state.reduce.preview.as_ref().unwrap().bytes.unwrap();
    assert_eq!(packed.0, plain.0, "the same file before");
    // Packed, the file is another size (on a clip this short the codec's tables cost more
    // than they save; the benchmark measures long takes).
    assert_ne!(packed.1, plain.1, "{packed:?} vs {plain:?}");
    let bytes = format!(
        "{} -> {} bytes",
        clipscope_core::text::thousands(packed.0),
        clipscope_core::text::thousands(packed.1)
    );
    assert!(harness.query_by_label_contains(&bytes).is_some(), "{bytes}");
}

/// The window packs a glTF file through `clipscope reduce --quantize --meshopt`'s own path
/// (the key grid, the fit measured as stored, the quaternion bits of the budget): at the same
/// budget the bytes it shows are the bytes the command writes, and it keeps the same keys.
#[test]
fn packed_preview_bytes_equal_the_commands() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dense_glb(dir.path());
    let mut harness = editor(std::slice::from_ref(&glb));
    open_reduce(&mut harness);
    harness.get_by_label("quantize").click();
    harness.get_by_label("meshopt").click();
    settle_packed(&mut harness);
    let preview = harness.state().reduce.preview.clone().expect("a preview");
    assert_eq!(preview.request.budget.max_error, 0.01);
    let out = dir.path().join("cli.glb");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("reduce")
        .arg(&glb)
        .arg("-o")
        .arg(&out)
        .args(["--max-error", "0.01", "--quantize", "--meshopt", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let written = std::fs::metadata(&out).unwrap().len() as usize;
    let (before, after) = preview.bytes.expect("bytes");
    assert_eq!(after, written, "the preview's bytes are the command's");
    assert_eq!(report["bytes"].as_u64(), Some(written as u64));
    assert_eq!(
        report["keys_after"].as_u64(),
        Some(preview.clips[0].report.keys_after as u64)
    );
    assert!(preview.clips[0].report.max_error <= 0.01);
    let bytes = format!(
        "{} -> {} bytes",
        clipscope_core::text::thousands(before),
        clipscope_core::text::thousands(after)
    );
    assert!(harness.query_by_label_contains(&bytes).is_some(), "{bytes}");
}
