//! The editor window, driven through egui_kittest: the real `ClipscopeApp`, clicked by label.
#![cfg(feature = "gui")]

use std::path::PathBuf;

use clipscope::ui::ClipscopeApp;
use clipscope_editor::ClipId;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

#[test]
fn demo_lists_clips_and_tracks_and_selects_by_click() {
    let mut harness = Harness::new_ui_state(
        |ui, app: &mut ClipscopeApp| app.show(ui),
        ClipscopeApp::open(&[]),
    );
    harness.run();
    // The demo opens with the first clip selected and its tracks listed.
    assert_eq!(
        harness.state().selection.clip,
        Some(ClipId { doc: 0, clip: 0 })
    );
    // The track tree groups tracks by bone or node.
    harness.get_by_label("hips › position");
    harness.get_by_label("(root)");
    // The bezier blink track is shown first: in the tree (by its target name) and as a
    // dopesheet row.
    harness.get_by_label("blink · morph");
    harness.get_by_label("morphTargetInfluences[blink]");
    // Clicking the second clip in the list shows its tracks instead.
    harness.get_by_label_contains("idle   2.00 s").click();
    harness.run();
    assert_eq!(
        harness.state().selection.clip,
        Some(ClipId { doc: 0, clip: 1 })
    );
    harness.get_by_label("head › quaternion");
    assert!(
        harness
            .query_by_label("morphTargetInfluences[blink]")
            .is_none()
    );
}

#[test]
fn filter_hides_clips_that_do_not_match() {
    let mut harness = Harness::new_ui_state(
        |ui, app: &mut ClipscopeApp| app.show(ui),
        ClipscopeApp::open(&[]),
    );
    harness.state_mut().clip_list.filter = "idl".into();
    harness.run();
    assert!(harness.query_by_label_contains("walk   1.00 s").is_none());
    harness.get_by_label_contains("idle   2.00 s");
}

#[test]
fn a_failed_load_keeps_open_documents_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, r#"{"name":"x","tracks":[{"name":".a","times":[0,"#).unwrap();
    let demo = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    ));
    let files = vec![demo, broken];
    let mut app = ClipscopeApp::open(&files);
    app.wait_for_loads();
    let mut harness = Harness::new_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app);
    harness.run();
    assert_eq!(harness.state().ws.documents.len(), 1);
    let error = harness.state().error.clone().expect("an error message");
    assert!(error.contains("broken.json"), "{error}");
    harness.get_by_label_contains("broken.json");
    harness.get_by_label("Dismiss").click();
    harness.run();
    assert!(harness.state().error.is_none());
    assert!(harness.query_by_label_contains("broken.json").is_none());
    // The good document is still open and selected.
    harness.get_by_label("hips › position");
}
