//! A shape layer's outline in layer space: the convex hull of the points its shapes draw, as
//! lottie-web builds them — path vertices and points along each bezier segment (`sh`), the
//! corners of rectangles (`rc`) and the four bezier quarters of ellipses (`el`) — through the
//! shape groups' transforms (`tr`), over every keyframe of animated paths, sizes, positions
//! and group transforms.
//!
//! A reduction measures a layer's error at these hull corners: the error of a point is convex
//! in the point, so the hull's corners bound every drawn point inside it, and they are the
//! points the player draws rather than the corners of a bounding box around them.

use glam::{DAffine2, DVec2};
use serde_json::Value;

/// Points sampled along each bezier segment, beyond its ends (`u = k / SAMPLES`).
const SAMPLES: usize = 8;
/// lottie-web's ellipse handle length (a quarter circle's cubic).
const ROUNDNESS: f64 = 0.5519;
/// The most shape items visited in one layer (a guard against pathological files).
const MAX_ITEMS: usize = 10_000;

/// The convex hull (counter-clockwise, no repeated point) of everything `shapes` draws, or
/// an empty list when nothing finite is drawn.
pub(crate) fn shape_outline(shapes: &Value) -> Vec<[f64; 2]> {
    let mut budget = MAX_ITEMS;
    let points = items_points(
        shapes.as_array().map_or(&[][..], Vec::as_slice),
        &mut budget,
    );
    hull(points)
}

/// The points drawn by one list of shape items (in the list's own space).
fn items_points(items: &[Value], budget: &mut usize) -> Vec<DVec2> {
    let mut out = Vec::new();
    for item in items {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        match item.get("ty").and_then(Value::as_str) {
            Some("gr") => {
                let inner = item.get("it").and_then(Value::as_array);
                let inner = inner.map_or(&[][..], Vec::as_slice);
                let local = hull(items_points(inner, budget));
                for t in group_transforms(inner) {
                    out.extend(local.iter().map(|&p| t.transform_point2(DVec2::from(p))));
                }
            }
            Some("rc") => {
                for p in values(item.get("p")) {
                    for s in values(item.get("s")) {
                        let (c, h) = (pair(&p, 0.0), pair(&s, 0.0) / 2.0);
                        for d in [h, DVec2::new(-h.x, h.y), -h, DVec2::new(h.x, -h.y)] {
                            out.push(c + d);
                        }
                    }
                }
            }
            Some("el") => {
                for p in values(item.get("p")) {
                    for s in values(item.get("s")) {
                        ellipse(pair(&p, 0.0), pair(&s, 0.0) / 2.0, &mut out);
                    }
                }
            }
            Some("sh") => {
                for path in paths(item.get("ks")) {
                    path_points(path, &mut out);
                }
            }
            _ => {}
        }
    }
    out.retain(|p| p.is_finite());
    out
}

/// Every value a property takes at its keys: its static value, or each keyframe's start
/// (`s`) and end (`e`) value.
fn values(prop: Option<&Value>) -> Vec<Vec<f64>> {
    let Some(k) = prop.and_then(|p| p.get("k")) else {
        return Vec::new();
    };
    let number_list = |v: &Value| -> Option<Vec<f64>> {
        match v {
            Value::Array(a) => a.iter().map(Value::as_f64).collect(),
            v => Some(vec![v.as_f64()?]),
        }
    };
    match k.as_array() {
        Some(keys) if keys.first().is_some_and(Value::is_object) => keys
            .iter()
            .flat_map(|key| [key.get("s"), key.get("e")])
            .flatten()
            .filter_map(number_list)
            .collect(),
        _ => number_list(k).into_iter().collect(),
    }
}

/// The first two numbers of `v` (`fill` for a missing one).
fn pair(v: &[f64], fill: f64) -> DVec2 {
    DVec2::new(
        v.first().copied().unwrap_or(fill),
        v.get(1).copied().unwrap_or(fill),
    )
}

