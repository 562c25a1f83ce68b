//! One track as the reducer sees it: its keys (rotations made hemisphere-continuous), the
//! values the original curve takes at every sample time of the clip, and the metric its error
//! is measured in.

use std::sync::Arc;

use super::grid_keys::{GridKeys, Keys, grid_times, keys_at};
use crate::model::Track;
use crate::model::interpolant::Sampler;

/// How the error of a channel's value is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Distance between the two points (positions), in the track's units.
    Translation,
    /// Angle between the two rotations (quaternions), in radians, plus how far the value's
    /// squared length is from 1: a quaternion off unit length scales what it rotates by that
    /// much in three.js, which moves a point at distance `r` by about `r` times it, like an
    /// angle does.
    Rotation,
    /// The largest component difference relative to the original's size (scales).
    Scale,
    /// The largest component difference (morph weights, opacity, colours, pixels, degrees…).
    Absolute,
}

/// A number a metric reads: `f64`, or `f32` for the values a player plays, which the reducer
/// keeps as the player does (a long take's samples are millions of values) and reads back
/// exactly.
pub trait Number: Copy + Into<f64> {}

impl Number for f32 {}

impl Number for f64 {}

/// Component `k` of `v` as `f64`.
#[inline(always)]
fn at<N: Number>(v: &[N], k: usize) -> f64 {
    v[k].into()
}

impl Metric {
    /// The error of `value` against the original `reference` (both `value_size` long).
    pub fn error<V: Number, R: Number>(self, value: &[V], reference: &[R]) -> f64 {
        let n = value.len().min(reference.len());
        let pairs = (0..n).map(|k| (at(value, k), at(reference, k)));
        match self {
            Metric::Translation => pairs.map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt(),
            Metric::Rotation => {
                let length2: f64 = (0..value.len()).map(|k| at(value, k) * at(value, k)).sum();
                rotation_angle(value, reference) + (1.0 - length2).abs()
            }
            Metric::Scale => pairs
                .map(|(a, b)| (a - b).abs() / b.abs().max(1e-3))
                .fold(0.0, f64::max),
            Metric::Absolute => pairs.map(|(a, b)| (a - b).abs()).fold(0.0, f64::max),
        }
    }
}

/// The most values per key a channel may have (vectors, colours and quaternions have up to 4).
pub(crate) const MAX_VALUES: usize = 4;

/// A fast test of `error(value, reference) <= tolerance` for one metric and tolerance. For
/// rotations it avoids the arcsine: `4·asin(d/2) + n <= tol` holds when the chord `d` between
/// the unit quaternions is at most `2·sin((tol − n)/4)`, and `2·sin(x) >= 2x − x³/3`, so the
/// test accepts only what the exact metric accepts (and very nearly all of it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limit {
    /// How a value's error is measured.
    pub metric: Metric,
    /// The largest error admitted.
    tolerance: f64,
}

impl Limit {
    /// The test for `metric` within `tolerance`.
    pub fn new(metric: Metric, tolerance: f64) -> Limit {
        Limit { metric, tolerance }
    }

    /// Whether `value` is within the tolerance of `reference`.
    #[inline(always)]
    pub fn admits<R: Number>(&self, value: &[f64], reference: &[R]) -> bool {
        let tol = self.tolerance;
        match self.metric {
            Metric::Translation => {
                let mut d2 = 0.0;
                for (a, &b) in value.iter().zip(reference) {
                    let b: f64 = b.into();
                    d2 += (a - b) * (a - b);
                }
                d2 <= tol * tol
            }
            Metric::Rotation => self.admits_rotation(value, reference, None),
            Metric::Scale => value.iter().zip(reference).all(|(a, &b)| {
                let b: f64 = b.into();
                (a - b).abs() <= tol * b.abs().max(1e-3)
            }),
            Metric::Absolute => value.iter().zip(reference).all(|(a, &b)| {
                let b: f64 = b.into();
                (a - b).abs() <= tol
            }),
        }
    }
}

impl Limit {
    /// [`Limit::admits`] for a rotation; with `unit_off`, `value` stands for the quaternion
    /// it scales to, whose length is off unit by at most that much (a lerp scaled to unit
    /// length is off by a few units in the last place): the test looks at `value`'s
    /// direction only, so it needs no scaling.
    #[inline]
    pub fn admits_rotation<R: Number>(
        &self,
        value: &[f64],
        reference: &[R],
        unit_off: Option<f64>,
    ) -> bool {
        let (vv, rr, vr) = rotation_products(value, reference);
        let off = unit_off.unwrap_or_else(|| (1.0 - vv).abs());
        self.rotation_bound(off)
            .is_some_and(|kk| vr * vr >= kk * vv * rr)
    }

