//! Fixing clips without leaving the editor, driven through egui_kittest: the key clipboard
//! (Ctrl+C / Ctrl+V, relative paste, Shift+D), key selection (Ctrl+A, K), clip operations from
//! the Clip menu (split, reverse, unroll, retime) and the rename-tracks dialog, each one undo
//! step.
#![cfg(feature = "gui")]

use crate::common;

use common::gui::editor;
use std::path::{Path, PathBuf};

use clipscope::ui::ClipscopeApp;
use clipscope::ui::clip_dialog::ClipDialog;
use clipscope_editor::ClipId;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// A walk and a run of a Mixamo export; the walk's spine flips hemisphere at 1 s.
const TAKE: &str = r#"[
 {"name":"walk","duration":2,"tracks":[
  {"name":"mixamorig:LeftArm.position","type":"vector","times":[0,1,2],"values":[0,0,0, 0,1,0, 0,0,0]},
  {"name":"mixamorig:Spine.quaternion","type":"quaternion","times":[0,1,2],
   "values":[0,0,0,1, 0,0,0,-1, 0,0,0,1]}]},
 {"name":"run","duration":1,"tracks":[
  {"name":"mixamorig:Hips.position","type":"vector","times":[0,1],"values":[0,0,0, 0,0,2]},
  {"name":"mixamorig:LeftArm.position","type":"vector","times":[0,1],"values":[5,5,5, 5,5,5]}]}
]"#;

const WALK: ClipId = ClipId { doc: 0, clip: 0 };
const RUN: ClipId = ClipId { doc: 0, clip: 1 };

fn take(dir: &Path) -> PathBuf {
    let path = dir.join("take.json");
    std::fs::write(&path, TAKE).unwrap();
    path
}

fn menu(harness: &mut Harness<'_, ClipscopeApp>, menu: &str, item: &str) {
    harness.get_by_label(menu).click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

fn last_log(harness: &Harness<'_, ClipscopeApp>) -> String {
    harness.state().log.last().cloned().unwrap_or_default()
}

fn select(harness: &mut Harness<'_, ClipscopeApp>, clip: &str) {
    // The clip list's row: the name, then its length and tracks.
    harness.get_by_label_contains(&format!("{clip}   ")).click();
    harness.run();
}

fn times(harness: &Harness<'_, ClipscopeApp>, id: ClipId, track: usize) -> Vec<f32> {
    harness.state().ws.clip(id).unwrap().tracks[track]
        .times
        .clone()
}

fn values(harness: &Harness<'_, ClipscopeApp>, id: ClipId, track: usize) -> Vec<f32> {
    let clip = harness.state().ws.clip(id).unwrap();
    clip.tracks[track].values.as_numbers().unwrap().to_vec()
}

#[test]
fn arm_keys_of_the_walk_copy_into_the_run_at_the_playhead_and_undo() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    // Show only the arm, select its keys with Ctrl+A and copy them.
    harness.state_mut().selection.tracks = [0].into();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    assert_eq!(
        harness.state().selection.keys.len(),
        9,
        "3 keys × 3 components"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run();
    assert_eq!(last_log(&harness), "copied 3 keys of 1 track(s) from walk");
    select(&mut harness, "run");
    harness.state_mut().transport.time = 0.5;
    // The windowing layer delivers Ctrl+V as a paste event.
    harness.event(egui::Event::Paste("clipscope: keys".into()));
    harness.run();
    assert_eq!(last_log(&harness), "pasted 3 keys");
    assert_eq!(times(&harness, RUN, 1), [0.0, 0.5, 1.0, 1.5, 2.5]);
    assert_eq!(
        values(&harness, RUN, 1),
        [5., 5., 5., 0., 0., 0., 5., 5., 5., 0., 1., 0., 0., 0., 0.]
    );
    assert_eq!(
        times(&harness, RUN, 0),
        [0.0, 1.0],
        "the hips are untouched"
    );
    assert!(
        harness.state().selection.tracks.contains(&1),
        "pasted track shown"
    );
    assert_eq!(
        harness.state().selection.keys.len(),
        9,
        "pasted keys selected"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(times(&harness, RUN, 1), [0.0, 1.0]);

    // Relative: the copied arm continues the run's arm curve (5, 5, 5 at 0.5 s).
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::V);
    harness.run();
    assert_eq!(
        values(&harness, RUN, 1),
        [5., 5., 5., 5., 5., 5., 5., 5., 5., 5., 6., 5., 5., 5., 5.]
    );
}

#[test]
fn shift_d_duplicates_a_frame_later_and_k_selects_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0, 1].into();
    // The column at the playhead (0 s): the first key of both shown tracks.
    harness.key_press(Key::K);
    harness.run();
    let keys: Vec<(usize, usize)> = harness
        .state()
        .selection
        .keys
        .iter()
        .map(|k| (k.track, k.key))
        .collect();
    assert_eq!(keys.len(), 7, "3 + 4 components");
    assert!(keys.iter().all(|&(_, k)| k == 0), "{keys:?}");
    harness.key_press_modifiers(Modifiers::SHIFT, Key::D);
    harness.run();
    assert_eq!(last_log(&harness), "duplicated 2 keys");
    let frame = 1.0 / harness.state().transport.fps as f32;
    assert_eq!(times(&harness, WALK, 0), [0.0, frame, 1.0, 2.0]);
    assert_eq!(times(&harness, WALK, 1), [0.0, frame, 1.0, 2.0]);
    assert_eq!(
        harness.state().ws.history.undo_label(),
        Some("Duplicate keys")
    );
    assert!(harness.state().selection.keys.iter().all(|k| k.key == 1));
}

