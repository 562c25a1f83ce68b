//! The CLIPS panel: every clip of every open document, filterable, selectable, renamable in
//! place, with duplicate and delete in the context menu.

use clipscope_core::model::BlendMode;
use clipscope_editor::{ClipId, Edit, Workspace};

use super::commands::UiCommand;
use super::outbox::Outbox;
use super::selection::Selection;

/// The panel's own state.
#[derive(Debug, Default)]
pub struct ClipList {
    /// Filter text (case-insensitive substring of the clip name).
    pub filter: String,
    /// The clip being renamed and the text typed so far.
    pub renaming: Option<(ClipId, String)>,
    /// The rename field has been given the keyboard focus.
    focused: bool,
}

/// Shows the clip list: click selects, double-click (or F2) renames, right-click for more.
pub fn show(
    ui: &mut egui::Ui,
    ws: &Workspace,
    state: &mut ClipList,
    selection: &mut Selection,
    out: &mut Outbox,
) {
    ui.horizontal(|ui| {
        ui.strong("CLIPS");
        ui.add(
            egui::TextEdit::singleline(&mut state.filter)
                .hint_text("Filter clips")
                .desired_width(f32::INFINITY),
        );
    });
    let needle = state.filter.to_lowercase();
    egui::ScrollArea::vertical()
        .id_salt("clip list")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if ws.documents.is_empty() {
                ui.weak("No files open.");
            }
            for (d, open) in ws.documents.iter().enumerate() {
                let dirty = if open.is_dirty() { " (unsaved)" } else { "" };
                ui.label(
                    egui::RichText::new(format!("{}{dirty}", open.title()))
                        .weak()
                        .small(),
                )
                .on_hover_text(
                    open.doc
                        .path
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| "not saved yet".into()),
                );
                if open.doc.clips.is_empty() {
                    ui.weak("  (no clips)");
                }
                if !open.doc.unread.is_empty() {
                    let lines: Vec<String> = open.doc.unread.iter().map(|u| u.describe()).collect();
                    ui.label(
                        egui::RichText::new(format!(
                            "  {} place(s) of keyframes not read",
                            open.doc.unread.len()
                        ))
                        .small()
                        .color(ui.visuals().warn_fg_color),
                    )
                    .on_hover_text(format!(
                        "Keyframe data in a shape clipscope does not read (not shown, checked \
                         or converted):\n{}",
                        lines.join("\n")
                    ));
                }
                for (c, clip) in open.doc.clips.iter().enumerate() {
                    if !needle.is_empty() && !clip.name.to_lowercase().contains(&needle) {
                        continue;
                    }
                    let id = ClipId { doc: d, clip: c };
                    if let Some((rid, text)) = &mut state.renaming
                        && *rid == id
                    {
                        let r = ui
                            .horizontal(|ui| {
                                let label = ui.weak("Rename");
                                ui.add(
                                    egui::TextEdit::singleline(text).desired_width(f32::INFINITY),
                                )
                                .labelled_by(label.id)
                            })
                            .inner;
                        if !state.focused {
                            r.request_focus();
                            state.focused = true;
                        } else if !r.has_focus() {
                            if !ui.input(|i| i.key_pressed(egui::Key::Escape)) && *text != clip.name
                            {
                                out.edit(Edit::RenameClip {
                                    clip: id,
                                    name: text.clone(),
                                });
                            }
                            state.renaming = None;
                            state.focused = false;
                        }
                        continue;
                    }
                    let name = if clip.name.is_empty() {
                        "(unnamed)"
                    } else {
                        &clip.name
                    };
                    let blend = match clip.blend_mode {
                        BlendMode::Normal => "",
                        BlendMode::Additive => " · additive",
                    };
                    let unread = open.doc.unread.iter().any(|u| u.clip == Some(c));
                    let text = match (clip.tracks.len(), unread) {
                        (0, true) => format!("{name}   no tracks read (keyframes not read)"),
                        (0, false) => format!("{name}   no tracks"),
                        (n, _) => format!("{name}   {:.2} s · {n} tracks{blend}", clip.duration),
                    };
                    let selected = selection.clip == Some(id);
                    let r = ui.selectable_label(selected, text);
                    if r.clicked() {
                        selection.select_clip(id, clip);
                    }
                    if r.double_clicked()
                        || (selected && ui.input(|i| i.key_pressed(egui::Key::F2)))
                    {
                        state.renaming = Some((id, clip.name.clone()));
                    }
                    r.context_menu(|ui| {
                        selection.select_clip(id, clip);
                        if ui.button("Rename").clicked() {
                            state.renaming = Some((id, clip.name.clone()));
                            ui.close();
                        }
                        for command in [
                            UiCommand::DuplicateClip,
                            UiCommand::DeleteClip,
                            UiCommand::Optimize,
                            UiCommand::Trim,
                            UiCommand::ResetDuration,
                            UiCommand::Validate,
                        ] {
                            if ui.button(command.label()).clicked() {
                                out.ui(command);
                                ui.close();
                            }
                        }
                    });
                }
            }
        });
}
