//! View commands: framing the curves, showing panels, the theme and the command palette.

use crate::ui::commands::UiCommand;
use crate::ui::style;

use super::super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Runs a view command; other commands are not its business.
    pub(super) fn run_view_command(&mut self, command: UiCommand, ctx: &egui::Context) {
        match command {
            UiCommand::FrameAll => self.curves.frame_all(),
            UiCommand::FrameSelected => self.curves.frame_selected(),
            UiCommand::ToggleValidation => self.show_validation = !self.show_validation,
            UiCommand::ToggleCycles => {
                self.right_tab = match self.right_tab {
                    RightTab::Cycles => RightTab::Inspector,
                    RightTab::Inspector | RightTab::Compare => RightTab::Cycles,
                };
                self.cycles.preview_in_viewport = self.right_tab == RightTab::Cycles;
            }
            UiCommand::ToggleTheme => {
                self.dark = !self.dark;
                style::apply_theme(ctx, self.dark);
            }
            UiCommand::CommandPalette => self.palette.open(),
            _ => {}
        }
    }
}
