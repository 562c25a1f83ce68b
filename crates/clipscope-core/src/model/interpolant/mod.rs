//! Sampling a track at any time, exactly like three.js r187's `track.createInterpolant()`.
//!
//! A [`Sampler`] is one three.js interpolant: it remembers the key interval it used last
//! (`_cachedIndex`), so playing a track forwards or backwards costs O(1) per evaluation (a short
//! scan from the cached interval), and random access costs O(log n) (a binary search). The seek
//! is a line-by-line port of `Interpolant.evaluate`, so the chosen interval, the cached index
//! and the moments at which `intervalChanged_` runs all match three.js, even for duplicated,
//! unsorted or NaN key times:
//!
//! * `t` before the first key: the first key's value; at or after the last key, or NaN: the
//!   last key's value.
//! * otherwise the interval `(i1 - 1, i1)` with `i1` the first key later than `t`, so an exact
//!   hit on an inner key starts that key's interval, and with duplicated times the later key
//!   wins.
//!
//! The interpolation itself lives in one module per three.js interpolant: `discrete`,
//! `linear`, `cubic` (smooth), `quaternion_linear` (slerp, via [`slerp_flat`]) and
//! `bezier`. Which one a track gets follows three.js's factories: an interpolation the kind
//! does not support falls back to the kind's default, and the linear mode of quaternion tracks
//! slerps.
//!
//! Two ways to read the result, like three.js's two kinds of result buffer:
//! [`Sampler::evaluate_f64`] leaves the numbers in `f64` (the mixer's `Float64Array`) and does
//! not allocate; [`Sampler::evaluate`] rounds them to `f32` (the `Float32Array` that
//! `createInterpolant()` allocates) and also handles bool and string tracks.

pub(crate) mod bezier;
mod cubic;
mod discrete;
mod linear;
pub mod quaternion;
mod quaternion_linear;
mod walk;

pub use quaternion::{SlerpPlan, multiply_quaternions_flat, slerp_flat};

use super::prefetch::prefetch;
use super::{Interpolation, Tangents, Track, TrackKind, Values};
use cubic::CubicState;
use quaternion_linear::SlerpCache;

/// What a smooth (cubic) interpolant assumes beyond the first/last key (three.js `*Ending`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CubicEnding {
    /// `ZeroCurvatureEnding` (2400), the default.
    #[default]
    ZeroCurvature,
    /// `ZeroSlopeEnding` (2401).
    ZeroSlope,
    /// `WrapAroundEnding` (2402): the track loops.
    WrapAround,
}

/// The interpolant a track's factory builds.
#[derive(Debug, Clone, Copy)]
enum Method {
    Discrete,
    Linear,
    Cubic(CubicState),
    QuaternionLinear(SlerpCache),
    Bezier,
}

/// The key interval being evaluated: three.js's `interpolate_(i1, t0, t, t1)` arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Segment {
    /// Index of the key at the end of the interval (the interval runs from key `i1 - 1`).
    pub(crate) i1: usize,
    /// Time of key `i1 - 1`.
    pub(crate) t0: f64,
    /// The time being evaluated.
    pub(crate) t: f64,
    /// Time of key `i1`.
    pub(crate) t1: f64,
}

/// Where a seek ended: a copy of one key, or an interval to interpolate.
#[derive(Debug, Clone, Copy)]
enum Seek {
    /// `copySampleValue_(k)` (before the start, after the end, or a one-key track).
    Copy(usize),
    /// `interpolate_(i1, t0, t, t1)`.
    Interval { i1: usize, t0: f64, t1: f64 },
}

/// Evaluates one track at arbitrary times, caching the current key interval; the equivalent of
/// one three.js interpolant created by `track.createInterpolant()`.
pub struct Sampler<'a> {
    track: &'a Track,
    /// Handles that are present and long enough for every key (Bezier only).
    tangents: Option<&'a Tangents>,
    /// Everything the interpolant remembers between evaluations.
    state: SamplerState,
}

