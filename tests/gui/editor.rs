//! The whole editor driven through egui_kittest: menus, shortcuts, undo, the command palette,
//! validation, the timeline, file prompts and unsaved-edit questions, plus a rendered snapshot.
#![cfg(feature = "gui")]

use crate::common;

use common::gui::{editor, export_through_prompt};
use std::path::{Path, PathBuf};

use clipscope::ui::ClipscopeApp;
use clipscope::ui::findings::Findings;
use clipscope::ui::outbox::FileTarget;
use clipscope_core::formats::WriteOptions;
use clipscope_editor::ClipId;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// A clip file with redundant keys (optimize removes some) and a key past the duration.
const CLIPS: &str = r#"[
 {"name":"bounce","duration":1,"tracks":[
  {"name":"ball.position","type":"vector","times":[0,0.25,0.5,0.75,1],
   "values":[0,0,0, 0,0,0, 0,0,0, 0,1,0, 0,0,0]},
  {"name":"ball.scale","type":"vector","times":[0,0.5,1,1.5],
   "values":[1,1,1, 1,1,1, 1,1,1, 1,1,1]}]},
 {"name":"spin","duration":2,"tracks":[
  {"name":"ball.quaternion","type":"quaternion","times":[0,2],"values":[0,0,0,1, 0,1,0,0]}]}
]"#;

fn clip_file(dir: &Path) -> PathBuf {
    let path = dir.join("ball.json");
    std::fs::write(&path, CLIPS).unwrap();
    path
}

const BOUNCE: ClipId = ClipId { doc: 0, clip: 0 };

/// Opens menu `menu` and clicks its item `item`.
fn menu(harness: &mut Harness<'_, ClipscopeApp>, menu: &str, item: &str) {
    harness.get_by_label(menu).click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

/// The last line operations reported.
fn last_log<'a>(harness: &'a Harness<'_, ClipscopeApp>) -> Option<&'a str> {
    harness.state().log.last().map(String::as_str)
}

fn keys(harness: &Harness<'_, ClipscopeApp>, id: ClipId) -> usize {
    harness.state().ws.clip(id).unwrap().key_count()
}

#[test]
fn optimize_from_the_menu_then_undo_and_redo_with_shortcuts() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.get_by_label_contains("bounce").click();
    harness.run();
    assert_eq!(harness.state().selection.clip, Some(BOUNCE));
    assert_eq!(keys(&harness, BOUNCE), 9);

    menu(&mut harness, "Clip", "Optimize clip");
    assert_eq!(keys(&harness, BOUNCE), 6);
    assert_eq!(last_log(&harness), Some("optimize: 9 -> 6 keys"));
    assert!(
        harness
            .query_all_by_label_contains("optimize: 9 -> 6 keys")
            .next()
            .is_some()
    );
    assert!(harness.state().ws.documents[0].is_dirty());
    assert_eq!(
        harness.state().window_title(),
        "clipscope — ball.json (unsaved edits)"
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(keys(&harness, BOUNCE), 9);
    assert!(!harness.state().ws.documents[0].is_dirty());
    assert_eq!(harness.state().window_title(), "clipscope — ball.json");

    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run();
    assert_eq!(keys(&harness, BOUNCE), 6);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    harness.run();
    assert_eq!(keys(&harness, BOUNCE), 6);
}

#[test]
fn the_inspector_buttons_run_operations_on_one_or_all_clips() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.get_by_label_contains("spin").click();
    harness.run();
    harness.get_by_label("Reset duration").click();
    harness.run();
    assert_eq!(
        last_log(&harness),
        Some("reset duration: 0 of 1 clips changed")
    );
    harness.get_by_label("all clips").click();
    harness.run();
    harness.get_by_label("Reset duration").click();
    harness.run();
    assert_eq!(
        last_log(&harness),
        Some("reset duration: 1 of 2 clips changed")
    );
    assert_eq!(harness.state().ws.clip(BOUNCE).unwrap().duration, 1.5);
    harness.get_by_label("Optimize").click();
    harness.run();
    assert_eq!(
        last_log(&harness),
        Some("optimize: 11 -> 8 keys over 2 clips")
    );
}

