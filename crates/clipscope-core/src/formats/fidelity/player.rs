//! How a destination's player fills the time between written keys: which interval a time falls
//! in, what happens before the first key and after the last, and how values mix.
//!
//! * [`Player::ThreeJs`]: three.js r187 playing glTF samplers (`GLTFLoader`): STEP holds,
//!   LINEAR lerps (quaternions slerp), CUBICSPLINE is a Hermite segment, normalized for
//!   rotations; before the first key the first value, from the last key on the last.
//! * [`Player::PlayCanvasAnim`]: the anim system's `AnimCache`: the same intervals and ends, but
//!   a linear curve lerps every component (quaternions too) and the binder's `AnimBlend.set`
//!   normalizes rotations afterwards.
//! * [`Player::PlayCanvasEuler`]: an anim clip's `localEulerAngles` curve: its three Euler
//!   degrees interpolate like any curve, then `setLocalEulerAngles` turns them into the
//!   rotation (`Quat.setFromEulerAngles`).
//! * [`Player::PlayCanvasSkeleton`]: the legacy animation asset's `Skeleton`: the first key pair
//!   with `k1.time <= t <= k2.time`, lerp, and `Quat.slerp`, which returns the plain average of
//!   two keys closer than `sin(θ/2) < 0.001` whatever the time; where no pair holds `t` the node is
//!   not written (NaN here) except at time 0, where a looping skeleton copies the first key;
//!   one key is copied.

use crate::formats::euler::quaternion_from_euler;
use crate::formats::keys::{Keys, Sampling};
use crate::model::interpolant::slerp_flat;

/// A destination's way of playing keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Player {
    /// three.js playing glTF samplers.
    ThreeJs,
    /// The PlayCanvas anim system (component interpolation, rotations normalized).
    PlayCanvasAnim,
    /// A PlayCanvas anim `localEulerAngles` curve (Euler degrees, then a rotation).
    PlayCanvasEuler,
    /// The legacy PlayCanvas `Skeleton` (lerp, the engine's slerp).
    PlayCanvasSkeleton,
}

/// Where a time falls among key times.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    /// One key's value.
    Key(usize),
    /// Between keys `i` and `i + 1`, at fraction `alpha`.
    Between(usize, f64),
    /// Nothing: the player leaves the value as it was.
    Unwritten,
}

impl Player {
    /// Values per played result for keys of `width` values: Euler curves play rotations.
    pub(crate) fn output_width(self, width: usize) -> usize {
        if self == Player::PlayCanvasEuler {
            4
        } else {
            width
        }
    }

    /// Where time `t` falls in `times`.
    fn locate(self, times: &[f32], t: f64) -> At {
        let n = times.len();
        if n == 0 {
            return At::Unwritten;
        }
        if n == 1 {
            return At::Key(0);
        }
        let time = |i: usize| times[i] as f64;
        if self == Player::PlayCanvasSkeleton {
            // The first pair holding t (searched from the start, as after `currentTime = t`).
            let i = times.partition_point(|&k| (k as f64) < t);
            // times[i - 1] < t <= times[i]: the pair (i - 1, i); at t == times[0] the pair (0, 1).
            let i = if i == 0 && time(0) == t { 1 } else { i };
            if i == 0 || i >= n {
                // Nothing holds t; at 0 a looping skeleton copies the first key.
                return if t == 0.0 { At::Key(0) } else { At::Unwritten };
            }
            let (t0, t1) = (time(i - 1), time(i));
            return At::Between(i - 1, (t - t0) / (t1 - t0));
        }
        if t < time(0) {
            return At::Key(0);
        }
        if t >= time(n - 1) || t.is_nan() {
            return At::Key(n - 1);
        }
        // The last i with times[i] <= t.
        let i = times.partition_point(|&k| k as f64 <= t) - 1;
        let (t0, t1) = (time(i), time(i + 1));
        let len = t1 - t0;
        let alpha = if len > 0.0 && (1.0 / len).is_finite() {
            (t - t0) / len
        } else {
            0.0
        };
        At::Between(i, alpha)
    }

