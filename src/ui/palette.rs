//! The command palette (Ctrl+K / Ctrl+P): every command with its shortcut, filtered as you type.

use super::commands::UiCommand;
use super::outbox::Outbox;

/// The palette's state.
#[derive(Debug, Default)]
pub struct Palette {
    /// True while the palette is shown.
    pub open: bool,
    /// The filter text.
    pub query: String,
    /// The highlighted row among the matches.
    pub index: usize,
}

impl Palette {
    /// Opens the palette with an empty query.
    pub fn open(&mut self) {
        self.open = true;
        self.query.clear();
        self.index = 0;
    }
}

/// The commands whose label contains every word of `query` (case-insensitive), in palette order;
/// every command but the palette itself.
pub fn matches(query: &str) -> Vec<UiCommand> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    UiCommand::ALL
        .iter()
        .copied()
        .filter(|c| *c != UiCommand::CommandPalette)
        .filter(|c| {
            let label = c.label().to_lowercase();
            words.iter().all(|w| label.contains(w.as_str()))
        })
        .collect()
}

/// Shows the palette when open; queues the command chosen (Enter or click).
pub fn show(ctx: &egui::Context, state: &mut Palette, out: &mut Outbox) {
    if !state.open {
        return;
    }
    let mut chosen = None;
    let found = matches(&state.query);
    state.index = state.index.min(found.len().saturating_sub(1));
    let (down, up, enter) = ctx.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
        )
    });
    if down {
        state.index = (state.index + 1).min(found.len().saturating_sub(1));
    }
    if up {
        state.index = state.index.saturating_sub(1);
    }
    if enter {
        chosen = found.get(state.index).copied();
    }
    let modal = egui::Modal::new(egui::Id::unique("command palette")).show(ctx, |ui| {
        ui.set_width(420.0);
        let label = ui.strong("Command");
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut state.query)
                    .hint_text("Type to filter, Enter to run")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
        r.request_focus();
        if r.changed() {
            state.index = 0;
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                if found.is_empty() {
                    ui.weak("No command matches.");
                }
                for (i, command) in found.iter().enumerate() {
                    ui.horizontal(|ui| {
                        let r = ui.selectable_label(i == state.index, command.label());
                        if r.clicked() {
                            chosen = Some(*command);
                        }
                        if i == state.index {
                            r.scroll_to_me(None);
                        }
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            ui.weak(command.shortcut_text(ui.ctx()));
                        });
                    });
                }
            });
    });
    if chosen.is_some() || modal.should_close() {
        state.open = false;
    }
    if let Some(command) = chosen {
        out.ui(command);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_must_match() {
        assert!(matches("optim all").contains(&UiCommand::OptimizeAll));
        assert!(!matches("optim all").contains(&UiCommand::Optimize));
        assert_eq!(matches("").len(), UiCommand::ALL.len() - 1);
        assert!(matches("zzz").is_empty());
    }

    #[test]
    fn every_command_has_a_label_and_a_palette_entry() {
        for &command in UiCommand::ALL {
            let label = command.label();
            assert!(!label.trim().is_empty(), "{command:?} has no label");
            if command != UiCommand::CommandPalette {
                assert!(
                    matches(label).contains(&command),
                    "{command:?} ({label:?}) is not in the palette"
                );
            }
        }
        assert_eq!(matches("").len(), UiCommand::ALL.len() - 1);
    }
}
