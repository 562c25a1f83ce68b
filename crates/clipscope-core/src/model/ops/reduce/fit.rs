//! Fitting one channel with as few keys as its tolerance allows.
//!
//! A channel's curve is known at the clip's sample times (every key time of the clip and every
//! midpoint between two): its reference values. Fitting walks the channel's own keys from the
//! first and, from each kept key, reaches as far as a single segment can go while it stays within
//! tolerance at every sample it spans (starting from the reach of the segment before and
//! galloping from there — up while segments fit, down while they do not, in steps that double —
//! then bisecting between the longest that fit and the shortest that did not); the key reached
//! is kept and the walk goes on from there. A probe checks the samples near the segment's middle
//! first, where a segment too long for its tolerance strays most, so most failing probes stop
//! early. The first and last keys are
//! always kept, so a loop whose ends match keeps them matching, and outside the keys the curve
//! holds the same values as before.
//!
//! A segment is one of:
//! * linear: the straight line between two values (slerp for rotations, like three.js). A
//!   segment starts where the one before it ended; it ends at the value that fits the samples
//!   it spans best by least squares (within [`END_SHARE`] of the tolerance from the key's own
//!   value, so the next segment can still start there), or at the key's own value where that
//!   fits and the fitted one does not. A curve through jittery keys keeps fewer of them this
//!   way. The first and last keys keep their own values;
//! * cubic: a Hermite segment through the two keys' values whose end slopes are fitted by least
//!   squares to the samples between them (with a small pull towards the straight line, so a
//!   segment with a single sample inside is still decided). As bezier handles a third of the
//!   interval from each key, this is exactly glTF's CUBICSPLINE and a three.js bezier segment.
//!   Rotations are fitted component by component too, which is how those curves play them;
//!   the rotation metric counts how far the curve strays from unit length.
//!
//! The fit also hands back its curve evaluated at every sample, which the world search measures
//! without sampling the new track again.

use super::Stored;
use super::channel::{
    Channel, Limit, MAX_VALUES, Metric, RotationTest, SCALED_OFF, error_above, max_error,
    sample_numbers,
};
use crate::model::hermite::basis;
use crate::model::interpolant::SlerpPlan;
use crate::model::{Interpolation, Tangents, Track, Values};

/// The curves a fit may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveFit {
    /// Straight segments only (slerp for rotations): what every format plays.
    Linear,
    /// Cubic Hermite segments (component by component for rotations, as three.js's bezier
    /// interpolant and glTF's CUBICSPLINE evaluate them).
    Cubic {
        /// Formats whose curves are eased between the two key values (Lottie) cannot bend a
        /// component whose two keys are equal: such components get flat slopes.
        flat_where_level: bool,
    },
}

impl CurveFit {
    /// `Some(flat_where_level)` for Hermite segments, `None` for straight ones.
    fn cubic(self) -> Option<bool> {
        match self {
            CurveFit::Cubic { flat_where_level } => Some(flat_where_level),
            CurveFit::Linear => None,
        }
    }
}

/// The result of fitting one channel: the new keys, how far they stray and the curve they draw.
#[derive(Debug, Clone)]
pub(crate) struct Fitted {
    /// The fitted track (same name, kind and extras as the original).
    pub track: Track,
    /// The largest error at any sample, in the channel's metric, when it was asked for (a
    /// joint's channel is measured through the world instead).
    pub error: Option<f64>,
    /// The fitted curve at every sample time of the channel (`samples × value_size`), as a
    /// player keeps it (`f32`).
    pub sampled: Vec<f32>,
}

/// The end slopes of a segment, per component (unused for a straight segment).
type Slopes = ([f64; MAX_VALUES], [f64; MAX_VALUES]);

/// A value of a channel (its first `value_size` components are used).
type Value = [f64; MAX_VALUES];

/// One segment of a fit: the key it ends at, its end slopes and the value it ends at.
type Segment = (usize, Slopes, Value);

/// How far a straight segment's end may move from its key's own value, as a share of the
/// tolerance: the rest is the room the next segment starts with.
const END_SHARE: f64 = 0.7;

/// Fits `channel` with `tolerance` (in its metric) using `curves`, measuring the fit's largest
/// error when `measure`; `None` when even a single interval between two neighbouring keys
/// cannot be drawn within the tolerance with these curves (a bezier original fitted with
/// straight lines, say): the caller keeps such a track as it was.
#[cfg(test)]
pub(crate) fn fit(
    channel: &Channel,
    tolerance: f64,
    curves: CurveFit,
    measure: bool,
) -> Option<Fitted> {
    fit_sampled(
        channel,
        tolerance,
        curves,
        measure,
        (Sampling::Played, None),
        KeyCap::most(usize::MAX),
    )
}

/// How a fit's curve is sampled at every sample time of its channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sampling {
    /// As the fit draws it (in f64, a little cheaper): what a pilot try measures.
    Drawn,
    /// As the player plays the track, rounded as the file stores it first.
    Played,
    /// Rounded as the file stores it, its samples left empty to be played later
    /// ([`Outcome::played`](super::outcome::Outcome::played)): for a try that picks one of
    /// several fits of a track first (unless the fit's error is measured, which plays it now).
    Later,
}

/// The most keys a fit may take and still be of use to its caller: past them it stops early
/// with `None`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct KeyCap {
    /// The most keys in all.
    pub most: usize,
    /// The most keys up to a time, checked once, where the fit first reaches that time: a fit
    /// already past them there is taken to stay past `most` to the end (what a pilot found
    /// on the take's beginning), and stops without fitting the rest.
    pub by: Option<(f32, usize)>,
}

impl KeyCap {
    /// At most `most` keys in all.
    pub fn most(most: usize) -> KeyCap {
        KeyCap { most, by: None }
    }
}

