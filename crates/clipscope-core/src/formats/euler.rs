//! PlayCanvas Euler angles: degrees `[ex, ey, ez]` to a quaternion and back, exactly like the
//! engine's `Quat.setFromEulerAngles` and `Quat.getEulerAngles` (spec B4). Both PlayCanvas
//! formats use them: animation JSON stores every rotation so ([`playcanvas`](super::playcanvas)),
//! anim clips their `localEulerAngles` curves ([`playcanvas_anim`](super::playcanvas_anim)).
//!
//! The engine's convention is `q = qZ(ez)·qY(ey)·qX(ex)`: rotate about X first, then Y, then Z
//! (fixed axes). Both directions keep the engine's operation order in `f64`, with `sin`, `cos`,
//! `atan2` and `asin` from `libm` (the fdlibm algorithms V8 uses for `Math.*`), so a quaternion
//! computed here matches the engine's bit for bit before it is rounded to the model's `f32`.
//!
//! The inverse only gives `ey` in [-90°, 90°], so an angle triple such as `(0, 120, 0)` comes back
//! as the equivalent `(180, 60, 180)`: same rotation, other numbers. Near gimbal lock
//! (`|2(wy − xz)| ≥ 0.99999`, within about 0.26° of `ey = ±90°`) the engine snaps `ey` to ±90°
//! and `ez` to 0, which can be off by up to that much; [`euler_for_quaternion`] then also tries
//! the exact formula and keeps whichever triple rebuilds the quaternion more closely.

/// `math.DEG_TO_RAD` (`Math.PI / 180`).
const DEG_TO_RAD: f64 = std::f64::consts::PI / 180.0;

/// `math.RAD_TO_DEG` (`180 / Math.PI`).
const RAD_TO_DEG: f64 = 180.0 / std::f64::consts::PI;

/// The engine's gimbal-lock threshold on `2(wy − xz)` in `getEulerAngles`.
const GIMBAL: f64 = 0.99999;

/// `Quat.setFromEulerAngles(ex, ey, ez)`: the quaternion `[x, y, z, w]` of Euler angles in
/// degrees.
pub fn quaternion_from_euler(degrees: [f64; 3]) -> [f64; 4] {
    let half_to_rad = 0.5 * DEG_TO_RAD;
    let ex = degrees[0] * half_to_rad;
    let ey = degrees[1] * half_to_rad;
    let ez = degrees[2] * half_to_rad;
    let (sx, cx) = (libm::sin(ex), libm::cos(ex));
    let (sy, cy) = (libm::sin(ey), libm::cos(ey));
    let (sz, cz) = (libm::sin(ez), libm::cos(ez));
    [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ]
}

/// `Quat.getEulerAngles()`: Euler angles in degrees of the quaternion `[x, y, z, w]`, with the
/// engine's gimbal-lock branches.
pub fn euler_from_quaternion(q: [f64; 4]) -> [f64; 3] {
    let [qx, qy, qz, qw] = q;
    let a2 = 2.0 * (qw * qy - qx * qz);
    let (x, y, z) = if a2 <= -GIMBAL {
        (2.0 * libm::atan2(qx, qw), -std::f64::consts::PI / 2.0, 0.0)
    } else if a2 >= GIMBAL {
        (2.0 * libm::atan2(qx, qw), std::f64::consts::PI / 2.0, 0.0)
    } else {
        general(q, a2)
    };
    [x * RAD_TO_DEG, y * RAD_TO_DEG, z * RAD_TO_DEG]
}

/// The threshold-free decomposition in radians (the engine's non-gimbal branch, with `a2`
/// clamped to `asin`'s domain).
fn general(q: [f64; 4], a2: f64) -> (f64, f64, f64) {
    let [qx, qy, qz, qw] = q;
    (
        libm::atan2(2.0 * (qw * qx + qy * qz), 1.0 - 2.0 * (qx * qx + qy * qy)),
        libm::asin(a2.clamp(-1.0, 1.0)),
        libm::atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz)),
    )
}

/// How far apart two rotations are: `1 − |a·b|` (0 for the same rotation, either sign).
fn distance(a: [f64; 4], b: [f64; 4]) -> f64 {
    1.0 - (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]).abs()
}

