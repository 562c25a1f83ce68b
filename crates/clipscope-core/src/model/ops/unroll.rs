//! `unroll_quaternions`: put every key of a quaternion track in the hemisphere of the key
//! before it, so neighbouring keys have non-negative dot products.
//!
//! `q` and `-q` are the same rotation, so a key negated this way holds the same pose. three.js's
//! linear interpolant (a slerp that takes the short way itself) and discrete keys play exactly
//! as before; a bezier track, which interpolates components, stops taking the long way round
//! between keys that were in opposite hemispheres (what the `quaternion-flip` rule reports).
//! A negated key's bezier handle values are negated with it, so the curve around the key keeps
//! its shape. Walking from the first key to the last makes this linear in the key count.

use crate::model::{Clip, HandleSide, Track, TrackKind};

impl Track {
    /// Negates every key of a quaternion track whose dot product with the (already unrolled)
    /// key before it is negative, with its handle values; returns how many keys were negated.
    /// Other kinds, tracks whose value count is not four per key, and bool or string values
    /// are left alone (0).
    pub fn unroll_quaternions(&mut self) -> usize {
        let n = self.len();
        if self.kind != TrackKind::Quaternion || n < 2 {
            return 0;
        }
        let Some(values) = self.values.as_numbers_mut() else {
            return 0;
        };
        if values.len() != n * 4 {
            return 0;
        }
        let mut negated = Vec::new();
        for k in 1..n {
            let dot: f64 = (0..4)
                .map(|c| values[(k - 1) * 4 + c] as f64 * values[k * 4 + c] as f64)
                .sum();
            if dot < 0.0 {
                for v in &mut values[k * 4..k * 4 + 4] {
                    *v = 0.0 - *v; // not `-v`: a zero stays +0 (files do not gain "-0")
                }
                negated.push(k);
            }
        }
        if let Some(tangents) = &mut self.tangents {
            for &k in &negated {
                for side in [HandleSide::In, HandleSide::Out] {
                    for c in 0..4 {
                        if let Some((t, v)) = tangents.point(side, k, c, 4) {
                            tangents.set_point(side, k, c, 4, (t, 0.0 - v));
                        }
                    }
                }
            }
        }
        negated.len()
    }
}

impl Clip {
    /// Unrolls every quaternion track (see [`Track::unroll_quaternions`]); returns
    /// `(keys negated, tracks changed)`.
    pub fn unroll_quaternions(&mut self) -> (usize, usize) {
        let (mut keys, mut tracks) = (0, 0);
        for track in &mut self.tracks {
            let k = track.unroll_quaternions();
            keys += k;
            tracks += usize::from(k > 0);
        }
        (keys, tracks)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::Sampler;
    use crate::model::{Clip, Interpolation, Tangents, Track, TrackKind, Values};

    fn track(values: Vec<f32>) -> Track {
        let n = values.len() / 4;
        Track::numeric(
            "bone.quaternion",
            TrackKind::Quaternion,
            (0..n).map(|k| k as f32).collect(),
            values,
        )
    }

    #[test]
    fn flipped_keys_are_negated_cumulatively() {
        // Key 1 is key 0 negated; key 2 is close to key 1 as stored (so after unrolling key 1 it
        // must be negated too); key 3 is already in key 2's original hemisphere.
        let mut t = track(vec![
            0.0, 0.0, 0.0, 1.0, //
            0.0, 0.0, -0.6, -0.8, //
            0.0, 0.0, -0.8, -0.6, //
            0.0, 0.0, 0.6, 0.8,
        ]);
        assert_eq!(t.unroll_quaternions(), 2);
        assert_eq!(
            t.values.as_numbers().unwrap(),
            &[
                0.0, 0.0, 0.0, 1.0, //
                0.0, 0.0, 0.6, 0.8, //
                0.0, 0.0, 0.8, 0.6, //
                0.0, 0.0, 0.6, 0.8,
            ]
        );
        let v = t.values.as_numbers().unwrap();
        for k in 1..4 {
            let dot: f32 = (0..4).map(|c| v[(k - 1) * 4 + c] * v[k * 4 + c]).sum();
            assert!(dot >= 0.0, "keys {} and {k}: {dot}", k - 1);
        }
        assert_eq!(t.unroll_quaternions(), 0, "a second pass finds nothing");
    }

    #[test]
    fn a_slerped_track_plays_the_same_after_unrolling() {
        let flipped = track(vec![
            0.0, 0.0, 0.0, 1.0, //
            0.0, 0.0, -0.6, -0.8, //
            0.0, -0.6, 0.0, -0.8,
        ]);
        let mut unrolled = flipped.clone();
        unrolled.unroll_quaternions();
        let (mut a, mut b) = (Sampler::new(&flipped), Sampler::new(&unrolled));
        for i in 0..=20 {
            let t = i as f64 * 0.1;
            let (Values::Numbers(x), Values::Numbers(y)) = (a.evaluate(t), b.evaluate(t)) else {
                panic!("numbers");
            };
            // Same rotation: equal up to sign.
            let dot: f32 = x.iter().zip(&y).map(|(p, q)| p * q).sum();
            assert!((dot.abs() - 1.0).abs() < 1e-6, "t {t}: {x:?} vs {y:?}");
        }
    }

    #[test]
    fn bezier_handles_follow_their_key() {
        let mut t = track(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0]);
        t.interpolation = Interpolation::Bezier;
        let handles: Vec<f32> = (0..16).map(|i| i as f32).collect();
        t.tangents = Some(Tangents::new(handles.clone(), handles));
        t.unroll_quaternions();
        let tg = t.tangents.unwrap();
        // Key 1's handles (entries 8..16): times kept, values negated.
        assert_eq!(
            &tg.in_tangents[8..16],
            &[8.0, -9.0, 10.0, -11.0, 12.0, -13.0, 14.0, -15.0]
        );
        assert_eq!(
            &tg.in_tangents[..8],
            &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
        );
    }

    #[test]
    fn other_tracks_are_left_alone_and_the_clip_counts() {
        let pos = Track::numeric(
            ".position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
        );
        let q = track(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0]);
        let mut clip = Clip::new("c", 1.0, vec![pos.clone(), q]);
        assert_eq!(clip.unroll_quaternions(), (1, 1));
        assert_eq!(clip.tracks[0], pos);
    }
}