#[test]
fn split_reverse_and_unroll_from_the_clip_menu_are_each_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().transport.time = 1.0;
    menu(&mut harness, "Clip", "Split clip at playhead");
    let names: Vec<String> = harness.state().ws.documents[0]
        .doc
        .clips
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["walk", "walk.2", "run"]);
    assert_eq!(
        harness.state().selection.clip,
        Some(ClipId { doc: 0, clip: 1 })
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(harness.state().ws.documents[0].doc.clips.len(), 2);

    select(&mut harness, "walk");
    menu(&mut harness, "Clip", "Unroll quaternion flips");
    assert_eq!(
        last_log(&harness),
        "unroll quaternions: 1 key(s) negated in 1 track(s)"
    );
    assert_eq!(values(&harness, WALK, 1)[4..8], [0.0, 0.0, 0.0, 1.0]);
    select(&mut harness, "run");
    menu(&mut harness, "Clip", "Reverse clip");
    assert_eq!(values(&harness, RUN, 0), [0., 0., 2., 0., 0., 0.]);
    assert_eq!(harness.state().ws.history.undo_label(), Some("Reverse"));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(
        harness.state().ws.history.undo_label(),
        Some("Unroll quaternions")
    );
}

#[test]
fn rename_tracks_previews_then_renames_every_clip() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    menu(&mut harness, "Edit", "Rename tracks…");
    assert!(harness.state().clip_dialog.is_some());
    harness.get_by_label("Find (regex)").click();
    harness.run();
    harness
        .get_by_label("Find (regex)")
        .type_text("^mixamorig:");
    harness.run();
    harness.get_by_label("2 of 2 tracks of this clip change:");
    harness.get_by_label("mixamorig:LeftArm.position  →  LeftArm.position");
    assert!(
        harness
            .query_all_by_label_contains("Bound to")
            .next()
            .is_some(),
        "the binding count shows"
    );
    harness.get_by_label("In every open clip").click();
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert!(harness.state().clip_dialog.is_none());
    assert_eq!(
        last_log(&harness),
        "rename: 4 track(s) renamed over 2 clips"
    );
    let run = harness.state().ws.clip(RUN).unwrap();
    assert_eq!(run.tracks[0].name, "Hips.position");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let run = harness.state().ws.clip(RUN).unwrap();
    assert_eq!(run.tracks[0].name, "mixamorig:Hips.position");
}

#[test]
fn retime_to_a_duration_through_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    menu(&mut harness, "Clip", "Retime clip…");
    harness.get_by_label("To duration").click();
    harness.run();
    if let Some(ClipDialog::Retime { amount, .. }) = &mut harness.state_mut().clip_dialog {
        assert_eq!(*amount, 2.0, "starts at the clip's duration");
        *amount = 3.0;
    }
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(times(&harness, WALK, 0), [0.0, 1.5, 3.0]);
    assert_eq!(harness.state().ws.clip(WALK).unwrap().duration, 3.0);
    assert_eq!(harness.state().ws.history.undo_label(), Some("Retime"));
}

