//! `trim`: drop the keys outside a time window, always keeping at least one key.
//!
//! Nothing is shifted: the kept keys keep their times. Bezier tangent arrays are left as they
//! are (three.js does not slice them either); handle modes (editor state) are sliced with the
//! keys so they stay aligned with them.

use crate::model::{Clip, Track};

impl Track {
    /// Keeps the keys with `start <= time <= end` (three.js `KeyframeTrack.trim`).
    ///
    /// `from` is the first key not before `start`, `to` one past the last key not after `end`.
    /// When the window holds no key, one key survives: the last key if every key is before the
    /// window, the first key if every key is after it. Tangents are not trimmed, handle modes
    /// are. Returns `self`.
    pub fn trim(&mut self, start: f64, end: f64) -> &mut Track {
        let n = self.times.len();
        let mut from = 0usize;
        while from != n && (self.times[from] as f64) < start {
            from += 1;
        }
        // `to` counts down from n-1 and may reach -1 before the exclusive `++to`.
        let mut to = n as isize - 1;
        while to != -1 && (self.times[to as usize] as f64) > end {
            to -= 1;
        }
        let mut to = (to + 1) as usize;
        if from != 0 || to != n {
            if from >= to {
                to = to.max(1);
                from = to - 1;
            }
            let stride = self.value_size();
            self.times = self.times[from..to].to_vec();
            let len = self.values.len();
            let a = (from * stride).min(len);
            let b = (to * stride).min(len).max(a);
            self.values = self.values.slice(a..b);
            if let Some(tangents) = &mut self.tangents {
                tangents.keep_modes(from..to);
            }
        }
        self
    }
}

impl Clip {
    /// Trims every track to `[0, duration]` (three.js `AnimationClip.trim`). Returns `self`.
    pub fn trim(&mut self) -> &mut Clip {
        let duration = self.duration;
        for track in &mut self.tracks {
            track.trim(0.0, duration);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, TangentMode, Tangents, Track, TrackKind, Values};

    fn track() -> Track {
        Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5],
        )
    }

    fn trimmed(start: f64, end: f64) -> (Vec<f32>, Vec<f32>) {
        let mut t = track();
        t.trim(start, end);
        (t.times.clone(), t.values.as_numbers().unwrap().to_vec())
    }

    #[test]
    fn trim_table_from_the_spec() {
        assert_eq!(
            trimmed(0.5, 2.5),
            (vec![1.0, 2.0], vec![1.0, 1.5, 2.0, 2.5])
        );
        assert_eq!(trimmed(5.0, 6.0), (vec![3.0], vec![3.0, 3.5]));
        assert_eq!(trimmed(-2.0, -1.0), (vec![0.0], vec![0.0, 0.5]));
        assert_eq!(trimmed(1.0, 1.0), (vec![1.0], vec![1.0, 1.5]));
        assert_eq!(trimmed(2.5, 2.6), (vec![2.0], vec![2.0, 2.5]));
    }

    #[test]
    fn trim_covering_window_keeps_everything() {
        assert_eq!(trimmed(0.0, 3.0).0, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(trimmed(f64::NEG_INFINITY, f64::INFINITY).0.len(), 4);
    }

    #[test]
    fn trim_does_not_touch_tangents_and_handles_bools() {
        let mut t = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0, 2.0],
            Values::Bools(vec![true, false, true]),
        );
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0; 6],
            out_tangents: vec![1.0; 6],
            modes: Vec::new(),
        });
        t.trim(0.5, 5.0);
        assert_eq!(t.times, vec![1.0, 2.0]);
        assert_eq!(t.values, Values::Bools(vec![false, true]));
        assert_eq!(t.tangents.as_ref().unwrap().in_tangents.len(), 6);
    }

    #[test]
    fn trim_keeps_modes_aligned_with_keys() {
        use TangentMode::*;
        let mut t = track();
        let mut tangents = Tangents::new(vec![0.0; 16], vec![0.0; 16]);
        tangents.modes = vec![Auto, Vector, Aligned];
        t.tangents = Some(tangents);
        t.trim(0.5, 3.0);
        assert_eq!(t.times, vec![1.0, 2.0, 3.0]);
        assert_eq!(t.tangents.as_ref().unwrap().modes, [Vector, Aligned, Free]);
        t.trim(5.0, 6.0);
        assert_eq!(t.tangents.as_ref().unwrap().modes, [Free]);
    }

    #[test]
    fn trim_empty_track_stays_empty() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![], vec![]);
        t.trim(0.0, 1.0);
        assert!(t.is_empty());
    }

    #[test]
    fn clip_trim_uses_zero_to_duration() {
        let a = Track::numeric(
            ".a",
            TrackKind::Number,
            vec![-1.0, 0.0, 1.0, 2.0],
            vec![0.0, 1.0, 2.0, 3.0],
        );
        let mut clip = Clip::new("c", 1.0, vec![a]);
        clip.trim();
        assert_eq!(clip.tracks[0].times, vec![0.0, 1.0]);
        assert_eq!(clip.tracks[0].values.as_numbers().unwrap(), &[1.0, 2.0]);
        assert_eq!(clip.duration, 1.0);
    }
}
