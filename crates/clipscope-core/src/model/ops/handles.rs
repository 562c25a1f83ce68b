//! Handle editing with Blender-like handle types ([`TangentMode`]).
//!
//! Every key of a bezier track has an in and an out handle per component (see [`Tangents`](crate::model::Tangents)).
//! Automatic modes recompute them from the neighbouring keys:
//!
//! * auto: the slope of the line through the two neighbours (one-sided at the ends), each
//!   handle a third of its adjacent interval long in time, so the time runs evenly along every
//!   segment between automatic keys;
//! * auto-clamped: the same, but flat at local extrema (and plateaus) and at both end keys, and
//!   with the slope limited so that neither handle passes the neighbouring key's value; since a
//!   bezier segment stays within its control points, a segment between two auto-clamped keys
//!   never overshoots them;
//! * vector: each handle points a third of the way to the neighbouring key, so a segment
//!   between two vector keys is a straight line.
//!
//! At an end key the handle pointing away from the curve mirrors the inner one (auto-clamped
//! ends are flat on both sides); a lone key gets zero-length handles. Aligned keys keep their
//! two handles collinear, free keys are never touched. Handle edits never let a handle pass the
//! neighbouring key in time, so segments cannot fold over.

use crate::model::{HandleSide, TangentMode, Track};

impl Track {
    /// Sets the handle mode of `key` and reshapes its handles to match: automatic modes
    /// recompute them, aligned makes them collinear (each keeps its length, the common
    /// direction is the bisector of the two), free leaves them. Creates tangents that keep the
    /// curve's shape when the track has none. Does nothing for a key past the end.
    pub fn set_tangent_mode(&mut self, key: usize, mode: TangentMode) {
        if key >= self.len() {
            return;
        }
        self.ensure_tangents().set_mode(key, mode);
        match mode {
            TangentMode::AutoClamped | TangentMode::Auto | TangentMode::Vector => {
                self.compute_automatic_handles(key, mode);
            }
            TangentMode::Aligned => self.align_handles(key),
            TangentMode::Free => {}
        }
    }

    /// Recomputes the handles of every auto-clamped, auto and vector key, e.g. after keys
    /// moved. Does nothing for a track without tangents.
    pub fn refresh_auto_handles(&mut self) {
        if self.tangents.is_none() {
            return;
        }
        self.ensure_tangents();
        for key in 0..self.len() {
            let mode = self
                .tangents
                .as_ref()
                .map_or_else(Default::default, |t| t.mode(key));
            if mode.is_automatic() {
                self.compute_automatic_handles(key, mode);
            }
        }
    }

    /// Moves one control point of `key`'s `component` to `(time, value)`. The time is clamped
    /// to `[previous key, key]` for the in handle and `[key, next key]` for the out handle. An
    /// automatic key becomes aligned, or free with `break_handles`, which also frees an aligned
    /// key; an aligned key then turns its other handle to stay collinear, keeping that
    /// handle's length (shortened only if it would pass the neighbouring key in time). Creates
    /// tangents when the track has none; does nothing for a key or component out of range.
    pub fn set_handle(
        &mut self,
        key: usize,
        component: usize,
        side: HandleSide,
        time: f64,
        value: f64,
        break_handles: bool,
    ) {
        let vs = self.value_size();
        if key >= self.len() || component >= vs || time.is_nan() || value.is_nan() {
            return;
        }
        let point = self.key_point(key, component);
        let (lo, hi) = self.handle_time_range(key, side);
        let moved = (time.clamp(lo, hi), value);
        let tangents = self.ensure_tangents();
        tangents.set_point(side, key, component, vs, moved);
        let mode = match tangents.mode(key) {
            _ if break_handles => TangentMode::Free,
            m if m.is_automatic() => TangentMode::Aligned,
            m => m,
        };
        tangents.set_mode(key, mode);
        if mode != TangentMode::Aligned {
            return;
        }
        let other = side.opposite();
        let Some(current) = tangents.point(other, key, component, vs) else {
            return;
        };
        let (dx, dy) = (point.0 - moved.0, point.1 - moved.1);
        let length = dx.hypot(dy);
        let keep = (current.0 - point.0).hypot(current.1 - point.1);
        if length == 0.0 || keep == 0.0 {
            return;
        }
        // The moved handle points along -d from the key; the other one goes along +d.
        let (ux, uy) = (dx / length, dy / length);
        let mut reach = keep;
        let (lo, hi) = self.handle_time_range(key, other);
        let bound = if ux > 0.0 { hi - point.0 } else { lo - point.0 };
        if ux != 0.0 && (ux * reach).abs() > bound.abs() {
            reach = bound / ux;
        }
        let turned = (point.0 + ux * reach, point.1 + uy * reach);
        if let Some(tangents) = &mut self.tangents {
            tangents.set_point(other, key, component, vs, turned);
        }
    }