#[test]
fn p_loops_the_selected_keys_and_alt_p_clears_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0].into();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    // Keep the keys at 0 s and 1 s selected.
    harness.state_mut().selection.keys.retain(|k| k.key < 2);
    harness.key_press(Key::P);
    harness.run();
    assert_eq!(harness.state().transport.range, Some((0.0, 1.0)));
    assert_eq!(last_log(&harness), "play range: 0.000 s to 1.000 s");
    // Keys in the range, from the Edit menu; Subclip… offers the range's frames.
    harness.state_mut().selection.keys.clear();
    menu(&mut harness, "Edit", "Select keys in the play range");
    assert_eq!(
        harness.state().selection.keys.len(),
        6,
        "2 keys × 3 components"
    );
    menu(&mut harness, "Clip", "Subclip…");
    match &harness.state().clip_dialog {
        Some(ClipDialog::Subclip { start, end, .. }) => assert_eq!((*start, *end), (0.0, 31.0)),
        other => panic!("{other:?}"),
    }
    harness.get_by_label("OK").click();
    harness.run();
    let names: Vec<String> = harness.state().ws.documents[0]
        .doc
        .clips
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["walk", "walk part", "run"]);
    select(&mut harness, "walk");
    harness.state_mut().transport.time = 0.9;
    for _ in 0..10 {
        harness.key_press(Key::ArrowRight);
        harness.run();
    }
    assert_eq!(
        harness.state().transport.time,
        1.0,
        "stepping stops at the range's end"
    );
    harness.key_press(Key::End);
    harness.run();
    assert_eq!(harness.state().transport.time, 1.0);
    harness.key_press_modifiers(Modifiers::ALT, Key::P);
    harness.run();
    assert_eq!(harness.state().transport.range, None);
    harness.key_press(Key::End);
    harness.run();
    assert_eq!(harness.state().transport.time, 2.0);
}

#[test]
fn alt_o_smooths_the_selected_keys_through_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0].into();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    harness.key_press_modifiers(Modifiers::ALT, Key::O);
    harness.run();
    assert!(matches!(
        harness.state().clip_dialog,
        Some(ClipDialog::Smooth { .. })
    ));
    // While the dialog is open the curves show the smoothing over a ghost of the original,
    // and the document is untouched.
    harness.run();
    let preview = harness
        .state()
        .smooth_preview
        .as_ref()
        .expect("a preview")
        .1
        .clone();
    assert_eq!(
        preview.tracks[0].values.as_numbers().unwrap()[3..6],
        [0.0, 0.75, 0.0]
    );
    assert_eq!(values(&harness, WALK, 0)[3..6], [0.0, 1.0, 0.0]);
    let ghost = harness.state().curves.reference.as_ref().expect("a ghost");
    assert_eq!(
        ghost.1[0].1.values.as_numbers().unwrap()[3..6],
        [0.0, 1.0, 0.0],
        "the ghost is the original"
    );
    harness.get_by_label("OK").click();
    harness.run();
    assert!(harness.state().smooth_preview.is_none());
    assert!(harness.state().curves.reference.is_none(), "the ghost goes");
    // The arm's middle key (0, 1, 0) moves half way to the ¼-½-¼ average (0, 0.5, 0).
    assert_eq!(values(&harness, WALK, 0)[3..6], [0.0, 0.75, 0.0]);
    assert_eq!(last_log(&harness), "smoothed 1 key(s)");
    assert_eq!(harness.state().ws.history.undo_label(), Some("Smooth keys"));
}

#[test]
fn s_stretches_a_section_and_shift_s_snaps_keys_to_frames() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0].into();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    harness.key_press(Key::S);
    harness.run();
    if let Some(ClipDialog::ScaleKeys { time_factor, .. }) = &mut harness.state_mut().clip_dialog {
        *time_factor = 1.005;
    }
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(times(&harness, WALK, 0), [0.0, 1.005, 2.01]);
    assert_eq!(harness.state().ws.history.undo_label(), Some("Scale keys"));
    harness.key_press_modifiers(Modifiers::SHIFT, Key::S);
    harness.run();
    assert_eq!(times(&harness, WALK, 0), [0.0, 1.0, 2.0]);
    assert_eq!(last_log(&harness), "snapped 2 key(s) to frames at 30 fps");
}

