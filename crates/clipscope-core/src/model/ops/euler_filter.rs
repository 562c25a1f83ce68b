//! `euler_filter`: Blender's Euler Filter for Euler rotation tracks (three.js `.rotation`
//! vector tracks, radians): each key's angle triple is replaced by the equivalent triple closest
//! to the (already filtered) key before it, so the curves stop jumping by 360° at ±180° and
//! stop taking the "other" decomposition where Y passes ±90°.
//!
//! A rotation has two Euler triples in intrinsic XYZ order (three.js's default `Euler.order`;
//! the track does not say which order the object uses): `(x, y, z)` and
//! `(x + π, π − y, z + π)`, each up to whole turns per axis. For every key both are moved by whole
//! turns per axis to lie nearest the previous key, and the one nearer in sum of squares wins.
//! Every key keeps its rotation, so discrete keys pose exactly as before; between keys the
//! curves interpolate the continuous angles (what the filter is for). A key's bezier handle
//! values move with it by the same amounts. One walk from the first key to the last: linear.

use std::f64::consts::{PI, TAU};

use crate::model::binding::parse_track_name;
use crate::model::{Clip, HandleSide, Track, TrackKind};

/// The Euler triple equivalent to `angles` (radians, intrinsic XYZ) closest to `previous`.
pub fn closest_euler(angles: [f64; 3], previous: [f64; 3]) -> [f64; 3] {
    let wrap = |v: [f64; 3]| -> [f64; 3] {
        std::array::from_fn(|i| v[i] + TAU * ((previous[i] - v[i]) / TAU).round())
    };
    let distance = |v: &[f64; 3]| -> f64 { (0..3).map(|i| (v[i] - previous[i]).powi(2)).sum() };
    let [x, y, z] = angles;
    let direct = wrap(angles);
    let flipped = wrap([x + PI, PI - y, z + PI]);
    if distance(&flipped) < distance(&direct) {
        flipped
    } else {
        direct
    }
}

impl Track {
    /// Whether this is an Euler rotation track the filter works on: a three-component vector
    /// track whose property is `rotation`, with numeric values.
    pub fn is_euler_rotation(&self) -> bool {
        self.kind == TrackKind::Vector
            && self.value_size() == 3
            && self.values.as_numbers().is_some()
            && parse_track_name(&self.name).is_ok_and(|p| p.property_name == "rotation")
    }

    /// Makes the Euler angles of an Euler rotation track continuous (see the module docs);
    /// returns how many keys changed. Other tracks are left alone (0).
    pub fn euler_filter(&mut self) -> usize {
        let n = self.len();
        if !self.is_euler_rotation() || n < 2 {
            return 0;
        }
        let Some(values) = self.values.as_numbers_mut() else {
            return 0;
        };
        let mut moved: Vec<(usize, [f32; 3])> = Vec::new();
        let at = |v: &[f32], k: usize| -> [f64; 3] { std::array::from_fn(|c| v[k * 3 + c] as f64) };
        for k in 1..n {
            let previous = at(values, k - 1);
            let old = at(values, k);
            let new = closest_euler(old, previous).map(|v| v as f32);
            let stored: [f32; 3] = std::array::from_fn(|c| values[k * 3 + c]);
            if new != stored {
                let delta = std::array::from_fn(|c| new[c] - stored[c]);
                values[k * 3..k * 3 + 3].copy_from_slice(&new);
                moved.push((k, delta));
            }
        }
        if let Some(tangents) = &mut self.tangents {
            for &(k, delta) in &moved {
                for side in [HandleSide::In, HandleSide::Out] {
                    for (c, d) in delta.iter().enumerate() {
                        if let Some((t, v)) = tangents.point(side, k, c, 3) {
                            tangents.set_point(side, k, c, 3, (t, v + f64::from(*d)));
                        }
                    }
                }
            }
        }
        moved.len()
    }
}

