//! Operations on the selected clip, or on every open clip for the "All" commands: optimize,
//! trim, reset the duration, reduce, validate, duplicate, delete, split, reverse, and the
//! rotation filters.

use clipscope_editor::{ClipScope, Edit};

use crate::ui::commands::UiCommand;
use crate::ui::findings::Findings;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs a clip operation; other commands are not its business.
    pub(super) fn run_clip_command(&mut self, command: UiCommand) {
        match command {
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
            UiCommand::CompareOriginal if self.reduce.open => {
                self.reduce.show_original = !self.reduce.show_original;
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
            UiCommand::SplitClip => {
                if let Some(clip) = self.selection.clip {
                    let time = self.playhead();
                    self.apply(Edit::SplitClip { clip, time });
                }
            }
            UiCommand::ReverseClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::Reverse(ClipScope::Clip(clip)));
                }
            }
            UiCommand::EulerFilter => {
                if let Some(s) = self.clip_scope(false) {
                    self.apply(Edit::EulerFilter(s));
                }
            }
            UiCommand::UnrollQuaternions | UiCommand::UnrollQuaternionsAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::UnrollQuaternionsAll) {
                    self.apply(Edit::UnrollQuaternions(s));
                }
            }
            _ => {}
        }
    }
}