/// [`fit`], the fitted curve at every sample as `sampling` says (the track rounded as
/// `stored` says first, where it is played); `None` too when it would take more keys than
/// `cap` allows (a fit with more is of no use to the caller, and stops early).
pub(crate) fn fit_sampled(
    channel: &Channel,
    tolerance: f64,
    curves: CurveFit,
    measure: bool,
    (sampling, stored): (Sampling, Option<&Stored>),
    cap: KeyCap,
) -> Option<Fitted> {
    let cubic = curves.cubic();
    if cap.most == 0 {
        return None;
    }
    if let Some(mut constant) = constant_fit(channel, tolerance) {
        if let (true, Some(stored)) = (sampling != Sampling::Drawn, stored) {
            stored.apply(&mut constant.track);
            if sampling == Sampling::Played || measure {
                let vs = channel.value_size;
                constant.sampled = sample_numbers(&constant.track, &channel.sample_times, vs);
                constant.error = Some(error_of_sampled(channel, &constant.sampled));
            } else {
                constant.sampled = Vec::new();
            }
        }
        return Some(constant);
    }
    let segments = segments(channel, tolerance, cubic, cap, false).ok()?;
    Some(build(
        channel,
        &segments,
        cubic.is_some(),
        measure,
        (sampling, stored),
    ))
}

/// The largest error of a curve sampled at every sample of `channel` against the original.
fn error_of_sampled(channel: &Channel, sampled: &[f32]) -> f64 {
    let vs = channel.value_size;
    sampled
        .chunks_exact(vs)
        .zip(channel.samples.chunks_exact(vs))
        .fold(0.0, |e, (v, r)| max_error(channel.metric, v, r, e))
}

/// One key when every sample is within `tolerance` of one value: the middle of the samples'
/// range (the first key's value for rotations), so a track that ends up constant has one key.
fn constant_fit(channel: &Channel, tolerance: f64) -> Option<Fitted> {
    let vs = channel.value_size;
    let value: Vec<f64> = if channel.metric == Metric::Rotation {
        channel.key_value(0)[..vs].to_vec()
    } else {
        (0..vs)
            .map(|c| {
                let (lo, hi) = channel.samples.chunks_exact(vs).fold(
                    (f64::INFINITY, f64::NEG_INFINITY),
                    |(lo, hi), v| {
                        let x = f64::from(v[c]);
                        (lo.min(x), hi.max(x))
                    },
                );
                if lo.is_finite() && hi.is_finite() {
                    lo + (hi - lo) / 2.0
                } else {
                    channel.key_value(0)[c]
                }
            })
            .collect()
    };
    let value32: Vec<f32> = value.iter().map(|&v| v as f32).collect();
    let mut error: f64 = 0.0;
    for s in channel.samples.chunks_exact(vs) {
        error = error.max(channel.metric.error(&value32, s));
        if error > tolerance {
            return None;
        }
    }
    let samples = channel.samples.len() / vs.max(1);
    let mut sampled = Vec::with_capacity(samples * vs);
    for _ in 0..samples {
        sampled.extend_from_slice(&value32);
    }
    let mut track = channel.empty_track();
    track.times = vec![channel.times[0]];
    track.values = Values::Numbers(value32);
    track.interpolation = Interpolation::Linear;
    Some(Fitted {
        track,
        error: Some(error),
        sampled,
    })
}

/// Where a segment starts and how its end may move.
struct Ends<'v> {
    /// The value the segment starts at (where the one before it ended).
    from: &'v Value,
    /// Whether the segment ends at the channel's last key (which keeps its own value).
    last: bool,
    /// The channel's tolerance.
    tolerance: f64,
}

/// Why [`segments`] stopped without a fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Past the cap's keys.
    Capped,
    /// Not even one interval between two neighbouring keys can be drawn.
    Unfittable,
    /// On a prefix ([`fails_on_prefix`]): a probe reached its open end, so the whole track's
    /// fit may go otherwise.
    Undecided,
}

/// The segments of `channel` fitted within `tolerance` (curves when `cubic`), each as long as
/// it can be, or why there are none within `cap`. With `open_end` the channel's keys stop
/// before the track's: a probe reaching its last key makes every stop after it
/// [`Stop::Undecided`] (and a fit that reaches the end is undecided too).
fn segments(
    channel: &Channel,
    tolerance: f64,
    cubic: Option<bool>,
    cap: KeyCap,
    open_end: bool,
) -> Result<Vec<Segment>, Stop> {
    let n = channel.times.len();
    let limit = Limit::new(channel.metric, tolerance);
    let mut from = channel.key_value(0);
    let mut by = cap.by;
    let reached_end = std::cell::Cell::new(false);
    // A stop after a probe reached an open end might have gone otherwise on the whole track.
    let stop = |why: Stop| match reached_end.get() {
        true => Stop::Undecided,
        false => why,
    };
    // Room for a segment per interval: only what is used is ever touched, and the list never
    // moves as it grows (a long take's fits are megabytes of segments).
    let mut segments: Vec<Segment> = Vec::with_capacity(n.saturating_sub(1).min(cap.most));
    let mut i = 0;
    let mut reach = 1usize;
    while i + 1 < n {
        let start_value = from;
        let fits = |i: usize, j: usize| -> Option<(Slopes, Value)> {
            let ends = Ends {
                from: &start_value,
                last: j + 1 == n,
                tolerance,
            };
            // A prefix's last key is not the track's: what a segment there does is unknown.
            if open_end && j + 1 == n {
                reached_end.set(true);
                return None;
            }
            segment(channel, i, j, &ends, cubic, &limit)
        };
        let last = n - 1 - i;
        // Start from the previous segment's reach (most segments of a curve are alike) and
        // gallop from there, up while segments fit and down while they do not, in steps that
        // double; then bisect between the longest that fit and the shortest that did not.
        let start = reach.clamp(1, last);
        let mut good;
        let mut good_slopes;
        let mut bad = None;
        if let Some(s) = fits(i, i + start) {
            good = start;
            good_slopes = s;
            let mut step = 1;
            while good < last {
                let probe = (good + step).min(last);
                match fits(i, i + probe) {
                    Some(s) => {
                        good = probe;
                        good_slopes = s;
                        step *= 2;
                    }
                    None => {
                        bad = Some(probe);
                        break;
                    }
                }
            }
        } else {
            let mut hi = start;
            let mut step = 1;
            loop {
                // Not even one interval fits.
                if hi == 1 {
                    return Err(stop(Stop::Unfittable));
                }
                let probe = hi.saturating_sub(step).max(1);
                if let Some(s) = fits(i, i + probe) {
                    good = probe;
                    good_slopes = s;
                    break;
                }
                hi = probe;
                step *= 2;
            }
            bad = Some(hi);
        }
        if let Some(mut hi) = bad.filter(|&b| b > good) {
            while hi - good > 1 {
                let mid = good + (hi - good) / 2;
                match fits(i, i + mid) {
                    Some(s) => {
                        good = mid;
                        good_slopes = s;
                    }
                    None => hi = mid,
                }
            }
        }
        reach = good;
        from = good_slopes.1;
        segments.push((i + good, good_slopes.0, good_slopes.1));
        // One key per segment and the first.
        if segments.len() >= cap.most {
            return Err(stop(Stop::Capped));
        }
        i += good;
        if let Some((_, keys)) = by.filter(|&(time, _)| channel.times[i] >= time) {
            if segments.len() >= keys {
                return Err(stop(Stop::Capped));
            }
            by = None;
        }
    }
    match open_end {
        true => Err(Stop::Undecided),
        false => Ok(segments),
    }
}

