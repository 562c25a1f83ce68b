//! Comparing an open document with another version of it: starting a comparison (File ›
//! Compare with…, `clipscope open FILE --against REV`, `git difftool`), keeping its diff in
//! step with edits, the Compare tab's change list, and jumping to a change.

use std::path::{Path, PathBuf};

use clipscope_core::formats;
use clipscope_editor::ClipId;

use crate::cli::git::revision;
use crate::ui::compare::{self, Comparison};
use crate::ui::outbox::Outbox;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Compares `file` with `against` (another file, or a git revision of `file`) once `file`
    /// has been opened: what `clipscope open FILE --against REV` asks for.
    pub fn compare_on_open(mut self, file: &Path, against: &str) -> ClipscopeApp {
        self.compare_on_open = Some((file.to_path_buf(), against.to_string()));
        self
    }

    /// Starts the comparison asked for at start once its file is open (its load failing drops
    /// it).
    pub(super) fn start_comparison_on_open(&mut self) {
        let Some((file, against)) = &self.compare_on_open else {
            return;
        };
        let wanted = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        let found = self.ws.documents.iter().position(|d| {
            d.doc.path.as_deref().is_some_and(|p| {
                std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p)) == wanted
            })
        });
        match found {
            Some(i) => {
                let against = against.clone();
                self.compare_on_open = None;
                self.compare_document(i, &against);
            }
            None if self.files.loads.is_empty() => self.compare_on_open = None,
            None => {}
        }
    }

    /// Compares the selected clip's document with `against`: another file, else a git revision
    /// of the document's file. A version that cannot be read leaves the error in the status
    /// bar.
    pub fn compare_with(&mut self, against: &str) {
        if let Some(i) = self.selected_doc() {
            self.compare_document(i, against);
        }
    }

    /// Compares document `index` with `against` (see [`ClipscopeApp::compare_with`]) and shows
    /// the Compare tab.
    pub(super) fn compare_document(&mut self, index: usize, against: &str) {
        let d = &self.ws.documents[index];
        let file = d
            .doc
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from(d.title()));
        let other = match revision::read(&file, against.trim()) {
            Ok(other) => other,
            Err(e) => {
                self.error = Some(format!("compare: {e}"));
                return;
            }
        };
        let doc =
            match formats::read_bytes_with(&other.bytes, &other.path, &self.files.read_options) {
                Ok(doc) => doc,
                Err(e) => {
                    self.error = Some(format!("compare: {}: {e}", other.label));
                    return;
                }
            };
        let comparison = Comparison::new(d, other.label, doc);
        let changed: usize = comparison.diff.clips.iter().map(|c| c.tracks.len()).sum();
        self.note(format!(
            "compare with {}: {} clip(s) and {changed} track(s) changed",
            comparison.label,
            comparison.diff.clips.len()
        ));
        // Show the first change.
        let first = comparison.diff.clips.iter().find_map(|c| {
            let clip = c.index.new?;
            let track = c.tracks.iter().find_map(|t| t.index.new);
            let time = c
                .tracks
                .iter()
                .find_map(|t| t.largest.as_ref().map(|l| l.time as f64));
            Some((clip, track, time))
        });
        self.comparison = Some(comparison);
        self.right_tab = RightTab::Compare;
        if let Some((clip, track, time)) = first {
            self.show_change(ClipId { doc: index, clip }, track, time);
        }
    }

    /// Ends the comparison.
    pub(super) fn stop_comparing(&mut self) {
        self.comparison = None;
        if self.right_tab == RightTab::Compare {
            self.right_tab = RightTab::Inspector;
        }
    }

    /// Selects `clip`, shows only `track` (framed) and stops the playhead at `time`.
    pub(super) fn show_change(&mut self, clip: ClipId, track: Option<usize>, time: Option<f64>) {
        let Some(c) = self.ws.clip(clip) else {
            return;
        };
        self.selection.select_clip(clip, c);
        if let Some(t) = track.filter(|&t| t < c.tracks.len()) {
            self.selection.tracks = [t].into();
            self.selection.hidden.clear();
            self.selection.keys.clear();
            self.curves.frame_all();
        }
        if let Some(time) = time {
            self.transport.playing = false;
            self.transport.time = time;
        }
    }

    /// Makes the diff again after the compared document changed; ends the comparison when the
    /// document was closed.
    pub(super) fn keep_comparison_current(&mut self) {
        let Some(c) = &mut self.comparison else {
            return;
        };
        match self.ws.index_of(c.doc_id) {
            Some(i) => {
                c.refresh(&self.ws.documents[i]);
            }
            None => self.stop_comparing(),
        }
    }

    /// The Compare tab: the change list of the compared document.
    pub(super) fn compare_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let Some(c) = &self.comparison else {
            ui.weak("Nothing is compared. File › Compare with… shows another version's changes.");
            return;
        };
        let Some(doc) = self.ws.index_of(c.doc_id) else {
            return;
        };
        let selected = self
            .selection
            .clip
            .filter(|id| id.doc == doc)
            .map(|id| (id, &self.selection.tracks));
        compare::show(ui, c, doc, selected, out);
    }
}
