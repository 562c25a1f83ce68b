//! `subclip`: cut a frame range out of a clip into a new clip that starts at time 0.
//!
//! Key `j` is kept when `start_frame <= times[j] * fps < end_frame` (an f64 product; a NaN frame
//! passes, because three.js writes the test as "skip if `frame < start || frame >= end`").
//! Tracks that keep no key are dropped, then every track is shifted by the earliest kept time so
//! the clip starts at 0, and the duration is recomputed. Bezier tangent arrays are not sliced,
//! only shifted, exactly like three.js; handle modes (editor state) are sliced with the keys.

use crate::model::{Clip, Track};

/// A new clip named `name` holding the keys of `source` in `[start_frame, end_frame)` at `fps`
/// frames per second (three.js `AnimationUtils.subclip`; three.js's default fps is 30). The
/// source is not changed; the result is a [`Clip::duplicate`] with a new uuid.
pub fn subclip(
    source: &Clip,
    name: impl Into<String>,
    start_frame: f64,
    end_frame: f64,
    fps: f64,
) -> Clip {
    let mut clip = source.duplicate();
    clip.name = name.into();
    let tracks = std::mem::take(&mut clip.tracks);
    clip.tracks = tracks
        .into_iter()
        .filter_map(|track| cut(track, start_frame, end_frame, fps))
        .collect();
    let mut min_start = f64::INFINITY;
    for track in &clip.tracks {
        let first = track.times[0] as f64;
        if min_start > first {
            min_start = first;
        }
    }
    for track in &mut clip.tracks {
        track.shift(-min_start);
    }
    clip.reset_duration();
    clip
}

/// The track with only the keys inside the frame window, or `None` when none is left.
fn cut(mut track: Track, start_frame: f64, end_frame: f64, fps: f64) -> Option<Track> {
    let value_size = track.value_size();
    let mut times = Vec::new();
    let mut values = track.values.empty_like();
    let mut kept = Vec::new();
    for (j, &time) in track.times.iter().enumerate() {
        let frame = time as f64 * fps;
        if frame < start_frame || frame >= end_frame {
            continue;
        }
        times.push(time);
        values.extend_from(&track.values, j * value_size..(j + 1) * value_size);
        kept.push(j);
    }
    if times.is_empty() {
        return None;
    }
    if let Some(tangents) = &mut track.tangents {
        tangents.keep_modes(kept);
    }
    track.times = times;
    track.values = values;
    Some(track)
}

#[cfg(test)]
mod tests {
    use super::subclip;
    use crate::model::{Clip, TangentMode, Tangents, Track, TrackKind};

    fn numbers(t: &Track) -> Vec<f32> {
        t.values.as_numbers().unwrap().to_vec()
    }

    #[test]
    fn subclip_basic() {
        let src = Clip::new(
            "src",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0, 2.0, 3.0],
                vec![0.0, 10.0, 20.0, 30.0],
            )],
        );
        let before = src.clone();
        let sub = subclip(&src, "sub", 1.0, 3.0, 1.0);
        assert_eq!(sub.name, "sub");
        assert_eq!(sub.tracks[0].times, vec![0.0, 1.0]);
        assert_eq!(numbers(&sub.tracks[0]), vec![10.0, 20.0]);
        assert_eq!(sub.duration, 1.0);
        assert_eq!(src, before);
        assert_ne!(sub.uuid, src.uuid);
    }

    #[test]
    fn subclip_fps() {
        let src = Clip::new(
            "src",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 0.5, 1.0, 1.5],
                vec![0.0, 1.0, 2.0, 3.0],
            )],
        );
        let sub = subclip(&src, "sub", 1.0, 3.0, 2.0);
        assert_eq!(sub.tracks[0].times, vec![0.0, 0.5]);
        assert_eq!(numbers(&sub.tracks[0]), vec![1.0, 2.0]);
    }

    #[test]
    fn subclip_value_size_and_multiple_tracks() {
        let pos = Track::numeric(
            ".position",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0, 3.0],
            (1..=12).map(|v| v as f32).collect(),
        );
        let y = Track::numeric(
            ".y",
            TrackKind::Number,
            vec![0.0, 2.0, 3.0],
            vec![0.0, 1.0, 2.0],
        );
        let gone = Track::numeric(".gone", TrackKind::Number, vec![0.0, 5.0], vec![0.0, 1.0]);
        let src = Clip::new("src", -1.0, vec![pos, gone, y]);
        let sub = subclip(&src, "sub", 1.0, 4.0, 1.0);
        assert_eq!(sub.tracks.len(), 2);
        assert_eq!(sub.tracks[0].name, ".position");
        assert_eq!(sub.tracks[0].times, vec![0.0, 1.0, 2.0]);
        assert_eq!(
            numbers(&sub.tracks[0]),
            (4..=12).map(|v| v as f32).collect::<Vec<_>>()
        );
        assert_eq!(sub.tracks[1].name, ".y");
        assert_eq!(sub.tracks[1].times, vec![1.0, 2.0]);
        assert_eq!(numbers(&sub.tracks[1]), vec![1.0, 2.0]);
        assert_eq!(sub.duration, 2.0);
    }

    #[test]
    fn subclip_shifts_but_does_not_slice_tangents() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 1.0, 2.0],
        );
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0],
            out_tangents: vec![0.5, 0.0, 1.5, 1.0, 2.5, 2.0],
            modes: Vec::new(),
        });
        let src = Clip::new("src", -1.0, vec![t]);
        let sub = subclip(&src, "sub", 1.0, 3.0, 1.0);
        let tg = sub.tracks[0].tangents.as_ref().unwrap();
        assert_eq!(tg.in_tangents, vec![-1.0, 0.0, 0.0, 1.0, 1.0, 2.0]);
        assert_eq!(tg.out_tangents, vec![-0.5, 0.0, 0.5, 1.0, 1.5, 2.0]);
    }

    #[test]
    fn subclip_keeps_modes_aligned_with_keys() {
        use TangentMode::*;
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0.0, 1.0, 2.0, 3.0],
        );
        let mut tangents = Tangents::new(vec![0.0; 8], vec![0.0; 8]);
        tangents.modes = vec![Auto, Vector, Aligned, AutoClamped];
        t.tangents = Some(tangents);
        let src = Clip::new("src", -1.0, vec![t]);
        let sub = subclip(&src, "sub", 1.0, 3.0, 1.0);
        assert_eq!(
            sub.tracks[0].tangents.as_ref().unwrap().modes,
            [Vector, Aligned]
        );
        let copy = src.duplicate();
        assert_eq!(copy.tracks[0].tangents, src.tracks[0].tangents);
    }

    #[test]
    fn subclip_with_nothing_left_is_empty() {
        let src = Clip::new(
            "src",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0],
                vec![0.0, 1.0],
            )],
        );
        let sub = subclip(&src, "sub", 10.0, 20.0, 30.0);
        assert!(sub.tracks.is_empty());
        assert_eq!(sub.duration, 0.0);
    }
}
