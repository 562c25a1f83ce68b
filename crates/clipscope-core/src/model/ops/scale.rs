//! `scale`: stretch or squeeze time by multiplying every key (and bezier handle) time.
//!
//! three.js multiplies in f64 and stores the product back into the `Float32Array`, so each
//! scaled time is rounded to f32. A factor of exactly 1 leaves the track untouched.

use crate::model::{Clip, Track};

impl Track {
    /// Multiplies every key time and every tangent handle time by `s` (three.js
    /// `KeyframeTrack.scale`), rounding each result to f32. Does nothing when `s == 1`.
    /// Returns `self` for chaining.
    pub fn scale(&mut self, s: f64) -> &mut Track {
        if s != 1.0 {
            for t in &mut self.times {
                *t = (*t as f64 * s) as f32;
            }
            if let Some(tangents) = &mut self.tangents {
                tangents.map_times(|t| t * s);
            }
        }
        self
    }
}

impl Clip {
    /// Scales the times of every track by `s` (see [`Track::scale`]). The duration is left as it
    /// is; call [`Clip::reset_duration`] afterwards if it should follow the keys. Returns `self`.
    pub fn scale(&mut self, s: f64) -> &mut Clip {
        for track in &mut self.tracks {
            track.scale(s);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Tangents, Track, TrackKind};

    #[test]
    fn scale_rounds_each_product_to_f32() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0.0; 4],
        );
        t.scale(1.0 / 10.0);
        assert_eq!(t.times, vec![0.0, 0.1, 0.2, 0.3]);
        assert_eq!(t.times[3] as f64, 0.30000001192092896);
    }

    #[test]
    fn scale_scales_tangent_times_not_values() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 10.0]);
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0, 0.0, -0.25, -8.0],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        });
        t.scale(2.0);
        assert_eq!(t.times, vec![0.0, 2.0]);
        let tg = t.tangents.as_ref().unwrap();
        assert_eq!(tg.in_tangents, vec![0.0, 0.0, -0.5, -8.0]);
        assert_eq!(tg.out_tangents, vec![0.5, 8.0, 0.0, 0.0]);
    }

    #[test]
    fn scale_by_one_is_a_no_op() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![-0.0, f32::NAN], vec![0.0; 2]);
        t.scale(1.0);
        assert_eq!(t.times[0].to_bits(), (-0.0f32).to_bits());
        assert!(t.times[1].is_nan());
    }

    #[test]
    fn clip_scale_scales_every_track() {
        let a = Track::numeric(".a", TrackKind::Number, vec![0.0, 1.0], vec![0.0; 2]);
        let b = Track::numeric(".b", TrackKind::Number, vec![0.0, 3.0], vec![0.0; 2]);
        let mut clip = Clip::new("c", -1.0, vec![a, b]);
        clip.scale(0.5);
        assert_eq!(clip.tracks[0].times, vec![0.0, 0.5]);
        assert_eq!(clip.tracks[1].times, vec![0.0, 1.5]);
        assert_eq!(clip.duration, 3.0);
    }
}