    /// [`Limit::admits_rotation`] with `unit_off` given, its bound worked out once for many
    /// values (a fit's probe tests every sample it spans against one).
    #[inline]
    pub fn rotation_test(&self, unit_off: f64) -> RotationTest {
        RotationTest(self.rotation_bound(unit_off))
    }

    /// The `k²` of the test `(v·r)² >= k²·|v|²·|r|²` for a quaternion whose length is `off`
    /// off unit; `None` when nothing is admitted.
    #[inline]
    fn rotation_bound(&self, off: f64) -> Option<f64> {
        let tol = self.tolerance;
        if off >= tol || off.is_nan() {
            return None;
        }
        let x = (tol - off) / 4.0;
        let chord = 2.0 * x - x * x * x * (1.0 / 3.0);
        let k = 1.0 - chord * chord / 2.0;
        // |v̂ ∓ r̂|² = 2 − 2|v·r|/(|v||r|) <= chord² ⟺ (v·r)² >= k²·|v|²·|r|².
        (k > 0.0).then_some(k * k)
    }
}

/// [`Limit::admits_rotation`] for values a known amount off unit length, its bound worked out
/// once ([`Limit::rotation_test`]).
#[derive(Debug, Clone, Copy)]
pub struct RotationTest(Option<f64>);

impl RotationTest {
    /// Whether `value` is within the tolerance of `reference`.
    #[inline(always)]
    pub fn admits(&self, value: &[f64], reference: &[f32]) -> bool {
        let (vv, rr, vr) = rotation_products(value, reference);
        self.0.is_some_and(|kk| vr * vr >= kk * vv * rr)
    }
}

/// `|v|²`, `|r|²` and `v·r` of a value and a reference.
#[inline(always)]
fn rotation_products<R: Number>(value: &[f64], reference: &[R]) -> (f64, f64, f64) {
    let (mut vv, mut rr, mut vr) = (0.0, 0.0, 0.0);
    for (a, &b) in value.iter().zip(reference) {
        let b: f64 = b.into();
        vv += a * a;
        rr += b * b;
        vr += a * b;
    }
    (vv, rr, vr)
}

/// How far off unit length a lerp of two quaternions scaled to unit length (as three.js's
/// slerp does for nearly parallel ends) may be: a few units in the last place, with room.
pub(crate) const SCALED_OFF: f64 = 1e-15;

/// The angle in radians between two rotations given as (not necessarily unit) quaternions,
/// whichever hemisphere each is in: `4·asin(‖a − b‖ / 2)` for the unit quaternions on the same
/// side, which stays exact for tiny angles where `2·acos(|a·b|)` does not.
pub fn rotation_angle<A: Number, B: Number>(a: &[A], b: &[B]) -> f64 {
    rotation_angle_above(a, b, -1.0).unwrap_or(0.0)
}

/// [`rotation_angle`] when it may exceed `floor`, else `None`, without the arcsine for the
/// many pairs that clearly do not (`asin x <= x / √(1 − x²)`): what a running maximum needs.
pub(crate) fn rotation_angle_above<A: Number, B: Number>(
    a: &[A],
    b: &[B],
    floor: f64,
) -> Option<f64> {
    let na: f64 = (0..a.len())
        .map(|k| at(a, k) * at(a, k))
        .sum::<f64>()
        .sqrt();
    let nb: f64 = (0..b.len())
        .map(|k| at(b, k) * at(b, k))
        .sum::<f64>()
        .sqrt();
    if na == 0.0 || nb == 0.0 || !(na.is_finite() && nb.is_finite()) {
        return Some(std::f64::consts::PI);
    }
    let mut ua = [0.0; 4];
    let mut ub = [0.0; 4];
    for (u, &x) in ua.iter_mut().zip(a) {
        *u = x.into() / na;
    }
    for (u, &y) in ub.iter_mut().zip(b) {
        *u = y.into() / nb;
    }
    unit_rotation_angle_above(&ua, &ub, floor)
}

/// [`rotation_angle_above`] for two quaternions already of unit length (world rotations).
#[inline]
pub(crate) fn unit_rotation_angle_above(a: &[f64; 4], b: &[f64; 4], floor: f64) -> Option<f64> {
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let mut d2 = 0.0;
    for (x, y) in a.iter().zip(b) {
        let diff = x - sign * y;
        d2 += diff * diff;
    }
    // With x = ‖a ∓ b‖ / 2 < 1, the angle 4·asin x is at most 4x/√(1 − x²), which is at
    // most `floor` when 16x² <= floor²·(1 − x²): squared, so no root or division is needed
    // (and a hair stricter, so rounding never skips a pair the bound does not cover).
    let x2 = d2 / 4.0;
    if floor >= 0.0 && x2 < 1.0 && x2 * (16.0 + floor * floor) * (1.0 + 1e-12) <= floor * floor {
        return None;
    }
    let x = (d2.sqrt() / 2.0).min(1.0);
    Some(4.0 * x.asin())
}

