//! Running actions: what each menu item, shortcut and palette entry does.

use std::path::PathBuf;

use crate::editor::Edit;
use crate::formats::WriteOptions;
use crate::model::Severity;

use crate::ui::actions::Action;
use crate::ui::dialogs::{Export, Pending};
use crate::ui::files::FileTarget;
use crate::ui::style;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Runs one action (from a menu, a shortcut or the palette).
    pub fn run(&mut self, action: Action, ctx: &egui::Context) {
        match action {
            Action::Open => self.files.ask(FileTarget::Open, None),
            Action::OpenPath => self.files.prompt_for(
                FileTarget::Open,
                None,
                "Type the path of a clip file to open.".into(),
            ),
            Action::Save => {
                if let Some(i) = self.selected_doc() {
                    match self.ws.documents[i].doc.path.clone() {
                        Some(path) => self.save_to(i, &path, WriteOptions::default(), None),
                        None => self.run(Action::SaveAs, ctx),
                    }
                }
            }
            Action::SaveAs => {
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
            Action::ExportAs => {
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
            Action::CloseDocument => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    if d.is_dirty() {
                        self.pending = Some(Pending::Close(d.id));
                    } else {
                        self.close_document(i);
                    }
                }
            }
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Action::Undo => {
                if let Some(label) = self.ws.undo() {
                    self.note(format!("undo: {label}"));
                }
                self.after_edit();
            }
            Action::Redo => {
                if let Some(label) = self.ws.redo() {
                    self.note(format!("redo: {label}"));
                }
                self.after_edit();
            }
            Action::Optimize | Action::OptimizeAll => {
                if let Some(s) = self.scope(action == Action::OptimizeAll) {
                    self.apply(Edit::Optimize(s));
                }
            }
            Action::Trim | Action::TrimAll => {
                if let Some(s) = self.scope(action == Action::TrimAll) {
                    self.apply(Edit::Trim(s));
                }
            }
            Action::ResetDuration | Action::ResetDurationAll => {
                if let Some(s) = self.scope(action == Action::ResetDurationAll) {
                    self.apply(Edit::ResetDuration(s));
                }
            }
            Action::Validate | Action::ValidateAll => {
                if let Some(s) = self.scope(action == Action::ValidateAll) {
                    let found = self.ws.validate(s);
                    let errors = found
                        .iter()
                        .filter(|(_, p)| p.severity == Severity::Error)
                        .count();
                    self.note(format!(
                        "validate: {errors} errors, {} warnings",
                        found.len() - errors
                    ));
                    self.findings = Some((s, found));
                    self.show_validation = true;
                }
            }
            Action::DuplicateClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DuplicateClip { clip });
                }
            }
            Action::DeleteClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DeleteClip { clip });
                }
            }
            Action::DeleteKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    self.selection.keys.clear();
                    self.apply(Edit::DeleteKeys { clip, keys });
                }
            }
            Action::InsertKey => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    let time = self.playhead();
                    self.apply(Edit::InsertKey { clip, tracks, time });
                }
            }
            Action::PlayPause
            | Action::NextFrame
            | Action::PreviousFrame
            | Action::NextFrames10
            | Action::PreviousFrames10
            | Action::NextKey
            | Action::PreviousKey
            | Action::GoStart
            | Action::GoEnd => self.run_view_action(action),
            Action::FrameAll => self.curves.frame_all(),
            Action::FrameSelected => self.curves.frame_selected(),
            Action::ToggleValidation => self.show_validation = !self.show_validation,
            Action::ToggleCycles => {
                self.right_tab = match self.right_tab {
                    RightTab::Cycles => RightTab::Inspector,
                    RightTab::Inspector => RightTab::Cycles,
                };
                self.cycles.preview_in_viewport = self.right_tab == RightTab::Cycles;
            }
            Action::ToggleTheme => {
                self.dark = !self.dark;
                style::apply_theme(ctx, self.dark);
            }
            Action::CommandPalette => self.palette.open(),
        }
    }

    pub(super) fn run_view_action(&mut self, action: Action) {
        let duration = self.duration();
        let tr = &mut self.transport;
        match action {
            Action::PlayPause => tr.toggle_play(duration),
            Action::NextFrame => tr.step_frames(1, duration),
            Action::PreviousFrame => tr.step_frames(-1, duration),
            Action::NextFrames10 => tr.step_frames(10, duration),
            Action::PreviousFrames10 => tr.step_frames(-10, duration),
            Action::GoStart => tr.go_start(),
            Action::GoEnd => tr.go_end(duration),
            Action::NextKey | Action::PreviousKey => {
                let times = self.shown_key_times();
                let to = if action == Action::NextKey {
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
