//! Decimating a track's curve for drawing: a polyline with a few points per pixel column that
//! still shows every step and every spike.
//!
//! A curve editor showing a 6,000-key capture on a 1,500-pixel wide plot cannot draw a line
//! through every key each frame, and it must not resample the curve at fixed steps either: a
//! one-frame spike would fall between samples and vanish, and stepped (discrete) tracks would
//! turn into ramps. [`envelope`] draws what plays: it evaluates the track with the same
//! [`Sampler`] the player uses, at every column edge and at the keys, and keeps per column only
//! the points that matter:
//!
//! * a column holding **no key** contributes its edge sample (the curve between two keys is
//!   smooth at pixel scale, so one sample per column draws it);
//! * a column holding **one key** contributes the key itself, exactly, and for stepped tracks
//!   also the value held just before it, so the jump is vertical at the key's time;
//! * a column holding **several keys** contributes the lowest and the highest key when they reach
//!   outside the band between the column's two edge samples (in time order), so a spike of one
//!   key survives however far the view is zoomed out.
//!
//! Runs of equal values collapse to their two end points, so held values cost nothing. Each
//! column adds at most three points, and the work is one binary search to the start of the range
//! plus O(columns + keys in range) sampler steps (the sampler scans forward from its cached
//! interval, falling back to a binary search when a column skips several keys).
//!
//! Quaternion tracks can also be shown as Euler angles ([`Channel::Euler`]): the sampled
//! quaternion is normalized and converted with glam's intrinsic XYZ order (three.js's default
//! `Euler` order), in degrees, and the angles are made continuous like Blender's Euler filter
//! does: [`euler_keys`] walks the keys once, giving each the equivalent angle triple nearest the
//! key before ([`closest_euler`]), and a sample between keys
//! takes the triple nearest the key before it. The curves then stop jumping by 360° at ±180°
//! or flipping to the other decomposition, wherever the view starts.

use glam::{DQuat, EulerRot};

use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::ops::closest_euler;
use clipscope_core::model::{Interpolation, Track, TrackKind, Values};

/// The number a curve shows for a track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    /// Value component `c` of each key (0 for scalars; x, y, z, w for vectors and quaternions).
    Component(usize),
    /// Euler angle in degrees about axis 0 = X, 1 = Y, 2 = Z (intrinsic XYZ order, like three.js's
    /// default `Euler`), computed from the normalized quaternion in the first four components.
    Euler(usize),
}

impl Channel {
    /// Whether `track` has this channel: a numeric or bool component within the value size, or
    /// an Euler axis of a quaternion track.
    pub fn is_valid_for(self, track: &Track) -> bool {
        if track.is_empty() {
            return false;
        }
        let vs = track.value_size();
        match self {
            Channel::Component(c) => {
                c < vs && matches!(track.values, Values::Numbers(_) | Values::Bools(_))
            }
            Channel::Euler(axis) => {
                axis < 3
                    && vs >= 4
                    && track.kind == TrackKind::Quaternion
                    && matches!(track.values, Values::Numbers(_))
            }
        }
    }

    /// This channel's number in one key's (or one sample's) values.
    fn pick(self, values: &[f64]) -> f64 {
        match self {
            Channel::Component(c) => values.get(c).copied().unwrap_or(f64::NAN),
            Channel::Euler(axis) => match values {
                [x, y, z, w, ..] => euler_degrees([*x, *y, *z, *w], axis),
                _ => f64::NAN,
            },
        }
    }
}

/// The Euler angle (degrees, intrinsic XYZ) about `axis` of the quaternion `[x, y, z, w]`,
/// normalized first; NaN for a zero or non-finite quaternion.
pub fn euler_degrees(q: [f64; 4], axis: usize) -> f64 {
    let q = DQuat::from_xyzw(q[0], q[1], q[2], q[3]);
    let len = q.length();
    if !(len > 0.0 && len.is_finite()) {
        return f64::NAN;
    }
    let (x, y, z) = (q / len).to_euler(EulerRot::XYZ);
    [x, y, z]
        .get(axis)
        .copied()
        .unwrap_or(f64::NAN)
        .to_degrees()
}

