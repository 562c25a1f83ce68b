//! The look: dark theme, one accent colour, and the track colours by property.

use egui::Color32;

use crate::model::Track;

/// The accent used for selection and the playhead.
pub const ACCENT: Color32 = Color32::from_rgb(255, 166, 77);

/// Sets the dark theme with the accent colour for selections.
pub fn apply(ctx: &egui::Context) {
    ctx.set_theme(egui::Theme::Dark);
    ctx.all_styles_mut(|style| {
        style.visuals.selection.bg_fill = ACCENT.gamma_multiply(0.45);
        style.visuals.selection.stroke.color = Color32::WHITE;
        style.spacing.item_spacing = egui::vec2(8.0, 5.0);
    });
}

/// The colour of a track by the property it animates: position green, rotation blue, scale
/// orange, morph influences purple, anything else grey.
pub fn track_colour(track: &Track) -> Color32 {
    let name = track.name.as_str();
    if name.ends_with("position") {
        Color32::from_rgb(110, 200, 120)
    } else if name.ends_with("quaternion") || name.ends_with("rotation") {
        Color32::from_rgb(100, 160, 240)
    } else if name.ends_with("scale") {
        Color32::from_rgb(240, 160, 80)
    } else if name.contains("morphTargetInfluences") {
        Color32::from_rgb(190, 130, 230)
    } else {
        Color32::from_gray(170)
    }
}
