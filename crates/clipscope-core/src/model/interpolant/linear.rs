//! Straight-line interpolation (three.js `LinearInterpolant`).

use super::Segment;
use super::walk::walk_sorted;

/// Writes `v0 * w0 + v1 * w1` per component, with `w1 = (t - t0) / (t1 - t0)` and `w0 = 1 - w1`,
/// for the keys `i1 - 1` and `i1` of `seg`.
pub(crate) fn interpolate(
    sample: impl Fn(usize) -> f64,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    let Segment { i1, t0, t, t1 } = seg;
    let offset1 = i1 * stride;
    let offset0 = offset1 - stride;
    let weight1 = (t - t0) / (t1 - t0);
    let weight0 = 1.0 - weight1;
    for (i, r) in out.iter_mut().enumerate().take(stride) {
        *r = sample(offset0 + i) * weight0 + sample(offset1 + i) * weight1;
    }
}

/// [`interpolate`] on numbers when both keys and `out` hold the whole value (the usual case):
/// the same arithmetic without the per-number bounds checks of `sample`. Returns false, having
/// written nothing, when some of it falls outside the arrays.
#[inline]
pub(crate) fn interpolate_slices(
    values: &[f32],
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) -> bool {
    let Segment { i1, t0, t, t1 } = seg;
    let offset1 = i1 * stride;
    let offset0 = offset1 - stride;
    let (Some(v0), Some(v1), Some(out)) = (
        values.get(offset0..offset1),
        values.get(offset1..offset1 + stride),
        out.get_mut(..stride),
    ) else {
        return false;
    };
    let weight1 = (t - t0) / (t1 - t0);
    let weight0 = 1.0 - weight1;
    for ((r, &a), &b) in out.iter_mut().zip(v0).zip(v1) {
        *r = a as f64 * weight0 + b as f64 * weight1;
    }
    true
}

