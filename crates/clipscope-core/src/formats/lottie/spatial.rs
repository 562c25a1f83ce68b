//! Motion paths: position keyframes with spatial tangents `to` / `ti` (spec A8), evaluated like
//! lottie-web's `bez.buildBezierData` and the spatial branch of `interpolateValue`.
//!
//! The segment from value `s` to `e` is the cubic bezier `s, s + to, e + ti, e`. lottie-web
//! samples it at 150 evenly spaced parameters, sums the chords into a length table and moves
//! along it at constant speed: the eased progress `p` becomes the distance `p · L`, found in the
//! table and interpolated linearly between the two samples around it. Segments whose tangents lie
//! on the line from `s` to `e` are straightened at load ([`is_straight`]) and then interpolated
//! per component like any other property.
//!
//! One deliberate difference (spec A8.5): lottie-web jumps to the end point when an overshooting
//! ease gives `p < 0` (and stays there for the rest of the segment during forward playback);
//! clipscope clamps the distance to `[0, L]`, so such a segment waits at its start instead.

/// lottie-web's `defaultCurveSegments`: samples per motion-path segment.
pub const CURVE_SEGMENTS: usize = 150;

/// One sampled motion-path segment (lottie-web's `BezierData`).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionPath {
    /// The sample points, `dims` numbers each.
    points: Vec<Vec<f64>>,
    /// The chord from the previous sample to each sample (0 for the first).
    partial: Vec<f64>,
    /// The sum of the chords (`segmentLength`).
    length: f64,
}

impl MotionPath {
    /// Samples the segment from `s` to `e` with relative tangents `to` (leaving `s`) and `ti`
    /// (arriving at `e`), with lottie-web's sample count: 150, or 2 for a straight 2D segment.
    pub fn new(s: &[f64], e: &[f64], to: &[f64], ti: &[f64]) -> MotionPath {
        let get = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
        let straight_2d = s.len() == 2
            && (get(s, 0) != get(e, 0) || get(s, 1) != get(e, 1))
            && point_on_line_2d(
                get(s, 0),
                get(s, 1),
                get(e, 0),
                get(e, 1),
                get(s, 0) + get(to, 0),
                get(s, 1) + get(to, 1),
            )
            && point_on_line_2d(
                get(s, 0),
                get(s, 1),
                get(e, 0),
                get(e, 1),
                get(e, 0) + get(ti, 0),
                get(e, 1) + get(ti, 1),
            );
        let segments = if straight_2d { 2 } else { CURVE_SEGMENTS };
        let dims = to.len();
        let mut points: Vec<Vec<f64>> = Vec::with_capacity(segments);
        let mut partial = Vec::with_capacity(segments);
        let mut length = 0.0;
        for k in 0..segments {
            let perc = k as f64 / (segments - 1) as f64;
            let mut point = vec![0.0; dims];
            let mut distance = 0.0;
            for (i, p) in point.iter_mut().enumerate() {
                let (p1, p2) = (get(s, i), get(e, i));
                *p = (1.0 - perc).powi(3) * p1
                    + 3.0 * (1.0 - perc).powi(2) * perc * (p1 + get(to, i))
                    + 3.0 * (1.0 - perc) * perc.powi(2) * (p2 + get(ti, i))
                    + perc.powi(3) * p2;
                if let Some(last) = points.last() {
                    distance += (*p - last[i]).powi(2);
                }
            }
            let distance = distance.sqrt();
            length += distance;
            partial.push(distance);
            points.push(point);
        }
        MotionPath {
            points,
            partial,
            length,
        }
    }

    /// The first sample (the segment's start value).
    pub fn first(&self) -> &[f64] {
        &self.points[0]
    }

    /// The last sample (the segment's end value).
    pub fn last(&self) -> &[f64] {
        &self.points[self.points.len() - 1]
    }

    /// The point at eased progress `perc`: distance `perc · L` along the chords (clamped to the
    /// path), written into `out`.
    pub fn point_at(&self, perc: f64, out: &mut [f64]) {
        let distance = (self.length * perc).clamp(0.0, self.length);
        let last = self.points.len() - 1;
        let mut added = 0.0;
        for j in 0..=last {
            added += self.partial[j];
            if distance == 0.0 || perc <= 0.0 || j == last {
                copy(&self.points[j], out);
                return;
            }
            let next = self.partial[j + 1];
            if distance >= added && distance < added + next {
                let f = (distance - added) / next;
                for (k, o) in out.iter_mut().enumerate().take(self.points[j].len()) {
                    let (a, b) = (self.points[j][k], self.points[j + 1][k]);
                    *o = a + (b - a) * f;
                }
                return;
            }
        }
    }
}

/// Copies `from` into `out` as far as both reach.
fn copy(from: &[f64], out: &mut [f64]) {
    for (o, v) in out.iter_mut().zip(from) {
        *o = *v;
    }
}

