//! The one place where what the panels asked for happens: [`ClipscopeApp::apply_queued`]
//! drains the frame's [`Outbox`] after every panel ran, in the order the commands were queued.

use crate::ui::files::FileEvent;
use crate::ui::outbox::{AppCommand, FileTarget, Outbox, Pending, Target};

use super::ClipscopeApp;

impl ClipscopeApp {
    /// Carries out every queued command in order. The frame was drawn before they ran, so it
    /// asks for another one when anything was queued.
    pub fn apply_queued(&mut self, ctx: &egui::Context, mut out: Outbox) {
        let queued = out.take();
        if queued.is_empty() {
            return;
        }
        for command in queued {
            self.carry_out(command, ctx);
        }
        ctx.request_repaint();
    }

    /// Carries out one command from a panel, a dialog or a shortcut.
    pub fn carry_out(&mut self, command: AppCommand, ctx: &egui::Context) {
        match command {
            AppCommand::Ui(command) => self.run(command, ctx),
            AppCommand::Edit(edit) => self.apply(edit),
            AppCommand::Open(path) => self.request_open(&path),
            AppCommand::GoTo(target) => self.go_to(target),
            AppCommand::ShowChange { clip, track, time } => self.show_change(clip, track, time),
            AppCommand::MeasureExport => self.measure_export(),
            AppCommand::BakeCycle => self.bake_cycle(),
            AppCommand::SaveCyclePreset => self.ask_where_to_save_preset(),
            AppCommand::LoadCyclePreset => self.files.ask(FileTarget::LoadPreset, None),
            AppCommand::SetPlayhead(time) => {
                self.transport.playing = false;
                self.transport.time = time;
            }
            AppCommand::CancelGesture(gesture) => self.cancel_gesture(gesture),
            AppCommand::SelectKey(key) => self.selection.keys = [key].into(),
            AppCommand::Discard(pending) => self.discard(pending, ctx),
            AppCommand::ChooseFile { target, suggested } => {
                self.files.ask(target, suggested.as_deref());
            }
            AppCommand::FileChosen { target, path } => {
                self.file_event(FileEvent::Chosen(target, vec![path]));
            }
            AppCommand::CancelLoads => self.files.cancel_loads(),
            AppCommand::DismissError => self.error = None,
            AppCommand::Recovery(answer) => self.recovery_answer(answer),
            AppCommand::ChangedOnDisk(answer) => self.changed_answer(answer),
            AppCommand::SetAutosave(secs) => {
                self.autosave_every = (secs > 0).then(|| std::time::Duration::from_secs(secs));
            }
            AppCommand::SelectNode(node) => self.select_node(&node),
        }
    }

    /// Shows the selected clip's tracks that animate `node` (and only those); nothing changes
    /// when it has none.
    fn select_node(&mut self, node: &str) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let tracks: std::collections::BTreeSet<usize> = clip
            .tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                clipscope_core::model::binding::parse_track_name(&t.name)
                    .ok()
                    .and_then(|p| p.animated_node())
                    .is_some_and(|n| n == node)
            })
            .map(|(i, _)| i)
            .collect();
        if tracks.is_empty() {
            return;
        }
        self.selection.tracks = tracks;
        self.selection.hidden.clear();
        self.selection.keys.clear();
    }

    /// Selects what a validation finding points at.
    fn go_to(&mut self, target: Target) {
        let Some(clip) = self.ws.clip(target.clip) else {
            return;
        };
        self.selection.select_clip(target.clip, clip);
        if let Some(t) = target.track {
            self.selection.tracks.insert(t);
            self.selection.keys.clear();
            if let Some(k) = target.key {
                self.selection.keys.insert(clipscope_editor::KeyRef {
                    track: t,
                    key: k,
                    component: 0,
                });
            }
            self.curves.frame_selected();
        }
    }

    /// Undoes a cancelled drag gesture, if it is still the last undo step; it cannot be redone.
    fn cancel_gesture(&mut self, gesture: u64) {
        if self.ws.history.undo_gesture() == Some(gesture) {
            self.ws.undo();
            self.ws.history.forget_redo();
            self.note("drag cancelled".into());
            self.after_edit();
        }
    }

    /// Goes ahead with what waited for the user's go-ahead to lose unsaved edits.
    fn discard(&mut self, pending: Pending, ctx: &egui::Context) {
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
            Pending::Overwrite(id) => {
                if let Some(i) = self.ws.index_of(id)
                    && let Some(path) = self.ws.documents[i].doc.path.clone()
                {
                    self.write_document(
                        i,
                        &path,
                        clipscope_core::formats::WriteOptions::default(),
                        None,
                    );
                }
            }
        }
    }
}
