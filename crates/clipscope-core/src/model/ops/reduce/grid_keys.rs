//! Key grids made once per reduction and shared by every channel keyed on them.
//!
//! On a key grid, a channel's key times depend only on its track's first and last key and the
//! grid's step, and which samples each key covers only on those times and the clip's sample
//! times. A long take's joint tracks all span the same keys, so without sharing each of them
//! would make the same lists again: on the 10-minute take, 23 copies of 19,200 key times and
//! of the sample range of every key (megabytes that are made, faulted in and kept for the
//! whole reduction).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::model::{Interpolation, Track};

/// The key grids of one reduction, by span, step and sample times.
#[derive(Debug, Default)]
pub(crate) struct GridKeys(Mutex<HashMap<Span, Shared>>);

/// A grid: its first and last key time and its step (their bits), and the address of the
/// sample times it is walked over (kept alive by the entry, so no other list takes it).
type Span = (u32, u32, u64, usize);

/// One grid's keys and the sample times they were walked over.
#[derive(Debug)]
struct Shared {
    /// The sample times (held so that their address names them).
    _sample_times: Arc<Vec<f64>>,
    /// The keys.
    keys: Keys,
}

impl GridKeys {
    /// The keys of `track` on a grid of `step` seconds over `sample_times`, made the first
    /// time any track asks for them; `None` where the track keeps its own keys (see
    /// [`grid_times`]).
    pub fn keys(&self, track: &Track, step: f64, sample_times: &Arc<Vec<f64>>) -> Option<Keys> {
        let (first, last) = grid_span(track, step)?;
        let span = (
            first.to_bits(),
            last.to_bits(),
            step.to_bits(),
            Arc::as_ptr(sample_times) as usize,
        );
        if let Some(shared) = self.lock().get(&span) {
            return Some(shared.keys.clone());
        }
        // Made outside the lock: two threads may make the same grid, and the first one kept
        // is shared from then on.
        let keys = keys_at(grid_times(track, step)?, sample_times);
        let mut grids = self.lock();
        let shared = grids.entry(span).or_insert(Shared {
            _sample_times: sample_times.clone(),
            keys,
        });
        Some(shared.keys.clone())
    }

