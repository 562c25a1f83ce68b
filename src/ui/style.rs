//! The look: dark theme, one accent colour, and the track colours by property.

use egui::Color32;

use clipscope_core::model::Track;

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

/// The colour of one value component of a track: the property colour of [`track_colour`] for
/// scalar tracks; for vectors and quaternions x lighter, y the property colour, z darker and w
/// darker still, so the components of one property read as one family.
pub fn component_colour(track: &Track, component: usize) -> Color32 {
    let base = track_colour(track);
    if track.value_size() <= 1 {
        return base;
    }
    let mix = |c: u8, toward: u8, t: f32| (c as f32 + (toward as f32 - c as f32) * t).round() as u8;
    let shade = |toward: u8, t: f32| {
        Color32::from_rgb(
            mix(base.r(), toward, t),
            mix(base.g(), toward, t),
            mix(base.b(), toward, t),
        )
    };
    match component {
        0 => shade(255, 0.45),
        1 => base,
        2 => shade(0, 0.3),
        _ => shade(0, 0.5),
    }
}
