//! Carrying out what the Cycles panel queued: baking into the "baked cycles" document (an
//! undoable edit), and saving and loading presets.

use std::path::{Path, PathBuf};

use crate::ui::outbox::FileTarget;
use clipscope_core::formats::{Document, Format, ReadError, write_atomic};
use clipscope_editor::Edit;
use clipscope_scene::procedural::Preset;

use super::ClipscopeApp;

/// The title of the document baked cycles go into until it is saved.
const BAKED_TITLE: &str = "baked cycles";

impl ClipscopeApp {
    /// Asks where to save the Cycles panel's values as a preset (the file dialog then saves).
    pub(super) fn ask_where_to_save_preset(&mut self) {
        let cycle = self.cycles.cycle();
        let text = Preset::of(cycle, self.cycles.values()).to_json();
        let suggested = PathBuf::from(format!("{}.preset.json", cycle.id));
        self.files
            .ask(FileTarget::SavePreset(text), Some(&suggested));
    }

    /// Bakes the chosen cycle with the panel's values and settings and adds the clip to the
    /// baked-cycles document (made on first use), selecting it; one undo step.
    pub fn bake_cycle(&mut self) {
        let cycle = self.cycles.cycle();
        let baked = match cycle.bake(self.cycles.values(), &self.cycles.bake) {
            Ok(baked) => baked,
            Err(e) => {
                self.note(format!("bake: {e}"));
                return;
            }
        };
        let doc = match self.baked_doc.and_then(|id| self.ws.index_of(id)) {
            Some(i) => i,
            None => {
                let mut doc = Document::new(Format::ThreeJs, Vec::new());
                doc.path = None;
                let i = self.ws.add_named(doc, BAKED_TITLE);
                self.baked_doc = Some(self.ws.documents[i].id);
                i
            }
        };
        let summary = baked.summary();
        self.apply(Edit::AddClip {
            doc,
            clip: Box::new(baked.clip),
        });
        for jump in &baked.seam {
            self.note(format!("bake: warning: {}", jump.describe()));
        }
        self.note(format!("bake: {summary}"));
        // Show what was baked: the new clip (selected by the edit) in the viewport and the
        // curve editor.
        self.cycles.preview_in_viewport = false;
    }

    /// Writes a preset file atomically.
    pub(super) fn save_preset(&mut self, path: &Path, text: &str) {
        match write_atomic(path, text.as_bytes()) {
            Ok(()) => self.note(format!("saved preset {}", path.display())),
            Err(e) => self.error = Some(format!("{}: cannot write: {e}", path.display())),
        }
    }

    /// Reads a preset file and applies it (switching to its cycle).
    pub fn load_preset(&mut self, path: &Path) {
        let result = std::fs::read(path)
            .map_err(|e| ReadError::io(path, e).to_string())
            .and_then(|bytes| Preset::from_json(&bytes, path).map_err(|e| e.to_string()))
            .and_then(|preset| {
                if !self.cycles.choose(&preset.cycle) {
                    return Err(format!(
                        "{}: cycle: no built-in cycle {:?}",
                        path.display(),
                        preset.cycle
                    ));
                }
                preset
                    .values_for(self.cycles.cycle())
                    .map_err(|e| format!("{}: {e}", path.display()))
            });
        match result {
            Ok(values) => {
                self.cycles.set_values(values);
                self.note(format!("loaded preset {}", path.display()));
            }
            Err(e) => self.error = Some(e),
        }
    }
}