/// The Euler angles (radians, intrinsic XYZ) of the normalized quaternion `q`, NaN for a zero
/// or non-finite one.
fn euler_radians(q: [f64; 4]) -> [f64; 3] {
    let q = DQuat::from_xyzw(q[0], q[1], q[2], q[3]);
    let len = q.length();
    if !(len > 0.0 && len.is_finite()) {
        return [f64::NAN; 3];
    }
    let (x, y, z) = (q / len).to_euler(EulerRot::XYZ);
    [x, y, z]
}

/// `angles` moved to the equivalent triple nearest `reference` (unchanged without one, or when
/// either is not finite).
fn continuous(angles: [f64; 3], reference: Option<[f64; 3]>) -> [f64; 3] {
    match reference {
        Some(r) if r.iter().chain(&angles).all(|v| v.is_finite()) => closest_euler(angles, r),
        _ => angles,
    }
}

/// The Euler angles (radians, intrinsic XYZ) of every key of a quaternion track, continuous:
/// each key's triple is the equivalent one nearest the key before (Blender's Euler filter, for
/// display). One pass over the keys; empty for other tracks.
pub fn euler_keys(track: &Track) -> Vec<[f64; 3]> {
    let (Values::Numbers(v), TrackKind::Quaternion) = (&track.values, track.kind) else {
        return Vec::new();
    };
    let vs = track.value_size();
    if vs < 4 {
        return Vec::new();
    }
    let mut out: Vec<[f64; 3]> = Vec::with_capacity(track.len());
    let mut last: Option<[f64; 3]> = None;
    for k in 0..track.len() {
        let q: [f64; 4] =
            std::array::from_fn(|c| v.get(k * vs + c).map_or(f64::NAN, |&x| x as f64));
        let angles = continuous(euler_radians(q), last);
        if angles.iter().all(|a| a.is_finite()) {
            last = Some(angles);
        }
        out.push(angles);
    }
    out
}

/// Reads one channel of key values straight from a track's arrays (no sampler).
struct KeyReader<'a> {
    values: KeyValues<'a>,
    stride: usize,
    channel: Channel,
    /// For an Euler channel, every key's continuous angles ([`euler_keys`]).
    euler: Vec<[f64; 3]>,
}

