//! `split_at`: cut a clip in two at a time, so a long take becomes named clips.
//!
//! Every track first gets a key at the cut ([`Track::insert_key`]: linear and bezier curves keep
//! their shape exactly), then the first clip keeps the keys up to the cut and the second the keys
//! from the cut on, moved to start at 0. Both halves hold every track, and each plays what the
//! original played over its part. The first half lasts until the cut, the second the rest.

use crate::model::{Clip, Track};

use super::OpError;

impl Clip {
    /// Splits the clip at `time` seconds: `self` keeps `[0, time]` and the returned clip (a
    /// [`Clip::duplicate`] with a new uuid, named `name`) holds `[time, duration]` moved to 0.
    /// A time that is not strictly inside `(0, duration)` is an error and changes nothing.
    pub fn split_at(&mut self, time: f64, name: impl Into<String>) -> Result<Clip, OpError> {
        if !(time.is_finite() && time > 0.0 && time < self.duration) {
            return Err(OpError::SplitOutside {
                time,
                duration: self.duration,
            });
        }
        let cut = time as f32;
        for track in &mut self.tracks {
            if !track.is_empty() {
                track.insert_key(time);
                track.refresh_auto_handles();
            }
        }
        let mut tail = self.duplicate();
        tail.name = name.into();
        tail.duration = self.duration - time;
        self.duration = time;
        for track in &mut self.tracks {
            keep(track, |t| t <= cut);
        }
        for track in &mut tail.tracks {
            keep(track, |t| t >= cut);
            track.shift(-(cut as f64));
        }
        Ok(tail)
    }
}

/// Deletes the keys whose time `wanted` refuses.
fn keep(track: &mut Track, wanted: impl Fn(f32) -> bool) {
    let gone: Vec<usize> = (0..track.len())
        .filter(|&k| !wanted(track.times[k]))
        .collect();
    track.delete_keys(&gone);
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::Sampler;
    use crate::model::{Clip, Track, TrackKind, Values};

    fn value(track: &Track, t: f64) -> f32 {
        match Sampler::new(track).evaluate(t) {
            Values::Numbers(v) => v[0],
            _ => panic!("numbers"),
        }
    }

    #[test]
    fn both_halves_play_what_the_take_played() {
        let a = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 10.0, 0.0],
        );
        let b = Track::numeric(".y", TrackKind::Number, vec![1.5, 2.0], vec![3.0, 4.0]);
        let mut take = Clip::new("take", 2.0, vec![a, b]);
        let original = take.clone();
        let tail = take.split_at(0.5, "take.2").unwrap();
        assert_eq!(take.duration, 0.5);
        assert_eq!(tail.duration, 1.5);
        assert_eq!(tail.name, "take.2");
        assert_ne!(tail.uuid, take.uuid);
        assert_eq!(take.tracks[0].times, vec![0.0, 0.5]);
        assert_eq!(take.tracks[0].values.as_numbers().unwrap(), &[0.0, 5.0]);
        assert_eq!(tail.tracks[0].times, vec![0.0, 0.5, 1.5]);
        assert_eq!(
            tail.tracks[0].values.as_numbers().unwrap(),
            &[5.0, 10.0, 0.0]
        );
        // A track that starts after the cut holds its first value before it.
        assert_eq!(take.tracks[1].times, vec![0.5]);
        assert_eq!(take.tracks[1].values.as_numbers().unwrap(), &[3.0]);
        assert_eq!(tail.tracks[1].times, vec![0.0, 1.0, 1.5]);
        for i in 0..=20 {
            let t = i as f64 * 0.1;
            for j in 0..2 {
                let (half, local) = if t <= 0.5 {
                    (&take, t)
                } else {
                    (&tail, t - 0.5)
                };
                let want = value(&original.tracks[j], t);
                assert!(
                    (value(&half.tracks[j], local) - want).abs() < 1e-5,
                    "track {j} at {t}"
                );
            }
        }
    }

    #[test]
    fn a_cut_outside_the_clip_is_refused() {
        let mut c = Clip::new(
            "c",
            1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0],
                vec![0.0],
            )],
        );
        let before = c.clone();
        assert!(c.split_at(0.0, "x").is_err());
        assert!(c.split_at(1.0, "x").is_err());
        assert!(c.split_at(f64::NAN, "x").is_err());
        assert_eq!(c, before);
    }
}
