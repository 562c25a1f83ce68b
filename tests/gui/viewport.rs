//! The 3D viewport inside the real editor, driven through egui_kittest: the demo walk plays on
//! the Hero and follows the transport's time, the figure picker switches rigs, and a second
//! clip blends in (cross-fade or additive) from the viewport's controls.
//!
//! kittest runs without the wgpu paint callback, so these check the posed frame the viewport
//! hands the renderer (the render tests check the pictures).
#![cfg(feature = "gui")]

use crate::common;

use common::gui::editor;
use std::path::{Path, PathBuf};

use crate::test_support::{sample_data, sample_data_root};
use clipscope::ui::ClipscopeApp;
use clipscope_scene::LayerMode;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// Picks `item` from the combo box labelled `label`.
fn pick(harness: &mut Harness<'_, ClipscopeApp>, label: &str, item: &str) {
    harness.get_by_label(label).click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

/// Where the figure the shown clip plays on comes from (`"names"`, `"file"`, …).
fn report_source(harness: &Harness<'_, ClipscopeApp>) -> &'static str {
    harness
        .state()
        .viewport
        .stage
        .report
        .as_ref()
        .unwrap()
        .source
}

fn figure_name(harness: &Harness<'_, ClipscopeApp>) -> String {
    harness
        .state()
        .viewport
        .player()
        .map(|p| p.figure().name().to_string())
        .unwrap_or_default()
}

#[test]
fn the_demo_walks_on_the_hero_and_follows_the_playhead() {
    let mut harness = editor(&[]);
    assert_eq!(figure_name(&harness), "Hero");
    let picker = harness.get_by_label("Plays on");
    assert_eq!(picker.value().as_deref(), Some("Auto (Hero)"));
    let boxes = |h: &mut Harness<'_, ClipscopeApp>, t: f64| {
        h.state_mut().transport.time = t;
        h.run();
        h.state().viewport.frame.boxes.clone()
    };
    let a = boxes(&mut harness, 0.25);
    let b = boxes(&mut harness, 0.75);
    assert_eq!(a.len(), 17, "one box per part of the Hero");
    assert_ne!(a, b, "the character moves with the playhead");
    assert_eq!(boxes(&mut harness, 0.25), a);
    assert!(harness.state().viewport.stage.unbound.is_empty());
}

#[test]
fn the_picker_puts_the_clip_on_another_rig() {
    let mut harness = editor(&[]);
    pick(&mut harness, "Plays on", "Dog");
    assert_eq!(figure_name(&harness), "Dog");
    // Most of the Hero's bones are not the Dog's: they are listed, not dropped silently.
    assert!(!harness.state().viewport.stage.unbound.is_empty());
    assert!(
        harness
            .query_all_by_label_contains("bind to nothing on Dog")
            .next()
            .is_some()
    );
    pick(&mut harness, "Plays on", "Auto (best match)");
    assert_eq!(figure_name(&harness), "Hero");
}

/// Two clips moving the same box: one rises, one slides.
const CLIPS: &str = r#"[
 {"name":"rise","duration":1,"tracks":[
  {"name":"crate.position","type":"vector","times":[0,1],"values":[0,0,0, 0,2,0]}]},
 {"name":"slide","duration":1,"tracks":[
  {"name":"crate.position","type":"vector","times":[0,1],"values":[0,0,0, 4,0,0]}]}
]"#;

fn clip_file(dir: &Path) -> PathBuf {
    let path = dir.join("crate.json");
    std::fs::write(&path, CLIPS).unwrap();
    path
}

/// The crate's box centre at the end of the clip.
fn crate_at_end(harness: &mut Harness<'_, ClipscopeApp>) -> glam::Vec3 {
    harness.state_mut().transport.time = 1.0;
    harness.run();
    let frame = &harness.state().viewport.frame;
    assert_eq!(frame.boxes.len(), 1);
    frame.boxes[0].transform.w_axis.truncate()
}

#[test]
fn a_second_clip_cross_fades_or_adds_on_top() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    harness.get_by_label_contains("rise").click();
    harness.run();
    let alone = crate_at_end(&mut harness);

    pick(&mut harness, "Blend with", "slide");
    let layer = harness.state().viewport.player().unwrap().layer().cloned();
    let layer = layer.expect("the second clip is blended in");
    assert_eq!(layer.clip.name, "slide");
    assert_eq!(layer.mode, LayerMode::CrossFade);
    assert_eq!(layer.weight, 0.5);
    // Half of each: up 1 and across 2 from where the rise alone ends.
    let half = crate_at_end(&mut harness);
    assert!((half - alone - glam::Vec3::new(2.0, -1.0, 0.0)).length() < 1e-4);

    harness.get_by_label("Additive").click();
    harness.run();
    let layer = harness.state().viewport.player().unwrap().layer().cloned();
    assert_eq!(layer.unwrap().mode, LayerMode::Additive);
    // All of the rise plus half of the slide's motion.
    let added = crate_at_end(&mut harness);
    assert!((added - alone - glam::Vec3::new(2.0, 0.0, 0.0)).length() < 1e-4);

    harness.state_mut().viewport.stage.blend.weight = 1.0;
    let full = crate_at_end(&mut harness);
    assert!((full - alone - glam::Vec3::new(4.0, 0.0, 0.0)).length() < 1e-4);

    pick(&mut harness, "Blend with", "(nothing)");
    assert!(harness.state().viewport.player().unwrap().layer().is_none());
    assert_eq!(crate_at_end(&mut harness), alone);
}

