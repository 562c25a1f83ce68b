//! Undo and redo of document edits, noted in the status line.

use crate::ui::commands::UiCommand;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs Undo or Redo; other commands are not its business.
    pub(super) fn run_history_command(&mut self, command: UiCommand) {
        match command {
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
            _ => {}
        }
    }
}
