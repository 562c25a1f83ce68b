//! The modal dialogs the app owns: the unsaved-edits question, the export settings, the typed
//! path and the command palette. Their answers are queued like any panel's; only the dialogs'
//! own open/closed state changes here.

use crate::ui::clip_dialog::{self, DialogView};
use crate::ui::dialogs::{self, Answer, ExportAnswer, PromptAnswer};
use crate::ui::outbox::{AppCommand, FileTarget, Outbox, Pending};
use crate::ui::palette;
use crate::ui::recovery_dialog;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// Measures how the export dialog's document plays in its chosen format with its settings
    /// (core's `formats::export_fidelity`, what `convert` prints) and shows it in the dialog.
    pub(super) fn measure_export(&mut self) {
        let Some(export) = &mut self.export else {
            return;
        };
        let Some(i) = self.ws.index_of(export.doc_id) else {
            return;
        };
        let doc = &self.ws.documents[i].doc;
        let text =
            match clipscope_core::formats::export_fidelity(doc, export.format, &export.options()) {
                Ok(fidelity) => fidelity.summary(export.format),
                Err(e) => e.to_string(),
            };
        export.measured = Some((export.format, export.tolerance, text));
    }

    /// Shows whichever modal dialog is open (at most one).
    pub(super) fn modals(&mut self, ctx: &egui::Context, out: &mut Outbox) {
        if let Some(offer) = &mut self.recovery_offer {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            recovery_dialog::show(ctx, offer, now, out);
        } else if let Some(changed) = &self.changed {
            if let Some(answer) = dialogs::changed_on_disk(ctx, &changed.name) {
                out.push(AppCommand::ChangedOnDisk(answer));
            }
        } else if let Some(pending) = &self.pending {
            let question = self.question(pending);
            let (heading, go) = pending.labels();
            match dialogs::confirm(ctx, heading, &question, go) {
                Some(Answer::Discard) => {
                    let pending = self.pending.take().expect("pending question");
                    out.push(AppCommand::Discard(pending));
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
                    out.push(AppCommand::ChooseFile { target, suggested });
                }
                Some(ExportAnswer::Measure) => out.push(AppCommand::MeasureExport),
                Some(ExportAnswer::Cancel) => self.export = None,
                None => {}
            }
        } else if let Some(dialog) = &mut self.clip_dialog {
            let closed = match self
                .selection
                .clip
                .and_then(|id| self.ws.clip(id).map(|c| (id, c)))
            {
                Some((id, clip)) => {
                    let view = DialogView {
                        id,
                        clip,
                        fps: self.transport.fps,
                        playhead: self.transport.time,
                        siblings: &self.ws.documents[id.doc].doc.clips,
                        figure: self.viewport.player().map(|p| p.figure()),
                    };
                    clip_dialog::show(ctx, dialog, &view, out)
                }
                None => true,
            };
            if closed {
                self.clip_dialog = None;
            }
        } else if let Some(prompt) = &mut self.files.prompt {
            match dialogs::path_prompt(ctx, prompt) {
                Some(PromptAnswer::Path(path)) => {
                    let prompt = self.files.prompt.take().expect("prompt");
                    out.push(AppCommand::FileChosen {
                        target: prompt.target,
                        path,
                    });
                }
                Some(PromptAnswer::Cancel) => self.files.prompt = None,
                None => {}
            }
        } else {
            palette::show(ctx, &mut self.palette, out);
        }
    }

    /// The unsaved-edits question for `pending`.
    fn question(&self, pending: &Pending) -> String {
        match pending {
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
            Pending::Overwrite(id) => format!(
                "{} was changed on disk by another program since it was read. Save anyway and \
                 replace that version?",
                self.ws
                    .index_of(*id)
                    .map_or("The file", |i| self.ws.documents[i].title())
            ),
        }
    }
}
