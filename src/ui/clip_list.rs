//! The CLIPS panel: every clip of every open document, filterable, one selected.

use crate::formats::Document;

/// Shows the clip list; clicking a clip selects it.
pub fn show(
    ui: &mut egui::Ui,
    documents: &[Document],
    filter: &mut String,
    selected: &mut Option<(usize, usize)>,
) {
    ui.add_space(4.0);
    ui.strong("CLIPS");
    ui.add(egui::TextEdit::singleline(filter).hint_text("Filter clips"));
    ui.separator();
    let needle = filter.to_lowercase();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (d, doc) in documents.iter().enumerate() {
            let title = doc
                .path
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "untitled".into());
            ui.label(egui::RichText::new(title).weak().small());
            for (c, clip) in doc.clips.iter().enumerate() {
                if !needle.is_empty() && !clip.name.to_lowercase().contains(&needle) {
                    continue;
                }
                let name = if clip.name.is_empty() {
                    "(unnamed)"
                } else {
                    &clip.name
                };
                let text = format!(
                    "{name}   {:.2} s · {} tracks",
                    clip.duration,
                    clip.tracks.len()
                );
                if ui
                    .selectable_label(*selected == Some((d, c)), text)
                    .clicked()
                {
                    *selected = Some((d, c));
                }
            }
        }
    });
}