/// Whether [`fit_sampled`] of the whole track gives `None` within `cap`, decided on `prefix`:
/// the track's channel with only its first keys (and the whole track's samples). Its fit
/// makes the same choices as the whole channel's until a probe reaches the prefix's last key,
/// so a fit that stops before any does stops on the whole channel too. `false` when that is
/// not known.
pub(crate) fn fails_on_prefix(
    prefix: &Channel,
    tolerance: f64,
    curves: CurveFit,
    cap: KeyCap,
) -> bool {
    let cubic = curves.cubic();
    if cap.most == 0 {
        return true;
    }
    if constant_fit(prefix, tolerance).is_some() {
        return false;
    }
    matches!(
        segments(prefix, tolerance, cubic, cap, true),
        Err(Stop::Capped | Stop::Unfittable)
    )
}

/// The end slopes and end value of the segment from key `i` to key `j` when it stays within
/// `limit` at every sample it spans; `cubic` is `Some(flat_where_level)` for a Hermite segment
/// (else the slopes are unused). A straight segment tries the least-squares end first, then
/// the key's own value.
fn segment(
    channel: &Channel,
    i: usize,
    j: usize,
    ends: &Ends,
    cubic: Option<bool>,
    limit: &Limit,
) -> Option<(Slopes, Value)> {
    let (t0, t1) = (channel.times[i] as f64, channel.times[j] as f64);
    if t1 <= t0 {
        return None;
    }
    let own = channel.key_value(j);
    let Some(flat_where_level) = cubic else {
        let none = ([0.0; MAX_VALUES], [0.0; MAX_VALUES]);
        if !ends.last
            && let Some(fitted) = fitted_end(channel, i, j, ends, &own)
            && admitted(channel, i, j, ends.from, &fitted, None, limit)
        {
            return Some((none, fitted));
        }
        return admitted(channel, i, j, ends.from, &own, None, limit).then_some((none, own));
    };
    let slopes = hermite_slopes(channel, i, j, flat_where_level);
    admitted(channel, i, j, ends.from, &own, Some(&slopes), limit).then_some((slopes, own))
}

/// Whether the segment from key `i` (at `v0`) to key `j` (at `v1`), Hermite with `slopes`
/// or else straight, stays within `limit` at every sample it spans.
fn admitted(
    channel: &Channel,
    i: usize,
    j: usize,
    v0: &Value,
    v1: &Value,
    slopes: Option<&Slopes>,
    limit: &Limit,
) -> bool {
    let curve = Curve::new(channel, i, j, v0, v1, slopes);
    let range = channel.sample_range(i, j);
    // One loop per shape, so the shape is not matched again at every sample.
    match &curve.shape {
        Shape::Lerp => stays_within(channel, range, &curve, limit, |u, out| {
            lerp(curve.v0, curve.v1, u, out)
        }),
        // Nearly parallel ends: the lerp's direction, tested as the unit quaternion the
        // player scales it to (no root or division per sample).
        Shape::Slerp(plan) if plan.is_near() && limit.metric == Metric::Rotation => stays_within(
            channel,
            range,
            &curve,
            &limit.rotation_test(SCALED_OFF),
            |u, out| out.copy_from_slice(&plan.at_unscaled(u)),
        ),
        Shape::Slerp(plan) => stays_within(channel, range, &curve, limit, |u, out| {
            out.copy_from_slice(&plan.at(u))
        }),
        Shape::Hermite(d0, d1) => stays_within(channel, range, &curve, limit, |u, out| {
            hermite(curve.v0, d0, curve.v1, d1, u, out)
        }),
    }
}

/// Whether `curve`, drawn at each parameter `u` by `draw`, passes the test `admits` (a
/// [`Limit`], or a [`RotationTest`]) at every sample of `range`.
#[inline(always)]
fn stays_within(
    channel: &Channel,
    range: std::ops::Range<usize>,
    curve: &Curve,
    admits: &impl SampleTest,
    draw: impl Fn(f64, &mut [f64]),
) -> bool {
    // The common widths (numbers, vectors, quaternions) get a copy of the loop each with the
    // width fixed, so the compiler unrolls their per-value steps: the same steps either way.
    match channel.value_size {
        1 => stays_within_width(channel, range, curve, &draw, admits, 1),
        3 => stays_within_width(channel, range, curve, &draw, admits, 3),
        4 => stays_within_width(channel, range, curve, &draw, admits, 4),
        vs => stays_within_width(channel, range, curve, &draw, admits, vs),
    }
}