/// The error of `value` against `reference` in `metric` when it may exceed `floor`, else
/// `None`, without the exact rotation angle (an arcsine) where it clearly does not.
#[inline]
pub(crate) fn error_above<V: Number, R: Number>(
    metric: Metric,
    value: &[V],
    reference: &[R],
    floor: f64,
) -> Option<f64> {
    if metric != Metric::Rotation {
        return Some(metric.error(value, reference));
    }
    let length2: f64 = (0..value.len()).map(|k| at(value, k) * at(value, k)).sum();
    let off = (1.0 - length2).abs();
    rotation_angle_above(value, reference, floor - off).map(|angle| angle + off)
}

/// The larger of `current` and the error of `value` against `reference` in `metric`, skipping
/// the exact rotation angle when it cannot be the larger.
#[inline]
pub(crate) fn max_error<V: Number, R: Number>(
    metric: Metric,
    value: &[V],
    reference: &[R],
    current: f64,
) -> f64 {
    error_above(metric, value, reference, current).map_or(current, |e| current.max(e))
}

/// One numeric track prepared for fitting.
#[derive(Debug, Clone)]
pub(crate) struct Channel {
    /// The track it comes from, whose name, kind and extras the fit keeps.
    pub source: Track,
    /// How its error is measured.
    pub metric: Metric,
    /// Values per key.
    pub value_size: usize,
    /// The key times (shared by the channels keyed on one grid, see [`GridKeys`]).
    pub times: Arc<Vec<f32>>,
    /// The key values (`times.len() × value_size`), rotations made hemisphere-continuous:
    /// `f32` as a track stores them (or a player plays them, for keys moved onto a grid).
    pub values: Vec<f32>,
    /// The clip's sample times, shared by every channel.
    pub sample_times: Arc<Vec<f64>>,
    /// The original curve at every sample time (`sample_times.len() × value_size`) as the
    /// player plays it (`f32`), shared with the channel on other key grids, which keeps this
    /// reference.
    pub samples: Arc<Vec<f32>>,
    /// For each key, the first sample at or after it and the last sample at or before it
    /// (`u32`: half the memory of a long take's keys; shared like `times`).
    key_samples: Arc<Vec<(u32, u32)>>,
    /// Whether the key values were played from the track at the keys (keys on a grid) rather
    /// than taken from it (its own keys): how [`Channel::restore_values`] makes them again.
    played_keys: bool,
}

impl Channel {
    /// The channel of `track` measured with `metric`, sampled at `sample_times` (sorted), or
    /// `None` for a track without numeric keys.
    pub fn new(track: &Track, metric: Metric, sample_times: Arc<Vec<f64>>) -> Option<Channel> {
        let keys = keys_at(track.times.clone(), &sample_times);
        let reference = reference(track, sample_times)?;
        Some(Channel::with_keys(track, metric, reference, keys, false))
    }

    /// The channel of `track` (its [`Reference`]) with its candidate keys `keys`, valued as
    /// the track plays there (`played_keys`: keys on a grid) or with its own values.
    fn with_keys(
        track: &Track,
        metric: Metric,
        (value_size, sample_times, samples): Reference,
        (times, key_samples): Keys,
        played_keys: bool,
    ) -> Channel {
        let values = key_values(track, metric, value_size, &times, played_keys);
        Channel {
            source: track.without_keys(),
            metric,
            value_size,
            times,
            values,
            sample_times,
            samples,
            key_samples,
            played_keys,
        }
    }

    /// Lets go of the key values, which only fitting reads (megabytes on a long take);
    /// measuring against the reference does not need them. [`Channel::restore_values`]
    /// makes them again before the next fit.
    pub fn release_values(&mut self) {
        self.values = Vec::new();
    }

    /// The key values as the channel made them from `track` (the track it was made of),
    /// where [`Channel::release_values`] let them go; nothing otherwise.
    pub fn restore_values(&mut self, track: &Track) {
        if !self.values.is_empty() || self.times.is_empty() {
            return;
        }
        let (metric, vs) = (self.metric, self.value_size);
        self.values = key_values(track, metric, vs, &self.times, self.played_keys);
    }

