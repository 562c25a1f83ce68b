//! The row above the plot: framing buttons, the Normalize and Euler view toggles, the
//! interpolation and handle menus, and a short status.

use std::collections::BTreeSet;

use egui::Ui;

use crate::ui::outbox::Outbox;
use clipscope_editor::KeyRef;

use super::menus::{self, ShownCurves};
use super::view::ViewRequest;

/// Tooltip of the Normalize toggle.
pub(super) const NORMALIZE_TIP: &str = "Scale each curve to −1…1 to compare shapes (display \
     only). Keys can be selected but not dragged while this is on.";
/// Tooltip of the Euler toggle.
pub(super) const EULER_TIP: &str = "Show quaternion tracks as Euler X/Y/Z angles in degrees \
     (XYZ order, like three.js). Those curves are read-only: their keys can be selected, \
     deleted and given another interpolation, but dragging them is off (turn Euler off to edit \
     the quaternion components).";

/// The toolbar's outcome.
pub(super) struct ToolbarOutput {
    /// A framing button was pressed.
    pub(super) request: Option<ViewRequest>,
    /// The Normalize or Euler toggle changed (the view should be framed again).
    pub(super) toggled: bool,
}

/// Draws the toolbar; flags are edited in place and menu choices queued in `out`.
pub(super) fn show(
    ui: &mut Ui,
    normalize: &mut bool,
    euler: &mut bool,
    snap: &mut bool,
    shown_curves: ShownCurves<'_>,
    selected: &BTreeSet<KeyRef>,
    out: &mut Outbox,
) -> ToolbarOutput {
    let mut bar = ToolbarOutput {
        request: None,
        toggled: false,
    };
    ui.horizontal(|ui| {
        if ui
            .button("Frame all")
            .on_hover_text("Show every curve (F; double-click the plot)")
            .clicked()
        {
            bar.request = Some(ViewRequest::FrameAll);
        }
        if ui
            .button("Frame selected")
            .on_hover_text("Show the selected keys (Shift+F)")
            .clicked()
        {
            bar.request = Some(ViewRequest::FrameSelected);
        }
        ui.separator();
        bar.toggled |= ui
            .toggle_value(normalize, "Normalize")
            .on_hover_text(NORMALIZE_TIP)
            .changed();
        bar.toggled |= ui
            .toggle_value(euler, "Euler")
            .on_hover_text(EULER_TIP)
            .changed();
        ui.toggle_value(snap, "Snap").on_hover_text(
            "Dragged keys land on whole frames, the playhead or other keys \
             (hold Ctrl while dragging for free time)",
        );
        ui.separator();
        ui.menu_button("Interpolation", |ui| {
            let targets = shown_curves.targets(selected);
            menus::interpolation_items(ui, shown_curves.clip, shown_curves.clip_id, &targets, out)
        })
        .response
        .on_hover_text("T over the plot");
        ui.add_enabled_ui(!*normalize, |ui| {
            ui.menu_button("Handles", |ui| {
                let targets = shown_curves.targets(selected);
                menus::tangent_items(ui, shown_curves.clip_id, &targets, out)
            })
            .response
            .on_hover_text("V over the plot");
        });
        if !selected.is_empty() {
            let n = selected.len();
            let text = format!(
                "{} key{} selected",
                clipscope_core::text::thousands(n),
                if n == 1 { "" } else { "s" }
            );
            // Only where it fits: an overflowing row would widen the panel and move the plot
            // under a drag that just selected a key.
            let width = ui
                .painter()
                .layout_no_wrap(
                    text.clone(),
                    egui::TextStyle::Body.resolve(ui.style()),
                    egui::Color32::WHITE,
                )
                .size()
                .x;
            if ui.available_width() >= width + 2.0 * ui.spacing().item_spacing.x + 8.0 {
                ui.separator();
                ui.weak(text);
            }
        }
    });
    bar
}
