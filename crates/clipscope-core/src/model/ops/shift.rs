//! `shift`: move every key (and every bezier handle) by the same time offset.
//!
//! three.js adds the offset in f64 and stores the sum back into the `Float32Array`, so each
//! shifted time is rounded to f32. An offset of exactly 0 (or -0) leaves the track untouched;
//! a NaN offset does not count as 0 and turns every time into NaN, as in JavaScript.

use crate::model::{Clip, Track};

impl Track {
    /// Adds `dt` seconds to every key time and every tangent handle time (three.js
    /// `KeyframeTrack.shift`), rounding each result to f32. Does nothing when `dt == 0`.
    /// Returns `self` for chaining.
    pub fn shift(&mut self, dt: f64) -> &mut Track {
        if dt != 0.0 {
            for t in &mut self.times {
                *t = (*t as f64 + dt) as f32;
            }
            if let Some(tangents) = &mut self.tangents {
                tangents.map_times(|t| t + dt);
            }
        }
        self
    }
}

impl Clip {
    /// Shifts every track by `dt` seconds (see [`Track::shift`]). The duration is left as it is;
    /// call [`Clip::reset_duration`] afterwards if it should follow the keys. Returns `self`.
    pub fn shift(&mut self, dt: f64) -> &mut Clip {
        for track in &mut self.tracks {
            track.shift(dt);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Tangents, Track, TrackKind};

    fn track() -> Track {
        Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 0.1, 0.2],
            vec![1.0, 2.0, 3.0],
        )
    }

    #[test]
    fn shift_rounds_each_time_to_f32() {
        let mut t = track();
        t.shift(0.1);
        let expected: Vec<f32> = [0.0f32, 0.1, 0.2]
            .iter()
            .map(|&x| (x as f64 + 0.1) as f32)
            .collect();
        assert_eq!(t.times, expected);
        assert_eq!(t.times[1].to_bits(), 0.2f32.to_bits());
        assert_eq!(t.values.as_numbers().unwrap(), &[1.0, 2.0, 3.0]);
    }

    #[test]
    fn shift_moves_tangent_times_only() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 10.0]);
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0, 0.0, -0.25, -8.0],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        });
        t.shift(2.0);
        assert_eq!(t.times, vec![2.0, 3.0]);
        let tg = t.tangents.as_ref().unwrap();
        assert_eq!(tg.in_tangents, vec![2.0, 0.0, 1.75, -8.0]);
        assert_eq!(tg.out_tangents, vec![2.25, 8.0, 2.0, 0.0]);
    }

    #[test]
    fn shift_by_zero_is_a_no_op() {
        let mut t = track();
        t.times[1] = f32::NAN;
        t.shift(0.0).shift(-0.0);
        assert_eq!(t.times[0].to_bits(), 0.0f32.to_bits());
        assert!(t.times[1].is_nan());
    }

    #[test]
    fn shift_by_nan_makes_times_nan() {
        let mut t = track();
        t.shift(f64::NAN);
        assert!(t.times.iter().all(|x| x.is_nan()));
    }

    #[test]
    fn clip_shift_moves_all_tracks_but_not_duration() {
        let mut clip = Clip::new("c", -1.0, vec![track(), track()]);
        let duration = clip.duration;
        clip.shift(1.0);
        assert!(clip.tracks.iter().all(|t| t.times[0] == 1.0));
        assert_eq!(clip.duration, duration);
    }
}