impl<'a> Sampler<'a> {
    /// A sampler for `track` with the default (zero-curvature) endings.
    pub fn new(track: &'a Track) -> Sampler<'a> {
        Sampler::with_endings(
            track,
            CubicEnding::ZeroCurvature,
            CubicEnding::ZeroCurvature,
        )
    }

    /// A sampler for `track` with explicit cubic endings (three.js `settings.endingStart` /
    /// `endingEnd`); they matter only for smooth tracks.
    pub fn with_endings(track: &'a Track, start: CubicEnding, end: CubicEnding) -> Sampler<'a> {
        let value_size = track.value_size();
        let interpolation = Track::resolve_interpolation(track.kind, Some(track.interpolation));
        let method = match interpolation {
            Interpolation::Discrete => Method::Discrete,
            Interpolation::Linear if track.kind == TrackKind::Quaternion => {
                Method::QuaternionLinear(SlerpCache::default())
            }
            Interpolation::Linear => Method::Linear,
            Interpolation::Smooth => Method::Cubic(CubicState::new(start, end)),
            Interpolation::Bezier => Method::Bezier,
        };
        Sampler {
            track,
            tangents: usable_tangents(track, value_size),
            state: SamplerState {
                value_size,
                method,
                cached_index: 0,
                interval_changes: 0,
                result: Vec::new(),
            },
        }
    }

    /// Detaches the sampler from its track, keeping everything it remembers (cached interval,
    /// cubic weights and endings), so an owner that cannot hold the borrow (an animation action
    /// that owns its clip) can evaluate the detached state directly
    /// ([`SamplerState::evaluate_f64`]).
    pub fn into_state(self) -> SamplerState {
        self.state
    }

    /// Changes the cubic endings of a live sampler. Like changing three.js's `settings`, this
    /// takes effect only when the sampler next moves to another interval.
    pub fn set_endings(&mut self, start: CubicEnding, end: CubicEnding) {
        self.state.set_endings(start, end);
    }

    /// The cached interval index (three.js `_cachedIndex`): 0 after a time before the first
    /// key, the key count after a time at or past the last key, otherwise the interval's end key.
    pub fn cached_index(&self) -> usize {
        self.state.cached_index
    }

    /// How many times the sampler has moved to a new interval (three.js `intervalChanged_`
    /// calls); reusing the cached interval does not count.
    pub fn interval_changes(&self) -> u64 {
        self.state.interval_changes
    }

    /// Numeric evaluation into `out` (length `value_size`), unrounded f64 like the mixer's buffer.
    ///
    /// Entries of `out` past the value size are left alone, and a shorter `out` receives only
    /// its length's worth. Bool tracks give 1 or 0 (or, in Bezier mode, JavaScript's numeric
    /// blend); string tracks give NaN. Never allocates.
    pub fn evaluate_f64(&mut self, t: f64, out: &mut [f64]) {
        self.state.evaluate_with(self.track, self.tangents, t, out);
    }

    /// The f32-rounded result of `track.createInterpolant().evaluate(t)`.
    ///
    /// Bool and string tracks give the chosen key's values. In their (unusual) Bezier mode,
    /// where three.js would produce numbers, a bool result is the JavaScript truthiness of that
    /// number and a string result holds the key at or before `t`. Like three.js's result buffer, the returned values persist
    /// between calls: with more than one quaternion per key, slerping writes only the first
    /// four entries and the rest keep the last copied key.
    pub fn evaluate(&mut self, t: f64) -> Values {
        let track = self.track;
        let state = &mut self.state;
        let vs = state.value_size;
        match &track.values {
            Values::Numbers(_) => {
                let mut result = state.take_result();
                state.evaluate_with(track, self.tangents, t, &mut result);
                let values = result.iter().map(|&x| x as f32).collect();
                state.result = result;
                Values::Numbers(values)
            }
            Values::Bools(v) => {
                if track.is_empty() {
                    return Values::Bools(Vec::new());
                }
                match (state.seek(&track.times, t), state.method) {
                    (Seek::Copy(k), _) => Values::Bools(key_slice(v, k, vs).to_vec()),
                    (Seek::Interval { i1, .. }, Method::Discrete) => {
                        Values::Bools(key_slice(v, i1 - 1, vs).to_vec())
                    }
                    (step, method) => {
                        let mut result = state.take_result();
                        apply(
                            step,
                            method,
                            self.tangents,
                            bool_sample(v),
                            vs,
                            t,
                            &mut result,
                        );
                        let truthy = result.iter().map(|&x| x != 0.0 && !x.is_nan()).collect();
                        state.result = result;
                        Values::Bools(truthy)
                    }
                }
            }
            Values::Strings(v) => {
                if track.is_empty() {
                    return Values::Strings(Vec::new());
                }
                let k = match state.seek(&track.times, t) {
                    Seek::Copy(k) => k,
                    Seek::Interval { i1, .. } => i1 - 1,
                };
                Values::Strings(key_slice(v, k, vs).to_vec())
            }
        }
    }
}

/// A [`Sampler`] detached from its track by [`Sampler::into_state`]: what the three.js
/// interpolant remembers between evaluations. It can go on evaluating its track without being
/// re-attached ([`evaluate_f64`](SamplerState::evaluate_f64)).
#[derive(Debug, Clone)]
pub struct SamplerState {
    value_size: usize,
    method: Method,
    /// three.js `_cachedIndex`: 0 before the start, `n` after the end, else the interval's `i1`.
    cached_index: usize,
    /// How many times `intervalChanged_` ran.
    interval_changes: u64,
    /// The result buffer of `evaluate` (persistent, like the interpolant's `resultBuffer`);
    /// allocated (zeroed, as three.js allocates it) on the first `evaluate`, since the mixer
    /// evaluates into its own buffers and never needs it.
    result: Vec<f64>,
}

impl SamplerState {
    /// The result buffer, taken out for an evaluation (put it back afterwards).
    fn take_result(&mut self) -> Vec<f64> {
        if self.result.is_empty() {
            self.result = vec![0.0; self.value_size];
        }
        std::mem::take(&mut self.result)
    }

    /// [`Sampler::set_endings`] on the detached state.
    pub fn set_endings(&mut self, start: CubicEnding, end: CubicEnding) {
        if let Method::Cubic(state) = &mut self.method {
            state.start = start;
            state.end = end;
        }
    }

    /// [`Sampler::evaluate_f64`] on the detached state: `track` must be the track the sampler was
    /// made for. The same as resuming, evaluating and detaching again, without the round trip.
    #[inline]
    pub fn evaluate_f64(&mut self, track: &Track, t: f64, out: &mut [f64]) {
        let tangents = match self.method {
            Method::Bezier => usable_tangents(track, self.value_size),
            _ => None,
        };
        self.evaluate_with(track, tangents, t, out);
    }

    /// Numeric evaluation of `track` with its usable Bezier handles.
    #[inline]
    fn evaluate_with(
        &mut self,
        track: &Track,
        tangents: Option<&Tangents>,
        t: f64,
        out: &mut [f64],
    ) {
        if track.is_empty() {
            return;
        }
        let before = self.cached_index;
        let step = self.seek(&track.times, t);
        let stride = self.value_size;
        if self.cached_index != before
            && let Values::Numbers(v) = &track.values
        {
            prefetch_keys(&track.times, v, self.cached_index + PREFETCH_KEYS, stride);
        }
        if let (
            Method::QuaternionLinear(cache),
            Values::Numbers(v),
            Seek::Interval { i1, t0, t1 },
        ) = (&mut self.method, &track.values, step)
        {
            let seg = Segment { i1, t0, t, t1 };
            return quaternion_linear::interpolate_cached(
                cache,
                numeric_sample(v),
                stride,
                seg,
                out,
            );
        }
        let method = self.method;
        if let (Method::Linear, Values::Numbers(v), Seek::Interval { i1, t0, t1 }) =
            (method, &track.values, step)
            && linear::interpolate_slices(v, stride, Segment { i1, t0, t, t1 }, out)
        {
            return;
        }
        match &track.values {
            Values::Numbers(v) => apply(step, method, tangents, numeric_sample(v), stride, t, out),
            Values::Bools(v) => apply(step, method, tangents, bool_sample(v), stride, t, out),
            Values::Strings(_) => apply(step, method, tangents, |_| f64::NAN, stride, t, out),
        }
    }

    /// The interval search of three.js's `Interpolant.evaluate` (see
    /// [`seek_scan`](SamplerState::seek_scan)), with the two outcomes of steady playback first: `t` still in
    /// the cached interval, or in the next one (the first step of the forward scan). Both take
    /// the same decisions the full scan takes for them, in fewer steps.
    #[inline]
    fn seek(&mut self, pp: &[f32], t: f64) -> Seek {
        let i1 = self.cached_index;
        if i1 < pp.len() {
            let t1 = pp[i1] as f64;
            if t < t1 {
                // Neither `t >= t1` nor NaN: the scan checks `t >= t0` next.
                if i1 > 0 {
                    let t0 = pp[i1 - 1] as f64;
                    if t >= t0 {
                        return Seek::Interval { i1, t0, t1 };
                    }
                }
            } else if let Some(&next) = pp.get(i1 + 1)
                && t < next as f64
            {
                // `t >= t1` (not NaN: `t < next` held): the forward scan's first step arrives.
                let (i1, t0, t1) = (i1 + 1, t1, next as f64);
                self.cached_index = i1;
                self.interval_changes += 1;
                if let Method::Cubic(state) = &mut self.method {
                    state.interval_changed(pp, self.value_size, i1, t0, t1);
                }
                return Seek::Interval { i1, t0, t1 };
            }
        }
        self.seek_scan(pp, t)
    }

    /// The interval search of three.js's `Interpolant.evaluate`, ported statement by statement
    /// (forward scan of up to two keys, backward scan with the "looping" shortcut, then binary
    /// search). Updates the cached index and runs `intervalChanged_` when the interval changes.
    /// `undefined` (an index outside the keys) is `None`; comparisons with it are false.
    #[inline(never)]
    fn seek_scan(&mut self, pp: &[f32], t: f64) -> Seek {
        let n = pp.len() as isize;
        let at = |i: isize| -> Option<f64> {
            if (0..n).contains(&i) {
                Some(pp[i as usize] as f64)
            } else {
                None
            }
        };
        let lt = |a: f64, b: Option<f64>| b.is_some_and(|b| a < b);
        let ge = |a: f64, b: Option<f64>| b.is_some_and(|b| a >= b);

        let mut i1 = self.cached_index as isize;
        let mut t1 = at(i1);
        let mut t0 = at(i1 - 1);

        'seek: {
            let mut right: isize;
            'linear_scan: {
                'forward_scan: {
                    if !lt(t, t1) {
                        let give_up_at = i1 + 2;
                        loop {
                            if t1.is_none() {
                                if lt(t, t0) {
                                    break 'forward_scan;
                                }
                                // after end
                                self.cached_index = n as usize;
                                return Seek::Copy((n - 1) as usize);
                            }
                            if i1 == give_up_at {
                                break;
                            }
                            t0 = t1;
                            i1 += 1;
                            t1 = at(i1);
                            if lt(t, t1) {
                                // arrived at the sought interval
                                break 'seek;
                            }
                        }
                        // binary search on the right side of the index
                        right = n;
                        break 'linear_scan;
                    }
                }

                if !ge(t, t0) {
                    // looping?
                    let t1_global = at(1);
                    if lt(t, t1_global) {
                        i1 = 2;
                        t0 = t1_global;
                    }
                    // linear reverse scan
                    let give_up_at = i1 - 2;
                    loop {
                        if t0.is_none() {
                            // before start
                            self.cached_index = 0;
                            return Seek::Copy(0);
                        }
                        if i1 == give_up_at {
                            break;
                        }
                        t1 = t0;
                        i1 -= 1;
                        t0 = at(i1 - 1);
                        if ge(t, t0) {
                            // arrived at the sought interval
                            break 'seek;
                        }
                    }
                    // binary search on the left side of the index
                    right = i1;
                    i1 = 0;
                    break 'linear_scan;
                }

                // the cached interval is still valid: no intervalChanged_
                return match (t0, t1) {
                    (Some(t0), Some(t1)) => Seek::Interval {
                        i1: i1 as usize,
                        t0,
                        t1,
                    },
                    _ => Seek::Copy(0), // unreachable: both comparisons succeeded
                };
            }

            // binary search
            while i1 < right {
                let mid = (i1 + right) >> 1;
                if lt(t, at(mid)) {
                    right = mid;
                } else {
                    i1 = mid + 1;
                }
            }
            t1 = at(i1);
            t0 = at(i1 - 1);
            // check boundary cases, again
            if t0.is_none() {
                self.cached_index = 0;
                return Seek::Copy(0);
            }
            if t1.is_none() {
                self.cached_index = n as usize;
                return Seek::Copy((n - 1) as usize);
            }
        }

