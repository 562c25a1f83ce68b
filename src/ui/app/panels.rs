//! The panels the app draws itself around the widgets: curve panel, timeline, modal dialogs,
//! status bar, and the jump to a validation finding.

use crate::ui::actions::Outbox;
use crate::ui::curve_editor::{self, CurveRef};
use crate::ui::dialogs::{self, Answer, ExportAnswer, Pending, PromptAnswer};
use crate::ui::files::{FileEvent, FileTarget};
use crate::ui::palette;
use crate::ui::style;
use crate::ui::timeline::{self, DopeRow};
use crate::ui::validation_panel;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// The curve editor for the selected clip's shown tracks.
    pub(super) fn curve_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let Some((id, clip)) = self
            .selection
            .clip
            .and_then(|id| self.ws.clip(id).map(|c| (id, c)))
        else {
            ui.centered_and_justified(|ui| {
                ui.label("Drop a clip file here or press Ctrl+O.");
            });
            return;
        };
        let curves: Vec<CurveRef> = self
            .selection
            .tracks
            .iter()
            .filter_map(|&t| clip.tracks.get(t).map(|track| (t, track)))
            .filter(|(_, track)| track.kind.is_numeric())
            .flat_map(|(t, track)| {
                (0..track.value_size()).map(move |c| CurveRef {
                    track: t,
                    component: c,
                })
            })
            .filter(|c| !self.selection.hidden.contains(&(c.track, c.component)))
            .collect();
        let output = curve_editor::show(
            ui,
            &mut self.curves,
            id,
            clip,
            &curves,
            &mut self.selection.keys,
            self.transport.time,
        );
        out.commands.extend(output.commands);
        out.cancelled_gesture = out.cancelled_gesture.or(output.cancelled_gesture);
        if let Some(t) = output.playhead {
            self.transport.playing = false;
            self.transport.time = t;
        }
    }

    /// The timeline strip with one dopesheet row per shown track.
    pub(super) fn timeline(&mut self, ui: &mut egui::Ui) {
        let duration = self.duration();
        let clip = self.selection.clip.and_then(|id| self.ws.clip(id));
        let shown: Vec<usize> = self.selection.tracks.iter().copied().collect();
        let labels: Vec<String> = clip.map_or_else(Vec::new, |c| {
            shown
                .iter()
                .filter_map(|&t| c.tracks.get(t))
                .map(|t| t.name.trim_start_matches('.').to_string())
                .collect()
        });
        let rows: Vec<DopeRow> = clip.map_or_else(Vec::new, |c| {
            shown
                .iter()
                .filter_map(|&t| c.tracks.get(t))
                .zip(&labels)
                .map(|(t, label)| DopeRow {
                    label,
                    colour: style::track_colour(t),
                    times: &t.times,
                })
                .collect()
        });
        let output = timeline::show(ui, &mut self.transport, duration, &rows);
        if let Some((row, key)) = output.seek_key
            && let Some(&track) = shown.get(row)
        {
            self.selection.keys = [crate::editor::KeyRef {
                track,
                key,
                component: 0,
            }]
            .into();
        }
    }

    /// Shows whichever modal dialog is open.
    pub(super) fn modals(&mut self, ctx: &egui::Context, out: &mut Outbox) {
        if let Some(pending) = self.pending.clone() {
            let question = match &pending {
                Pending::Quit => "Some files have unsaved edits. Quit and lose them?".to_string(),
                Pending::Close(id) => format!(
                    "{} has unsaved edits. Close it and lose them?",
                    self.ws
                        .index_of(*id)
                        .map_or("The file", |i| self.ws.documents[i].title())
                ),
                Pending::Reload(path) => format!(
                    "{} is open with unsaved edits. Reload it from disk and lose them?",
                    path.display()
                ),
            };
            match dialogs::confirm(ctx, &question) {
                Some(Answer::Discard) => {
                    self.pending = None;
                    match pending {
                        Pending::Quit => {
                            self.allow_close = true;
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        }
                        Pending::Close(id) => {
                            if let Some(i) = self.ws.index_of(id) {
                                self.close_document(i);
                            }
                        }
                        Pending::Reload(path) => self.files.load(path),
                    }
                }
                Some(Answer::Cancel) => self.pending = None,
                None => {}
            }
        } else if let Some(export) = &mut self.export {
            match dialogs::export(ctx, export) {
                Some(ExportAnswer::ChooseFile) => {
                    let export = self.export.take().expect("export dialog");
                    let suggested = self
                        .ws
                        .index_of(export.doc_id)
                        .and_then(|i| self.ws.documents[i].doc.path.clone())
                        .map(|p| p.with_extension(format!("export.{}", export.format.extension())));
                    let target = FileTarget::SaveAs {
                        doc_id: export.doc_id,
                        options: export.options(),
                        format: Some(export.format),
                    };
                    self.files.ask(target, suggested.as_deref());
                }
                Some(ExportAnswer::Cancel) => self.export = None,
                None => {}
            }
        } else if let Some(prompt) = &mut self.files.prompt {
            match dialogs::path_prompt(ctx, prompt) {
                Some(PromptAnswer::Path(path)) => {
                    let prompt = self.files.prompt.take().expect("prompt");
                    self.file_event(FileEvent::Chosen(prompt.target, vec![path]));
                }
                Some(PromptAnswer::Cancel) => self.files.prompt = None,
                None => {}
            }
        } else if let Some(action) = palette::show(ctx, &mut self.palette) {
            out.action(action);
        }
    }

    /// The bottom status line: load progress with Cancel, the last error, the last message.
    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
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
                self.files.cancel_loads();
            }
            if let Some(error) = self.error.clone() {
                // The button first, on the right, so a long message wraps instead of pushing
                // it out of the window.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Dismiss").clicked() {
                        self.error = None;
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

    /// Selects what a validation finding points at.
    pub(super) fn go_to(&mut self, target: validation_panel::Target) {
        let Some(clip) = self.ws.clip(target.clip) else {
            return;
        };
        self.selection.select_clip(target.clip, clip);
        if let Some(t) = target.track {
            self.selection.tracks.insert(t);
            self.selection.keys.clear();
            if let Some(k) = target.key {
                self.selection.keys.insert(crate::editor::KeyRef {
                    track: t,
                    key: k,
                    component: 0,
                });
            }
            self.curves.frame_selected();
        }
    }
}
