//! The value of a keyframed Lottie property at any frame: lottie-web's `interpolateValue`
//! (spec A6), step for step.
//!
//! [`Keys`] is a property's keyframes made ready to evaluate: the value of every key (old files'
//! `s`/`e` pairs and value-less last keys resolved, spec A9), hold flags, one easing curve per
//! segment or one per dimension (A6.5), motion paths for segments with spatial tangents that
//! survive lottie-web's load-time straightening (A8), and the quaternion blend of 3D orientation
//! `or` keys (A6.10). [`Keys::value_at`] then picks the segment and the progress exactly like
//! lottie-web: the first segment whose next key is later than the frame, the later key winning
//! on duplicated times, holds keeping their value until the next key, and values before the first
//! key and after the last one held.
//!
//! The reader uses this to bake what the model's curves cannot hold (motion paths, orientation
//! slerps) and the tests use it as the reference the imported tracks are checked against.

use super::easing::Easing;
use super::schema::{Handle, Keyframe, Located};
use super::spatial::{MotionPath, is_straight};
use crate::formats::json::path::{field, index};

/// How lottie-web treats a property's keyframes, by the property's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropKind {
    /// A one-dimensional property (`r`, `o`, `sk`, `sa`, `rx`…, split position components):
    /// never spatial.
    Scalar,
    /// A multidimensional property (`a`, `p`, `s`): segments with `to`/`ti` are motion paths.
    Vector,
    /// 3D orientation `or`: tangents dropped, segments blended as quaternions.
    Orientation,
}

/// One segment's easing: a shared curve, or one per dimension.
#[derive(Debug, Clone)]
pub enum SegmentEase {
    /// One curve for every dimension (scalar handles).
    Shared(Easing),
    /// One curve per dimension (array handles).
    PerDimension(Vec<Easing>),
}

impl SegmentEase {
    /// The curve of dimension `d`.
    pub fn curve(&self, d: usize) -> &Easing {
        match self {
            SegmentEase::Shared(e) => e,
            SegmentEase::PerDimension(v) => &v[d.min(v.len() - 1)],
        }
    }

    /// True when every curve is the identity.
    pub fn is_linear(&self) -> bool {
        match self {
            SegmentEase::Shared(e) => e.is_linear(),
            SegmentEase::PerDimension(v) => v.iter().all(Easing::is_linear),
        }
    }
}

/// One keyframe, resolved.
#[derive(Debug, Clone)]
pub struct Key {
    /// Frame.
    pub t: f64,
    /// Value (`dims` numbers).
    pub value: Vec<f64>,
    /// Hold until the next key.
    pub hold: bool,
    /// Easing of the segment starting here (linear when the file gives no handles).
    pub ease: SegmentEase,
    /// Motion path of the segment starting here, when it is spatial.
    pub path: Option<MotionPath>,
}

/// A property's keyframes, ready to evaluate like lottie-web.
#[derive(Debug, Clone)]
pub struct Keys {
    /// Values per key.
    pub dims: usize,
    /// The keys (at least one).
    pub keys: Vec<Key>,
    /// Whether segments are quaternion-blended (`or`).
    pub orientation: bool,
}

