//! The one channel from panels to the app: every panel's `show` pushes [`AppCommand`]s into an
//! [`Outbox`], and the app carries them out, in order, in one place after all panels ran
//! ([`ClipscopeApp::apply_queued`](super::ClipscopeApp::apply_queued)).
//!
//! A command carries its data (the edit, the path, the finding's target, the new playhead), so
//! nothing a panel asks for depends on state that changes between the panel and the app.
//! Selection, the transport and a panel's own widgets state are view state and stay direct.

use std::path::PathBuf;

use clipscope_editor::{Edit, KeyRef};

use super::commands::UiCommand;
use super::dialogs::{ChangedAnswer, Pending};
use super::files::FileTarget;
use super::recovery_dialog::RecoveryAnswer;
use super::validation_panel::Target;

/// What a panel (or a dialog or a shortcut) asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// A menu item, shortcut or palette entry.
    Ui(UiCommand),
    /// One undoable document edit, applied through the workspace (which records undo).
    Edit(Edit),
    /// Open a recent file picked in the menu (a reload of a file with unsaved edits asks
    /// first).
    Open(PathBuf),
    /// Select the clip, track and key a validation finding points at.
    GoTo(Target),
    /// Bake the Cycles panel's cycle, values and settings into a clip (one undo step).
    BakeCycle,
    /// Save the Cycles panel's values as a preset file (asks where).
    SaveCyclePreset,
    /// Load a preset file into the Cycles panel (asks which).
    LoadCyclePreset,
    /// Stop playing and put the playhead at this time in seconds (the curve editor's ruler).
    SetPlayhead(f64),
    /// Escape during this drag gesture: undo what it already moved (with nothing to redo).
    CancelGesture(u64),
    /// Select just this key (a key tick clicked in the dopesheet, which moved the playhead).
    SelectKey(KeyRef),
    /// The user agreed to lose unsaved edits: quit, close or reload as `Pending` says.
    Discard(Pending),
    /// Ask for a file through the native dialog, starting at `suggested`.
    ChooseFile {
        /// What the file is for.
        target: FileTarget,
        /// The file name (and folder) to start with.
        suggested: Option<PathBuf>,
    },
    /// A path typed into the path prompt, for `target`.
    FileChosen {
        /// What the file is for.
        target: FileTarget,
        /// The path.
        path: PathBuf,
    },
    /// Stop the background loads (the status bar's Cancel).
    CancelLoads,
    /// Hide the load error in the status bar.
    DismissError,
    /// The answer to the crash-recovery offer at start.
    Recovery(RecoveryAnswer),
    /// The answer about a file that changed on disk under unsaved edits.
    ChangedOnDisk(ChangedAnswer),
    /// Autosave unsaved edits every this many seconds (0: only when the window loses focus).
    SetAutosave(u64),
    /// Show the shown clip's tracks of this node (a bone clicked in the viewport), and only
    /// those.
    SelectNode(String),
}

/// The queue panels push [`AppCommand`]s into during a frame; the app drains it once, after
/// every panel ran.
#[derive(Debug, Default)]
pub struct Outbox {
    queue: Vec<AppCommand>,
}

impl Outbox {
    /// Queues a command.
    pub fn push(&mut self, command: AppCommand) {
        self.queue.push(command);
    }

    /// Queues a document edit.
    pub fn edit(&mut self, edit: Edit) {
        self.push(AppCommand::Edit(edit));
    }

    /// Queues a user-level command.
    pub fn ui(&mut self, command: UiCommand) {
        self.push(AppCommand::Ui(command));
    }

    /// The queued commands, oldest first.
    pub fn queued(&self) -> &[AppCommand] {
        &self.queue
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Takes every queued command, oldest first, leaving the queue empty.
    pub fn take(&mut self) -> Vec<AppCommand> {
        std::mem::take(&mut self.queue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_come_out_in_the_order_they_went_in() {
        let mut out = Outbox::default();
        out.ui(UiCommand::Undo);
        out.push(AppCommand::SetPlayhead(0.5));
        out.ui(UiCommand::Redo);
        assert_eq!(out.queued().len(), 3);
        assert_eq!(
            out.take(),
            vec![
                AppCommand::Ui(UiCommand::Undo),
                AppCommand::SetPlayhead(0.5),
                AppCommand::Ui(UiCommand::Redo),
            ]
        );
        assert!(out.is_empty());
    }
}
