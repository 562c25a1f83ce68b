//! A shape layer's items painted at one frame, the way lottie-web's shape elements do.
//!
//! Items are evaluated in two passes. The geometry pass ([`Geo`]) turns every shape into a
//! path in its group's space, with rounded corners applied from the `rd` items after it (in
//! its group and the groups around it), then each trim `tm` cuts the paths of the items
//! before it (nested groups included; all together, or each on its own for `m` 2), and each
//! repeater `rp` copies the items before it. The paint pass walks each group from its last
//! item to its first (the first item is on top): a style (`fl`, `st`, `gf`, `gs`) paints every
//! path of the items before it in its group, nested groups' paths carried into the style's
//! space, and a nested group paints its own styles above.

use kurbo::{Affine as KAffine, BezPath};

use super::geometry::{bez, contour, round_corners, to_picture, trim, trim_each, trim_ranges};
use super::items::{Colour, FillStyle, Gradient, Item, StrokeStyle};
use crate::model::picture::{self, Affine, Fill, Node, Paint, Stop, Stroke};

/// How shape items are painted at one frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Painter {
    /// The frame of the composition holding the layer.
    pub frame: f64,
    /// What solid colours are divided by (255 for files older than Bodymovin 4.1.9, whose
    /// colours lottie-web rescales).
    pub colour_scale: f64,
}