/// [`stays_within`] for values of `vs` components.
#[inline(always)]
fn stays_within_width(
    channel: &Channel,
    range: std::ops::Range<usize>,
    curve: &Curve,
    draw: &impl Fn(f64, &mut [f64]),
    admits: &impl SampleTest,
    vs: usize,
) -> bool {
    let mut value = [0.0; MAX_VALUES];
    let value = &mut value[..vs];
    let samples = (&channel.sample_times[..], &channel.samples[..]);
    // A segment too long for its tolerance strays most near its middle: a few samples there
    // turn most failing probes down before the full pass.
    let len = range.len();
    let quarter = |k: usize| range.start + len * k / 4;
    let middle = match len > 8 {
        true => [quarter(2), quarter(1), quarter(3)],
        false => [usize::MAX; 3],
    };
    for s in middle.into_iter().filter(|&s| s != usize::MAX) {
        if !sample_admitted(s, samples, vs, curve, draw, admits, value) {
            return false;
        }
    }
    // The rest, around the three already admitted.
    for s in range {
        if !middle.contains(&s) && !sample_admitted(s, samples, vs, curve, draw, admits, value) {
            return false;
        }
    }
    true
}

/// Whether `curve`, drawn by `draw` into `value`, is within the test `admits` of the channel's
/// value at sample `s` (of its sample times and values, `vs` per sample).
#[inline(always)]
fn sample_admitted(
    s: usize,
    (times, values): (&[f64], &[f32]),
    vs: usize,
    curve: &Curve,
    draw: &impl Fn(f64, &mut [f64]),
    admits: &impl SampleTest,
    value: &mut [f64],
) -> bool {
    draw(curve.parameter(times[s]), value);
    admits.admits(value, &values[s * vs..(s + 1) * vs])
}

/// What a probe tests each sample by: a [`Limit`], or a [`RotationTest`] with its bound
/// worked out once. A trait rather than a closure, so that the test is written out in the
/// probe's loop instead of called per sample.
trait SampleTest {
    /// Whether `value` is within the tolerance of `reference`.
    fn admits(&self, value: &[f64], reference: &[f32]) -> bool;
}

impl SampleTest for Limit {
    #[inline(always)]
    fn admits(&self, value: &[f64], reference: &[f32]) -> bool {
        Limit::admits(self, value, reference)
    }
}

impl SampleTest for RotationTest {
    #[inline(always)]
    fn admits(&self, value: &[f64], reference: &[f32]) -> bool {
        RotationTest::admits(self, value, reference)
    }
}

/// The end value of the straight segment from key `i` (at `ends.from`) to key `j` that fits
/// the samples between them best by least squares (rotations component by component, then
/// normalized), moved back towards the key's own value `own` until it is within
/// [`END_SHARE`] of the tolerance from it, and rounded to `f32` as the file stores it; `None`
/// when it is the key's own value or cannot be computed.
fn fitted_end(channel: &Channel, i: usize, j: usize, ends: &Ends, own: &Value) -> Option<Value> {
    let vs = channel.value_size;
    let (t0, t1) = (channel.times[i] as f64, channel.times[j] as f64);
    let dt = t1 - t0;
    let v0 = ends.from;
    let range = channel.sample_range(i, j);
    // A copy of the loop per common width, whose per-value steps the compiler unrolls.
    let (uu, uy) = match vs {
        1 => end_sums(channel, range, (t0, dt), v0, 1),
        3 => end_sums(channel, range, (t0, dt), v0, 3),
        4 => end_sums(channel, range, (t0, dt), v0, 4),
        vs => end_sums(channel, range, (t0, dt), v0, vs),
    };
    if uu <= 0.0 {
        return None;
    }
    let mut end = [0.0; MAX_VALUES];
    for c in 0..vs {
        end[c] = v0[c] + uy[c] / uu;
    }
    let rotation = channel.metric == Metric::Rotation && vs == 4;
    if rotation {
        normalize(&mut end);
    }
    let room = END_SHARE * ends.tolerance;
    // Within the room the drift itself is not needed (a rotation's needs an arcsine).
    let drift = error_above(channel.metric, &end[..vs], &own[..vs], room).unwrap_or(0.0);
    if !drift.is_finite() {
        return None;
    }
    if drift > room {
        // Back along the line to the key's own value (nearly linear in the drift).
        let keep = room / drift;
        for c in 0..vs {
            end[c] = own[c] + (end[c] - own[c]) * keep;
        }
        if rotation {
            normalize(&mut end);
        }
    }
    for x in &mut end[..vs] {
        *x = *x as f32 as f64;
    }
    (end[..vs] != own[..vs]).then_some(end)
}

/// The sums [`fitted_end`] solves for the end of a straight segment starting at `v0` at
/// `t0` and lasting `dt` seconds, over the samples `range` (`vs` values each): Σu² and
/// Σu·(y − v0) per value, where `u` is a sample's parameter along the segment.
#[inline(always)]
fn end_sums(
    channel: &Channel,
    range: std::ops::Range<usize>,
    (t0, dt): (f64, f64),
    v0: &Value,
    vs: usize,
) -> (f64, Value) {
    let (mut uu, mut uy) = (0.0, [0.0; MAX_VALUES]);
    for s in range {
        let u = (channel.sample_times[s] - t0) / dt;
        uu += u * u;
        let y = &channel.samples[s * vs..(s + 1) * vs];
        for c in 0..vs {
            uy[c] += u * (f64::from(y[c]) - v0[c]);
        }
    }
    (uu, uy)
}

/// Scales a quaternion to unit length (left alone when it has none).
fn normalize(q: &mut Value) {
    let length = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    if length > 0.0 && length.is_finite() {
        for x in q.iter_mut() {
            *x /= length;
        }
    }
}

/// One segment's curve, ready to evaluate.
struct Curve<'c> {
    t0: f64,
    dt: f64,
    v0: &'c [f64],
    v1: &'c [f64],
    /// How it is drawn.
    shape: Shape,
}

