//! Transforming a selection of keys like a box in Blender's graph editor: scale their times
//! around a pivot time and their values around a pivot value, and snap their times to frames.
//!
//! Keys never change order: a time scale that would carry a selected key onto or past an
//! unselected neighbour is refused (select the keys in between too), and a key whose snapped
//! time would collide with another key stays where it is (counted as skipped). Handles travel
//! with their key: handle times scale with the key times, handle values with the values.

use crate::model::{HandleSide, Track};

use super::OpError;
use super::keys::min_key_gap;

impl Track {
    /// Scales the times of `keys` (sorted unique indices) around `pivot` by `factor` (finite,
    /// above 0), with their handles. Refuses, changing nothing, when a key would reach an
    /// unselected neighbour.
    pub fn scale_key_times(
        &mut self,
        keys: &[usize],
        pivot: f64,
        factor: f64,
    ) -> Result<(), OpError> {
        if !(factor.is_finite() && factor > 0.0 && pivot.is_finite()) {
            return Err(OpError::TimeFactor(factor));
        }
        let n = self.len();
        let mut chosen = vec![false; n];
        for &k in keys.iter().filter(|&&k| k < n) {
            chosen[k] = true;
        }
        let scaled = |t: f64| pivot + (t - pivot) * factor;
        let new: Vec<f32> = (0..n)
            .map(|k| {
                let t = self.times[k] as f64;
                if chosen[k] {
                    scaled(t) as f32
                } else {
                    t as f32
                }
            })
            .collect();
        for k in 1..n {
            let (a, b) = (new[k - 1] as f64, new[k] as f64);
            if (chosen[k] || chosen[k - 1]) && b - a < min_key_gap(a, b) {
                return Err(OpError::KeysWouldPass {
                    track: self.name.clone(),
                    key: if chosen[k] { k } else { k - 1 },
                    neighbour: if chosen[k] { k - 1 } else { k },
                });
            }
        }
        let vs = self.value_size();
        if let Some(tangents) = &mut self.tangents {
            for k in (0..n).filter(|&k| chosen[k]) {
                for side in [HandleSide::In, HandleSide::Out] {
                    for c in 0..vs {
                        if let Some((t, v)) = tangents.point(side, k, c, vs) {
                            tangents.set_point(side, k, c, vs, (scaled(t), v));
                        }
                    }
                }
            }
        }
        self.times = new;
        Ok(())
    }

    /// Scales the value components `items` (`(key, component)`) around `pivot` by `factor`,
    /// with their handle values. Bool and string tracks are left alone.
    pub fn scale_key_values(&mut self, items: &[(usize, usize)], pivot: f64, factor: f64) {
        let vs = self.value_size();
        for (k, c) in self.value_components(items) {
            let Some(values) = self.values.as_numbers_mut() else {
                return;
            };
            let v = &mut values[k * vs + c];
            *v = (pivot + (*v as f64 - pivot) * factor) as f32;
            if let Some(tangents) = &mut self.tangents {
                for side in [HandleSide::In, HandleSide::Out] {
                    if let Some((t, hv)) = tangents.point(side, k, c, vs) {
                        tangents.set_point(side, k, c, vs, (t, pivot + (hv - pivot) * factor));
                    }
                }
            }
        }
    }

    /// Moves each of `keys` to the nearest frame at `fps` (with its handles), unless that frame
    /// is already taken or would pass a neighbour; returns `(moved, skipped)`.
    pub fn snap_keys_to_frames(&mut self, keys: &[usize], fps: f64) -> (usize, usize) {
        if !(fps.is_finite() && fps > 0.0) {
            return (0, 0);
        }
        let n = self.len();
        let mut keys: Vec<usize> = keys.iter().copied().filter(|&k| k < n).collect();
        keys.sort_unstable();
        keys.dedup();
        let (mut moved, mut skipped) = (0, 0);
        for k in keys {
            let t = self.times[k] as f64;
            let snapped = ((t * fps).round() / fps) as f32 as f64;
            if snapped == t {
                continue;
            }
            let after_prev =
                k == 0 || snapped - self.times[k - 1] as f64 >= min_key_gap(snapped, t);
            let before_next =
                k + 1 >= n || self.times[k + 1] as f64 - snapped >= min_key_gap(snapped, t);
            if after_prev && before_next {
                self.move_keys(&[k], snapped - t);
                self.times[k] = snapped as f32;
                moved += 1;
            } else {
                skipped += 1;
            }
        }
        (moved, skipped)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Tangents, Track, TrackKind};

    fn track() -> Track {
        Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0.0, 1.0, 2.0, 3.0],
        )
    }

    #[test]
    fn a_section_stretches_around_a_pivot_with_its_handles() {
        let mut t = track();
        t.tangents = Some(Tangents::new(
            vec![0.0; 8],
            vec![0.0, 0.0, 1.5, 1.0, 0.0, 0.0, 0.0, 0.0],
        ));
        t.scale_key_times(&[1, 2], 1.0, 1.5).unwrap();
        assert_eq!(t.times, vec![0.0, 1.0, 2.5, 3.0]);
        assert_eq!(
            t.tangents.as_ref().unwrap().out_tangents[2],
            1.75,
            "key 1's out handle"
        );
        let err = t
            .scale_key_times(&[1, 2], 1.0, 3.0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("key 2 onto or past key 3"), "{err}");
        assert_eq!(
            t.times,
            vec![0.0, 1.0, 2.5, 3.0],
            "a refused scale changes nothing"
        );
        assert!(t.scale_key_times(&[1], 0.0, 0.0).is_err());
        let mut all = track();
        all.scale_key_times(&[0, 1, 2, 3], 0.0, 2.0).unwrap();
        assert_eq!(all.times, vec![0.0, 2.0, 4.0, 6.0]);
    }

    #[test]
    fn values_scale_around_a_pivot_value() {
        let mut t = track();
        t.scale_key_values(&[(1, 0), (3, 0), (3, 0), (9, 0)], 1.0, 2.0);
        assert_eq!(t.values.as_numbers().unwrap(), &[0.0, 1.0, 2.0, 5.0]);
    }

    #[test]
    fn keys_snap_to_the_nearest_free_frame() {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.01, 0.26, 0.27, 0.5],
            vec![0.0; 4],
        );
        assert_eq!(t.snap_keys_to_frames(&[0, 1, 2, 3], 4.0), (2, 1));
        assert_eq!(t.times, vec![0.0, 0.25, 0.27, 0.5]);
    }
}