#[test]
fn the_command_palette_runs_what_you_type() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::K);
    harness.run();
    assert!(harness.state().palette.open);
    harness.get_by_label("Trim all clips");
    harness.get_by_label("Ctrl+Shift+Z");
    harness.get_by_label("Command").type_text("trim all");
    harness.run();
    assert!(harness.query_by_label("Optimize clip").is_none());
    harness.key_press(Key::Enter);
    harness.run();
    assert!(!harness.state().palette.open);
    // The scale track's key at 1.5 s lies past the 1 s duration.
    assert_eq!(keys(&harness, BOUNCE), 8);
    assert_eq!(last_log(&harness), Some("trim: 11 -> 10 keys over 2 clips"));
}

#[test]
fn space_plays_and_arrows_step_frames_and_keys() {
    let mut harness = editor(&[]);
    harness.key_press(Key::ArrowRight);
    harness.run();
    assert!((harness.state().transport.time - 1.0 / 30.0).abs() < 1e-9);
    harness.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    harness.run();
    assert!((harness.state().transport.time - 11.0 / 30.0).abs() < 1e-9);
    harness.key_press(Key::Home);
    harness.run();
    assert_eq!(harness.state().transport.time, 0.0);
    harness.key_press(Key::ArrowUp);
    harness.run();
    let next_key = harness.state().transport.time;
    assert!(next_key > 0.0 && next_key < 0.1, "{next_key}");
    harness.key_press(Key::End);
    harness.run();
    assert_eq!(harness.state().transport.time, 1.0);
    harness.key_press(Key::Space);
    harness.step();
    assert!(harness.state().transport.playing);
    harness.key_press(Key::Space);
    harness.step();
    assert!(!harness.state().transport.playing);
}

#[test]
fn scrubbing_the_ruler_moves_the_playhead() {
    let mut harness = editor(&[]);
    let rect = harness.get_by_label("Playhead").rect();
    // The demo's walk lasts one second; click a little past the middle of the ruler.
    let at = egui::pos2(rect.left() + rect.width() * 0.55, rect.center().y);
    harness.drag_at(at);
    harness.drop_at(at);
    harness.run();
    let t = harness.state().transport.time;
    assert!(t > 0.3 && t < 0.8, "{t}");
    // Snapped to a frame at 30 fps.
    assert!((t * 30.0 - (t * 30.0).round()).abs() < 1e-9, "{t}");
}

#[test]
fn delete_clip_and_duplicate_are_undoable() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    menu(&mut harness, "Clip", "Duplicate clip");
    assert_eq!(harness.state().ws.documents[0].doc.clips.len(), 3);
    harness.get_by_label_contains("bounce copy");
    assert_eq!(
        harness.state().selection.clip,
        Some(ClipId { doc: 0, clip: 1 })
    );
    menu(&mut harness, "Clip", "Delete clip");
    assert_eq!(harness.state().ws.documents[0].doc.clips.len(), 2);
    assert!(harness.query_by_label_contains("bounce copy").is_none());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    harness.get_by_label_contains("bounce copy");
}

#[test]
fn validation_findings_select_their_track_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    menu(&mut harness, "Clip", "Validate all clips");
    assert!(harness.state().show_validation);
    let findings = harness.state().findings.clone().expect("validated");
    let (id, problem) = findings
        .items()
        .find(|(_, f)| f.problem.key.is_some())
        .map(|(d, f)| (Findings::clip_of(d, f).unwrap(), f.problem.clone()))
        .expect("a finding with a key");
    let label = format!("{} ({})", problem.message, problem.code);
    harness.get_by_label_contains(&label).click();
    harness.run();
    let state = harness.state();
    assert_eq!(state.selection.clip, Some(id));
    let track = problem.track.unwrap();
    assert!(state.selection.tracks.contains(&track));
    let key = state.selection.keys.iter().next().expect("a selected key");
    assert_eq!((key.track, key.key), (track, problem.key.unwrap()));
}

