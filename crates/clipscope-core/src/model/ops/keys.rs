//! Key editing for a curve editor: move, offset, delete, insert and set keys.
//!
//! Keys keep their order: times stay strictly increasing, separated by at least
//! [`min_key_gap`] (a millionth of a second, or a few `f32` steps for large times, so a gap
//! survives the rounding to `f32`). Handles travel with their key (time and value), and handle
//! modes stay aligned with the keys. None of these recompute automatic handles: call
//! [`Track::refresh_auto_handles`] after an edit that moves keys.

use crate::model::interpolant::Sampler;
use crate::model::interpolant::bezier::{solve_parameter, split};
use crate::model::{HandleSide, Interpolation, TangentMode, Track, TrackKind, Values};

/// The smallest gap kept between the times of two neighbouring keys near times `a` and `b`:
/// 1e-6 s, or four `f32` steps at that magnitude when that is more.
pub fn min_key_gap(a: f64, b: f64) -> f64 {
    let magnitude = a.abs().max(b.abs());
    (4.0 * f32::EPSILON as f64 * magnitude).max(1e-6)
}

/// `keys` sorted, without duplicates and without indices past `n`.
fn clean(keys: &[usize], n: usize) -> Vec<usize> {
    let mut keys: Vec<usize> = keys.iter().copied().filter(|&k| k < n).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

impl Track {
    /// The range `(min, max)` of time offsets by which `keys` (sorted unique indices) can move
    /// together without reaching an unselected neighbour (keeping [`min_key_gap`]); a side
    /// nothing blocks is infinite. Always contains 0.
    pub fn time_move_limits(&self, keys: &[usize]) -> (f64, f64) {
        let n = self.len();
        let keys = clean(keys, n);
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut i = 0;
        while i < keys.len() {
            // A run of consecutive selected keys moves as a block.
            let first = keys[i];
            while i + 1 < keys.len() && keys[i + 1] == keys[i] + 1 {
                i += 1;
            }
            let last = keys[i];
            i += 1;
            let (tf, tl) = (self.times[first] as f64, self.times[last] as f64);
            if first > 0 {
                let prev = self.times[first - 1] as f64;
                lo = lo.max(prev + min_key_gap(prev, tf) - tf);
            }
            if last + 1 < n {
                let next = self.times[last + 1] as f64;
                hi = hi.min(next - min_key_gap(next, tl) - tl);
            }
        }
        (lo.min(0.0), hi.max(0.0))
    }

    /// Adds `dt` seconds to the times of `keys` and of their handles, rounding to `f32`. Keys
    /// are not reordered: clamp `dt` to [`Track::time_move_limits`] first.
    pub fn move_keys(&mut self, keys: &[usize], dt: f64) {
        let vs = self.value_size();
        for k in clean(keys, self.len()) {
            self.times[k] = (self.times[k] as f64 + dt) as f32;
            if let Some(tangents) = &mut self.tangents {
                for side in [HandleSide::In, HandleSide::Out] {
                    for c in 0..vs {
                        if let Some((t, v)) = tangents.point(side, k, c, vs) {
                            tangents.set_point(side, k, c, vs, (t + dt, v));
                        }
                    }
                }
            }
        }
    }

    /// Adds `dv` to each value component `(key, component)` of `items` (each counted once)
    /// and to that component's in and out handle values. Bool and string tracks are left alone.
    pub fn offset_values(&mut self, items: &[(usize, usize)], dv: f64) {
        for (k, c) in self.value_components(items) {
            self.offset_component(k, c, dv);
        }
    }

    /// The `(key, component)` pairs of `items` that exist in this track, sorted, each once.
    pub(crate) fn value_components(&self, items: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let (n, vs) = (self.len(), self.value_size());
        let mut items: Vec<(usize, usize)> = items
            .iter()
            .copied()
            .filter(|&(k, c)| k < n && c < vs)
            .collect();
        items.sort_unstable();
        items.dedup();
        items
    }

    /// Removes `keys` with their values, handles and modes. Removing every key leaves an empty
    /// track (which three.js cannot construct), so an editor should keep at least one.
    pub fn delete_keys(&mut self, keys: &[usize]) {
        let n = self.len();
        let keys = clean(keys, n);
        if keys.is_empty() {
            return;
        }
        let vs = self.value_size();
        let mut deleted = vec![false; n];
        for &k in &keys {
            deleted[k] = true;
        }
        let kept: Vec<usize> = (0..n).filter(|&k| !deleted[k]).collect();
        let len = self.values.len();
        let mut values = self.values.empty_like();
        for &k in &kept {
            values.extend_from(&self.values, (k * vs).min(len)..((k + 1) * vs).min(len));
        }
        // Entries past the keys (a value count that is not a whole multiple) stay at the end.
        values.extend_from(&self.values, (n * vs).min(len)..len);
        self.values = values;
        self.times = kept.iter().map(|&k| self.times[k]).collect();
        if let Some(tangents) = &mut self.tangents {
            let chunk = vs * 2;
            for side in [HandleSide::In, HandleSide::Out] {
                let arr = tangents.side_mut(side);
                // Drop the chunk of each deleted key that the array holds; keep the rest
                // (including entries past the keys, as three.js leaves them after optimize).
                let mut j = 0usize;
                arr.retain(|_| {
                    let key = j.checked_div(chunk).unwrap_or(n);
                    j += 1;
                    key >= n || !deleted[key]
                });
            }
            tangents.keep_modes(kept);
        }
    }

    /// Inserts a key at `time` (rounded to `f32`) whose value is the curve's value there, and
    /// returns its index; a key already at that time is returned unchanged.
    ///
    /// Linear tracks (slerp included) keep their shape exactly. A bezier segment is split at
    /// the point the interpolant evaluates at `time` (de Casteljau), so the curve is unchanged:
    /// the neighbours' handles are shortened and the new key gets [`TangentMode::Aligned`].
    /// Before the first or after the last key the new key repeats the end value with flat
    /// handles. Discrete, bool and string tracks copy the previous key's value (the first
    /// key's before the start). Smooth tracks change slightly around the new key, since the
    /// three.js spline depends on the neighbouring keys. An empty track gets a zero value
    /// (identity for quaternions, `false`, the empty string). A non-finite time inserts
    /// nothing and returns the last key's index (0 for an empty track).
    pub fn insert_key(&mut self, time: f64) -> usize {
        let n = self.len();
        if !time.is_finite() {
            return n.saturating_sub(1);
        }
        let t32 = time as f32;
        if let Some(k) = self.times.iter().position(|&x| x == t32) {
            return k;
        }
        let t = t32 as f64;
        let at = self.times.partition_point(|&x| (x as f64) < t);
        let bezier = self.interpolation == Interpolation::Bezier;
        if bezier && n > 0 {
            self.ensure_tangents();
        }
        let vs = if n == 0 {
            self.default_value_size()
        } else {
            self.value_size()
        };
        let value = self.value_to_insert(t, at);
        self.times.insert(at, t32);
        let position = (at * vs).min(self.values.len());
        self.values.insert_from(position, &value);

        let Some(tangents) = &mut self.tangents else {
            if bezier {
                // A lone key of an empty bezier track.
                self.set_tangent_mode(at, TangentMode::Aligned);
            }
            return at;
        };
        let chunk = vs * 2;
        for side in [HandleSide::In, HandleSide::Out] {
            let arr = tangents.side_mut(side);
            if arr.len() >= at * chunk {
                arr.splice(at * chunk..at * chunk, std::iter::repeat_n(0.0, chunk));
            }
        }
        if !tangents.modes.is_empty() {
            if tangents.modes.len() < at {
                tangents.modes.resize(at, TangentMode::Free);
            }
            tangents.modes.insert(at, TangentMode::Free);
        }
        if bezier && n > 0 && at > 0 && at < n {
            self.split_segment(at);
        } else {
            self.flat_handles_for_new_key(at, bezier);
        }
        if bezier {
            self.ensure_tangents().set_mode(at, TangentMode::Aligned);
        }
        at
    }

    /// Sets `key`'s time and/or one component's value; its handles move along. The time is
    /// rounded to `f32` and clamped between the neighbouring keys (keeping [`min_key_gap`]);
    /// a component on a bool or string track, or out of range, is ignored.
    pub fn set_key(&mut self, key: usize, time: Option<f64>, component: Option<(usize, f64)>) {
        let n = self.len();
        if key >= n {
            return;
        }
        if let Some(time) = time.filter(|t| !t.is_nan()) {
            let current = self.times[key] as f64;
            let (lo, hi) = self.time_move_limits(&[key]);
            let target = (time - current).clamp(lo, hi) + current;
            let dt = (target as f32) as f64 - current;
            if dt != 0.0 {
                self.move_keys(&[key], dt);
            }
        }
        if let Some((c, value)) = component
            && c < self.value_size()
            && !value.is_nan()
            && let Some(values) = self.values.as_numbers()
        {
            let current = values[key * self.value_size() + c] as f64;
            let dv = (value as f32) as f64 - current;
            self.offset_component(key, c, dv);
        }
    }

    /// Adds `dv` to one value component (rounded to `f32`) and to its two handle values.
    fn offset_component(&mut self, key: usize, component: usize, dv: f64) {
        let vs = self.value_size();
        let Some(values) = self.values.as_numbers_mut() else {
            return;
        };
        let v = &mut values[key * vs + component];
        *v = (*v as f64 + dv) as f32;
        if let Some(tangents) = &mut self.tangents {
            for side in [HandleSide::In, HandleSide::Out] {
                if let Some((t, hv)) = tangents.point(side, key, component, vs) {
                    tangents.set_point(side, key, component, vs, (t, hv + dv));
                }
            }
        }
    }

    /// Values per key for a track that has no keys yet.
    fn default_value_size(&self) -> usize {
        match self.kind {
            TrackKind::Number | TrackKind::Bool | TrackKind::String => 1,
            TrackKind::Vector | TrackKind::Color => 3,
            TrackKind::Quaternion => 4,
        }
    }

    /// The values of a key inserted at time `t` before key index `at` (see
    /// [`Track::insert_key`]).
    fn value_to_insert(&self, t: f64, at: usize) -> Values {
        if self.is_empty() {
            let vs = self.default_value_size();
            return match self.kind {
                TrackKind::Quaternion => Values::Numbers(vec![0.0, 0.0, 0.0, 1.0]),
                TrackKind::Bool => Values::Bools(vec![false; vs]),
                TrackKind::String => Values::Strings(vec![String::new(); vs]),
                _ => Values::Numbers(vec![0.0; vs]),
            };
        }
        let vs = self.value_size();
        match &self.values {
            Values::Numbers(_) => Sampler::new(self).evaluate(t),
            other => {
                let k = at.saturating_sub(1);
                other.slice(k * vs..(k + 1) * vs)
            }
        }
    }

    /// Splits the bezier segment around the new key `at` (already inserted with placeholder
    /// handles) by de Casteljau at the parameter the interpolant uses for its time, setting
    /// the new key's values to the curve's and shortening the neighbours' handles.
    fn split_segment(&mut self, at: usize) {
        let vs = self.value_size();
        let (t0, t, t1) = (
            self.times[at - 1] as f64,
            self.times[at] as f64,
            self.times[at + 1] as f64,
        );
        for c in 0..vs {
            let (v0, v1) = (self.key_value(at - 1, c), self.key_value(at + 1, c));
            let Some(tangents) = &mut self.tangents else {
                return;
            };
            let (Some(c0), Some(c1)) = (
                tangents.point(HandleSide::Out, at - 1, c, vs),
                tangents.point(HandleSide::In, at + 1, c, vs),
            ) else {
                continue;
            };
            let s = solve_parameter(t, t0, c0.0, c1.0, t1);
            let (xl, xr) = split([t0, c0.0, c1.0, t1], s);
            let (yl, yr) = split([v0, c0.1, c1.1, v1], s);
            tangents.set_point(HandleSide::Out, at - 1, c, vs, (xl[1], yl[1]));
            tangents.set_point(HandleSide::In, at, c, vs, (xl[2], yl[2]));
            tangents.set_point(HandleSide::Out, at, c, vs, (xr[1], yr[1]));
            tangents.set_point(HandleSide::In, at + 1, c, vs, (xr[2], yr[2]));
            if let Some(values) = self.values.as_numbers_mut() {
                values[at * vs + c] = yl[3] as f32;
            }
        }
    }

    /// Gives the new key `at` flat handles a third of the way to its neighbours (mirrored at
    /// an end). On a bezier track a new end key also flattens the neighbour's handle facing it,
    /// so the flat stretch beyond the old end stays flat; the neighbour becomes free if that
    /// breaks the alignment of its handles.
    fn flat_handles_for_new_key(&mut self, at: usize, bezier: bool) {
        let n = self.len();
        let vs = self.value_size();
        let t = self.times[at] as f64;
        let before = at.checked_sub(1).map(|k| (t - self.times[k] as f64) / 3.0);
        let after = (at + 1 < n).then(|| (self.times[at + 1] as f64 - t) / 3.0);
        let din = before.or(after).unwrap_or(0.0);
        let dout = after.or(before).unwrap_or(0.0);
        let values: Vec<f64> = (0..vs).map(|c| self.key_value(at, c)).collect();
        let neighbour = if at == 0 && n > 1 {
            Some((1, HandleSide::In, self.times[1] as f64 - dout))
        } else if at + 1 == n && n > 1 {
            Some((at - 1, HandleSide::Out, self.times[at - 1] as f64 + din))
        } else {
            None
        };
        let Some(tangents) = &mut self.tangents else {
            return;
        };
        for (c, &v) in values.iter().enumerate() {
            tangents.set_point(HandleSide::In, at, c, vs, (t - din, v));
            tangents.set_point(HandleSide::Out, at, c, vs, (t + dout, v));
        }
        let Some((k, side, handle_time)) = neighbour.filter(|_| bezier) else {
            return;
        };
        for (c, &v) in values.iter().enumerate() {
            tangents.set_point(side, k, c, vs, (handle_time, v));
        }
        let broken = self
            .tangents
            .as_ref()
            .is_some_and(|tg| tg.mode(k) != TangentMode::Free && !self.handles_collinear_in(tg, k));
        if broken && let Some(tangents) = &mut self.tangents {
            tangents.set_mode(k, TangentMode::Free);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::curve_samples::{assert_close, samples};

    fn line() -> Track {
        Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![0.0, 1.0, 5.0, 4.0, 0.0],
        )
    }

    fn smooth_bezier() -> Track {
        let mut t = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 0.7, 1.5, 2.0],
            vec![0.0, 1.0, 2.0, 3.0, -1.0, 0.0, 1.0, 1.0, 4.0, -2.0, 0.5, 0.0],
        );
        t.interpolation = Interpolation::Smooth;
        t.convert_interpolation(Interpolation::Bezier).unwrap();
        // Make one handle pair non-trivial: time no longer runs evenly along segment 1.
        t.set_handle(1, 0, HandleSide::Out, 0.8, 3.0, true);
        t.set_handle(2, 1, HandleSide::In, 1.45, -3.0, true);
        t
    }

    #[test]
    fn move_limits_stop_at_unselected_neighbours() {
        let t = line();
        let (lo, hi) = t.time_move_limits(&[1, 2]);
        assert!((lo + 1.0).abs() < 1e-5 && lo > -1.0);
        assert!((hi - 1.0).abs() < 1e-5 && hi < 1.0);
        assert_eq!(t.time_move_limits(&[0]).0, f64::NEG_INFINITY);
        assert_eq!(t.time_move_limits(&[4]).1, f64::INFINITY);
        assert_eq!(
            t.time_move_limits(&[0, 1, 2, 3, 4]),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        // Two separate runs: the tighter side wins.
        let (lo, hi) = t.time_move_limits(&[1, 3]);
        assert!(lo > -1.0 && lo < -0.99 && hi > 0.99 && hi < 1.0);
        // Moving to the limit keeps times strictly increasing, even far from 0.
        let mut far = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![10000.0, 10001.0, 10002.0],
            vec![0.0; 3],
        );
        let (lo, hi) = far.time_move_limits(&[1]);
        far.move_keys(&[1], hi);
        assert!(far.times[1] < far.times[2]);
        far.move_keys(&[1], lo - hi);
        assert!(far.times[0] < far.times[1]);
    }

    #[test]
    fn move_keys_carries_handles_and_allows_negative_times() {
        let mut t = smooth_bezier();
        let before = t.tangents.clone().unwrap();
        let (lo, _) = t.time_move_limits(&[0, 1]);
        assert_eq!(lo, f64::NEG_INFINITY);
        t.move_keys(&[0, 1], -2.0);
        assert_eq!(t.times[..2], [-2.0, 0.7 - 2.0]);
        let after = t.tangents.as_ref().unwrap();
        for (i, (a, b)) in after.out_tangents[..12]
            .iter()
            .zip(&before.out_tangents[..12])
            .enumerate()
        {
            let shift = if i % 2 == 0 { 2.0 } else { 0.0 };
            assert!((*a as f64 - (*b as f64 - shift)).abs() < 1e-6, "entry {i}");
        }
        assert_eq!(after.out_tangents[12..], before.out_tangents[12..]);
    }

    #[test]
    fn set_key_clamps_time_and_moves_handles() {
        let mut t = smooth_bezier();
        let (old_t, old_v) = t
            .tangents
            .as_ref()
            .unwrap()
            .point(HandleSide::In, 1, 2, 3)
            .unwrap();
        let old_key = t.times[1] as f64;
        t.set_key(1, Some(5.0), Some((2, 10.0)));
        assert!(t.times[1] < 1.5 && t.times[1] > 1.499);
        assert_eq!(t.values.as_numbers().unwrap()[5], 10.0);
        let tangents = t.tangents.as_ref().unwrap();
        let (ht, hv) = tangents.point(HandleSide::In, 1, 2, 3).unwrap();
        assert!((ht - (old_t + t.times[1] as f64 - old_key)).abs() < 1e-6);
        assert!((hv - (old_v + 10.0)).abs() < 1e-5);
        let mut plain = line();
        plain.set_key(2, Some(-9.0), None);
        assert!(plain.times[2] > 1.0 && plain.times[2] < 1.001);
        plain.set_key(2, None, Some((1, 3.0)));
        assert_eq!(plain.values.as_numbers().unwrap()[2], 5.0);
    }

    #[test]
    fn offset_values_moves_values_and_handles_once() {
        let mut t = smooth_bezier();
        let before = t.clone();
        t.offset_values(&[(1, 0), (1, 0), (2, 2), (9, 0)], 0.5);
        let (a, b) = (
            before.values.as_numbers().unwrap(),
            t.values.as_numbers().unwrap(),
        );
        assert_eq!(b[3], a[3] + 0.5);
        assert_eq!(b[8], a[8] + 0.5);
        assert_eq!(b[4], a[4]);
        let (ta, tb) = (before.tangents.unwrap(), t.tangents.unwrap());
        assert_eq!(tb.in_tangents[7], ta.in_tangents[7] + 0.5);
        assert_eq!(tb.out_tangents[6], ta.out_tangents[6]);
    }

    #[test]
    fn delete_keeps_shape_where_the_key_was_redundant() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 4.0],
            vec![0.0, 2.0, 4.0, 0.0],
        );
        let before = samples(&t, -1.0, 5.0, 600);
        t.delete_keys(&[1]);
        assert_eq!(t.times, vec![0.0, 2.0, 4.0]);
        assert_close(&samples(&t, -1.0, 5.0, 600), &before, 1e-6);
    }

    #[test]
    fn delete_removes_handles_and_modes() {
        let mut t = smooth_bezier();
        t.set_tangent_mode(2, TangentMode::AutoClamped);
        let before = t.tangents.clone().unwrap();
        t.delete_keys(&[1, 3]);
        assert_eq!(t.times, vec![0.0, 1.5]);
        assert_eq!(t.values.len(), 6);
        let tangents = t.tangents.as_ref().unwrap();
        assert_eq!(tangents.in_tangents[6..], before.in_tangents[12..18]);
        assert_eq!(tangents.out_tangents[..6], before.out_tangents[..6]);
        assert_eq!(tangents.modes, [before.mode(0), TangentMode::AutoClamped]);
    }

    #[test]
    fn insert_into_linear_keeps_shape_and_reuses_existing_keys() {
        let mut t = line();
        let before = samples(&t, -1.0, 5.0, 600);
        assert_eq!(t.insert_key(2.0), 2);
        assert_eq!(t.len(), 5);
        assert_eq!(t.insert_key(2.5), 3);
        assert_eq!(t.values.as_numbers().unwrap()[3], 4.5);
        assert_eq!(t.insert_key(-1.0), 0);
        assert_eq!(t.insert_key(9.0), 7);
        assert_eq!(t.values.as_numbers().unwrap()[7], 0.0);
        assert_close(&samples(&t, -1.0, 5.0, 600), &before, 1e-6);
        assert!(t.tangents.is_none());
        // Inserting then deleting gives the original track back.
        let mut t = line();
        let k = t.insert_key(0.25);
        t.delete_keys(&[k]);
        assert_eq!(t, line());
    }

    #[test]
    fn insert_into_slerped_quaternions_keeps_shape() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let mut q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, h, h, 0.0, 0.0, h],
        );
        let before = samples(&q, 0.0, 2.0, 400);
        q.insert_key(0.3);
        q.insert_key(1.8);
        assert_close(&samples(&q, 0.0, 2.0, 400), &before, 1e-6);
    }

    #[test]
    fn insert_into_bezier_is_exact() {
        let mut t = smooth_bezier();
        let before = samples(&t, -1.0, 3.0, 2000);
        for time in [0.75, 0.3, 1.6, 1.9, 0.01] {
            let k = t.insert_key(time);
            assert_eq!(t.times[k], time as f32);
            assert_eq!(t.tangents.as_ref().unwrap().mode(k), TangentMode::Aligned);
            assert_close(&samples(&t, -1.0, 3.0, 2000), &before, 2e-5);
        }
        // Past both ends: the flat stretches stay flat.
        let k = t.insert_key(-0.5);
        assert_eq!(k, 0);
        let k = t.insert_key(2.5);
        assert_eq!(k, t.len() - 1);
        assert_close(&samples(&t, -1.0, 3.0, 2000), &before, 2e-5);
        let tangents = t.tangents.as_ref().unwrap();
        assert_eq!(tangents.in_tangents.len(), t.len() * 3 * 2);
        assert_eq!(tangents.modes.len(), t.len());
    }

    #[test]
    fn insert_into_bezier_without_tangents_follows_the_linear_fallback() {
        let mut t = line();
        t.interpolation = Interpolation::Bezier;
        let before = samples(&t, -1.0, 5.0, 600);
        let k = t.insert_key(1.5);
        assert!((t.values.as_numbers().unwrap()[k] - 3.0).abs() < 1e-6);
        assert_close(&samples(&t, -1.0, 5.0, 600), &before, 1e-5);
        assert_eq!(t.tangents.as_ref().unwrap().mode(0), TangentMode::Vector);
    }

    #[test]
    fn insert_copies_the_previous_key_on_discrete_bool_and_string_tracks() {
        let mut flags = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        assert_eq!(flags.insert_key(0.5), 1);
        assert_eq!(flags.insert_key(-1.0), 0);
        assert_eq!(flags.values, Values::Bools(vec![true, true, true, false]));
        let mut names = Track::new(
            ".name",
            TrackKind::String,
            vec![0.0, 1.0],
            Values::Strings(vec!["a".into(), "b".into()]),
        );
        names.insert_key(3.0);
        assert_eq!(names.values.slice(2..3), Values::Strings(vec!["b".into()]));
        let mut steps = line();
        steps.interpolation = Interpolation::Discrete;
        let k = steps.insert_key(2.9);
        assert_eq!(steps.values.as_numbers().unwrap()[k], 5.0);
    }

    #[test]
    fn insert_into_empty_and_smooth_tracks() {
        let mut q = Track::numeric(".q", TrackKind::Quaternion, vec![], vec![]);
        assert_eq!(q.insert_key(0.5), 0);
        assert_eq!(q.values.as_numbers().unwrap(), &[0.0, 0.0, 0.0, 1.0]);
        let mut b = Track::numeric(".b", TrackKind::Number, vec![], vec![]);
        b.interpolation = Interpolation::Bezier;
        b.insert_key(1.0);
        assert_eq!(b.tangents.as_ref().unwrap().modes, [TangentMode::Aligned]);
        assert_eq!(b.insert_key(f64::NAN), 0);
        // A smooth track's key lands on the old curve.
        let mut s = line();
        s.interpolation = Interpolation::Smooth;
        let at = samples(&s, 2.5, 2.5, 1)[0][0];
        let k = s.insert_key(2.5);
        assert_eq!(s.values.as_numbers().unwrap()[k], at as f32);
    }
}
