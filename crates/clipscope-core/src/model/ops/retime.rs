//! `retime`: stretch a clip in time and/or move it, keeping the duration in step.
//!
//! three.js's `scale` and `shift` change the keys and leave the duration alone; an editor's
//! retime (scale by a factor, to a duration, or shift) means the whole clip, so the duration
//! follows: `duration · factor + offset` (never below 0).

use crate::model::Clip;

impl Clip {
    /// Multiplies every key and handle time by `factor` (three.js `scale`), then adds `offset`
    /// seconds (three.js `shift`), and sets the duration to `duration · factor + offset`
    /// (at least 0). The factor should be finite and above 0 (callers check).
    pub fn retime(&mut self, factor: f64, offset: f64) {
        self.scale(factor);
        self.shift(offset);
        self.duration = (self.duration * factor + offset).max(0.0);
    }

    /// The factor that makes the clip last `duration` seconds, or `None` when the clip has no
    /// length to stretch or `duration` is not a finite number above 0.
    pub fn factor_to_duration(&self, duration: f64) -> Option<f64> {
        (duration.is_finite() && duration > 0.0 && self.duration > 0.0)
            .then(|| duration / self.duration)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Track, TrackKind};

    #[test]
    fn retime_scales_then_shifts_keys_and_duration() {
        let t = Track::numeric(".x", TrackKind::Number, vec![0.0, 0.5, 1.0], vec![0.0; 3]);
        let mut c = Clip::new("c", 1.0, vec![t]);
        let f = c.factor_to_duration(2.0).unwrap();
        assert_eq!(f, 2.0);
        c.retime(f, 0.25);
        assert_eq!(c.tracks[0].times, vec![0.25, 1.25, 2.25]);
        assert_eq!(c.duration, 2.25);
        c.retime(1.0, -5.0);
        assert_eq!(c.duration, 0.0);
        assert_eq!(c.factor_to_duration(1.0), None);
    }
}
