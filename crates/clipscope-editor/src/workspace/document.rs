//! [`OpenDocument`]: a document open in the editor, with its versions and dirty state.
//!
//! Every edit, undo and redo gives the touched document a new version; the version that was
//! last saved tells whether it is dirty. A document also remembers what its last few version
//! changes touched ([`OpenDocument::tracks_changed_since`]), so views that cache per track can
//! follow an edit without rebuilding everything.

use std::collections::{BTreeSet, VecDeque};

use clipscope_core::formats::{Document, FileStamp};

use crate::history::Snapshot;

/// A document open in the editor, with its dirty state.
#[derive(Debug, Clone)]
pub struct OpenDocument {
    /// The clips and where they came from.
    pub doc: Document,
    /// A stable id (indices shift when documents close; undo records use this).
    pub id: u64,
    /// The name shown for it: the file name, or a given name for documents without a file.
    pub name: String,
    /// Changes with every edit, undo and redo.
    pub version: u64,
    /// The version that was last saved (or loaded).
    pub saved_version: u64,
    /// The file as it was on disk when last read or written ([`FileStamp::of`] its path): a
    /// save over a file whose stamp changed since asks first, and the file watcher reloads
    /// only files that really changed.
    pub disk: Option<FileStamp>,
    /// Unsaved edits brought back from a crashed session's recovery file (added to the count
    /// [`Workspace::unsaved_edits`](crate::Workspace::unsaved_edits) reports).
    pub recovered_edits: usize,
    /// The last version changes and what each touched, newest last (at most [`STEPS_KEPT`]),
    /// so views can follow an edit in pieces ([`OpenDocument::tracks_changed_since`]).
    steps: VecDeque<VersionStep>,
}

/// How many version changes a document remembers what they touched.
const STEPS_KEPT: usize = 64;

/// One change of a document's version and what it touched.
#[derive(Debug, Clone, PartialEq)]
struct VersionStep {
    from: u64,
    to: u64,
    touched: Touched,
}

/// What a version change touched.
#[derive(Debug, Clone, PartialEq)]
enum Touched {
    /// These tracks of one clip (by index), nothing else.
    Tracks(usize, Vec<usize>),
    /// More than tracks (a whole clip, the clip list).
    More,
}

impl Touched {
    fn of(snapshot: &Snapshot) -> Touched {
        match snapshot {
            Snapshot::Tracks { clip, tracks } => {
                Touched::Tracks(*clip, tracks.iter().map(|(t, _)| *t).collect())
            }
            _ => Touched::More,
        }
    }
}

impl OpenDocument {
    /// A clean document at `version`, with stable id `id`, shown as `name`.
    pub(super) fn new(doc: Document, id: u64, name: String, version: u64) -> OpenDocument {
        OpenDocument {
            doc,
            id,
            name,
            version,
            saved_version: version,
            disk: None,
            recovered_edits: 0,
            steps: VecDeque::new(),
        }
    }

    /// The tracks of clip `clip` whose keys changed between `version` and the document's
    /// version, when every change since was to tracks only (keys moved, added, deleted,
    /// retimed; no clip added, removed or renamed): an empty set when nothing of `clip` changed.
    /// `None` when the document cannot say (a structural change, or too long ago).
    pub fn tracks_changed_since(&self, version: u64, clip: usize) -> Option<BTreeSet<usize>> {
        let mut out = BTreeSet::new();
        let mut at = self.version;
        // Back through time: each step found must be older than the one before it.
        let mut before = self.steps.len();
        while at != version {
            let i = self.steps.range(..before).rposition(|s| s.to == at)?;
            let step = &self.steps[i];
            match &step.touched {
                Touched::Tracks(c, tracks) if *c == clip => out.extend(tracks),
                Touched::Tracks(..) => {}
                Touched::More => return None,
            }
            at = step.from;
            before = i;
        }
        Some(out)
    }

    /// Notes that the version went `from` → `to`, touching what `snapshot` holds.
    pub(super) fn step(&mut self, from: u64, to: u64, snapshot: &Snapshot) {
        if self.steps.len() == STEPS_KEPT {
            self.steps.pop_front();
        }
        self.steps.push_back(VersionStep {
            from,
            to,
            touched: Touched::of(snapshot),
        });
    }

    /// True when the document has edits that are not saved.
    pub fn is_dirty(&self) -> bool {
        self.version != self.saved_version
    }

    /// A short name for lists and dialogs.
    pub fn title(&self) -> &str {
        &self.name
    }

    /// Points the document at a new file (after Save As), renaming it after the file.
    pub fn set_path(&mut self, path: &std::path::Path) {
        self.doc.path = Some(path.to_path_buf());
        self.name = file_name(path);
    }
}

/// The last component of `path`, for display.
pub(super) fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::workspace::test_support::{CLIP, key, workspace};
    use crate::{Edit, OpenDocument, Workspace};

    #[test]
    fn documents_say_which_tracks_changed_since_a_version() {
        let mut ws = workspace();
        let start = ws.documents[0].version;
        fn doc(ws: &Workspace) -> &OpenDocument {
            &ws.documents[0]
        }
        assert_eq!(
            doc(&ws).tracks_changed_since(start, 0),
            Some(BTreeSet::new())
        );
        let nudge = |ws: &mut Workspace, track: usize| {
            ws.apply(Edit::MoveKeys {
                clip: CLIP,
                keys: vec![key(track, 1, 0)],
                dt: 0.0,
                dv: 0.25,
                gesture: Some(3),
            })
            .unwrap();
        };
        nudge(&mut ws, 1);
        let one = doc(&ws).version;
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([1].into()));
        nudge(&mut ws, 0);
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([0, 1].into()));
        assert_eq!(doc(&ws).tracks_changed_since(one, 0), Some([0].into()));
        // Another clip's tracks changed nothing of this one.
        assert_eq!(doc(&ws).tracks_changed_since(one, 5), Some(BTreeSet::new()));
        // Undo (of the last edit, on track 0) is a change of tracks too.
        let before_undo = doc(&ws).version;
        ws.undo();
        assert_eq!(doc(&ws).version, one);
        assert_eq!(
            doc(&ws).tracks_changed_since(before_undo, 0),
            Some([0].into())
        );
        // Track 0 changed and changed back: still reported (a superset is safe).
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([0, 1].into()));
        // A renamed clip is more than tracks; an unknown version cannot be followed.
        let renamed_from = doc(&ws).version;
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        assert_eq!(doc(&ws).tracks_changed_since(renamed_from, 0), None);
        assert_eq!(doc(&ws).tracks_changed_since(u64::MAX, 0), None);
    }
}
