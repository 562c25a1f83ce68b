//! `convert_interpolation`: change a track's interpolation, keeping its curve where possible.
//!
//! Converting to bezier fits handles that reproduce the current curve. Within one key interval a
//! linear segment and a smooth segment (three.js `CubicInterpolant`) are both cubic polynomials
//! of the time, so a bezier whose control times sit at 1/3 and 2/3 of the interval (its time
//! then runs linearly with the curve parameter) reproduces them exactly once its two control
//! values are solved from the curve at 1/3 and 2/3. Only the `f32` rounding of the stored
//! handles remains. Two sources cannot be matched exactly:
//!
//! * discrete tracks get flat handles, so each step becomes an ease from one value to the next;
//! * linear quaternion tracks slerp, which is not a polynomial; the fit goes through the slerp
//!   at 1/3 and 2/3 of each interval and stays close to it in between.
//!
//! The handle that points away from the curve at either end mirrors the inner one. Keys fitted
//! from a linear curve get [`TangentMode::Vector`]; otherwise keys whose two handles are
//! collinear get [`TangentMode::Aligned`] and the others [`TangentMode::Free`]. Converting a
//! bezier track to another interpolation drops its tangents.

use crate::model::interpolant::Sampler;
use crate::model::{
    HandleSide, Interpolation, TangentMode, Tangents, Track, TrackKind, UnsupportedInterpolation,
    Values,
};

/// How the curve that the handles must reproduce is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Steps: flat handles.
    Discrete,
    /// Component-wise straight lines: vector handles.
    Linear,
    /// Anything else: solved from the sampled curve at 1/3 and 2/3 of each interval.
    Sampled,
}

impl Track {
    /// Sets the interpolation like [`Track::set_interpolation`] (refusing the same unsupported
    /// modes with the same message), but keeps the curve: converting to bezier fits handles to
    /// the current curve (see the module docs), converting away from bezier drops the tangents.
    /// Converting a bezier track to bezier changes nothing.
    pub fn convert_interpolation(
        &mut self,
        to: Interpolation,
    ) -> Result<(), UnsupportedInterpolation> {
        if !self.kind.supports(to) {
            return self.set_interpolation(to);
        }
        let from = self.interpolation;
        if from == to {
            return Ok(());
        }
        if to == Interpolation::Bezier {
            self.tangents = Some(self.fitted_tangents());
        } else if from == Interpolation::Bezier {
            self.tangents = None;
        }
        self.interpolation = to;
        Ok(())
    }

    /// Handles (with modes) that reproduce the curve the track's sampler draws without
    /// tangents: bezier tracks whose handles are missing or too short are drawn linearly.
    pub fn fitted_tangents(&self) -> Tangents {
        let source = match Track::resolve_interpolation(self.kind, Some(self.interpolation)) {
            Interpolation::Discrete => Source::Discrete,
            Interpolation::Linear if self.kind == TrackKind::Quaternion => Source::Sampled,
            Interpolation::Linear | Interpolation::Bezier => Source::Linear,
            Interpolation::Smooth => Source::Sampled,
        };
        let n = self.len();
        let vs = self.value_size();
        let mut tangents = Tangents::new(vec![0.0; n * vs * 2], vec![0.0; n * vs * 2]);
        let mut sampler = Sampler::new(self);
        let (mut at_third, mut at_two_thirds) = (vec![0.0; vs], vec![0.0; vs]);
        for k in 0..n.saturating_sub(1) {
            let (t0, t1) = (self.times[k] as f64, self.times[k + 1] as f64);
            let dt = t1 - t0;
            let usable = dt > 0.0 && dt.is_finite();
            if usable && source == Source::Sampled {
                sampler.evaluate_f64(t0 + dt / 3.0, &mut at_third);
                sampler.evaluate_f64(t0 + dt * 2.0 / 3.0, &mut at_two_thirds);
            }
            for c in 0..vs {
                let (v0, v1) = (self.key_value(k, c), self.key_value(k + 1, c));
                let (c0, c1) = if !usable {
                    ((t0, v0), (t1, v1))
                } else {
                    let (y0, y1) = match source {
                        Source::Discrete => (v0, v1),
                        Source::Linear => (v0 + (v1 - v0) / 3.0, v1 - (v1 - v0) / 3.0),
                        Source::Sampled => {
                            let a = 27.0 * at_third[c] - 8.0 * v0 - v1;
                            let b = 27.0 * at_two_thirds[c] - v0 - 8.0 * v1;
                            ((2.0 * a - b) / 18.0, (2.0 * b - a) / 18.0)
                        }
                    };
                    ((t0 + dt / 3.0, y0), (t1 - dt / 3.0, y1))
                };
                tangents.set_point(HandleSide::Out, k, c, vs, c0);
                tangents.set_point(HandleSide::In, k + 1, c, vs, c1);
            }
        }
        for k in [0, n.saturating_sub(1)].into_iter().take(n.min(2)) {
            for c in 0..vs {
                let key = (self.times[k] as f64, self.key_value(k, c));
                if n == 1 {
                    tangents.set_point(HandleSide::In, k, c, vs, key);
                    tangents.set_point(HandleSide::Out, k, c, vs, key);
                    continue;
                }
                let (inner, outer) = if k == 0 {
                    (HandleSide::Out, HandleSide::In)
                } else {
                    (HandleSide::In, HandleSide::Out)
                };
                let (ht, hv) = tangents.point(inner, k, c, vs).unwrap_or(key);
                tangents.set_point(outer, k, c, vs, (2.0 * key.0 - ht, 2.0 * key.1 - hv));
            }
        }
        tangents.modes = (0..n)
            .map(|k| {
                if source == Source::Linear {
                    TangentMode::Vector
                } else if self.handles_collinear_in(&tangents, k) {
                    TangentMode::Aligned
                } else {
                    TangentMode::Free
                }
            })
            .collect();
        tangents
    }