    /// The time range allowed for a handle of `key` on `side`: between the key and its
    /// neighbour on that side (unbounded past an end key).
    fn handle_time_range(&self, key: usize, side: HandleSide) -> (f64, f64) {
        let t = self.times[key] as f64;
        match side {
            HandleSide::In => (
                key.checked_sub(1)
                    .map_or(f64::NEG_INFINITY, |k| self.times[k] as f64),
                t,
            ),
            HandleSide::Out => (
                t,
                self.times.get(key + 1).map_or(f64::INFINITY, |&x| x as f64),
            ),
        }
    }

    /// Key `key` as a point `(time, value)` of component `component`.
    fn key_point(&self, key: usize, component: usize) -> (f64, f64) {
        (self.times[key] as f64, self.key_value(key, component))
    }

    /// Writes the handles of an automatic `mode` for every component of `key` (tangents must
    /// already be sized for the keys).
    fn compute_automatic_handles(&mut self, key: usize, mode: TangentMode) {
        let vs = self.value_size();
        let handles: Vec<_> = (0..vs)
            .map(|c| self.automatic_handles(key, c, mode))
            .collect();
        if let Some(tangents) = &mut self.tangents {
            for (c, (h_in, h_out)) in handles.into_iter().enumerate() {
                tangents.set_point(HandleSide::In, key, c, vs, h_in);
                tangents.set_point(HandleSide::Out, key, c, vs, h_out);
            }
        }
    }

    /// The in and out handle of an automatic `mode` for `key`'s `component` (see the module
    /// docs).
    fn automatic_handles(
        &self,
        key: usize,
        component: usize,
        mode: TangentMode,
    ) -> ((f64, f64), (f64, f64)) {
        let (t, v) = self.key_point(key, component);
        let prev = key.checked_sub(1).map(|k| self.key_point(k, component));
        let next = (key + 1 < self.len()).then(|| self.key_point(key + 1, component));
        let in_len = prev.map(|(tp, _)| (t - tp) / 3.0);
        let out_len = next.map(|(tn, _)| (tn - t) / 3.0);
        // Time offsets of the handles; a missing side mirrors the other.
        let (Some(din), Some(dout)) = (in_len.or(out_len), out_len.or(in_len)) else {
            return ((t, v), (t, v));
        };
        if mode == TangentMode::Vector {
            let rise_in = prev.map(|(_, vp)| (v - vp) / 3.0);
            let rise_out = next.map(|(_, vn)| (vn - v) / 3.0);
            let (rin, rout) = (
                rise_in.or(rise_out).unwrap_or(0.0),
                rise_out.or(rise_in).unwrap_or(0.0),
            );
            return ((t - din, v - rin), (t + dout, v + rout));
        }
        let slope = |(t0, v0): (f64, f64), (t1, v1): (f64, f64)| {
            let s = (v1 - v0) / (t1 - t0);
            if s.is_finite() { s } else { 0.0 }
        };
        let m = match (prev, next, mode) {
            (Some(p), Some(n), TangentMode::AutoClamped) => {
                let (dp, dn) = (v - p.1, n.1 - v);
                if dp * dn <= 0.0 {
                    0.0
                } else {
                    // Neither handle may pass its neighbour's value.
                    let limit_in = (dp / din).abs();
                    let limit_out = (dn / dout).abs();
                    let m = slope(p, n);
                    m.signum() * m.abs().min(limit_in).min(limit_out)
                }
            }
            (_, _, TangentMode::AutoClamped) => 0.0,
            (Some(p), Some(n), _) => slope(p, n),
            (Some(p), None, _) => slope(p, (t, v)),
            (None, Some(n), _) => slope((t, v), n),
            (None, None, _) => 0.0,
        };
        ((t - din, v - m * din), (t + dout, v + m * dout))
    }