/// One evaluated item of a group.
enum Geo<'a> {
    /// Paths in the group's space.
    Paths(Vec<BezPath>),
    /// A nested group: its transform into this group, its opacity, its items.
    Group(KAffine, f64, Vec<Geo<'a>>),
    /// A style.
    Fill(&'a FillStyle),
    /// A stroke.
    Stroke(&'a StrokeStyle),
}

impl Painter {
    /// Paints `items` (a layer's `shapes`) into `out`, `to_picture` mapping the layer's space
    /// to the picture.
    pub(crate) fn paint(&self, items: &[Item], to_picture: &Affine, out: &mut Vec<Node>) {
        let geo = self.geometry(items, 0.0);
        self.paint_group(&geo, to_picture, 1.0, out);
    }

    /// The geometry pass over one group's `items`, with the corner radius of the groups
    /// around it.
    fn geometry<'a>(&self, items: &'a [Item], outer_radius: f64) -> Vec<Geo<'a>> {
        let f = self.frame;
        // The corner radius each item sees: the last `rd` after it, else the outer one.
        let mut radius = vec![outer_radius; items.len()];
        let mut r = outer_radius;
        for (i, item) in items.iter().enumerate().rev() {
            radius[i] = r;
            if let Item::Round(p) = item {
                r = p.scalar(f);
            }
        }
        let mut geo: Vec<Geo<'a>> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Item::Group(inner, tr) => {
                    let (m, o) = tr.at(f);
                    geo.push(Geo::Group(affine(&m), o, self.geometry(inner, radius[i])));
                }
                Item::Shape(g) => {
                    let c = contour(g, f);
                    let c = if radius[i] > 0.0 {
                        round_corners(&c, radius[i])
                    } else {
                        c
                    };
                    geo.push(Geo::Paths(vec![bez(&c)]));
                }
                Item::Fill(s) => geo.push(Geo::Fill(s)),
                Item::Stroke(s) => geo.push(Geo::Stroke(s)),
                Item::Trim(t) => {
                    let ranges =
                        trim_ranges(t.start.scalar(f), t.end.scalar(f), t.offset.scalar(f));
                    let mut paths: Vec<&mut BezPath> = Vec::new();
                    collect_mut(&mut geo, &mut paths);
                    let owned: Vec<BezPath> = paths.iter().map(|p| (*p).clone()).collect();
                    let cut = if t.individually {
                        trim_each(&owned, &ranges)
                    } else {
                        trim(&owned, &ranges)
                    };
                    for (p, c) in paths.into_iter().zip(cut) {
                        *p = c;
                    }
                }
                Item::Repeater(rp) => {
                    let copies = rp.copies.scalar(f).round().clamp(0.0, 1000.0) as usize;
                    let offset = rp.offset.scalar(f);
                    let before = std::mem::take(&mut geo);
                    let (so, eo) = (
                        rp.start_opacity.scalar(f) / 100.0,
                        rp.end_opacity.scalar(f) / 100.0,
                    );
                    let mut groups = Vec::with_capacity(copies);
                    for k in 0..copies {
                        let step = offset + k as f64;
                        let m = repeat_matrix(&rp.transform, f, step);
                        let o = if copies > 1 {
                            so + (eo - so) * k as f64 / (copies - 1) as f64
                        } else {
                            so
                        };
                        groups.push(Geo::Group(affine(&m), o, self.regeometry(&before)));
                    }
                    // The first entry is on top: below-mode copies stack under the original.
                    if rp.above {
                        groups.reverse();
                    }
                    geo = groups;
                }
                Item::Round(_) | Item::Skipped(..) => {}
            }
        }
        geo
    }

    /// A copy of evaluated geometry (repeaters copy what comes before them).
    fn regeometry<'a>(&self, geo: &[Geo<'a>]) -> Vec<Geo<'a>> {
        geo.iter()
            .map(|g| match g {
                Geo::Paths(p) => Geo::Paths(p.clone()),
                Geo::Group(m, o, inner) => Geo::Group(*m, *o, self.regeometry(inner)),
                Geo::Fill(s) => Geo::Fill(s),
                Geo::Stroke(s) => Geo::Stroke(s),
            })
            .collect()
    }

    /// The paint pass over one group.
    fn paint_group(&self, geo: &[Geo<'_>], to_picture: &Affine, opacity: f64, out: &mut Vec<Node>) {
        for (i, g) in geo.iter().enumerate().rev() {
            match g {
                Geo::Group(m, o, inner) => {
                    let to = picture::multiply(to_picture, &from_kurbo(m));
                    self.paint_group(inner, &to, opacity * o, out);
                }
                Geo::Fill(style) => {
                    let path = gather(&geo[..i]);
                    if let Some(node) = self.fill(style, path, to_picture, opacity) {
                        out.push(node);
                    }
                }
                Geo::Stroke(style) => {
                    let path = gather(&geo[..i]);
                    if let Some(node) = self.stroke(style, path, to_picture, opacity) {
                        out.push(node);
                    }
                }
                Geo::Paths(_) => {}
            }
        }
    }

    /// A fill node.
    fn fill(&self, s: &FillStyle, path: BezPath, to: &Affine, opacity: f64) -> Option<Node> {
        let o = (s.opacity.scalar(self.frame) / 100.0).clamp(0.0, 1.0) * opacity;
        if path.elements().is_empty() || o <= 0.0 {
            return None;
        }
        Some(Node::Fill(Fill {
            path: to_picture(&path),
            transform: *to,
            paint: self.paint_of(&s.colour),
            opacity: o,
            rule: s.rule,
        }))
    }

    /// A stroke node.
    fn stroke(&self, s: &StrokeStyle, path: BezPath, to: &Affine, opacity: f64) -> Option<Node> {
        let f = self.frame;
        let o = (s.opacity.scalar(f) / 100.0).clamp(0.0, 1.0) * opacity;
        let width = s.width.scalar(f);
        if path.elements().is_empty() || o <= 0.0 || width <= 0.0 {
            return None;
        }
        let mut dashes: Vec<f64> = s.dashes.iter().map(|d| d.scalar(f).max(0.0)).collect();
        if dashes.iter().all(|d| *d == 0.0) {
            dashes.clear();
        } else if dashes.len() % 2 == 1 {
            let again = dashes.clone();
            dashes.extend(again);
        }
        Some(Node::Stroke(Stroke {
            path: to_picture(&path),
            transform: *to,
            paint: self.paint_of(&s.colour),
            opacity: o,
            width,
            cap: s.cap,
            join: s.join,
            miter_limit: s.miter,
            dashes,
            dash_offset: s.dash_offset.as_ref().map_or(0.0, |p| p.scalar(f)),
        }))
    }

    /// A style's paint at the frame.
    fn paint_of(&self, c: &Colour) -> Paint {
        match c {
            Colour::Solid(p) => {
                let v = p.at(self.frame);
                let c = |k: usize| {
                    (v.get(k).copied().unwrap_or(0.0) / self.colour_scale).clamp(0.0, 1.0)
                };
                Paint::Solid([c(0), c(1), c(2), 1.0])
            }
            Colour::Gradient(g) => gradient(g, self.frame),
        }
    }
}