    /// The tangents, made usable for editing: created by [`Track::fitted_tangents`] when
    /// missing or too short for the keys (so the curve keeps its shape), and cut to exactly
    /// `keys × value_size × 2` entries and at most one mode per key when longer.
    pub fn ensure_tangents(&mut self) -> &mut Tangents {
        let n = self.len();
        let needed = n * self.value_size() * 2;
        let usable = self
            .tangents
            .as_ref()
            .is_some_and(|t| t.in_tangents.len() >= needed && t.out_tangents.len() >= needed);
        if !usable {
            let fitted = self.fitted_tangents();
            self.tangents = Some(fitted);
        }
        let tangents = self.tangents.get_or_insert_with(Tangents::default);
        tangents.in_tangents.truncate(needed);
        tangents.out_tangents.truncate(needed);
        tangents.modes.truncate(n);
        tangents
    }

    /// Key `key`'s component `component` as a number: the `f32` value, a bool as 1 or 0, a
    /// string (or a missing entry) as 0.
    pub(crate) fn key_value(&self, key: usize, component: usize) -> f64 {
        let i = key * self.value_size() + component;
        match &self.values {
            Values::Numbers(v) => v.get(i).map_or(0.0, |&x| x as f64),
            Values::Bools(v) => v.get(i).map_or(0.0, |&b| if b { 1.0 } else { 0.0 }),
            Values::Strings(_) => 0.0,
        }
    }

    /// True when, in every component, the in handle, the key and the out handle of `key` lie
    /// on one line in that order (up to the `f32` rounding of the stored points).
    pub(crate) fn handles_collinear_in(&self, tangents: &Tangents, key: usize) -> bool {
        let vs = self.value_size();
        (0..vs).all(|c| {
            let point = (self.times[key] as f64, self.key_value(key, c));
            match (
                tangents.point(HandleSide::In, key, c, vs),
                tangents.point(HandleSide::Out, key, c, vs),
            ) {
                (Some(h_in), Some(h_out)) => collinear(h_in, point, h_out),
                _ => true,
            }
        })
    }
}

