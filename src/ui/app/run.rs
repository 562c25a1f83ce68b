//! Running user-level commands: what each menu item, shortcut and palette entry does.

use std::path::PathBuf;

use crate::editor::Edit;
use crate::formats::WriteOptions;
use crate::ui::findings::Findings;

use crate::ui::commands::UiCommand;
use crate::ui::dialogs::{Export, Pending};
use crate::ui::files::FileTarget;
use crate::ui::style;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Runs one user-level command (from a menu, a shortcut or the palette).
    pub fn run(&mut self, command: UiCommand, ctx: &egui::Context) {
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
            UiCommand::SaveAs => {
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
            UiCommand::ExportAs => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    self.export = Some(Export {
                        doc_id: d.id,
                        format: d.doc.format,
                        precision: None,
                        pretty: false,
                        serialized: false,
                    });
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
            UiCommand::Undo => {
                if let Some(label) = self.ws.undo() {
                    self.note(format!("undo: {label}"));
                }
                self.after_edit();
            }
            UiCommand::Redo => {
                if let Some(label) = self.ws.redo() {
                    self.note(format!("redo: {label}"));
                }
                self.after_edit();
            }
            UiCommand::Optimize | UiCommand::OptimizeAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::OptimizeAll) {
                    self.apply(Edit::Optimize(s));
                }
            }
            UiCommand::Trim | UiCommand::TrimAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::TrimAll) {
                    self.apply(Edit::Trim(s));
                }
            }
            UiCommand::ResetDuration | UiCommand::ResetDurationAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::ResetDurationAll) {
                    self.apply(Edit::ResetDuration(s));
                }
            }
            UiCommand::Reduce => self.open_reduce(),
            UiCommand::CompareOriginal => {
                if self.reduce.open {
                    self.reduce.show_original = !self.reduce.show_original;
                }
            }
            UiCommand::Validate | UiCommand::ValidateAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::ValidateAll) {
                    let found = Findings::run(&self.ws, s, &self.files.read_options, None);
                    let (errors, warnings) = found.counts();
                    self.note(format!("validate: {errors} errors, {warnings} warnings"));
                    self.findings = Some(found);
                    self.show_validation = true;
                }
            }
            UiCommand::DuplicateClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DuplicateClip { clip });
                }
            }
            UiCommand::DeleteClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DeleteClip { clip });
                }
            }
            UiCommand::DeleteKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    self.selection.keys.clear();
                    self.apply(Edit::DeleteKeys { clip, keys });
                }
            }
            UiCommand::InsertKey => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    let time = self.playhead();
                    self.apply(Edit::InsertKey { clip, tracks, time });
                }
            }
            UiCommand::PlayPause
            | UiCommand::NextFrame
            | UiCommand::PreviousFrame
            | UiCommand::NextFrames10
            | UiCommand::PreviousFrames10
            | UiCommand::NextKey
            | UiCommand::PreviousKey
            | UiCommand::GoStart
            | UiCommand::GoEnd => self.run_transport_command(command),
            UiCommand::FrameAll => self.curves.frame_all(),
            UiCommand::FrameSelected => self.curves.frame_selected(),
            UiCommand::ToggleValidation => self.show_validation = !self.show_validation,
            UiCommand::ToggleCycles => {
                self.right_tab = match self.right_tab {
                    RightTab::Cycles => RightTab::Inspector,
                    RightTab::Inspector => RightTab::Cycles,
                };
                self.cycles.preview_in_viewport = self.right_tab == RightTab::Cycles;
            }
            UiCommand::ToggleTheme => {
                self.dark = !self.dark;
                style::apply_theme(ctx, self.dark);
            }
            UiCommand::CommandPalette => self.palette.open(),
        }
    }

    /// Runs a play, step or seek command on the transport.
    fn run_transport_command(&mut self, command: UiCommand) {
        let duration = self.duration();
        let tr = &mut self.transport;
        match command {
            UiCommand::PlayPause => tr.toggle_play(duration),
            UiCommand::NextFrame => tr.step_frames(1, duration),
            UiCommand::PreviousFrame => tr.step_frames(-1, duration),
            UiCommand::NextFrames10 => tr.step_frames(10, duration),
            UiCommand::PreviousFrames10 => tr.step_frames(-10, duration),
            UiCommand::GoStart => tr.go_start(),
            UiCommand::GoEnd => tr.go_end(duration),
            UiCommand::NextKey | UiCommand::PreviousKey => {
                let times = self.shown_key_times();
                let to = if command == UiCommand::NextKey {
                    self.transport.next_key(times.into_iter())
                } else {
                    self.transport.prev_key(times.into_iter())
                };
                if let Some(t) = to {
                    self.transport.playing = false;
                    self.transport.time = t;
                }
            }
            _ => {}
        }
    }
}
