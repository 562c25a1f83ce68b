//! Bezier interpolation (three.js r187 `BezierInterpolant`, `InterpolateBezier`).
//!
//! Each component of each interval is a cubic bezier in the (time, value) plane from key
//! `i1 - 1` through its out handle and key `i1`'s in handle to key `i1`. The curve parameter `s`
//! for time `t` comes from a clamped Newton solve of `Bx(s) = t` (at most 8 steps), and the
//! result is `By(s)`, all with r187's exact operation order.
//!
//! Tangents missing (or shorter than `keys × value_size × 2`, which three.js would read as
//! `undefined`) fall back to the linear formula. Quaternion tracks are interpolated component by
//! component, without normalization, like three.js.
//!
//! Bool and string tracks inherit three.js's Bezier factory too. There, JavaScript coerces the
//! values to numbers (`true` → 1, `false` → 0, text → usually NaN) and the result buffer ends up
//! holding numbers. clipscope keeps the model's types instead: a bool result is the JavaScript
//! truthiness of that number (non-zero and not NaN, which is what a bound `visible` flag would
//! act on), and a string result holds the key at or before `t`, as in discrete mode.

use super::walk::walk_sorted;
use super::{Segment, linear};
use crate::model::Tangents;

/// Writes the bezier value of `seg` per component into `out`; `tangents` is `None` when the
/// track has no usable handles (then the linear formula is used).
pub(crate) fn interpolate(
    sample: impl Fn(usize) -> f64,
    tangents: Option<&Tangents>,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    match tangents {
        None => linear::interpolate(sample, stride, seg, out),
        Some(tangents) => {
            let handle = |arr: &[f32], i: usize| arr.get(i).map_or(f64::NAN, |&v| v as f64);
            let in_handle = |i: usize| handle(&tangents.in_tangents, i);
            let out_handle = |i: usize| handle(&tangents.out_tangents, i);
            interpolate_with_handles(sample, in_handle, out_handle, stride, seg, out);
        }
    }
}

/// The tangent path of three.js's `interpolate_`: `in_handle(j)` / `out_handle(j)` read entry
/// `j` of `inTangents` / `outTangents`.
fn interpolate_with_handles(
    sample: impl Fn(usize) -> f64,
    in_handle: impl Fn(usize) -> f64,
    out_handle: impl Fn(usize) -> f64,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    let Segment { i1, t0, t, t1 } = seg;
    let offset1 = i1 * stride;
    let offset0 = offset1 - stride;
    let tangent_stride = stride * 2;
    let i0 = i1 - 1;
    let mut solved: Option<(u64, u64, f64)> = None;

    for (i, r) in out.iter_mut().enumerate().take(stride) {
        let v0 = sample(offset0 + i);
        let v1 = sample(offset1 + i);

        // out handle of the previous key (C0) and in handle of this key (C1)
        let out_offset = i0 * tangent_stride + i * 2;
        let c0x = out_handle(out_offset);
        let c0y = out_handle(out_offset + 1);
        let in_offset = i1 * tangent_stride + i * 2;
        let c1x = in_handle(in_offset);
        let c1y = in_handle(in_offset + 1);

        // Components usually share their time handles (glTF's CUBICSPLINE, fitted curves):
        // the same solve gives the same parameter, so it is done once.
        let s = match solved {
            Some((x0, x1, s)) if x0 == c0x.to_bits() && x1 == c1x.to_bits() => s,
            _ => {
                let s = solve_parameter(t, t0, c0x, c1x, t1);
                solved = Some((c0x.to_bits(), c1x.to_bits(), s));
                s
            }
        };
        *r = cubic_bezier(s, v0, c0y, c1y, v1);
    }
}