impl Clip {
    /// Runs the Euler filter on every Euler rotation track (see [`Track::euler_filter`]);
    /// returns `(keys changed, tracks changed)`.
    pub fn euler_filter(&mut self) -> (usize, usize) {
        let (mut keys, mut tracks) = (0, 0);
        for track in &mut self.tracks {
            let k = track.euler_filter();
            keys += k;
            tracks += usize::from(k > 0);
        }
        (keys, tracks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Clip, Track, TrackKind};
    use glam::{DQuat, EulerRot};

    fn rotation(values: Vec<f32>) -> Track {
        let n = values.len() / 3;
        Track::numeric(
            "arm.rotation",
            TrackKind::Vector,
            (0..n).map(|k| k as f32).collect(),
            values,
        )
    }

    fn quat(v: [f64; 3]) -> DQuat {
        DQuat::from_euler(EulerRot::XYZ, v[0], v[1], v[2])
    }

    #[test]
    fn whole_turns_are_unwrapped_cumulatively() {
        // Z goes 3 → −3 (a 6 rad jump that is really 0.28 rad on) → −2.9.
        let mut t = rotation(vec![0.0, 0.0, 3.0, 0.0, 0.0, -3.0, 0.0, 0.0, -2.9]);
        assert_eq!(t.euler_filter(), 2);
        let z: Vec<f32> = t.values.as_numbers().unwrap()[2..]
            .iter()
            .step_by(3)
            .copied()
            .collect();
        assert_eq!(
            z,
            [
                3.0,
                (-3.0f32 as f64 + TAU) as f32,
                (-2.9f32 as f64 + TAU) as f32
            ]
        );
        assert_eq!(t.euler_filter(), 0, "a second pass finds nothing");
    }

    #[test]
    fn the_other_decomposition_is_taken_when_nearer_and_poses_stay() {
        // (π−0.1, π−1.4, π−0.1) is (−0.1, 1.4, −0.1) decomposed the other way round.
        let a = [0.0, 1.3, 0.0];
        let b = [PI - 0.1, PI - 1.4, PI - 0.1];
        assert!(quat(b).dot(quat([-0.1, 1.4, -0.1])).abs() > 1.0 - 1e-12);
        let got = closest_euler(b, a);
        assert!(
            got.iter()
                .zip([-0.1, 1.4, -0.1])
                .all(|(g, e)| (g - e).abs() < 1e-12),
            "{got:?}"
        );
        let mut t = rotation(a.iter().chain(b.iter()).map(|&v| v as f32).collect());
        let before = t.clone();
        assert_eq!(t.euler_filter(), 1);
        let v = t.values.as_numbers().unwrap();
        // Exactly what the stored f32 keys give: x − π, π − y, z − π (after a whole turn back).
        let stored = b.map(|v| v as f32 as f64);
        assert_eq!(
            &v[3..],
            &[
                (stored[0] - PI) as f32,
                (PI - stored[1]) as f32,
                (stored[2] - PI) as f32
            ][..]
        );
        // Every key still holds its rotation (up to f32 rounding).
        for k in 0..2 {
            let at = |t: &Track| -> [f64; 3] {
                std::array::from_fn(|c| t.values.as_numbers().unwrap()[k * 3 + c] as f64)
            };
            let (q0, q1) = (quat(at(&before)), quat(at(&t)));
            assert!(q0.dot(q1).abs() > 1.0 - 1e-12, "key {k}");
        }
    }

    #[test]
    fn only_rotation_vector_tracks_are_filtered() {
        let mut c = Clip::new(
            "c",
            1.0,
            vec![
                Track::numeric(
                    "a.position",
                    TrackKind::Vector,
                    vec![0.0, 1.0],
                    vec![0.0, 0.0, 3.0, 0.0, 0.0, -3.0],
                ),
                rotation(vec![0.0, 0.0, 3.0, 0.0, 0.0, -3.0]),
                rotation(vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.1]),
            ],
        );
        assert_eq!(c.euler_filter(), (1, 1));
        assert_eq!(c.tracks[0].values.as_numbers().unwrap()[5], -3.0);
    }
}