/// Every transform a group's `tr` item takes at its keys: `p + R(r)·S(s/100)·(x − a)`, with
/// the n-th key value of each property together (the last one of a property with fewer).
fn group_transforms(items: &[Value]) -> Vec<DAffine2> {
    let Some(tr) = items
        .iter()
        .find(|i| i.get("ty").and_then(Value::as_str) == Some("tr"))
    else {
        return vec![DAffine2::IDENTITY];
    };
    let (p, a, s, r) = (
        values(tr.get("p")),
        values(tr.get("a")),
        values(tr.get("s")),
        values(tr.get("r")),
    );
    let n = [p.len(), a.len(), s.len(), r.len()]
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(1);
    let nth = |v: &[Vec<f64>], i: usize| v.get(i.min(v.len().max(1) - 1)).cloned();
    (0..n)
        .map(|i| {
            let p = nth(&p, i).map_or(DVec2::ZERO, |v| pair(&v, 0.0));
            let a = nth(&a, i).map_or(DVec2::ZERO, |v| pair(&v, 0.0));
            let s = nth(&s, i).map_or(DVec2::splat(100.0), |v| pair(&v, 100.0));
            let r = nth(&r, i).and_then(|v| v.first().copied()).unwrap_or(0.0);
            let t = DAffine2::from_translation(p)
                * DAffine2::from_angle(r.to_radians())
                * DAffine2::from_scale(s / 100.0)
                * DAffine2::from_translation(-a);
            if t.is_finite() { t } else { DAffine2::IDENTITY }
        })
        .collect()
}

/// Every path a path property (`ks`) takes at its keys.
fn paths(prop: Option<&Value>) -> Vec<&Value> {
    let Some(k) = prop.and_then(|p| p.get("k")) else {
        return Vec::new();
    };
    match k.as_array() {
        Some(keys) => keys
            .iter()
            .flat_map(|key| [key.get("s"), key.get("e")])
            .flatten()
            .filter_map(|s| s.get(0))
            .collect(),
        None => vec![k],
    }
}

