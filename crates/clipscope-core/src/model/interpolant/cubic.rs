//! Smooth interpolation (three.js `CubicInterpolant`, `InterpolateSmooth`).
//!
//! A cubic through each interval whose tangents come from the neighbouring keys, with weights
//! that account for uneven key spacing. Where a neighbour is missing (first and last interval)
//! the [`CubicEnding`] decides what stands in for it. The weights and neighbour offsets are
//! computed only when the sampler moves to a new interval (`intervalChanged_`), so a change of
//! endings takes effect only after the interval changes, exactly like three.js.

use super::{CubicEnding, Segment};

/// Per-interval state of a smooth sampler: the endings and the weights/offsets computed by
/// `intervalChanged_`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CubicState {
    /// `settings.endingStart`.
    pub(crate) start: CubicEnding,
    /// `settings.endingEnd`.
    pub(crate) end: CubicEnding,
    weight_prev: f64,
    weight_next: f64,
    offset_prev: usize,
    offset_next: usize,
}

impl CubicState {
    /// Fresh state with the given endings (three.js starts with weights -0 and offsets -0).
    pub(crate) fn new(start: CubicEnding, end: CubicEnding) -> CubicState {
        CubicState {
            start,
            end,
            weight_prev: -0.0,
            weight_next: -0.0,
            offset_prev: 0,
            offset_next: 0,
        }
    }

    /// three.js `intervalChanged_(i1, t0, t1)`: picks the neighbours of interval `i1` (or their
    /// stand-ins from the endings) and computes the tangent weights.
    pub(crate) fn interval_changed(
        &mut self,
        pp: &[f32],
        stride: usize,
        i1: usize,
        t0: f64,
        t1: f64,
    ) {
        let n = pp.len();
        let at = |i: usize| pp.get(i).map(|&v| v as f64);

        let mut i_prev = i1.wrapping_sub(2);
        let mut t_prev = if i1 >= 2 { at(i_prev) } else { None };
        let mut i_next = i1 + 1;
        let mut t_next = at(i_next);

        if t_prev.is_none() {
            match self.start {
                CubicEnding::ZeroSlope => {
                    // f'(t0) = 0
                    i_prev = i1;
                    t_prev = Some(2.0 * t0 - t1);
                }
                CubicEnding::WrapAround => {
                    // use the other end of the curve
                    i_prev = n.saturating_sub(2);
                    t_prev = Some(
                        t0 + at(n.wrapping_sub(2)).unwrap_or(f64::NAN)
                            - at(n.wrapping_sub(1)).unwrap_or(f64::NAN),
                    );
                }
                CubicEnding::ZeroCurvature => {
                    // f''(t0) = 0, a.k.a. natural spline
                    i_prev = i1;
                    t_prev = Some(t1);
                }
            }
        }

        if t_next.is_none() {
            match self.end {
                CubicEnding::ZeroSlope => {
                    i_next = i1;
                    t_next = Some(2.0 * t1 - t0);
                }
                CubicEnding::WrapAround => {
                    i_next = 1;
                    t_next = Some(t1 + at(1).unwrap_or(f64::NAN) - at(0).unwrap_or(f64::NAN));
                }
                CubicEnding::ZeroCurvature => {
                    i_next = i1 - 1;
                    t_next = Some(t0);
                }
            }
        }

        let half_dt = (t1 - t0) * 0.5;
        self.weight_prev = half_dt / (t0 - t_prev.unwrap_or(f64::NAN));
        self.weight_next = half_dt / (t_next.unwrap_or(f64::NAN) - t1);
        self.offset_prev = i_prev * stride;
        self.offset_next = i_next * stride;
    }