    /// The grids, even after a thread panicked holding them (each entry is whole once in).
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Span, Shared>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A channel's key times and, for each key, the first sample at or after it and the last at
/// or before it: what [`GridKeys`] shares between the channels keyed on one grid.
pub(crate) type Keys = (Arc<Vec<f32>>, Arc<Vec<(u32, u32)>>);

/// The [`Keys`] of key times `times` over `sample_times`.
pub(crate) fn keys_at(times: Vec<f32>, sample_times: &[f64]) -> Keys {
    let samples = key_samples(&times, sample_times);
    (Arc::new(times), Arc::new(samples))
}

/// The first and last key of `track` when it goes onto a grid of `step` seconds; `None` for
/// a track that keeps its own keys (not straight segments, a single key, or no usable step).
/// Its grid ([`grid_times`]) depends on these two and the step alone.
pub(crate) fn grid_span(track: &Track, step: f64) -> Option<(f32, f32)> {
    let (&first, &last) = (track.times.first()?, track.times.last()?);
    if track.interpolation != Interpolation::Linear || step.is_nan() || step <= 0.0 || last <= first
    {
        return None;
    }
    Some((first, last))
}

/// The key times on a grid of `step` seconds for `track` (see [`Channel::on_grid`](super::channel::Channel::on_grid)): every
/// multiple of `step` between its first and last keys, and those two; `None` as
/// [`grid_span`].
pub(crate) fn grid_times(track: &Track, step: f64) -> Option<Vec<f32>> {
    let (first, last) = grid_span(track, step)?;
    let (lo, hi) = (
        (first as f64 / step).ceil() as i64,
        (last as f64 / step).floor() as i64,
    );
    let mut times: Vec<f32> = Vec::with_capacity((hi - lo + 3).max(2) as usize);
    times.push(first);
    for g in lo..=hi {
        let t = (g as f64 * step) as f32;
        if t > *times.last().unwrap_or(&first) && t < last {
            times.push(t);
        }
    }
    times.push(last);
    Some(times)
}

/// For each key time, the first sample at or after it and the last sample at or before it
/// (`sample_times` sorted): one walk along both when the keys are sorted, else a search each.
fn key_samples(times: &[f32], sample_times: &[f64]) -> Vec<(u32, u32)> {
    // Sample indices fit in `u32`; saturating keeps an absurd clip from wrapping around.
    let narrow = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    let pair = |lo: usize, hi: usize| (narrow(lo), narrow(hi));
    let search = |t: f64| {
        let lo = sample_times.partition_point(|&s| s < t);
        let hi = sample_times.partition_point(|&s| s <= t);
        pair(lo, hi.saturating_sub(1))
    };
    // Unsorted (or NaN) key times: searched one by one.
    if !times.is_sorted_by(|a, b| a <= b) {
        return times.iter().map(|&t| search(t as f64)).collect();
    }
    let (mut lo, mut hi) = (0, 0);
    times
        .iter()
        .map(|&t| {
            let t = t as f64;
            while lo < sample_times.len() && sample_times[lo] < t {
                lo += 1;
            }
            hi = hi.max(lo);
            while hi < sample_times.len() && sample_times[hi] <= t {
                hi += 1;
            }
            pair(lo, hi.saturating_sub(1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;
    use clipscope_test_support::rng::Rng;

    fn track(first: f32, last: f32) -> Track {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![first, (first + last) / 2.0, last],
            vec![0.0, 1.0, 0.0],
        );
        t.interpolation = Interpolation::Linear;
        t
    }

    #[test]
    fn tracks_over_the_same_keys_share_one_grid_equal_to_their_own() {
        let grids = GridKeys::default();
        let samples = Arc::new((0..=120).map(|s| s as f64 / 60.0).collect::<Vec<f64>>());
        let (a, b, c) = (track(0.0, 2.0), track(0.0, 2.0), track(0.1, 2.0));
        let ka = grids.keys(&a, 1.0 / 32.0, &samples).unwrap();
        let kb = grids.keys(&b, 1.0 / 32.0, &samples).unwrap();
        let kc = grids.keys(&c, 1.0 / 32.0, &samples).unwrap();
        assert!(Arc::ptr_eq(&ka.0, &kb.0) && Arc::ptr_eq(&ka.1, &kb.1));
        assert!(!Arc::ptr_eq(&ka.0, &kc.0));
        // Each is what the track's own grid and walk give.
        for (t, k) in [(&a, &ka), (&c, &kc)] {
            let own = keys_at(grid_times(t, 1.0 / 32.0).unwrap(), &samples);
            assert_eq!((&*k.0, &*k.1), (&*own.0, &*own.1));
        }
        // Another step, or other sample times (same values, another list), is another grid.
        let half = grids.keys(&a, 1.0 / 64.0, &samples).unwrap();
        assert_eq!(half.0.len(), 2 * ka.0.len() - 1);
        let copy = Arc::new(samples.to_vec());
        assert!(!Arc::ptr_eq(
            &grids.keys(&a, 1.0 / 32.0, &copy).unwrap().1,
            &ka.1
        ));
        // A track that keeps its own keys has none.
        let mut step = a.clone();
        step.interpolation = Interpolation::Discrete;
        assert!(grids.keys(&step, 1.0 / 32.0, &samples).is_none());
        assert!(grids.keys(&a, 0.0, &samples).is_none());
    }

    #[test]
    fn key_samples_walk_like_the_search() {
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let mut samples: Vec<f64> = (0..(rng.next_u64() % 40) as usize)
                .map(|_| (rng.unit_f32() * 4.0) as f64)
                .collect();
            samples.sort_by(f64::total_cmp);
            let mut times: Vec<f32> = (0..(rng.next_u64() % 20) as usize)
                .map(|_| match rng.next_u64() % 3 {
                    // On a sample, between two, or outside them all.
                    0 if !samples.is_empty() => {
                        samples[(rng.next_u64() as usize) % samples.len()] as f32
                    }
                    _ => rng.unit_f32() * 5.0 - 0.5,
                })
                .collect();
            times.sort_by(f32::total_cmp);
            let want: Vec<(u32, u32)> = times
                .iter()
                .map(|&t| {
                    let t = t as f64;
                    let lo = samples.partition_point(|&s| s < t);
                    let hi = samples.partition_point(|&s| s <= t);
                    (lo as u32, hi.saturating_sub(1) as u32)
                })
                .collect();
            assert_eq!(key_samples(&times, &samples), want, "{times:?} {samples:?}");
        }
    }
}
