//! Turning rotation keys the way tests edit a clip: a quaternion turned further about an axis.

/// `q` (x, y, z, w) turned `degrees` further about the x axis of its parent (`r · q`, `r` the
/// turn).
pub fn turn_x(q: [f64; 4], degrees: f64) -> [f64; 4] {
    let (s, c) = (degrees / 2.0).to_radians().sin_cos();
    let [x, y, z, w] = q;
    [c * x + s * w, c * y - s * z, c * z + s * y, c * w - s * x]
}

#[cfg(test)]
mod tests {
    use super::turn_x;

    #[test]
    fn turns_add_up() {
        let q = turn_x(turn_x([0.0, 0.0, 0.0, 1.0], 30.0), 60.0);
        let half = 45f64.to_radians();
        assert!((q[0] - half.sin()).abs() < 1e-12 && (q[3] - half.cos()).abs() < 1e-12);
    }
}
