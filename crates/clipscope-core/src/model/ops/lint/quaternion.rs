//! Quaternion rules: keys must be unit length (`non-unit-quaternion`, with the configured
//! tolerance) and neighbouring keys of a curve should lie in the same hemisphere
//! (`quaternion-flip`): `q` and `-q` are the same rotation, but a curve that interpolates
//! components from one key to a key near the other's negation (dot < 0, beyond a rounding
//! epsilon) takes the long way round. Only bezier tracks interpolate quaternion components:
//! three.js's linear interpolant (and glTF's, and PlayCanvas's `Skeleton`) is a slerp that
//! negates one end itself when the dot is negative, smooth falls back to it, and discrete keys
//! are never blended, so flips there are harmless and not reported.

use super::LintSettings;
use crate::model::ops::validate::non_unit_quaternions;
use crate::model::{Interpolation, Problem, Track, TrackKind};

/// How far below 0 the dot product must be to count as a flip: keys exactly 180° apart have a
/// dot of 0 (either way round is as long), which rounding may push a hair below 0.
const FLIP_EPSILON: f64 = 1e-4;

/// Adds the quaternion findings of `track` (track index not set).
pub(super) fn check(track: &Track, settings: &LintSettings, out: &mut Vec<Problem>) {
    if track.kind != TrackKind::Quaternion {
        return;
    }
    out.extend(non_unit_quaternions(track, settings.quaternion_tolerance));
    let n = track.times.len();
    let Some(values) = track.values.as_numbers() else {
        return;
    };
    if n < 2 || values.len() != n * 4 || track.interpolation != Interpolation::Bezier {
        return;
    }
    let flips: Vec<(usize, f64)> = (1..n)
        .map(|k| {
            let dot: f64 = (0..4)
                .map(|c| values[(k - 1) * 4 + c] as f64 * values[k * 4 + c] as f64)
                .sum();
            (k, dot)
        })
        .filter(|&(_, dot)| dot < -FLIP_EPSILON)
        .collect();
    if let Some(&(key, dot)) = flips.first() {
        let more = if flips.len() > 1 {
            format!(" ({} more flips)", flips.len() - 1)
        } else {
            String::new()
        };
        out.push(
            Problem::warning(
                "quaternion-flip",
                format!(
                    "key {key} is in the opposite hemisphere of key {} (dot {dot:.3}); negate it so interpolation takes the short way{more}",
                    key - 1
                ),
            )
            .at_key(key)
            .at_key_time(track.times[key]),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quaternions(values: Vec<f32>) -> Track {
        let n = values.len() / 4;
        let times = (0..n).map(|i| i as f32).collect();
        let mut track = Track::numeric("bone.quaternion", TrackKind::Quaternion, times, values);
        track.interpolation = Interpolation::Bezier;
        track
    }

    fn codes(track: &Track, settings: &LintSettings) -> Vec<String> {
        let mut out = Vec::new();
        check(track, settings, &mut out);
        out.into_iter().map(|p| p.code).collect()
    }

    #[test]
    fn flip_is_found_at_the_second_key() {
        let s = LintSettings::default();
        let bad = quaternions(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.1, -0.995]);
        let mut out = Vec::new();
        check(&bad, &s, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, "quaternion-flip");
        assert_eq!((out[0].key, out[0].time), (Some(1), Some(1.0)));
        let good = quaternions(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -0.1, 0.995]);
        assert!(codes(&good, &s).is_empty());
    }

    #[test]
    fn slerped_and_held_keys_are_not_flips() {
        let s = LintSettings::default();
        for interpolation in [Interpolation::Linear, Interpolation::Discrete] {
            let mut t = quaternions(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.1, -0.995]);
            t.interpolation = interpolation;
            assert!(codes(&t, &s).is_empty(), "{interpolation:?}");
        }
    }

    #[test]
    fn length_tolerance_is_configurable() {
        let t = quaternions(vec![0.0, 0.0, 0.0, 1.01]);
        assert_eq!(codes(&t, &LintSettings::default()), ["non-unit-quaternion"]);
        let loose = LintSettings {
            quaternion_tolerance: 0.05,
            ..LintSettings::default()
        };
        assert!(codes(&t, &loose).is_empty());
    }
}
