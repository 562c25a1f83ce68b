//! The open documents and the one place where [`Edit`](crate::Edit)s change them.
//!
//! [`Workspace`] holds the [`OpenDocument`]s and the undo [`History`]. Opening, closing,
//! saving marks and undo/redo live here; [`Workspace::apply`] (in `apply.rs`) hands each edit
//! to the function for its kind, grouped by what it edits:
//!
//! * `scope_ops.rs`: whole-clip operations over a [`ClipScope`](crate::ClipScope) (optimize,
//!   trim, fix, retime, resample, reverse, rename tracks, …);
//! * `clip_edits.rs`: one clip's own properties (name, duration, blend mode, markers, additive);
//! * `clip_list.rs`: a document's clip list (add, duplicate, delete, replace, split, subclip,
//!   merge);
//! * `track_edits.rs`: whole tracks (delete, duplicate, mute);
//! * `key_edits.rs`: keys (move, set, insert, delete, paste);
//! * `key_transforms.rs`: transforms of selected keys (scale, snap to frames, smooth);
//! * `tangent_edits.rs`: handles and interpolation.
//!
//! Each goes through the [`Recorder`](recorder::Recorder) (`recorder.rs`), which snapshots what
//! the edit touches for undo.

mod applied;
mod apply;
mod by_track;
mod clip_edits;
mod clip_list;
mod document;
mod key_edits;
mod key_transforms;
mod recorder;
mod scope_ops;
mod smooth;
mod tangent_edits;
#[cfg(test)]
mod test_support;
mod track_edits;

use clipscope_core::formats::Document;
use clipscope_core::model::Clip;

use crate::history::DocChange;
use crate::{ClipId, History};

pub use applied::Applied;
pub use document::OpenDocument;
pub use smooth::smoothed_clip;

use document::file_name;

