//! The rename dialog's fields: find (a regular expression) and replace, in this clip or every
//! open clip, with a live preview of the new names and how many tracks then bind to the figure
//! in the viewport.

use std::sync::Arc;

use clipscope_core::model::Clip;
use clipscope_core::model::ops::{Rename, preview_renames};
use clipscope_scene::{Figure, Player};

use super::DialogView;

/// How many renamed tracks the preview lists.
const PREVIEW_ROWS: usize = 12;

/// The tracks of `clip` that bind to `figure` (what the viewport would animate).
pub fn bound_tracks(clip: &Clip, figure: &Figure) -> usize {
    let player = Player::on(Arc::new(clip.clone()), figure.clone());
    clip.tracks.len() - player.unbound_tracks().len().min(clip.tracks.len())
}

/// The rename dialog's fields and its live preview.
pub(super) fn rename_fields(
    ui: &mut egui::Ui,
    pattern: &mut String,
    replacement: &mut String,
    all_clips: &mut bool,
    view: &DialogView,
) {
    let field = |ui: &mut egui::Ui, label: &str, text: &mut String, hint: &str| {
        ui.horizontal(|ui| {
            let l = ui.add_sized([110.0, 20.0], egui::Label::new(label));
            let edit = egui::TextEdit::singleline(text)
                .hint_text(hint)
                .font(egui::TextStyle::Monospace);
            ui.add_sized([360.0, 20.0], edit).labelled_by(l.id)
        })
        .inner
    };
    let find = field(ui, "Find (regex)", pattern, "^mixamorig:");
    let replace = field(ui, "Replace with", replacement, "$1 for a group");
    // Typing goes to Find when the dialog opens.
    if pattern.is_empty() && !find.has_focus() && !replace.has_focus() {
        find.request_focus();
    }
    ui.checkbox(all_clips, "In every open clip");
    let re = match regex::Regex::new(pattern) {
        Ok(re) => re,
        Err(e) => {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or_default().trim().to_string();
            ui.colored_label(ui.visuals().error_fg_color, reason);
            return;
        }
    };
    let renames: Vec<Rename> = preview_renames(view.clip, &re, replacement);
    ui.label(format!(
        "{} of {} tracks of this clip change:",
        renames.len(),
        view.clip.tracks.len()
    ));
    egui::ScrollArea::vertical()
        .max_height(200.0)
        .show(ui, |ui| {
            for r in renames.iter().take(PREVIEW_ROWS) {
                ui.monospace(format!("{}  →  {}", r.from, r.to));
            }
            if renames.len() > PREVIEW_ROWS {
                ui.weak(format!("… and {} more", renames.len() - PREVIEW_ROWS));
            }
        });
    if let Some(figure) = view.figure {
        let id = egui::Id::unique("rename binding count").with((
            view.clip.uuid.as_deref(),
            pattern.as_str(),
            replacement.as_str(),
        ));
        let counts = ui.data(|d| d.get_temp::<(usize, usize)>(id));
        let (before, after) = counts.unwrap_or_else(|| {
            let mut renamed = view.clip.clone();
            for r in &renames {
                renamed.tracks[r.track].name = r.to.clone();
            }
            let c = (
                bound_tracks(view.clip, figure),
                bound_tracks(&renamed, figure),
            );
            ui.data_mut(|d| d.insert_temp(id, c));
            c
        });
        ui.label(format!(
            "Bound to {}: {before} of {} tracks now, {after} after",
            figure.name(),
            view.clip.tracks.len()
        ));
    }
}