/// The values a bezier track takes at each of `times` (sorted), `value_size` per time, rounded
/// to f32 like three.js's result buffer: bit for bit what a [`Sampler`](super::Sampler) gives,
/// found in one walk along the keys instead of a seek per time. `values` are the track's,
/// `tangents` its handles (every one there). `None` (the caller seeks) when the key times do
/// not strictly increase, the times are not sorted or are NaN, or keys lack values.
pub(crate) fn sample_sorted(
    keys: &[f32],
    values: &[f32],
    tangents: &Tangents,
    times: &[f64],
    value_size: usize,
) -> Option<Vec<f32>> {
    let (n, vs) = (keys.len(), value_size);
    let width = vs * 2;
    if tangents.in_tangents.len() < n * width || tangents.out_tangents.len() < n * width {
        return None;
    }
    walk_sorted(keys, values, times, vs, |i1, t0, t1, t, slot| {
        let i0 = i1 - 1;
        let mut solved: Option<(u64, u64, f64)> = None;
        for (c, r) in slot.iter_mut().enumerate() {
            let v0 = values[i0 * vs + c] as f64;
            let v1 = values[i1 * vs + c] as f64;
            let c0x = tangents.out_tangents[i0 * width + c * 2] as f64;
            let c0y = tangents.out_tangents[i0 * width + c * 2 + 1] as f64;
            let c1x = tangents.in_tangents[i1 * width + c * 2] as f64;
            let c1y = tangents.in_tangents[i1 * width + c * 2 + 1] as f64;
            let s = match solved {
                Some((x0, x1, s)) if x0 == c0x.to_bits() && x1 == c1x.to_bits() => s,
                _ => {
                    let s = solve_parameter(t, t0, c0x, c1x, t1);
                    solved = Some((c0x.to_bits(), c1x.to_bits(), s));
                    s
                }
            };
            *r = cubic_bezier(s, v0, c0y, c1y, v1) as f32;
        }
    })
}

/// `B(s) = k³·p0 + 3k²s·p1 + 3ks²·p2 + s³·p3` with `k = 1 - s`, left to right as in three.js.
pub(crate) fn cubic_bezier(s: f64, p0: f64, p1: f64, p2: f64, p3: f64) -> f64 {
    let k = 1.0 - s;
    k * k * k * p0 + 3.0 * k * k * s * p1 + 3.0 * k * s * s * p2 + s * s * s * p3
}

/// `B'(s)`, the slope used by the Newton steps.
fn cubic_bezier_slope(s: f64, p0: f64, p1: f64, p2: f64, p3: f64) -> f64 {
    let k = 1.0 - s;
    3.0 * k * k * (p1 - p0) + 6.0 * k * s * (p2 - p1) + 3.0 * s * s * (p3 - p2)
}

/// Solves `B(s; x0, x1, x2, x3) = x` for `s` in `[0, 1]`: start at the linear guess, then up
/// to 8 Newton steps, stopping when the error or the slope drops below 1e-10. This is the curve
/// parameter at which the interpolant evaluates time `x`.
pub(crate) fn solve_parameter(x: f64, x0: f64, x1: f64, x2: f64, x3: f64) -> f64 {
    let mut s = (x - x0) / (x3 - x0);
    for _ in 0..8 {
        let error = cubic_bezier(s, x0, x1, x2, x3) - x;
        if error.abs() < 1e-10 {
            break;
        }
        let slope = cubic_bezier_slope(s, x0, x1, x2, x3);
        if slope.abs() < 1e-10 {
            break;
        }
        s = js_max(0.0, js_min(1.0, s - error / slope));
    }
    s
}

/// Splits the cubic bezier `p` at parameter `s` (de Casteljau): the control points of the part
/// before `s` and of the part after it, which share the point `B(s)`.
pub(crate) fn split(p: [f64; 4], s: f64) -> ([f64; 4], [f64; 4]) {
    let lerp = |a: f64, b: f64| a + (b - a) * s;
    let p01 = lerp(p[0], p[1]);
    let p12 = lerp(p[1], p[2]);
    let p23 = lerp(p[2], p[3]);
    let p012 = lerp(p01, p12);
    let p123 = lerp(p12, p23);
    let mid = lerp(p012, p123);
    ([p[0], p01, p012, mid], [mid, p123, p23, p[3]])
}