/// Every path of `geo` (nested groups carried into its space) as one path.
fn gather(geo: &[Geo<'_>]) -> BezPath {
    let mut out = BezPath::new();
    gather_into(geo, KAffine::IDENTITY, &mut out);
    out
}

fn gather_into(geo: &[Geo<'_>], m: KAffine, out: &mut BezPath) {
    for g in geo {
        match g {
            Geo::Paths(paths) => {
                for p in paths {
                    out.extend((m * p.clone()).elements().iter().copied());
                }
            }
            Geo::Group(inner_m, _, inner) => gather_into(inner, m * *inner_m, out),
            Geo::Fill(_) | Geo::Stroke(_) => {}
        }
    }
}

/// Mutable references to every path of `geo`, nested groups included.
fn collect_mut<'g>(geo: &'g mut [Geo<'_>], out: &mut Vec<&'g mut BezPath>) {
    for g in geo {
        match g {
            Geo::Paths(paths) => out.extend(paths.iter_mut()),
            Geo::Group(_, _, inner) => collect_mut(inner, out),
            Geo::Fill(_) | Geo::Stroke(_) => {}
        }
    }
}

/// A repeater copy's matrix: the repeater transform applied `step` times (position and
/// rotation times `step`, scale to the power `step`, about the anchor).
fn repeat_matrix(t: &super::items::ShapeTransform, frame: f64, step: f64) -> Affine {
    use crate::formats::lottie::matrix::{Transform2D, local_matrix};
    let a = t.anchor.pair(frame);
    let p = t.position.pair(frame);
    let s = t.scale.pair(frame);
    let tr = Transform2D {
        anchor: a,
        position: [a[0] + p[0] * step, a[1] + p[1] * step],
        scale: [
            100.0 * (s[0] / 100.0).powf(step),
            100.0 * (s[1] / 100.0).powf(step),
        ],
        rotation: t.rotation.scalar(frame) * step,
        skew: 0.0,
        skew_axis: 0.0,
    };
    local_matrix(&tr)
}

/// A gradient's paint at `frame`: colour stops merged with the opacity stops.
fn gradient(g: &Gradient, frame: f64) -> Paint {
    let v = g.stops.at(frame);
    let n = g.count.min(v.len() / 4);
    let colours: Vec<(f64, [f64; 3])> = (0..n)
        .map(|k| (v[4 * k], [v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]]))
        .collect();
    let alphas: Vec<(f64, f64)> = v[4 * n..].chunks_exact(2).map(|c| (c[0], c[1])).collect();
    let colour_at = |x: f64| -> [f64; 3] { lerp_stops(&colours, x) };
    let alpha_at = |x: f64| -> f64 {
        if alphas.is_empty() {
            1.0
        } else {
            lerp_stops(
                &alphas.iter().map(|(o, a)| (*o, [*a])).collect::<Vec<_>>(),
                x,
            )[0]
        }
    };
    let mut offsets: Vec<f64> = colours
        .iter()
        .map(|c| c.0)
        .chain(alphas.iter().map(|a| a.0))
        .collect();
    offsets.sort_by(f64::total_cmp);
    offsets.dedup();
    let stops: Vec<Stop> = offsets
        .iter()
        .map(|&x| {
            let c = colour_at(x);
            (x.clamp(0.0, 1.0), [c[0], c[1], c[2], alpha_at(x)])
        })
        .collect();
    let start = g.start.pair(frame);
    let end = g.end.pair(frame);
    if !g.radial {
        return Paint::Linear { start, end, stops };
    }
    let (dx, dy) = (end[0] - start[0], end[1] - start[1]);
    let radius = (dx * dx + dy * dy).sqrt();
    let h = (g.highlight_length.scalar(frame) / 100.0).clamp(-0.99, 0.99);
    let angle = g.highlight_angle.scalar(frame).to_radians() + dy.atan2(dx);
    let focus = [
        start[0] + angle.cos() * h * radius,
        start[1] + angle.sin() * h * radius,
    ];
    Paint::Radial {
        centre: start,
        radius,
        focus,
        stops,
    }
}

/// The value of piecewise-linear stops at `x` (held beyond the ends).
fn lerp_stops<const N: usize>(stops: &[(f64, [f64; N])], x: f64) -> [f64; N] {
    let Some(first) = stops.first() else {
        return [0.0; N];
    };
    if x <= first.0 {
        return first.1;
    }
    for w in stops.windows(2) {
        let ((a, va), (b, vb)) = (w[0], w[1]);
        if x <= b {
            let t = if b > a { (x - a) / (b - a) } else { 1.0 };
            return std::array::from_fn(|k| va[k] + (vb[k] - va[k]) * t);
        }
    }
    stops[stops.len() - 1].1
}

/// A picture affine as kurbo's.
fn affine(m: &Affine) -> KAffine {
    KAffine::new(*m)
}

/// kurbo's affine as a picture affine.
fn from_kurbo(m: &KAffine) -> Affine {
    m.as_coeffs()
}
