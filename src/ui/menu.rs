//! The menu bar: File, Edit, Clip, View and Help, each item a [`UiCommand`] with its shortcut,
//! plus the recent files; what the user picks is queued in the [`Outbox`].

use std::path::PathBuf;

use super::commands::UiCommand;
use super::outbox::{AppCommand, Outbox};

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
    /// Seconds between autosaves (0: only when the window loses focus).
    pub autosave_secs: u64,
    /// True while a document is compared with another version.
    pub comparing: bool,
}

/// The autosave intervals File › Autosave offers, in seconds (0: only on focus loss).
pub const AUTOSAVE_CHOICES: [(u64, &str); 5] = [
    (10, "Every 10 seconds"),
    (30, "Every 30 seconds"),
    (60, "Every minute"),
    (300, "Every 5 minutes"),
    (0, "Only when the window loses focus"),
];

/// Shows the menu bar; queues the command or recent file the user picked.
pub fn show(ui: &mut egui::Ui, view: &MenuView, out: &mut Outbox) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item(ui, UiCommand::Open, true, out);
            item(ui, UiCommand::OpenPath, true, out);
            ui.menu_button("Open recent", |ui| {
                if view.recent.is_empty() {
                    ui.weak("No recent files");
                }
                for p in view.recent {
                    if ui.button(p.display().to_string()).clicked() {
                        out.push(AppCommand::Open(p.clone()));
                        ui.close();
                    }
                }
            });
            ui.separator();
            item(ui, UiCommand::Save, view.has_clip, out);
            item(ui, UiCommand::SaveAs, view.has_clip, out);
            item(ui, UiCommand::ExportAs, view.has_clip, out);
            ui.separator();
            item(ui, UiCommand::CompareWithFile, view.has_clip, out);
            item(ui, UiCommand::CompareWithRevision, view.has_clip, out);
            if view.comparing {
                item(ui, UiCommand::StopComparing, true, out);
            }
            ui.menu_button("Autosave", |ui| {
                for (secs, label) in AUTOSAVE_CHOICES {
                    if ui.radio(view.autosave_secs == secs, label).clicked() {
                        out.push(AppCommand::SetAutosave(secs));
                        ui.close();
                    }
                }
            });
            ui.separator();
            item(ui, UiCommand::CloseDocument, view.has_clip, out);
            item(ui, UiCommand::Quit, true, out);
        });
        ui.menu_button("Edit", |ui| {
            let undo = view.undo.map_or("Undo".into(), |l| format!("Undo {l}"));
            labelled(ui, UiCommand::Undo, &undo, view.undo.is_some(), out);
            let redo = view.redo.map_or("Redo".into(), |l| format!("Redo {l}"));
            labelled(ui, UiCommand::Redo, &redo, view.redo.is_some(), out);
            ui.separator();
            item(ui, UiCommand::InsertKey, view.has_clip, out);
            item(ui, UiCommand::DeleteKeys, view.has_clip, out);
            ui.separator();
            for command in [
                UiCommand::CopyKeys,
                UiCommand::CutKeys,
                UiCommand::PasteKeys,
                UiCommand::PasteKeysRelative,
                UiCommand::DuplicateKeys,
            ] {
                item(ui, command, view.has_clip, out);
            }
            ui.separator();
            item(ui, UiCommand::SelectAllKeys, view.has_clip, out);
            item(ui, UiCommand::SelectColumn, view.has_clip, out);
            item(ui, UiCommand::SelectInPlayRange, view.has_clip, out);
            item(ui, UiCommand::ScaleKeys, view.has_clip, out);
            item(ui, UiCommand::SnapKeys, view.has_clip, out);
            item(ui, UiCommand::SmoothKeys, view.has_clip, out);
            ui.separator();
            item(ui, UiCommand::RenameTracks, view.has_clip, out);
            item(ui, UiCommand::DuplicateShownTracks, view.has_clip, out);
            item(ui, UiCommand::MuteShownTracks, view.has_clip, out);
            item(ui, UiCommand::DeleteShownTracks, view.has_clip, out);
        });
        ui.menu_button("Clip", |ui| {
            for command in [
                UiCommand::Optimize,
                UiCommand::Trim,
                UiCommand::ResetDuration,
                UiCommand::Validate,
            ] {
                item(ui, command, view.has_clip, out);
            }
            ui.separator();
            for command in [
                UiCommand::OptimizeAll,
                UiCommand::TrimAll,
                UiCommand::ResetDurationAll,
                UiCommand::ValidateAll,
            ] {
                item(ui, command, true, out);
            }
            ui.separator();
            for command in [
                UiCommand::SplitClip,
                UiCommand::Subclip,
                UiCommand::Retime,
                UiCommand::Resample,
                UiCommand::ReverseClip,
                UiCommand::MakeAdditive,
                UiCommand::MergeClips,
                UiCommand::UnrollQuaternions,
            ] {
                item(ui, command, view.has_clip, out);
            }
            item(ui, UiCommand::UnrollQuaternionsAll, true, out);
            item(ui, UiCommand::EulerFilter, view.has_clip, out);
            item(ui, UiCommand::Reduce, view.has_clip, out);
            ui.separator();
            item(ui, UiCommand::DuplicateClip, view.has_clip, out);
            item(ui, UiCommand::DeleteClip, view.has_clip, out);
        });
        ui.menu_button("View", |ui| {
            for command in [
                UiCommand::PlayPause,
                UiCommand::GoStart,
                UiCommand::GoEnd,
                UiCommand::SetPlayRange,
                UiCommand::ClearPlayRange,
                UiCommand::AddMarker,
                UiCommand::EditMarkers,
                UiCommand::NextMarker,
                UiCommand::PreviousMarker,
                UiCommand::FrameAll,
                UiCommand::FrameSelected,
                UiCommand::ToggleValidation,
                UiCommand::ToggleCycles,
                UiCommand::ToggleTheme,
            ] {
                item(ui, command, true, out);
            }
        });
        ui.menu_button("Help", |ui| {
            item(ui, UiCommand::CommandPalette, true, out);
        });
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let text = format!(
                "Commands  {}",
                UiCommand::CommandPalette.shortcut_text(ui.ctx())
            );
            if ui
                .button(text)
                .on_hover_text("Every command, with its shortcut")
                .clicked()
            {
                out.ui(UiCommand::CommandPalette);
            }
        });
    });
}

/// A menu item for `command` under its own label.
fn item(ui: &mut egui::Ui, command: UiCommand, enabled: bool, out: &mut Outbox) {
    labelled(ui, command, command.label(), enabled, out);
}

/// A menu item for `command` under `label`, with its shortcut.
fn labelled(ui: &mut egui::Ui, command: UiCommand, label: &str, enabled: bool, out: &mut Outbox) {
    let shortcut = command.shortcut_text(ui.ctx());
    let mut button = egui::Button::new(label);
    if !shortcut.is_empty() {
        button = button.shortcut_text(shortcut);
    }
    if ui.add_enabled(enabled, button).clicked() {
        out.ui(command);
        ui.close();
    }
}