/// True when `a`, `key` and `b` lie on one line with `key` between them (or a handle has zero
/// length), allowing for the `f32` rounding of the coordinates.
pub(crate) fn collinear(a: (f64, f64), key: (f64, f64), b: (f64, f64)) -> bool {
    let (ax, ay) = (key.0 - a.0, key.1 - a.1);
    let (bx, by) = (b.0 - key.0, b.1 - key.1);
    let (la, lb) = (ax.hypot(ay), bx.hypot(by));
    if la == 0.0 || lb == 0.0 {
        return true;
    }
    let scale = [a.0, a.1, key.0, key.1, b.0, b.1]
        .iter()
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let rounding = 8.0 * f32::EPSILON as f64 * scale * (la + lb);
    let cross = ax * by - ay * bx;
    ax * bx + ay * by > 0.0 && cross.abs() <= 1e-6 * la * lb + rounding
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::curve_samples::{assert_close, samples};

    fn vector_track(interpolation: Interpolation) -> Track {
        let mut t = Track::numeric(
            ".position",
            TrackKind::Vector,
            vec![0.0, 0.4, 1.0, 1.3, 2.5],
            vec![
                0.0, 1.0, -2.0, 3.0, -1.0, 0.5, 2.0, 2.0, 4.0, -1.5, 0.0, 1.0, 0.25, 5.0, -3.0,
            ],
        );
        t.interpolation = interpolation;
        t
    }

    #[test]
    fn linear_to_bezier_keeps_shape_with_vector_keys() {
        let mut t = vector_track(Interpolation::Linear);
        let before = samples(&t, -0.5, 3.0, 997);
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        assert_eq!(t.interpolation, Interpolation::Bezier);
        assert_close(&samples(&t, -0.5, 3.0, 997), &before, 1e-5);
        let tangents = t.tangents.as_ref().unwrap();
        assert_eq!(tangents.modes, vec![TangentMode::Vector; 5]);
        // The outward handles at both ends mirror the inner ones.
        assert_eq!(
            tangents.point(HandleSide::In, 0, 0, 3),
            Some((-((0.4f32 as f64 / 3.0) as f32 as f64), -1.0))
        );
    }

    #[test]
    fn smooth_to_bezier_keeps_shape() {
        let mut t = vector_track(Interpolation::Smooth);
        let before = samples(&t, -0.5, 3.0, 1009);
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        assert_close(&samples(&t, -0.5, 3.0, 1009), &before, 1e-5);
        let tangents = t.tangents.as_ref().unwrap();
        // three.js's spline is smooth through every key, and the ends mirror their inner
        // handle, so every key comes out aligned.
        assert_eq!(tangents.modes, vec![TangentMode::Aligned; 5]);
    }

    #[test]
    fn discrete_to_bezier_gives_flat_handles() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 3.0], vec![1.0, 4.0]);
        t.interpolation = Interpolation::Discrete;
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        let tangents = t.tangents.as_ref().unwrap();
        assert_eq!(tangents.out_tangents, [1.0, 1.0, 4.0, 4.0]);
        assert_eq!(tangents.in_tangents, [-1.0, 1.0, 2.0, 4.0]);
        assert_eq!(tangents.modes, [TangentMode::Aligned; 2]);
        // An ease: starts and ends flat, passes the middle value halfway.
        let mid = samples(&t, 1.5, 1.5, 1)[0][0];
        assert!((mid - 2.5).abs() < 1e-6);
    }

    #[test]
    fn bezier_to_other_drops_tangents_and_refusals_match_set_interpolation() {
        let mut t = vector_track(Interpolation::Linear);
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        t.convert_interpolation(Interpolation::Smooth).unwrap();
        assert_eq!(t.interpolation, Interpolation::Smooth);
        assert!(t.tangents.is_none());

        let mut q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        );
        let expected = q.clone().set_interpolation(Interpolation::Smooth);
        assert_eq!(q.convert_interpolation(Interpolation::Smooth), expected);
        assert!(expected.is_err());
        assert_eq!(q.interpolation, Interpolation::Linear);
    }

    #[test]
    fn slerp_fit_stays_close() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let mut q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, h],
        );
        let before = samples(&q, 0.0, 1.0, 100);
        q.convert_interpolation(Interpolation::Bezier).unwrap();
        assert_close(&samples(&q, 0.0, 1.0, 100), &before, 1e-3);
    }

    #[test]
    fn ensure_tangents_refits_short_arrays_and_cuts_long_ones() {
        let mut t = vector_track(Interpolation::Bezier);
        t.tangents = Some(Tangents::new(vec![0.0; 3], vec![0.0; 3]));
        let before = samples(&t, -0.5, 3.0, 301);
        assert_eq!(t.ensure_tangents().in_tangents.len(), 30);
        assert_close(&samples(&t, -0.5, 3.0, 301), &before, 1e-5);
        let mut long = t.tangents.clone().unwrap();
        long.in_tangents.extend([1.0; 6]);
        long.modes.push(TangentMode::Auto);
        t.tangents = Some(long);
        let tangents = t.ensure_tangents();
        assert_eq!((tangents.in_tangents.len(), tangents.modes.len()), (30, 5));
    }

    #[test]
    fn collinearity() {
        assert!(collinear((0.0, 0.0), (1.0, 1.0), (3.0, 3.0)));
        assert!(!collinear((0.0, 0.0), (1.0, 1.0), (3.0, 3.1)));
        assert!(!collinear((2.0, 2.0), (1.0, 1.0), (3.0, 3.0)));
        assert!(collinear((1.0, 1.0), (1.0, 1.0), (3.0, 7.0)));
    }
}