    /// three.js `interpolate_(i1, t0, t, t1)`: the cubic blend of the four samples.
    pub(crate) fn interpolate(
        &self,
        sample: impl Fn(usize) -> f64,
        stride: usize,
        seg: Segment,
        out: &mut [f64],
    ) {
        let Segment { i1, t0, t, t1 } = seg;
        let o1 = i1 * stride;
        let o0 = o1 - stride;
        let (op, on) = (self.offset_prev, self.offset_next);
        let (wp, wn) = (self.weight_prev, self.weight_next);

        let p = (t - t0) / (t1 - t0);
        let pp = p * p;
        let ppp = pp * p;

        let sp = -wp * ppp + 2.0 * wp * pp - wp * p;
        let s0 = (1.0 + wp) * ppp + (-1.5 - 2.0 * wp) * pp + (-0.5 + wp) * p + 1.0;
        let s1 = (-1.0 - wn) * ppp + (1.5 + wn) * pp + 0.5 * p;
        let sn = wn * ppp - wn * pp;

        for (i, r) in out.iter_mut().enumerate().take(stride) {
            *r = sp * sample(op + i)
                + s0 * sample(o0 + i)
                + s1 * sample(o1 + i)
                + sn * sample(on + i);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::{CubicEnding, Sampler};
    use crate::model::{Interpolation, Track, TrackKind, Values};

    fn smooth(times: Vec<f32>, values: Vec<f32>) -> Track {
        let mut tr = Track::numeric(".x", TrackKind::Number, times, values);
        tr.interpolation = Interpolation::Smooth;
        tr
    }

    fn sample_all(tr: &Track, ending: CubicEnding, ts: &[f64]) -> Vec<f64> {
        let mut s = Sampler::with_endings(tr, ending, ending);
        ts.iter()
            .map(|&t| {
                let mut out = [0.0];
                s.evaluate_f64(t, &mut out);
                out[0]
            })
            .collect()
    }

    const TS: [f64; 5] = [0.25, 0.5, 1.5, 3.0, 3.5];

    #[test]
    fn golden_zero_curvature() {
        let tr = smooth(vec![0.0, 1.0, 2.0, 4.0], vec![0.0, 1.0, 0.0, 2.0]);
        assert_eq!(
            sample_all(&tr, CubicEnding::ZeroCurvature, &TS),
            [0.296875, 0.625, 0.5, 0.75, 1.40625]
        );
        // The default endings are zero curvature.
        let mut s = Sampler::new(&tr);
        let mut out = [0.0];
        s.evaluate_f64(3.5, &mut out);
        assert_eq!(out[0], 1.40625);
    }

    #[test]
    fn golden_zero_slope() {
        let tr = smooth(vec![0.0, 1.0, 2.0, 4.0], vec![0.0, 1.0, 0.0, 2.0]);
        assert_eq!(
            sample_all(&tr, CubicEnding::ZeroSlope, &TS),
            [0.15625, 0.5, 0.5, 0.875, 1.546875]
        );
    }

    #[test]
    fn golden_wrap_around() {
        let tr = smooth(vec![0.0, 1.0, 2.0, 4.0], vec![0.0, 1.0, 0.0, 2.0]);
        assert_eq!(
            sample_all(&tr, CubicEnding::WrapAround, &TS),
            [0.2265625, 0.5625, 0.5, 1.0, 1.6875]
        );
    }

    #[test]
    fn golden_two_keys() {
        let tr = smooth(vec![0.0, 1.0], vec![0.0, 1.0]);
        assert_eq!(
            sample_all(&tr, CubicEnding::ZeroCurvature, &[0.25, 0.5]),
            [0.25, 0.5]
        );
        assert_eq!(
            sample_all(&tr, CubicEnding::ZeroSlope, &[0.25, 0.5]),
            [0.1328125, 0.4375]
        );
    }

    #[test]
    fn endings_are_read_only_when_the_interval_changes() {
        let tr = smooth(vec![0.0, 1.0, 2.0, 4.0], vec![0.0, 1.0, 0.0, 2.0]);
        let mut s = Sampler::new(&tr);
        let mut out = [0.0];
        s.evaluate_f64(0.5, &mut out);
        assert_eq!(out[0], 0.625);
        s.set_endings(CubicEnding::ZeroSlope, CubicEnding::ZeroSlope);
        s.evaluate_f64(0.5, &mut out);
        assert_eq!(out[0], 0.625);
        s.evaluate_f64(1.5, &mut out);
        s.evaluate_f64(0.5, &mut out);
        assert_eq!(out[0], 0.5);
    }

    #[test]
    fn f32_rounded_evaluate_and_odd_tracks() {
        let tr = smooth(vec![0.0, 1.0, 2.0, 4.0], vec![0.0, 1.0, 0.0, 2.0]);
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.25), Values::Numbers(vec![0.296875]));
        assert_eq!(s.evaluate(4.0), Values::Numbers(vec![2.0]));
        assert_eq!(s.evaluate(-1.0), Values::Numbers(vec![0.0]));
        // One key, duplicated times and NaN/inf times must not panic.
        let one = smooth(vec![1.0], vec![5.0]);
        let dup = smooth(vec![0.0, 1.0, 1.0, 2.0], vec![0.0, 1.0, 2.0, 3.0]);
        for tr in [&one, &dup] {
            for ending in [
                CubicEnding::ZeroCurvature,
                CubicEnding::ZeroSlope,
                CubicEnding::WrapAround,
            ] {
                let mut s = Sampler::with_endings(tr, ending, ending);
                for t in [
                    -1.0,
                    0.5,
                    1.0,
                    1.5,
                    2.0,
                    f64::NAN,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                ] {
                    let _ = s.evaluate(t);
                }
            }
        }
        // As in three.js, a zero-length neighbouring interval makes the weight infinite and
        // the blend NaN (Infinity * 0).
        let mut s = Sampler::new(&dup);
        assert!(s.evaluate(1.0).as_numbers().unwrap()[0].is_nan());
    }
}
