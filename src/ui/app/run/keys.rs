//! Commands on the selected keys: delete, insert at the playhead, snap to frames, and the key
//! clipboard (copy, cut, paste, duplicate).

use clipscope_core::model::ops::{KeyClipboard, PasteValues};
use clipscope_editor::Edit;

use crate::ui::commands::UiCommand;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs a key command; other commands are not its business.
    pub(super) fn run_key_command(&mut self, command: UiCommand, ctx: &egui::Context) {
        match command {
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
            UiCommand::SnapKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    let fps = self.transport.fps;
                    self.apply(Edit::SnapKeys { clip, keys, fps });
                }
            }
            UiCommand::CopyKeys | UiCommand::CutKeys => self.copy_keys(command, ctx),
            UiCommand::PasteKeys => self.paste_keys(PasteValues::Absolute),
            UiCommand::PasteKeysRelative => self.paste_keys(PasteValues::Relative),
            UiCommand::DuplicateKeys => self.duplicate_keys(),
            _ => {}
        }
    }

    /// Copies the selected keys to the key clipboard (and cuts them for Cut keys). The system
    /// clipboard gets a line of text, so the next Ctrl+V reaches the editor as a paste.
    fn copy_keys(&mut self, command: UiCommand, ctx: &egui::Context) {
        let Some((id, clip)) = self.selected_clip() else {
            return;
        };
        if self.selection.keys.is_empty() {
            self.note("copy keys: no keys selected".into());
            return;
        }
        let board = KeyClipboard::copy(clip, self.selection.keys.iter().map(|k| (k.track, k.key)));
        let line = format!(
            "{} {} keys of {} track(s) from {}",
            if command == UiCommand::CutKeys {
                "cut"
            } else {
                "copied"
            },
            board.key_count(),
            board.tracks.len(),
            clip.name
        );
        ctx.copy_text(format!("clipscope: {line}"));
        self.note(line);
        self.key_clipboard = Some(board);
        if command == UiCommand::CutKeys {
            let keys = self.selection.keys.iter().copied().collect();
            self.selection.keys.clear();
            self.apply(Edit::DeleteKeys { clip: id, keys });
        }
    }

    /// Pastes the key clipboard at the playhead into the selected clip.
    fn paste_keys(&mut self, values: PasteValues) {
        let (Some((id, clip)), Some(board)) = (self.selected_clip(), &self.key_clipboard) else {
            self.note("paste keys: nothing copied".into());
            return;
        };
        let shown: Vec<usize> = self.selection.tracks.iter().copied().collect();
        let targets = board.targets(clip, &shown);
        let edit = Edit::PasteKeys {
            clip: id,
            clipboard: Box::new(board.clone()),
            targets: targets.clone(),
            time: self.playhead(),
            values,
            duplicate: false,
        };
        // Pasted tracks show in the curve editor.
        self.selection.tracks.extend(targets.into_iter().flatten());
        self.apply(edit);
    }

    /// Duplicates the selected keys one frame after the earliest of them and selects the
    /// copies (drag them where they belong).
    fn duplicate_keys(&mut self) {
        let Some((id, clip)) = self.selected_clip() else {
            return;
        };
        if self.selection.keys.is_empty() {
            return;
        }
        let board = KeyClipboard::copy(clip, self.selection.keys.iter().map(|k| (k.track, k.key)));
        let targets = board.tracks.iter().map(|t| Some(t.source)).collect();
        let step = 1.0 / self.transport.fps.max(1e-3);
        let time = board.start() + step;
        self.apply(Edit::PasteKeys {
            clip: id,
            clipboard: Box::new(board),
            targets,
            time,
            values: PasteValues::Absolute,
            duplicate: true,
        });
    }
}
