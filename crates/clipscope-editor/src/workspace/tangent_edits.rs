//! Edits of the curve between keys: place a bezier handle, set the handle type of keys, change
//! the interpolation of tracks (to bezier keeps the curve's shape). Only the touched tracks are
//! recorded.

use clipscope_core::model::ops::HandleSide;
use clipscope_core::model::{Interpolation, TangentMode};

use super::Applied;
use super::by_track::group_by_track;
use super::recorder::Recorder;
use crate::{ClipId, EditError, KeyRef};

impl Recorder<'_> {
    /// [`Edit::SetHandle`](crate::Edit::SetHandle): the `side` handle of `key`'s component at
    /// `(time, value)`.
    pub(super) fn set_handle(
        &mut self,
        clip: ClipId,
        key: KeyRef,
        side: HandleSide,
        (time, value): (f64, f64),
        break_handles: bool,
    ) -> Result<Applied, EditError> {
        self.edit_tracks(clip, [key.track], |c| {
            c.tracks[key.track].set_handle(
                key.key,
                key.component,
                side,
                time,
                value,
                break_handles,
            );
            Ok(())
        })?;
        Ok(Applied::default())
    }

    /// [`Edit::SetInterpolation`](crate::Edit::SetInterpolation): tracks whose kind does not
    /// support the interpolation keep theirs, and the report says so.
    pub(super) fn set_interpolation(
        &mut self,
        clip: ClipId,
        tracks: &[usize],
        interpolation: Interpolation,
    ) -> Result<Applied, EditError> {
        let mut refused = Vec::new();
        self.edit_tracks(clip, tracks.iter().copied(), |c| {
            for &t in tracks {
                if let Err(e) = c.tracks[t].convert_interpolation(interpolation) {
                    refused.push(e.to_string());
                }
            }
            Ok(())
        })?;
        Ok(Applied {
            message: (!refused.is_empty()).then(|| refused.join("; ")),
            ..Applied::default()
        })
    }

    /// [`Edit::SetTangentMode`](crate::Edit::SetTangentMode): for whole keys, recomputing
    /// automatic handles.
    pub(super) fn set_tangent_mode(
        &mut self,
        clip: ClipId,
        keys: &[KeyRef],
        mode: TangentMode,
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(keys);
        self.edit_tracks(clip, by_track.keys().copied(), |c| {
            for (&t, (whole, _)) in &by_track {
                for &k in whole {
                    c.tracks[t].set_tangent_mode(k, mode);
                }
                c.tracks[t].refresh_auto_handles();
            }
            Ok(())
        })?;
        Ok(Applied::default())
    }
}

#[cfg(test)]
mod tests {
    use clipscope_core::model::Interpolation;
    use clipscope_core::model::ops::HandleSide;

    use crate::Edit;
    use crate::workspace::test_support::{CLIP, key, workspace};

    #[test]
    fn converting_to_bezier_keeps_the_curve_and_handles_edit() {
        let mut ws = workspace();
        ws.apply(Edit::SetInterpolation {
            clip: CLIP,
            tracks: vec![0],
            interpolation: Interpolation::Bezier,
        })
        .unwrap();
        let track = &ws.clip(CLIP).unwrap().tracks[0];
        assert_eq!(track.interpolation, Interpolation::Bezier);
        assert!(track.tangents.is_some());
        ws.apply(Edit::SetHandle {
            clip: CLIP,
            key: key(0, 2, 2),
            side: HandleSide::Out,
            time: 2.2,
            value: 4.0,
            break_handles: true,
            gesture: None,
        })
        .unwrap();
        let t = ws.clip(CLIP).unwrap().tracks[0].tangents.clone().unwrap();
        let at = 2 * 3 * 2 + 2 * 2;
        assert_eq!((t.out_tangents[at], t.out_tangents[at + 1]), (2.2, 4.0));
        assert_eq!(t.mode(2), clipscope_core::model::TangentMode::Free);
    }
}
