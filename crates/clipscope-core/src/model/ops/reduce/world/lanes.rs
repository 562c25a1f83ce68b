//! Two samples at once: a value at each of [`LANES`] samples ([`Lanes`]) and the few
//! operations a pose needs on them (three.js's compose, glam's affine product, the quaternion
//! product and scaling). Each lane does exactly the `f64` operations, in the order, of the
//! one-sample version, so the compiler packs the pair into SSE2 registers and every lane stays
//! bit for bit what posing its sample alone gives.

use glam::{DAffine3, DMat3, DVec3};

/// How many samples one pose computes at once ([`Pose::solve_lanes`](super::Pose::solve_lanes)): two `f64` lanes fill an
/// SSE2 register, so each node's arithmetic runs on both samples at once and its bookkeeping
/// (which properties are animated, its parent, its points) is paid once for both.
pub(crate) const LANES: usize = 2;

/// One value at each of [`LANES`] samples. Every operation works lane by lane, each lane exactly
/// like the `f64` operation it stands for (no fused or reordered arithmetic), so a lane holds
/// bit for bit what posing its sample alone gives.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(align(16))]
pub(crate) struct Lanes(pub(crate) [f64; LANES]);

impl Lanes {
    /// `x` in every lane.
    #[inline(always)]
    pub(crate) fn splat(x: f64) -> Lanes {
        Lanes([x; LANES])
    }

    /// `f` of each lane.
    #[inline(always)]
    pub(crate) fn map(self, f: impl Fn(f64) -> f64) -> Lanes {
        Lanes(self.0.map(f))
    }

    /// Whether every lane is positive and finite (not zero, not infinite, not NaN).
    #[inline(always)]
    pub(crate) fn all_positive_finite(self) -> bool {
        // Two SSE2 comparisons and a mask per pair of lanes: written lane by lane, the test
        // is turned into integer tests of each lane's bits, several times longer.
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_and_pd, _mm_cmpgt_pd, _mm_cmplt_pd, _mm_movemask_pd};
            use std::arch::x86_64::{_mm_set_pd, _mm_set1_pd, _mm_setzero_pd};
            self.0.chunks_exact(2).all(|pair| {
                // SAFETY: these only need SSE2, which every x86-64 CPU has.
                unsafe {
                    let v = _mm_set_pd(pair[1], pair[0]);
                    let positive = _mm_cmpgt_pd(v, _mm_setzero_pd());
                    let finite = _mm_cmplt_pd(v, _mm_set1_pd(f64::INFINITY));
                    _mm_movemask_pd(_mm_and_pd(positive, finite)) == 0b11
                }
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.0.iter().all(|&x| x > 0.0 && x.is_finite())
    }
}

macro_rules! lanewise {
    ($($op:ident $method:ident),*) => {$(
        impl std::ops::$op for Lanes {
            type Output = Lanes;
            #[inline(always)]
            fn $method(self, rhs: Lanes) -> Lanes {
                Lanes(std::array::from_fn(|l| self.0[l].$method(rhs.0[l])))
            }
        }
    )*};
}
lanewise!(Add add, Sub sub, Mul mul, Div div);

/// A vector (x, y, z) in lanes.
pub(crate) type Vec3s = [Lanes; 3];

/// A quaternion (x, y, z, w) in lanes.
pub(crate) type Quats = [Lanes; 4];

/// A [`DAffine3`] in lanes: the matrix's columns and the translation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Affines {
    /// The x, y and z axes (the matrix's columns).
    pub(crate) axes: [Vec3s; 3],
    /// The translation.
    pub(crate) translation: Vec3s,
}

impl Affines {
    /// `a` in every lane.
    pub(crate) fn splat(a: &DAffine3) -> Affines {
        let v = |v: DVec3| v.to_array().map(Lanes::splat);
        Affines {
            axes: [
                v(a.matrix3.x_axis),
                v(a.matrix3.y_axis),
                v(a.matrix3.z_axis),
            ],
            translation: v(a.translation),
        }
    }

    /// Lane `lane` as a [`DAffine3`].
    pub(crate) fn lane(&self, lane: usize) -> DAffine3 {
        let v = |v: &Vec3s| DVec3::new(v[0].0[lane], v[1].0[lane], v[2].0[lane]);
        DAffine3 {
            matrix3: DMat3::from_cols(v(&self.axes[0]), v(&self.axes[1]), v(&self.axes[2])),
            translation: v(&self.translation),
        }
    }