    /// Makes `key`'s handles collinear in every component, each keeping its length, along the
    /// bisector of their current directions.
    fn align_handles(&mut self, key: usize) {
        let vs = self.value_size();
        let points: Vec<_> = (0..vs).map(|c| self.key_point(key, c)).collect();
        let Some(tangents) = &mut self.tangents else {
            return;
        };
        for (c, &(t, v)) in points.iter().enumerate() {
            let (Some(h_in), Some(h_out)) = (
                tangents.point(HandleSide::In, key, c, vs),
                tangents.point(HandleSide::Out, key, c, vs),
            ) else {
                continue;
            };
            if let Some((h_in, h_out)) = aligned((t, v), h_in, h_out) {
                tangents.set_point(HandleSide::In, key, c, vs, h_in);
                tangents.set_point(HandleSide::Out, key, c, vs, h_out);
            }
        }
    }
}

/// The in and out handles turned onto one line through `key`, each keeping its length, along
/// the bisector of their directions; `None` when both have zero length.
fn aligned(
    key: (f64, f64),
    h_in: (f64, f64),
    h_out: (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let a = (key.0 - h_in.0, key.1 - h_in.1);
    let b = (h_out.0 - key.0, h_out.1 - key.1);
    let (la, lb) = (a.0.hypot(a.1), b.0.hypot(b.1));
    let unit = |(x, y): (f64, f64), l: f64| if l > 0.0 { (x / l, y / l) } else { (0.0, 0.0) };
    let (ua, ub) = (unit(a, la), unit(b, lb));
    let mut d = (ua.0 + ub.0, ua.1 + ub.1);
    let mut ld = d.0.hypot(d.1);
    if ld < 1e-12 {
        // Opposite directions (a folded key): follow the out handle, or the in handle.
        d = if lb > 0.0 { ub } else { ua };
        ld = d.0.hypot(d.1);
    }
    if ld == 0.0 {
        return None;
    }
    let u = (d.0 / ld, d.1 / ld);
    Some((
        (key.0 - u.0 * la, key.1 - u.1 * la),
        (key.0 + u.0 * lb, key.1 + u.1 * lb),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::convert_interpolation::collinear;
    use crate::model::ops::curve_samples::samples;
    use crate::model::{Interpolation, TrackKind};

    fn mode_of(track: &Track, key: usize) -> TangentMode {
        track
            .tangents
            .as_ref()
            .map_or_else(Default::default, |t| t.mode(key))
    }

    fn near(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6
    }

    fn bezier(times: Vec<f32>, values: Vec<f32>, kind: TrackKind) -> Track {
        let mut t = Track::numeric(".x", kind, times, values);
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        t
    }

    fn point(t: &Track, side: HandleSide, key: usize, c: usize) -> (f64, f64) {
        let tangents = t.tangents.as_ref().unwrap();
        tangents.point(side, key, c, t.value_size()).unwrap()
    }

    fn key_collinear(t: &Track, key: usize, c: usize) -> bool {
        collinear(
            point(t, HandleSide::In, key, c),
            t.key_point(key, c),
            point(t, HandleSide::Out, key, c),
        )
    }

    #[test]
    fn vector_handles_give_straight_segments() {
        let mut t = bezier(vec![0.0, 1.0, 3.0], vec![0.0, 5.0, -1.0], TrackKind::Number);
        for k in 0..3 {
            t.set_tangent_mode(k, TangentMode::Free);
            t.set_handle(k, 0, HandleSide::Out, t.times[k] as f64 + 0.1, 9.0, true);
        }
        for k in 0..3 {
            t.set_tangent_mode(k, TangentMode::Vector);
        }
        assert!(near(
            point(&t, HandleSide::Out, 1, 0),
            (1.0 + 2.0 / 3.0, 3.0)
        ));
        for (i, s) in samples(&t, 0.0, 3.0, 300).iter().enumerate() {
            let time = 3.0 * i as f64 / 300.0;
            let line = if time <= 1.0 {
                5.0 * time
            } else {
                5.0 - 3.0 * (time - 1.0)
            };
            assert!((s[0] - line).abs() < 1e-5, "t = {time}: {} vs {line}", s[0]);
        }
    }

    #[test]
    fn auto_clamped_is_flat_at_extrema_and_never_overshoots() {
        let times = vec![0.0, 0.5, 1.0, 1.2, 3.0, 3.5];
        let values = vec![0.0, 4.0, 4.5, 9.0, -2.0, -1.0];
        let mut t = bezier(times.clone(), values.clone(), TrackKind::Number);
        for k in 0..times.len() {
            t.set_tangent_mode(k, TangentMode::AutoClamped);
        }
        for k in [0, 3, 4, 5] {
            assert_eq!(
                point(&t, HandleSide::In, k, 0).1,
                values[k] as f64,
                "key {k}"
            );
            assert_eq!(
                point(&t, HandleSide::Out, k, 0).1,
                values[k] as f64,
                "key {k}"
            );
        }
        // The rising keys 1 and 2 slope upwards and stay collinear.
        assert!(point(&t, HandleSide::Out, 1, 0).1 > 4.0);
        assert!(key_collinear(&t, 1, 0) && key_collinear(&t, 2, 0));
        let s = samples(&t, 0.0, 3.5, 3500);
        for (i, v) in s.iter().enumerate() {
            let time = 3.5 * i as f64 / 3500.0;
            let k = times.iter().rposition(|&x| x as f64 <= time).unwrap();
            let k = k.min(times.len() - 2);
            let (a, b) = (values[k] as f64, values[k + 1] as f64);
            let slack = 1e-5;
            assert!(
                v[0] >= a.min(b) - slack && v[0] <= a.max(b) + slack,
                "t = {time}: {} outside [{a}, {b}]",
                v[0]
            );
        }
        // Plain auto does not flatten the peak at key 3, so its handle passes 9.
        t.set_tangent_mode(3, TangentMode::Auto);
        assert!(point(&t, HandleSide::In, 3, 0).1 > 9.1);
    }

    #[test]
    fn auto_uses_neighbour_slope_and_third_lengths() {
        let mut t = bezier(vec![0.0, 1.0, 4.0], vec![0.0, 1.0, 8.0], TrackKind::Number);
        t.set_tangent_mode(1, TangentMode::Auto);
        assert_eq!(mode_of(&t, 1), TangentMode::Auto);
        // slope (8 - 0) / 4 = 2
        let h_in = point(&t, HandleSide::In, 1, 0);
        let h_out = point(&t, HandleSide::Out, 1, 0);
        assert!((h_in.0 - 2.0 / 3.0).abs() < 1e-6 && (h_in.1 - 1.0 / 3.0).abs() < 1e-6);
        assert_eq!(h_out, (2.0, 3.0));
        // End key: inner handle toward the neighbour, the outer one mirrors it.
        t.set_tangent_mode(0, TangentMode::Auto);
        let h_in = point(&t, HandleSide::In, 0, 0);
        assert!((h_in.0 + 1.0 / 3.0).abs() < 1e-6 && (h_in.1 + 1.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn refresh_follows_moved_keys() {
        let mut t = bezier(vec![0.0, 1.0, 2.0], vec![0.0, 1.0, 2.0], TrackKind::Number);
        t.set_tangent_mode(1, TangentMode::Auto);
        t.set_tangent_mode(2, TangentMode::Aligned);
        let aligned_before = point(&t, HandleSide::In, 2, 0);
        t.values.as_numbers_mut().unwrap()[2] = 8.0;
        t.refresh_auto_handles();
        assert!(near(
            point(&t, HandleSide::Out, 1, 0),
            (1.0 + 1.0 / 3.0, 1.0 + 4.0 / 3.0)
        ));
        assert_eq!(point(&t, HandleSide::In, 2, 0), aligned_before);
        // Nothing to refresh without tangents.
        let mut plain = Track::numeric(".x", TrackKind::Number, vec![0.0], vec![0.0]);
        plain.refresh_auto_handles();
        assert!(plain.tangents.is_none());
    }

    #[test]
    fn set_handle_clamps_and_switches_mode() {
        let mut t = bezier(vec![0.0, 1.0, 2.0], vec![0.0, 1.0, 0.0], TrackKind::Number);
        t.set_tangent_mode(1, TangentMode::Auto);
        t.set_handle(1, 0, HandleSide::Out, 5.0, 2.0, false);
        assert_eq!(point(&t, HandleSide::Out, 1, 0), (2.0, 2.0));
        assert_eq!(mode_of(&t, 1), TangentMode::Aligned);
        t.set_handle(1, 0, HandleSide::In, 1.5, 0.0, false);
        assert_eq!(point(&t, HandleSide::In, 1, 0).0, 1.0);
        t.set_handle(1, 0, HandleSide::In, -3.0, 0.0, false);
        assert_eq!(point(&t, HandleSide::In, 1, 0), (0.0, 0.0));
        // First key: no neighbour before it, so the in handle may go anywhere earlier.
        t.set_handle(0, 0, HandleSide::In, -7.0, 1.0, false);
        assert_eq!(point(&t, HandleSide::In, 0, 0), (-7.0, 1.0));

        t.set_tangent_mode(2, TangentMode::AutoClamped);
        t.set_handle(2, 0, HandleSide::In, 1.5, 1.0, true);
        assert_eq!(mode_of(&t, 2), TangentMode::Free);
        assert!(near(
            point(&t, HandleSide::Out, 2, 0),
            (2.0 + 1.0 / 3.0, 0.0)
        ));
        // Breaking an aligned key frees it too, and the other handle stays put.
        let before = point(&t, HandleSide::Out, 1, 0);
        t.set_handle(1, 0, HandleSide::In, 0.5, 3.0, true);
        assert_eq!(mode_of(&t, 1), TangentMode::Free);
        assert_eq!(point(&t, HandleSide::Out, 1, 0), before);
    }

    #[test]
    fn aligned_rotation_keeps_collinearity_and_length() {
        let mut t = bezier(vec![0.0, 1.0, 2.0], vec![0.0, 1.0, 0.0], TrackKind::Number);
        t.set_tangent_mode(1, TangentMode::Aligned);
        assert_eq!(mode_of(&t, 1), TangentMode::Aligned);
        let length = |t: &Track| {
            let (ht, hv) = point(t, HandleSide::Out, 1, 0);
            (ht - 1.0).hypot(hv - 1.0)
        };
        let keep = length(&t);
        for (time, value) in [(0.8, 0.0), (0.9, 1.7), (0.5, 1.0), (1.0, -4.0)] {
            t.set_handle(1, 0, HandleSide::In, time, value, false);
            assert!(key_collinear(&t, 1, 0), "in handle at ({time}, {value})");
            assert!((length(&t) - keep).abs() < 1e-6);
        }
        // Turning would carry the out handle past the next key: it is shortened instead.
        t.set_handle(1, 0, HandleSide::In, 0.0, 1.0, false);
        t.set_handle(1, 0, HandleSide::Out, 2.0, 3.0, false);
        t.set_handle(1, 0, HandleSide::In, 0.1, 1.0, false);
        assert!(near(point(&t, HandleSide::Out, 1, 0), (2.0, 1.0)));
        assert!(key_collinear(&t, 1, 0));
    }

    #[test]
    fn set_tangent_mode_aligns_free_handles_and_works_on_plain_tracks() {
        let mut t = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 0.0, 1.0, 2.0, 0.0, 0.0],
        );
        t.set_tangent_mode(1, TangentMode::Aligned);
        // A linear track gets fitted (vector) handles; its curve is unchanged.
        assert_eq!(t.interpolation, Interpolation::Linear);
        assert_eq!(mode_of(&t, 0), TangentMode::Vector);
        assert!(key_collinear(&t, 1, 0) && key_collinear(&t, 1, 1));
        t.set_tangent_mode(7, TangentMode::Auto);
        assert_eq!(t.tangents.as_ref().unwrap().modes.len(), 3);
    }

    #[test]
    fn lone_key_gets_zero_length_handles() {
        let mut t = bezier(vec![1.0], vec![3.0], TrackKind::Number);
        t.set_tangent_mode(0, TangentMode::Auto);
        assert_eq!(point(&t, HandleSide::In, 0, 0), (1.0, 3.0));
        assert_eq!(point(&t, HandleSide::Out, 0, 0), (1.0, 3.0));
    }
}
