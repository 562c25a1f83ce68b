//! Hermite keys (glTF's CUBICSPLINE, PlayCanvas anim clips' cubic curves) and the model's
//! bezier handles, converted both ways exactly.
//!
//! Hermite keys store, per key `k`, an in-tangent `aₖ`, the value `vₖ` and an
//! out-tangent `bₖ`, the tangents being derivatives (value per second). Between `t₀` and `t₁`
//! (`Δ = t₁ − t₀`) the curve is the cubic Hermite segment
//!
//! ```text
//! p(s) = (2s³ − 3s² + 1)·v₀ + Δ(s³ − 2s² + s)·b₀ + (−2s³ + 3s²)·v₁ + Δ(s³ − s²)·a₁,  s = (t − t₀)/Δ
//! ```
//!
//! which is the cubic bezier with control points `(t₀, v₀)`, `(t₀ + Δ/3, v₀ + b₀·Δ/3)`,
//! `(t₁ − Δ/3, v₁ − a₁·Δ/3)`, `(t₁, v₁)`: with the control times at a third and two thirds
//! the bezier's time runs linearly in its parameter, so the model's bezier interpolant (which
//! solves for the parameter) draws exactly the Hermite curve. The handles Hermite keys never use
//! (the first key's in-tangent, the last key's out-tangent) mirror the neighbouring interval so
//! they survive a round trip. Hermite keys become handles with
//! [`Tangents::from_hermite`](crate::model::Tangents::from_hermite), shared with the model's own
//! curve fitting.
//!
//! Going back, a bezier track converts exactly when every handle that shapes a segment sits at
//! a third of its segment in time ([`from_tangents`]); otherwise the caller bakes it.

use crate::model::{HandleSide, Tangents};

/// The four cubic Hermite basis weights at `s` (0 at the segment's first key, 1 at its
/// second): `[h00, h10, h01, h11]`, the weights of the first value, the first key's slope
/// times the interval, the second value and the second key's slope times the interval. The
/// one place the curve above is evaluated (reduce's fit, the players' cubic samplers).
#[inline]
pub(crate) fn basis(s: f64) -> [f64; 4] {
    let s2 = s * s;
    let s3 = s2 * s;
    [
        2.0 * s3 - 3.0 * s2 + 1.0,
        s3 - 2.0 * s2 + s,
        -2.0 * s3 + 3.0 * s2,
        s3 - s2,
    ]
}

/// The CUBICSPLINE in- and out-tangents (`aₖ`, `bₖ`, each `keys × value_size`) of a bezier
/// track, or `Err(key)` naming the first key whose handle is not at a third of its interval
/// (or an interval that is not strictly increasing), which no Hermite segment reproduces.
pub(crate) fn from_tangents(
    times: &[f32],
    values: &[f32],
    tangents: &Tangents,
    value_size: usize,
) -> Result<(Vec<f32>, Vec<f32>), usize> {
    let n = times.len();
    let mut ins = vec![0.0f32; n * value_size];
    let mut outs = vec![0.0f32; n * value_size];
    for k in 0..n {
        let tk = times[k] as f64;
        for c in 0..value_size {
            let i = k * value_size + c;
            let v = values[i] as f64;
            let point = |side| tangents.point(side, k, c, value_size).ok_or(k);
            let (it, iv) = point(HandleSide::In)?;
            let (ot, ov) = point(HandleSide::Out)?;
            ins[i] = if k > 0 {
                let dt = segment(times, k - 1).ok_or(k)?;
                if !at_third(it, tk - dt / 3.0, dt, tk) {
                    return Err(k);
                }
                ((v - iv) / (dt / 3.0)) as f32
            } else {
                slope(tk - it, v - iv)
            };
            outs[i] = if k + 1 < n {
                let dt = segment(times, k).ok_or(k)?;
                if !at_third(ot, tk + dt / 3.0, dt, tk) {
                    return Err(k);
                }
                ((ov - v) / (dt / 3.0)) as f32
            } else {
                slope(ot - tk, ov - v)
            };
        }
    }
    Ok((ins, outs))
}

/// The length of interval `k` (key `k` to `k + 1`), if it is positive and finite.
fn segment(times: &[f32], k: usize) -> Option<f64> {
    let dt = times[k + 1] as f64 - times[k] as f64;
    (dt.is_finite() && dt > 0.0).then_some(dt)
}

/// `dv / dt` for an end handle glTF ignores (0 when the handle sits on the key).
fn slope(dt: f64, dv: f64) -> f32 {
    if dt.is_finite() && dt > 0.0 && dv.is_finite() {
        (dv / dt) as f32
    } else {
        0.0
    }
}

