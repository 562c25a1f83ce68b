//! The VALIDATION panel driven through egui_kittest: validating a bad clip shows the lint
//! finding, the panel's Fix button repairs it as one undoable edit, and undo brings it back.
#![cfg(feature = "gui")]

use crate::common;

use common::gui::editor;
use std::path::{Path, PathBuf};

use clipscope::editor::ClipId;
use clipscope::ui::ClipscopeApp;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

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