        let (Some(t0), Some(t1)) = (t0, t1) else {
            self.cached_index = 0; // unreachable: the seek only ends inside the keys
            return Seek::Copy(0);
        };
        let i1 = i1 as usize;
        self.cached_index = i1;
        self.interval_changes += 1;
        if let Method::Cubic(state) = &mut self.method {
            state.interval_changed(pp, self.value_size, i1, t0, t1);
        }
        Seek::Interval { i1, t0, t1 }
    }
}

/// How far ahead of a new interval [`prefetch_keys`] asks for keys.
const PREFETCH_KEYS: usize = 16;

/// Asks the CPU to start loading the time and the values of key `k`, so that playback finds
/// them in cache when it gets there: the tracks of a long take played together are one time
/// stream and one value stream each (see [`prefetch`]).
#[inline(always)]
fn prefetch_keys(times: &[f32], values: &[f32], k: usize, stride: usize) {
    prefetch(times, k);
    prefetch(values, k * stride);
}

/// `track`'s values at each of `times` (sorted), `value_size` per time, f32-rounded, when it
/// is a bezier or straight track (a quaternion track with one quaternion per key) that one
/// walk along its keys plays exactly as a [`Sampler`] does (see [`bezier::sample_sorted`],
/// [`linear::sample_sorted`] and [`quaternion_linear::sample_sorted`]); `None` otherwise (the
/// caller seeks).
pub(crate) fn sample_sorted(track: &Track, times: &[f64], value_size: usize) -> Option<Vec<f32>> {
    if value_size != track.value_size() {
        return None;
    }
    let Values::Numbers(values) = &track.values else {
        return None;
    };
    match Track::resolve_interpolation(track.kind, Some(track.interpolation)) {
        Interpolation::Bezier => {
            let tangents = usable_tangents(track, value_size)?;
            bezier::sample_sorted(&track.times, values, tangents, times, value_size)
        }
        Interpolation::Linear if track.kind == TrackKind::Quaternion => match value_size {
            4 => quaternion_linear::sample_sorted(&track.times, values, times),
            _ => None,
        },
        Interpolation::Linear => linear::sample_sorted(&track.times, values, times, value_size),
        _ => None,
    }
}

