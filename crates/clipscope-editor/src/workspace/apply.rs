//! [`Workspace::apply`]: checks an edit, hands it to the function for its kind and records
//! the undo step.

use super::recorder::Recorder;
use super::scope_ops::ClipOp;
use super::{Applied, Workspace};
use crate::{Edit, EditError};

impl Workspace {
    /// Carries out `edit`, records it for undo and marks the documents it changed dirty.
    /// An edit that does not fit the documents (a stale index, say) changes nothing and
    /// says why; one refused halfway (resampling a scope whose second clip is too long) puts
    /// back what it had done.
    pub fn apply(&mut self, edit: Edit) -> Result<Applied, EditError> {
        edit.check()?;
        let label = edit.label();
        let gesture = edit.gesture();
        let mut recorder = Recorder::new(self);
        match recorder.carry_out(edit) {
            Ok(mut applied) => {
                recorder.finish(label, gesture);
                applied.label = label.to_string();
                Ok(applied)
            }
            Err(e) => {
                recorder.roll_back();
                Err(e)
            }
        }
    }
}

impl Recorder<'_> {
    /// Does what `edit` (already checked) says, with the function for its kind.
    fn carry_out(&mut self, edit: Edit) -> Result<Applied, EditError> {
        match edit {
            Edit::Optimize(scope) => self.clip_op(ClipOp::Optimize, scope),
            Edit::Trim(scope) => self.clip_op(ClipOp::Trim, scope),
            Edit::ResetDuration(scope) => self.clip_op(ClipOp::ResetDuration, scope),
            Edit::Fix { scope, settings } => self.clip_op(ClipOp::Fix(settings), scope),
            Edit::Retime {
                scope,
                factor,
                offset,
            } => self.clip_op(ClipOp::Retime { factor, offset }, scope),
            Edit::Resample { scope, fps } => self.clip_op(ClipOp::Resample(fps), scope),
            Edit::Reverse(scope) => self.clip_op(ClipOp::Reverse, scope),
            Edit::UnrollQuaternions(scope) => self.clip_op(ClipOp::Unroll, scope),
            Edit::EulerFilter(scope) => self.clip_op(ClipOp::EulerFilter, scope),
            Edit::RenameTracks {
                scope,
                pattern,
                replacement,
            } => self.clip_op(ClipOp::rename(pattern, replacement)?, scope),
            Edit::RenameClip { clip, name } => self.rename_clip(clip, name),
            Edit::SetDuration { clip, duration } => self.set_duration(clip, duration),
            Edit::SetBlendMode { clip, mode } => self.set_blend_mode(clip, mode),
            Edit::SetMarkers { clip, markers } => self.set_markers(clip, &markers),
            Edit::MakeAdditive {
                clip,
                frame,
                fps,
                reference,
            } => self.make_additive(clip, frame, fps, reference),
            Edit::DuplicateClip { clip } => self.duplicate_clip(clip),
            Edit::AddClip { doc, clip } => self.add_clip(doc, *clip),
            Edit::ReplaceClips { clips, .. } => self.replace_clips(clips),
            Edit::DeleteClip { clip } => self.delete_clip(clip),
            Edit::SplitClip { clip, time } => self.split_clip(clip, time),
            Edit::Subclip {
                clip,
                name,
                start,
                end,
                fps,
                replace,
            } => self.subclip(clip, name, (start, end, fps), replace),
            Edit::MergeClips { doc, clips, name } => self.merge_clips(doc, &clips, name),
            Edit::DeleteTracks { clip, tracks } => self.delete_tracks(clip, tracks),
            Edit::DuplicateTracks { clip, tracks } => self.duplicate_tracks(clip, &tracks),
            Edit::MuteTracks {
                clip,
                tracks,
                muted,
            } => self.mute_tracks(clip, &tracks, muted),
            Edit::MoveKeys {
                clip, keys, dt, dv, ..
            } => self.move_keys(clip, keys, dt, dv),
            Edit::SetKey {
                clip,
                key,
                time,
                value,
                ..
            } => self.set_key(clip, key, time, value),
            Edit::InsertKey { clip, tracks, time } => self.insert_key(clip, &tracks, time),
            Edit::DeleteKeys { clip, keys } => self.delete_keys(clip, &keys),
            Edit::PasteKeys {
                clip,
                clipboard,
                targets,
                time,
                values,
                duplicate,
            } => self.paste_keys(clip, &clipboard, &targets, (time, values), duplicate),
            Edit::ScaleKeys {
                clip,
                keys,
                pivot_time,
                time_factor,
                pivot_value,
                value_factor,
                ..
            } => self.scale_keys(
                clip,
                keys,
                (pivot_time, time_factor),
                (pivot_value, value_factor),
            ),
            Edit::SnapKeys { clip, keys, fps } => self.snap_keys(clip, keys, fps),
            Edit::SmoothKeys {
                clip,
                keys,
                strength,
                passes,
            } => self.smooth_keys(clip, keys, strength, passes),
            Edit::SetHandle {
                clip,
                key,
                side,
                time,
                value,
                break_handles,
                ..
            } => self.set_handle(clip, key, side, (time, value), break_handles),
            Edit::SetInterpolation {
                clip,
                tracks,
                interpolation,
            } => self.set_interpolation(clip, &tracks, interpolation),
            Edit::SetTangentMode { clip, keys, mode } => self.set_tangent_mode(clip, &keys, mode),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::workspace::test_support::{CLIP, key, workspace};
    use crate::{ClipScope, Edit, EditError};

    #[test]
    fn a_no_op_leaves_no_undo_step() {
        let mut ws = workspace();
        ws.apply(Edit::Trim(ClipScope::All)).unwrap();
        assert!(ws.history.undo_label().is_none());
        assert!(!ws.any_dirty());
    }

    #[test]
    fn a_refused_edit_changes_nothing_and_says_why() {
        let mut ws = workspace();
        let before = ws.documents[0].doc.clips.clone();
        let err = ws
            .apply(Edit::Resample {
                scope: ClipScope::All,
                fps: -1.0,
            })
            .unwrap_err();
        assert_eq!(
            err,
            EditError::FrameRate {
                edit: "resample",
                fps: -1.0
            }
        );
        assert_eq!(err.to_string(), "resample: -1 is not a frame rate above 0");
        assert_eq!(ws.documents[0].doc.clips, before);
        assert!(!ws.any_dirty());
        assert!(ws.history.undo_label().is_none());
    }

    #[test]
    fn applied_carries_the_label() {
        let mut ws = workspace();
        let applied = ws.apply(Edit::Optimize(ClipScope::All)).unwrap();
        assert_eq!(applied.label, "Optimize");
    }

    #[test]
    fn a_drag_gesture_is_one_undo_step() {
        let mut ws = workspace();
        let original = ws.clip(CLIP).unwrap().clone();
        for _ in 0..5 {
            ws.apply(Edit::MoveKeys {
                clip: CLIP,
                keys: vec![key(0, 3, 2)],
                dt: 0.0,
                dv: 0.5,
                gesture: Some(7),
            })
            .unwrap();
        }
        let values = ws.clip(CLIP).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()
            .to_vec();
        assert_eq!(values[11], 5.5);
        ws.undo();
        assert_eq!(ws.clip(CLIP).unwrap(), &original);
        assert!(ws.history.undo_label().is_none());
    }

    #[test]
    fn an_edit_refused_halfway_puts_back_what_it_did() {
        use clipscope_core::model::ops::OpError;
        use clipscope_core::model::{Clip, Track, TrackKind};
        let mut ws = workspace();
        let long = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut two = ws.documents[0].doc.clone();
        two.clips.push(Clip::new("long", 2e6, vec![long]));
        ws.replace(0, two);
        let before = ws.documents[0].doc.clips.clone();
        let version = ws.documents[0].version;
        let err = ws
            .apply(Edit::Resample {
                scope: ClipScope::All,
                fps: 10.0,
            })
            .unwrap_err();
        assert!(
            matches!(err, EditError::Op(OpError::TooManyFrames { .. })),
            "{err:?}"
        );
        assert_eq!(ws.documents[0].doc.clips, before, "the walk is back");
        assert_eq!(ws.documents[0].version, version);
        assert!(!ws.any_dirty());
        assert!(ws.history.undo_label().is_none());
    }
}