    /// The value the destination plays at `t` from `keys`, into `out` (the output width:
    /// `keys.width`, or 4 for Euler curves). `rotation`: the values are quaternions.
    pub(crate) fn play(self, keys: &Keys, rotation: bool, t: f64, out: &mut [f64]) {
        let w = keys.width;
        let value = |k: usize, c: usize| keys.values[k * w + c] as f64;
        let mut raw = [0.0f64; 16];
        let raw = &mut raw[..w.min(16)];
        match self.locate(&keys.times, t) {
            At::Unwritten => {
                out.iter_mut().for_each(|x| *x = f64::NAN);
                return;
            }
            At::Key(k) => raw
                .iter_mut()
                .enumerate()
                .for_each(|(c, x)| *x = value(k, c)),
            At::Between(i, alpha) => match keys.sampling {
                Sampling::Step => raw
                    .iter_mut()
                    .enumerate()
                    .for_each(|(c, x)| *x = value(i, c)),
                Sampling::Linear if rotation && w == 4 && self != Player::PlayCanvasAnim => {
                    let q = |k| [value(k, 0), value(k, 1), value(k, 2), value(k, 3)];
                    let r = if self == Player::PlayCanvasSkeleton {
                        playcanvas_slerp(q(i), q(i + 1), alpha)
                    } else {
                        slerp_flat(q(i), q(i + 1), alpha)
                    };
                    raw.copy_from_slice(&r);
                }
                Sampling::Linear => raw.iter_mut().enumerate().for_each(|(c, x)| {
                    let (a, b) = (value(i, c), value(i + 1, c));
                    *x = a + alpha * (b - a);
                }),
                Sampling::CubicSpline => {
                    let (ins, outs) = keys
                        .tangents
                        .as_ref()
                        .map_or((&[][..], &[][..]), |(a, b)| (&a[..], &b[..]));
                    let len = (keys.times[i + 1] - keys.times[i]) as f64;
                    let [h00, h10, h01, h11] = crate::model::hermite::basis(alpha);
                    raw.iter_mut().enumerate().for_each(|(c, x)| {
                        let b0 = outs.get(i * w + c).map_or(0.0, |&v| v as f64);
                        let a1 = ins.get((i + 1) * w + c).map_or(0.0, |&v| v as f64);
                        *x = h00 * value(i, c)
                            + h10 * len * b0
                            + h01 * value(i + 1, c)
                            + h11 * len * a1;
                    });
                }
            },
        }
        if self == Player::PlayCanvasEuler && w >= 3 {
            out[..4].copy_from_slice(&quaternion_from_euler([raw[0], raw[1], raw[2]]));
            return;
        }
        out[..raw.len()].copy_from_slice(raw);
        let normalizes = matches!(self, Player::PlayCanvasAnim)
            || (self == Player::ThreeJs && keys.sampling == Sampling::CubicSpline);
        if rotation && w == 4 && normalizes {
            let len = out[..4].iter().map(|x| x * x).sum::<f64>().sqrt();
            if len > 0.0 {
                out[..4].iter_mut().for_each(|x| *x /= len);
            }
        }
    }
}