/// The track's Bezier handles if both arrays are long enough for every key.
fn usable_tangents(track: &Track, value_size: usize) -> Option<&Tangents> {
    let needed = track.len() * value_size * 2;
    track
        .tangents
        .as_ref()
        .filter(|t| t.in_tangents.len() >= needed && t.out_tangents.len() >= needed)
}

/// Runs a seek's outcome: copy a key, or call the method's `interpolate_`.
fn apply(
    step: Seek,
    method: Method,
    tangents: Option<&Tangents>,
    sample: impl Fn(usize) -> f64,
    stride: usize,
    t: f64,
    out: &mut [f64],
) {
    match step {
        Seek::Copy(k) => copy_sample(sample, stride, k, out),
        Seek::Interval { i1, t0, t1 } => {
            let seg = Segment { i1, t0, t, t1 };
            match method {
                Method::Discrete => discrete::interpolate(sample, stride, seg, out),
                Method::Linear => linear::interpolate(sample, stride, seg, out),
                Method::Cubic(state) => state.interpolate(sample, stride, seg, out),
                Method::QuaternionLinear(_) => {
                    quaternion_linear::interpolate(sample, stride, seg, out)
                }
                Method::Bezier => bezier::interpolate(sample, tangents, stride, seg, out),
            }
        }
    }
}

