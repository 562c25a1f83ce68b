//! Application state: the open documents, the selection and the messages shown to the user.

use std::path::{Path, PathBuf};

use crate::assets;
use crate::formats::{self, Document};

use super::{clip_list, track_table};

/// The whole editor state.
pub struct ClipscopeApp {
    /// Open documents, in the order they were opened.
    pub documents: Vec<Document>,
    /// The selected `(document, clip)`.
    pub selected: Option<(usize, usize)>,
    /// Clip-list filter text.
    pub filter: String,
    /// The last load error, shown until dismissed (open documents are kept).
    pub error: Option<String>,
}

impl ClipscopeApp {
    /// Opens `files`, or the built-in demo when the list is empty. Files that fail to load are
    /// reported; the others stay open.
    pub fn open(files: &[PathBuf]) -> ClipscopeApp {
        let mut app = ClipscopeApp {
            documents: Vec::new(),
            selected: None,
            filter: String::new(),
            error: None,
        };
        if files.is_empty() {
            match formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME)) {
                Ok(doc) => app.documents.push(doc),
                Err(e) => app.error = Some(e.to_string()),
            }
        }
        for file in files {
            app.load(file);
        }
        if app.documents.iter().any(|d| !d.clips.is_empty()) {
            let doc = app
                .documents
                .iter()
                .position(|d| !d.clips.is_empty())
                .unwrap_or(0);
            app.selected = Some((doc, 0));
        }
        app
    }

    /// Loads one file; on failure the error is kept for display and nothing else changes.
    pub fn load(&mut self, path: &Path) {
        match formats::read_file(path) {
            Ok(doc) => {
                self.documents.push(doc);
                if self.selected.is_none()
                    && !self.documents.last().is_some_and(|d| d.clips.is_empty())
                {
                    self.selected = Some((self.documents.len() - 1, 0));
                }
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…").clicked() {
                    if let Some(paths) = rfd::FileDialog::new()
                        .add_filter("Animation clips", &["json"])
                        .pick_files()
                    {
                        for p in paths {
                            self.load(&p);
                        }
                    }
                    ui.close();
                }
            });
        });
    }
}

impl eframe::App for ClipscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

impl ClipscopeApp {
    /// Draws the whole window into `ui` (what eframe calls every frame; tests call it directly).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let dropped: Vec<PathBuf> = ui.ctx().input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        for path in dropped {
            self.load(&path);
        }
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        if let Some(error) = self.error.clone() {
            egui::Panel::bottom("error").show(ui, |ui| {
                // The button first, on the right, so a long message wraps instead of pushing
                // it out of the window.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Dismiss").clicked() {
                        self.error = None;
                    }
                    let text = egui::RichText::new(format!("Could not open: {error}"))
                        .color(ui.visuals().error_fg_color);
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(egui::Label::new(text).wrap());
                    });
                });
            });
        }
        egui::Panel::left("clips")
            .default_size(260.0)
            .show(ui, |ui| {
                clip_list::show(ui, &self.documents, &mut self.filter, &mut self.selected);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let clip = self
                .selected
                .and_then(|(d, c)| self.documents.get(d).and_then(|doc| doc.clips.get(c)));
            match clip {
                Some(clip) => track_table::show(ui, clip),
                None => {
                    ui.centered_and_justified(|ui| {
                        ui.label("Drop a clip file here or use File › Open…");
                    });
                }
            }
        });
    }
}