/// Whether handle time `got` is at `want` up to `f32` rounding (relative to the interval and
/// to the key time's magnitude).
fn at_third(got: f64, want: f64, dt: f64, tk: f64) -> bool {
    let tolerance = 1e-5 * dt + 4.0 * f32::EPSILON as f64 * tk.abs().max((tk + dt).abs());
    (got - want).abs() <= tolerance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interpolant::Sampler;
    use crate::model::{Interpolation, Track, TrackKind};

    /// The glTF 2.0 Appendix C Hermite segment, in f64.
    fn hermite(t: f64, t0: f64, t1: f64, v0: f64, b0: f64, v1: f64, a1: f64) -> f64 {
        let dt = t1 - t0;
        let s = (t - t0) / dt;
        let (s2, s3) = (s * s, s * s * s);
        (2.0 * s3 - 3.0 * s2 + 1.0) * v0
            + dt * (s3 - 2.0 * s2 + s) * b0
            + (-2.0 * s3 + 3.0 * s2) * v1
            + dt * (s3 - s2) * a1
    }

    fn keys() -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        // Three keys of a 2-component track with uneven intervals.
        let times = vec![0.25, 1.0, 3.5];
        let values = vec![0.0, 1.0, 2.0, -1.0, -0.5, 4.0];
        let ins = vec![9.0, 9.0, 1.5, -3.0, 0.25, 2.0];
        let outs = vec![4.0, -2.0, 0.75, 5.0, 9.0, 9.0];
        (times, values, ins, outs)
    }

    #[test]
    fn bezier_equals_hermite() {
        let (times, values, ins, outs) = keys();
        let mut track = Track::numeric(".p", TrackKind::Vector, times.clone(), values.clone());
        track.interpolation = Interpolation::Bezier;
        track.tangents = Some(Tangents::from_hermite(&times, &values, &ins, &outs, 2));
        let mut sampler = Sampler::new(&track);
        let mut out = [0.0; 2];
        let mut worst = 0.0f64;
        for k in 0..2 {
            let (t0, t1) = (times[k] as f64, times[k + 1] as f64);
            for step in 0..=200 {
                let t = t0 + (t1 - t0) * step as f64 / 200.0;
                sampler.evaluate_f64(t, &mut out);
                for (c, got) in out.iter().enumerate() {
                    let i0 = k * 2 + c;
                    let i1 = (k + 1) * 2 + c;
                    let want = hermite(
                        t,
                        t0,
                        t1,
                        values[i0] as f64,
                        outs[i0] as f64,
                        values[i1] as f64,
                        ins[i1] as f64,
                    );
                    worst = worst.max((got - want).abs());
                }
            }
        }
        assert!(worst < 1e-6, "largest difference {worst}");
    }

    #[test]
    fn handles_sit_at_thirds_and_convert_back() {
        let (times, values, ins, outs) = keys();
        let t = Tangents::from_hermite(&times, &values, &ins, &outs, 2);
        // Key 1, component 0: in handle a third of 0.75 s before, out a third of 2.5 s after.
        let (it, iv) = t.point(HandleSide::In, 1, 0, 2).unwrap();
        assert!((it - 0.75).abs() < 1e-7 && (iv - (2.0 - 1.5 * 0.25)).abs() < 1e-6);
        let (ot, ov) = t.point(HandleSide::Out, 1, 0, 2).unwrap();
        assert!((ot - (1.0 + 2.5 / 3.0)).abs() < 1e-6);
        assert!((ov - (2.0 + 0.75 * 2.5 / 3.0)).abs() < 1e-6);
        let (a, b) = from_tangents(&times, &values, &t, 2).unwrap();
        for (got, want) in a.iter().zip(&ins).chain(b.iter().zip(&outs)) {
            assert!(
                (got - want).abs() <= 1e-5 * want.abs().max(1.0),
                "{got} vs {want}"
            );
        }
        // A lone key keeps its tangents through the mirrored handles too.
        let t1 = Tangents::from_hermite(&[2.0], &[1.0], &[3.0], &[-4.0], 1);
        let (a, b) = from_tangents(&[2.0], &[1.0], &t1, 1).unwrap();
        assert!(
            (a[0] - 3.0).abs() < 1e-5 && (b[0] + 4.0).abs() < 1e-5,
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn handles_off_the_thirds_are_refused() {
        let (times, values, ins, outs) = keys();
        let mut t = Tangents::from_hermite(&times, &values, &ins, &outs, 2);
        t.set_point(HandleSide::Out, 1, 1, 2, (1.5, 0.0));
        assert_eq!(from_tangents(&times, &values, &t, 2), Err(1));
        let mut t = Tangents::from_hermite(&times, &values, &ins, &outs, 2);
        t.set_point(HandleSide::In, 2, 0, 2, (3.0, 0.0));
        assert_eq!(from_tangents(&times, &values, &t, 2), Err(2));
        // The unused end handles may be anywhere.
        let mut t = Tangents::from_hermite(&times, &values, &ins, &outs, 2);
        t.set_point(HandleSide::In, 0, 0, 2, (0.0, 0.0));
        assert!(from_tangents(&times, &values, &t, 2).is_ok());
        // Short tangent arrays name the key they miss.
        let full = Tangents::from_hermite(&times, &values, &ins, &outs, 2);
        let short = Tangents::new(
            full.in_tangents[..4].to_vec(),
            full.out_tangents[..4].to_vec(),
        );
        assert_eq!(from_tangents(&times, &values, &short, 2), Err(1));
    }
}