/// JavaScript `Math.min(a, b)`: NaN if either is NaN, and -0 is smaller than +0.
fn js_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// JavaScript `Math.max(a, b)`: NaN if either is NaN, and +0 is larger than -0.
fn js_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interpolant::Sampler;
    use crate::model::{Interpolation, Track, TrackKind, Values};

    fn bezier_track(kind: TrackKind, values: Values, tangents: Option<Tangents>) -> Track {
        let mut tr = Track::new(".x", kind, vec![0.0, 1.0], values);
        tr.interpolation = Interpolation::Bezier;
        tr.tangents = tangents;
        tr
    }

    fn golden_tangents() -> Tangents {
        Tangents {
            in_tangents: vec![0.0, 0.0, -0.25, -8.0],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        }
    }

    /// The one walk along the keys gives bit for bit what the player's seek and interpolant
    /// give, at key times, between keys, before the first and after the last, with handles
    /// shared by the components (fitted curves) or not, straight and bent in time.
    #[test]
    fn one_walk_plays_exactly_like_the_sampler() {
        use clipscope_test_support::rng::Rng;
        let mut rng = Rng::new(23);
        for case in 0..40 {
            let vs = 1 + case % 4;
            let n = 2 + (rng.next_u64() % 30) as usize;
            let mut t = rng.unit_f32() - 0.5;
            let keys: Vec<f32> = (0..n)
                .map(|_| {
                    let now = t;
                    t += 0.01 + rng.unit_f32() * 0.1;
                    now
                })
                .collect();
            let values: Vec<f32> = (0..n * vs).map(|_| rng.unit_f32() * 4.0 - 2.0).collect();
            let shared = case % 2 == 0;
            let mut ins = vec![0.0f32; n * vs * 2];
            let mut outs = vec![0.0f32; n * vs * 2];
            for k in 0..n {
                let before = if k > 0 { keys[k] - keys[k - 1] } else { 0.05 };
                let after = if k + 1 < n {
                    keys[k + 1] - keys[k]
                } else {
                    0.05
                };
                for c in 0..vs {
                    let (bi, ai) = if shared {
                        (before / 3.0, after / 3.0)
                    } else {
                        (before * rng.unit_f32() * 0.9, after * rng.unit_f32() * 0.9)
                    };
                    let v = values[k * vs + c];
                    ins[(k * vs + c) * 2] = keys[k] - bi;
                    ins[(k * vs + c) * 2 + 1] = v - rng.unit_f32() * bi;
                    outs[(k * vs + c) * 2] = keys[k] + ai;
                    outs[(k * vs + c) * 2 + 1] = v + rng.unit_f32() * ai;
                }
            }
            let kind = if vs == 4 {
                TrackKind::Quaternion
            } else {
                TrackKind::Vector
            };
            let mut track = Track::numeric("a.x", kind, keys.clone(), values.clone());
            track.interpolation = Interpolation::Bezier;
            let tangents = Tangents::new(ins, outs);
            track.tangents = Some(tangents.clone());
            let mut times: Vec<f64> = keys.iter().map(|&k| k as f64).collect();
            for w in keys.windows(2) {
                times.push(w[0] as f64 + (w[1] as f64 - w[0] as f64) / 2.0);
            }
            times.extend([keys[0] as f64 - 0.3, keys[n - 1] as f64 + 0.2]);
            times.sort_by(f64::total_cmp);
            let walked = sample_sorted(&keys, &values, &tangents, &times, vs).unwrap();
            let mut sampler = Sampler::new(&track);
            let mut out = vec![0.0; vs];
            for (s, &t) in times.iter().enumerate() {
                sampler.evaluate_f64(t, &mut out);
                for c in 0..vs {
                    let played = out[c] as f32;
                    assert_eq!(
                        walked[s * vs + c].to_bits(),
                        played.to_bits(),
                        "case {case}, t = {t}"
                    );
                }
            }
        }
        // Unsorted times or keys that do not increase are left to the seek.
        let keys = [0.0, 1.0];
        let tangents = golden_tangents();
        assert!(sample_sorted(&keys, &[0.0, 10.0], &tangents, &[0.5, 0.2], 1).is_none());
        assert!(sample_sorted(&[1.0, 1.0], &[0.0, 10.0], &tangents, &[0.5], 1).is_none());
    }

    #[test]
    fn golden_values() {
        let tr = bezier_track(
            TrackKind::Number,
            Values::Numbers(vec![0.0, 10.0]),
            Some(golden_tangents()),
        );
        let mut s = Sampler::new(&tr);
        let mut out = [0.0];
        for (t, want) in [
            (0.25, 1.2329289781518054),
            (0.5, 3.461189752818119),
            (0.75, 6.535929200041484),
        ] {
            s.evaluate_f64(t, &mut out);
            assert_eq!(out[0], want, "t = {t}");
            assert_eq!(s.evaluate(t), Values::Numbers(vec![want as f32]));
        }
    }

    #[test]
    fn missing_or_short_tangents_fall_back_to_linear() {
        let short = Tangents {
            in_tangents: vec![0.0, 0.0, -0.25],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        };
        let empty = Tangents::default();
        for tangents in [None, Some(short), Some(empty)] {
            let tr = bezier_track(
                TrackKind::Number,
                Values::Numbers(vec![0.0, 10.0]),
                tangents,
            );
            let mut s = Sampler::new(&tr);
            let mut out = [0.0];
            s.evaluate_f64(0.25, &mut out);
            assert_eq!(out[0], 2.5);
        }
    }

    #[test]
    fn non_monotone_handles_use_the_final_parameter() {
        // three.js's test feeds plain (f64) arrays, so call the kernel with f64 data.
        let values = [-3.9409040232346717, 2.5647222407848815];
        let in_tangents = [0.0, 0.0, 1.6432901810391907, 4.793039761023614];
        let out_tangents = [0.31457929469714085, -4.946690276064974, 0.0, 0.0];
        let mut out = [0.0];
        interpolate_with_handles(
            |i| values[i],
            |i| in_tangents[i],
            |i| out_tangents[i],
            1,
            Segment {
                i1: 1,
                t0: 0.0,
                t: 0.75,
                t1: 1.0,
            },
            &mut out,
        );
        assert_eq!(out[0], 2.6204556999314477);
    }

    #[test]
    fn quaternion_bezier_is_component_wise() {
        let q0 = [0.0f32, 0.0, 0.0, 1.0];
        let q1 = [0.0f32, 1.0, 0.0, 0.0];
        let tr = bezier_track(
            TrackKind::Quaternion,
            Values::Numbers([q0, q1].concat()),
            None,
        );
        let mut s = Sampler::new(&tr);
        // Linear fallback, no normalization: (0, .5, 0, .5).
        assert_eq!(s.evaluate(0.5), Values::Numbers(vec![0.0, 0.5, 0.0, 0.5]));
    }

    #[test]
    fn bool_and_string_bezier() {
        let tr = bezier_track(TrackKind::Bool, Values::Bools(vec![true, false]), None);
        let mut s = Sampler::new(&tr);
        let mut out = [0.0];
        s.evaluate_f64(0.25, &mut out);
        assert_eq!(out, [0.75]);
        assert_eq!(s.evaluate(0.25), Values::Bools(vec![true]));
        assert_eq!(s.evaluate(1.0), Values::Bools(vec![false]));
        let tr = bezier_track(
            TrackKind::Bool,
            Values::Bools(vec![false, false]),
            Some(golden_tangents()),
        );
        let mut s = Sampler::new(&tr);
        // 0 * ... + 3k²s * 8 + 3ks² * -8 + 0: truthy unless exactly zero.
        assert_eq!(s.evaluate(0.25), Values::Bools(vec![true]));

        let names = Values::Strings(vec!["a".into(), "b".into()]);
        let tr = bezier_track(TrackKind::String, names, Some(golden_tangents()));
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.5), Values::Strings(vec!["a".into()]));
        assert_eq!(s.evaluate(1.0), Values::Strings(vec!["b".into()]));
        s.evaluate_f64(0.5, &mut out);
        assert!(out[0].is_nan());
    }

    #[test]
    fn split_halves_trace_the_same_curve() {
        let p = [0.0, 3.0, -2.0, 5.0];
        let (left, right) = split(p, 0.3);
        assert_eq!(left[3], cubic_bezier(0.3, p[0], p[1], p[2], p[3]));
        for k in 0..=10 {
            let u = k as f64 / 10.0;
            let a = cubic_bezier(u, left[0], left[1], left[2], left[3]);
            let b = cubic_bezier(0.3 * u, p[0], p[1], p[2], p[3]);
            assert!((a - b).abs() < 1e-12);
            let a = cubic_bezier(u, right[0], right[1], right[2], right[3]);
            let b = cubic_bezier(0.3 + 0.7 * u, p[0], p[1], p[2], p[3]);
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn js_min_max_semantics() {
        assert!(js_min(1.0, f64::NAN).is_nan());
        assert!(js_max(0.0, f64::NAN).is_nan());
        assert!(js_min(0.0, -0.0).is_sign_negative());
        assert!(js_max(-0.0, 0.0).is_sign_positive());
        assert_eq!(js_max(0.0, js_min(1.0, 3.0)), 1.0);
        assert_eq!(js_max(0.0, js_min(1.0, -3.0)), 0.0);
    }
}
