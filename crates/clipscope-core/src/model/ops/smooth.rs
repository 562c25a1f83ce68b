//! `smooth_keys`: calm jitter in a run of keys, like Blender's graph editor "Smooth Keys".
//!
//! Each pass moves every chosen key's value towards the weighted average of itself and its two
//! neighbours (¼, ½, ¼: a small low-pass filter) by `strength` (0 leaves it, 1 takes the
//! average); all keys of a pass read the values from before the pass. A track's first and last
//! keys have one neighbour and keep their value, so the ends of a clip do not drift. Times are
//! unchanged; bezier handles move with their key's value. Quaternion keys are renormalized after
//! each pass (smooth the track after unrolling flips, or neighbours on opposite sides cancel).
//! Each pass is linear in the track's keys.

use crate::model::{HandleSide, Track, TrackKind};

/// The largest number of passes [`Track::smooth_keys`] runs.
pub const MAX_SMOOTH_PASSES: usize = 100;

impl Track {
    /// Smooths the values of `keys` (indices; out-of-range ones ignored) by `strength` (clamped
    /// to 0–1) over `passes` passes (at most [`MAX_SMOOTH_PASSES`]); returns how many keys
    /// moved. Bool and string tracks are left alone.
    pub fn smooth_keys(&mut self, keys: &[usize], strength: f64, passes: usize) -> usize {
        let n = self.len();
        let vs = self.value_size();
        if n < 3 || vs == 0 || self.values.as_numbers().is_none() {
            return 0;
        }
        let strength = if strength.is_finite() {
            strength.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mut chosen = vec![false; n];
        for &k in keys {
            if k > 0 && k + 1 < n {
                chosen[k] = true;
            }
        }
        let inner: Vec<usize> = (1..n - 1).filter(|&k| chosen[k]).collect();
        if inner.is_empty() || strength == 0.0 {
            return 0;
        }
        let quaternion = self.kind == TrackKind::Quaternion && vs == 4;
        let mut moved = vec![false; n];
        for _ in 0..passes.min(MAX_SMOOTH_PASSES) {
            let Some(before) = self.values.as_numbers().map(<[f32]>::to_vec) else {
                return 0;
            };
            for &k in &inner {
                let mut target: Vec<f64> = (0..vs)
                    .map(|c| {
                        let v = |j: usize| before[j * vs + c] as f64;
                        let avg = 0.25 * v(k - 1) + 0.5 * v(k) + 0.25 * v(k + 1);
                        v(k) + strength * (avg - v(k))
                    })
                    .collect();
                if quaternion {
                    let len = target.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if len > 0.0 && len.is_finite() {
                        target.iter_mut().for_each(|x| *x /= len);
                    }
                }
                for (c, &t) in target.iter().enumerate() {
                    let dv = (t as f32) as f64 - before[k * vs + c] as f64;
                    if dv != 0.0 {
                        self.shift_value(k, c, dv);
                        moved[k] = true;
                    }
                }
            }
        }
        moved.iter().filter(|&&m| m).count()
    }

    /// Adds `dv` to one value component and to its handle values.
    fn shift_value(&mut self, key: usize, component: usize, dv: f64) {
        let vs = self.value_size();
        if let Some(values) = self.values.as_numbers_mut() {
            let v = &mut values[key * vs + component];
            *v = (*v as f64 + dv) as f32;
        }
        if let Some(tangents) = &mut self.tangents {
            for side in [HandleSide::In, HandleSide::Out] {
                if let Some((t, hv)) = tangents.point(side, key, component, vs) {
                    tangents.set_point(side, key, component, vs, (t, hv + dv));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Tangents, Track, TrackKind};

    fn jitter() -> Track {
        Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![0.0, 4.0, 0.0, 4.0, 0.0],
        )
    }

    #[test]
    fn one_full_pass_is_the_quarter_half_quarter_average_and_ends_stay() {
        let mut t = jitter();
        assert_eq!(t.smooth_keys(&[0, 1, 2, 3, 4], 1.0, 1), 3);
        assert_eq!(t.values.as_numbers().unwrap(), &[0.0, 2.0, 2.0, 2.0, 0.0]);
        assert_eq!(t.times, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn strength_and_passes_and_only_chosen_keys() {
        let mut t = jitter();
        t.smooth_keys(&[2], 0.5, 1);
        // Key 2: 0 + 0.5 · (0.25·4 + 0.5·0 + 0.25·4 − 0) = 1.
        assert_eq!(t.values.as_numbers().unwrap(), &[0.0, 4.0, 1.0, 4.0, 0.0]);
        let mut t = jitter();
        t.smooth_keys(&[1, 2, 3], 1.0, 2);
        // Pass 2 from [0, 2, 2, 2, 0]: key 1 = 0.25·0 + 0.5·2 + 0.25·2 = 1.5, key 2 = 2.
        assert_eq!(t.values.as_numbers().unwrap(), &[0.0, 1.5, 2.0, 1.5, 0.0]);
        assert_eq!(jitter().smooth_keys(&[1], 0.0, 3), 0);
    }

    #[test]
    fn handles_follow_and_quaternions_stay_unit() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 4.0, 0.0],
        );
        t.tangents = Some(Tangents::new(
            vec![0.0, 0.0, 0.7, 4.0, 1.7, 0.0],
            vec![0.3, 0.0, 1.3, 4.0, 2.0, 0.0],
        ));
        t.smooth_keys(&[1], 1.0, 1);
        let tg = t.tangents.as_ref().unwrap();
        assert_eq!((tg.in_tangents[3], tg.out_tangents[3]), (2.0, 2.0));
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let mut q = Track::numeric(
            "b.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0, 2.0],
            vec![0., 0., 0., 1., 0., 0., h, h, 0., 0., 0., 1.],
        );
        q.smooth_keys(&[1], 1.0, 1);
        let v = q.values.as_numbers().unwrap();
        let len: f32 = v[4..8].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((len - 1.0).abs() < 1e-6, "{:?}", &v[4..8]);
    }
}
