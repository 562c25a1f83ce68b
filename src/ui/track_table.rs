//! The track overview of the selected clip: name, type, interpolation, keys and value size.

use crate::model::Clip;

use super::style::track_colour;

/// Shows the clip header and one row per track.
pub fn show(ui: &mut egui::Ui, clip: &Clip) {
    ui.heading(if clip.name.is_empty() {
        "(unnamed clip)"
    } else {
        &clip.name
    });
    ui.label(format!(
        "{:.3} s · {} blending · {} tracks · {} keys",
        clip.duration,
        clip.blend_mode.name(),
        clip.tracks.len(),
        clip.key_count()
    ));
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::Grid::new("tracks")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                for header in ["TRACK", "TYPE", "INTERPOLATION", "KEYS", "SIZE"] {
                    ui.label(egui::RichText::new(header).small().strong());
                }
                ui.end_row();
                for track in &clip.tracks {
                    ui.colored_label(track_colour(track), &track.name);
                    ui.label(track.kind.type_name());
                    ui.label(track.interpolation.name());
                    ui.label(track.len().to_string());
                    ui.label(track.value_size().to_string());
                    ui.end_row();
                }
            });
    });
}
