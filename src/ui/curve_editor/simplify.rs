//! Dropping polyline points that do not change the drawn line by more than a fraction of a
//! pixel.
//!
//! The envelope decimates a curve in time only: it does not know that a rotation curve shown
//! next to a root translation of 250 m is squashed into two pixels of height, or that a held
//! value is a straight line. Once points are on screen, a cone-intersection pass keeps only the
//! points where the line must bend: from each kept point (the anchor) it tracks the range of
//! directions in which a straight segment passes within `tolerance` of every point since, and
//! ends the segment when that range becomes empty or the line turns back. Every dropped point
//! lies within `2 × tolerance` of the drawn segments, and a line that turns back (a spike up
//! and down within one pixel column) always ends a segment, so spikes keep their full height.
//! One pass, O(points).

use egui::{Pos2, Vec2};

/// Directions of segments from the anchor that pass within tolerance of every point so far:
/// the unit vectors between `lo` and `hi` (counter-clockwise in screen space), a cone narrower
/// than a half-turn around `base`.
struct Cone {
    base: Vec2,
    lo: Vec2,
    hi: Vec2,
    /// How far along `base` the line has come (it must not turn back).
    reach: f32,
}

/// The unit directions from the anchor tangent to the circle of radius `tolerance` around `v`
/// (`v` farther than `tolerance`): `v`'s direction turned clockwise and counter-clockwise.
fn tangents(v: Vec2, d: f32, tolerance: f32) -> (Vec2, Vec2) {
    let u = v / d;
    let s = (tolerance / d).min(1.0);
    let c = (1.0 - s * s).sqrt();
    (
        Vec2::new(u.x * c + u.y * s, u.y * c - u.x * s),
        Vec2::new(u.x * c - u.y * s, u.y * c + u.x * s),
    )
}

/// `b` turned counter-clockwise from `a` (positive), clockwise (negative) or aligned (zero).
fn turn(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

impl Cone {
    /// The cone of the first point `v` (relative to the anchor) farther than `tolerance`.
    fn new(v: Vec2, tolerance: f32) -> Option<Cone> {
        let d = v.length();
        (d > tolerance).then(|| {
            let (lo, hi) = tangents(v, d, tolerance);
            Cone {
                base: v / d,
                lo,
                hi,
                reach: d,
            }
        })
    }

    /// Narrows the cone to also pass near `v`; false (and unchanged) when it cannot.
    fn admit(&mut self, v: Vec2, tolerance: f32) -> bool {
        let along = v.dot(self.base);
        if along < self.reach - 1e-4 {
            return false;
        }
        // along >= reach > tolerance, so v is farther than the tolerance.
        let (v_lo, v_hi) = tangents(v, v.length(), tolerance);
        let lo = if turn(self.lo, v_lo) > 0.0 {
            v_lo
        } else {
            self.lo
        };
        let hi = if turn(self.hi, v_hi) < 0.0 {
            v_hi
        } else {
            self.hi
        };
        if turn(lo, hi) < 0.0 {
            return false;
        }
        (self.lo, self.hi, self.reach) = (lo, hi, along);
        true
    }
}

/// Appends to `out` the points of `points` that are needed to draw it within `2 × tolerance`
/// points. The first and last points are always kept.
pub(super) fn simplify(
    points: impl IntoIterator<Item = Pos2>,
    tolerance: f32,
    out: &mut Vec<Pos2>,
) {
    let mut points = points.into_iter();
    let Some(first) = points.next() else {
        return;
    };
    out.push(first);
    let mut anchor = first;
    let mut cone: Option<Cone> = None;
    // The last point the current segment covers, not yet emitted.
    let mut pending: Option<Pos2> = None;
    for p in points {
        match cone.as_mut().map(|c| c.admit(p - anchor, tolerance)) {
            Some(true) => {}
            Some(false) => {
                // The segment cannot reach p: it ends at the last point it covered.
                if let Some(end) = pending {
                    out.push(end);
                    anchor = end;
                }
                cone = Cone::new(p - anchor, tolerance);
            }
            None => cone = Cone::new(p - anchor, tolerance),
        }
        pending = Some(p);
    }
    if let Some(end) = pending {
        out.push(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn run(points: &[Pos2], tolerance: f32) -> Vec<Pos2> {
        let mut out = Vec::new();
        simplify(points.iter().copied(), tolerance, &mut out);
        out
    }

    /// Distance from `p` to segment `a`–`b`.
    fn distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_sq().max(1e-12)).clamp(0.0, 1.0);
        (a + ab * t - p).length()
    }

    #[test]
    fn straight_and_flat_runs_collapse() {
        let line: Vec<Pos2> = (0..1000).map(|i| pos2(i as f32, 0.5 * i as f32)).collect();
        assert_eq!(run(&line, 0.25), vec![line[0], line[999]]);
        let flat: Vec<Pos2> = (0..1000)
            .map(|i| pos2(i as f32, 10.0 + 0.1 * (i % 2) as f32))
            .collect();
        assert_eq!(run(&flat, 0.25).len(), 2);
    }

    #[test]
    fn spikes_within_one_column_keep_their_height() {
        let pts = vec![
            pos2(0.0, 50.0),
            pos2(10.0, 50.0),
            pos2(10.2, 5.0),
            pos2(10.4, 50.0),
            pos2(20.0, 50.0),
        ];
        let out = run(&pts, 0.25);
        assert!(out.contains(&pos2(10.2, 5.0)), "{out:?}");
        // Straight back-and-forth along one vertical line too.
        let pts = vec![
            pos2(5.0, 0.0),
            pos2(5.0, 10.0),
            pos2(5.0, 2.0),
            pos2(5.0, 8.0),
        ];
        let out = run(&pts, 0.25);
        assert!(out.contains(&pos2(5.0, 10.0)) && out.contains(&pos2(5.0, 2.0)));
    }

    #[test]
    fn every_dropped_point_stays_near_the_line() {
        let wave: Vec<Pos2> = (0..3000)
            .map(|i| {
                let x = i as f32 * 0.5;
                pos2(x, 100.0 + 40.0 * (x * 0.05).sin() + 3.0 * (x * 1.3).sin())
            })
            .collect();
        let out = run(&wave, 0.25);
        assert!(out.len() < wave.len(), "{} of {}", out.len(), wave.len());
        assert_eq!(out.first(), wave.first());
        assert_eq!(out.last(), wave.last());
        for p in &wave {
            let d = out
                .windows(2)
                .map(|w| distance(*p, w[0], w[1]))
                .fold(f32::MAX, f32::min);
            assert!(d <= 0.5 + 1e-3, "{p:?} is {d} away");
        }
    }
}