/// A file of the sample data (see `test_support::sample_data`).
fn shared(path: &str) -> PathBuf {
    sample_data_root().join(path)
}

#[test]
fn the_horse_gallops_on_its_morph_mesh() {
    if sample_data("threejs").is_none() {
        return;
    }
    // The file's one clip is selected when it opens.
    let mut harness = editor(&[shared("threejs/horse.json")]);
    let picker = harness.get_by_label("Plays on");
    assert_eq!(picker.value().as_deref(), Some("Auto (horse)"));
    // The inspector says what the file is and holds.
    harness.get_by_label("legacy three.js JSON (model format 3)");
    harness.get_by_label_contains("morph mesh: 494 vertices");
    let weights = |h: &mut Harness<'_, ClipscopeApp>, t: f64| {
        h.state_mut().transport.time = t;
        h.run();
        h.state().viewport.frame.weights.clone()
    };
    // Frame i of the gallop is target i at full weight (10 fps).
    let at = weights(&mut harness, 0.3);
    assert_eq!(at.len(), 16);
    assert!((at[3] - 1.0).abs() < 1e-5, "{at:?}");
    let between = weights(&mut harness, 0.35);
    assert!((between[3] - 0.5).abs() < 1e-4 && (between[4] - 0.5).abs() < 1e-4);
    assert!(harness.state().viewport.frame.boxes.is_empty());
    assert!(harness.state().viewport.stage.unbound.is_empty());
    // The morph clip on a cube rig binds nothing: every track is listed.
    pick(&mut harness, "Plays on", "Hero");
    assert_eq!(harness.state().viewport.stage.unbound.len(), 16);
}

#[test]
fn a_skinned_clip_plays_on_its_own_skeleton_drawn_as_bones() {
    if sample_data("threejs").is_none() {
        return;
    }
    let mut harness = editor(&[shared("threejs/simple-skinned.json")]);
    harness.run();
    let player = harness.state().viewport.player().expect("a clip is shown");
    let rig = player.rig().expect("the file's skeleton");
    let names: Vec<&str> = rig.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["leg.R", "leg.L"]);
    // Both bones are roots in the file's `bones`, and so in the figure.
    assert!(rig.parts.iter().all(|p| p.parent.is_none()));
    let report = harness.state().viewport.stage.report.clone().unwrap();
    assert_eq!(report.source, "file");
    assert_eq!(report.file.as_deref(), Some("simple-skinned.json"));
    assert!(harness.state().viewport.stage.unbound.is_empty());
    let boxes = |h: &mut Harness<'_, ClipscopeApp>, t: f64| {
        h.state_mut().transport.time = t;
        h.run();
        h.state().viewport.frame.boxes.clone()
    };
    let at_rest = boxes(&mut harness, 0.0);
    assert_eq!(at_rest.len(), 4, "two bones and their joints");
    assert_ne!(at_rest, boxes(&mut harness, 0.2));
}

#[test]
fn plays_on_lists_the_skeletons_of_open_documents_and_remembers_the_choice_per_clip() {
    if sample_data("gltf").is_none() || sample_data("playcanvas").is_none() {
        return;
    }
    let mut harness = editor(&[
        shared("playcanvas/playbot-run.json"),
        shared("gltf/SimpleSkin.gltf"),
    ]);
    harness.run();
    // The Playbot run plays on a humanoid built from its names.
    let select = |h: &mut Harness<'_, ClipscopeApp>, doc: usize| {
        let id = clipscope_editor::ClipId { doc, clip: 0 };
        let clip = h.state().ws.clip(id).unwrap().clone();
        h.state_mut().selection.select_clip(id, &clip);
        h.run();
        h.run();
    };
    select(&mut harness, 0);
    assert_eq!(figure_name(&harness), "Humanoid");
    assert_eq!(report_source(&harness), "names");
    // The picker offers the glTF's skeleton; the run binds little of it.
    pick(&mut harness, "Plays on", "SimpleSkin.gltf (skeleton)");
    assert_eq!(figure_name(&harness), "SimpleSkin.gltf");
    assert_eq!(report_source(&harness), "file");
    // The glTF's own clip plays on its own skeleton automatically ...
    select(&mut harness, 1);
    assert_eq!(figure_name(&harness), "SimpleSkin.gltf");
    assert_eq!(harness.state().viewport.stage.rig_choice, None);
    // ... and the run remembers its choice.
    select(&mut harness, 0);
    assert_eq!(
        harness.state().viewport.stage.rig_choice.as_deref(),
        Some("SimpleSkin.gltf")
    );
    assert_eq!(figure_name(&harness), "SimpleSkin.gltf");
}

