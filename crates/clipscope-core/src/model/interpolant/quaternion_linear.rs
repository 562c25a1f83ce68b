//! Rotation interpolation (three.js `QuaternionLinearInterpolant`): the linear mode of
//! quaternion tracks, a [`slerp_flat`] between the two keys.
//!
//! Bug-compatible with three.js: every quaternion of a key (value size 8, 12, …) is slerped
//! into `result[0..4]`, so only the last quaternion of the key survives there and the rest of
//! the result buffer keeps whatever it held before. A value size that is not a multiple of 4
//! makes three.js loop forever (`offset !== end`); here the loop stops at the end of the key.

use super::Segment;
use super::quaternion::{SlerpPlan, slerp_flat};
use super::walk::walk_sorted;

/// The [`SlerpPlan`] of the key interval last evaluated (value size 4 only), so that evaluating
/// the same interval again (a track played at a higher rate than its keys) skips the `acos` and
/// `sin` of the angle between the keys. Results are the same bits as without it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SlerpCache {
    /// The interval's `i1` and its plan.
    last: Option<(usize, SlerpPlan)>,
}

/// Slerps each quaternion of key `i1 - 1` towards key `i1` of `seg` by `(t - t0) / (t1 - t0)`,
/// always writing into `out[0..4]`.
pub(crate) fn interpolate(
    sample: impl Fn(usize) -> f64,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    let Segment { i1, t0, t, t1 } = seg;
    let alpha = (t - t0) / (t1 - t0);
    let quat = |o: usize| [sample(o), sample(o + 1), sample(o + 2), sample(o + 3)];
    let end = i1 * stride + stride;
    let mut offset = i1 * stride;
    while offset < end {
        let r = slerp_flat(quat(offset - stride), quat(offset), alpha);
        for (dst, v) in out.iter_mut().zip(r) {
            *dst = v;
        }
        offset += 4;
    }
}

/// [`interpolate`] through `cache`: for one quaternion per key, the interval's plan is made once
/// and reused while the interval stays the same.
#[inline]
pub(crate) fn interpolate_cached(
    cache: &mut SlerpCache,
    sample: impl Fn(usize) -> f64,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    if stride != 4 {
        return interpolate(sample, stride, seg, out);
    }
    let Segment { i1, t0, t, t1 } = seg;
    let plan = match cache.last {
        Some((cached, plan)) if cached == i1 => plan,
        _ => {
            let quat = |o: usize| [sample(o), sample(o + 1), sample(o + 2), sample(o + 3)];
            let offset = i1 * 4;
            let plan = SlerpPlan::new(quat(offset - 4), quat(offset));
            cache.last = Some((i1, plan));
            plan
        }
    };
    let alpha = (t - t0) / (t1 - t0);
    for (dst, v) in out.iter_mut().zip(plan.at(alpha)) {
        *dst = v;
    }
}

