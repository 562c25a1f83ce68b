//! Baking: sampling a cycle at a frame rate over whole cycles into an ordinary [`Clip`] that
//! three.js (and every format clipscope writes) plays.
//!
//! Each part the cycle moves gets a `part.position` and `part.scale` vector track and a
//! `part.quaternion` track (rotations are Euler angles in the cycle, turned into quaternions the
//! way three.js's `Quaternion.setFromEuler` does for the default `XYZ` order); components the
//! cycle leaves alone keep the rig's rest values. Keys sit on the frame grid `k / fps` and one
//! more at the exact end of the last cycle, where the phase is back at 0, so the last key equals
//! the first and the clip loops without a seam. The clip's `userData.cycle` records the cycle,
//! the parameter values, the frame rate and the cycle count.

use glam::EulerRot;

use super::Cycle;
use super::cycle::{CycleError, MAX_CYCLES, MAX_FPS, Property};
use super::seam::SeamJump;
use clipscope_core::model::ops::OptimizeReport;
use clipscope_core::model::{Clip, Track, TrackKind};

/// How to bake.
#[derive(Debug, Clone, PartialEq)]
pub struct BakeOptions {
    /// Samples per second (keys sit on `k / fps`).
    pub fps: f64,
    /// Whole cycles to bake.
    pub cycles: u32,
    /// Remove redundant keys afterwards (three.js-exact, lossless).
    pub optimize: bool,
    /// The clip's name (default: the cycle's name).
    pub name: Option<String>,
}

impl Default for BakeOptions {
    fn default() -> Self {
        BakeOptions {
            fps: 30.0,
            cycles: 1,
            optimize: false,
            name: None,
        }
    }
}

/// A baked clip and what the bake found.
#[derive(Debug, Clone, PartialEq)]
pub struct Baked {
    /// The clip.
    pub clip: Clip,
    /// Channels that jump at the loop seam (empty for a seamless cycle).
    pub seam: Vec<SeamJump>,
    /// What optimizing removed, when asked.
    pub optimized: Option<OptimizeReport>,
}

impl Baked {
    /// A one-line summary: `Hero run: 21 keys × 6 tracks, 0.800 s, seamless`.
    pub fn summary(&self) -> String {
        let keys = self.clip.key_count();
        let mut line = format!(
            "{}: {} keys in {} tracks, {:.3} s",
            self.clip.name,
            keys,
            self.clip.tracks.len(),
            self.clip.duration
        );
        if let Some(r) = &self.optimized {
            line.push_str(&format!(" (optimized from {} keys)", r.keys_before));
        }
        if self.seam.is_empty() {
            line.push_str(", loops seamlessly");
        } else {
            line.push_str(&format!(
                ", {} channel(s) jump at the loop seam",
                self.seam.len()
            ));
        }
        line
    }
}

/// The channels of one part's property, with the rig's rest value under them.
struct Group {
    part: String,
    property: Property,
    /// Channel index per axis, or `None` to keep the rest value.
    axes: [Option<usize>; 3],
    rest: [f64; 3],
}

impl Cycle {
    /// Samples the cycle with parameter `values` into a clip. Fails on options out of range or
    /// a formula that cannot be evaluated.
    pub fn bake(&self, values: &[f64], options: &BakeOptions) -> Result<Baked, CycleError> {
        if !(options.fps.is_finite() && options.fps > 0.0 && options.fps <= MAX_FPS) {
            return Err(CycleError::Fps(options.fps));
        }
        if !(1..=MAX_CYCLES).contains(&options.cycles) {
            return Err(CycleError::Cycles(options.cycles));
        }
        let rate = self.rate(values);
        if !(rate.is_finite() && rate > 0.0) {
            return Err(CycleError::Speed(rate));
        }
        let duration = f64::from(options.cycles) / rate;
        let groups = self.groups();
        // Frame times, then the exact end of the last cycle.
        let mut samples: Vec<(f64, f64)> = (0u64..)
            .map(|k| k as f64 / options.fps)
            .take_while(|&time| time < duration * (1.0 - 1e-9))
            .map(|time| (time, time * rate))
            .collect();
        samples.push((duration, f64::from(options.cycles)));

        let times: Vec<f32> = samples.iter().map(|&(time, _)| time as f32).collect();
        let mut values_per_group: Vec<Vec<f32>> = vec![Vec::new(); groups.len()];
        let mut channels = Vec::new();
        for &(_, cycles_done) in &samples {
            let phase = std::f64::consts::TAU * (cycles_done - cycles_done.floor());
            self.evaluate(values, phase, &mut channels)?;
            for (group, out) in groups.iter().zip(&mut values_per_group) {
                let v: [f64; 3] =
                    std::array::from_fn(|a| group.axes[a].map_or(group.rest[a], |c| channels[c]));
                match group.property {
                    Property::Rotation => {
                        out.extend(quaternion_from_euler_xyz(v).map(|c| c as f32));
                    }
                    _ => out.extend(v.map(|c| c as f32)),
                }
            }
        }
        let tracks = groups
            .iter()
            .zip(values_per_group)
            .map(|(group, values)| {
                let kind = match group.property {
                    Property::Rotation => TrackKind::Quaternion,
                    _ => TrackKind::Vector,
                };
                let name = format!("{}.{}", group.part, group.property.track_property());
                Track::numeric(name, kind, times.clone(), values)
            })
            .collect();
        let name = options.name.clone().unwrap_or_else(|| self.name.clone());
        let mut clip = Clip::new(name, f64::from(*times.last().expect("a key")), tracks);
        clip.user_data = serde_json::json!({
            "cycle": {
                "id": self.id,
                "rig": self.rig,
                "parameters": self.parameters.iter().zip(values)
                    .map(|(p, v)| (p.name.clone(), serde_json::json!(v)))
                    .collect::<serde_json::Map<_, _>>(),
                "fps": options.fps,
                "cycles": options.cycles,
            }
        });
        let optimized = options.optimize.then(|| clip.optimize());
        Ok(Baked {
            clip,
            seam: self.seam_jumps(values),
            optimized,
        })
    }

