//! Undo and redo: a stack of [`UndoStep`]s, each holding snapshots of what its edit changed.
//!
//! A step stores the touched state before and after (a few tracks, one clip, or a document's
//! whole clip list), so undo and redo are plain copies and need no inverse of each operation.
//! Snapshots name documents by their stable id, not their index, so closing a document only
//! makes its own edits unreachable.

use clipscope_core::model::{Clip, Track};

/// A copy of part of a document's clips.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Snapshot {
    /// Some tracks of one clip, by index.
    Tracks {
        /// Clip index.
        clip: usize,
        /// `(track index, track)` pairs.
        tracks: Vec<(usize, Track)>,
    },
    /// One clip, by index.
    Clip {
        /// Clip index.
        index: usize,
        /// The clip.
        clip: Box<Clip>,
    },
    /// The document's whole clip list.
    Clips(Vec<Clip>),
}

impl Snapshot {
    /// Writes the snapshot back into `clips`; false when it no longer fits (indices gone).
    pub(crate) fn restore(&self, clips: &mut Vec<Clip>) -> bool {
        match self {
            Snapshot::Tracks { clip, tracks } => {
                let Some(c) = clips.get_mut(*clip) else {
                    return false;
                };
                if tracks.iter().any(|(i, _)| *i >= c.tracks.len()) {
                    return false;
                }
                for (i, t) in tracks {
                    c.tracks[*i] = t.clone();
                }
                true
            }
            Snapshot::Clip { index, clip } => match clips.get_mut(*index) {
                Some(c) => {
                    *c = (**clip).clone();
                    true
                }
                None => false,
            },
            Snapshot::Clips(all) => {
                *clips = all.clone();
                true
            }
        }
    }
}

/// What one edit did to one document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DocChange {
    /// The document's stable id ([`OpenDocument::id`](crate::OpenDocument::id)).
    pub doc_id: u64,
    /// State before the edit.
    pub before: Snapshot,
    /// State after the edit.
    pub after: Snapshot,
    /// The document's version before the edit (restored by undo, for the dirty mark).
    pub version_before: u64,
    /// The document's version after the edit.
    pub version_after: u64,
}

/// One undoable step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UndoStep {
    /// What the undo menu shows ("Optimize").
    pub label: String,
    /// The documents it changed.
    pub changes: Vec<DocChange>,
    /// The drag gesture it belongs to, if any: later edits of the same gesture merge into it.
    pub gesture: Option<u64>,
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<UndoStep>,
    redo: Vec<UndoStep>,
}

/// Most edits kept; older ones are forgotten.
const LIMIT: usize = 500;

impl History {
    /// Records a new edit and clears the redo stack. An edit of the same gesture as the
    /// previous one merges into it (keeping the earlier "before").
    pub(crate) fn push(&mut self, edit: UndoStep) {
        self.redo.clear();
        if let (Some(g), Some(top)) = (edit.gesture, self.undo.last_mut())
            && top.gesture == Some(g)
            && same_targets(top, &edit)
        {
            for (old, new) in top.changes.iter_mut().zip(edit.changes) {
                old.after = new.after;
                old.version_after = new.version_after;
            }
            return;
        }
        self.undo.push(edit);
        if self.undo.len() > LIMIT {
            self.undo.remove(0);
        }
    }

    /// Takes the edit to undo, moving it to the redo stack.
    pub(crate) fn take_undo(&mut self) -> Option<UndoStep> {
        let edit = self.undo.pop()?;
        self.redo.push(edit.clone());
        Some(edit)
    }

    /// Takes the edit to redo, moving it back to the undo stack.
    pub(crate) fn take_redo(&mut self) -> Option<UndoStep> {
        let edit = self.redo.pop()?;
        self.undo.push(edit.clone());
        Some(edit)
    }

    /// The label of the edit that undo would revert.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|e| e.label.as_str())
    }

    /// The label of the edit that redo would repeat.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|e| e.label.as_str())
    }

    /// The gesture of the edit that undo would revert, if it belongs to one.
    pub fn undo_gesture(&self) -> Option<u64> {
        self.undo.last().and_then(|e| e.gesture)
    }

    /// Drops the redo stack (after a cancelled drag, which is not something to redo).
    pub fn forget_redo(&mut self) {
        self.redo.clear();
    }

    /// How many undoable steps changed document `doc_id` to a version after `version` (the
    /// edits since a save at `version`).
    pub(crate) fn steps_after(&self, doc_id: u64, version: u64) -> usize {
        self.undo
            .iter()
            .filter(|e| {
                e.changes
                    .iter()
                    .any(|c| c.doc_id == doc_id && c.version_after > version)
            })
            .count()
    }

    /// Forgets every edit of a closed document.
    pub(crate) fn forget_document(&mut self, doc_id: u64) {
        for stack in [&mut self.undo, &mut self.redo] {
            stack.retain(|e| e.changes.iter().all(|c| c.doc_id != doc_id));
        }
    }
}

/// True when two edits touch the same documents with the same kind of snapshot.
fn same_targets(a: &UndoStep, b: &UndoStep) -> bool {
    a.changes.len() == b.changes.len()
        && a.changes.iter().zip(&b.changes).all(|(x, y)| {
            x.doc_id == y.doc_id
                && match (&x.after, &y.after) {
                    (
                        Snapshot::Tracks {
                            clip: c1,
                            tracks: t1,
                        },
                        Snapshot::Tracks {
                            clip: c2,
                            tracks: t2,
                        },
                    ) => c1 == c2 && t1.iter().map(|t| t.0).eq(t2.iter().map(|t| t.0)),
                    (Snapshot::Clip { index: i1, .. }, Snapshot::Clip { index: i2, .. }) => {
                        i1 == i2
                    }
                    _ => false,
                }
        })
}
