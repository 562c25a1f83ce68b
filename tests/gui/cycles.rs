//! The Cycles panel inside the real editor, driven through egui_kittest: moving the amplitude
//! slider grows the stride the viewport previews, reset and randomize work, Bake adds an
//! undoable clip that the curve editor shows, and presets load (or are refused with a reason).
//!
//! kittest runs without the wgpu paint callback, so these check the posed frame the viewport
//! hands the renderer.
#![cfg(feature = "gui")]

use crate::common;

use clipscope::ui::ClipscopeApp;
use clipscope_scene::procedural::{BakeOptions, Cycle};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The editor on its demo, in a window tall enough for every slider.
fn editor() -> Harness<'static, ClipscopeApp> {
    common::gui::editor_sized(&[], egui::vec2(1400.0, 900.0))
}

/// Opens the Cycles tab and holds the preview at the start of the cycle.
fn open_cycles(harness: &mut Harness<'_, ClipscopeApp>) {
    // A playing preview repaints every frame; the tests hold it and move its clock.
    let state = harness.state_mut();
    state.cycles.playing = false;
    state.cycles.clock = 0.0;
    harness.get_by_label("Cycles").click();
    harness.run();
}

/// How far apart the previewed feet are along the run direction (world z), in metres.
fn foot_spread(harness: &Harness<'_, ClipscopeApp>) -> f32 {
    let boxes = &harness.state().viewport.frame.boxes;
    let rig = clipscope_scene::Rig::builtin("BlockHero").unwrap();
    assert_eq!(
        boxes.len(),
        rig.parts.len(),
        "one box per part of the block Hero"
    );
    let (r, l) = (
        rig.part_index("legR").unwrap(),
        rig.part_index("legL").unwrap(),
    );
    boxes[r].transform.w_axis.z - boxes[l].transform.w_axis.z
}

fn amp(harness: &Harness<'_, ClipscopeApp>) -> f64 {
    let cycles = &harness.state().cycles;
    cycles.values()[cycles.cycle().parameter("amp").unwrap()]
}

#[test]
fn moving_the_amplitude_slider_grows_the_previewed_stride() {
    let mut harness = editor();
    open_cycles(&mut harness);
    let cycles = &harness.state().cycles;
    assert_eq!(
        cycles.values(),
        cycles.cycle().defaults(),
        "showing a slider changes nothing"
    );
    let figure = harness
        .state()
        .viewport
        .player()
        .unwrap()
        .figure()
        .name()
        .to_string();
    assert_eq!(figure, "BlockHero", "the preview plays on the cycle's rig");
    assert!(
        harness
            .query_all_by_label_contains("Previewing Hero run")
            .next()
            .is_some()
    );
    // At t = 0 the right foot is amp ahead and the left amp behind: 2 × 4 units × 0.05 m.
    let before = foot_spread(&harness);
    assert!((before - 0.4).abs() < 1e-4, "{before}");

    harness
        .get_by_role_and_label(Role::Slider, "Amplitude")
        .set_value_accesskit(8.0);
    harness.run();
    harness.run();
    assert_eq!(amp(&harness), 8.0);
    let after = foot_spread(&harness);
    assert!(
        (after - 0.8).abs() < 1e-4,
        "the stride doubles live: {after}"
    );

    // Reset puts the default back, and the preview follows.
    harness.get_by_label("Reset Amplitude").click();
    harness.run();
    harness.run();
    assert_eq!(amp(&harness), 4.0);
    assert!((foot_spread(&harness) - 0.4).abs() < 1e-4);

    // Randomize draws new values within the ranges and keeps the speed.
    let speed_before = harness.state().cycles.values()[0];
    harness.get_by_label("Randomize").click();
    harness.run();
    let cycles = &harness.state().cycles;
    assert_ne!(cycles.values(), cycles.cycle().defaults().as_slice());
    assert_eq!(cycles.values()[0], speed_before);
    for (v, p) in cycles.values().iter().zip(&cycles.cycle().parameters) {
        assert!((p.min..=p.max).contains(v), "{} = {v}", p.name);
    }
}

#[test]
fn the_preview_moves_while_it_plays() {
    let mut harness = editor();
    open_cycles(&mut harness);
    let still = harness.state().viewport.frame.boxes.clone();
    harness.state_mut().cycles.clock = 0.2;
    harness.run();
    assert_ne!(harness.state().viewport.frame.boxes, still);
}

