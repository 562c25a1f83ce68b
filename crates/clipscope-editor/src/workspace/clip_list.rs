//! Edits of a document's clip list: add, duplicate, delete and replace clips, split a clip in
//! two, cut a subclip, merge clips. A new clip lands right after its source (or at the end)
//! and is selected.

use clipscope_core::model::Clip;
use clipscope_core::model::ops::{merge_clips, subclip};
use clipscope_core::text::thousands;

use super::Applied;
use super::recorder::Recorder;
use crate::{ClipId, EditError};

/// The clip right after `clip` in its document.
fn next_to(clip: ClipId) -> ClipId {
    ClipId {
        doc: clip.doc,
        clip: clip.clip + 1,
    }
}

impl Recorder<'_> {
    /// [`Edit::DuplicateClip`](crate::Edit::DuplicateClip): a copy named `<name> copy`.
    pub(super) fn duplicate_clip(&mut self, clip: ClipId) -> Result<Applied, EditError> {
        let copy = {
            let c = self.clip(clip)?;
            let mut copy = c.duplicate();
            copy.name = format!("{} copy", c.name);
            copy
        };
        self.edit_clips(clip.doc, |clips| clips.insert(clip.clip + 1, copy))?;
        Ok(Applied::selecting_clip(next_to(clip)))
    }

    /// [`Edit::AddClip`](crate::Edit::AddClip): appended to document `doc`.
    pub(super) fn add_clip(&mut self, doc: usize, clip: Clip) -> Result<Applied, EditError> {
        let index = self
            .ws
            .documents
            .get(doc)
            .ok_or(EditError::NoDocumentToAddTo(doc))?
            .doc
            .clips
            .len();
        self.edit_clips(doc, |clips| clips.push(clip))?;
        Ok(Applied::selecting_clip(ClipId { doc, clip: index }))
    }

    /// [`Edit::ReplaceClips`](crate::Edit::ReplaceClips): every clip is checked to be there
    /// before any is replaced.
    pub(super) fn replace_clips(
        &mut self,
        clips: Vec<(ClipId, Box<Clip>)>,
    ) -> Result<Applied, EditError> {
        if clips.iter().any(|(id, _)| self.ws.clip(*id).is_none()) {
            return Err(EditError::ReplacedClipGone);
        }
        for (id, clip) in clips {
            let before = self.clip(id)?.clone();
            self.replace_clip(id, before, *clip);
        }
        Ok(Applied::default())
    }

    /// [`Edit::DeleteClip`](crate::Edit::DeleteClip).
    pub(super) fn delete_clip(&mut self, clip: ClipId) -> Result<Applied, EditError> {
        self.clip(clip)?;
        self.edit_clips(clip.doc, |clips| {
            clips.remove(clip.clip);
        })?;
        Ok(Applied::default())
    }

    /// [`Edit::SplitClip`](crate::Edit::SplitClip): the tail, named `<name>.2`, goes right
    /// after the clip and is selected.
    pub(super) fn split_clip(&mut self, clip: ClipId, time: f64) -> Result<Applied, EditError> {
        let mut head = self.clip(clip)?.clone();
        let tail = head.split_at(time, format!("{}.2", head.name))?;
        let message = format!(
            "split {} at {time:.3} s into {} and {}",
            head.name, head.name, tail.name
        );
        self.edit_clips(clip.doc, |clips| {
            clips[clip.clip] = head;
            clips.insert(clip.clip + 1, tail);
        })?;
        Ok(Applied {
            message: Some(message),
            select_clip: Some(next_to(clip)),
            ..Applied::default()
        })
    }

    /// [`Edit::Subclip`](crate::Edit::Subclip) (the range is checked already): frames
    /// `[start, end)` at `fps` as a new clip after the source, or in place of it (`replace`).
    pub(super) fn subclip(
        &mut self,
        clip: ClipId,
        name: String,
        (start, end, fps): (f64, f64, f64),
        replace: bool,
    ) -> Result<Applied, EditError> {
        let sub = subclip(self.clip(clip)?, name, start, end, fps);
        if sub.tracks.is_empty() {
            return Err(EditError::SubclipEmpty { start, end, fps });
        }
        let mut applied = Applied::reporting(format!(
            "subclip {}: {} keys, {:.3} s",
            sub.name,
            thousands(sub.key_count()),
            sub.duration
        ));
        if replace {
            self.edit_clip(clip, |c| {
                *c = sub;
                Ok(())
            })?;
        } else {
            self.edit_clips(clip.doc, |clips| clips.insert(clip.clip + 1, sub))?;
            applied.select_clip = Some(next_to(clip));
        }
        Ok(applied)
    }

    /// [`Edit::MergeClips`](crate::Edit::MergeClips): the merged clip is appended to the
    /// document and selected.
    pub(super) fn merge_clips(
        &mut self,
        doc: usize,
        clips: &[usize],
        name: String,
    ) -> Result<Applied, EditError> {
        let all = &self
            .ws
            .documents
            .get(doc)
            .ok_or(EditError::NoSuchDocument(doc))?
            .doc
            .clips;
        if clips.len() < 2 {
            return Err(EditError::MergeTooFew);
        }
        let sources = clips
            .iter()
            .map(|&c| all.get(c).ok_or(EditError::NoClipToMerge(c)))
            .collect::<Result<Vec<&Clip>, EditError>>()?;
        let (merged, shared) = merge_clips(&sources, name);
        let message = format!(
            "merged {} clips into {}: {} tracks ({shared} shared)",
            clips.len(),
            merged.name,
            merged.tracks.len()
        );
        let index = all.len();
        self.edit_clips(doc, |list| list.push(merged))?;
        Ok(Applied {
            message: Some(message),
            select_clip: Some(ClipId { doc, clip: index }),
            ..Applied::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use clipscope_core::model::Clip;

    use crate::workspace::test_support::{CLIP, names, undoable, workspace};
    use crate::{ClipId, Edit};

    #[test]
    fn clip_list_edits_and_stale_ids() {
        let mut ws = workspace();
        let applied = ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        assert_eq!(applied.select_clip, Some(ClipId { doc: 0, clip: 1 }));
        assert_eq!(ws.documents[0].doc.clips[1].name, "walk copy");
        assert_ne!(
            ws.documents[0].doc.clips[1].uuid,
            ws.documents[0].doc.clips[0].uuid
        );
        ws.apply(Edit::RenameClip {
            clip: ClipId { doc: 0, clip: 1 },
            name: "run".into(),
        })
        .unwrap();
        ws.apply(Edit::DeleteClip { clip: CLIP }).unwrap();
        assert_eq!(ws.documents[0].doc.clips.len(), 1);
        assert_eq!(ws.documents[0].doc.clips[0].name, "run");
        assert!(
            ws.apply(Edit::DeleteClip {
                clip: ClipId { doc: 0, clip: 5 }
            })
            .is_err()
        );
        assert!(
            ws.apply(Edit::SetDuration {
                clip: CLIP,
                duration: f64::NAN
            })
            .is_err()
        );
        ws.undo();
        ws.undo();
        ws.undo();
        assert_eq!(ws.documents[0].doc.clips.len(), 1);
        assert_eq!(ws.documents[0].doc.clips[0].name, "walk");
    }

    #[test]
    fn adding_a_clip_selects_it_and_undo_takes_it_away() {
        let mut ws = workspace();
        let before = ws.documents[0].doc.clips.len();
        let clip = Clip::new("baked", 1.0, Vec::new());
        let applied = ws
            .apply(Edit::AddClip {
                doc: 0,
                clip: Box::new(clip.clone()),
            })
            .unwrap();
        assert_eq!(
            applied.select_clip,
            Some(ClipId {
                doc: 0,
                clip: before
            })
        );
        assert_eq!(ws.documents[0].doc.clips[before], clip);
        assert!(ws.documents[0].is_dirty());
        assert_eq!(ws.undo().as_deref(), Some("Add clip"));
        assert_eq!(ws.documents[0].doc.clips.len(), before);
        ws.redo();
        assert_eq!(ws.documents[0].doc.clips[before], clip);
        assert!(
            ws.apply(Edit::AddClip {
                doc: 9,
                clip: Box::new(clip)
            })
            .is_err()
        );
    }

    #[test]
    fn replacing_clips_is_one_undo_step() {
        let mut ws = workspace();
        let original = ws.documents[0].doc.clips.clone();
        let mut reduced = original.clone();
        for clip in &mut reduced {
            for track in &mut clip.tracks {
                track.optimize();
            }
            clip.name.push_str(" reduced");
        }
        let edit = Edit::ReplaceClips {
            label: "Reduce",
            clips: reduced
                .iter()
                .enumerate()
                .map(|(i, c)| (ClipId { doc: 0, clip: i }, Box::new(c.clone())))
                .collect(),
        };
        ws.apply(edit).unwrap();
        assert_eq!(ws.documents[0].doc.clips, reduced);
        assert!(ws.documents[0].is_dirty());
        assert_eq!(ws.undo().as_deref(), Some("Reduce"));
        assert_eq!(ws.documents[0].doc.clips, original);
        assert!(!ws.documents[0].is_dirty());
        let stale = Edit::ReplaceClips {
            label: "Reduce",
            clips: vec![(ClipId { doc: 0, clip: 99 }, Box::new(reduced[0].clone()))],
        };
        assert!(ws.apply(stale).is_err());
    }

    #[test]
    fn split_subclip_and_delete_tracks() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::SplitClip {
                clip: CLIP,
                time: 1.5,
            },
        );
        assert_eq!(names(&ws), ["walk", "walk.2"]);
        assert_eq!(applied.select_clip, Some(ClipId { doc: 0, clip: 1 }));
        let tail = &ws.documents[0].doc.clips[1];
        assert_eq!(tail.duration, 1.5);
        assert_eq!(tail.tracks[0].times, vec![0.0, 0.5, 1.5]);
        assert!(
            ws.apply(Edit::SplitClip {
                clip: CLIP,
                time: 9.0
            })
            .is_err()
        );

        let applied = undoable(
            &mut ws,
            Edit::Subclip {
                clip: CLIP,
                name: "first".into(),
                start: 0.0,
                end: 30.0,
                fps: 30.0,
                replace: false,
            },
        );
        assert_eq!(names(&ws), ["walk", "first", "walk.2"]);
        assert_eq!(
            applied.message.as_deref(),
            Some("subclip first: 2 keys, 0.000 s")
        );
        assert!(
            ws.apply(Edit::Subclip {
                clip: CLIP,
                name: "none".into(),
                start: 100.0,
                end: 200.0,
                fps: 30.0,
                replace: true,
            })
            .is_err()
        );
        undoable(
            &mut ws,
            Edit::DeleteTracks {
                clip: CLIP,
                tracks: vec![1, 1],
            },
        );
        assert_eq!(ws.clip(CLIP).unwrap().tracks.len(), 1);
    }

    #[test]
    fn merging_clips_adds_one() {
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let applied = undoable(
            &mut ws,
            Edit::MergeClips {
                doc: 0,
                clips: vec![0, 1],
                name: "both".into(),
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("merged 2 clips into both: 2 tracks (2 shared)")
        );
        assert_eq!(names(&ws), ["walk", "walk copy", "both"]);
        assert!(
            ws.apply(Edit::MergeClips {
                doc: 0,
                clips: vec![0],
                name: "one".into()
            })
            .is_err()
        );
    }
}
