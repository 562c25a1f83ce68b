//! Shape geometry at a frame, as lottie-web builds it: rectangles (`RectShapeProperty`),
//! ellipses (`EllShapeProperty`), polystars (`StarShapeProperty`) and paths as vertex lists
//! with relative tangents, then rounded corners (`RoundCornersModifier`), trim paths
//! (`TrimModifier`, lengths measured with kurbo) and the conversion to a picture path.

use kurbo::{BezPath, ParamCurve, ParamCurveArclen, PathSeg};

use super::items::{Geometry, Star};
use super::prop::Vertices;
use crate::model::picture::{Path, Segment};

/// lottie-web's `roundCorner` (the cubic circle constant it uses).
const ROUND: f64 = 0.5519;

/// One subpath: vertices `(v, in, out)` with tangents relative to `v`, and whether it closes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Contour {
    pub vertices: Vertices,
    pub closed: bool,
}

/// The contour of `geometry` at `frame`.
pub(crate) fn contour(geometry: &Geometry, frame: f64) -> Contour {
    match geometry {
        Geometry::Path(p) => Contour {
            vertices: p.at(frame),
            closed: p.closed,
        },
        Geometry::Rect(p, s, r, reversed) => {
            rect(p.pair(frame), s.pair(frame), r.scalar(frame), *reversed)
        }
        Geometry::Ellipse(p, s, reversed) => ellipse(p.pair(frame), s.pair(frame), *reversed),
        Geometry::Star(star) => self::star(star, frame),
    }
}

/// Absolute control points, in the order of lottie-web's `setTripleAt` (vertex, out tangent,
/// in tangent), to the relative `(v, in, out)` triple.
fn triple(v: [f64; 2], o: [f64; 2], i: [f64; 2]) -> [[f64; 2]; 3] {
    [v, [i[0] - v[0], i[1] - v[1]], [o[0] - v[0], o[1] - v[1]]]
}

/// `RectShapeProperty.convertRectToPath`.
fn rect(p: [f64; 2], s: [f64; 2], r: f64, reversed: bool) -> Contour {
    let (hw, hh) = (s[0] / 2.0, s[1] / 2.0);
    let round = r.min(hw).min(hh).max(0.0);
    let cr = round * (1.0 - ROUND);
    let (x0, x1, y0, y1) = (p[0] - hw, p[0] + hw, p[1] - hh, p[1] + hh);
    let mut v: Vertices = Vec::new();
    if round == 0.0 {
        let pts = if reversed {
            [[x1, y0], [x0, y0], [x0, y1], [x1, y1]]
        } else {
            [[x1, y0], [x1, y1], [x0, y1], [x0, y0]]
        };
        v.extend(pts.iter().map(|q| [*q, [0.0; 2], [0.0; 2]]));
    } else if !reversed {
        v.push(triple([x1, y0 + round], [x1, y0 + round], [x1, y0 + cr]));
        v.push(triple([x1, y1 - round], [x1, y1 - cr], [x1, y1 - round]));
        v.push(triple([x1 - round, y1], [x1 - round, y1], [x1 - cr, y1]));
        v.push(triple([x0 + round, y1], [x0 + cr, y1], [x0 + round, y1]));
        v.push(triple([x0, y1 - round], [x0, y1 - round], [x0, y1 - cr]));
        v.push(triple([x0, y0 + round], [x0, y0 + cr], [x0, y0 + round]));
        v.push(triple([x0 + round, y0], [x0 + round, y0], [x0 + cr, y0]));
        v.push(triple([x1 - round, y0], [x1 - cr, y0], [x1 - round, y0]));
    } else {
        v.push(triple([x1, y0 + round], [x1, y0 + cr], [x1, y0 + round]));
        v.push(triple([x1 - round, y0], [x1 - round, y0], [x1 - cr, y0]));
        v.push(triple([x0 + round, y0], [x0 + cr, y0], [x0 + round, y0]));
        v.push(triple([x0, y0 + round], [x0, y0 + round], [x0, y0 + cr]));
        v.push(triple([x0, y1 - round], [x0, y1 - cr], [x0, y1 - round]));
        v.push(triple([x0 + round, y1], [x0 + round, y1], [x0 + cr, y1]));
        v.push(triple([x1 - round, y1], [x1 - cr, y1], [x1 - round, y1]));
        v.push(triple([x1, y1 - round], [x1, y1 - round], [x1, y1 - cr]));
    }
    Contour {
        vertices: v,
        closed: true,
    }
}