#[test]
fn merge_and_make_additive_against_another_clip_through_dialogs() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    menu(&mut harness, "Clip", "Merge clips…");
    harness.get_by_label("run").click();
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(
        last_log(&harness),
        "merged 2 clips into walk merged: 3 tracks (1 shared)"
    );
    let merged = ClipId { doc: 0, clip: 2 };
    assert_eq!(harness.state().selection.clip, Some(merged));

    select(&mut harness, "run");
    menu(&mut harness, "Clip", "Make additive…");
    if let Some(ClipDialog::MakeAdditive { reference, .. }) = &mut harness.state_mut().clip_dialog {
        *reference = Some(0);
    }
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(last_log(&harness), "additive against walk at frame 0");
    // The run's arm minus the walk's arm at frame 0 (0, 0, 0): unchanged; the hips have no
    // match in the walk and stay.
    assert_eq!(values(&harness, RUN, 1), [5., 5., 5., 5., 5., 5.]);
    assert_eq!(
        harness.state().ws.clip(RUN).unwrap().blend_mode,
        clipscope_core::model::BlendMode::Additive
    );
}

/// Presses or releases the primary button at `pos` with `modifiers`.
fn button(
    harness: &Harness<'_, ClipscopeApp>,
    pos: egui::Pos2,
    pressed: bool,
    modifiers: Modifiers,
) {
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers,
    });
}

#[test]
fn the_dopesheet_selects_keys_across_tracks_and_drags_them_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0, 1].into();
    harness.run();
    // The ruler spans the clip (0–2 s) at the fitted zoom; rows are found by their labels.
    let ruler = harness.get_by_label("Playhead").rect();
    let x = |t: f32| ruler.left() + ruler.width() * t / 2.0;
    let row0 = harness
        .get_by_label("mixamorig:LeftArm.position")
        .rect()
        .center()
        .y;
    let row1 = harness
        .get_by_label("mixamorig:Spine.quaternion")
        .rect()
        .center()
        .y;
    let key1 = |y: f32| egui::pos2(x(1.0), y);

    harness.hover_at(key1(row0));
    button(&harness, key1(row0), true, Modifiers::NONE);
    button(&harness, key1(row0), false, Modifiers::NONE);
    harness.run();
    assert_eq!(
        harness.state().transport.time,
        1.0,
        "a click seeks to the key"
    );
    harness.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
    harness.hover_at(key1(row1));
    button(&harness, key1(row1), true, Modifiers::SHIFT);
    button(&harness, key1(row1), false, Modifiers::SHIFT);
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    harness.run();
    let tracks: std::collections::BTreeSet<(usize, usize)> = harness
        .state()
        .selection
        .keys
        .iter()
        .map(|k| (k.track, k.key))
        .collect();
    assert_eq!(
        tracks,
        [(0, 1), (1, 1)].into(),
        "shift-click adds the other row's key"
    );

    // Drag the first row's key 0.3 s later: both selected keys move, snapped to frames.
    harness.run_steps(3);
    harness.hover_at(key1(row0));
    button(&harness, key1(row0), true, Modifiers::NONE);
    harness.run();
    for f in [0.1, 0.2, 0.3] {
        harness.hover_at(egui::pos2(x(1.0 + f), row0));
        harness.run();
    }
    button(&harness, egui::pos2(x(1.3), row0), false, Modifiers::NONE);
    harness.run();
    // Each step of a drag is rounded to f32 as it is applied, so the frame is met within that.
    for track in [0, 1] {
        let t = times(&harness, WALK, track);
        assert!((t[1] - 1.3).abs() < 1e-6, "track {track}: {t:?}");
    }
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(times(&harness, WALK, 0), [0.0, 1.0, 2.0], "one undo step");
    assert_eq!(times(&harness, WALK, 1), [0.0, 1.0, 2.0]);
}