#[test]
fn save_as_through_the_typed_path_writes_the_file_and_clears_dirty() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    menu(&mut harness, "Clip", "Optimize clip");
    let doc_id = harness.state().ws.documents[0].id;
    let out = dir.path().join("saved.json");
    harness.state_mut().files.prompt_for(
        FileTarget::SaveAs {
            doc_id,
            options: WriteOptions::default(),
            format: None,
        },
        None,
        "no dialog in tests".into(),
    );
    harness.run();
    harness
        .get_by_label("Path")
        .type_text(out.to_str().unwrap());
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    let state = harness.state();
    assert!(!state.ws.documents[0].is_dirty());
    assert_eq!(
        state.ws.documents[0].doc.path.as_deref(),
        Some(out.as_path())
    );
    let written = clipscope_core::formats::read_file(&out).unwrap();
    assert_eq!(written.clips[0].key_count(), 6);
    assert_eq!(
        state.files.recent.first(),
        Some(&std::fs::canonicalize(&out).unwrap())
    );
}

#[test]
fn closing_an_edited_file_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    menu(&mut harness, "Clip", "Optimize clip");
    menu(&mut harness, "File", "Close file");
    harness.get_by_label_contains("has unsaved edits");
    harness.get_by_label("Cancel").click();
    harness.run();
    assert_eq!(harness.state().ws.documents.len(), 1);
    menu(&mut harness, "File", "Close file");
    harness.get_by_label("Discard edits").click();
    harness.run();
    assert!(harness.state().ws.documents.is_empty());
    harness.get_by_label("Drop a clip file here or press Ctrl+O.");
}

#[test]
fn reopening_a_broken_file_keeps_the_open_document() {
    let dir = tempfile::tempdir().unwrap();
    let good = clip_file(dir.path());
    let mut harness = editor(&[good]);
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        r#"{"name":"x","tracks":[{"name":".a","times":[0,1],"values":[0,"#,
    )
    .unwrap();
    harness.state_mut().request_open(&broken);
    harness.state_mut().wait_for_loads();
    harness.run();
    let error = harness.state().error.clone().expect("an error");
    assert!(
        error.contains("broken.json") && error.contains("tracks[0].values"),
        "{error}"
    );
    assert_eq!(harness.state().ws.documents.len(), 1);
    harness.get_by_label_contains("bounce");
}

/// Renders the editor with the demo through wgpu and compares it with the committed image.
/// Needs a GPU adapter (Mesa's lavapipe in CI): skipped loudly without one, unless
/// `CLIPSCOPE_REQUIRE_GPU=1` makes that a failure.
#[test]
fn snapshot_of_the_demo() {
    if common::gpu::require_gpu().is_none() {
        return;
    }
    let renderer = egui_kittest::wgpu::WgpuTestRenderer::new();
    let mut app = ClipscopeApp::open(&[]);
    app.wait_for_loads();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .renderer(renderer)
        .build_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app);
    harness.run();
    harness.snapshot_options(
        "editor_demo",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

#[test]
fn double_click_renames_a_clip_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    let label = harness.get_by_label_contains("spin").rect().center();
    // Both clicks in one frame, so they count as a double-click.
    let mut events = vec![egui::Event::PointerMoved(label)];
    events.extend(press_release(label));
    events.extend(press_release(label));
    harness.input_mut().events.extend(events);
    harness.run();
    assert!(harness.state().clip_list.renaming.is_some());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    harness
        .input_mut()
        .events
        .push(egui::Event::Text("twirl".into()));
    harness.run();
    harness.key_press(Key::Enter);
    harness.run();
    let spin = ClipId { doc: 0, clip: 1 };
    assert_eq!(harness.state().ws.clip(spin).unwrap().name, "twirl");
    harness.get_by_label_contains("twirl");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(harness.state().ws.clip(spin).unwrap().name, "spin");
}

#[test]
fn the_track_tree_shows_and_hides_curves() {
    let mut harness = editor(&[]);
    // The demo starts with its first four tracks shown.
    assert_eq!(harness.state().selection.tracks.len(), 4);
    harness.get_by_label("None").click();
    harness.run();
    assert!(harness.state().selection.tracks.is_empty());
    harness.get_by_label("(root)");
    harness.get_by_label("blink · morph").click();
    harness.run();
    let blink = harness
        .state()
        .ws
        .clip(ClipId { doc: 0, clip: 0 })
        .unwrap()
        .tracks
        .iter()
        .position(|t| t.name == ".morphTargetInfluences[blink]")
        .unwrap();
    assert_eq!(harness.state().selection.tracks, [blink].into());
    harness.get_by_label("All").click();
    harness.run();
    assert_eq!(harness.state().selection.tracks.len(), 11);
}