impl Keys {
    /// Resolves `frames` (the keyframes of the property whose `k` is at `k_path`) for a property
    /// of `kind`. Fails where lottie-web would crash or compute NaN: no keys, a non-last key
    /// without `s`, values of differing sizes, keys going back in time.
    pub(crate) fn decode(
        frames: &[Keyframe<'_>],
        kind: PropKind,
        k_path: &str,
    ) -> Result<Keys, Located> {
        let n = frames.len();
        if n == 0 {
            return Err(Located::new(k_path, "no keyframes"));
        }
        let key_path = |k: usize| index(k_path, k);
        // Values: `s`, or for the last key the previous key's `e` (old files), or its `s`.
        let mut values: Vec<Vec<f64>> = Vec::with_capacity(n);
        for (k, kf) in frames.iter().enumerate() {
            let v = match (&kf.s, k + 1 == n && k > 0) {
                (Some(s), _) => s.clone(),
                (None, true) => {
                    let prev = &frames[k - 1];
                    match (&prev.e, &prev.s) {
                        (Some(e), _) => e.clone(),
                        (None, Some(s)) => s.clone(),
                        // Not reached: a previous key without `s` failed above.
                        (None, None) => Vec::new(),
                    }
                }
                (None, false) => {
                    return Err(Located::new(
                        field(&key_path(k), "s"),
                        "missing keyframe value \"s\"",
                    ));
                }
            };
            values.push(v);
        }
        let dims = values[0].len();
        if dims == 0 {
            return Err(Located::new(
                field(&key_path(0), "s"),
                "the keyframe value is an empty array",
            ));
        }
        let check = |v: &[f64], path: String| {
            if v.len() == dims {
                Ok(())
            } else {
                Err(Located::new(
                    path,
                    format!(
                        "expected {dims} numbers like the first keyframe, found {}",
                        v.len()
                    ),
                ))
            }
        };
        for (k, kf) in frames.iter().enumerate() {
            if let Some(s) = &kf.s {
                check(s, field(&key_path(k), "s"))?;
            }
            if let Some(e) = &kf.e {
                check(e, field(&key_path(k), "e"))?;
            }
            if k > 0 && kf.t < frames[k - 1].t {
                return Err(Located::new(
                    field(&key_path(k), "t"),
                    format!(
                        "keyframe times must not go back (frame {} after frame {})",
                        kf.t,
                        frames[k - 1].t
                    ),
                ));
            }
        }
        let mut keys = Vec::with_capacity(n);
        for (k, kf) in frames.iter().enumerate() {
            let last = k + 1 == n;
            let (to, ti) = match kind {
                PropKind::Vector if !last => (kf.to.clone(), kf.ti.clone()),
                _ => (None, None),
            };
            // lottie-web's load-time straightening needs `s` on this key and the next.
            let path = match to {
                Some(to) => {
                    let ti = ti.unwrap_or_else(|| vec![0.0; dims]);
                    let straight = match (&kf.s, &frames[k + 1].s) {
                        (Some(s), Some(e)) => is_straight(s, e, &to, &ti),
                        _ => false,
                    };
                    if straight {
                        None
                    } else {
                        check(&to, field(&key_path(k), "to"))?;
                        check(&ti, field(&key_path(k), "ti"))?;
                        Some(MotionPath::new(&values[k], &values[k + 1], &to, &ti))
                    }
                }
                None => None,
            };
            let ease = segment_ease(kf.o.as_ref(), kf.i.as_ref(), dims, path.is_some());
            keys.push(Key {
                t: kf.t,
                value: values[k].clone(),
                hold: kf.hold,
                ease,
                path,
            });
        }
        Ok(Keys {
            dims,
            keys,
            orientation: kind == PropKind::Orientation,
        })
    }

    /// True when a segment is a motion path or a quaternion blend, which the model's
    /// per-component curves cannot hold: such properties are baked.
    pub fn needs_bake(&self) -> bool {
        let n = self.keys.len();
        self.keys
            .iter()
            .enumerate()
            .any(|(k, key)| k + 1 < n && (key.path.is_some() || (self.orientation && !key.hold)))
    }

    /// The value at `frame` (of the containing composition) into `out` (`dims` numbers).
    pub fn value_at(&self, frame: f64, out: &mut [f64]) {
        let keys = &self.keys;
        let n = keys.len();
        if n == 1 {
            copy(&keys[0].value, out);
            return;
        }
        // Segment search (`interpolateValue`'s first loop).
        let mut i = 0;
        let mut kd = 0;
        loop {
            if i == n - 2 && frame >= keys[i + 1].t {
                kd = if keys[i].hold { i + 1 } else { i };
                break;
            }
            if keys[i + 1].t > frame {
                kd = i;
                break;
            }
            if i < n - 2 {
                i += 1;
            } else {
                break;
            }
        }
        let key = &keys[kd];
        let next = &keys[i + 1];
        let (key_time, next_time) = (key.t, next.t);
        if let Some(path) = &key.path {
            if frame >= next_time || frame < key_time {
                copy(
                    if frame >= next_time {
                        path.last()
                    } else {
                        path.first()
                    },
                    out,
                );
            } else {
                let perc = key
                    .ease
                    .curve(0)
                    .get((frame - key_time) / (next_time - key_time));
                path.point_at(perc, out);
            }
            return;
        }
        if self.orientation && !key.hold {
            if frame >= next_time {
                copy(&next.value, out);
            } else if frame <= key_time {
                copy(&key.value, out);
            } else {
                let x = (frame - key_time) / (next_time - key_time);
                orientation_blend(&key.value, &next.value, x, out);
            }
            return;
        }
        for (d, o) in out.iter_mut().enumerate().take(self.dims) {
            let s = key.value[d];
            *o = if key.hold {
                s
            } else {
                let perc = if frame >= next_time {
                    1.0
                } else if frame < key_time {
                    0.0
                } else {
                    key.ease
                        .curve(d)
                        .get((frame - key_time) / (next_time - key_time))
                };
                s + (next.value[d] - s) * perc
            };
        }
    }

    /// The value segment `k` approaches at its end (just before key `k + 1`): the held value for
    /// a hold, otherwise what the segment's formula gives at progress 1. Where it differs from
    /// key `k + 1`'s value the property jumps there.
    pub fn end_of_segment(&self, k: usize, out: &mut [f64]) {
        let (key, next) = (&self.keys[k], &self.keys[k + 1]);
        if let Some(path) = &key.path {
            copy(path.last(), out);
        } else if key.hold {
            copy(&key.value, out);
        } else if self.orientation {
            orientation_blend(&key.value, &next.value, 1.0, out);
        } else {
            for (d, o) in out.iter_mut().enumerate().take(self.dims) {
                let s = key.value[d];
                *o = s + (next.value[d] - s) * 1.0;
            }
        }
    }
}

/// The easing of a segment from its `o` and `i` handles: a shared curve for scalar handles and
/// for spatial segments (lottie-web passes the handles straight to one curve; array handles
/// act as their first entry), one curve per dimension for array handles. Missing handles ease
/// linearly.
pub(crate) fn segment_ease(
    o: Option<&Handle>,
    i: Option<&Handle>,
    dims: usize,
    spatial: bool,
) -> SegmentEase {
    let (Some(o), Some(i)) = (o, i) else {
        return SegmentEase::Shared(Easing::linear());
    };
    let curve = |d: usize| {
        let (ox, oy) = o.at(d);
        let (ix, iy) = i.at(d);
        Easing::new(ox, oy, ix, iy)
    };
    if o.per_dimension && !spatial {
        SegmentEase::PerDimension((0..dims).map(curve).collect())
    } else {
        SegmentEase::Shared(curve(0))
    }
}

/// Copies `from` into `out` as far as both reach.
fn copy(from: &[f64], out: &mut [f64]) {
    for (o, v) in out.iter_mut().zip(from) {
        *o = *v;
    }
}

/// lottie-web's orientation blend: both Euler triples (degrees) to quaternions
/// (`createQuaternion`), `slerp` by the plain time fraction `x`, back to Euler
/// (`quaternionToEuler`).
fn orientation_blend(from: &[f64], to: &[f64], x: f64, out: &mut [f64]) {
    let a = euler_to_quaternion(from);
    let b = euler_to_quaternion(to);
    let q = slerp(a, b, x);
    let e = quaternion_to_euler(q);
    copy(&e, out);
}

/// `createQuaternion(values)` (degrees in, `[x, y, z, w]` out).
fn euler_to_quaternion(v: &[f64]) -> [f64; 4] {
    let g = |i: usize| v.get(i).copied().unwrap_or(0.0).to_radians();
    let (heading, attitude, bank) = (g(0), g(1), g(2));
    let (c1, c2, c3) = (
        (heading / 2.0).cos(),
        (attitude / 2.0).cos(),
        (bank / 2.0).cos(),
    );
    let (s1, s2, s3) = (
        (heading / 2.0).sin(),
        (attitude / 2.0).sin(),
        (bank / 2.0).sin(),
    );
    let w = c1 * c2 * c3 - s1 * s2 * s3;
    let x = s1 * s2 * c3 + c1 * c2 * s3;
    let y = s1 * c2 * c3 + c1 * s2 * s3;
    let z = c1 * s2 * c3 - s1 * c2 * s3;
    [x, y, z, w]
}

/// `quaternionToEuler(out, quat)` (degrees).
fn quaternion_to_euler(q: [f64; 4]) -> [f64; 3] {
    let [qx, qy, qz, qw] = q;
    let heading = (2.0 * qy * qw - 2.0 * qx * qz).atan2(1.0 - 2.0 * qy * qy - 2.0 * qz * qz);
    let attitude = (2.0 * qx * qy + 2.0 * qz * qw).asin();
    let bank = (2.0 * qx * qw - 2.0 * qy * qz).atan2(1.0 - 2.0 * qx * qx - 2.0 * qz * qz);
    [
        heading.to_degrees(),
        attitude.to_degrees(),
        bank.to_degrees(),
    ]
}

/// lottie-web's `slerp` (gl-matrix based; linear below an angle of about 0.08°).
fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let mut b = b;
    let mut cosom = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if cosom < 0.0 {
        cosom = -cosom;
        b = [-b[0], -b[1], -b[2], -b[3]];
    }
    let (scale0, scale1) = if 1.0 - cosom > 0.000001 {
        let omega = cosom.acos();
        let sinom = omega.sin();
        (((1.0 - t) * omega).sin() / sinom, (t * omega).sin() / sinom)
    } else {
        (1.0 - t, t)
    };
    [
        scale0 * a[0] + scale1 * b[0],
        scale0 * a[1] + scale1 * b[1],
        scale0 * a[2] + scale1 * b[2],
        scale0 * a[3] + scale1 * b[3],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::lottie::schema::{PropValue, Property, parse_top};

    /// Decodes `{"k": [...]}` text into keys of `kind`.
    pub(crate) fn keys(text: &str, kind: PropKind) -> Keys {
        let top = parse_top(text.as_bytes()).unwrap().unwrap();
        let prop = Property::decode(top).unwrap();
        let PropValue::Keyed(frames) = &prop.value else {
            panic!("not keyframed")
        };
        Keys::decode(frames, kind, "k").unwrap()
    }

    fn at(k: &Keys, frame: f64) -> Vec<f64> {
        let mut out = vec![0.0; k.dims];
        k.value_at(frame, &mut out);
        out
    }

    fn near(got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= tol, "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn scalar_ease_reference() {
        let k = keys(
            r#"{"k":[{"t":0,"s":[0],"o":{"x":[0.333],"y":[0]},"i":{"x":[0.667],"y":[1]}},{"t":30,"s":[90]}]}"#,
            PropKind::Scalar,
        );
        for (f, v) in [
            (-5.0, 0.0),
            (3.0, 2.523502),
            (7.5, 14.071992),
            (22.5, 75.928008),
            (29.0, 89.706143),
            (30.0, 90.0),
            (40.0, 90.0),
        ] {
            near(&at(&k, f), &[v], 1e-5);
        }
    }

    #[test]
    fn spatial_reference() {
        let k = keys(
            r#"{"k":[{"t":0,"s":[0,0,0],"to":[50,0,0],"ti":[0,-50,0],"o":{"x":0.333,"y":0},"i":{"x":0.667,"y":1}},{"t":60,"s":[100,100,0]}]}"#,
            PropKind::Vector,
        );
        assert!(k.needs_bake());
        for (f, x, y) in [
            (6.0, 4.340413, 0.125864),
            (15.0, 23.852022, 3.652939),
            (30.0, 68.749153, 31.250845),
            (45.0, 96.347061, 76.14798),
            (54.0, 99.874138, 95.659584),
        ] {
            near(&at(&k, f), &[x, y, 0.0], 1e-4);
        }
    }

    #[test]
    fn orientation_blends_quaternions() {
        let k = keys(
            r#"{"k":[{"t":0,"s":[0,0,0],"o":{"x":0.5,"y":0},"i":{"x":0.5,"y":1}},{"t":10,"s":[0,90,0]}]}"#,
            PropKind::Orientation,
        );
        assert!(k.needs_bake());
        // No easing: the slerp runs on the plain time fraction.
        let v = at(&k, 5.0);
        near(&v, &[0.0, 45.0, 0.0], 1e-9);
        near(&at(&k, 10.0), &[0.0, 90.0, 0.0], 0.0);
    }
}