#[test]
fn a_model_file_picked_from_disk_becomes_a_figure() {
    let Some(gltf) = sample_data("gltf/SimpleSkin.gltf") else {
        return;
    };
    let mut harness = editor(&[]);
    assert_eq!(figure_name(&harness), "Hero");
    // "Model…" asks for a file; the typed-path prompt stands in for the dialog here.
    harness.state_mut().files.prompt_for(
        clipscope::ui::outbox::FileTarget::Figure,
        None,
        "no dialog in tests".into(),
    );
    harness.run();
    harness
        .get_by_label("Path")
        .type_text(gltf.to_str().unwrap());
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    harness.run();
    assert_eq!(figure_name(&harness), "SimpleSkin.gltf");
    assert_eq!(
        harness.state().viewport.stage.rig_choice.as_deref(),
        Some("SimpleSkin.gltf")
    );
    let err = harness
        .state_mut()
        .viewport
        .stage
        .figures
        .add_file(Path::new("/no/such/model.glb"))
        .unwrap_err();
    assert!(err.starts_with("/no/such/model.glb: "), "{err}");
}

#[test]
fn morph_clips_use_the_chosen_frame_rate() {
    if sample_data("threejs").is_none() {
        return;
    }
    let mut app = ClipscopeApp::open_with(
        &[shared("threejs/horse.json")],
        clipscope_core::formats::ReadOptions {
            morph_fps: 20.0,
            ..Default::default()
        },
    );
    app.wait_for_loads();
    let clip = &app.ws.documents[0].doc.clips[0];
    assert!((clip.duration - 0.8).abs() < 1e-6, "{}", clip.duration);
}

#[test]
fn clicking_a_bone_shows_its_tracks_and_shown_tracks_light_up_their_bones() {
    let mut harness = editor(&[]);
    let rig = harness
        .state()
        .viewport
        .player()
        .unwrap()
        .rig()
        .unwrap()
        .clone();
    let head = rig.part_index("head").unwrap();
    let colour =
        |h: &Harness<'_, ClipscopeApp>, part: usize| h.state().viewport.frame.boxes[part].colour;
    // The demo shows its first tracks (hips, torso, head): their boxes lean to the highlight.
    let lit = colour(&harness, head);
    assert_ne!(lit, rig.parts[head].colour);
    // Hover the head, then click it: the tracks shown become the head's.
    let shown = common::gui::click_bone(&mut harness, head, "head");
    assert_eq!(shown, [".bones[head].quaternion"]);
    // Now only the head is lit; the hips are back to their own colour.
    let hips = rig.part_index("hips").unwrap();
    assert_eq!(colour(&harness, hips), rig.parts[hips].colour);
    assert_ne!(colour(&harness, head), rig.parts[head].colour);
}

#[test]
fn dragging_a_key_follows_the_edited_track_without_making_a_new_player() {
    let mut harness = editor(&[]);
    harness.state_mut().transport.time = 0.25;
    harness.run();
    let before = harness.state().viewport.frame.boxes.clone();
    let made = harness.state().viewport.stage.players_made;
    let clip = clipscope_editor::ClipId { doc: 0, clip: 0 };
    let walk = harness.state().ws.clip(clip).unwrap().clone();
    let torso = walk
        .tracks
        .iter()
        .position(|t| t.name == ".bones[torso].quaternion")
        .unwrap();
    for k in 0..walk.tracks[torso].len() {
        harness
            .state_mut()
            .ws
            .apply(clipscope_editor::Edit::MoveKeys {
                clip,
                keys: vec![clipscope_editor::KeyRef {
                    track: torso,
                    key: k,
                    component: 0,
                }],
                dt: 0.0,
                dv: 0.3,
                gesture: Some(11),
            })
            .unwrap();
    }
    harness.run();
    let after = harness.state().viewport.frame.boxes.clone();
    assert_ne!(before, after, "the torso turned");
    assert_eq!(
        harness.state().viewport.stage.players_made,
        made,
        "the same player followed the edit"
    );
    // Undo brings the pose back, again without a new player.
    harness.state_mut().ws.undo();
    harness.run();
    assert_eq!(harness.state().viewport.frame.boxes, before);
    assert_eq!(harness.state().viewport.stage.players_made, made);
}