/// `EllShapeProperty.convertEllToPath`: four vertices from the top, clockwise unless reversed.
fn ellipse(p: [f64; 2], s: [f64; 2], reversed: bool) -> Contour {
    let (rx, ry) = (s[0] / 2.0, s[1] / 2.0);
    let (cx, cy) = (rx * ROUND, ry * ROUND);
    let d = if reversed { -1.0 } else { 1.0 };
    let v = vec![
        [[p[0], p[1] - ry], [-cx * d, 0.0], [cx * d, 0.0]],
        [[p[0] + rx * d, p[1]], [0.0, -cy], [0.0, cy]],
        [[p[0], p[1] + ry], [cx * d, 0.0], [-cx * d, 0.0]],
        [[p[0] - rx * d, p[1]], [0.0, cy], [0.0, -cy]],
    ];
    Contour {
        vertices: v,
        closed: true,
    }
}

/// `StarShapeProperty.convertStarToPath` / `convertPolygonToPath`.
fn star(s: &Star, frame: f64) -> Contour {
    let points = s.points.scalar(frame).floor().max(0.0);
    let p = s.position.pair(frame);
    let dir = if s.reversed { -1.0 } else { 1.0 };
    let (or, os) = (
        s.outer_radius.scalar(frame),
        s.outer_roundness.scalar(frame) / 100.0,
    );
    let (ir, is) = (
        s.inner_radius.scalar(frame),
        s.inner_roundness.scalar(frame) / 100.0,
    );
    let n = if s.polygon { points } else { points * 2.0 };
    if n < 1.0 || !n.is_finite() || n > 10_000.0 {
        return Contour::default();
    }
    let angle = std::f64::consts::TAU / n;
    let mut current = -std::f64::consts::FRAC_PI_2 + s.rotation.scalar(frame).to_radians();
    let mut long = true;
    let mut v = Vec::with_capacity(n as usize);
    for _ in 0..n as usize {
        let (rad, round) = if long || s.polygon {
            (or, os)
        } else {
            (ir, is)
        };
        let perim = if s.polygon {
            std::f64::consts::TAU * rad / (n * 4.0)
        } else {
            std::f64::consts::TAU * rad / (n * 2.0)
        };
        let (x, y) = (rad * current.cos(), rad * current.sin());
        let len = (x * x + y * y).sqrt();
        let (ox, oy) = if len == 0.0 {
            (0.0, 0.0)
        } else {
            (y / len, -x / len)
        };
        let k = perim * round * dir;
        v.push([[x + p[0], y + p[1]], [ox * k, oy * k], [-ox * k, -oy * k]]);
        long = !long;
        current += angle * dir;
    }
    Contour {
        vertices: v,
        closed: true,
    }
}