/// How a segment's curve is drawn between its two values.
enum Shape {
    /// A straight line.
    Lerp,
    /// A rotation's slerp, planned once for the segment.
    Slerp(SlerpPlan),
    /// A Hermite segment: slope times interval at each end.
    Hermite(Value, Value),
}

impl<'c> Curve<'c> {
    /// The segment from key `i` (at `v0`) to key `j` (at `v1`) of `channel`, Hermite with
    /// `slopes` or else straight.
    fn new(
        channel: &Channel,
        i: usize,
        j: usize,
        v0: &'c Value,
        v1: &'c Value,
        slopes: Option<&Slopes>,
    ) -> Curve<'c> {
        let vs = channel.value_size;
        let (t0, t1) = (channel.times[i] as f64, channel.times[j] as f64);
        let dt = t1 - t0;
        let shape = match slopes {
            Some(slopes) => Shape::Hermite(slopes.0.map(|m| m * dt), slopes.1.map(|m| m * dt)),
            None if channel.metric == Metric::Rotation && vs == 4 => {
                Shape::Slerp(SlerpPlan::new(*v0, *v1))
            }
            None => Shape::Lerp,
        };
        Curve {
            t0,
            dt,
            v0: &v0[..vs],
            v1: &v1[..vs],
            shape,
        }
    }

    /// The curve's parameter (0 at its start, 1 at its end) at time `t`.
    #[inline]
    fn parameter(&self, t: f64) -> f64 {
        (t - self.t0) / self.dt
    }

    /// The curve at time `t`.
    #[inline]
    fn at(&self, t: f64, out: &mut [f64]) {
        let u = self.parameter(t);
        match &self.shape {
            Shape::Lerp => lerp(self.v0, self.v1, u, out),
            Shape::Slerp(plan) => out.copy_from_slice(&plan.at(u)),
            Shape::Hermite(d0, d1) => hermite(self.v0, d0, self.v1, d1, u, out),
        }
    }
}

/// The straight line from `v0` to `v1` at parameter `u`.
#[inline(always)]
fn lerp(v0: &[f64], v1: &[f64], u: f64, out: &mut [f64]) {
    for ((x, a), b) in out.iter_mut().zip(v0).zip(v1) {
        *x = a + (b - a) * u;
    }
}

/// The Hermite segment from `v0` to `v1` with end slopes times interval `d0` and `d1`, at
/// parameter `u`.
#[inline(always)]
fn hermite(v0: &[f64], d0: &Value, v1: &[f64], d1: &Value, u: f64, out: &mut [f64]) {
    let [h00, h10, h01, h11] = basis(u);
    for c in 0..out.len() {
        out[c] = h00 * v0[c] + h10 * d0[c] + h01 * v1[c] + h11 * d1[c];
    }
}

/// Least-squares end slopes (value per second) of the Hermite segment from key `i` to key `j`
/// through the samples between them, pulled slightly towards the chord's slope so that a
/// segment with one inner sample is decided.
fn hermite_slopes(channel: &Channel, i: usize, j: usize, flat_where_level: bool) -> Slopes {
    let vs = channel.value_size;
    let (t0, t1) = (channel.times[i] as f64, channel.times[j] as f64);
    let dt = t1 - t0;
    let (v0, v1) = (channel.key_value(i), channel.key_value(j));
    // Normal equations of `r(u) ≈ a·h10(u) + b·h11(u)` per component, with ridge λ towards
    // the chord slope.
    let mut s11 = 0.0;
    let mut s12 = 0.0;
    let mut s22 = 0.0;
    let mut r1 = [0.0; MAX_VALUES];
    let mut r2 = [0.0; MAX_VALUES];
    let mut count: f64 = 0.0;
    for s in channel.sample_range(i, j) {
        let u = (channel.sample_times[s] - t0) / dt;
        let [h00, h10, h01, h11] = basis(u);
        s11 += h10 * h10;
        s12 += h10 * h11;
        s22 += h11 * h11;
        let y = channel.sample(s);
        for c in 0..vs {
            let r = f64::from(y[c]) - h00 * v0[c] - h01 * v1[c];
            r1[c] += h10 * r;
            r2[c] += h11 * r;
        }
        count += 1.0;
    }
    let lambda = 1e-4 * count.max(1.0) / 30.0 + 1e-9;
    let mut m0 = [0.0; MAX_VALUES];
    let mut m1 = [0.0; MAX_VALUES];
    let (a11, a12, a22) = (s11 + lambda, s12, s22 + lambda);
    let det = a11 * a22 - a12 * a12;
    for c in 0..vs {
        let chord = v1[c] - v0[c];
        if flat_where_level && chord == 0.0 {
            continue;
        }
        let b1 = r1[c] + lambda * chord;
        let b2 = r2[c] + lambda * chord;
        let (a, b) = if det.abs() > 1e-300 {
            ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det)
        } else {
            (chord, chord)
        };
        m0[c] = a / dt;
        m1[c] = b / dt;
    }
    (m0, m1)
}