/// Screen position of plot point `(t, v)` in the editor's curve panel.
fn plot_pos(h: &Harness<'_, ClipscopeApp>, t: f64, v: f64) -> egui::Pos2 {
    let tf = *h
        .state()
        .curves
        .transform()
        .expect("the curve editor was shown");
    tf.position_from_point(&egui_plot::PlotPoint::new(t, v))
}

/// Plot point under a screen position.
fn plot_point(h: &Harness<'_, ClipscopeApp>, pos: egui::Pos2) -> [f64; 2] {
    let tf = *h
        .state()
        .curves
        .transform()
        .expect("the curve editor was shown");
    let p = tf.value_from_position(pos);
    [p.x, p.y]
}

/// A primary button press or release at `pos`.
fn button(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    }
}

/// A primary click at `pos`: press and release.
fn press_release(pos: egui::Pos2) -> [egui::Event; 2] {
    [button(pos, true), button(pos, false)]
}

fn mouse_drag(h: &mut Harness<'_, ClipscopeApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.event(button(from, true));
    for f in [0.25, 0.5, 1.0] {
        h.hover_at(from + (to - from) * f);
    }
    h.event(button(to, false));
    h.run();
    h.run_steps(3);
}

/// The editor on the ball clip with only the y curve of `ball.position` shown, framed.
fn bounce_y_curve(dir: &tempfile::TempDir) -> Harness<'static, ClipscopeApp> {
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.state_mut().selection.tracks = [0].into();
    harness.state_mut().selection.hidden = [(0, 0), (0, 2)].into();
    harness.key_press(Key::F);
    harness.run();
    harness
}

#[test]
fn dragging_a_key_in_the_curve_editor_moves_it_and_undo_puts_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = bounce_y_curve(&dir);
    // Free time: this checks the pointer-to-plot mapping (snapping has its own test).
    harness.state_mut().curves.snap = false;
    let from = plot_pos(&harness, 0.75, 1.0);
    let to = from + egui::vec2(20.0, -30.0);
    let want = plot_point(&harness, to);
    mouse_drag(&mut harness, from, to);
    let track = &harness.state().ws.clip(BOUNCE).unwrap().tracks[0];
    let (t, v) = (
        track.times[3] as f64,
        track.values.as_numbers().unwrap()[3 * 3 + 1] as f64,
    );
    assert!((t - want[0]).abs() < 1e-4, "time {t} vs {}", want[0]);
    assert!((v - want[1]).abs() < 1e-4, "value {v} vs {}", want[1]);
    assert!(v > 1.0 && t > 0.75);
    // One drag, one undo step.
    assert_eq!(harness.state().ws.history.undo_label(), Some("Move keys"));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let track = &harness.state().ws.clip(BOUNCE).unwrap().tracks[0];
    assert_eq!(track.times[3], 0.75);
    assert_eq!(track.values.as_numbers().unwrap()[3 * 3 + 1], 1.0);
    assert!(harness.state().ws.history.undo_label().is_none());
}