/// The vertices of a path (`v`, `i`, `o`, `c`) and points along each of its segments.
fn path_points(path: &Value, out: &mut Vec<DVec2>) {
    let list = |key: &str| -> Vec<DVec2> {
        path.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|p| {
                        let x = p.get(0).and_then(Value::as_f64).unwrap_or(f64::NAN);
                        let y = p.get(1).and_then(Value::as_f64).unwrap_or(f64::NAN);
                        DVec2::new(x, y)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (v, i, o) = (list("v"), list("i"), list("o"));
    let closed = path
        .get("c")
        .is_some_and(|c| c == true || c.as_f64() == Some(1.0));
    let n = v.len();
    for j in 0..n {
        out.push(v[j]);
        let next = (j + 1) % n;
        if next == 0 && !closed {
            continue;
        }
        let handle = |h: &[DVec2], k: usize| h.get(k).copied().unwrap_or(DVec2::ZERO);
        let (p0, p3) = (v[j], v[next]);
        segment(p0, p0 + handle(&o, j), p3 + handle(&i, next), p3, out);
    }
}

/// Points along an ellipse centred at `c` with radii `r`, drawn as lottie-web's four cubics.
fn ellipse(c: DVec2, r: DVec2, out: &mut Vec<DVec2>) {
    let k = r * ROUNDNESS;
    let quarters = [
        (
            DVec2::new(0.0, -r.y),
            DVec2::new(k.x, 0.0),
            DVec2::new(r.x, 0.0),
            DVec2::new(0.0, -k.y),
        ),
        (
            DVec2::new(r.x, 0.0),
            DVec2::new(0.0, k.y),
            DVec2::new(0.0, r.y),
            DVec2::new(k.x, 0.0),
        ),
        (
            DVec2::new(0.0, r.y),
            DVec2::new(-k.x, 0.0),
            DVec2::new(-r.x, 0.0),
            DVec2::new(0.0, k.y),
        ),
        (
            DVec2::new(-r.x, 0.0),
            DVec2::new(0.0, -k.y),
            DVec2::new(0.0, -r.y),
            DVec2::new(-k.x, 0.0),
        ),
    ];
    for (from, out_handle, to, in_handle) in quarters {
        let (p0, p3) = (c + from, c + to);
        out.push(p0);
        segment(p0, p0 + out_handle, p3 + in_handle, p3, out);
    }
}

/// Points strictly inside a cubic bezier segment.
fn segment(p0: DVec2, p1: DVec2, p2: DVec2, p3: DVec2, out: &mut Vec<DVec2>) {
    if p1 == p0 && p2 == p3 {
        return; // A straight line: its ends bound it.
    }
    for k in 1..SAMPLES {
        let u = k as f64 / SAMPLES as f64;
        let w = 1.0 - u;
        out.push(
            p0 * (w * w * w) + p1 * (3.0 * w * w * u) + p2 * (3.0 * w * u * u) + p3 * (u * u * u),
        );
    }
}

/// The convex hull of `points` (Andrew's monotone chain), counter-clockwise.
fn hull(mut points: Vec<DVec2>) -> Vec<[f64; 2]> {
    points.retain(|p| p.is_finite());
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points.into_iter().map(<[f64; 2]>::from).collect();
    }
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut chain: Vec<DVec2> = Vec::with_capacity(points.len() * 2);
    for pass in [
        points.as_slice(),
        &points.iter().rev().copied().collect::<Vec<_>>(),
    ] {
        let start = chain.len();
        for &p in pass {
            while chain.len() >= start + 2
                && cross(chain[chain.len() - 2], chain[chain.len() - 1], p) <= 0.0
            {
                chain.pop();
            }
            chain.push(p);
        }
        chain.pop();
    }
    chain.into_iter().map(<[f64; 2]>::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(text: &str) -> Vec<[f64; 2]> {
        shape_outline(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn groups_transform_their_shapes() {
        let hull = outline(
            r#"[{"ty":"gr","it":[
                {"ty":"rc","p":{"k":[0,0]},"s":{"k":[10,10]}},
                {"ty":"tr","p":{"k":[100,50]},"a":{"k":[0,0]},"s":{"k":[200,200]},"r":{"k":0}}
            ]}]"#,
        );
        // The rect: 20 × 20 around (100, 50), its four corners.
        assert_eq!(
            hull,
            [[90.0, 40.0], [110.0, 40.0], [110.0, 60.0], [90.0, 60.0]]
        );
    }

    #[test]
    fn an_ellipse_is_measured_on_its_curve_not_its_box() {
        let hull = outline(r#"[{"ty":"el","p":{"k":[0,0]},"s":{"k":[20,20]}}]"#);
        assert!(hull.len() > 8);
        for p in hull {
            let r = DVec2::from(p).length();
            assert!((r - 10.0).abs() < 0.05, "{p:?} at {r}");
        }
    }

    #[test]
    fn every_key_of_an_animated_path_counts() {
        let hull = outline(
            r#"[{"ty":"sh","ks":{"a":1,"k":[
                {"t":0,"s":[{"v":[[0,0],[10,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]],"c":false}]},
                {"t":10,"s":[{"v":[[0,30],[10,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]],"c":false}]}
            ]}}]"#,
        );
        assert_eq!(hull, [[0.0, 0.0], [10.0, 0.0], [0.0, 30.0]]);
    }

    #[test]
    fn bezier_bulges_are_sampled() {
        let hull = outline(
            r#"[{"ty":"sh","ks":{"k":{"v":[[0,0],[10,0]],"i":[[0,0],[0,10]],"o":[[0,10],[0,0]],"c":false}}}]"#,
        );
        let lowest = hull.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        // The curve reaches y = 7.5 at its middle; its handles (y = 10) are not drawn.
        assert!((lowest - 7.5).abs() < 1e-9, "{hull:?}");
    }
}