/// The PlayCanvas engine's `Quat.slerp(lhs, rhs, alpha)`, operation for operation.
pub(crate) fn playcanvas_slerp(l: [f64; 4], r: [f64; 4], alpha: f64) -> [f64; 4] {
    let [lx, ly, lz, lw] = l;
    let [mut rx, mut ry, mut rz, mut rw] = r;
    let mut cos_half = lw * rw + lx * rx + ly * ry + lz * rz;
    if cos_half < 0.0 {
        rw = -rw;
        rx = -rx;
        ry = -ry;
        rz = -rz;
        cos_half = -cos_half;
    }
    if cos_half.abs() >= 1.0 {
        return l;
    }
    let half = cos_half.acos();
    let sin_half = (1.0 - cos_half * cos_half).sqrt();
    if sin_half.abs() < 1e-3 {
        return [
            lx * 0.5 + rx * 0.5,
            ly * 0.5 + ry * 0.5,
            lz * 0.5 + rz * 0.5,
            lw * 0.5 + rw * 0.5,
        ];
    }
    let ra = ((1.0 - alpha) * half).sin() / sin_half;
    let rb = (alpha * half).sin() / sin_half;
    [
        lx * ra + rx * rb,
        ly * ra + ry * rb,
        lz * ra + rz * rb,
        lw * ra + rw * rb,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(sampling: Sampling, times: Vec<f32>, values: Vec<f32>, width: usize) -> Keys {
        Keys {
            sampling,
            times,
            values,
            tangents: None,
            width,
        }
    }

    fn at(player: Player, k: &Keys, rotation: bool, t: f64) -> Vec<f64> {
        let mut out = vec![0.0; player.output_width(k.width)];
        player.play(k, rotation, t, &mut out);
        out
    }

    #[test]
    fn ends_and_intervals() {
        let k = keys(
            Sampling::Linear,
            vec![1.0, 2.0, 2.0, 3.0],
            vec![0.0, 10.0, 20.0, 30.0],
            1,
        );
        for p in [Player::ThreeJs, Player::PlayCanvasAnim] {
            assert_eq!(at(p, &k, false, 0.0), [0.0]);
            assert_eq!(at(p, &k, false, 1.5), [5.0]);
            // A repeated time: the later key wins from that time on.
            assert_eq!(at(p, &k, false, 2.0), [20.0]);
            assert_eq!(at(p, &k, false, 2.5), [25.0]);
            assert_eq!(at(p, &k, false, 9.0), [30.0]);
        }
        // The skeleton takes the first pair holding t and writes nothing outside the keys.
        let s = Player::PlayCanvasSkeleton;
        assert!(at(s, &k, false, 0.5)[0].is_nan());
        assert_eq!(at(s, &k, false, 1.0), [0.0]);
        assert_eq!(at(s, &k, false, 2.0), [10.0]);
        assert_eq!(at(s, &k, false, 3.0), [30.0]);
        assert!(at(s, &k, false, 3.5)[0].is_nan());
        let step = keys(Sampling::Step, vec![0.0, 1.0], vec![1.0, 2.0], 1);
        assert_eq!(at(Player::PlayCanvasAnim, &step, false, 0.99), [1.0]);
        assert_eq!(at(Player::PlayCanvasAnim, &step, false, 1.0), [2.0]);
    }

    #[test]
    fn rotations_per_player() {
        use std::f32::consts::FRAC_1_SQRT_2;
        // 0° → 90° about -y…
        let k = keys(
            Sampling::Linear,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, -FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2],
            4,
        );
        let three = at(Player::ThreeJs, &k, true, 0.5);
        let pc = at(Player::PlayCanvasAnim, &k, true, 0.5);
        // slerp and normalized lerp agree at the middle of an arc…
        assert!(super::super::angle_deg(&three, &pc) < 1e-6);
        // …and differ elsewhere (a quarter of the way along 90°: 22.5° against about 21.6°).
        let three = at(Player::ThreeJs, &k, true, 0.25);
        let pc = at(Player::PlayCanvasAnim, &k, true, 0.25);
        let d = super::super::angle_deg(&three, &pc);
        assert!((d - 0.9).abs() < 0.05, "{d}");
        // The skeleton averages keys closer than about 0.11°.
        let h = (0.05f64).to_radians() / 2.0;
        let near = [0.0, 0.0, 0.0, 1.0, 0.0, h.sin(), 0.0, h.cos()];
        let r = playcanvas_slerp(
            [near[0], near[1], near[2], near[3]],
            [near[4], near[5], near[6], near[7]],
            0.0,
        );
        assert_eq!(r, [0.0, h.sin() * 0.5, 0.0, 0.5 + h.cos() * 0.5]);
    }

    #[test]
    fn euler_curves_play_rotations() {
        let k = keys(
            Sampling::Linear,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 0.0, 90.0, 0.0],
            3,
        );
        let q = at(Player::PlayCanvasEuler, &k, false, 0.5);
        let h = (22.5f64).to_radians();
        assert!((q[1] - h.sin()).abs() < 1e-12 && (q[3] - h.cos()).abs() < 1e-12);
    }

    #[test]
    fn hermite_segments() {
        let mut k = keys(Sampling::CubicSpline, vec![0.0, 2.0], vec![0.0, 1.0], 1);
        k.tangents = Some((vec![0.0, 0.0], vec![0.0, 0.0]));
        // Flat tangents: smoothstep.
        assert_eq!(at(Player::ThreeJs, &k, false, 1.0), [0.5]);
        assert!((at(Player::PlayCanvasAnim, &k, false, 0.5)[0] - 0.15625).abs() < 1e-12);
    }
}