#[test]
fn markers_are_added_renamed_jumped_to_and_kept_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().transport.time = 0.5;
    harness.key_press(Key::M);
    harness.run();
    harness.state_mut().transport.time = 1.5;
    harness.key_press(Key::M);
    harness.run();
    let names: Vec<String> = harness
        .state()
        .ws
        .clip(WALK)
        .unwrap()
        .markers()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["F15", "F45"]);
    // Alt+← / Alt+→ jump between markers.
    harness.key_press_modifiers(Modifiers::ALT, Key::ArrowLeft);
    harness.run();
    assert_eq!(harness.state().transport.time, 0.5);
    harness.key_press_modifiers(Modifiers::ALT, Key::ArrowRight);
    harness.run();
    assert_eq!(harness.state().transport.time, 1.5);

    // Rename the first in the Markers dialog.
    menu(&mut harness, "View", "Markers…");
    if let Some(ClipDialog::Markers { list }) = &mut harness.state_mut().clip_dialog {
        list[0].name = "left foot".into();
    }
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(
        harness.state().ws.clip(WALK).unwrap().markers()[0].name,
        "left foot"
    );
    assert_eq!(
        harness.state().ws.history.undo_label(),
        Some("Edit markers")
    );

    // Saved as three.js JSON, the markers are in the clip's userData.
    let out = dir.path().join("marked.json");
    let doc_id = harness.state().ws.documents[0].id;
    common::gui::export_through_prompt(
        &mut harness,
        doc_id,
        clipscope_core::formats::Format::ThreeJs,
        &out,
    );
    let back = clipscope_core::formats::read_file(&out).unwrap();
    let names: Vec<String> = back.clips[0]
        .markers()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["left foot", "F45"]);
}

#[test]
fn g_then_escape_puts_the_grabbed_keys_back_with_nothing_to_undo() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0].into();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run();
    let before = harness.state().ws.clip(WALK).unwrap().clone();
    let tf = *harness.state().curves.transform().unwrap();
    let at = |t: f64, v: f64| tf.position_from_point(&egui_plot::PlotPoint::new(t, v));
    harness.hover_at(at(1.0, 0.5));
    harness.run();
    harness.key_press(Key::G);
    harness.run();
    harness.hover_at(at(1.2, 0.8));
    harness.run();
    assert_ne!(
        harness.state().ws.clip(WALK).unwrap(),
        &before,
        "the keys follow"
    );
    harness.key_press(Key::Escape);
    harness.run();
    assert_eq!(harness.state().ws.clip(WALK).unwrap(), &before);
    assert_eq!(harness.state().ws.history.undo_label(), None);
}

#[test]
fn duplicate_and_mute_shown_tracks_from_the_edit_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "run");
    harness.state_mut().selection.tracks = [1].into();
    menu(&mut harness, "Edit", "Duplicate shown tracks");
    let names: Vec<String> = harness.state().ws.clip(RUN).unwrap().tracks[1..]
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "mixamorig:LeftArm.position",
            "mixamorig:LeftArm.position copy"
        ]
    );
    assert_eq!(
        harness.state().selection.tracks,
        [2].into(),
        "the copy is shown"
    );
    assert_eq!(values(&harness, RUN, 2), values(&harness, RUN, 1));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(harness.state().ws.clip(RUN).unwrap().tracks.len(), 2);

    // Shift+M mutes the shown arm: it stays in the clip, the viewport stops playing it, and
    // the tree says so.
    harness.state_mut().selection.tracks = [1].into();
    harness.run();
    let playing = harness.state().viewport.frame.boxes.clone();
    harness.key_press_modifiers(Modifiers::SHIFT, Key::M);
    harness.run();
    harness.run();
    assert!(harness.state().ws.clip(RUN).unwrap().tracks[1].muted);
    assert_eq!(last_log(&harness), "muted 1 track(s)");
    assert_eq!(harness.state().ws.history.undo_label(), Some("Mute tracks"));
    assert!(
        harness.query_by_label("muted").is_some(),
        "the tree marks it"
    );
    assert_ne!(
        harness.state().viewport.frame.boxes,
        playing,
        "the arm went back to rest"
    );
    // Shift+M again unmutes; undo of that mutes again, one step each.
    harness.key_press_modifiers(Modifiers::SHIFT, Key::M);
    harness.run();
    harness.run();
    assert!(!harness.state().ws.clip(RUN).unwrap().tracks[1].muted);
    assert_eq!(harness.state().viewport.frame.boxes, playing);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert!(harness.state().ws.clip(RUN).unwrap().tracks[1].muted);
}