/// lottie-web's load-time test (`KeyframedMultidimensionalProperty`): true when a segment's
/// tangents are to be dropped, because `s != e` and both `s + to` and `e + ti` lie on the line
/// from `s` to `e`, or because `s == e` and both tangents are zero.
pub fn is_straight(s: &[f64], e: &[f64], to: &[f64], ti: &[f64]) -> bool {
    let g = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(f64::NAN);
    let on_line = match s.len() {
        2 => {
            !(g(s, 0) == g(e, 0) && g(s, 1) == g(e, 1))
                && point_on_line_2d(
                    g(s, 0),
                    g(s, 1),
                    g(e, 0),
                    g(e, 1),
                    g(s, 0) + g(to, 0),
                    g(s, 1) + g(to, 1),
                )
                && point_on_line_2d(
                    g(s, 0),
                    g(s, 1),
                    g(e, 0),
                    g(e, 1),
                    g(e, 0) + g(ti, 0),
                    g(e, 1) + g(ti, 1),
                )
        }
        3 => {
            let start = [g(s, 0), g(s, 1), g(s, 2)];
            let end = [g(e, 0), g(e, 1), g(e, 2)];
            start != end
                && point_on_line_3d(
                    start,
                    end,
                    [g(s, 0) + g(to, 0), g(s, 1) + g(to, 1), g(s, 2) + g(to, 2)],
                )
                && point_on_line_3d(
                    start,
                    end,
                    [g(e, 0) + g(ti, 0), g(e, 1) + g(ti, 1), g(e, 2) + g(ti, 2)],
                )
        }
        _ => false,
    };
    let still = g(s, 0) == g(e, 0)
        && g(s, 1) == g(e, 1)
        && g(to, 0) == 0.0
        && g(to, 1) == 0.0
        && g(ti, 0) == 0.0
        && g(ti, 1) == 0.0
        && (s.len() == 2 || (g(s, 2) == g(e, 2) && g(to, 2) == 0.0 && g(ti, 2) == 0.0));
    on_line || still
}

/// `bez.pointOnLine2D`: the determinant test with tolerance 0.001.
fn point_on_line_2d(x1: f64, y1: f64, x2: f64, y2: f64, x3: f64, y3: f64) -> bool {
    let det = x1 * y2 + y1 * x3 + x2 * y3 - x3 * y2 - y3 * x1 - x2 * y1;
    det > -0.001 && det < 0.001
}

/// `bez.pointOnLine3D`: the 2D test when every z is 0, else the triangle-inequality test with
/// tolerance 0.0001.
fn point_on_line_3d(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> bool {
    if a[2] == 0.0 && b[2] == 0.0 && c[2] == 0.0 {
        return point_on_line_2d(a[0], a[1], b[0], b[1], c[0], c[1]);
    }
    let dist = |p: [f64; 3], q: [f64; 3]| {
        ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2) + (q[2] - p[2]).powi(2)).sqrt()
    };
    let (d1, d2, d3) = (dist(a, b), dist(a, c), dist(b, c));
    let diff = if d1 > d2 {
        if d1 > d3 { d1 - d2 - d3 } else { d3 - d2 - d1 }
    } else if d3 > d2 {
        d3 - d2 - d1
    } else {
        d2 - d1 - d3
    };
    diff > -0.0001 && diff < 0.0001
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_segments_are_detected() {
        assert!(is_straight(
            &[0.0, 0.0],
            &[90.0, 0.0],
            &[10.0, 0.0],
            &[-10.0, 0.0]
        ));
        assert!(!is_straight(
            &[0.0, 0.0],
            &[100.0, 100.0],
            &[50.0, 0.0],
            &[0.0, -50.0]
        ));
        assert!(is_straight(
            &[5.0, 5.0],
            &[5.0, 5.0],
            &[0.0, 0.0],
            &[0.0, 0.0]
        ));
        assert!(!is_straight(
            &[5.0, 5.0],
            &[5.0, 5.0],
            &[1.0, 0.0],
            &[0.0, 0.0]
        ));
        assert!(is_straight(
            &[0.0, 0.0, 0.0],
            &[10.0, 10.0, 10.0],
            &[1.0, 1.0, 1.0],
            &[-2.0, -2.0, -2.0]
        ));
    }

    #[test]
    fn ends_and_clamping() {
        let path = MotionPath::new(&[0.0, 0.0], &[100.0, 100.0], &[50.0, 0.0], &[0.0, -50.0]);
        assert_eq!(path.first(), &[0.0, 0.0]);
        assert_eq!(path.last(), &[100.0, 100.0]);
        let mut out = [0.0; 2];
        path.point_at(-0.2, &mut out);
        assert_eq!(out, [0.0, 0.0]);
        path.point_at(1.3, &mut out);
        assert_eq!(out, [100.0, 100.0]);
        assert!(path.length > 141.0);
        // A straight 2D segment keeps two samples.
        let line = MotionPath::new(&[0.0, 0.0], &[10.0, 0.0], &[1.0, 0.0], &[-1.0, 0.0]);
        line.point_at(0.25, &mut out);
        assert_eq!(out, [2.5, 0.0]);
    }
}