/// The track of the segments (each ending at a key, from key 0), its curve at every sample
/// as played when `played` is `Some` (the track rounded as the storage in it says first), else
/// as drawn, and, when `measure`, its largest error there.
fn build(
    channel: &Channel,
    segments: &[Segment],
    cubic: bool,
    measure: bool,
    (sampling, stored): (Sampling, Option<&Stored>),
) -> Fitted {
    let vs = channel.value_size;
    let mut kept = Vec::with_capacity(segments.len() + 1);
    kept.push(0);
    kept.extend(segments.iter().map(|s| s.0));
    let times: Vec<f32> = kept.iter().map(|&k| channel.times[k]).collect();
    let mut values = Vec::with_capacity(kept.len() * vs);
    values.extend_from_slice(&channel.values[..vs]);
    for (_, _, value) in segments {
        values.extend(value[..vs].iter().map(|&v| v as f32));
    }
    let mut track = channel.empty_track();
    if cubic && kept.len() > 1 {
        let mut ins = vec![0.0f32; kept.len() * vs];
        let mut outs = vec![0.0f32; kept.len() * vs];
        for (seg, (_, (m0, m1), _)) in segments.iter().enumerate() {
            for c in 0..vs {
                outs[seg * vs + c] = m0[c] as f32;
                ins[(seg + 1) * vs + c] = m1[c] as f32;
            }
        }
        // The handles no segment uses mirror their neighbour's slope.
        let head = outs[..vs].to_vec();
        ins[..vs].copy_from_slice(&head);
        let last = (kept.len() - 1) * vs;
        let tail = ins[last..last + vs].to_vec();
        outs[last..last + vs].copy_from_slice(&tail);
        track.tangents = Some(Tangents::from_hermite(&times, &values, &ins, &outs, vs));
        track.interpolation = Interpolation::Bezier;
    } else {
        track.interpolation = Interpolation::Linear;
    }
    track.times = times;
    track.values = Values::Numbers(values);
    // The curve at every sample as the player plays the track (the model's interpolant, f32
    // results): what the world search measures, bit for bit what the written file plays
    // where it reads back as this track.
    let sampled = match sampling {
        Sampling::Drawn => drawn(channel, segments, cubic),
        Sampling::Played | Sampling::Later => {
            if let Some(stored) = stored {
                stored.apply(&mut track);
            }
            match sampling == Sampling::Later && !measure {
                true => Vec::new(),
                false => sample_numbers(&track, &channel.sample_times, vs),
            }
        }
    };
    let error = measure.then(|| error_of_sampled(channel, &sampled));
    Fitted {
        track,
        error,
        sampled,
    }
}

