//! Operations on the tracks shown in the curve editor: delete, duplicate, mute or unmute.

use clipscope_editor::Edit;

use crate::ui::commands::UiCommand;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs a command on the shown tracks; other commands are not its business.
    pub(super) fn run_track_command(&mut self, command: UiCommand) {
        let Some(clip) = self.selection.clip else {
            return;
        };
        if self.selection.tracks.is_empty() {
            return;
        }
        let tracks: Vec<usize> = self.selection.tracks.iter().copied().collect();
        match command {
            UiCommand::DeleteShownTracks => self.apply(Edit::DeleteTracks { clip, tracks }),
            UiCommand::DuplicateShownTracks => self.apply(Edit::DuplicateTracks { clip, tracks }),
            UiCommand::MuteShownTracks => {
                let Some(c) = self.ws.clip(clip) else {
                    return;
                };
                let muted = !tracks
                    .iter()
                    .all(|&t| c.tracks.get(t).is_some_and(|t| t.muted));
                self.apply(Edit::MuteTracks {
                    clip,
                    tracks,
                    muted,
                });
            }
            _ => {}
        }
    }
}
