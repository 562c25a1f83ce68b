//! `optimize`: remove keys that add nothing, exactly like three.js's `KeyframeTrack.optimize`.
//!
//! A key in the middle of a track is dropped when its value equals (strict `!==`, so NaN always
//! differs and `-0` equals `0`) both of its original neighbours, or when it shares its time with
//! the next key (the earlier of two equal-time keys goes), or when it is key 1 with key 0's time.
//! Smooth tracks keep every key except the equal-time ones. The first and last keys always stay.
//! There is no epsilon and no special case for quaternions; bezier tangents are not compacted.
//! Handle modes (editor state, not part of three.js) are compacted with the keys, so they stay
//! aligned with them.

use crate::model::{Clip, Interpolation, TangentMode, Track, Values};

/// What [`Clip::optimize`] did: key counts before and after, and how many tracks lost keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OptimizeReport {
    /// Keys over all tracks before optimizing.
    pub keys_before: usize,
    /// Keys over all tracks after optimizing.
    pub keys_after: usize,
    /// Number of tracks whose key count went down.
    pub tracks_changed: usize,
}

impl OptimizeReport {
    /// Keys removed over all tracks.
    pub fn keys_removed(&self) -> usize {
        self.keys_before - self.keys_after
    }
}

impl Track {
    /// Removes redundant keys in place (three.js `KeyframeTrack.optimize`, see the module
    /// docs). A track whose value count is not a whole multiple of its key count is left as it
    /// is (three.js's `validate` rejects such tracks). Returns `self`.
    pub fn optimize(&mut self) -> &mut Track {
        let n = self.times.len();
        if n == 0 || !self.values.len().is_multiple_of(n) {
            return self;
        }
        let stride = self.values.len() / n;
        let smooth = self.interpolation == Interpolation::Smooth;
        let mut no_modes = Vec::new();
        let modes = match &mut self.tangents {
            Some(tangents) if !tangents.modes.is_empty() => {
                tangents.modes.resize(n, TangentMode::Free);
                &mut tangents.modes
            }
            _ => &mut no_modes,
        };
        let kept = match &mut self.values {
            Values::Numbers(v) => compact(&mut self.times, v, modes, stride, smooth),
            Values::Bools(v) => compact(&mut self.times, v, modes, stride, smooth),
            Values::Strings(v) => compact(&mut self.times, v, modes, stride, smooth),
        };
        if kept != n {
            self.times.truncate(kept);
            self.values.truncate(kept * stride);
            if !modes.is_empty() {
                modes.truncate(kept);
            }
        }
        self
    }

    /// Whether [`Track::optimize`] would change the track (remove a key, or give every key a
    /// handle mode where only some have one): a look that copies nothing, for callers that
    /// need the optimized track only when it differs.
    pub fn optimize_changes(&self) -> bool {
        let n = self.times.len();
        if n == 0 || !self.values.len().is_multiple_of(n) {
            return false;
        }
        let modes = self.tangents.as_ref().map_or(0, |t| t.modes.len());
        if modes != 0 && modes != n {
            return true;
        }
        if n < 3 {
            return false;
        }
        let stride = self.values.len() / n;
        let smooth = self.interpolation == Interpolation::Smooth;
        let t = &self.times;
        (1..n - 1).any(|i| match &self.values {
            Values::Numbers(v) => !keeps(t, v, stride, smooth, i),
            Values::Bools(v) => !keeps(t, v, stride, smooth, i),
            Values::Strings(v) => !keeps(t, v, stride, smooth, i),
        })
    }
}

/// Whether `optimize` keeps key `i` (neither the first nor the last) of `times` and `values`
/// (`stride` values per key), all original keys.
fn keeps<T: PartialEq>(times: &[f32], values: &[T], stride: usize, smooth: bool, i: usize) -> bool {
    let time = times[i];
    if time == times[i + 1] || (i == 1 && time == times[0]) {
        return false;
    }
    smooth || {
        let key = &values[i * stride..(i + 1) * stride];
        let prev = &values[(i - 1) * stride..i * stride];
        let next = &values[(i + 1) * stride..(i + 2) * stride];
        key.iter()
            .zip(prev)
            .zip(next)
            .any(|((v, p), n)| v != p || v != n)
    }
}

/// Copies key `from` over key `to` (`to < from`).
fn copy_key<T: Clone>(values: &mut [T], from: usize, to: usize, stride: usize) {
    if from != to {
        let (head, tail) = values.split_at_mut(from * stride);
        head[to * stride..(to + 1) * stride].clone_from_slice(&tail[..stride]);
    }
}