/// `q` scaled to unit length like the engine's `Quat.normalize` (a zero quaternion becomes the
/// identity; NaN components stay NaN).
pub fn normalize(q: [f64; 4]) -> [f64; 4] {
    let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if len == 0.0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let inv = 1.0 / len;
    [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv]
}

/// The Euler angles (degrees) to write for the rotation `q`: the engine's
/// [`euler_from_quaternion`] of the normalized quaternion, except near gimbal lock, where the
/// exact decomposition is used when it rebuilds `q` more closely than the engine's snapped one.
pub fn euler_for_quaternion(q: [f64; 4]) -> [f64; 3] {
    let q = normalize(q);
    let engine = euler_from_quaternion(q);
    let a2 = 2.0 * (q[3] * q[1] - q[0] * q[2]);
    if a2.abs() < GIMBAL {
        return engine;
    }
    let (x, y, z) = general(q, a2);
    let exact = [x * RAD_TO_DEG, y * RAD_TO_DEG, z * RAD_TO_DEG];
    let engine_error = distance(quaternion_from_euler(engine), q);
    let exact_error = distance(quaternion_from_euler(exact), q);
    if exact_error < engine_error {
        exact
    } else {
        engine
    }
}

/// The Euler angles (degrees) to write for the model's `f32` quaternion `q`: the fewest
/// significant digits (1 to 9, the same for all three) whose text reads back to exactly `q`
/// (or `−q`, the same rotation) through the reader's path (`f64` → `setFromEulerAngles` → `f32`),
/// so that a rotation read from a PlayCanvas file usually comes back with the file's own digits.
/// When no such text exists (a non-unit `q`, say), [`euler_for_quaternion`] rounded to `f32`.
pub fn euler_for_f32_quaternion(q: [f32; 4]) -> [f64; 3] {
    let exact = euler_for_quaternion(q.map(f64::from));
    let target = q.map(f32::to_bits);
    let negated = q.map(|x| (-x).to_bits());
    let hits = |e: [f64; 3]| {
        let back = quaternion_from_euler(e).map(|x| (x as f32).to_bits());
        back == target || back == negated
    };
    for digits in 1..=9 {
        let rounded = exact.map(|x| round_significant(x, digits));
        // `0` reads better than `-0`; keep the sign only when the bits need it.
        let unsigned = rounded.map(|x| if x == 0.0 { 0.0 } else { x });
        for e in [unsigned, rounded] {
            if hits(e) {
                return e;
            }
        }
    }
    exact.map(|x| x as f32 as f64)
}

