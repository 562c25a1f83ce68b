//! The one channel from panels to the app: every panel's `show` pushes [`AppCommand`]s into an
//! [`Outbox`], and the app carries them out, in order, in one place after all panels ran
//! ([`ClipscopeApp::apply_queued`](super::ClipscopeApp::apply_queued)).
//!
//! A command carries its data (the edit, the path, the finding's target, the new playhead), so
//! nothing a panel asks for depends on state that changes between the panel and the app.
//! Selection, the transport and a panel's own widgets state are view state and stay direct.
//!
//! The module sits below the panels: the types the commands carry ([`Pending`],
//! [`ChangedAnswer`], [`RecoveryAnswer`], [`FileTarget`], [`Target`]) live here, one file
//! each, so a panel uses the outbox and the outbox uses no panel.

mod answers;
mod app_command;
mod file_target;
mod finding_target;
mod pending;

pub use answers::{ChangedAnswer, RecoveryAnswer};
pub use app_command::AppCommand;
pub use file_target::FileTarget;
pub use finding_target::Target;
pub use pending::Pending;

use clipscope_editor::Edit;

use super::commands::UiCommand;

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
