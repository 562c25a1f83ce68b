//! A skinned model in the editor's viewport, driven through egui_kittest: a glTF with a skinned
//! mesh plays on its model (not its bones), the palettes follow the playhead, the "Bones" toggle
//! draws the skeleton over it, a bone hidden inside the mesh is still hovered, named and clicked
//! for its tracks, and a walking take opens framed on the figure and followed.
//!
//! kittest runs without the wgpu paint callback, so these check what the viewport hands the
//! renderer (the render and three.js tests check the pictures).
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::character::{self, Spec};
use crate::common::gui::editor;
use clipscope::ui::ClipscopeApp;
use clipscope_scene::Figure;

/// Writes the generated character `spec` as `name.gltf` into `dir`.
fn write(dir: &Path, name: &str, spec: &Spec) -> PathBuf {
    let file = dir.join(format!("{name}.gltf"));
    std::fs::write(&file, character::gltf(spec)).unwrap();
    file
}

/// Whether the shown clip plays on a model, and its palette matrices.
fn model_joints(h: &Harness<'_, ClipscopeApp>) -> Option<Vec<glam::Mat4>> {
    let vp = &h.state().viewport;
    match vp.player()?.figure() {
        Figure::Model(_) => Some(vp.frame.joints.clone()),
        _ => None,
    }
}

#[test]
fn a_skinned_gltf_plays_on_its_mesh_and_the_bones_show_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "walker", &Spec::default());
    let mut harness = editor(&[file]);
    harness.run();
    let rest = model_joints(&harness).expect("the clip plays on the file's model");
    assert!(!rest.is_empty());
    assert_eq!(
        harness.get_by_label("Plays on").value().as_deref(),
        Some("Auto (walker.gltf)")
    );
    // The palettes follow the playhead.
    harness.state_mut().transport.time = 0.7;
    harness.run();
    assert_ne!(model_joints(&harness).unwrap(), rest);
    // The bones are off by default, and the toggle turns them on and off.
    assert!(!harness.state().viewport.show_bones);
    harness.get_by_label("Bones").click();
    harness.run();
    assert!(harness.state().viewport.show_bones);
    harness.get_by_label("Bones").click();
    harness.run();
    assert!(!harness.state().viewport.show_bones);
    // The skeleton alone is still a choice.
    let picker_items = {
        harness.get_by_label("Plays on").click();
        harness.run();
        harness.query_by_label("Skeleton (from the file)").is_some()
            && harness
                .query_by_label("Model (the file's meshes)")
                .is_some()
    };
    assert!(picker_items, "the picker offers the model and its skeleton");
}

#[test]
fn a_bone_inside_the_mesh_is_hovered_and_clicked_for_its_tracks() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "walker", &Spec::default());
    let mut harness = editor(&[file]);
    harness.run();
    assert!(!harness.state().viewport.show_bones, "bones hidden");
    let player = harness.state().viewport.player().unwrap();
    let rig = player.rig().expect("the model's skeleton").clone();
    let bone = rig.part_index("limb1_6").expect("a bone of the first arm");
    let shown = crate::common::gui::click_bone(&mut harness, bone, "limb1_6");
    assert!(
        !shown.is_empty() && shown.iter().all(|t| t.starts_with("limb1_6.")),
        "{shown:?}"
    );
}

#[test]
fn a_walking_model_opens_framed_on_itself_and_followed() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec {
        travel: 30.0,
        seconds: 4.0,
        ..Spec::default()
    };
    let file = write(dir.path(), "long_walk", &spec);
    let mut harness = editor(&[file]);
    harness.run();
    let vp = &harness.state().viewport;
    assert!(model_joints(&harness).is_some());
    assert!(vp.travelling && vp.follow, "a travelling take is followed");
    // Framed on the figure (a few units across), not on the 30 units walked.
    assert!(vp.camera.distance < 18.0, "{}", vp.camera.distance);
    assert!(vp.camera.target.z.abs() < 2.0, "{:?}", vp.camera.target);
    // Later in the take the camera is still on the figure.
    harness.state_mut().transport.time = 3.0;
    harness.run();
    harness.run();
    let z = harness.state().viewport.camera.target.z;
    assert!((19.0..26.0).contains(&z), "followed to z = {z}");
}

