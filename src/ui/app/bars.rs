//! The bars along the window's edges: the menu bar on top and the status line at the bottom.

use crate::ui::menu::{self, MenuView};
use crate::ui::outbox::{AppCommand, Outbox};

use super::ClipscopeApp;

impl ClipscopeApp {
    /// The menu bar (File, Edit, Clip, View, Help and the Commands button).
    pub(super) fn menu_bar(&self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::top("menu").show(ui, |ui| {
            let view = MenuView {
                undo: self.ws.history.undo_label(),
                redo: self.ws.history.redo_label(),
                recent: &self.files.recent,
                has_clip: self.selection.clip.is_some(),
                autosave_secs: self.autosave_every.map_or(0, |d| d.as_secs()),
                comparing: self.comparison.is_some(),
            };
            menu::show(ui, &view, out);
        });
    }

    /// The bottom status line: load progress with Cancel, the last error, the last message.
    pub(super) fn status_bar(&self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::bottom("status").show(ui, |ui| {
            let mut cancel = false;
            for job in &self.files.loads {
                ui.horizontal(|ui| {
                    ui.label(format!("Loading {}", job.path.display()));
                    ui.add(
                        egui::ProgressBar::new(job.progress.fraction())
                            .desired_width(220.0)
                            .show_percentage(),
                    );
                    if ui.button("Cancel").clicked() {
                        cancel = true;
                    }
                });
            }
            if cancel {
                out.push(AppCommand::CancelLoads);
            }
            if let Some(error) = &self.error {
                // The button first, on the right, so a long message wraps instead of pushing
                // it out of the window.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Dismiss").clicked() {
                        out.push(AppCommand::DismissError);
                    }
                    let text = egui::RichText::new(format!("Could not open: {error}"))
                        .color(ui.visuals().error_fg_color);
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(egui::Label::new(text).wrap());
                    });
                });
            } else {
                ui.horizontal(|ui| {
                    let dirty = self.ws.documents.iter().filter(|d| d.is_dirty()).count();
                    if dirty > 0 {
                        ui.label(
                            egui::RichText::new(format!("{dirty} unsaved"))
                                .color(ui.visuals().warn_fg_color),
                        );
                    }
                    match self.log.last() {
                        Some(last) => ui.weak(last),
                        None => ui.weak("Ready. Ctrl+K lists every command."),
                    };
                });
            }
        });
    }
}
