//! `reverse`: play a clip backwards.
//!
//! Every key at time `t` moves to `duration - t` and the keys are put back in ascending order;
//! values travel with their key. Bezier handles are mirrored too: a key's new in handle is its
//! old out handle at the mirrored time, and the other way round, so the reversed curve is the
//! original read from right to left. Handle modes follow their keys. The duration is kept; a
//! clip whose keys run past its duration (or whose duration is not a finite number ≥ 0) mirrors
//! about the last key instead, so no key lands before 0.

use crate::model::{Clip, HandleSide, Track};

impl Track {
    /// Mirrors the track in time about `end` (`t → end - t`) and reverses the key order, with
    /// values, handles and handle modes. Handle arrays too short for every key are only
    /// mirrored in time (their keys no longer line up; the sampler ignores such arrays).
    pub fn reverse(&mut self, end: f64) {
        let n = self.len();
        let vs = self.value_size();
        self.times = self
            .times
            .iter()
            .rev()
            .map(|&t| (end - t as f64) as f32)
            .collect();
        if vs > 0 && self.values.len() == n * vs {
            let mut values = self.values.empty_like();
            for k in (0..n).rev() {
                values.extend_from(&self.values, k * vs..(k + 1) * vs);
            }
            self.values = values;
        }
        let Some(tangents) = &mut self.tangents else {
            return;
        };
        let chunk = vs * 2;
        let complete = chunk > 0
            && tangents.in_tangents.len() == n * chunk
            && tangents.out_tangents.len() == n * chunk;
        tangents.map_times(|t| end - t);
        if complete {
            let flip = |arr: &[f32]| -> Vec<f32> {
                (0..n)
                    .rev()
                    .flat_map(|k| arr[k * chunk..(k + 1) * chunk].iter().copied())
                    .collect()
            };
            let new_in = flip(tangents.side(HandleSide::Out));
            let new_out = flip(tangents.side(HandleSide::In));
            tangents.in_tangents = new_in;
            tangents.out_tangents = new_out;
        }
        if !tangents.modes.is_empty() {
            let modes: Vec<usize> = (0..n).rev().collect();
            tangents.keep_modes(modes);
        }
    }
}

impl Clip {
    /// Reverses every track about the clip's duration (see the module docs); returns the time
    /// the tracks were mirrored about.
    pub fn reverse(&mut self) -> f64 {
        let last = self
            .tracks
            .iter()
            .filter_map(Track::end_time)
            .fold(f64::NEG_INFINITY, |a, t| a.max(t as f64));
        let end = if self.duration.is_finite()
            && self.duration >= 0.0
            && (last <= self.duration || last.is_nan())
        {
            self.duration
        } else {
            last.max(0.0)
        };
        for track in &mut self.tracks {
            track.reverse(end);
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::Sampler;
    use crate::model::{Clip, Interpolation, TangentMode, Tangents, Track, TrackKind, Values};

    #[test]
    fn keys_and_values_are_mirrored_about_the_duration() {
        let t = Track::numeric(
            ".position",
            TrackKind::Vector,
            vec![0.0, 0.5, 1.5],
            vec![1., 2., 3., 4., 5., 6., 7., 8., 9.],
        );
        let mut clip = Clip::new("c", 2.0, vec![t]);
        assert_eq!(clip.reverse(), 2.0);
        let t = &clip.tracks[0];
        assert_eq!(t.times, vec![0.5, 1.5, 2.0]);
        assert_eq!(
            t.values.as_numbers().unwrap(),
            &[7., 8., 9., 4., 5., 6., 1., 2., 3.]
        );
        assert_eq!(clip.duration, 2.0);
    }

    #[test]
    fn keys_past_the_duration_mirror_about_the_last_key() {
        let t = Track::numeric(".x", TrackKind::Number, vec![0.0, 3.0], vec![0.0, 1.0]);
        let mut clip = Clip::new("c", 1.0, vec![t]);
        assert_eq!(clip.reverse(), 3.0);
        assert_eq!(clip.tracks[0].times, vec![0.0, 3.0]);
        assert_eq!(clip.tracks[0].values.as_numbers().unwrap(), &[1.0, 0.0]);
    }

    #[test]
    fn a_reversed_bezier_curve_is_the_original_read_backwards() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 10.0]);
        t.interpolation = Interpolation::Bezier;
        let mut tg = Tangents::new(vec![-0.2, 0.0, 0.9, 12.0], vec![0.1, 4.0, 1.2, 10.0]);
        tg.modes = vec![TangentMode::Free, TangentMode::Vector];
        t.tangents = Some(tg);
        let original = t.clone();
        t.reverse(1.0);
        let tg = t.tangents.as_ref().unwrap();
        assert_eq!(tg.in_tangents, vec![-0.20000005, 10.0, 0.9, 4.0]);
        assert_eq!(tg.out_tangents, vec![0.100000024, 12.0, 1.2, 0.0]);
        assert_eq!(tg.modes, vec![TangentMode::Vector, TangentMode::Free]);
        let (mut a, mut b) = (Sampler::new(&original), Sampler::new(&t));
        for i in 0..=10 {
            let s = i as f64 / 10.0;
            let (Values::Numbers(x), Values::Numbers(y)) = (a.evaluate(s), b.evaluate(1.0 - s))
            else {
                panic!("numbers");
            };
            assert!((x[0] - y[0]).abs() < 1e-4, "{s}: {x:?} {y:?}");
        }
        let mut twice = t.clone();
        twice.reverse(1.0);
        assert_eq!(twice.values, original.values);
        assert_eq!(twice.times, original.times);
    }
}