/// A clip carrying the Hero 12 units along x in one second.
const TRAVEL: &str = r#"{"name": "travel", "duration": 1, "tracks": [
  {"name": ".bones[hips].position", "type": "vector", "times": [0, 1], "values": [0, 0.95, 0, 12, 0.95, 0]},
  {"name": ".bones[head].quaternion", "type": "quaternion", "times": [0], "values": [0, 0, 0, 1]}]}"#;

#[test]
fn a_travelling_take_opens_on_the_figure_follows_it_and_frame_all_shows_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("travel.json");
    std::fs::write(&path, TRAVEL).unwrap();
    let mut harness = editor(&[path]);
    harness.run();
    assert_eq!(figure_name(&harness), "Hero");
    // The path (12 units) is several times the figure: framed on the figure where it stands,
    // not on the whole way (which would leave it a speck), and following it.
    let vp = &harness.state().viewport;
    assert!(vp.travelling, "the take travels");
    assert!(vp.follow, "following is on for a travelling take");
    let camera = vp.camera;
    assert!(camera.target.x.abs() < 1.0, "{:?}", camera.target);
    assert!(
        camera.distance < 8.0,
        "close to the figure: {}",
        camera.distance
    );
    // The feet are in view.
    let feet = vp.screen_pos(glam::Vec3::new(0.0, 0.0, 0.0)).unwrap();
    assert!(vp.rect().contains(feet));
    // Follow: the target moves with the figure.
    harness.state_mut().transport.time = 1.0;
    harness.run();
    harness.run();
    let x = harness.state().viewport.camera.target.x;
    assert!(x > 10.0, "the camera followed the figure to {x}");
    // F frames the figure at the playhead.
    harness.state_mut().viewport.follow = false;
    harness.state_mut().viewport.frame();
    harness.run();
    let camera = harness.state().viewport.camera;
    assert!(
        (11.0..13.0).contains(&camera.target.x),
        "{:?}",
        camera.target
    );
    assert!(camera.distance < 8.0, "{}", camera.distance);
    // Frame all shows the whole way (and stops following): the target sits halfway along.
    harness.state_mut().viewport.follow = true;
    // The viewport's button, not the curve editor's of the same name.
    let viewport = harness.state().viewport.rect();
    harness
        .get_all_by_label("Frame all")
        .find(|b| viewport.contains_rect(b.rect()))
        .expect("the viewport has a Frame all button")
        .click();
    harness.run();
    let vp = &harness.state().viewport;
    assert!(!vp.follow, "Frame all stops following");
    assert!(
        (5.0..7.0).contains(&vp.camera.target.x),
        "{:?}",
        vp.camera.target
    );
    assert!(vp.camera.distance > 8.0, "{}", vp.camera.distance);
}

#[test]
fn a_take_in_place_is_framed_whole_and_not_followed() {
    let mut harness = editor(&[]);
    harness.run();
    let vp = &harness.state().viewport;
    assert!(!vp.travelling);
    assert!(!vp.follow);
}

#[test]
fn a_lottie_composition_shows_its_art_and_an_edit_redraws_it() {
    if sample_data("lottie").is_none() {
        return;
    }
    let mut harness = editor(&[shared("lottie/dalek.json")]);
    harness.state_mut().transport.time = 3.0;
    harness.run();
    let drawn = harness.state().viewport.art_drawn();
    assert!(drawn.is_some(), "the art is drawn over the card");
    let picture =
        |h: &Harness<'_, ClipscopeApp>| match h.state().viewport.player().map(|p| p.figure()) {
            Some(clipscope_scene::Figure::Layers(l)) => l.picture(3.0).expect("a picture"),
            _ => panic!("the composition plays on its layers"),
        };
    let before = picture(&harness);
    // Drag every key of the black square (`cuadrado`) 40 px to the right.
    let clip = clipscope_editor::ClipId { doc: 0, clip: 0 };
    let track = harness
        .state()
        .ws
        .clip(clip)
        .unwrap()
        .tracks
        .iter()
        .position(|t| t.name == "cuadrado.position")
        .unwrap();
    let keys = harness.state().ws.clip(clip).unwrap().tracks[track].len();
    let keys = (0..keys)
        .map(|key| clipscope_editor::KeyRef {
            track,
            key,
            component: 0,
        })
        .collect();
    harness
        .state_mut()
        .ws
        .apply(clipscope_editor::Edit::MoveKeys {
            clip,
            keys,
            dt: 0.0,
            dv: 40.0,
            gesture: Some(12),
        })
        .unwrap();
    harness.run();
    assert_ne!(picture(&harness), before, "the square moved in the art");
    assert_ne!(
        harness.state().viewport.art_drawn(),
        drawn,
        "the art was drawn again"
    );
}
