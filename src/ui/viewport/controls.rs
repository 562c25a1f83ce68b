//! The viewport's pointer and key controls: drag to orbit, middle-drag (or Shift+drag) to pan,
//! wheel to zoom, double-click or F to frame the figure, Shift+F to frame its whole motion; the
//! bone under the pointer is picked (a model's bones even while hidden inside its mesh), and a
//! click on it asks for its tracks.

use clipscope_scene::Player;

use super::Viewport;
use crate::ui::outbox::{AppCommand, Outbox};

/// Radians of orbit per point of pointer drag.
const ORBIT_PER_POINT: f32 = 0.008;

/// Orbit, pan, zoom and framing from the pointer and keys.
pub(super) fn navigate(ui: &egui::Ui, response: &egui::Response, vp: &mut Viewport) {
    let height = response.rect.height().max(1.0);
    let shift = ui.input(|i| i.modifiers.shift);
    if response.dragged_by(egui::PointerButton::Middle)
        || (shift && response.dragged_by(egui::PointerButton::Primary))
    {
        let d = response.drag_delta();
        vp.camera.pan(d.x / height, d.y / height);
    } else if response.dragged_by(egui::PointerButton::Primary) {
        let d = response.drag_delta();
        if vp.camera.orthographic {
            // The flat view stays front-on: a drag moves the picture.
            vp.camera.pan(d.x / height, d.y / height);
        } else {
            vp.camera
                .orbit(d.x * ORBIT_PER_POINT, d.y * ORBIT_PER_POINT);
        }
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            vp.camera.zoom((-scroll * 0.002).exp());
        }
        // Shift+F first: a plain F shortcut would take it too.
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::SHIFT, egui::Key::F)) {
            vp.frame_all_next = true;
        }
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F)) {
            vp.frame_next = true;
        }
    }
    if response.double_clicked() {
        vp.frame_next = true;
    }
}

/// The bone under the pointer (kept in [`Viewport::hovered`]); a click shows its tracks.
pub(super) fn hover_and_click(response: &egui::Response, vp: &mut Viewport, outbox: &mut Outbox) {
    vp.hovered = None;
    let (Some(pos), Some(rig)) = (response.hover_pos(), vp.player().and_then(Player::rig)) else {
        return;
    };
    let rect = response.rect;
    let ndc = glam::Vec2::new(
        (pos.x - rect.left()) / rect.width().max(1.0) * 2.0 - 1.0,
        1.0 - (pos.y - rect.top()) / rect.height().max(1.0) * 2.0,
    );
    let aspect = rect.width() / rect.height().max(1.0);
    let hit = clipscope_render::pick(&vp.frame.boxes, &vp.camera, aspect, ndc)
        .and_then(|i| rig.part_of_box(i))
        .map(|p| rig.parts[p].name.clone());
    if let Some(name) = &hit
        && response.clicked()
    {
        outbox.push(AppCommand::SelectNode(name.clone()));
    }
    vp.hovered = hit;
}
