//! Flat-array quaternion helpers (three.js `Quaternion.slerpFlat` and
//! `Quaternion.multiplyQuaternionsFlat`, r187).
//!
//! Quaternions are `[x, y, z, w]` in `f64`. Both functions keep three.js's exact operation order
//! so that results match bit for bit; `acos` and `sin` come from `libm`, which implements the
//! same fdlibm algorithms V8 uses for `Math.acos` and `Math.sin`. A [`SlerpPlan`] is `slerpFlat`
//! split in two: the part that depends on the end points only, and the rest, so that a track
//! played faster than its keys slerps each key interval's angle once.

/// Spherical interpolation from `a` to `b` by `t`, exactly like r187's `Quaternion.slerpFlat`.
///
/// Identical inputs are returned as they are (not normalized); a negative dot product flips `b`
/// onto the short arc; nearly parallel inputs (`dot >= 0.9995`) are lerped and normalized.
/// There is no early out for `t == 0` or `t == 1`.
#[inline]
pub fn slerp_flat(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    SlerpPlan::new(a, b).at(t)
}

/// What [`slerp_flat`] computes from its two end points alone (the comparison, the flip onto the
/// short arc, the angle and its sine), kept so that slerping between the same two quaternions
/// at several `t` does that part once. [`at`](SlerpPlan::at) then finishes exactly as
/// `slerp_flat` does: `SlerpPlan::new(a, b).at(t) == slerp_flat(a, b, t)`, bit for bit.
#[derive(Debug, Clone, Copy)]
pub struct SlerpPlan {
    /// The start point.
    a: [f64; 4],
    /// The end point, flipped onto the short arc.
    b: [f64; 4],
    /// The arc.
    arc: Span,
}

/// How a [`SlerpPlan`] finishes.
#[derive(Debug, Clone, Copy)]
enum Span {
    /// `a` and `b` are the same quaternion (JavaScript `===` on every component).
    Same,
    /// Nearly parallel (or NaN): lerp and normalize.
    Near,
    /// A true slerp over angle `theta`, with `sin(theta)`.
    Far { theta: f64, sin: f64 },
}

impl SlerpPlan {
    /// The plan from `a` to `b`.
    #[inline]
    pub fn new(a: [f64; 4], b: [f64; 4]) -> SlerpPlan {
        let [x0, y0, z0, w0] = a;
        let [mut x1, mut y1, mut z1, mut w1] = b;
        // JS `!==`: NaN differs from everything, -0 equals 0.
        if !(w0 != w1 || x0 != x1 || y0 != y1 || z0 != z1) {
            return SlerpPlan {
                a,
                b,
                arc: Span::Same,
            };
        }
        let mut dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;

        if dot < 0.0 {
            x1 = -x1;
            y1 = -y1;
            z1 = -z1;
            w1 = -w1;
            dot = -dot;
        }

        let arc = if dot < 0.9995 {
            let theta = libm::acos(dot);
            Span::Far {
                theta,
                sin: libm::sin(theta),
            }
        } else {
            Span::Near
        };
        SlerpPlan {
            a,
            b: [x1, y1, z1, w1],
            arc,
        }
    }

    /// The slerp at `t` (see [`slerp_flat`]).
    #[inline]
    pub fn at(&self, t: f64) -> [f64; 4] {
        let [mut x0, mut y0, mut z0, mut w0] = self.a;
        let [x1, y1, z1, w1] = self.b;
        let mut t = t;
        let mut s = 1.0 - t;
        match self.arc {
            Span::Same => {}
            Span::Far { theta, sin } => {
                s = libm::sin(s * theta) / sin;
                t = libm::sin(t * theta) / sin;

                x0 = x0 * s + x1 * t;
                y0 = y0 * s + y1 * t;
                z0 = z0 * s + z1 * t;
                w0 = w0 * s + w1 * t;
            }
            Span::Near => {
                x0 = x0 * s + x1 * t;
                y0 = y0 * s + y1 * t;
                z0 = z0 * s + z1 * t;
                w0 = w0 * s + w1 * t;

                let f = 1.0 / (x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0).sqrt();

                x0 *= f;
                y0 *= f;
                z0 *= f;
                w0 *= f;
            }
        }
        [x0, y0, z0, w0]
    }
}

impl SlerpPlan {
    /// Whether the ends are nearly parallel, so that [`at`](SlerpPlan::at) lerps and scales
    /// the result to unit length.
    pub fn is_near(&self) -> bool {
        matches!(self.arc, Span::Near)
    }

    /// [`at`](SlerpPlan::at) for nearly parallel ends ([`is_near`](SlerpPlan::is_near)) before
    /// its scaling to unit length: the same direction, for a test that does not depend on the
    /// length. Other ends finish as `at` does.
    #[inline]
    pub fn at_unscaled(&self, t: f64) -> [f64; 4] {
        if !self.is_near() {
            return self.at(t);
        }
        let (a, b) = (self.a, self.b);
        let s = 1.0 - t;
        std::array::from_fn(|c| a[c] * s + b[c] * t)
    }
}