/// `RoundCornersModifier.processPath`: each corner without tangents replaced by an arc of
/// radius `r` (at most half of each adjacent edge).
pub(crate) fn round_corners(c: &Contour, r: f64) -> Contour {
    if r <= 0.0 {
        return c.clone();
    }
    let n = c.vertices.len();
    let mut out = Vec::with_capacity(n * 2);
    for i in 0..n {
        let [v, vi, vo] = c.vertices[i];
        let sharp = vi == [0.0; 2] && vo == [0.0; 2];
        if !sharp || (!c.closed && (i == 0 || i == n - 1)) {
            out.push(c.vertices[i]);
            continue;
        }
        let prev = c.vertices[if i == 0 { n - 1 } else { i - 1 }][0];
        let next = c.vertices[if i == n - 1 { 0 } else { i + 1 }][0];
        for (other, first) in [(prev, true), (next, false)] {
            let d = ((v[0] - other[0]).powi(2) + (v[1] - other[1]).powi(2)).sqrt();
            let perc = if d > 0.0 { (d / 2.0).min(r) / d } else { 0.0 };
            let p = [
                v[0] + (other[0] - v[0]) * perc,
                v[1] + (other[1] - v[1]) * perc,
            ];
            let toward = [-(p[0] - v[0]) * ROUND, -(p[1] - v[1]) * ROUND];
            if first {
                out.push([p, [0.0; 2], toward]);
            } else {
                out.push([p, toward, [0.0; 2]]);
            }
        }
    }
    Contour {
        vertices: out,
        closed: c.closed,
    }
}

/// The contour as a kurbo path.
pub(crate) fn bez(c: &Contour) -> BezPath {
    let mut path = BezPath::new();
    let n = c.vertices.len();
    if n == 0 {
        return path;
    }
    let [x, y] = c.vertices[0][0];
    path.move_to((x, y));
    let segments = if c.closed { n } else { n - 1 };
    for k in 0..segments {
        let [a, _, ao] = c.vertices[k];
        let [b, bi, _] = c.vertices[(k + 1) % n];
        path.curve_to(
            (a[0] + ao[0], a[1] + ao[1]),
            (b[0] + bi[0], b[1] + bi[1]),
            (b[0], b[1]),
        );
    }
    if c.closed {
        path.close_path();
    }
    path
}

/// A kurbo path as a picture path.
pub(crate) fn to_picture(path: &BezPath) -> Path {
    use kurbo::PathEl;
    let p = |q: kurbo::Point| [q.x, q.y];
    Path {
        segments: path
            .elements()
            .iter()
            .map(|e| match *e {
                PathEl::MoveTo(a) => Segment::Move(p(a)),
                PathEl::LineTo(a) => Segment::Line(p(a)),
                PathEl::QuadTo(a, b) => {
                    let q = kurbo::QuadBez::new(kurbo::Point::ZERO, a, b).raise();
                    Segment::Cubic(p(q.p1), p(q.p2), p(b))
                }
                PathEl::CurveTo(a, b, c) => Segment::Cubic(p(a), p(b), p(c)),
                PathEl::ClosePath => Segment::Close,
            })
            .collect(),
    }
}

/// Accuracy of arc lengths for trimming, in px.
const ARCLEN_ACCURACY: f64 = 1e-3;

/// `TrimModifier`'s range: start and end (percent) and offset (degrees) to the kept
/// fractions of the length, as up to two `[from, to]` ranges in 0..=1.
pub(crate) fn trim_ranges(start: f64, end: f64, offset: f64) -> Vec<[f64; 2]> {
    let o = (offset % 360.0) / 360.0;
    let (mut s, mut e) = (start / 100.0 + o, end / 100.0 + o);
    if s > e {
        std::mem::swap(&mut s, &mut e);
    }
    s = (s * 10000.0).round() * 0.0001;
    e = (e * 10000.0).round() * 0.0001;
    if (e - s) >= 1.0 - 1e-9 {
        return vec![[0.0, 1.0]];
    }
    if s == e {
        return Vec::new();
    }
    // Bring s into 0..1.
    let shift = s.floor();
    let (s, e) = (s - shift, e - shift);
    if e <= 1.0 {
        vec![[s, e]]
    } else {
        vec![[s, 1.0], [0.0, e - 1.0]]
    }
}

