//! `merge_clips`: one clip from several (an upper-body take and a lower-body take, or clips cut
//! from one take put back together).
//!
//! The result holds every track of every clip, in order. A track whose name and kind an earlier
//! clip already brought gets the later clip's keys merged in (a key at the same time replaces the
//! earlier one, as a paste does); a track of the same name but another kind is kept as a track of
//! its own, which [`Clip::validate`](crate::model::Clip) reports. The duration is the longest,
//! the blend mode the first clip's. Linear in the keys (one sorted merge per shared track).

use crate::model::Clip;

use super::clipboard::{CopiedTrack, KeyClipboard, PasteValues, paste_keys};

/// A new clip named `name` (a new uuid) holding the tracks of `clips` (see the module docs).
/// Returns the clip and how many tracks were merged into an earlier one.
pub fn merge_clips(clips: &[&Clip], name: impl Into<String>) -> (Clip, usize) {
    let Some(first) = clips.first() else {
        return (Clip::new(name, 0.0, Vec::new()), 0);
    };
    let mut out = first.duplicate();
    out.name = name.into();
    let mut merged = 0;
    for clip in &clips[1..] {
        out.duration = out.duration.max(clip.duration);
        for track in &clip.tracks {
            let same = out
                .tracks
                .iter()
                .position(|t| t.name == track.name && t.kind == track.kind);
            match same {
                Some(t) if !track.is_empty() => {
                    let board = KeyClipboard {
                        tracks: vec![CopiedTrack {
                            source: t,
                            keys: track.clone(),
                        }],
                    };
                    let start = board.start();
                    paste_keys(&mut out, &board, &[Some(t)], start, PasteValues::Absolute);
                    merged += 1;
                }
                _ => out.tracks.push(track.clone()),
            }
        }
    }
    (out, merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    #[test]
    fn tracks_are_joined_and_shared_ones_merged() {
        let legs = Clip::new(
            "legs",
            1.0,
            vec![
                Track::numeric("hip.x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]),
                Track::numeric("leg.x", TrackKind::Number, vec![0.0], vec![5.0]),
            ],
        );
        let arms = Clip::new(
            "arms",
            2.0,
            vec![
                Track::numeric("arm.x", TrackKind::Number, vec![0.0, 2.0], vec![1.0, 2.0]),
                Track::numeric("hip.x", TrackKind::Number, vec![1.0, 2.0], vec![9.0, 3.0]),
            ],
        );
        let (m, merged) = merge_clips(&[&legs, &arms], "body");
        assert_eq!(merged, 1);
        assert_eq!(m.name, "body");
        assert_eq!(m.duration, 2.0);
        let names: Vec<&str> = m.tracks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["hip.x", "leg.x", "arm.x"]);
        assert_eq!(m.tracks[0].times, vec![0.0, 1.0, 2.0]);
        assert_eq!(m.tracks[0].values.as_numbers().unwrap(), &[0.0, 9.0, 3.0]);
        assert_ne!(m.uuid, legs.uuid);
        assert_eq!(merge_clips(&[], "none").0.tracks.len(), 0);
    }
}
