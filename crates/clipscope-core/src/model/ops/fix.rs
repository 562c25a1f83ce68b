//! `fix`: the safe repairs behind `clipscope validate --fix` and the editor's Fix button.
//!
//! Only repairs that keep what the clip shows are applied, each when its rule reports
//! something (and the rule is not in the settings' [`off`](LintSettings::off) list):
//!
//! * `unsorted-times`: keys are sorted by time (stable, carrying values, handles and modes) when
//!   that is all that is wrong with the track (no NaN time, whole value size);
//! * `non-unit-quaternion`: quaternions of non-zero finite length are scaled to unit length;
//! * `quaternion-flip`: the quaternion curves the rule reports (bezier tracks with neighbouring
//!   keys in opposite hemispheres) are unrolled ([`Track::unroll_quaternions`]): every key holds
//!   the same rotation as before, and the curve between two keys stops taking the long way
//!   round, which is what the rule asks for;
//! * `redundant-keys`: three.js's lossless `optimize` on tracks without bezier handles;
//! * `duration-shorter-than-keys` / `duration-longer-than-keys`: `resetDuration`.
//!
//! The result is a [`FixReport`] listing each change in words.

use crate::model::ops::lint::LintSettings;
use crate::model::{Clip, Interpolation, Track, TrackKind, Values};

/// What [`Clip::fix`] changed, one sentence per change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FixReport {
    /// The changes, in the order they were made, e.g. `track 2 "hips.quaternion": sorted 5 keys`.
    pub changes: Vec<String>,
}

impl FixReport {
    /// True when nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl Clip {
    /// Applies the safe fixes (see the module docs) for the rules `settings` runs, with its
    /// tolerances, and reports what changed.
    pub fn fix(&mut self, settings: &LintSettings) -> FixReport {
        let enabled = |code: &str| settings.checks(code);
        let mut report = FixReport::default();
        for (j, track) in self.tracks.iter_mut().enumerate() {
            let place = format!("track {j} \"{}\"", track.name);
            if enabled("unsorted-times")
                && let Some(moved) = sort_keys(track)
            {
                report
                    .changes
                    .push(format!("{place}: sorted {moved} keys by time"));
            }
            if enabled("non-unit-quaternion") {
                let count = normalize_quaternions(track, settings.quaternion_tolerance);
                if count > 0 {
                    report
                        .changes
                        .push(format!("{place}: normalized {count} quaternion(s)"));
                }
            }
            if enabled("quaternion-flip")
                && track.interpolation == Interpolation::Bezier
                && track.values.len() == track.len() * 4
            {
                let count = track.unroll_quaternions();
                if count > 0 {
                    report.changes.push(format!(
                        "{place}: unrolled {count} quaternion flip(s) (keys negated, same rotations)"
                    ));
                }
            }
            if enabled("redundant-keys") && track.tangents.is_none() && track.is_valid() {
                let before = track.len();
                track.optimize();
                if track.len() < before {
                    report.changes.push(format!(
                        "{place}: removed {} redundant key(s) of {before}",
                        before - track.len()
                    ));
                }
            }
        }
        let flagged = self.lint(settings).into_iter().any(|p| {
            (p.code == "duration-shorter-than-keys" || p.code == "duration-longer-than-keys")
                && enabled(&p.code)
        });
        if flagged {
            let before = self.duration;
            self.reset_duration();
            if self.duration != before {
                report.changes.push(format!(
                    "duration reset from {before} s to {} s",
                    self.duration
                ));
            }
        }
        report
    }
}

/// Sorts the keys of `track` by time when they are out of order and nothing else is wrong with
/// the times; returns how many keys moved.
fn sort_keys(track: &mut Track) -> Option<usize> {
    let n = track.times.len();
    if n < 2
        || track.times.iter().any(|t| t.is_nan())
        || !track.values.len().is_multiple_of(n)
        || track.times.windows(2).all(|w| w[0] <= w[1])
    {
        return None;
    }
    let size = track.values.len() / n;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| track.times[a].total_cmp(&track.times[b]));
    let moved = order.iter().enumerate().filter(|(i, k)| i != *k).count();
    track.times = order.iter().map(|&k| track.times[k]).collect();
    let mut values = track.values.empty_like();
    for &k in &order {
        values.extend_from(&track.values, k * size..(k + 1) * size);
    }
    track.values = values;
    if let Some(tangents) = &mut track.tangents {
        let chunk = size * 2;
        for arr in [&mut tangents.in_tangents, &mut tangents.out_tangents] {
            if arr.len() == n * chunk {
                *arr = order
                    .iter()
                    .flat_map(|&k| arr[k * chunk..(k + 1) * chunk].to_vec())
                    .collect();
            }
        }
        if !tangents.modes.is_empty() {
            let modes: Vec<_> = order.iter().map(|&k| tangents.mode(k)).collect();
            tangents.modes = modes;
        }
    }
    Some(moved)
}