/// The values a straight track (`value_size` numbers per key time in `keys`) takes at each
/// of `times` (sorted), rounded to f32 like three.js's result buffer: bit for bit what a
/// [`Sampler`](super::Sampler) gives, found in one walk along the keys
/// ([`walk_sorted`](super::walk::walk_sorted), which says when it is `None`).
pub(crate) fn sample_sorted(
    keys: &[f32],
    values: &[f32],
    times: &[f64],
    value_size: usize,
) -> Option<Vec<f32>> {
    let vs = value_size;
    walk_sorted(keys, values, times, vs, |i1, t0, t1, t, slot| {
        let weight1 = (t - t0) / (t1 - t0);
        let weight0 = 1.0 - weight1;
        let (v0, v1) = (
            &values[(i1 - 1) * vs..i1 * vs],
            &values[i1 * vs..(i1 + 1) * vs],
        );
        for ((r, &a), &b) in slot.iter_mut().zip(v0).zip(v1) {
            *r = (a as f64 * weight0 + b as f64 * weight1) as f32;
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::Sampler;
    use crate::model::{Track, TrackKind, Values};

    fn track(times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(".x", TrackKind::Number, times, values)
    }

    #[test]
    fn a_walk_along_the_keys_plays_as_the_sampler_bit_for_bit() {
        let mut rng = clipscope_test_support::rng::Rng::new(3);
        let mut next = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for case in 0..300 {
            // Up to 7 values per key: the walk writes up to 4 through a slot, more in place.
            let (n, vs) = (1 + (next() * 12.0) as usize, 1 + case % 7);
            let mut t = (next() - 0.3) as f32;
            let mut keys = Vec::with_capacity(n);
            for _ in 0..n {
                keys.push(t);
                t += 1.0 / 30.0 + (next() as f32) * 0.2;
            }
            let values: Vec<f32> = (0..n * vs)
                .map(|_| ((next() - 0.5) * 100.0) as f32)
                .collect();
            let kind = if vs == 3 {
                TrackKind::Vector
            } else {
                TrackKind::Number
            };
            let track = if vs == 1 {
                track(keys.clone(), values.clone())
            } else {
                Track::numeric(".v", kind, keys.clone(), values.clone())
            };
            let mut times: Vec<f64> = keys.iter().map(|&k| f64::from(k)).collect();
            times.extend(
                keys.windows(2)
                    .map(|w| (f64::from(w[0]) + f64::from(w[1])) / 2.0),
            );
            for _ in 0..20 {
                let span = f64::from(t) - f64::from(keys[0]) + 1.0;
                times.push(f64::from(keys[0]) - 0.5 + next() * span);
            }
            times.sort_by(f64::total_cmp);
            let walked = super::sample_sorted(&keys, &values, &times, vs).unwrap();
            let mut sampler = Sampler::new(&track);
            let mut out = vec![0.0; vs];
            for (k, &t) in times.iter().enumerate() {
                sampler.evaluate_f64(t, &mut out);
                let want: Vec<u32> = out.iter().map(|&v| (v as f32).to_bits()).collect();
                let got: Vec<u32> = walked[k * vs..(k + 1) * vs]
                    .iter()
                    .map(|v| v.to_bits())
                    .collect();
                assert_eq!(got, want, "case {case} at {t}");
            }
        }
        assert!(super::sample_sorted(&[1.0, 0.5], &[0.0, 1.0], &[0.7], 1).is_none());
        assert!(super::sample_sorted(&[0.0, 1.0], &[0.0, 1.0], &[0.7, 0.2], 1).is_none());
        assert!(super::sample_sorted(&[0.0, 1.0], &[0.0], &[0.5], 1).is_none());
    }

    #[test]
    fn golden_table_with_cached_indices() {
        let tr = track(vec![0.0, 1.0, 2.0], vec![10.0, 20.0, 40.0]);
        let mut s = Sampler::new(&tr);
        let cases: [(f64, f32, Option<usize>); 8] = [
            (-1.0, 10.0, Some(0)),
            (0.0, 10.0, Some(1)),
            (0.5, 15.0, None),
            (1.0, 20.0, Some(2)),
            (2.0, 40.0, Some(3)),
            (3.0, 40.0, None),
            (f64::NAN, 40.0, None),
            (f64::NEG_INFINITY, 10.0, Some(0)),
        ];
        for (t, want, cached) in cases {
            assert_eq!(s.evaluate(t), Values::Numbers(vec![want]), "t = {t}");
            if let Some(c) = cached {
                assert_eq!(s.cached_index(), c, "t = {t}");
            }
        }
        assert_eq!(s.evaluate(f64::INFINITY), Values::Numbers(vec![40.0]));
        assert_eq!(s.cached_index(), 3);
    }

    #[test]
    fn f32_result_rounding() {
        let tr = track(vec![0.0, 3.0], vec![0.0, 1.0]);
        let mut s = Sampler::new(&tr);
        let v = s.evaluate(1.0);
        assert_eq!(v.as_numbers().unwrap()[0] as f64, 0.3333333432674408);
        let mut out = [0.0];
        s.evaluate_f64(1.0, &mut out);
        assert_eq!(out[0], 1.0 / 3.0);
    }

    #[test]
    fn single_key_track() {
        let tr = track(vec![1.0], vec![7.0, 8.0]);
        let mut s = Sampler::new(&tr);
        for t in [
            -5.0,
            0.0,
            1.0,
            1.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(s.evaluate(t), Values::Numbers(vec![7.0, 8.0]), "t = {t}");
        }
    }

    #[test]
    fn duplicate_times_later_key_wins() {
        let tr = track(vec![0.0, 1.0, 1.0, 2.0], vec![0.0, 10.0, 20.0, 30.0]);
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(1.0), Values::Numbers(vec![20.0]));
        assert_eq!(s.evaluate(0.5), Values::Numbers(vec![5.0]));
        assert_eq!(s.evaluate(1.0), Values::Numbers(vec![20.0]));
        assert_eq!(s.evaluate(1.5), Values::Numbers(vec![25.0]));
        let mut fresh = Sampler::new(&tr);
        assert_eq!(fresh.evaluate(1.0), Values::Numbers(vec![20.0]));
        // A track made only of duplicates: t at that time gives the last key.
        let tr = track(vec![1.0, 1.0, 1.0], vec![1.0, 2.0, 3.0]);
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(1.0), Values::Numbers(vec![3.0]));
        assert_eq!(s.evaluate(0.0), Values::Numbers(vec![1.0]));
    }

    #[test]
    fn odd_tracks_do_not_panic() {
        // Empty track, NaN times, unsorted times, short output buffers.
        let empty = track(vec![], vec![]);
        assert_eq!(Sampler::new(&empty).evaluate(0.0), Values::Numbers(vec![]));
        let nan = track(vec![0.0, f32::NAN, 2.0], vec![1.0, 2.0, 3.0]);
        let unsorted = track(vec![3.0, 1.0, 2.0, 0.0], vec![1.0, 2.0, 3.0, 4.0]);
        for tr in [&nan, &unsorted] {
            let mut s = Sampler::new(tr);
            for t in [-1.0, 0.0, 0.5, 1.0, 1.5, 2.5, 9.0, f64::NAN, 0.5, -3.0] {
                let _ = s.evaluate(t);
                let mut short = [0.0; 0];
                s.evaluate_f64(t, &mut short);
                let mut long = [0.0; 4];
                s.evaluate_f64(t, &mut long);
            }
        }
    }
}