/// The Hamilton product `a ⊗ b`, exactly like three.js's `Quaternion.multiplyQuaternionsFlat`
/// (no normalization).
pub fn multiply_quaternions_flat(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_finishes_like_slerp_flat_bit_for_bit() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let pairs = [
            ([0.0, 0.0, 0.0, 1.0], [0.0, h, 0.0, h]),
            ([0.0, 0.0, 0.0, 1.0], [0.0, -h, 0.0, -h]),
            ([0.1, 0.2, 0.3, 0.9], [0.1001, 0.2, 0.3, 0.9]),
            ([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]),
            ([0.0, 0.0, f64::NAN, 1.0], [0.0, 0.0, 0.0, 1.0]),
            ([-0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]),
        ];
        for (a, b) in pairs {
            let plan = SlerpPlan::new(a, b);
            for t in [0.0, 0.1, 0.25, 0.5, 0.999, 1.0, -0.5, 1.5] {
                let want = slerp_flat_reference(a, b, t).map(f64::to_bits);
                assert_eq!(plan.at(t).map(f64::to_bits), want, "{a:?} {b:?} {t}");
                assert_eq!(slerp_flat(a, b, t).map(f64::to_bits), want);
            }
        }
    }

    /// r187's `slerpFlat` written out in one piece, as it was before [`SlerpPlan`] split it.
    fn slerp_flat_reference(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
        let [mut x0, mut y0, mut z0, mut w0] = a;
        let [mut x1, mut y1, mut z1, mut w1] = b;
        let mut t = t;
        if w0 != w1 || x0 != x1 || y0 != y1 || z0 != z1 {
            let mut dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
            if dot < 0.0 {
                (x1, y1, z1, w1, dot) = (-x1, -y1, -z1, -w1, -dot);
            }
            let mut s = 1.0 - t;
            if dot < 0.9995 {
                let theta = libm::acos(dot);
                let sin = libm::sin(theta);
                s = libm::sin(s * theta) / sin;
                t = libm::sin(t * theta) / sin;
                x0 = x0 * s + x1 * t;
                y0 = y0 * s + y1 * t;
                z0 = z0 * s + z1 * t;
                w0 = w0 * s + w1 * t;
            } else {
                x0 = x0 * s + x1 * t;
                y0 = y0 * s + y1 * t;
                z0 = z0 * s + z1 * t;
                w0 = w0 * s + w1 * t;
                let f = 1.0 / (x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0).sqrt();
                x0 *= f;
                y0 *= f;
                z0 *= f;
                w0 *= f;
            }
        }
        [x0, y0, z0, w0]
    }

    #[test]
    fn identical_inputs_are_copied_not_normalized() {
        let q = [1.0, 2.0, 3.0, 4.0];
        for t in [0.0, 0.25, 1.0, 7.0] {
            assert_eq!(slerp_flat(q, q, t), q);
        }
        // -0 equals 0 in JS, so this also counts as identical and `a` is copied.
        let r = slerp_flat([-0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], 0.5);
        assert!(r[0] == 0.0 && r[0].is_sign_negative());
    }

    #[test]
    fn slerp_between_axes_follows_the_formula() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let b = [0.0, h, 0.0, h];
        let r = slerp_flat(a, b, 0.5);
        // The same operations, spelled out.
        let dot = h;
        let theta = libm::acos(dot);
        let sn = libm::sin(theta);
        let s = libm::sin(0.5 * theta) / sn;
        let t = libm::sin(0.5 * theta) / sn;
        assert_eq!(
            r,
            [
                0.0 * s + 0.0 * t,
                0.0 * s + h * t,
                0.0 * s + 0.0 * t,
                1.0 * s + h * t
            ]
        );
        assert!((r[1] - (std::f64::consts::PI / 8.0).sin()).abs() < 1e-15);
        // t = 0 and t = 1 go through the formula too (no early out).
        assert_eq!(slerp_flat(a, b, 0.0)[3], 1.0);
        assert!((slerp_flat(a, b, 1.0)[1] - h).abs() < 1e-15);
    }

    #[test]
    fn negative_dot_flips_the_second_quaternion() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let b = [0.0, h, 0.0, h];
        let nb = [-0.0, -h, -0.0, -h];
        let r = slerp_flat(a, nb, 0.5);
        let expect = slerp_flat(a, b, 0.5);
        assert_eq!(r, expect);
        assert!(r[3] > 0.0);
    }

    #[test]
    fn near_parallel_inputs_are_lerped_and_normalized() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let b = [0.01, 0.0, 0.0, 1.0]; // dot = 1 >= 0.9995, not identical
        let r = slerp_flat(a, b, 0.5);
        let (x, w): (f64, f64) = (0.0 * 0.5 + 0.01 * 0.5, 1.0 * 0.5 + 1.0 * 0.5);
        let f = 1.0 / (x * x + 0.0 * 0.0 + 0.0 * 0.0 + w * w).sqrt();
        assert_eq!(r, [x * f, 0.0, 0.0, w * f]);
        let len = (r[0] * r[0] + r[3] * r[3]).sqrt();
        assert!((len - 1.0).abs() < 1e-15);
    }

    #[test]
    fn multiply_is_hamilton_product() {
        let i = [1.0, 0.0, 0.0, 0.0];
        let j = [0.0, 1.0, 0.0, 0.0];
        assert_eq!(multiply_quaternions_flat(i, j), [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(multiply_quaternions_flat(j, i), [0.0, 0.0, -1.0, 0.0]);
        let q = [0.1, 0.2, 0.3, 0.9];
        assert_eq!(multiply_quaternions_flat(q, [0.0, 0.0, 0.0, 1.0]), q);
        let [ax, ay, az, aw] = [1.0, 2.0, 3.0, 4.0];
        let [bx, by, bz, bw] = [5.0, 6.0, 7.0, 8.0];
        assert_eq!(
            multiply_quaternions_flat([ax, ay, az, aw], [bx, by, bz, bw]),
            [24.0, 48.0, 48.0, -6.0]
        );
    }
}