#[test]
fn dragging_a_bezier_handle_stores_the_tangent() {
    let mut harness = editor(&[]);
    let walk = ClipId { doc: 0, clip: 0 };
    let blink = 9;
    assert_eq!(
        harness.state().ws.clip(walk).unwrap().tracks[blink].name,
        ".morphTargetInfluences[blink]"
    );
    harness.state_mut().selection.tracks = [blink].into();
    harness.key_press(Key::F);
    harness.run();
    // Select the blink's peak key (0.5 s, 1): its handles appear.
    let key = plot_pos(&harness, 0.5, 1.0);
    harness.hover_at(key);
    for event in press_release(key) {
        harness.event(event);
    }
    harness.run();
    assert_eq!(harness.state().selection.keys.len(), 1);
    // Its out handle sits at (0.5333, 1); pull it down and right.
    let from = plot_pos(&harness, 0.5333, 1.0);
    let to = from + egui::vec2(12.0, 40.0);
    let want = plot_point(&harness, to);
    mouse_drag(&mut harness, from, to);
    let track = &harness.state().ws.clip(walk).unwrap().tracks[blink];
    let tangents = track.tangents.as_ref().expect("bezier handles");
    let (t, v) = (
        tangents.out_tangents[4] as f64,
        tangents.out_tangents[5] as f64,
    );
    // Within a pixel of where the pointer let go (the drag moves the handle by ~0.17).
    assert!(
        (t - want[0]).abs() < 0.005,
        "handle time {t} vs {}",
        want[0]
    );
    assert!(
        (v - want[1]).abs() < 0.005,
        "handle value {v} vs {}",
        want[1]
    );
    assert!(v < 0.9);
    // The key itself did not move, and the edit is one undo step.
    assert_eq!(track.times[2], 0.5);
    assert_eq!(harness.state().ws.history.undo_label(), Some("Move handle"));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let track = &harness.state().ws.clip(walk).unwrap().tracks[blink];
    assert_eq!(
        track.tangents.as_ref().unwrap().out_tangents[4..6],
        [0.5333, 1.0]
    );
}

/// A file dropped on the window, as the windowing integration hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_files_on_the_window_opens_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = clip_file(dir.path());
    let mut harness = editor(&[]);
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(file.clone())));
    harness.run();
    harness.state_mut().wait_for_loads();
    harness.run();
    assert_eq!(harness.state().ws.documents.len(), 2);
    harness.get_by_label_contains("bounce");
    harness.get_by_label("ball.json");
    assert_eq!(
        harness.state().files.recent.first(),
        Some(&std::fs::canonicalize(&file).unwrap())
    );
}

#[test]
fn settings_survive_a_restart() {
    let mut app = ClipscopeApp::open(&[]);
    app.files.recent = vec![PathBuf::from("/clips/walk.json")];
    app.dark = false;
    app.show_validation = true;
    let stored = serde_json::to_string(&app.settings()).unwrap();
    let restored = ClipscopeApp::empty().with_settings(serde_json::from_str(&stored).unwrap());
    assert_eq!(restored.files.recent, app.files.recent);
    assert!(!restored.dark && restored.show_validation);
    // Settings written by an older version (fields missing) still load.
    let old: clipscope::ui::Settings = serde_json::from_str(r#"{"recent":[]}"#).unwrap();
    assert!(old.dark);
}

#[test]
fn escape_during_a_drag_puts_the_key_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = bounce_y_curve(&dir);
    let from = plot_pos(&harness, 0.75, 1.0);
    harness.hover_at(from);
    harness.event(button(from, true));
    for f in [0.25, 0.5, 1.0] {
        harness.hover_at(from + egui::vec2(0.0, -40.0) * f);
    }
    harness.run();
    let moved = harness.state().ws.clip(BOUNCE).unwrap().tracks[0]
        .values
        .as_numbers()
        .unwrap()[10];
    assert!(moved > 1.0, "the drag moved the key: {moved}");
    assert!(
        harness.state().curves.shows_ghost(),
        "the original curve is drawn while dragging"
    );
    harness.key_press(Key::Escape);
    harness.run();
    harness.event(button(from + egui::vec2(0.0, -40.0), false));
    harness.run();
    let track = &harness.state().ws.clip(BOUNCE).unwrap().tracks[0];
    assert_eq!(track.values.as_numbers().unwrap()[10], 1.0);
    assert!(harness.state().ws.history.undo_label().is_none());
    assert!(harness.state().ws.history.redo_label().is_none());
    assert!(!harness.state().ws.documents[0].is_dirty());
    assert!(!harness.state().curves.shows_ghost());
}

