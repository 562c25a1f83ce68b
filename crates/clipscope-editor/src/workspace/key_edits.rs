//! Edits of keys: move (a drag), set one key's time or value (the inspector), insert on the
//! curve, delete, paste. They record only the tracks they touch, except a delete that empties
//! a track (the track goes, so the whole clip is recorded).

use std::collections::BTreeSet;

use clipscope_core::model::Clip;
use clipscope_core::model::ops::{KeyClipboard, PasteValues, paste_keys};
use clipscope_core::text::thousands;

use super::Applied;
use super::by_track::{count_keys, group_by_track};
use super::recorder::Recorder;
use crate::{ClipId, EditError, KeyRef};

impl Recorder<'_> {
    /// [`Edit::MoveKeys`](crate::Edit::MoveKeys): the time offset is clamped so no key passes
    /// an unselected neighbour; the keys stay selected.
    pub(super) fn move_keys(
        &mut self,
        clip: ClipId,
        keys: Vec<KeyRef>,
        dt: f64,
        dv: f64,
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(&keys);
        self.edit_tracks(clip, by_track.keys().copied(), |c| {
            let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
            for (&t, (whole, _)) in &by_track {
                let (l, h) = c.tracks[t].time_move_limits(whole);
                lo = lo.max(l);
                hi = hi.min(h);
            }
            let dt = if lo <= hi { dt.clamp(lo, hi) } else { 0.0 };
            for (&t, (whole, parts)) in &by_track {
                let track = &mut c.tracks[t];
                if dt != 0.0 {
                    track.move_keys(whole, dt);
                }
                if dv != 0.0 {
                    track.offset_values(parts, dv);
                }
                track.refresh_auto_handles();
            }
            Ok(())
        })?;
        Ok(Applied::selecting_keys(keys))
    }

    /// [`Edit::SetKey`](crate::Edit::SetKey): a new time and/or a new value of `key`'s
    /// component.
    pub(super) fn set_key(
        &mut self,
        clip: ClipId,
        key: KeyRef,
        time: Option<f64>,
        value: Option<f64>,
    ) -> Result<Applied, EditError> {
        self.edit_tracks(clip, [key.track], |c| {
            let track = &mut c.tracks[key.track];
            track.set_key(key.key, time, value.map(|v| (key.component, v)));
            track.refresh_auto_handles();
            Ok(())
        })?;
        Ok(Applied::default())
    }

    /// [`Edit::InsertKey`](crate::Edit::InsertKey): the inserted keys are selected.
    pub(super) fn insert_key(
        &mut self,
        clip: ClipId,
        tracks: &[usize],
        time: f64,
    ) -> Result<Applied, EditError> {
        let mut inserted = Vec::new();
        self.edit_tracks(clip, tracks.iter().copied(), |c| {
            for &t in tracks {
                let k = c.tracks[t].insert_key(time);
                c.tracks[t].refresh_auto_handles();
                inserted.push(KeyRef {
                    track: t,
                    key: k,
                    component: 0,
                });
            }
            Ok(())
        })?;
        Ok(Applied::selecting_keys(inserted))
    }

    /// [`Edit::DeleteKeys`](crate::Edit::DeleteKeys): whole keys; tracks left without keys are
    /// removed.
    pub(super) fn delete_keys(
        &mut self,
        clip: ClipId,
        keys: &[KeyRef],
    ) -> Result<Applied, EditError> {
        let by_track = group_by_track(keys);
        let empties = {
            let c = self.clip(clip)?;
            by_track
                .iter()
                .any(|(&t, (whole, _))| c.tracks.get(t).is_some_and(|tr| tr.len() <= whole.len()))
        };
        let work = |c: &mut Clip| -> Result<(), EditError> {
            let mut emptied = BTreeSet::new();
            for (&t, (whole, _)) in &by_track {
                let track = c.tracks.get_mut(t).ok_or(EditError::NoSuchTrack(t))?;
                track.delete_keys(whole);
                if track.is_empty() {
                    emptied.insert(t);
                } else {
                    track.refresh_auto_handles();
                }
            }
            if !emptied.is_empty() {
                // One pass, not one `remove` (a shift of every later track) per track.
                let mut index = 0;
                c.tracks.retain(|_| {
                    index += 1;
                    !emptied.contains(&(index - 1))
                });
            }
            Ok(())
        };
        if empties {
            self.edit_clip(clip, work)?;
        } else {
            self.edit_tracks(clip, by_track.keys().copied(), work)?;
        }
        Ok(Applied::reporting(format!(
            "deleted {} keys",
            thousands(count_keys(&by_track))
        )))
    }

    /// [`Edit::PasteKeys`](crate::Edit::PasteKeys) (the time is checked already): copied track
    /// `i` into track `targets[i]`, the earliest key at `time`. Every component of the pasted
    /// keys is selected; the report says what was skipped.
    pub(super) fn paste_keys(
        &mut self,
        clip: ClipId,
        clipboard: &KeyClipboard,
        targets: &[Option<usize>],
        (time, values): (f64, PasteValues),
        duplicate: bool,
    ) -> Result<Applied, EditError> {
        let mut report = Default::default();
        let touched = targets.iter().flatten().copied();
        self.edit_tracks(clip, touched, |c| {
            report = paste_keys(c, clipboard, targets, time, values);
            Ok(())
        })?;
        let c = self.clip(clip)?;
        let select_keys = report
            .pasted
            .iter()
            .flat_map(|&(track, key)| {
                (0..c.tracks[track].value_size().max(1)).map(move |component| KeyRef {
                    track,
                    key,
                    component,
                })
            })
            .collect();
        let verb = if duplicate { "duplicated" } else { "pasted" };
        let mut message = format!("{verb} {} keys", thousands(report.pasted.len()));
        if !report.skipped.is_empty() {
            message += &format!("; skipped {}", report.skipped.join("; "));
        }
        Ok(Applied {
            message: Some(message),
            select_keys,
            ..Applied::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::workspace::test_support::{CLIP, key, undoable, workspace};
    use crate::{ClipId, Edit};

    #[test]
    fn moving_keys_in_time_stops_at_unselected_neighbours() {
        let mut ws = workspace();
        ws.apply(Edit::MoveKeys {
            clip: CLIP,
            keys: vec![key(0, 1, 0)],
            dt: 5.0,
            dv: 0.0,
            gesture: None,
        })
        .unwrap();
        let times = &ws.clip(CLIP).unwrap().tracks[0].times;
        assert!(times[1] > 1.9 && times[1] < 2.0, "{times:?}");
        assert!(times.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn deleting_every_key_removes_the_track_and_undo_brings_it_back() {
        let mut ws = workspace();
        let original = ws.clip(CLIP).unwrap().clone();
        let applied = ws
            .apply(Edit::DeleteKeys {
                clip: CLIP,
                keys: vec![key(1, 0, 0), key(1, 1, 0), key(0, 1, 2)],
            })
            .unwrap();
        assert_eq!(applied.message.as_deref(), Some("deleted 3 keys"));
        let clip = ws.clip(CLIP).unwrap();
        assert_eq!(clip.tracks.len(), 1);
        assert_eq!(clip.tracks[0].times, vec![0.0, 2.0, 3.0]);
        ws.undo();
        assert_eq!(ws.clip(CLIP).unwrap(), &original);
    }

    #[test]
    fn copy_paste_keys_into_another_clip_is_one_step_and_selects_them() {
        use clipscope_core::model::ops::{KeyClipboard, PasteValues};
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let board = KeyClipboard::copy(ws.clip(CLIP).unwrap(), [(0, 2), (0, 3)]);
        let copy = ClipId { doc: 0, clip: 1 };
        let targets = board.targets(ws.clip(copy).unwrap(), &[1]);
        assert_eq!(targets, vec![Some(0)]);
        let applied = undoable(
            &mut ws,
            Edit::PasteKeys {
                clip: copy,
                clipboard: Box::new(board),
                targets,
                time: 0.5,
                values: PasteValues::Absolute,
                duplicate: false,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("pasted 2 keys"));
        assert_eq!(
            applied.select_keys.len(),
            6,
            "every component of the 2 keys"
        );
        let t = &ws.clip(copy).unwrap().tracks[0];
        assert_eq!(t.times, vec![0.0, 0.5, 1.0, 1.5, 2.0, 3.0]);
        assert_eq!(
            &t.values.as_numbers().unwrap()[9..12],
            &[1.0, 2.0, 3.0],
            "key 3's value, pasted at 1.5 s"
        );
    }

    #[test]
    fn duplicating_keys_says_so() {
        use clipscope_core::model::ops::{KeyClipboard, PasteValues};
        let mut ws = workspace();
        let board = KeyClipboard::copy(ws.clip(CLIP).unwrap(), [(1, 1)]);
        let edit = Edit::PasteKeys {
            clip: CLIP,
            clipboard: Box::new(board),
            targets: vec![Some(1)],
            time: 2.5,
            values: PasteValues::Absolute,
            duplicate: true,
        };
        assert_eq!(edit.label(), "Duplicate keys");
        let applied = undoable(&mut ws, edit);
        assert_eq!(applied.label, "Duplicate keys");
        assert_eq!(applied.message.as_deref(), Some("duplicated 1 keys"));
        assert_eq!(ws.clip(CLIP).unwrap().tracks[1].times, vec![0.0, 2.0, 2.5]);
    }
}