#[test]
fn the_euler_filter_from_the_clip_menu_unwraps_a_rotation_and_undoes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spin.json");
    std::fs::write(
        &path,
        r#"[{"name":"spin","duration":2,"tracks":[
 {"name":"arm.rotation","type":"vector","times":[0,1,2],"values":[0,0,3, 0,0,-3, 0,0,-2.9]}]}]"#,
    )
    .unwrap();
    let mut harness = editor(&[path]);
    select(&mut harness, "spin");
    menu(
        &mut harness,
        "Clip",
        "Euler filter (continuous rotation angles)",
    );
    assert_eq!(
        last_log(&harness),
        "euler filter: 2 key(s) changed in 1 rotation track(s)"
    );
    let tau = std::f64::consts::TAU;
    assert_eq!(
        values(&harness, WALK, 0),
        [
            0.0,
            0.0,
            3.0,
            0.0,
            0.0,
            (-3.0 + tau) as f32,
            0.0,
            0.0,
            (-2.9f32 as f64 + tau) as f32
        ]
    );
    assert_eq!(
        harness.state().ws.history.undo_label(),
        Some("Euler filter")
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(values(&harness, WALK, 0)[5], -3.0);
}

#[test]
fn a_box_dragged_over_the_dopesheet_selects_the_keys_of_every_row_inside() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[take(dir.path())]);
    select(&mut harness, "walk");
    harness.state_mut().selection.tracks = [0, 1].into();
    harness.run();
    let ruler = harness.get_by_label("Playhead").rect();
    let x = |t: f32| ruler.left() + ruler.width() * t / 2.0;
    let row0 = harness
        .get_by_label("mixamorig:LeftArm.position")
        .rect()
        .center()
        .y;
    let row1 = harness
        .get_by_label("mixamorig:Spine.quaternion")
        .rect()
        .center()
        .y;
    let keys = |harness: &Harness<'_, ClipscopeApp>| -> std::collections::BTreeSet<(usize, usize)> {
        harness
            .state()
            .selection
            .keys
            .iter()
            .map(|k| (k.track, k.key))
            .collect()
    };
    let drag = |harness: &mut Harness<'_, ClipscopeApp>,
                from: egui::Pos2,
                to: egui::Pos2,
                m: Modifiers| {
        harness.event(egui::Event::ModifiersChanged(m));
        harness.hover_at(from);
        button(harness, from, true, m);
        harness.run();
        for f in [0.25, 0.5, 0.75, 1.0] {
            harness.hover_at(from + (to - from) * f);
            harness.run();
        }
        button(harness, to, false, m);
        harness.run();
        harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
        harness.run();
    };
    // From empty space before key 1 of the first row to past it in the second: key 1 of both
    // rows, every component.
    drag(
        &mut harness,
        egui::pos2(x(0.5), row0 - 4.0),
        egui::pos2(x(1.5), row1 + 4.0),
        Modifiers::NONE,
    );
    assert_eq!(keys(&harness), [(0, 1), (1, 1)].into());
    assert_eq!(harness.state().selection.keys.len(), 3 + 4);
    assert_eq!(harness.state().transport.time, 0.0, "no seek, no edit");
    assert!(harness.state().ws.history.undo_label().is_none());
    // Shift adds the last key of the first row; a plain box replaces the selection.
    drag(
        &mut harness,
        egui::pos2(x(1.75), row0 - 4.0),
        egui::pos2(x(2.0) + 3.0, row0 + 4.0),
        Modifiers::SHIFT,
    );
    assert_eq!(keys(&harness), [(0, 1), (0, 2), (1, 1)].into());
    drag(
        &mut harness,
        egui::pos2(x(0.5), row1 + 4.0),
        egui::pos2(x(0.0) - 3.0, row1 - 4.0),
        Modifiers::NONE,
    );
    assert_eq!(keys(&harness), [(1, 0)].into());
}