/// three.js `copySampleValue_(k)`: key `k`'s values into `out`.
fn copy_sample(sample: impl Fn(usize) -> f64, stride: usize, k: usize, out: &mut [f64]) {
    let offset = k * stride;
    for (i, r) in out.iter_mut().enumerate().take(stride) {
        *r = sample(offset + i);
    }
}

/// Reads f32 sample `i` as f64; an index past the end reads like JavaScript's `undefined` (NaN).
fn numeric_sample(values: &[f32]) -> impl Fn(usize) -> f64 + '_ {
    move |i| values.get(i).map_or(f64::NAN, |&v| v as f64)
}

/// Reads bool sample `i` as JavaScript's number coercion does (1 or 0; NaN past the end).
fn bool_sample(values: &[bool]) -> impl Fn(usize) -> f64 + '_ {
    move |i| {
        values
            .get(i)
            .map_or(f64::NAN, |&v| if v { 1.0 } else { 0.0 })
    }
}

/// Key `k`'s values (empty if the array is too short).
fn key_slice<T>(values: &[T], k: usize, stride: usize) -> &[T] {
    values.get(k * stride..(k + 1) * stride).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_trace_matches_three_js() {
        let times: Vec<f32> = (1..=9).map(|k| 11.0 * k as f32).collect();
        let tr = Track::numeric(".x", TrackKind::Number, times.clone(), times);
        let mut s = Sampler::new(&tr);
        // (t, Some(i1) when intervalChanged_(i1, pp[i1-1], pp[i1]) runs, None otherwise)
        let trace: [(f64, Option<usize>); 12] = [
            (11.0, Some(1)),
            (12.0, None),
            (22.0, Some(2)),
            (21.0, Some(1)),
            (20.0, None),
            (43.0, Some(3)),
            (12.0, Some(1)),
            (77.0, Some(7)),
            (80.0, None),
            (36.0, Some(3)),
            (24.0, Some(2)),
            (16.0, Some(1)),
        ];
        let mut calls = 0;
        for (t, change) in trace {
            let before = s.interval_changes();
            let v = s.evaluate(t);
            if let Some(i1) = change {
                calls += 1;
                assert_eq!(s.interval_changes(), before + 1, "t = {t}");
                assert_eq!(s.cached_index(), i1, "t = {t}");
            } else {
                assert_eq!(s.interval_changes(), before, "t = {t}");
            }
            // interpolate_(i1, t0, t, t1) on values == times gives t back.
            assert_eq!(v, Values::Numbers(vec![t as f32]), "t = {t}");
            let i1 = s.cached_index();
            assert!(tr.times[i1 - 1] as f64 <= t && t < tr.times[i1] as f64);
        }
        assert_eq!(s.interval_changes(), calls);
    }

    #[test]
    fn copy_sample_with_stride_two() {
        let tr = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0],
            vec![1.0, 11.0, 2.0, 22.0, 3.0, 33.0],
        );
        let mut out = [0.0; 2];
        for (k, want) in [[1.0, 11.0], [2.0, 22.0], [3.0, 33.0]].iter().enumerate() {
            copy_sample(
                numeric_sample(tr.values.as_numbers().unwrap()),
                2,
                k,
                &mut out,
            );
            assert_eq!(&out, want);
        }
    }

    #[test]
    fn before_and_after_use_the_end_keys_and_cache() {
        let tr = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut s = Sampler::new(&tr);
        let mut out = [9.0];
        for (t, want, cached) in [
            (0.5, 0.5, 1),
            (-1.0, 0.0, 0),
            (1.0, 1.0, 2),
            (2.0, 1.0, 2),
            (0.5, 0.5, 1),
        ] {
            s.evaluate_f64(t, &mut out);
            assert_eq!((out[0], s.cached_index()), (want, cached), "t = {t}");
        }
        // Sequential playback over a long track stays on the scan path (one change per key).
        let n = 10_000;
        let times: Vec<f32> = (0..n).map(|k| k as f32).collect();
        let tr = Track::numeric(".x", TrackKind::Number, times.clone(), times);
        let mut s = Sampler::new(&tr);
        for step in 0..(n - 1) * 4 {
            s.evaluate_f64(step as f64 * 0.25, &mut out);
            assert_eq!(out[0], step as f64 * 0.25);
        }
        assert_eq!(s.interval_changes(), (n - 1) as u64);
    }
}