#[test]
fn export_as_converts_to_the_chosen_format_and_keeps_the_document() {
    use clipscope_core::formats::Format;
    let dir = tempfile::tempdir().unwrap();
    let Some(skinned) = crate::test_support::sample_data("threejs/simple-skinned.json") else {
        return;
    };
    let mut harness = editor(std::slice::from_ref(&skinned));
    assert_eq!(
        harness.state().ws.documents[0].doc.format,
        Format::ThreeJsLegacy
    );
    let out = dir.path().join("clips.json");
    let doc_id = harness.state().ws.documents[0].id;
    export_through_prompt(&mut harness, doc_id, Format::ThreeJs, &out);
    let written = clipscope_core::formats::read_file(&out).unwrap();
    assert_eq!(written.format, Format::ThreeJs);
    let original = &harness.state().ws.documents[0].doc.clips;
    assert_eq!(written.clips.len(), original.len());
    for (w, o) in written.clips.iter().zip(original) {
        assert_eq!(
            (&w.name, w.duration, &w.tracks),
            (&o.name, o.duration, &o.tracks)
        );
    }
    // The export says what three.js clip JSON has no place for, and leaves the document alone.
    assert!(
        harness
            .state()
            .log
            .iter()
            .any(|l| l.starts_with("export as threejs: not written:")),
        "{:?}",
        harness.state().log
    );
    let state = harness.state();
    assert_eq!(
        state.ws.documents[0].doc.path.as_deref(),
        Some(skinned.as_path())
    );
    assert_eq!(state.ws.documents[0].doc.format, Format::ThreeJsLegacy);

    // Node tracks the legacy format has no place for are written as bones (and reported).
    let mut harness = editor(&[clip_file(dir.path())]);
    let legacy = dir.path().join("legacy.json");
    let doc_id = harness.state().ws.documents[0].id;
    export_through_prompt(&mut harness, doc_id, Format::ThreeJsLegacy, &legacy);
    assert!(legacy.exists());
    let back = clipscope_core::formats::read_file(&legacy).unwrap();
    assert_eq!(back.format, Format::ThreeJsLegacy);
    assert_eq!(back.clips[0].tracks[0].name, ".bones[ball].position");
}

/// The export dialog measures how the document plays in the chosen format, with the tolerance
/// it takes, as `convert` does (the same core measurement), and its tolerance goes into the
/// written file's options.
#[test]
fn export_dialog_measures_the_destinations_playback() {
    use clipscope_core::formats::Format;
    let dir = tempfile::tempdir().unwrap();
    // A quarter turn between two keys: the anim clip's component lerp needs keys added.
    let file = dir.path().join("turn.json");
    std::fs::write(
        &file,
        r#"{"name":"turn","duration":1,"tracks":[{"name":"ball.quaternion","type":"quaternion",
            "times":[0,1],"values":[0,0,0,1, 0,0.7071068,0,0.7071068]}]}"#,
    )
    .unwrap();
    let mut harness = editor(std::slice::from_ref(&file));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::E);
    harness.run();
    assert!(harness.state().export.is_some());
    harness.get_by_label_contains("Not measured");
    harness.state_mut().export.as_mut().unwrap().format = Format::PlayCanvasAnim;
    harness.run();
    harness.get_by_label("Measure").click_accesskit();
    harness.run();
    harness.run();
    // The dialog shows convert's line for the same document, format and tolerance.
    let doc = harness.state().ws.documents[0].doc.clone();
    let opts = harness.state().export.as_ref().unwrap().options();
    let expected = clipscope_core::formats::export_fidelity(&doc, Format::PlayCanvasAnim, &opts)
        .unwrap()
        .summary(Format::PlayCanvasAnim);
    assert!(
        expected.starts_with("plays in playcanvas-anim within"),
        "{expected}"
    );
    assert!(expected.contains("key(s) added"), "{expected}");
    harness.get_by_label(&expected);
    // A coarser tolerance needs a new measurement, with fewer keys added.
    harness.state_mut().export.as_mut().unwrap().tolerance = 5.0;
    harness.run();
    harness.get_by_label_contains("Not measured");
    harness.get_by_label("Measure").click_accesskit();
    for _ in 0..3 {
        harness.run();
    }
    let export = harness.state().export.as_ref().unwrap();
    let coarse = export
        .measurement()
        .unwrap_or_else(|| panic!("{:?}", (export.tolerance, &export.measured)))
        .to_string();
    let added = |s: &str| -> usize {
        s.rsplit("; ")
            .next()
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.replace(',', "").parse().ok())
            .unwrap_or(0)
    };
    assert!(added(&coarse) < added(&expected), "{coarse} vs {expected}");
    let options = harness.state().export.as_ref().unwrap().options();
    assert_eq!(options.tolerance.rotation_deg, 5.0);
}