#[test]
fn bake_adds_an_undoable_clip_the_curve_editor_shows() {
    let mut harness = editor();
    open_cycles(&mut harness);
    harness
        .get_by_role_and_label(Role::Slider, "Amplitude")
        .set_value_accesskit(6.0);
    harness.run();
    harness.get_by_label("Bake to clip").click();
    harness.run();

    let app = harness.state();
    let (id, clip) = app.selected_clip().expect("the baked clip is selected");
    assert_eq!(clip.name, "Hero run");
    assert_eq!(app.ws.documents[id.doc].title(), "baked cycles");
    let cycle = Cycle::builtin("hero-run").unwrap();
    let mut values = cycle.defaults();
    values[cycle.parameter("amp").unwrap()] = 6.0;
    let expected = cycle.bake(&values, &BakeOptions::default()).unwrap().clip;
    assert_eq!(
        clip.tracks, expected.tracks,
        "30 fps, one cycle, the panel's values"
    );
    assert!(!app.selection.tracks.is_empty(), "its curves are shown");
    assert!(
        !app.cycles.preview_in_viewport,
        "the viewport shows the baked clip"
    );
    assert_eq!(
        app.viewport.player().unwrap().figure().name(),
        "BlockHero",
        "the baked clip picks its rig by its tracks"
    );
    assert!(app.ws.documents[id.doc].is_dirty());

    harness.state_mut().run(
        clipscope::ui::commands::UiCommand::Undo,
        &egui::Context::default(),
    );
    harness.run();
    let app = harness.state();
    assert!(
        app.ws
            .documents
            .iter()
            .all(|d| d.doc.clips.iter().all(|c| c.name != "Hero run"))
    );
}

#[test]
fn presets_load_and_bad_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("trot.json");
    std::fs::write(
        &good,
        r#"{"cycle": "dog-trot", "parameters": {"wag": 1.1, "speed": 2}}"#,
    )
    .unwrap();
    let mut harness = editor();
    open_cycles(&mut harness);
    harness.state_mut().load_preset(&good);
    harness.run();
    let app = harness.state();
    assert_eq!(
        app.cycles.cycle().id,
        "dog-trot",
        "a preset picks its cycle"
    );
    let trot = app.cycles.cycle();
    assert_eq!(app.cycles.values()[trot.parameter("wag").unwrap()], 1.1);
    assert_eq!(app.cycles.values()[trot.speed_index()], 2.0);
    assert_eq!(app.viewport.player().unwrap().figure().name(), "Dog");
    assert!(app.error.is_none());

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"cycle": "dog-trot", "parameters": {"wag": 9}}"#).unwrap();
    let before = harness.state().cycles.values().to_vec();
    harness.state_mut().load_preset(&bad);
    harness.run();
    let app = harness.state();
    let error = app.error.clone().expect("the bad preset is reported");
    assert!(
        error.contains("bad.json: parameters.wag: wag = 9 is outside"),
        "{error}"
    );
    assert_eq!(app.cycles.values(), before.as_slice(), "values are kept");
}

/// The whole path of the issue in the editor: bake a 30 fps run, export the baked file as a
/// three.js clip through Export As, and play that file in three.js r187 (node, when
/// tests/conformance has its packages).
#[test]
fn a_baked_run_exports_as_a_three_js_clip_that_three_js_plays() {
    use clipscope_core::formats::Format;

    let mut harness = editor();
    open_cycles(&mut harness);
    harness.get_by_label("Bake to clip").click();
    harness.run();
    let (id, _) = harness.state().selected_clip().unwrap();
    let doc_id = harness.state().ws.documents[id.doc].id;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.json");
    common::gui::export_through_prompt(&mut harness, doc_id, Format::ThreeJs, &out);
    let written = clipscope_core::formats::read_file(&out).unwrap();
    assert_eq!(written.format, Format::ThreeJs);
    assert_eq!(written.clips[0].name, "Hero run");
    assert!((written.clips[0].duration - 0.8).abs() < 1e-6);

    let Some(conformance) = common::node_package("three") else {
        return;
    };
    let played = std::process::Command::new("node")
        .arg(conformance.join("play_baked.mjs"))
        .arg(&out)
        .arg("0,0.2,0.4")
        .output()
        .expect("run node");
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let result: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    assert_eq!(result["valid"], true);
    // A quarter cycle in, the right foot has swung from amp ahead to straight down.
    let x = |k: usize| result["poses"][k]["legR"]["position"][0].as_f64().unwrap();
    assert!((x(0) - 4.0).abs() < 1e-5 && x(1).abs() < 1e-5 && (x(2) + 4.0).abs() < 1e-5);
}

#[test]
fn picking_a_clip_shows_it_instead_of_the_preview() {
    let mut harness = editor();
    open_cycles(&mut harness);
    assert_eq!(
        harness.state().viewport.player().unwrap().figure().name(),
        "BlockHero"
    );
    harness.get_by_label_contains("idle").click();
    harness.run();
    let app = harness.state();
    assert!(!app.cycles.preview_in_viewport);
    assert_eq!(app.viewport.player().unwrap().figure().name(), "Hero");
    // A slider brings the preview back.
    harness
        .get_by_role_and_label(Role::Slider, "Amplitude")
        .set_value_accesskit(5.0);
    harness.run();
    assert_eq!(
        harness.state().viewport.player().unwrap().figure().name(),
        "BlockHero"
    );
}
