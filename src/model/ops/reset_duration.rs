//! `resetDuration`: the clip lasts until its latest key.

use crate::model::Clip;

impl Clip {
    /// Sets `duration` to the largest last-key time over all tracks, at least 0
    /// (three.js folds with `Math.max`, so a NaN time makes the duration NaN). Returns `self`.
    pub fn reset_duration(&mut self) -> &mut Clip {
        let mut duration = 0.0f64;
        for track in &self.tracks {
            if let Some(end) = track.end_time() {
                duration = js_max(duration, end as f64);
            }
        }
        self.duration = duration;
        self
    }
}

/// JavaScript's `Math.max` for two numbers: NaN wins.
pub(crate) fn js_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}