enum KeyValues<'a> {
    Numbers(&'a [f32]),
    Bools(&'a [bool]),
}

impl<'a> KeyReader<'a> {
    fn new(track: &'a Track, channel: Channel) -> Option<KeyReader<'a>> {
        if !channel.is_valid_for(track) {
            return None;
        }
        let values = match &track.values {
            Values::Numbers(v) => KeyValues::Numbers(v),
            Values::Bools(v) => KeyValues::Bools(v),
            Values::Strings(_) => return None,
        };
        let euler = match channel {
            Channel::Euler(_) => euler_keys(track),
            Channel::Component(_) => Vec::new(),
        };
        Some(KeyReader {
            values,
            stride: track.value_size(),
            channel,
            euler,
        })
    }

    /// The channel's value at key `k` (NaN past the end of the arrays).
    fn at(&self, k: usize) -> f64 {
        let base = k * self.stride;
        let get = |i: usize| -> f64 {
            match self.values {
                KeyValues::Numbers(v) => v.get(base + i).map_or(f64::NAN, |&x| x as f64),
                KeyValues::Bools(v) => v.get(base + i).map_or(f64::NAN, |&b| b as u8 as f64),
            }
        };
        match self.channel {
            Channel::Component(c) => get(c),
            Channel::Euler(axis) => self.euler.get(k).map_or(f64::NAN, |a| {
                a.get(axis).copied().unwrap_or(f64::NAN).to_degrees()
            }),
        }
    }

    /// The continuous Euler angles of key `k` (or of the last key before it that has them).
    fn euler_near(&self, k: usize) -> Option<[f64; 3]> {
        self.euler
            .get(..=k.min(self.euler.len().saturating_sub(1)))?
            .iter()
            .rev()
            .take(8)
            .find(|a| a.iter().all(|v| v.is_finite()))
            .copied()
    }
}

/// The value of `channel` at key `key` of `track`, or `None` when the track has no such channel
/// or key. For an Euler channel this is the key's own angle, not made continuous (the curve
/// editor places Euler key markers with [`euler_keys`], as the drawn line does).
pub fn key_value(track: &Track, channel: Channel, key: usize) -> Option<f64> {
    if key >= track.len() || !channel.is_valid_for(track) {
        return None;
    }
    match channel {
        // Read directly: a KeyReader would make every key's angles continuous first.
        Channel::Euler(axis) => {
            let v = track.values.as_numbers()?;
            let base = key * track.value_size();
            let q: [f64; 4] =
                std::array::from_fn(|c| v.get(base + c).map_or(f64::NAN, |&x| x as f64));
            Some(euler_degrees(q, axis))
        }
        Channel::Component(_) => KeyReader::new(track, channel).map(|r| r.at(key)),
    }
}

/// Evaluates one channel of a track through a [`Sampler`], reusing one buffer.
struct ChannelSampler<'a> {
    sampler: Sampler<'a>,
    buffer: Vec<f64>,
    channel: Channel,
}

impl<'a> ChannelSampler<'a> {
    fn new(track: &'a Track, channel: Channel) -> ChannelSampler<'a> {
        ChannelSampler {
            sampler: Sampler::new(track),
            buffer: vec![0.0; track.value_size()],
            channel,
        }
    }

    fn at(&mut self, t: f64) -> f64 {
        self.sampler.evaluate_f64(t, &mut self.buffer);
        self.channel.pick(&self.buffer)
    }

    /// The value at `t`; an Euler angle is taken from the triple nearest `reference` (the
    /// continuous angles of the key before `t`).
    fn at_near(&mut self, t: f64, reference: Option<[f64; 3]>) -> f64 {
        match (self.channel, reference) {
            (Channel::Euler(axis), Some(_)) => {
                self.sampler.evaluate_f64(t, &mut self.buffer);
                let q = match self.buffer[..] {
                    [x, y, z, w, ..] => [x, y, z, w],
                    _ => return f64::NAN,
                };
                continuous(euler_radians(q), reference)[axis].to_degrees()
            }
            _ => self.at(t),
        }
    }
}

/// Appends `(t, v)` to a polyline, skipping non-finite values and exact repeats, and collapsing
/// a run of equal values to its two end points.
fn push(out: &mut Vec<[f64; 2]>, t: f64, v: f64) {
    if !v.is_finite() || !t.is_finite() {
        return;
    }
    let n = out.len();
    if n >= 1 && out[n - 1] == [t, v] {
        return;
    }
    if n >= 2 && out[n - 1][1] == v && out[n - 2][1] == v {
        out[n - 1][0] = t;
        return;
    }
    out.push([t, v]);
}

/// The polyline that draws `channel` of `track` over `[t0, t1]` on `columns` pixel columns.
///
/// Points are `[time, value]`, in time order; see the [module docs](self) for which points are
/// kept. There are at most `3 * columns + 1` of them. Empty when the range is empty, `columns`
/// is 0, or the track has no such channel.
pub fn envelope(
    track: &Track,
    channel: Channel,
    t0: f64,
    t1: f64,
    columns: usize,
) -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    envelope_into(track, channel, t0, t1, columns, &mut out);
    out
}

/// [`envelope`] into a reused buffer (cleared first).
pub fn envelope_into(
    track: &Track,
    channel: Channel,
    t0: f64,
    t1: f64,
    columns: usize,
    out: &mut Vec<[f64; 2]>,
) {
    out.clear();
    if columns == 0 || !t0.is_finite() || !t1.is_finite() || t1 <= t0 {
        return;
    }
    let Some(keys) = KeyReader::new(track, channel) else {
        return;
    };
    let stepped = Track::resolve_interpolation(track.kind, Some(track.interpolation))
        == Interpolation::Discrete;
    let times = &track.times;
    let n = times.len();
    let mut curve = ChannelSampler::new(track, channel);
    let width = (t1 - t0) / columns as f64;

    // The first key at or after t0 (times are ascending in any sane track; for others this is
    // just some starting index and the walk below stays bounded).
    let mut k = times.partition_point(|&t| (t as f64) < t0);
    // The value drawn at a column edge: the curve there, except that a stepped track whose key
    // sits exactly on the edge still holds the previous key's value up to the edge (the key's
    // own column draws the jump).
    let mut edge_at = |e: f64, k: usize| -> f64 {
        if stepped && k > 0 && k < n && times[k] as f64 == e {
            keys.at(k - 1)
        } else {
            curve.at_near(e, keys.euler_near(k.saturating_sub(1)))
        }
    };
    let mut edge = edge_at(t0, k);
    push(out, t0, edge);
    for column in 0..columns {
        let last = column + 1 == columns;
        let e1 = if last {
            t1
        } else {
            t0 + (column + 1) as f64 * width
        };
        let start = k;
        while k < n && {
            let t = times[k] as f64;
            t < e1 || (last && t <= e1)
        } {
            k += 1;
        }
        let next = edge_at(e1, k);
        match k - start {
            0 => {}
            1 => {
                let tk = times[start] as f64;
                if stepped && start > 0 {
                    // The value held up to the key, then the key's own: a vertical jump.
                    push(out, tk, keys.at(start - 1));
                }
                push(out, tk, keys.at(start));
            }
            _ => {
                let (mut lo, mut lo_k) = (f64::INFINITY, start);
                let (mut hi, mut hi_k) = (f64::NEG_INFINITY, start);
                for j in start..k {
                    let v = keys.at(j);
                    if v < lo {
                        (lo, lo_k) = (v, j);
                    }
                    if v > hi {
                        (hi, hi_k) = (v, j);
                    }
                }
                let band_lo = edge.min(next);
                let band_hi = edge.max(next);
                let low = (lo < band_lo).then_some((lo_k, lo));
                let high = (hi > band_hi).then_some((hi_k, hi));
                let (first, second) = match (low, high) {
                    (Some(a), Some(b)) if b.0 < a.0 => (Some(b), Some(a)),
                    pair => pair,
                };
                for (j, v) in [first, second].into_iter().flatten() {
                    push(out, times[j] as f64, v);
                }
            }
        }
        push(out, e1, next);
        edge = next;
    }
}

/// The lowest and highest value `channel` of `track` reaches between its first and last key
/// (keys and the interpolated curve between them, at the resolution of a 512-column
/// [`envelope`]), or `None` when there is nothing finite to show.
pub fn value_range(track: &Track, channel: Channel) -> Option<(f64, f64)> {
    let keys = KeyReader::new(track, channel)?;
    let first = *track.times.first()? as f64;
    let last = *track.times.last()? as f64;
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut include = |v: f64| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    if last > first {
        for [_, v] in envelope(track, channel, first, last, 512) {
            include(v);
        }
    }
    // The envelope drops keys inside its band; the band's edges bound them, but the first and
    // last key (and a track with no time span) are read directly.
    include(keys.at(0));
    include(keys.at(track.len() - 1));
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::Tangents;

    fn scalar(times: Vec<f32>, values: Vec<f32>, interpolation: Interpolation) -> Track {
        let mut t = Track::numeric(".x", TrackKind::Number, times, values);
        t.interpolation = interpolation;
        t
    }

    fn sample(track: &Track, channel: Channel, t: f64) -> f64 {
        ChannelSampler::new(track, channel).at(t)
    }

    #[test]
    fn step_track_keeps_vertical_jumps() {
        let track = scalar(
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0.0, 5.0, -2.0, 1.0],
            Interpolation::Discrete,
        );
        // Sparse keys: 300 columns over 4 s.
        let line = envelope(&track, Channel::Component(0), -0.5, 3.5, 300);
        for (k, (before, after)) in [(1, (0.0, 5.0)), (2, (5.0, -2.0)), (3, (-2.0, 1.0))] {
            let t = k as f64;
            let i = line
                .iter()
                .position(|p| *p == [t, before])
                .unwrap_or_else(|| panic!("no point ({t}, {before}) in {line:?}"));
            assert_eq!(line[i + 1], [t, after], "jump at key {k}");
        }
        // Nothing but horizontal and vertical segments.
        for w in line.windows(2) {
            assert!(w[0][0] == w[1][0] || w[0][1] == w[1][1], "ramp {w:?}");
        }
        // Held values collapse: a handful of points, not one per column.
        assert!(line.len() <= 10, "{} points", line.len());
        // Column edges that fall exactly on keys draw the same steps.
        for columns in [4, 8, 64] {
            let exact = envelope(&track, Channel::Component(0), 0.0, 4.0, columns);
            assert_eq!(
                exact,
                vec![
                    [0.0, 0.0],
                    [1.0, 0.0],
                    [1.0, 5.0],
                    [2.0, 5.0],
                    [2.0, -2.0],
                    [3.0, -2.0],
                    [3.0, 1.0],
                    [4.0, 1.0]
                ],
                "{columns} columns"
            );
        }
    }

    #[test]
    fn one_key_spike_between_dense_keys_survives() {
        let n = 20_000;
        let times: Vec<f32> = (0..n).map(|k| k as f32 / 1000.0).collect();
        let mut values: Vec<f32> = (0..n).map(|k| (k as f32 * 0.001).sin()).collect();
        values[12_345] = 40.0;
        values[4_321] = -40.0;
        let track = scalar(times, values, Interpolation::Linear);
        let columns = 200; // 100 keys per column
        let line = envelope(&track, Channel::Component(0), 0.0, 20.0, columns);
        let hi = line.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        let lo = line.iter().map(|p| p[1]).fold(f64::MAX, f64::min);
        assert_eq!(hi, 40.0);
        assert_eq!(lo, -40.0);
        assert!(line.contains(&[12.345f32 as f64, 40.0]));
        assert!(line.len() <= 3 * columns + 1, "{} points", line.len());
        // Time order.
        assert!(line.windows(2).all(|w| w[0][0] <= w[1][0]));
    }

    #[test]
    fn points_lie_on_the_sampled_curve() {
        // A bezier track with overshooting handles and a smooth track, sparse and dense views.
        let times = vec![0.0, 0.5, 1.25, 2.0];
        let values = vec![0.0, 1.0, -0.5, 0.25];
        let mut bezier = scalar(times.clone(), values.clone(), Interpolation::Bezier);
        let mut tin = Vec::new();
        let mut tout = Vec::new();
        for (k, (&t, &v)) in times.iter().zip(&values).enumerate() {
            tin.extend([t - 0.2, v + 0.8 * (k as f32 - 1.5)]);
            tout.extend([t + 0.2, v - 0.8 * (k as f32 - 1.5)]);
        }
        bezier.tangents = Some(Tangents::new(tin, tout));
        let smooth = scalar(times, values, Interpolation::Smooth);
        for track in [&bezier, &smooth] {
            for columns in [3, 40, 1000] {
                let line = envelope(track, Channel::Component(0), -0.25, 2.25, columns);
                assert!(!line.is_empty());
                for &[t, v] in &line {
                    let want = sample(track, Channel::Component(0), t);
                    assert!((v - want).abs() < 1e-12, "t {t}: {v} vs {want}");
                }
                assert!(line.len() <= 3 * columns + 1);
            }
        }
    }

    #[test]
    fn point_count_is_bounded_by_columns() {
        // Noise on every key, many keys per column and few keys per column.
        let n = 50_000;
        let mut rng = clipscope_test_support::Rng::new(7);
        let times: Vec<f32> = (0..n).map(|k| k as f32 / 100.0).collect();
        let values: Vec<f32> = (0..n).map(|_| rng.unit_f32()).collect();
        for interpolation in [Interpolation::Discrete, Interpolation::Linear] {
            let track = scalar(times.clone(), values.clone(), interpolation);
            for (t0, t1, columns) in [(0.0, 500.0, 1500), (100.0, 110.0, 1500), (0.0, 1.0, 7)] {
                let line = envelope(&track, Channel::Component(0), t0, t1, columns);
                assert!(
                    line.len() <= 3 * columns + 1,
                    "{interpolation}: {} points for {columns} columns",
                    line.len()
                );
                assert_eq!(line.first().unwrap()[0], t0);
                assert_eq!(line.last().unwrap()[0], t1);
            }
        }
    }

    #[test]
    fn empty_and_invalid_requests_give_nothing() {
        let track = scalar(vec![0.0, 1.0], vec![0.0, 1.0], Interpolation::Linear);
        assert!(envelope(&track, Channel::Component(0), 1.0, 1.0, 10).is_empty());
        assert!(envelope(&track, Channel::Component(0), 0.0, 1.0, 0).is_empty());
        assert!(envelope(&track, Channel::Component(1), 0.0, 1.0, 10).is_empty());
        assert!(envelope(&track, Channel::Euler(0), 0.0, 1.0, 10).is_empty());
        assert!(envelope(&track, Channel::Component(0), f64::NAN, 1.0, 10).is_empty());
        let strings = Track::new(
            ".s",
            TrackKind::String,
            vec![0.0],
            Values::Strings(vec!["a".into()]),
        );
        assert!(envelope(&strings, Channel::Component(0), 0.0, 1.0, 10).is_empty());
        assert_eq!(value_range(&track, Channel::Component(0)), Some((0.0, 1.0)));
    }

    #[test]
    fn euler_curves_are_continuous_through_180_degrees_wherever_the_view_starts() {
        // About Z from 150° through 180° to 210° (stored as −150°): three keys, slerped.
        let z = |deg: f64| {
            let q = DQuat::from_rotation_z(deg.to_radians());
            [q.x as f32, q.y as f32, q.z as f32, q.w as f32]
        };
        let values: Vec<f32> = [150.0, 175.0, 210.0].into_iter().flat_map(z).collect();
        let track = Track::numeric(".q", TrackKind::Quaternion, vec![0.0, 1.0, 2.0], values);
        let keys = euler_keys(&track);
        let degrees: Vec<f64> = keys.iter().map(|a| a[2].to_degrees()).collect();
        for (got, want) in degrees.iter().zip([150.0, 175.0, 210.0]) {
            assert!((got - want).abs() < 1e-4, "{degrees:?}");
        }
        assert!(keys.iter().all(|a| a[0].abs() < 1e-6 && a[1].abs() < 1e-6));
        // The drawn line climbs steadily, with no jump to −180°, from the start or from a view
        // that begins after 180° is passed.
        for (t0, t1) in [(0.0, 2.0), (1.5, 2.0)] {
            let line = envelope(&track, Channel::Euler(2), t0, t1, 50);
            assert!(line.len() > 2);
            assert!(
                line.windows(2).all(|w| w[1][1] >= w[0][1] - 1e-6),
                "{line:?}"
            );
            assert!(
                line.iter().all(|p| p[1] > 149.0 && p[1] < 211.0),
                "{line:?}"
            );
        }
        // The independent per-key value is still what the key holds on its own.
        assert!((key_value(&track, Channel::Euler(2), 2).unwrap() + 150.0).abs() < 1e-4);
    }

    #[test]
    fn euler_channels_match_three_js_xyz() {
        // three.js Euler.setFromRotationMatrix, order XYZ, on the quaternion's matrix.
        let q = DQuat::from_xyzw(0.3, -0.2, 0.5, 0.8).normalize();
        let m = glam::DMat3::from_quat(q);
        // Row-major entries m11..m33 as three.js names them.
        let e = |r: usize, c: usize| m.col(c)[r];
        let y = e(0, 2).clamp(-1.0, 1.0).asin();
        let x = (-e(1, 2)).atan2(e(2, 2));
        let z = (-e(0, 1)).atan2(e(0, 0));
        let raw = [0.6, -0.4, 1.0, 1.6]; // the same rotation, not normalized
        for (axis, want) in [x, y, z].into_iter().enumerate() {
            assert!((euler_degrees(raw, axis) - want.to_degrees()).abs() < 1e-9);
        }
        let track = Track::numeric(
            ".q",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.70710677, 0.70710677],
        );
        let line = envelope(&track, Channel::Euler(2), 0.0, 1.0, 4);
        assert_eq!(line.first().unwrap()[1], 0.0);
        assert!((line.last().unwrap()[1] - 90.0).abs() < 1e-4);
        assert!((key_value(&track, Channel::Euler(2), 1).unwrap() - 90.0).abs() < 1e-4);
        assert_eq!(key_value(&track, Channel::Euler(2), 2), None);
    }

    #[test]
    fn bool_tracks_draw_as_steps() {
        let track = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        let line = envelope(&track, Channel::Component(0), 0.0, 2.0, 20);
        assert_eq!(line, vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [2.0, 0.0]]);
    }
}