    /// The channel a reduction within `options` fits: [`Channel::on_grid`] (its grid from
    /// `grids`) when it asks for a key grid, else [`Channel::new`].
    pub fn keys_for(
        track: &Track,
        metric: Metric,
        sample_times: Arc<Vec<f64>>,
        options: &super::ReduceOptions,
        grids: &GridKeys,
    ) -> Option<Channel> {
        match options.key_grid {
            Some(step) => Channel::on_grid(track, metric, sample_times, step, grids),
            None => Channel::new(track, metric, sample_times),
        }
    }

    /// The channel of `track` with its candidate keys moved onto a grid of `step` seconds
    /// (what [`ReduceOptions::key_grid`](super::ReduceOptions::key_grid) asks): a key at every
    /// multiple of `step` from the first key to the last (and at those two), valued as the
    /// track plays there; the reference stays the original curve at `sample_times`, so a fit
    /// is measured against what the file played. `None` as [`Channel::new`]; a track that is
    /// not made of straight segments (steps, curves) keeps its own keys. The grid's keys come
    /// from `grids`, shared with every track over the same ones.
    pub fn on_grid(
        track: &Track,
        metric: Metric,
        sample_times: Arc<Vec<f64>>,
        step: f64,
        grids: &GridKeys,
    ) -> Option<Channel> {
        let Some(keys) = grids.keys(track, step, &sample_times) else {
            return Channel::new(track, metric, sample_times);
        };
        // Straight to the grid: the track's own keys are never made into a channel.
        let reference = reference(track, sample_times)?;
        Some(Channel::with_keys(track, metric, reference, keys, true))
    }

    /// This channel of `track` (its reference kept, not sampled again) with its candidate keys
    /// on a grid of `step` seconds, as [`Channel::on_grid`] makes them (the grid's keys from
    /// `grids`); `None` where the track keeps its own keys.
    pub fn regrid(&self, track: &Track, step: f64, grids: &GridKeys) -> Option<Channel> {
        Some(self.rekeyed(track, grids.keys(track, step, &self.sample_times)?))
    }

    /// [`Channel::regrid`] with only the keys over this channel's samples (a pilot's prefix
    /// of the take: the grid's keys past its last sample are not made); `None` where fewer
    /// than two are.
    pub fn regrid_within(&self, track: &Track, step: f64) -> Option<Channel> {
        self.regrid_until(track, step, *self.sample_times.last()?)
    }

    /// [`Channel::regrid`] with only the grid's keys up to `end` seconds (its samples all
    /// kept); `None` where fewer than two are.
    pub fn regrid_until(&self, track: &Track, step: f64, end: f64) -> Option<Channel> {
        let mut times = grid_times(track, step)?;
        times.truncate(times.partition_point(|&t| f64::from(t) <= end));
        (times.len() >= 2).then(|| self.rekeyed(track, keys_at(times, &self.sample_times)))
    }

    /// This channel of `track` (its reference kept) with its candidate keys `keys`.
    fn rekeyed(&self, track: &Track, keys: Keys) -> Channel {
        let reference = (
            self.value_size,
            self.sample_times.clone(),
            self.samples.clone(),
        );
        Channel::with_keys(track, self.metric, reference, keys, true)
    }

    /// The channel up to its last key at or before sample `samples − 1` (which must be a
    /// sample of every key it keeps), with `sample_times` those first samples: what a pilot try
    /// fits. `None` when fewer than two keys fall in.
    pub fn prefix(&self, sample_times: &Arc<Vec<f64>>) -> Option<Channel> {
        let samples = sample_times.len();
        let keys = self
            .key_samples
            .partition_point(|&(_, last)| (last as usize) < samples);
        if keys < 2 || samples == 0 {
            return None;
        }
        let vs = self.value_size;
        Some(Channel {
            source: self.source.clone(),
            metric: self.metric,
            value_size: vs,
            times: Arc::new(self.times[..keys].to_vec()),
            values: self.values[..keys * vs].to_vec(),
            sample_times: sample_times.clone(),
            samples: Arc::new(self.samples[..samples * vs].to_vec()),
            key_samples: Arc::new(self.key_samples[..keys].to_vec()),
            played_keys: self.played_keys,
        })
    }

    /// The sample just past the channel's last key.
    pub fn end_sample(&self) -> usize {
        self.key_samples
            .last()
            .map_or(0, |&(_, last)| last as usize + 1)
    }

    /// The value of key `k` (its first `value_size` components; the rest are zero).
    pub fn key_value(&self, k: usize) -> [f64; MAX_VALUES] {
        let mut value = [0.0; MAX_VALUES];
        let vs = self.value_size;
        for (slot, &v) in value.iter_mut().zip(&self.values[k * vs..(k + 1) * vs]) {
            *slot = v.into();
        }
        value
    }