/// Whether every corner of the drawn model's bounds shows inside the viewport, below the
/// overlay card.
fn model_in_view(h: &Harness<'_, ClipscopeApp>) -> bool {
    let vp = &h.state().viewport;
    let figure = vp.player().unwrap().figure();
    let b = clipscope_render::Frame::of(figure, &vp.frame)
        .bounds()
        .unwrap();
    (0..8).all(|c| {
        let p = glam::Vec3::new(
            if c & 1 == 0 { b.min.x } else { b.max.x },
            if c & 2 == 0 { b.min.y } else { b.max.y },
            if c & 4 == 0 { b.min.z } else { b.max.z },
        );
        vp.screen_pos(p)
            .is_some_and(|s| vp.clear_rect().contains(s))
    })
}

#[test]
fn the_legacy_skinned_model_opens_whole_and_clear_of_the_overlay_card() {
    let Some(file) = crate::test_support::sample_data("threejs/simple-skinned.json") else {
        return;
    };
    // The window the app opens with: a short viewport over the curve editor, where the card
    // covers a third of the picture's height.
    let mut harness = crate::common::gui::editor_sized(&[file], egui::vec2(1280.0, 800.0));
    harness.run();
    harness.run();
    let vp = &harness.state().viewport;
    let cover = vp.rect().height() - vp.clear_rect().height();
    assert!(cover > 40.0, "the card covers the top: {cover}");
    for t in [0.0, 0.2, 0.4] {
        harness.state_mut().transport.time = t;
        harness.run();
        assert!(model_in_view(&harness), "at {t} s");
    }
}

#[test]
fn a_framed_model_stays_whole_when_the_viewport_changes_shape() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "walker", &Spec::default());
    let mut harness = crate::common::gui::editor_sized(&[file], egui::vec2(1800.0, 520.0));
    harness.run();
    assert!(model_in_view(&harness));
    // A much narrower window (the viewport too): framed again, still whole.
    harness.set_size(egui::vec2(700.0, 1000.0));
    harness.run();
    harness.run();
    assert!(
        model_in_view(&harness),
        "{:?} {:?} {:?}",
        harness.state().viewport.camera,
        harness.state().viewport.rect(),
        harness.state().viewport.clear_rect()
    );
    // Once the camera is moved by hand, a new shape leaves it where it is.
    harness.state_mut().viewport.camera.distance *= 0.5;
    let moved = harness.state().viewport.camera;
    harness.set_size(egui::vec2(1280.0, 800.0));
    harness.run();
    harness.run();
    assert_eq!(harness.state().viewport.camera, moved);
}

#[test]
fn every_track_of_a_generated_character_binds_to_its_model() {
    let dir = tempfile::tempdir().unwrap();
    for (name, spec) in [
        ("walker", Spec::default()),
        (
            "morphs",
            Spec {
                morphs: true,
                extras: true,
                transformed: true,
                ..Spec::default()
            },
        ),
    ] {
        let file = write(dir.path(), name, &spec);
        let harness = editor(&[file]);
        let stage = &harness.state().viewport.stage;
        assert!(model_joints(&harness).is_some(), "{name}");
        assert!(stage.unbound.is_empty(), "{name}: {:?}", stage.unbound);
    }
    // The Khronos-like cylinder (a chain, an end bone, an animated morph target).
    let path = dir.path().join("cylinder.gltf");
    let cylinder = crate::skinned_character::Character::default();
    std::fs::write(&path, crate::skinned_character::gltf(&cylinder).to_string()).unwrap();
    let harness = editor(&[path]);
    let stage = &harness.state().viewport.stage;
    assert!(model_joints(&harness).is_some());
    assert!(stage.unbound.is_empty(), "{:?}", stage.unbound);
}