/// The values a straight quaternion track (one quaternion per key: `values` holds four per key
/// time in `keys`) takes at each of `times` (sorted), rounded to f32 like three.js's result
/// buffer: bit for bit what a [`Sampler`](super::Sampler) gives, found in one walk along the
/// keys ([`walk_sorted`], which says when it is `None`) with one [`SlerpPlan`] per key
/// interval instead of a seek and a cache check per time.
pub(crate) fn sample_sorted(keys: &[f32], values: &[f32], times: &[f64]) -> Option<Vec<f32>> {
    let quat = |k: usize| std::array::from_fn(|c| f64::from(values[k * 4 + c]));
    let mut plan: Option<(usize, SlerpPlan)> = None;
    walk_sorted(keys, values, times, 4, |i1, t0, t1, t, slot| {
        let plan = match plan {
            Some((at, plan)) if at == i1 => plan,
            _ => plan.insert((i1, SlerpPlan::new(quat(i1 - 1), quat(i1)))).1,
        };
        let alpha = (t - t0) / (t1 - t0);
        for (r, v) in slot.iter_mut().zip(plan.at(alpha)) {
            *r = v as f32;
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::{Sampler, slerp_flat};
    use crate::model::{Interpolation, Track, TrackKind, Values};

    const H: f32 = std::f32::consts::FRAC_1_SQRT_2;

    #[test]
    fn a_walk_along_the_keys_plays_as_the_sampler_bit_for_bit() {
        let mut rng = clipscope_test_support::rng::Rng::new(9);
        let mut next = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for case in 0..300 {
            let n = 1 + (next() * 12.0) as usize;
            let mut t = next() as f32;
            let mut keys = Vec::with_capacity(n);
            let mut values: Vec<f32> = Vec::with_capacity(n * 4);
            let mut q = [0.1f64, 0.2, 0.3, 0.9];
            for k in 0..n {
                keys.push(t);
                t += 1.0 / 30.0 + (next() as f32) * 0.2;
                // Near and far steps, repeats, flips to the other hemisphere, unnormalized keys.
                let step = [0.001, 0.02, 0.5, 0.0][(case + k) % 4];
                for c in &mut q {
                    *c += (next() - 0.5) * step;
                }
                let sign = if next() < 0.2 { -1.0 } else { 1.0 };
                values.extend(q.iter().map(|&c| (c * sign) as f32));
            }
            let track = Track::numeric(".q", TrackKind::Quaternion, keys.clone(), values.clone());
            // Sample times before, at, between and after the keys, sorted.
            let mut times: Vec<f64> = keys.iter().map(|&k| f64::from(k)).collect();
            times.extend(
                keys.windows(2)
                    .map(|w| (f64::from(w[0]) + f64::from(w[1])) / 2.0),
            );
            for _ in 0..20 {
                times.push(
                    f64::from(keys[0]) - 0.5 + next() * (f64::from(t) - f64::from(keys[0]) + 1.0),
                );
            }
            times.sort_by(f64::total_cmp);
            let walked = super::sample_sorted(&keys, &values, &times).unwrap();
            let mut sampler = Sampler::new(&track);
            let mut out = [0.0; 4];
            for (k, &t) in times.iter().enumerate() {
                sampler.evaluate_f64(t, &mut out);
                let want = out.map(|v| (v as f32).to_bits());
                let got: Vec<u32> = walked[k * 4..k * 4 + 4]
                    .iter()
                    .map(|v| v.to_bits())
                    .collect();
                assert_eq!(got, want, "case {case} at {t}");
            }
        }
        // Keys out of order or times unsorted: the caller seeks.
        let q = [0.0, 0.0, 0.0, 1.0, 0.0, H, 0.0, H];
        assert!(super::sample_sorted(&[1.0, 0.5], &q, &[0.7]).is_none());
        assert!(super::sample_sorted(&[0.0, 1.0], &q, &[0.7, 0.2]).is_none());
        assert!(super::sample_sorted(&[0.0, 1.0], &q, &[f64::NAN]).is_none());
        assert!(super::sample_sorted(&[0.0, 1.0], &q[..4], &[0.5]).is_none());
    }

    #[test]
    fn slerps_between_keys() {
        let tr = Track::numeric(
            ".q",
            TrackKind::Quaternion,
            vec![0.0, 2.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, H, 0.0, H],
        );
        let mut s = Sampler::new(&tr);
        let mut out = [0.0; 4];
        s.evaluate_f64(0.5, &mut out);
        let want = slerp_flat([0.0, 0.0, 0.0, 1.0], [0.0, H as f64, 0.0, H as f64], 0.25);
        assert_eq!(out, want);
        let v = s.evaluate(0.5);
        assert_eq!(v, Values::Numbers(want.iter().map(|&x| x as f32).collect()));
        // Quaternion tracks cannot be smooth: three.js keeps the linear (slerp) interpolant.
        let mut smooth = tr.clone();
        smooth.interpolation = Interpolation::Smooth;
        let mut s = Sampler::new(&smooth);
        s.evaluate_f64(0.5, &mut out);
        assert_eq!(out, want);
    }

    #[test]
    fn the_cached_interval_gives_the_same_bits_in_any_order() {
        // Four keys, played forwards at several rates, backwards and at random: every result is
        // slerp_flat of the interval's keys, whether the interval's plan was cached or not.
        let keys: Vec<[f32; 4]> = (0..4)
            .map(|k| {
                let a = 0.4 * k as f32;
                [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()]
            })
            .collect();
        let values: Vec<f32> = keys.iter().flatten().copied().collect();
        let tr = Track::numeric(
            ".q",
            TrackKind::Quaternion,
            vec![0.0, 1.0, 2.0, 3.0],
            values,
        );
        let mut s = Sampler::new(&tr);
        let times = (0..=60)
            .map(|i| i as f64 * 0.05)
            .chain((0..=60).rev().map(|i| i as f64 * 0.05))
            .chain([2.5, 0.3, 0.31, 1.7, 1.71, 1.2, 2.99, 0.0, 0.5]);
        let mut out = [0.0; 4];
        for t in times {
            s.evaluate_f64(t, &mut out);
            let i1 = (t.floor() as usize + 1).min(3);
            let q = |k: usize| keys[k].map(f64::from);
            let alpha = t - (i1 - 1) as f64;
            let want = if t >= 3.0 {
                q(3)
            } else {
                slerp_flat(q(i1 - 1), q(i1), alpha)
            };
            assert_eq!(out.map(f64::to_bits), want.map(f64::to_bits), "t = {t}");
        }
    }

    #[test]
    fn identical_keys_are_copied_without_normalizing() {
        let q = [0.0f32, 0.0, 0.0, 2.0];
        let tr = Track::numeric(".q", TrackKind::Quaternion, vec![0.0, 1.0], [q, q].concat());
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.5), Values::Numbers(q.to_vec()));
    }

    #[test]
    fn stride_eight_writes_the_first_four_only() {
        let a = [0.0f32, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0];
        let b = [0.0f32, H, 0.0, H, 0.0, 0.0, 1.0, 0.0];
        let tr = Track::numeric(".q", TrackKind::Quaternion, vec![0.0, 1.0], [a, b].concat());
        let mut s = Sampler::new(&tr);
        // Fresh buffer: the tail stays zero, the head holds the second quaternion's slerp.
        let v = s.evaluate(0.5);
        let second = slerp_flat([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], 0.5);
        let mut want: Vec<f32> = second.iter().map(|&x| x as f32).collect();
        want.extend([0.0; 4]);
        assert_eq!(v, Values::Numbers(want.clone()));
        // After a copy (t past the end) the tail keeps the copied values.
        assert_eq!(s.evaluate(2.0), Values::Numbers(b.to_vec()));
        let v = s.evaluate(0.5);
        want[4..].copy_from_slice(&b[4..]);
        assert_eq!(v, Values::Numbers(want));
    }

    #[test]
    fn odd_value_sizes_do_not_hang_or_panic() {
        let tr = Track::numeric(
            ".q",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
        );
        let mut s = Sampler::new(&tr);
        let _ = s.evaluate(0.5);
        let tr = Track::numeric(
            ".q",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            (0..10).map(|i| i as f32).collect(),
        );
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.5).len(), 5);
    }
}