/// `x` rounded to `digits` significant decimal digits.
fn round_significant(x: f64, digits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{:.*e}", digits - 1, x).parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64], tolerance: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
    }

    #[test]
    fn spec_b4_check_vector() {
        // (30, 50, 70) → (−0.041996, 0.468936, 0.412524, 0.779846).
        let q = quaternion_from_euler([30.0, 50.0, 70.0]);
        assert!(
            close(&q, &[-0.041996, 0.468936, 0.412524, 0.779846], 5e-7),
            "{q:?}"
        );
    }

    #[test]
    fn order_is_z_times_y_times_x() {
        // qZ(ez)·qY(ey)·qX(ex) with the Hamilton product.
        let axis = |i: usize, deg: f64| {
            let h = deg.to_radians() / 2.0;
            let mut q = [0.0, 0.0, 0.0, h.cos()];
            q[i] = h.sin();
            q
        };
        let mul = |a: [f64; 4], b: [f64; 4]| {
            [
                a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
                a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
                a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
            ]
        };
        for e in [
            [30.0, 50.0, 70.0],
            [-90.0, 12.5, 180.0],
            [33.0096, -74.4766, -123.4],
        ] {
            let expected = mul(mul(axis(2, e[2]), axis(1, e[1])), axis(0, e[0]));
            assert!(close(&quaternion_from_euler(e), &expected, 1e-15), "{e:?}");
        }
    }

    #[test]
    fn engine_inverse_round_trips_in_range_angles() {
        for e in [
            [30.0, 50.0, 70.0],
            [-86.6735, -80.0295, -2.40905],
            [0.0, 0.0, 0.0],
        ] {
            let back = euler_from_quaternion(quaternion_from_euler(e));
            assert!(close(&back, &e, 1e-9), "{e:?} → {back:?}");
        }
    }

    #[test]
    fn out_of_range_angles_give_the_same_rotation() {
        // ey outside [-90, 90]: another triple, the same rotation.
        for e in [
            [0.0, 120.0, 0.0],
            [10.4751, -178.712, -56.8042],
            [180.0, 95.4423, 0.0],
        ] {
            let q = quaternion_from_euler(e);
            let back = euler_for_quaternion(q);
            assert!(back[1].abs() <= 90.0, "{back:?}");
            assert!(distance(quaternion_from_euler(back), q) < 1e-15, "{e:?}");
        }
        let back = euler_from_quaternion(quaternion_from_euler([0.0, 120.0, 0.0]));
        assert!(close(&back, &[180.0, 60.0, 180.0], 1e-9), "{back:?}");
    }

    #[test]
    fn gimbal_lock_uses_the_closer_triple() {
        // Exactly at ey = 90: the engine's branch is exact.
        let q = quaternion_from_euler([180.0, 90.0, 0.0]);
        let e = euler_for_quaternion(q);
        assert!(distance(quaternion_from_euler(e), q) < 1e-15, "{e:?}");
        // 0.2° off the lock: the engine snaps (wrong by ~0.2°), the exact formula does not.
        let q = quaternion_from_euler([10.0, 89.8, 20.0]);
        let snapped = euler_from_quaternion(q);
        assert_eq!(snapped[1], 90.0);
        assert!(distance(quaternion_from_euler(snapped), q) > 1e-7);
        let e = euler_for_quaternion(q);
        assert!(distance(quaternion_from_euler(e), q) < 1e-12, "{e:?}");
    }

    #[test]
    fn f32_quaternions_get_the_shortest_text_that_reads_back() {
        let f32q = |e: [f64; 3]| quaternion_from_euler(e).map(|x| x as f32);
        for e in [
            [-90.0, 0.541414, 0.0],
            [33.0096, -74.4766, -123.4],
            [30.0, 50.0, 70.0],
        ] {
            assert_eq!(euler_for_f32_quaternion(f32q(e)), e);
        }
        // ez = -0.000912903° is below what an f32 quaternion resolves here: other digits, and
        // where no text gives the bits back, the f32-rounded inverse (one step off at most).
        let q = f32q([-89.999, -85.0, -0.000912903]);
        let e = euler_for_f32_quaternion(q);
        let back = f32q(e);
        let steps = back
            .iter()
            .zip(q)
            .map(|(a, b)| (a.to_bits() as i64 - b.to_bits() as i64).abs())
            .max()
            .unwrap();
        assert!(steps <= 1, "{e:?}: {back:?} vs {q:?}");
        // Out of range: the equivalent in-range triple, still exact in f32.
        let q = f32q([10.4751, -178.712, -56.8042]);
        let e = euler_for_f32_quaternion(q);
        let back = f32q(e);
        assert!(back == q || back == q.map(|x| -x), "{e:?}");
        assert!(e[1].abs() <= 90.0);
        // A non-unit quaternion has no exact text: the f32-rounded engine inverse.
        let e = euler_for_f32_quaternion([0.0, 0.0, 0.0, 2.0]);
        assert_eq!(e, [0.0; 3]);
        let e = euler_for_f32_quaternion([0.1, 0.2, 0.3, 2.0]);
        assert!(e.iter().all(|x| *x == *x as f32 as f64));
    }

    #[test]
    fn normalize_like_the_engine() {
        assert_eq!(normalize([0.0; 4]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(normalize([0.0, 0.0, 0.0, 5.0]), [0.0, 0.0, 0.0, 1.0]);
        let e = euler_for_quaternion([0.0, 0.0, 0.0, 2.0]);
        assert!(close(&e, &[0.0; 3], 0.0), "{e:?}");
    }
}
