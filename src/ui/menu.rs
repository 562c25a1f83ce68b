//! The menu bar: File, Edit, Clip, View and Help, each item an [`Action`] with its shortcut.

use std::path::PathBuf;

use super::actions::{Action, Outbox};

/// What the menu needs to know to label its items.
pub struct MenuView<'a> {
    /// The undo step's label, if any.
    pub undo: Option<&'a str>,
    /// The redo step's label, if any.
    pub redo: Option<&'a str>,
    /// Recent files, newest first.
    pub recent: &'a [PathBuf],
    /// True when a clip is selected.
    pub has_clip: bool,
}

/// Shows the menu bar; returns a recent file the user picked, if any.
pub fn show(ui: &mut egui::Ui, view: &MenuView, out: &mut Outbox) -> Option<PathBuf> {
    let mut recent = None;
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item(ui, Action::Open, true, out);
            item(ui, Action::OpenPath, true, out);
            ui.menu_button("Open recent", |ui| {
                if view.recent.is_empty() {
                    ui.weak("No recent files");
                }
                for p in view.recent {
                    if ui.button(p.display().to_string()).clicked() {
                        recent = Some(p.clone());
                        ui.close();
                    }
                }
            });
            ui.separator();
            item(ui, Action::Save, view.has_clip, out);
            item(ui, Action::SaveAs, view.has_clip, out);
            item(ui, Action::ExportAs, view.has_clip, out);
            ui.separator();
            item(ui, Action::CloseDocument, view.has_clip, out);
            item(ui, Action::Quit, true, out);
        });
        ui.menu_button("Edit", |ui| {
            let undo = view.undo.map_or("Undo".into(), |l| format!("Undo {l}"));
            labelled(ui, Action::Undo, &undo, view.undo.is_some(), out);
            let redo = view.redo.map_or("Redo".into(), |l| format!("Redo {l}"));
            labelled(ui, Action::Redo, &redo, view.redo.is_some(), out);
            ui.separator();
            item(ui, Action::InsertKey, view.has_clip, out);
            item(ui, Action::DeleteKeys, view.has_clip, out);
        });
        ui.menu_button("Clip", |ui| {
            for a in [
                Action::Optimize,
                Action::Trim,
                Action::ResetDuration,
                Action::Validate,
            ] {
                item(ui, a, view.has_clip, out);
            }
            ui.separator();
            for a in [
                Action::OptimizeAll,
                Action::TrimAll,
                Action::ResetDurationAll,
                Action::ValidateAll,
            ] {
                item(ui, a, true, out);
            }
            ui.separator();
            item(ui, Action::DuplicateClip, view.has_clip, out);
            item(ui, Action::DeleteClip, view.has_clip, out);
        });
        ui.menu_button("View", |ui| {
            for a in [
                Action::PlayPause,
                Action::GoStart,
                Action::GoEnd,
                Action::FrameAll,
                Action::FrameSelected,
                Action::ToggleValidation,
                Action::ToggleCycles,
                Action::ToggleTheme,
            ] {
                item(ui, a, true, out);
            }
        });
        ui.menu_button("Help", |ui| {
            item(ui, Action::CommandPalette, true, out);
        });
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let text = format!(
                "Commands  {}",
                Action::CommandPalette.shortcut_text(ui.ctx())
            );
            if ui
                .button(text)
                .on_hover_text("Every command, with its shortcut")
                .clicked()
            {
                out.action(Action::CommandPalette);
            }
        });
    });
    recent
}

fn item(ui: &mut egui::Ui, action: Action, enabled: bool, out: &mut Outbox) {
    labelled(ui, action, action.label(), enabled, out);
}

fn labelled(ui: &mut egui::Ui, action: Action, label: &str, enabled: bool, out: &mut Outbox) {
    let shortcut = action.shortcut_text(ui.ctx());
    let mut button = egui::Button::new(label);
    if !shortcut.is_empty() {
        button = button.shortcut_text(shortcut);
    }
    if ui.add_enabled(enabled, button).clicked() {
        out.action(action);
        ui.close();
    }
}
