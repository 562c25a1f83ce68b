//! Edits of whole tracks of a clip: delete, duplicate (the copies are selected), mute and
//! unmute.

use super::Applied;
use super::recorder::Recorder;
use crate::{ClipId, EditError};

impl Recorder<'_> {
    /// The first of `tracks` that clip `clip` does not have, as the error that there is no
    /// such track to `action`.
    fn check_tracks(
        &self,
        clip: ClipId,
        tracks: &[usize],
        action: &'static str,
    ) -> Result<(), EditError> {
        let n = self.clip(clip)?.tracks.len();
        match tracks.iter().find(|&&t| t >= n) {
            Some(&track) => Err(EditError::NoTrack { track, action }),
            None => Ok(()),
        }
    }

    /// [`Edit::DeleteTracks`](crate::Edit::DeleteTracks): each track once, whatever the list
    /// repeats.
    pub(super) fn delete_tracks(
        &mut self,
        clip: ClipId,
        mut tracks: Vec<usize>,
    ) -> Result<Applied, EditError> {
        tracks.sort_unstable();
        tracks.dedup();
        self.check_tracks(clip, &tracks, "delete")?;
        self.edit_clip(clip, |c| {
            for &t in tracks.iter().rev() {
                c.tracks.remove(t);
            }
            Ok(())
        })?;
        Ok(Applied::reporting(format!(
            "deleted {} track(s)",
            tracks.len()
        )))
    }

    /// [`Edit::DuplicateTracks`](crate::Edit::DuplicateTracks): the copies are selected.
    pub(super) fn duplicate_tracks(
        &mut self,
        clip: ClipId,
        tracks: &[usize],
    ) -> Result<Applied, EditError> {
        self.clip(clip)?;
        if tracks.is_empty() {
            return Err(EditError::NoTracksToDuplicate);
        }
        self.check_tracks(clip, tracks, "duplicate")?;
        let mut added = Vec::new();
        self.edit_clip(clip, |c| {
            added = c.duplicate_tracks(tracks);
            Ok(())
        })?;
        Ok(Applied {
            message: Some(format!("duplicated {} track(s)", added.len())),
            select_tracks: added,
            ..Applied::default()
        })
    }

    /// [`Edit::MuteTracks`](crate::Edit::MuteTracks): refused when it would change nothing.
    pub(super) fn mute_tracks(
        &mut self,
        clip: ClipId,
        tracks: &[usize],
        muted: bool,
    ) -> Result<Applied, EditError> {
        self.check_tracks(clip, tracks, "mute")?;
        let c = self.clip(clip)?;
        if tracks.iter().all(|&t| c.tracks[t].muted == muted) {
            return Err(EditError::MuteUnchanged { muted });
        }
        let mut changed = 0;
        self.edit_tracks(clip, tracks.iter().copied(), |c| {
            changed = c.set_tracks_muted(tracks, muted);
            Ok(())
        })?;
        Ok(Applied::reporting(format!(
            "{} {changed} track(s)",
            if muted { "muted" } else { "unmuted" }
        )))
    }
}

#[cfg(test)]
mod tests {
    use crate::Edit;
    use crate::workspace::test_support::{CLIP, undoable, workspace};

    #[test]
    fn duplicating_and_muting_tracks_are_one_step_each() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::DuplicateTracks {
                clip: CLIP,
                tracks: vec![1],
            },
        );
        assert_eq!(applied.select_tracks, vec![2]);
        let c = ws.clip(CLIP).unwrap();
        assert_eq!(c.tracks[2].name, ".opacity copy");
        assert_eq!(c.tracks[2].times, c.tracks[1].times);
        assert!(
            ws.apply(Edit::DuplicateTracks {
                clip: CLIP,
                tracks: vec![5],
            })
            .is_err()
        );
        let applied = undoable(
            &mut ws,
            Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0, 2],
                muted: true,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("muted 2 track(s)"));
        let muted: Vec<bool> = ws
            .clip(CLIP)
            .unwrap()
            .tracks
            .iter()
            .map(|t| t.muted)
            .collect();
        assert_eq!(muted, [true, false, true]);
        // Only the muted tracks changed: the viewport follows them without a new player.
        let version = ws.documents[0].version;
        // Muting what is muted already is refused and leaves no step.
        assert!(
            ws.apply(Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0],
                muted: true,
            })
            .is_err()
        );
        assert_eq!(ws.documents[0].version, version);
        undoable(
            &mut ws,
            Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0, 1],
                muted: false,
            },
        );
        assert!(
            ws.clip(CLIP)
                .unwrap()
                .tracks
                .iter()
                .all(|t| !t.muted || t.name.ends_with("copy"))
        );
    }
}
