//! [`Recorder`]: one edit being carried out, and how what it changes is recorded for undo.
//!
//! Every change goes through one of three doors, each taking a snapshot of what it may touch
//! before and after: [`Recorder::edit_tracks`] (some tracks of one clip, the cheapest, used by
//! key and handle edits), [`Recorder::edit_clip`] (one whole clip) and [`Recorder::edit_clips`]
//! (a document's clip list). Each change gives the document a new version. When the edit is
//! done, [`Recorder::finish`] pushes the changes as one [`UndoStep`]; an edit that changed
//! nothing leaves no step, and one refused halfway is rolled back ([`Recorder::roll_back`]).

use std::collections::BTreeSet;

use clipscope_core::model::Clip;

use crate::history::{DocChange, Snapshot, UndoStep};
use crate::{ClipId, EditError, Workspace};

/// One edit being carried out on a workspace: the changes it made so far.
pub(super) struct Recorder<'w> {
    /// The workspace being edited.
    pub(super) ws: &'w mut Workspace,
    /// What the edit changed, document by document, in order.
    changes: Vec<DocChange>,
}

impl<'w> Recorder<'w> {
    /// Starts an edit of `ws`.
    pub(super) fn new(ws: &'w mut Workspace) -> Recorder<'w> {
        Recorder {
            ws,
            changes: Vec::new(),
        }
    }

    /// Ends the edit: records its changes as one undo step called `label` (merged into the
    /// previous step when both belong to `gesture`). Nothing is recorded when nothing changed.
    pub(super) fn finish(self, label: &str, gesture: Option<u64>) {
        if !self.changes.is_empty() {
            self.ws.history.push(UndoStep {
                label: label.to_string(),
                changes: self.changes,
                gesture,
            });
        }
    }

    /// Abandons the edit: puts back everything it changed so far, newest first, and records
    /// nothing (an edit refused halfway, after some clips of its scope were done).
    pub(super) fn roll_back(self) {
        for change in self.changes.iter().rev() {
            self.ws.revert(change);
        }
    }

    /// The clip `id`, or the error that it is not there.
    pub(super) fn clip(&self, id: ClipId) -> Result<&Clip, EditError> {
        self.ws.clip(id).ok_or(EditError::NoSuchClip(id))
    }

    /// Edits one clip, recording the whole clip. When `f` fails, the clip stays as it was.
    pub(super) fn edit_clip(
        &mut self,
        id: ClipId,
        f: impl FnOnce(&mut Clip) -> Result<(), EditError>,
    ) -> Result<(), EditError> {
        let before = self.clip(id)?.clone();
        let mut after = before.clone();
        f(&mut after)?;
        self.replace_clip(id, before, after);
        Ok(())
    }

    /// Puts `after` in place of clip `id` (which is `before` now) and records the change.
    pub(super) fn replace_clip(&mut self, id: ClipId, before: Clip, after: Clip) {
        self.ws.documents[id.doc].doc.clips[id.clip] = after.clone();
        let snapshot = |clip| Snapshot::Clip {
            index: id.clip,
            clip: Box::new(clip),
        };
        self.record(id.doc, snapshot(before), snapshot(after));
    }

    /// Edits some tracks of one clip, recording only those tracks. When `f` fails, the tracks
    /// are put back as they were.
    pub(super) fn edit_tracks(
        &mut self,
        id: ClipId,
        tracks: impl IntoIterator<Item = usize>,
        f: impl FnOnce(&mut Clip) -> Result<(), EditError>,
    ) -> Result<(), EditError> {
        let indices: BTreeSet<usize> = tracks.into_iter().collect();
        let clip = self.clip(id)?;
        if let Some(&bad) = indices.iter().find(|&&t| t >= clip.tracks.len()) {
            return Err(EditError::TrackNotInClip {
                track: bad,
                clip: clip.name.clone(),
            });
        }
        let snapshot = |c: &Clip| Snapshot::Tracks {
            clip: id.clip,
            tracks: indices.iter().map(|&t| (t, c.tracks[t].clone())).collect(),
        };
        let before = snapshot(clip);
        let clips = &mut self.ws.documents[id.doc].doc.clips;
        if let Err(e) = f(&mut clips[id.clip]) {
            before.restore(clips);
            return Err(e);
        }
        let after = snapshot(&clips[id.clip]);
        self.record(id.doc, before, after);
        Ok(())
    }

    /// Edits a document's clip list, recording the whole list.
    pub(super) fn edit_clips(
        &mut self,
        doc: usize,
        f: impl FnOnce(&mut Vec<Clip>),
    ) -> Result<(), EditError> {
        let clips = &mut self
            .ws
            .documents
            .get_mut(doc)
            .ok_or(EditError::NoSuchDocument(doc))?
            .doc
            .clips;
        let before = Snapshot::Clips(clips.clone());
        f(clips);
        let after = Snapshot::Clips(clips.clone());
        self.record(doc, before, after);
        Ok(())
    }

    /// Records a change of document `doc` (already made) and gives the document a new version.
    fn record(&mut self, doc: usize, before: Snapshot, after: Snapshot) {
        let version_after = self.ws.next();
        let d = &mut self.ws.documents[doc];
        d.step(d.version, version_after, &after);
        self.changes.push(DocChange {
            doc_id: d.id,
            before,
            after,
            version_before: d.version,
            version_after,
        });
        d.version = version_after;
    }
}

#[cfg(test)]
mod tests {
    use super::Recorder;
    use crate::workspace::test_support::{CLIP, workspace};
    use crate::{ClipId, EditError};

    #[test]
    fn a_failed_track_edit_puts_the_tracks_back_and_records_nothing() {
        let mut ws = workspace();
        let original = ws.clip(CLIP).unwrap().clone();
        let version = ws.documents[0].version;
        let mut rec = Recorder::new(&mut ws);
        let result = rec.edit_tracks(CLIP, [0], |c| {
            c.tracks[0].times[0] = 9.0;
            Err(EditError::NoSuchTrack(0))
        });
        assert_eq!(result, Err(EditError::NoSuchTrack(0)));
        assert_eq!(
            rec.edit_tracks(CLIP, [7], |_| Ok(()))
                .map_err(|e| e.to_string()),
            Err("no track 7 in clip walk".into())
        );
        rec.finish("Nothing", None);
        assert_eq!(ws.clip(CLIP).unwrap(), &original);
        assert_eq!(ws.documents[0].version, version);
        assert!(ws.history.undo_label().is_none());
    }

    #[test]
    fn each_change_is_a_new_version_and_one_step_holds_them_all() {
        let mut ws = workspace();
        let mut rec = Recorder::new(&mut ws);
        rec.edit_clip(CLIP, |c| {
            c.name = "run".into();
            Ok(())
        })
        .unwrap();
        rec.edit_clips(0, |clips| clips.push(clips[0].clone()))
            .unwrap();
        assert_eq!(rec.edit_clips(3, |_| {}), Err(EditError::NoSuchDocument(3)));
        assert_eq!(
            rec.clip(ClipId { doc: 0, clip: 9 }).err(),
            Some(EditError::NoSuchClip(ClipId { doc: 0, clip: 9 }))
        );
        rec.finish("Both", None);
        assert_eq!(ws.documents[0].doc.clips.len(), 2);
        assert_eq!(ws.undo().as_deref(), Some("Both"));
        assert_eq!(ws.documents[0].doc.clips.len(), 1);
        assert_eq!(ws.documents[0].doc.clips[0].name, "walk");
        assert!(!ws.documents[0].is_dirty());
    }
}