/// The open documents plus the undo history: the editor's model.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Open documents, in the order they were opened.
    pub documents: Vec<OpenDocument>,
    /// Undo and redo stacks.
    pub history: History,
    counter: u64,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// A number not handed out before: document ids and versions.
    fn next(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    /// Adds a loaded document (clean), named after its file, and returns its index.
    pub fn add(&mut self, doc: Document) -> usize {
        let name = doc
            .path
            .as_deref()
            .map(file_name)
            .unwrap_or_else(|| "untitled".into());
        self.add_named(doc, name)
    }

    /// Adds a document under a given name (the built-in demo, say) and returns its index.
    pub fn add_named(&mut self, doc: Document, name: impl Into<String>) -> usize {
        let id = self.next();
        let version = self.next();
        self.documents
            .push(OpenDocument::new(doc, id, name.into(), version));
        self.documents.len() - 1
    }

    /// Adds a document brought back from a recovery file: unsaved (dirty) from the start, with
    /// `edits` unsaved edits, named after its file. Returns its index.
    pub fn add_recovered(&mut self, doc: Document, name: impl Into<String>, edits: usize) -> usize {
        let index = self.add_named(doc, name);
        let version = self.next();
        let d = &mut self.documents[index];
        d.version = version;
        d.recovered_edits = edits.max(1);
        index
    }

    /// How many edits document `index` has that are not saved: the undo steps since its last
    /// save (or load) plus those recovered from a crashed session; 0 when it is clean.
    pub fn unsaved_edits(&self, index: usize) -> usize {
        let Some(d) = self.documents.get(index) else {
            return 0;
        };
        if !d.is_dirty() {
            return 0;
        }
        (d.recovered_edits + self.history.steps_after(d.id, d.saved_version)).max(1)
    }

    /// Replaces document `index` with a freshly loaded one (a reload): clean, its undo steps
    /// forgotten.
    pub fn replace(&mut self, index: usize, doc: Document) {
        let version = self.next();
        if let Some(d) = self.documents.get_mut(index) {
            self.history.forget_document(d.id);
            d.doc = doc;
            d.version = version;
            d.saved_version = version;
            d.recovered_edits = 0;
        }
    }

    /// The index of the open document read from `path`, if any (paths compared canonically).
    pub fn find_path(&self, path: &std::path::Path) -> Option<usize> {
        let want = std::fs::canonicalize(path).ok()?;
        self.documents.iter().position(|d| {
            d.doc
                .path
                .as_deref()
                .and_then(|p| std::fs::canonicalize(p).ok())
                .is_some_and(|p| p == want)
        })
    }

    /// The index of the document with stable id `id`.
    pub fn index_of(&self, id: u64) -> Option<usize> {
        self.documents.iter().position(|d| d.id == id)
    }

    /// Closes a document; its undo steps are forgotten.
    pub fn close(&mut self, index: usize) -> Option<OpenDocument> {
        if index >= self.documents.len() {
            return None;
        }
        let doc = self.documents.remove(index);
        self.history.forget_document(doc.id);
        Some(doc)
    }

    /// Marks a document as saved at its current version.
    pub fn mark_saved(&mut self, index: usize) {
        if let Some(d) = self.documents.get_mut(index) {
            d.saved_version = d.version;
            d.recovered_edits = 0;
        }
    }

    /// True when any document has unsaved edits.
    pub fn any_dirty(&self) -> bool {
        self.documents.iter().any(OpenDocument::is_dirty)
    }

    /// The clip `id`, if it exists.
    pub fn clip(&self, id: ClipId) -> Option<&Clip> {
        self.documents.get(id.doc)?.doc.clips.get(id.clip)
    }

    /// Every clip id, document by document.
    pub fn clip_ids(&self) -> Vec<ClipId> {
        self.documents
            .iter()
            .enumerate()
            .flat_map(|(doc, d)| (0..d.doc.clips.len()).map(move |clip| ClipId { doc, clip }))
            .collect()
    }

    /// Undoes the last edit; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let edit = self.history.take_undo()?;
        for change in edit.changes.iter().rev() {
            self.revert(change);
        }
        Some(edit.label)
    }

    /// Redoes the last undone edit; returns its label.
    pub fn redo(&mut self) -> Option<String> {
        let edit = self.history.take_redo()?;
        for change in &edit.changes {
            if let Some(d) = self.documents.iter_mut().find(|d| d.id == change.doc_id) {
                change.after.restore(&mut d.doc.clips);
                d.step(d.version, change.version_after, &change.after);
                d.version = change.version_after;
            }
        }
        Some(edit.label)
    }

    /// Puts back what `change` changed, with the document's version before it (undo, and an
    /// edit that failed halfway).
    fn revert(&mut self, change: &DocChange) {
        if let Some(d) = self.documents.iter_mut().find(|d| d.id == change.doc_id) {
            change.before.restore(&mut d.doc.clips);
            d.step(d.version, change.version_before, &change.before);
            d.version = change.version_before;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::workspace::test_support::{CLIP, workspace};
    use crate::{ClipScope, Edit};

    #[test]
    fn unsaved_edits_count_steps_since_the_save_and_recovered_ones() {
        let mut ws = workspace();
        assert_eq!(ws.unsaved_edits(0), 0);
        ws.apply(Edit::Optimize(ClipScope::All)).unwrap();
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        assert_eq!(ws.unsaved_edits(0), 2);
        ws.mark_saved(0);
        assert_eq!(ws.unsaved_edits(0), 0);
        ws.apply(Edit::SetDuration {
            clip: CLIP,
            duration: 2.0,
        })
        .unwrap();
        assert_eq!(ws.unsaved_edits(0), 1);
        let doc = ws.documents[0].doc.clone();
        let i = ws.add_recovered(doc, "walk.json", 7);
        assert!(ws.documents[i].is_dirty());
        assert_eq!(ws.unsaved_edits(i), 7);
        ws.mark_saved(i);
        assert_eq!(ws.unsaved_edits(i), 0);
    }

    #[test]
    fn closing_a_document_forgets_its_undo_steps() {
        let mut ws = workspace();
        ws.apply(Edit::Optimize(ClipScope::All)).unwrap();
        ws.close(0);
        assert!(ws.history.undo_label().is_none());
        assert!(ws.undo().is_none());
    }
}
