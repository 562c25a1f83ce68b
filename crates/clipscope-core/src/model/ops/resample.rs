//! `resample`: bake a clip to one key per frame at a frame rate.
//!
//! Each track is sampled with three.js's own interpolant (the model's [`bake`](super::bake)) at
//! every frame `k / fps` from 0 to the duration (and at the duration itself when it falls
//! between frames), so what plays at those times is unchanged. Smooth and bezier tracks become linear (slerp for
//! quaternions) and lose their handles; discrete, bool and string tracks stay discrete. A track
//! with a single key, or a clip without a positive duration, is left alone.

use super::bake::{self, FrameGrid};
use crate::model::{Clip, Interpolation, Track};

use super::OpError;

/// The largest number of frames [`Clip::resample`] bakes (a guard against a mistyped rate).
pub const MAX_RESAMPLE_FRAMES: usize = 10_000_000;

impl Clip {
    /// Bakes every track to one key per frame at `fps` (see the module docs); returns the key
    /// count after. An `fps` that is not finite and above 0, or that would make more than
    /// [`MAX_RESAMPLE_FRAMES`] frames, is an error and changes nothing.
    pub fn resample(&mut self, fps: f64) -> Result<usize, OpError> {
        if !(fps.is_finite() && fps > 0.0) {
            return Err(OpError::FrameRate(fps));
        }
        if !(self.duration.is_finite() && self.duration > 0.0) {
            return Ok(self.key_count());
        }
        let grid = FrameGrid::new(fps, 0.0);
        let frames = grid.last_frame_before(self.duration);
        if frames >= MAX_RESAMPLE_FRAMES as f64 {
            return Err(OpError::TooManyFrames {
                duration: self.duration,
                fps,
            });
        }
        let mut times: Vec<f64> = (0..=frames as i64).map(|k| grid.time(k)).collect();
        if times.last().is_some_and(|&t| t < self.duration) {
            times.push(self.duration);
        }
        for track in &mut self.tracks {
            if track.len() > 1 {
                *track = baked(track, &times);
            }
        }
        Ok(self.key_count())
    }
}

/// `track` sampled at `times`: linear where its kind allows (discrete stays discrete).
fn baked(track: &Track, times: &[f64]) -> Track {
    let values = bake::sample(track, times.iter().copied());
    let interpolation = match track.interpolation {
        Interpolation::Discrete => Interpolation::Discrete,
        _ if track.kind.supports(Interpolation::Linear) => Interpolation::Linear,
        _ => Interpolation::Discrete,
    };
    let times = times.iter().map(|&t| t as f32).collect();
    bake::with_keys(track, times, values, interpolation)
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Interpolation, Tangents, Track, TrackKind};

    #[test]
    fn linear_tracks_get_one_key_per_frame_with_the_same_values() {
        let t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 10.0]);
        let mut c = Clip::new("c", 1.0, vec![t]);
        assert_eq!(c.resample(4.0), Ok(5));
        assert_eq!(c.tracks[0].times, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(
            c.tracks[0].values.as_numbers().unwrap(),
            &[0.0, 2.5, 5.0, 7.5, 10.0]
        );
    }

    #[test]
    fn a_duration_between_frames_gets_a_last_key_and_bezier_becomes_linear() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 0.5], vec![0.0, 1.0]);
        t.interpolation = Interpolation::Bezier;
        t.tangents = Some(Tangents::new(
            vec![0.0, 0.0, 0.5, 1.0],
            vec![0.0, 0.0, 0.5, 1.0],
        ));
        let mut c = Clip::new("c", 0.5, vec![t]);
        c.resample(3.0).unwrap();
        let t = &c.tracks[0];
        assert_eq!(t.times, vec![0.0, 1.0 / 3.0, 0.5]);
        assert_eq!(t.interpolation, Interpolation::Linear);
        assert!(t.tangents.is_none());
        // Handles on the keys: the bezier is the straight line.
        let v = t.values.as_numbers().unwrap();
        assert!((v[1] - 2.0 / 3.0).abs() < 1e-5, "{v:?}");
    }

    #[test]
    fn bool_tracks_stay_discrete_and_bad_rates_are_refused() {
        let b = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 0.5],
            crate::model::Values::Bools(vec![true, false]),
        );
        let mut c = Clip::new("c", 1.0, vec![b]);
        assert!(c.resample(0.0).is_err());
        assert!(c.resample(f64::NAN).is_err());
        c.resample(2.0).unwrap();
        assert_eq!(c.tracks[0].times, vec![0.0, 0.5, 1.0]);
        assert_eq!(
            c.tracks[0].values,
            crate::model::Values::Bools(vec![true, false, false])
        );
        assert_eq!(c.tracks[0].interpolation, Interpolation::Discrete);
    }
}