    /// Sets lane `lane` to `a`.
    pub(crate) fn set_lane(&mut self, lane: usize, a: &DAffine3) {
        let set = |to: &mut Vec3s, v: DVec3| {
            for (t, x) in to.iter_mut().zip(v.to_array()) {
                t.0[lane] = x;
            }
        };
        set(&mut self.axes[0], a.matrix3.x_axis);
        set(&mut self.axes[1], a.matrix3.y_axis);
        set(&mut self.axes[2], a.matrix3.z_axis);
        set(&mut self.translation, a.translation);
    }

    /// The matrix times `v`, as glam's `DMat3 * DVec3`: `x·v.x + y·v.y + z·v.z`, summed left
    /// to right.
    #[inline(always)]
    pub(crate) fn transform_vector(&self, v: &Vec3s) -> Vec3s {
        let [x, y, z] = &self.axes;
        std::array::from_fn(|r| x[r] * v[0] + y[r] * v[1] + z[r] * v[2])
    }

    /// `self * rhs`, as glam's `DAffine3 * DAffine3`: each column of `rhs` and its translation
    /// through the matrix, then the translation added.
    #[inline(always)]
    pub(crate) fn mul(&self, rhs: &Affines) -> Affines {
        let moved = self.transform_vector(&rhs.translation);
        Affines {
            axes: rhs.axes.map(|c| self.transform_vector(&c)),
            translation: std::array::from_fn(|r| moved[r] + self.translation[r]),
        }
    }
}

/// The identity rotation in every lane.
pub(crate) const IDENTITY: Quats = [
    Lanes([0.0; LANES]),
    Lanes([0.0; LANES]),
    Lanes([0.0; LANES]),
    Lanes([1.0; LANES]),
];

/// three.js's `Matrix4.compose(position, quaternion, scale)` in each lane, quaternion used as
/// it is.
#[inline(always)]
pub(crate) fn compose(p: Vec3s, q: Quats, s: Vec3s) -> Affines {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let [sx, sy, sz] = s;
    let one = Lanes::splat(1.0);
    Affines {
        axes: [
            [(one - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx],
            [(xy - wz) * sy, (one - (xx + zz)) * sy, (yz + wx) * sy],
            [(xz + wy) * sz, (yz - wx) * sz, (one - (xx + yy)) * sz],
        ],
        translation: p,
    }
}

/// [`normalized`](super::normalized) in each lane.
#[inline]
pub(crate) fn normalized_lanes(q: Quats) -> Quats {
    let [x, y, z, w] = q;
    let n = (x * x + y * y + z * z + w * w).map(f64::sqrt);
    // Times the reciprocal, like three.js's `Quaternion.normalize`.
    let f = Lanes::splat(1.0) / n;
    let out = q.map(|v| v * f);
    if n.all_positive_finite() {
        return out;
    }
    identity_where_not_positive_finite(out, n)
}

/// `q` as a node's turn in its chain's world rotation, in each lane: as it is (the chain is
/// scaled to unit length only where it is measured), or the identity for a zero or non-finite
/// quaternion, as [`normalized`](super::normalized) gives it.
#[inline(always)]
pub(crate) fn turning(q: Quats) -> Quats {
    let [x, y, z, w] = q;
    let n2 = x * x + y * y + z * z + w * w;
    if n2.all_positive_finite() {
        return q;
    }
    identity_where_not_positive_finite(q, n2)
}

/// `q` with the identity in each lane where `n` is zero, negative, infinite or NaN.
#[cold]
fn identity_where_not_positive_finite(mut q: Quats, n: Lanes) -> Quats {
    for (l, n) in n.0.into_iter().enumerate() {
        if !(n > 0.0 && n.is_finite()) {
            for (o, i) in q.iter_mut().zip(IDENTITY) {
                o.0[l] = i.0[l];
            }
        }
    }
    q
}

/// The Hamilton product `a · b` of two quaternions (x, y, z, w), in each lane.
#[inline(always)]
pub(crate) fn multiply(a: &Quats, b: &Quats) -> Quats {
    let [ax, ay, az, aw] = *a;
    let [bx, by, bz, bw] = *b;
    [
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}
