//! Running user-level commands: what each menu item, shortcut and palette entry does.
//!
//! [`ClipscopeApp::run`] sorts a command into its group and hands it to that group's runner,
//! one file per group:
//!
//! * `files` — open, save, export, close, quit;
//! * `history` — undo and redo;
//! * `clip` — operations on the selected clip (or every open clip): optimize, trim, validate,
//!   reduce, duplicate, split, reverse, filters;
//! * `keys` — the selected keys: delete, insert, snap, copy, cut, paste, duplicate;
//! * `key_selection` — selecting keys of the shown tracks (all, a column, the play range);
//! * `tracks` — the shown tracks: delete, duplicate, mute;
//! * `dialogs` — the operations that ask for numbers or text first (a [`ClipDialog`]);
//! * `transport` — play, step, seek, markers and the play range;
//! * `view` — framing the curves, panels, the theme and the palette.
//!
//! [`ClipDialog`]: crate::ui::clip_dialog::ClipDialog

mod clip;
mod dialogs;
mod files;
mod history;
mod key_selection;
mod keys;
mod tracks;
mod transport;
mod view;

use crate::ui::commands::UiCommand;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs one user-level command (from a menu, a shortcut or the palette).
    pub fn run(&mut self, command: UiCommand, ctx: &egui::Context) {
        use UiCommand as C;
        match command {
            C::Open
            | C::OpenPath
            | C::Save
            | C::SaveAs
            | C::ExportAs
            | C::CompareWithFile
            | C::CompareWithRevision
            | C::StopComparing
            | C::CloseDocument
            | C::Quit => self.run_file_command(command, ctx),
            C::Undo | C::Redo => self.run_history_command(command),
            C::Optimize
            | C::OptimizeAll
            | C::Trim
            | C::TrimAll
            | C::ResetDuration
            | C::ResetDurationAll
            | C::Reduce
            | C::CompareOriginal
            | C::Validate
            | C::ValidateAll
            | C::DuplicateClip
            | C::DeleteClip
            | C::SplitClip
            | C::ReverseClip
            | C::EulerFilter
            | C::UnrollQuaternions
            | C::UnrollQuaternionsAll => self.run_clip_command(command),
            C::DeleteKeys
            | C::InsertKey
            | C::SnapKeys
            | C::CopyKeys
            | C::CutKeys
            | C::PasteKeys
            | C::PasteKeysRelative
            | C::DuplicateKeys => self.run_key_command(command, ctx),
            C::SelectAllKeys => self.select_all_keys(),
            C::SelectColumn => self.select_column(),
            C::SelectInPlayRange => self.select_in_play_range(),
            C::DeleteShownTracks | C::DuplicateShownTracks | C::MuteShownTracks => {
                self.run_track_command(command)
            }
            C::RenameTracks
            | C::Subclip
            | C::ScaleKeys
            | C::SmoothKeys
            | C::Retime
            | C::Resample
            | C::MakeAdditive
            | C::MergeClips
            | C::EditMarkers => self.run_dialog_command(command),
            C::PlayPause
            | C::NextFrame
            | C::PreviousFrame
            | C::NextFrames10
            | C::PreviousFrames10
            | C::NextKey
            | C::PreviousKey
            | C::GoStart
            | C::GoEnd
            | C::AddMarker
            | C::NextMarker
            | C::PreviousMarker
            | C::SetPlayRange
            | C::ClearPlayRange => self.run_transport_command(command),
            C::FrameAll
            | C::FrameSelected
            | C::ToggleValidation
            | C::ToggleCycles
            | C::ToggleTheme
            | C::CommandPalette => self.run_view_command(command, ctx),
        }
    }
}