    /// The original value at sample `s`.
    pub fn sample(&self, s: usize) -> &[f32] {
        &self.samples[s * self.value_size..(s + 1) * self.value_size]
    }

    /// The samples from key `i` to key `j`, both included.
    pub fn sample_range(&self, i: usize, j: usize) -> std::ops::Range<usize> {
        let lo = self.key_samples[i].0 as usize;
        let hi = self.key_samples[j].1 as usize;
        lo..(hi + 1).max(lo)
    }

    /// A track like the original with no keys (name, kind and extras kept).
    pub fn empty_track(&self) -> Track {
        self.source.clone()
    }

    /// The largest error of `track` (a fit of this channel) against the original at every
    /// sample from the first key to the last, evaluated with the model's own interpolants.
    pub fn error_of(&self, track: &Track) -> f64 {
        let (Some(&first), Some(&last)) = (self.times.first(), self.times.last()) else {
            return 0.0;
        };
        let (first, last) = (first as f64, last as f64);
        if track.values.as_numbers().is_none() {
            return 0.0;
        }
        let mut sampler = Sampler::new(track);
        let mut error: f64 = 0.0;
        let mut value = [0.0; MAX_VALUES];
        let value = &mut value[..self.value_size];
        for (s, &t) in self.sample_times.iter().enumerate() {
            if t < first || t > last {
                continue;
            }
            sampler.evaluate_f64(t, value);
            for x in value.iter_mut() {
                *x = *x as f32 as f64;
            }
            error = error.max(self.metric.error(value, self.sample(s)));
        }
        error
    }
}

/// What a channel measures its fits against, whatever its candidate keys: values per key, the
/// sample times and the original curve there.
type Reference = (usize, Arc<Vec<f64>>, Arc<Vec<f32>>);

/// The [`Reference`] of `track` at `sample_times`, or `None` for a track without numeric keys
/// (or with more values per key than [`MAX_VALUES`]).
fn reference(track: &Track, sample_times: Arc<Vec<f64>>) -> Option<Reference> {
    let numbers = track.values.as_numbers()?;
    let n = track.times.len();
    if n == 0 || numbers.len() % n != 0 {
        return None;
    }
    let value_size = numbers.len() / n;
    if !(1..=MAX_VALUES).contains(&value_size) {
        return None;
    }
    let samples = Arc::new(sample_numbers(track, &sample_times, value_size));
    Some((value_size, sample_times, samples))
}

/// A channel's key values for `track` at its key `times`: played from the track there
/// (`played`: keys on a grid) or the track's own values, rotations made hemisphere-continuous.
fn key_values(
    track: &Track,
    metric: Metric,
    value_size: usize,
    times: &[f32],
    played: bool,
) -> Vec<f32> {
    let mut values = match played {
        true => {
            let keys: Vec<f64> = times.iter().map(|&t| t as f64).collect();
            sample_numbers(track, &keys, value_size)
        }
        false => track.values.as_numbers().unwrap_or_default().to_vec(),
    };
    if metric == Metric::Rotation && value_size == 4 {
        unroll_hemispheres(&mut values);
    }
    values
}

/// `track` at every time of `times` as a player shows it (the model's interpolant, rounded
/// to f32 like three.js's result buffer), `value_size` values per time; NaN for a track
/// without numbers.
pub(crate) fn sample_numbers(track: &Track, times: &[f64], value_size: usize) -> Vec<f32> {
    // A few times on a long track (a mend's new keys) are found by a seek each, a binary
    // search, rather than a walk along every key: the same values either way.
    let few = times.len().saturating_mul(FEW_TIMES) < track.times.len();
    if !few && let Some(walked) = crate::model::interpolant::sample_sorted(track, times, value_size)
    {
        return walked;
    }
    let mut out = vec![f32::NAN; times.len() * value_size];
    if track.values.as_numbers().is_none() || track.is_empty() || value_size > MAX_VALUES {
        return out;
    }
    let mut sampler = Sampler::new(track);
    let mut value = [0.0; MAX_VALUES];
    let value = &mut value[..value_size];
    for (slot, &t) in out.chunks_exact_mut(value_size).zip(times) {
        sampler.evaluate_f64(t, value);
        for (x, v) in slot.iter_mut().zip(value.iter()) {
            *x = *v as f32;
        }
    }
    out
}

/// Keys per time past which [`sample_numbers`] seeks each time rather than walking the keys.
const FEW_TIMES: usize = 32;

