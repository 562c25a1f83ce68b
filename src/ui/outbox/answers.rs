//! The user's answers to the editor's own questions (a file changed on disk under unsaved
//! edits, the crash-recovery offer), carried to the app as [`AppCommand`](super::AppCommand)s.

/// What to do with a file that changed on disk while its open document has unsaved edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangedAnswer {
    /// Replace the open document with the file's new version (the edits are lost).
    Reload,
    /// Keep the open document and its edits (a save replaces the new version).
    KeepMine,
    /// Keep the open document and open the new version beside it, as another document.
    OpenBeside,
}

/// What the user decided about the crash-recovery offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryAnswer {
    /// Open these entries (indices into the offer) as unsaved documents.
    Restore(Vec<usize>),
    /// Delete these entries.
    Discard(Vec<usize>),
    /// Keep everything for the next start.
    Later,
}