/// The compaction loop of `optimize` over one value type; returns the number of keys kept.
///
/// Compaction writes only to slots below `i`, so the neighbour reads (i-1, i+1) in the loop
/// always see original keys, exactly like three.js working on its sliced copies. `!=` on `f32`
/// is JavaScript's `!==` (NaN differs from itself, `-0` equals `0`). `modes` is empty or holds
/// one mode per key, compacted along with the keys.
fn compact<T: PartialEq + Clone>(
    times: &mut [f32],
    values: &mut [T],
    modes: &mut [TangentMode],
    stride: usize,
    smooth: bool,
) -> usize {
    let n = times.len();
    let last = n - 1;
    let mut write = 1usize;
    for i in 1..last {
        if keeps(times, values, stride, smooth, i) {
            if i != write {
                times[write] = times[i];
                copy_key(values, i, write, stride);
                if !modes.is_empty() {
                    modes[write] = modes[i];
                }
            }
            write += 1;
        }
    }
    if last > 0 {
        times[write] = times[last];
        copy_key(values, last, write, stride);
        if !modes.is_empty() {
            modes[write] = modes[last];
        }
        write += 1;
    }
    write
}

impl Clip {
    /// Optimizes every track (three.js `AnimationClip.optimize`) and reports the key counts.
    pub fn optimize(&mut self) -> OptimizeReport {
        let mut report = OptimizeReport::default();
        for track in &mut self.tracks {
            let before = track.len();
            track.optimize();
            report.keys_before += before;
            report.keys_after += track.len();
            if track.len() != before {
                report.tracks_changed += 1;
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Interpolation, TangentMode, Tangents, Track, TrackKind, Values};

    fn optimized(times: &[f32], values: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let mut t = Track::numeric(".x", TrackKind::Number, times.to_vec(), values.to_vec());
        t.optimize();
        (t.times.clone(), t.values.as_numbers().unwrap().to_vec())
    }

    #[test]
    fn changes_says_whether_optimize_would() {
        let cases: [(&[f32], &[f32], Interpolation); 7] = [
            (
                &[0.0, 1.0, 2.0, 3.0],
                &[0.0, 1.0, 0.0, 1.0],
                Interpolation::Linear,
            ),
            (
                &[0.0, 1.0, 2.0, 3.0],
                &[0.0, 0.0, 0.0, 1.0],
                Interpolation::Linear,
            ),
            (
                &[0.0, 1.0, 1.0, 3.0],
                &[0.0, 1.0, 2.0, 3.0],
                Interpolation::Linear,
            ),
            (&[0.0, 0.0, 2.0], &[0.0, 1.0, 2.0], Interpolation::Linear),
            (&[0.0, 1.0, 2.0], &[0.0, 0.0, 0.0], Interpolation::Smooth),
            (&[0.0, 1.0], &[0.0, 0.0], Interpolation::Linear),
            (
                &[0.0, 1.0, 2.0],
                &[f32::NAN, f32::NAN, f32::NAN],
                Interpolation::Linear,
            ),
        ];
        let removes = [false, true, true, true, false, false, false];
        for ((times, values, interpolation), removes) in cases.into_iter().zip(removes) {
            let mut t = Track::numeric(".x", TrackKind::Number, times.to_vec(), values.to_vec());
            t.interpolation = interpolation;
            assert_eq!(t.optimize_changes(), removes, "{times:?} {values:?}");
            let before = t.times.len();
            assert_eq!(
                t.optimize().times.len() < before,
                removes,
                "{times:?} {values:?}"
            );
        }
    }

    #[test]
    fn optimize_golden_flat_run() {
        let r = optimized(&[0.0, 1.0, 2.0, 3.0, 4.0], &[0.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(r, (vec![0.0, 3.0, 4.0], vec![0.0, 0.0, 1.0]));
    }

    #[test]
    fn optimize_golden_two_plateaus() {
        let r = optimized(
            &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0],
        );
        assert_eq!(r.0, vec![0.0, 1.0, 2.0, 4.0, 5.0, 6.0]);
        assert_eq!(r.1, vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn optimize_golden_equal_times() {
        let r = optimized(&[0.0, 0.0, 1.0, 1.0, 2.0], &[5.0, 6.0, 7.0, 8.0, 9.0]);
        assert_eq!(r, (vec![0.0, 1.0, 2.0], vec![5.0, 8.0, 9.0]));
    }

    #[test]
    fn optimize_keeps_smooth_constant_track() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![1.0; 4],
        );
        t.interpolation = Interpolation::Smooth;
        let before = t.clone();
        t.optimize();
        assert_eq!(t, before);
    }

    #[test]
    fn optimize_smooth_still_drops_equal_times() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 1.0, 2.0],
            vec![1.0, 2.0, 3.0, 4.0],
        );
        t.interpolation = Interpolation::Smooth;
        t.optimize();
        assert_eq!(t.times, vec![0.0, 1.0, 2.0]);
        assert_eq!(t.values.as_numbers().unwrap(), &[1.0, 3.0, 4.0]);
    }

