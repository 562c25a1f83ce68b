//! What a compressed file spends on a reduced track, roughly: the bits of its keys' values and
//! of its own key times, for the search to weigh a try, or a track's keys on one grid against
//! another, by the file they make rather than by their keys alone.

use super::outcome::Outcome;
use crate::model::Track;

/// About the bits a compressed file spends on a key's values (a quantized quaternion through
/// the codec), for weighing a track's key times against its keys.
pub(crate) const VALUE_BITS: f64 = 17.0;

/// The mean time between `track`'s keys, in seconds.
pub(crate) fn mean_gap(track: &Track) -> f64 {
    match (track.times.first(), track.times.last()) {
        (Some(&a), Some(&b)) if track.times.len() > 1 => {
            (b - a) as f64 / (track.times.len() - 1) as f64
        }
        _ => f64::INFINITY,
    }
}

/// About the bits a compressed file spends on a track on a key grid: each key's values, and
/// for a fitted track each key time's step from the one before on the coarsest grid of a
/// power of two seconds they all sit on, which the codec stores in 2 bits when it is at most
/// one grid step, 4 when at most 7 and 8 beyond. (A kept track's times are the ones every
/// kept track shares.)
pub(crate) fn packed_bits(outcome: &Outcome) -> f64 {
    let track = &outcome.track;
    let values = track.times.len() as f64 * VALUE_BITS;
    if !outcome.lossy {
        return values;
    }
    let on = |step: f64| {
        track
            .times
            .iter()
            .all(|&t| (t as f64 / step).fract() == 0.0)
    };
    let Some(step) = (0..=16).map(|k| 0.5f64.powi(k)).find(|&s| on(s)) else {
        return values + 8.0 * track.times.len() as f64;
    };
    let times: f64 = track
        .times
        .windows(2)
        .map(|w| match ((w[1] - w[0]) as f64 / step).round() {
            g if g <= 1.0 => 2.0,
            g if g <= 7.0 => 4.0,
            _ => 8.0,
        })
        .sum();
    values + times
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind, Values};

    fn outcome(times: Vec<f32>, lossy: bool) -> Outcome {
        let values = Values::Numbers(vec![0.0; times.len()]);
        Outcome {
            track: Track::new("n.position", TrackKind::Number, times, values),
            error: 0.0,
            lossy,
            sampled: None,
        }
    }

    #[test]
    fn key_times_cost_by_their_steps_on_the_coarsest_grid() {
        // 11 keys: 10 steps of one grid step (1/16 s) take 2 bits each.
        let even = outcome((0..11).map(|k| k as f32 / 16.0).collect(), true);
        assert_eq!(packed_bits(&even), 11.0 * VALUE_BITS + 10.0 * 2.0);
        // Steps of 3/32 s: on the 1/32 s grid, 3 steps, 4 bits each.
        let threes = outcome((0..11).map(|k| k as f32 * 3.0 / 32.0).collect(), true);
        assert_eq!(packed_bits(&threes), 11.0 * VALUE_BITS + 10.0 * 4.0);
        // Steps of 9/32 s take a byte each; off any grid, every key time a byte.
        let nines = outcome((0..11).map(|k| k as f32 * 9.0 / 32.0).collect(), true);
        assert_eq!(packed_bits(&nines), 11.0 * VALUE_BITS + 10.0 * 8.0);
        let frames = outcome((0..11).map(|k| k as f32 / 30.0).collect(), true);
        assert_eq!(packed_bits(&frames), 11.0 * VALUE_BITS + 11.0 * 8.0);
        // A kept track's times are shared: only its values count.
        let kept = outcome((0..11).map(|k| k as f32 / 30.0).collect(), false);
        assert_eq!(packed_bits(&kept), 11.0 * VALUE_BITS);
    }

    #[test]
    fn the_mean_gap_spans_first_to_last_key() {
        assert_eq!(mean_gap(&outcome(vec![0.0, 0.5, 2.0], true).track), 1.0);
        assert_eq!(mean_gap(&outcome(vec![1.0], true).track), f64::INFINITY);
    }
}
