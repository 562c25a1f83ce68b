//! File commands: open (by dialog or typed path), save, save as, export as, close, quit.

use std::path::{Path, PathBuf};

use clipscope_core::formats::WriteOptions;

use crate::ui::commands::UiCommand;
use crate::ui::dialogs::Export;
use crate::ui::outbox::{FileTarget, Pending};

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs a file command; other commands are not its business.
    pub(super) fn run_file_command(&mut self, command: UiCommand, ctx: &egui::Context) {
        match command {
            UiCommand::Open => self.files.ask(FileTarget::Open, None),
            UiCommand::OpenPath => self.files.prompt_for(
                FileTarget::Open,
                None,
                "Type the path of a clip file to open.".into(),
            ),
            UiCommand::Save => {
                if let Some(i) = self.selected_doc() {
                    match self.ws.documents[i].doc.path.clone() {
                        Some(path) => self.save_to(i, &path, WriteOptions::default(), None),
                        None => self.run(UiCommand::SaveAs, ctx),
                    }
                }
            }
            UiCommand::SaveAs => self.save_as(),
            UiCommand::CompareWithFile => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    let target = FileTarget::Compare { doc_id: d.id };
                    let suggested = d.doc.path.clone();
                    self.files.ask(target, suggested.as_deref());
                }
            }
            UiCommand::CompareWithRevision => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    let target = FileTarget::Compare { doc_id: d.id };
                    let reason = format!(
                        "Compare {} with its version at a git revision (HEAD, HEAD~1, main, a \
                         commit) or with another file: type either.",
                        d.title()
                    );
                    self.files
                        .prompt_for(target, Some(Path::new("HEAD")), reason);
                }
            }
            UiCommand::StopComparing => self.stop_comparing(),
            UiCommand::ExportAs => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    self.export = Some(Export::new(d.id, d.doc.format));
                }
            }
            UiCommand::CloseDocument => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    if d.is_dirty() {
                        self.pending = Some(Pending::Close(d.id));
                    } else {
                        self.close_document(i);
                    }
                }
            }
            UiCommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            _ => {}
        }
    }

    /// Asks where to save the selected clip's document, starting at its own file.
    fn save_as(&mut self) {
        if let Some(i) = self.selected_doc() {
            let d = &self.ws.documents[i];
            let suggested = d
                .doc
                .path
                .clone()
                .unwrap_or_else(|| PathBuf::from("clips.json"));
            let target = FileTarget::SaveAs {
                doc_id: d.id,
                options: WriteOptions::default(),
                format: None,
            };
            self.files.ask(target, Some(&suggested));
        }
    }
}