/// The parts of `paths` (measured together as one length) within `ranges` of the total.
pub(crate) fn trim(paths: &[BezPath], ranges: &[[f64; 2]]) -> Vec<BezPath> {
    let segs: Vec<Vec<PathSeg>> = paths.iter().map(|p| p.segments().collect()).collect();
    let lens: Vec<Vec<f64>> = segs
        .iter()
        .map(|s| s.iter().map(|g| g.arclen(ARCLEN_ACCURACY)).collect())
        .collect();
    let total: f64 = lens.iter().flatten().sum();
    let mut out: Vec<BezPath> = paths.iter().map(|_| BezPath::new()).collect();
    if total <= 0.0 {
        return out;
    }
    for r in ranges {
        let (from, to) = (r[0] * total, r[1] * total);
        let mut at = 0.0;
        for (p, (segs, lens)) in segs.iter().zip(&lens).enumerate() {
            // Whether the last segment was kept up to its end (the next one continues it).
            let mut joined = false;
            for (seg, len) in segs.iter().zip(lens) {
                let (a, b) = (at, at + len);
                at = b;
                if b <= from || a >= to || *len <= 0.0 {
                    joined = false;
                    continue;
                }
                let t0 = if from > a {
                    seg.inv_arclen(from - a, ARCLEN_ACCURACY)
                } else {
                    0.0
                };
                let t1 = if to < b {
                    seg.inv_arclen(to - a, ARCLEN_ACCURACY)
                } else {
                    1.0
                };
                let part = seg.subsegment(t0..t1);
                if !joined || t0 > 0.0 {
                    out[p].move_to(part.start());
                }
                match part {
                    PathSeg::Line(l) => out[p].line_to(l.p1),
                    PathSeg::Quad(q) => out[p].quad_to(q.p1, q.p2),
                    PathSeg::Cubic(c) => out[p].curve_to(c.p1, c.p2, c.p3),
                }
                joined = t1 >= 1.0;
            }
        }
    }
    out
}

/// `trim` for each path on its own.
pub(crate) fn trim_each(paths: &[BezPath], ranges: &[[f64; 2]]) -> Vec<BezPath> {
    paths
        .iter()
        .flat_map(|p| trim(std::slice::from_ref(p), ranges))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_ranges_wrap_and_swap() {
        assert_eq!(trim_ranges(0.0, 100.0, 0.0), vec![[0.0, 1.0]]);
        assert_eq!(trim_ranges(50.0, 25.0, 0.0), vec![[0.25, 0.5]]);
        assert_eq!(trim_ranges(50.0, 100.0, 180.0), vec![[0.0, 0.5]]);
        assert_eq!(
            trim_ranges(25.0, 100.0, 180.0),
            vec![[0.75, 1.0], [0.0, 0.5]]
        );
        assert!(trim_ranges(30.0, 30.0, 0.0).is_empty());
    }

    #[test]
    fn half_a_square_is_two_sides() {
        let c = rect([0.0, 0.0], [10.0, 10.0], 0.0, false);
        let p = bez(&c);
        let t = trim(&[p], &[[0.0, 0.5]]);
        let len: f64 = t[0].segments().map(|s| s.arclen(1e-6)).sum();
        assert!((len - 20.0).abs() < 1e-6, "{len}");
    }

    #[test]
    fn a_fully_rounded_square_is_a_circle_either_way_round() {
        use kurbo::Shape as _;
        for reversed in [false, true] {
            let p = bez(&rect([3.0, -2.0], [10.0, 10.0], 7.0, reversed));
            let area = p.area().abs();
            let circle = std::f64::consts::PI * 25.0;
            assert!((area / circle - 1.0).abs() < 2e-3, "{area} vs {circle}");
            let b = p.bounding_box();
            assert!(
                (b.x0 + 2.0).abs() < 1e-9 && (b.y1 - 3.0).abs() < 1e-9,
                "{b:?}"
            );
        }
    }

    #[test]
    fn ellipse_starts_at_the_top_and_runs_clockwise() {
        let c = ellipse([0.0, 0.0], [20.0, 10.0], false);
        assert_eq!(c.vertices[0][0], [0.0, -5.0]);
        assert_eq!(c.vertices[1][0], [10.0, 0.0]);
    }
}