/// Flips the sign of every quaternion (4 values per key) that points away from the one before
/// it, so neighbouring keys have non-negative dot products (the same rotations).
pub(crate) fn unroll_hemispheres(values: &mut [f32]) {
    for k in 1..values.len() / 4 {
        let (before, after) = values.split_at_mut(k * 4);
        let prev = &before[(k - 1) * 4..];
        let q = &mut after[..4];
        let dot: f64 = prev
            .iter()
            .zip(q.iter())
            .map(|(&a, &b)| f64::from(a) * f64::from(b))
            .sum();
        if dot < 0.0 {
            for x in q.iter_mut() {
                *x = -*x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, TrackKind, Values};
    use clipscope_test_support::rng::Rng;

    fn random_quaternion(rng: &mut Rng, scale: f64) -> [f64; 4] {
        let mut q = [0.0; 4];
        for v in &mut q {
            *v = (rng.unit_f32() as f64 - 0.5) * scale;
        }
        q
    }

    #[test]
    fn the_fast_limit_never_admits_more_than_the_metric() {
        let mut rng = Rng::new(11);
        let mut admitted = 0;
        for _ in 0..20_000 {
            let tolerance = 10f64.powf(-4.0 + 3.0 * rng.unit_f32() as f64);
            let reference = random_quaternion(&mut rng, 2.0);
            let n = reference.iter().map(|v| v * v).sum::<f64>().sqrt();
            let reference = reference.map(|v| v / n);
            let mut value = reference;
            for v in &mut value {
                *v += (rng.unit_f32() as f64 - 0.5) * tolerance;
            }
            for metric in [
                Metric::Translation,
                Metric::Rotation,
                Metric::Scale,
                Metric::Absolute,
            ] {
                let exact = metric.error(&value, &reference);
                if Limit::new(metric, tolerance).admits(&value, &reference) {
                    admitted += 1;
                    assert!(exact <= tolerance, "{metric:?}: {exact} > {tolerance}");
                } else {
                    // Only what is (very nearly) beyond the tolerance is turned down.
                    assert!(
                        exact > tolerance * 0.999,
                        "{metric:?}: {exact} <= {tolerance}"
                    );
                }
            }
        }
        assert!(admitted > 10_000, "{admitted}");
    }

    #[test]
    fn a_lerp_tested_by_its_direction_is_admitted_as_when_scaled_to_unit_length() {
        use crate::model::interpolant::SlerpPlan;
        let mut rng = Rng::new(12);
        let (mut admitted, mut differ) = (0, 0);
        for _ in 0..20_000 {
            let tolerance = 10f64.powf(-5.0 + 3.0 * rng.unit_f32() as f64);
            let unit = |q: [f64; 4]| {
                let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
                q.map(|v| v / n)
            };
            let a = unit(random_quaternion(&mut rng, 2.0));
            // Ends nearly parallel (the plan lerps), the reference near the curve.
            let b = unit(std::array::from_fn(|c| {
                a[c] + (rng.unit_f32() as f64 - 0.5) * 0.02
            }));
            let plan = SlerpPlan::new(a, b);
            if !plan.is_near() {
                continue;
            }
            let t = rng.unit_f32() as f64;
            let (scaled, unscaled) = (plan.at(t), plan.at_unscaled(t));
            let reference = std::array::from_fn::<f64, 4, _>(|c| {
                scaled[c] + (rng.unit_f32() as f64 - 0.5) * tolerance
            });
            let limit = Limit::new(Metric::Rotation, tolerance);
            let by_direction = limit.admits_rotation(&unscaled, &reference, Some(SCALED_OFF));
            if by_direction {
                admitted += 1;
                // Only what the exact metric admits of the played (scaled) quaternion.
                let exact = Metric::Rotation.error(&scaled, &reference);
                assert!(exact <= tolerance, "{exact} > {tolerance}");
            }
            if by_direction != limit.admits(&scaled, &reference) {
                differ += 1;
            }
        }
        assert!(admitted > 5_000, "{admitted}");
        // The two tests part only at the very edge of the tolerance.
        assert!(differ <= 2, "{differ}");
    }

    #[test]
    fn angles_are_exact_for_tiny_turns_and_ignore_the_hemisphere() {
        let angle: f64 = 1e-7;
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [0.0, (angle / 2.0).sin(), 0.0, (angle / 2.0).cos()];
        assert!((rotation_angle(&a, &b) - angle).abs() < 1e-15);
        let flipped = b.map(|v| -v);
        assert!((rotation_angle(&a, &flipped) - angle).abs() < 1e-15);
        // Length does not count in the angle.
        assert!((rotation_angle(&a.map(|v| 3.0 * v), &b) - angle).abs() < 1e-15);
        assert_eq!(rotation_angle(&[0.0; 4], &b), std::f64::consts::PI);
    }

    #[test]
    fn the_running_maximum_skips_only_what_cannot_win() {
        let mut rng = Rng::new(3);
        for _ in 0..5_000 {
            let a = random_quaternion(&mut rng, 2.0);
            let b = random_quaternion(&mut rng, 2.0);
            let floor = rng.unit_f32() as f64 * 3.0;
            let exact = rotation_angle(&a, &b);
            match rotation_angle_above(&a, &b, floor) {
                Some(angle) => assert_eq!(angle, exact),
                None => assert!(exact <= floor, "{exact} > {floor}"),
            }
            let current = rng.unit_f32() as f64;
            assert_eq!(
                max_error(Metric::Rotation, &a, &b, current),
                current.max(Metric::Rotation.error(&a, &b))
            );
        }
        // Tiny turns against floors a hair either side of them: the squared bound never skips
        // an angle over the floor, and skips most of those clearly under it.
        let mut skipped = 0;
        for k in 0..20_000 {
            let a = random_quaternion(&mut rng, 2.0);
            let mut b = a;
            let turn = 10f64.powf(-7.0 + 6.0 * rng.unit_f32() as f64);
            b[k % 4] += turn;
            let exact = rotation_angle(&a, &b);
            let floor = exact * (1.0 + (rng.unit_f32() as f64 - 0.5) * 1e-3);
            match rotation_angle_above(&a, &b, floor) {
                Some(angle) => assert_eq!(angle, exact),
                None => {
                    assert!(exact <= floor, "{exact} > {floor}");
                    skipped += 1;
                }
            }
            assert!(rotation_angle_above(&a, &b, exact * 1.01).is_none());
        }
        assert!(skipped > 0);
    }

    #[test]
    fn a_pilot_regrids_only_over_its_own_samples() {
        // Ten seconds at 30 fps; a pilot over the first 2 s.
        let times: Vec<f32> = (0..301).map(|i| i as f32 / 30.0).collect();
        let values = times.iter().flat_map(|&t| [t.sin(), t, 0.5]).collect();
        let track = Track::new(
            "a.position",
            TrackKind::Vector,
            times,
            Values::Numbers(values),
        );
        let clip = crate::model::Clip::new("c", -1.0, vec![track.clone()]);
        let all = Arc::new(super::super::plan::sample_times(&clip));
        let grids = GridKeys::default();
        let whole =
            Channel::on_grid(&track, Metric::Translation, all.clone(), 1.0 / 32.0, &grids).unwrap();
        let head = Arc::new(all[..121].to_vec());
        let pilot = whole.prefix(&head).unwrap();
        let fine = pilot.regrid_within(&track, 1.0 / 64.0).unwrap();
        let whole_fine = whole.regrid(&track, 1.0 / 64.0, &grids).unwrap();
        // The finer grid's keys up to the pilot's last sample (2 s), valued as the whole's.
        let keys = whole_fine
            .times
            .partition_point(|&t| f64::from(t) <= head[120]);
        assert_eq!(*fine.times, whole_fine.times[..keys]);
        assert_eq!(fine.times.last(), Some(&2.0));
        assert_eq!(fine.values, whole_fine.values[..keys * 3]);
        assert_eq!(*fine.key_samples, whole_fine.key_samples[..keys]);
        assert_eq!(fine.samples, pilot.samples);
        // Too short a stretch for two keys.
        let one = Arc::new(all[..1].to_vec());
        let tiny = Channel {
            sample_times: one,
            ..pilot.clone()
        };
        assert!(tiny.regrid_within(&track, 1.0 / 64.0).is_none());
    }

    #[test]
    fn key_values_let_go_of_are_made_again_bit_for_bit() {
        let times: Vec<f32> = (0..=60).map(|k| k as f32 / 30.0).collect();
        let quaternions: Vec<f32> = (0..=60)
            .flat_map(|k| {
                let a = k as f32 * 0.3;
                // Every other key on the far hemisphere, which the channel flips back.
                let s = if k % 2 == 0 { 1.0 } else { -1.0 };
                [s * a.sin() * 0.6, 0.0, s * a.cos() * 0.6, s * 0.529_150_3]
            })
            .collect();
        let vectors: Vec<f32> = (0..=60).flat_map(|k| [k as f32 * 0.1, -0.0, 1.0]).collect();
        let rotation = Track::numeric(
            "a.quaternion",
            TrackKind::Quaternion,
            times.clone(),
            quaternions,
        );
        let position = Track::numeric("a.position", TrackKind::Vector, times, vectors);
        let samples: Arc<Vec<f64>> = Arc::new((0..=120).map(|s| s as f64 / 60.0).collect());
        let grids = GridKeys::default();
        for (track, metric) in [
            (&rotation, Metric::Rotation),
            (&position, Metric::Translation),
        ] {
            let made = [
                Channel::on_grid(track, metric, samples.clone(), 1.0 / 32.0, &grids).unwrap(),
                Channel::new(track, metric, samples.clone()).unwrap(),
            ];
            for made in made {
                let mut c = made.clone();
                c.release_values();
                assert!(c.values.is_empty());
                c.restore_values(track);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&c.values), bits(&made.values), "{}", track.name);
            }
        }
    }

    #[test]
    fn a_grid_channel_keys_the_grid_and_keeps_the_original_reference() {
        // 30 fps keys from 0 to 2 s, a vector bending at every key.
        let times: Vec<f32> = (0..=60).map(|k| k as f32 / 30.0).collect();
        let values: Vec<f32> = (0..=60)
            .flat_map(|k| [(k as f32 * 0.7).sin(), k as f32 * 0.1, 0.0])
            .collect();
        let track = Track::numeric("a.position", TrackKind::Vector, times, values);
        let sample_times: Arc<Vec<f64>> = Arc::new((0..=120).map(|s| s as f64 / 60.0).collect());
        let own = Channel::new(&track, Metric::Translation, sample_times.clone()).unwrap();
        let grids = GridKeys::default();
        let grid = Channel::on_grid(
            &track,
            Metric::Translation,
            sample_times,
            1.0 / 32.0,
            &grids,
        )
        .unwrap();
        assert_eq!(grid.times.len(), 65, "0, 1/32, …, 2 s");
        assert!(grid.times.iter().all(|&t| (t * 32.0).fract() == 0.0));
        assert_eq!(grid.samples, own.samples, "measured against the original");
        // Each grid key is the value the original plays there.
        let played = sample_numbers(&track, &[0.5, 1.0 / 32.0], 3);
        let played: Vec<f64> = played.iter().map(|&v| v.into()).collect();
        assert_eq!(grid.key_value(16)[..3], played[..3]);
        assert_eq!(grid.key_value(1)[..3], played[3..]);
        // Every sample falls in the range of the keys around it.
        assert_eq!(grid.sample_range(0, 64), 0..121);
        // Steps keep their own keys.
        let mut step = track.clone();
        step.interpolation = Interpolation::Discrete;
        let kept = Channel::on_grid(
            &step,
            Metric::Translation,
            own.sample_times.clone(),
            0.5,
            &GridKeys::default(),
        );
        assert_eq!(*kept.unwrap().times, step.times);
    }

    #[test]
    fn quaternions_are_unrolled_onto_one_hemisphere() {
        let mut values = vec![
            0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 0.1, 0.0, 0.0, 0.99,
        ];
        unroll_hemispheres(&mut values);
        assert_eq!(values[4..8], [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(values[8..], [0.1, 0.0, 0.0, 0.99]);
    }

    #[test]
    fn a_few_times_on_a_long_track_play_as_a_walk_along_it() {
        // 3,000 keys turning about y and moving, sampled at a few times (each seeked) and at
        // many (walked): the same bits at the times both sample.
        let n = 3_000;
        let times: Vec<f32> = (0..n).map(|k| k as f32 / 30.0).collect();
        let turn: Vec<f32> = (0..n)
            .flat_map(|k| {
                let a = (k as f32 * 0.37).sin();
                [0.0, a.sin(), 0.0, a.cos()]
            })
            .collect();
        let moves: Vec<f32> = (0..n * 3).map(|k| (k as f32 * 0.11).cos()).collect();
        for (track, vs) in [
            (
                Track::numeric(".q", TrackKind::Quaternion, times.clone(), turn),
                4,
            ),
            (
                Track::numeric(".p", TrackKind::Vector, times.clone(), moves),
                3,
            ),
        ] {
            let few = [-1.0, 0.0, 7.345, 50.0 + 1.0 / 60.0, 99.96, 120.0];
            let mut many: Vec<f64> = (0..n * 2)
                .map(|k| k as f64 / 60.0 - 1.0)
                .chain(few)
                .collect();
            many.sort_by(f64::total_cmp);
            let walked = sample_numbers(&track, &many, vs);
            let seeked = sample_numbers(&track, &few, vs);
            assert!(few.len() * FEW_TIMES < n);
            for (k, t) in few.iter().enumerate() {
                let at = many.iter().position(|x| x == t).unwrap();
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&seeked[k * vs..(k + 1) * vs]),
                    bits(&walked[at * vs..(at + 1) * vs]),
                    "{} at {t}",
                    track.name
                );
            }
        }
    }
}
