//! The look: dark theme, one accent colour, and the track colours by property.

use egui::Color32;

use crate::model::Track;

/// The accent used for selection and the playhead.
pub const ACCENT: Color32 = Color32::from_rgb(255, 166, 77);

/// Sets the dark theme with the accent colour for selections.
pub fn apply(ctx: &egui::Context) {
    apply_theme(ctx, true);
}

/// Sets the dark or the light theme, both with the accent colour for selections.
pub fn apply_theme(ctx: &egui::Context, dark: bool) {
    ctx.set_theme(if dark {
        egui::Theme::Dark
    } else {
        egui::Theme::Light
    });
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

/// A shade of a track colour for component `c` (x lighter, y as is, z darker, w darkest).
pub fn component_colour_from(colour: Color32, c: usize) -> Color32 {
    let f = [1.25, 1.0, 0.78, 0.6][c % 4];
    let ch = |v: u8| ((v as f32) * f).min(255.0) as u8;
    Color32::from_rgb(ch(colour.r()), ch(colour.g()), ch(colour.b()))
}