    /// The animated (part, property) pairs in the order the file first names them.
    fn groups(&self) -> Vec<Group> {
        let rig = self.rig();
        let mut groups: Vec<Group> = Vec::new();
        for (c, channel) in self.channels.iter().enumerate() {
            let at = groups
                .iter()
                .position(|g| g.part == channel.part && g.property == channel.property);
            let at = at.unwrap_or_else(|| {
                let part = &rig.parts[rig.part_index(&channel.part).expect("checked part")];
                let rest = match channel.property {
                    Property::Position => part.position.to_array(),
                    Property::Scale => part.scale.to_array(),
                    Property::Rotation => {
                        let (x, y, z) = part.rotation.to_euler(EulerRot::XYZ);
                        [x, y, z]
                    }
                };
                groups.push(Group {
                    part: channel.part.clone(),
                    property: channel.property,
                    axes: [None; 3],
                    rest: rest.map(f64::from),
                });
                groups.len() - 1
            });
            groups[at].axes[channel.axis] = Some(c);
        }
        groups
    }
}

/// three.js's `Quaternion.setFromEuler` for the `XYZ` order: `[x, y, z, w]`.
pub fn quaternion_from_euler_xyz([x, y, z]: [f64; 3]) -> [f64; 4] {
    let (s1, c1) = (x / 2.0).sin_cos();
    let (s2, c2) = (y / 2.0).sin_cos();
    let (s3, c3) = (z / 2.0).sin_cos();
    [
        s1 * c2 * c3 + c1 * s2 * s3,
        c1 * s2 * c3 - s1 * c2 * s3,
        c1 * c2 * s3 + s1 * s2 * c3,
        c1 * c2 * c3 - s1 * s2 * s3,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn euler_to_quaternion_matches_the_rigs_convention() {
        for e in [[0.3, -0.2, 1.1], [0.0, 0.0, 0.7], [-1.2, 0.4, 0.0]] {
            let q = quaternion_from_euler_xyz(e);
            let g = Quat::from_euler(EulerRot::XYZ, e[0] as f32, e[1] as f32, e[2] as f32);
            for (a, b) in q.iter().zip(g.to_array()) {
                assert!((*a as f32 - b).abs() < 1e-6, "{e:?}: {q:?} vs {g}");
            }
        }
    }

    #[test]
    fn bad_options_are_refused() {
        let c = Cycle::builtin("hero-run").unwrap();
        let v = c.defaults();
        let fps = |fps| BakeOptions {
            fps,
            ..BakeOptions::default()
        };
        assert_eq!(
            c.bake(&v, &fps(0.0)).unwrap_err().to_string(),
            "fps must be above 0 and at most 1000, not 0"
        );
        assert!(c.bake(&v, &fps(f64::NAN)).is_err());
        let none = BakeOptions {
            cycles: 0,
            ..BakeOptions::default()
        };
        assert_eq!(c.bake(&v, &none).unwrap_err(), CycleError::Cycles(0));
        assert_eq!(
            CycleError::Cycles(0).to_string(),
            "cycles must be 1 to 1000, not 0"
        );
    }
}
