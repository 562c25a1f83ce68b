//! Transforms of selected keys: scale them like a transform box, snap them to frames, smooth
//! their values. The keys stay selected; only their tracks are recorded.

use super::Applied;
use super::by_track::group_by_track;
use super::recorder::Recorder;
use super::smooth::smooth_in_place;
use crate::{ClipId, EditError, KeyRef};

impl Recorder<'_> {
    /// [`Edit::ScaleKeys`](crate::Edit::ScaleKeys) (the value factor is checked already):
    /// times around `pivot_time` by `time_factor`, the selected components around
    /// `pivot_value` by `value_factor`. A time scale that would carry a key past an unselected
    /// neighbour is refused and changes nothing.
    pub(super) fn scale_keys(
        &mut self,
        clip: ClipId,
        keys: Vec<KeyRef>,
        (pivot_time, time_factor): (f64, f64),
        (pivot_value, value_factor): (f64, f64),
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(&keys);
        self.edit_tracks(clip, by_track.keys().copied(), |c| {
            for (&t, (whole, parts)) in &by_track {
                let track = &mut c.tracks[t];
                if time_factor != 1.0 {
                    track.scale_key_times(whole, pivot_time, time_factor)?;
                }
                if value_factor != 1.0 {
                    track.scale_key_values(parts, pivot_value, value_factor);
                }
                track.refresh_auto_handles();
            }
            Ok(())
        })?;
        Ok(Applied::selecting_keys(keys))
    }

    /// [`Edit::SnapKeys`](crate::Edit::SnapKeys) (the rate is checked already): reports how
    /// many moved and how many stayed because their frame is taken.
    pub(super) fn snap_keys(
        &mut self,
        clip: ClipId,
        keys: Vec<KeyRef>,
        fps: f64,
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(&keys);
        let (mut moved, mut skipped) = (0, 0);
        self.edit_tracks(clip, by_track.keys().copied(), |c| {
            for (&t, (whole, _)) in &by_track {
                let (m, s) = c.tracks[t].snap_keys_to_frames(whole, fps);
                moved += m;
                skipped += s;
                c.tracks[t].refresh_auto_handles();
            }
            Ok(())
        })?;
        let mut message = format!("snapped {moved} key(s) to frames at {fps} fps");
        if skipped > 0 {
            message += &format!("; {skipped} stayed (their frame is taken)");
        }
        Ok(Applied {
            message: Some(message),
            select_keys: keys,
            ..Applied::default()
        })
    }

    /// [`Edit::SmoothKeys`](crate::Edit::SmoothKeys): reports how many keys moved.
    pub(super) fn smooth_keys(
        &mut self,
        clip: ClipId,
        keys: Vec<KeyRef>,
        strength: f64,
        passes: usize,
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(&keys);
        let mut moved = 0;
        self.edit_tracks(clip, by_track.keys().copied(), |c| {
            moved = smooth_in_place(c, &by_track, strength, passes);
            Ok(())
        })?;
        Ok(Applied {
            message: Some(format!("smoothed {moved} key(s)")),
            select_keys: keys,
            ..Applied::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Edit;
    use crate::workspace::test_support::{CLIP, key, undoable, workspace};

    #[test]
    fn a_transform_box_drag_is_one_undo_step() {
        let mut ws = workspace();
        let before = ws.documents[0].doc.clips.clone();
        for factor in [1.5, 2.0 / 1.5] {
            ws.apply(Edit::ScaleKeys {
                clip: CLIP,
                keys: vec![key(0, 1, 0), key(0, 2, 0), key(0, 3, 0)],
                pivot_time: 1.0,
                time_factor: factor,
                pivot_value: 0.0,
                value_factor: 1.0,
                gesture: Some(9),
            })
            .unwrap();
        }
        // Twice as long around 1 s, within the f32 rounding of two steps.
        let times = &ws.clip(CLIP).unwrap().tracks[0].times;
        for (t, want) in times.iter().zip([0.0, 1.0, 3.0, 5.0]) {
            assert!((t - want).abs() < 1e-6, "{times:?}");
        }
        assert_eq!(ws.history.undo_label(), Some("Scale keys"));
        ws.undo();
        assert_eq!(
            ws.documents[0].doc.clips, before,
            "one step undoes the whole drag"
        );
    }

    #[test]
    fn scaling_and_snapping_keys() {
        let mut ws = workspace();
        undoable(
            &mut ws,
            Edit::ScaleKeys {
                clip: CLIP,
                keys: vec![key(0, 1, 2), key(0, 2, 2)],
                pivot_time: 1.0,
                time_factor: 0.5,
                pivot_value: 0.0,
                value_factor: 2.0,
                gesture: None,
            },
        );
        let t = &ws.clip(CLIP).unwrap().tracks[0];
        assert_eq!(t.times, vec![0.0, 1.0, 1.5, 3.0]);
        assert_eq!(&t.values.as_numbers().unwrap()[..9], &[0.0; 9]);
        let refused = ws.apply(Edit::ScaleKeys {
            clip: CLIP,
            keys: vec![key(0, 2, 0)],
            pivot_time: 0.0,
            time_factor: 10.0,
            pivot_value: 0.0,
            value_factor: 1.0,
            gesture: None,
        });
        assert!(refused.is_err());
        assert_eq!(
            ws.history.undo_label(),
            Some("Scale keys"),
            "a refused scale is no step"
        );
        let applied = undoable(
            &mut ws,
            Edit::SnapKeys {
                clip: CLIP,
                keys: vec![key(0, 2, 0)],
                fps: 1.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("snapped 1 key(s) to frames at 1 fps")
        );
        assert_eq!(
            ws.clip(CLIP).unwrap().tracks[0].times,
            vec![0.0, 1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn smoothing_keys_is_one_step() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::SmoothKeys {
                clip: CLIP,
                keys: vec![key(0, 2, 0), key(0, 3, 0)],
                strength: 1.0,
                passes: 1,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("smoothed 1 key(s)"));
        let v = ws.clip(CLIP).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()
            .to_vec();
        assert_eq!(
            &v[6..9],
            &[0.25, 0.5, 0.75],
            "key 2 towards key 3; the last key stays"
        );
    }
}
