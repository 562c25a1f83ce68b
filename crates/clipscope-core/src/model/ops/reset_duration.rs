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

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Track, TrackKind};

    fn track(times: Vec<f32>) -> Track {
        let n = times.len();
        Track::numeric(".x", TrackKind::Number, times, vec![0.0; n])
    }

    #[test]
    fn reset_duration_is_the_latest_last_key() {
        let mut clip = Clip::new(
            "c",
            5.0,
            vec![
                track(vec![0.0, 2.0]),
                track(vec![0.5, 0.1]),
                track(vec![0.0, 1.5]),
            ],
        );
        assert_eq!(clip.reset_duration().duration, 2.0);
        let mut clip = Clip::new("c", 5.0, vec![track(vec![0.0, 0.1])]);
        assert_eq!(clip.reset_duration().duration, 0.10000000149011612);
    }

    #[test]
    fn reset_duration_is_at_least_zero_and_skips_empty_tracks() {
        let mut clip = Clip::new("c", 5.0, vec![track(vec![-3.0, -1.0]), track(vec![])]);
        assert_eq!(clip.reset_duration().duration, 0.0);
        let mut clip = Clip::new("c", 5.0, vec![]);
        assert_eq!(clip.reset_duration().duration, 0.0);
    }

    #[test]
    fn reset_duration_nan_wins() {
        let mut clip = Clip::new(
            "c",
            1.0,
            vec![
                track(vec![0.0, 3.0]),
                track(vec![0.0, f32::NAN]),
                track(vec![9.0]),
            ],
        );
        assert!(clip.reset_duration().duration.is_nan());
        // The constructor recomputes only for a negative duration; NaN stays.
        assert!(
            Clip::new("c", f64::NAN, vec![track(vec![1.0])])
                .duration
                .is_nan()
        );
        assert_eq!(Clip::new("c", -1.0, vec![track(vec![1.0])]).duration, 1.0);
    }
}