    #[test]
    fn optimize_bool_track() {
        let mut t = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0, 2.0, 3.0],
            Values::Bools(vec![true, true, true, false]),
        );
        t.optimize();
        assert_eq!(t.times, vec![0.0, 2.0, 3.0]);
        assert_eq!(t.values, Values::Bools(vec![true, true, false]));
    }

    #[test]
    fn optimize_nan_always_differs_and_negative_zero_equals_zero() {
        let nan = optimized(&[0.0, 1.0, 2.0], &[f32::NAN, f32::NAN, f32::NAN]);
        assert_eq!(nan.0, vec![0.0, 1.0, 2.0]);
        let zero = optimized(&[0.0, 1.0, 2.0], &[0.0, -0.0, 0.0]);
        assert_eq!(zero.0, vec![0.0, 2.0]);
    }

    #[test]
    fn optimize_compares_with_original_neighbours() {
        // Key 2 equals keys 1 and 3 even though key 1 is dropped before key 2 is looked at.
        let r = optimized(&[0.0, 1.0, 2.0, 3.0], &[0.0, 0.0, 0.0, 0.0]);
        assert_eq!(r.0, vec![0.0, 3.0]);
    }

    #[test]
    fn optimize_vector_any_component_keeps_key() {
        let mut t = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
        );
        t.optimize();
        assert_eq!(t.times, vec![0.0, 1.0, 2.0]);
    }

    #[test]
    fn optimize_small_tracks_and_tangents_untouched() {
        assert_eq!(optimized(&[], &[]).0, Vec::<f32>::new());
        assert_eq!(optimized(&[1.0], &[2.0]), (vec![1.0], vec![2.0]));
        assert_eq!(optimized(&[0.0, 0.0], &[2.0, 2.0]).0, vec![0.0, 0.0]);
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0, 2.0], vec![0.0; 3]);
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0; 6],
            out_tangents: vec![0.0; 6],
            modes: Vec::new(),
        });
        t.optimize();
        assert_eq!(t.times, vec![0.0, 2.0]);
        assert_eq!(t.tangents.as_ref().unwrap().out_tangents.len(), 6);
    }

    #[test]
    fn optimize_keeps_modes_aligned_with_keys() {
        use TangentMode::*;
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![0.0, 0.0, 0.0, 1.0, 1.0],
        );
        let mut tangents = Tangents::new(vec![0.0; 10], vec![0.0; 10]);
        tangents.modes = vec![Auto, Vector, Aligned, AutoClamped];
        t.tangents = Some(tangents);
        assert!(t.optimize_changes());
        t.optimize();
        assert_eq!(t.times, vec![0.0, 2.0, 3.0, 4.0]);
        let tangents = t.tangents.as_ref().unwrap();
        assert_eq!(tangents.modes, [Auto, Aligned, AutoClamped, Free]);
        // Modes for only some keys: every key gets one, though none is removed.
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut tangents = Tangents::new(vec![0.0; 4], vec![0.0; 4]);
        tangents.modes = vec![Vector];
        t.tangents = Some(tangents);
        assert!(t.optimize_changes());
        t.optimize();
        assert_eq!(t.tangents.as_ref().unwrap().modes, [Vector, Free]);
        assert!(!t.optimize_changes());
        // Without modes nothing is allocated.
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0, 2.0], vec![0.0; 3]);
        t.tangents = Some(Tangents::new(vec![0.0; 6], vec![0.0; 6]));
        t.optimize();
        assert!(t.tangents.as_ref().unwrap().modes.is_empty());
    }

    #[test]
    fn clip_optimize_reports_counts() {
        let a = Track::numeric(
            ".a",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![0.0, 0.0, 0.0, 0.0, 1.0],
        );
        let b = Track::numeric(".b", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut clip = Clip::new("c", -1.0, vec![a, b]);
        let report = clip.optimize();
        assert_eq!(report.keys_before, 7);
        assert_eq!(report.keys_after, 5);
        assert_eq!(report.tracks_changed, 1);
        assert_eq!(report.keys_removed(), 2);
    }
}