/// The fitted curve at every sample as the fit draws it (f64, then rounded to `f32` as a player
/// keeps it): the first key's value before it, the last's after it.
fn drawn(channel: &Channel, segments: &[Segment], cubic: bool) -> Vec<f32> {
    let vs = channel.value_size;
    let samples = channel.sample_times.len();
    let mut sampled = vec![0.0f32; samples * vs];
    let put = |slot: &mut [f32], value: &[f64]| {
        for (x, &v) in slot.iter_mut().zip(value) {
            *x = v as f32;
        }
    };
    let first = channel.sample_range(0, 0).start;
    for s in 0..first.min(samples) {
        sampled[s * vs..(s + 1) * vs].copy_from_slice(&channel.values[..vs]);
    }
    let mut start = 0;
    let mut from = channel.key_value(0);
    let mut value = [0.0; MAX_VALUES];
    let at = &mut value[..vs];
    for (end, slopes, to) in segments {
        let curve = Curve::new(channel, start, *end, &from, to, cubic.then_some(slopes));
        for s in channel.sample_range(start, *end) {
            curve.at(channel.sample_times[s], at);
            put(&mut sampled[s * vs..(s + 1) * vs], at);
        }
        start = *end;
        from = *to;
    }
    let last = channel.sample_range(start, start).end;
    for s in last..samples {
        put(&mut sampled[s * vs..(s + 1) * vs], &from[..vs]);
    }
    sampled
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::ops::reduce::grid_keys::GridKeys;
    use crate::model::ops::reduce::plan::sample_times;
    use crate::model::{Clip, TrackKind};
    use clipscope_test_support::rng::Rng;

    /// The channel of `track` sampled at its keys and midpoints, as a reduction sees it.
    fn channel(track: &Track, metric: Metric) -> Channel {
        let clip = Clip::new("c", -1.0, vec![track.clone()]);
        Channel::new(track, metric, Arc::new(sample_times(&clip))).unwrap()
    }

    /// A vector track of `n` keys at 30 fps with values `f(t)`.
    fn vector(n: usize, f: impl Fn(f64) -> [f64; 3]) -> Track {
        let times: Vec<f32> = (0..n).map(|i| i as f32 / 30.0).collect();
        let values = times
            .iter()
            .flat_map(|&t| f(t as f64).map(|v| v as f32))
            .collect();
        Track::new(
            "a.position",
            TrackKind::Vector,
            times,
            Values::Numbers(values),
        )
    }

    /// A quaternion track of `n` keys at 30 fps with values `f(key, t)`.
    fn quaternion(n: usize, f: impl Fn(usize, f64) -> [f64; 4]) -> Track {
        let times: Vec<f32> = (0..n).map(|i| i as f32 / 30.0).collect();
        let values = times
            .iter()
            .enumerate()
            .flat_map(|(i, &t)| f(i, t as f64).map(|v| v as f32))
            .collect();
        Track::new(
            "a.quaternion",
            TrackKind::Quaternion,
            times,
            Values::Numbers(values),
        )
    }

    const CUBIC: CurveFit = CurveFit::Cubic {
        flat_where_level: false,
    };

    #[test]
    fn a_straight_line_is_two_keys_with_lines_or_curves() {
        let track = vector(61, |t| [t, 2.0 * t - 1.0, 0.5]);
        let c = channel(&track, Metric::Translation);
        for curves in [CurveFit::Linear, CUBIC] {
            let f = fit(&c, 1e-5, curves, true).unwrap();
            assert_eq!(f.track.times, [0.0, 2.0], "{curves:?}");
            assert!(f.error.unwrap() <= 1e-5);
            // The model's own interpolant agrees with the fit's.
            assert!(c.error_of(&f.track) <= 1e-5, "{curves:?}");
        }
    }

    #[test]
    fn a_cubic_is_drawn_by_few_bezier_keys_and_many_straight_ones() {
        // Smooth enough that the original's kinks at its keys stay within the tolerance.
        let track = vector(301, |t| [t.sin(), (0.5 * t).cos(), 0.2 * t * t]);
        let c = channel(&track, Metric::Translation);
        let curved = fit(&c, 1e-3, CUBIC, true).unwrap();
        let straight = fit(&c, 1e-3, CurveFit::Linear, true).unwrap();
        assert_eq!(curved.track.interpolation, Interpolation::Bezier);
        assert_eq!(straight.track.interpolation, Interpolation::Linear);
        assert!(
            curved.track.len() * 3 < straight.track.len(),
            "{} bezier keys vs {} linear",
            curved.track.len(),
            straight.track.len()
        );
        for f in [&curved, &straight] {
            assert!(f.error.unwrap() <= 1e-3);
            assert!(c.error_of(&f.track) <= 1e-3 * (1.0 + 1e-4) + 1e-6);
            assert_eq!(f.track.times.first(), Some(&0.0));
            assert_eq!(f.track.times.last(), Some(&10.0));
        }
    }

    #[test]
    fn straight_segments_end_at_fitted_values_through_jitter() {
        // A slow curve with capture-like jitter of 9 Hz at 30 fps, ±0.85 of the tolerance:
        // segments between the keys' own values start and end on the jitter and keep 137 of
        // the 301 keys; segments between fitted values run through it and keep 74.
        let tolerance = 1e-3;
        let track = vector(301, |t| {
            let jitter = 0.85 * tolerance * (std::f64::consts::TAU * 9.0 * t + 0.3).sin();
            [(0.5 * t).sin() + jitter, 0.0, 0.0]
        });
        let c = channel(&track, Metric::Translation);
        let f = fit(&c, tolerance, CurveFit::Linear, true).unwrap();
        assert!(f.track.len() < 100, "{} keys", f.track.len());
        assert!(f.error.unwrap() <= tolerance);
        assert!(c.error_of(&f.track) <= tolerance * (1.0 + 1e-4) + 1e-6);
        // The first and last keys keep their own values.
        let values = f.track.values.as_numbers().unwrap();
        assert_eq!(values[0], c.key_value(0)[0] as f32);
        assert_eq!(values[values.len() - 3], c.key_value(300)[0] as f32);
        // Between them, the values are the fit's, not the keys'.
        assert!((1..f.track.len() - 1).any(|k| {
            let i = (f.track.times[k] * 30.0).round() as usize;
            values[k * 3] != c.key_value(i)[0] as f32
        }));
    }

    #[test]
    fn a_straight_rotation_segment_plays_its_slerp_bit_for_bit() {
        // A steady turn: two keys, and the fit's curve is three.js's slerp between them.
        let track = quaternion(61, |_, t| {
            let half = t * 0.4;
            [half.sin(), 0.0, 0.0, half.cos()]
        });
        let c = channel(&track, Metric::Rotation);
        let drawn = (Sampling::Drawn, None);
        let f = fit_sampled(
            &c,
            1e-4,
            CurveFit::Linear,
            true,
            drawn,
            KeyCap::most(usize::MAX),
        )
        .unwrap();
        assert_eq!(f.track.len(), 2);
        let q = |k: usize| {
            let v = f.track.values.as_numbers().unwrap();
            [0, 1, 2, 3].map(|i| v[k * 4 + i] as f64)
        };
        for (s, &t) in c.sample_times.iter().enumerate() {
            let u = t / 2.0;
            let want = crate::model::interpolant::slerp_flat(q(0), q(1), u);
            // Drawn in f64, kept as a player keeps it.
            assert_eq!(
                &f.sampled[s * 4..s * 4 + 4],
                &want.map(|v| v as f32)[..],
                "at {t}"
            );
        }
    }

    #[test]
    fn a_fit_past_its_most_keys_stops_with_none() {
        // A wobble that takes several keys: the same fit within its count, none below it.
        let track = vector(121, |t| [(t * 5.0).sin(), (t * 3.0).cos(), t]);
        let c = channel(&track, Metric::Translation);
        let played = (Sampling::Played, None);
        let fit = |most| fit_sampled(&c, 1e-3, CurveFit::Linear, true, played, KeyCap::most(most));
        let all = fit(usize::MAX).unwrap();
        let keys = all.track.len();
        assert!(keys > 3, "{keys} keys");
        let capped = fit(keys).unwrap();
        assert_eq!((capped.track, capped.sampled), (all.track, all.sampled));
        assert!(fit(keys - 1).is_none());
        // Not even the one key of a constant.
        let still = vector(31, |_| [1.0, 2.0, 3.0]);
        let c = channel(&still, Metric::Translation);
        assert_eq!(
            fit_sampled(&c, 1e-3, CurveFit::Linear, true, played, KeyCap::most(1))
                .map(|f| f.track.len()),
            Some(1)
        );
        assert!(fit_sampled(&c, 1e-3, CurveFit::Linear, true, played, KeyCap::most(0)).is_none());
    }

    #[test]
    fn a_fit_past_its_keys_by_a_time_stops_there_and_one_within_them_goes_on() {
        let track = vector(121, |t| [(t * 5.0).sin(), (t * 3.0).cos(), t]);
        let c = channel(&track, Metric::Translation);
        let played = (Sampling::Played, None);
        let fit = |cap| fit_sampled(&c, 1e-3, CurveFit::Linear, true, played, cap);
        let all = fit(KeyCap::most(usize::MAX)).unwrap();
        // The segments that end by the middle of the take, the first key aside.
        let middle = c.times[c.times.len() / 2];
        let by_middle = all.track.times.iter().filter(|&&t| t <= middle).count() - 1;
        let cap = |keys| KeyCap {
            most: usize::MAX,
            by: Some((middle, keys)),
        };
        // On pace there: the same fit to the end, even past that pace afterwards.
        let on_pace = fit(cap(by_middle + 2)).unwrap();
        assert_eq!(on_pace.track, all.track);
        assert!(
            all.track.len() > by_middle + 3,
            "more keys after the middle"
        );
        // Past it: none, without fitting the rest.
        assert!(fit(cap(by_middle.saturating_sub(1))).is_none());
    }

    #[test]
    fn a_fit_that_fails_on_a_prefix_fails_on_the_whole_channel() {
        let step = 1.0 / 32.0;
        let (mut decided, mut undecided) = (0, 0);
        let mut rng = Rng::new(28);
        for round in 0..24 {
            // Smooth stretches and jittery ones of every size, so fits stop anywhere.
            let jitter = 10f64.powf(-4.0 + round as f64 / 8.0);
            let noise: Vec<f64> = (0..3 * 400)
                .map(|_| f64::from(rng.unit_f32()) - 0.5)
                .collect();
            let track = vector(400, |t| {
                let k = (t * 30.0).round() as usize;
                let wobble = |c: usize| jitter * noise[3 * k + c] * (t * 0.7).sin().abs();
                [(t * 2.0).sin() + wobble(0), t + wobble(1), wobble(2)]
            });
            let clip = Clip::new("c", -1.0, vec![track.clone()]);
            let all = Arc::new(sample_times(&clip));
            let whole =
                Channel::on_grid(&track, Metric::Translation, all, step, &GridKeys::default())
                    .unwrap();
            for (by_time, end, most, by_keys) in [
                (2.0, 4.0, 200, 20),
                (2.0, 4.0, 200, 40),
                (3.0, 3.2, 300, 60),
                (1.0, 2.0, 50, 10),
                (6.0, 12.0, 150, 100),
                (2.0, 4.0, 400, 70),
                (3.0, 6.0, 400, 100),
            ] {
                let cap = KeyCap {
                    most,
                    by: Some((by_time, by_keys)),
                };
                let prefix = whole.regrid_until(&track, step, end).unwrap();
                assert!(prefix.times.len() < whole.times.len());
                let played = (Sampling::Drawn, None);
                let full = fit_sampled(&whole, 1e-3, CurveFit::Linear, false, played, cap);
                if fails_on_prefix(&prefix, 1e-3, CurveFit::Linear, cap) {
                    assert!(full.is_none(), "round {round}, cap {cap:?}");
                    decided += 1;
                } else {
                    undecided += 1;
                }
            }
        }
        // The prefix settles most fits that stop, and leaves the others to the whole channel.
        assert!(decided > 20 && undecided > 20, "{decided} / {undecided}");
        // A fit that reaches the prefix's end is not known to fail there.
        let line = vector(400, |t| [t, 2.0 * t, 0.0]);
        let clip = Clip::new("c", -1.0, vec![line.clone()]);
        let whole = Channel::on_grid(
            &line,
            Metric::Translation,
            Arc::new(sample_times(&clip)),
            step,
            &GridKeys::default(),
        )
        .unwrap();
        let prefix = whole.regrid_until(&line, step, 4.0).unwrap();
        let cap = KeyCap {
            most: 10,
            by: Some((2.0, 2)),
        };
        let played = (Sampling::Drawn, None);
        assert!(fit_sampled(&whole, 1e-3, CurveFit::Linear, false, played, cap).is_some());
        assert!(!fails_on_prefix(&prefix, 1e-3, CurveFit::Linear, cap));
    }

    #[test]
    fn a_track_within_tolerance_of_one_value_becomes_one_key() {
        let track = vector(100, |t| [1.0 + 1e-4 * (7.0 * t).sin(), 2.0, 3.0]);
        let c = channel(&track, Metric::Translation);
        let f = fit(&c, 1e-3, CUBIC, true).unwrap();
        assert_eq!(f.track.len(), 1);
        assert!(f.error.unwrap() <= 1e-4);
        assert!(fit(&c, 1e-5, CUBIC, true).unwrap().track.len() > 1);
    }

    #[test]
    fn noisy_data_never_strays_beyond_the_tolerance() {
        let mut rng = Rng::new(7);
        let noise: Vec<f64> = (0..3 * 400).map(|_| rng.unit_f32() as f64 - 0.5).collect();
        let track = {
            let times: Vec<f32> = (0..400).map(|i| i as f32 / 30.0).collect();
            let values = (0..400)
                .flat_map(|i| {
                    let t = i as f64 / 30.0;
                    (0..3).map(move |k| (t * (k + 1) as f64).sin())
                })
                .zip(&noise)
                .map(|(v, n)| (v + 0.01 * n) as f32)
                .collect();
            Track::new(
                "a.position",
                TrackKind::Vector,
                times,
                Values::Numbers(values),
            )
        };
        let c = channel(&track, Metric::Translation);
        for tolerance in [1e-3, 5e-3, 2e-2] {
            for curves in [CurveFit::Linear, CUBIC] {
                let f = fit(&c, tolerance, curves, true).unwrap();
                assert!(f.error.unwrap() <= tolerance);
                let measured = c.error_of(&f.track);
                assert!(
                    measured <= tolerance * (1.0 + 1e-3) + 1e-6,
                    "{curves:?} at {tolerance}: {measured}"
                );
                // Noise larger than the tolerance keeps (nearly) every key.
                let most = if tolerance > 0.01 { 200 } else { 400 };
                assert!(f.track.len() <= most, "{}", f.track.len());
            }
        }
    }

    #[test]
    fn rotations_are_fitted_as_rotations_across_sign_flips() {
        // A turn about y whose stored quaternions flip hemisphere every other key.
        let track = quaternion(91, |i, t| {
            let half = t * 0.5;
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            [0.0, sign * half.sin(), 0.0, sign * half.cos()]
        });
        let c = channel(&track, Metric::Rotation);
        let f = fit(&c, 1e-3, CurveFit::Linear, true).unwrap();
        // One steady turn: slerp between the ends draws it exactly.
        assert_eq!(f.track.len(), 2);
        assert!(c.error_of(&f.track) < 1e-5);
    }

    #[test]
    fn a_prefix_keeps_the_keys_and_samples_of_the_take_s_beginning() {
        let track = vector(100, |t| [t, 0.0, 0.0]);
        let c = channel(&track, Metric::Translation);
        let times = Arc::new(c.sample_times[..21].to_vec());
        let p = c.prefix(&times).unwrap();
        // Samples 0..=20 are keys 0..=10 and the midpoints between them.
        assert_eq!(p.times.len(), 11);
        assert_eq!(p.samples.len(), 21 * 3);
        assert_eq!(p.end_sample(), 21);
        assert!(c.prefix(&Arc::new(c.sample_times[..2].to_vec())).is_none());
    }
}