/// Scales every quaternion of `track` whose length is off by more than `tolerance` (and is
/// finite and non-zero) to unit length; returns how many changed.
fn normalize_quaternions(track: &mut Track, tolerance: f64) -> usize {
    if track.kind != TrackKind::Quaternion {
        return 0;
    }
    let Values::Numbers(values) = &mut track.values else {
        return 0;
    };
    let mut count = 0;
    for q in values.chunks_exact_mut(4) {
        let len = q.iter().map(|&c| c as f64 * c as f64).sum::<f64>().sqrt();
        if len.is_finite() && len > 0.0 && (len - 1.0).abs() > tolerance {
            for c in q.iter_mut() {
                *c = (*c as f64 / len) as f32;
            }
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(clip: &Clip) -> Vec<String> {
        clip.lint(&LintSettings::default())
            .into_iter()
            .map(|p| p.code)
            .collect()
    }

    #[test]
    fn fixes_sorting_quaternions_redundancy_and_duration() {
        let unsorted = Track::numeric(".a", TrackKind::Number, vec![1.0, 0.0], vec![1.0, 0.0]);
        let q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 1.0],
        );
        let flat = Track::numeric(
            ".b",
            TrackKind::Number,
            vec![0.0, 0.5, 1.0, 1.5],
            vec![0.0, 1.0, 1.0, 1.0],
        );
        let mut clip = Clip::new("jump", 4.0, vec![unsorted, q, flat]);
        let before = codes(&clip);
        for code in [
            "unsorted-times",
            "non-unit-quaternion",
            "redundant-keys",
            "duration-longer-than-keys",
        ] {
            assert!(before.iter().any(|c| c == code), "{code} in {before:?}");
        }
        let report = clip.fix(&LintSettings::default());
        assert_eq!(report.changes.len(), 4, "{:?}", report.changes);
        assert!(codes(&clip).is_empty(), "{:?}", codes(&clip));
        assert_eq!(clip.tracks[0].times, [0.0, 1.0]);
        assert_eq!(clip.tracks[0].values, Values::Numbers(vec![0.0, 1.0]));
        assert_eq!(clip.duration, 1.5);
        assert!(clip.fix(&LintSettings::default()).is_empty());
    }

    #[test]
    fn disabled_rules_are_not_fixed() {
        let t = Track::numeric(".a", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut clip = Clip::new("c", 9.0, vec![t]);
        let mut settings = LintSettings::default();
        settings.off.insert("duration-longer-than-keys".into());
        assert!(clip.fix(&settings).is_empty());
        assert_eq!(clip.duration, 9.0);
    }

    #[test]
    fn flipped_bezier_quaternions_are_unrolled_and_slerped_ones_left_alone() {
        let values = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0];
        let mut bezier = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            values.clone(),
        );
        bezier.interpolation = Interpolation::Bezier;
        let linear = Track::numeric(
            "b.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            values.clone(),
        );
        let mut clip = Clip::new("turn", 1.0, vec![bezier, linear]);
        assert!(codes(&clip).contains(&"quaternion-flip".to_string()));
        let report = clip.fix(&LintSettings::default());
        assert_eq!(
            report.changes,
            [
                r#"track 0 ".quaternion": unrolled 1 quaternion flip(s) (keys negated, same rotations)"#
            ]
        );
        assert_eq!(
            clip.tracks[0].values,
            Values::Numbers(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            clip.tracks[1].values,
            Values::Numbers(values),
            "a slerp already turns the short way"
        );
        assert!(!codes(&clip).contains(&"quaternion-flip".to_string()));
    }
}
