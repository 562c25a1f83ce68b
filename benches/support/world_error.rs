//! How far a reduced clip strays from its original in world space, measured without any of the
//! reducer's code: both clips are sampled with the model's interpolants at every key time of
//! the original and every midpoint between two, posed down the skeleton with glam, and compared
//! at each joint's origin and, for a joint with a shell radius (what the reducer's report gives
//! it), at the points that far along its local axes; rotations by the angle between the
//! joints' world rotations. (The proof is three.js measuring the written file:
//! `tests/conformance/measure_error.mjs`; this one needs no node.)

use std::collections::HashMap;

use clipscope_core::model::binding::parse_track_name;
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Clip, Skeleton, Values};
use glam::{DMat4, DQuat, DVec3};

/// The largest error found.
#[derive(Debug, Clone, Copy, Default)]
pub struct Measured {
    /// The largest distance a measured point moved.
    pub distance: f64,
    /// The largest angle a joint's world rotation turned, in degrees.
    pub angle_deg: f64,
    /// The joint and time of the largest distance.
    pub worst: Option<(usize, f64)>,
}

/// The error of `reduced` against `original`, both played on `skeleton`, with `shells[j]` the
/// shell radius of bone `j` (none: its origin only).
pub fn world_error(
    original: &Clip,
    reduced: &Clip,
    skeleton: &Skeleton,
    shells: &[Option<f64>],
) -> Measured {
    let mut times: Vec<f64> = original
        .tracks
        .iter()
        .flat_map(|t| t.times.iter().map(|&x| x as f64))
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut samples = Vec::with_capacity(times.len() * 2);
    for (k, &t) in times.iter().enumerate() {
        if k > 0 {
            samples.push((times[k - 1] + t) / 2.0);
        }
        samples.push(t);
    }
    let a = pose_all(original, skeleton, &samples, shells);
    let b = pose_all(reduced, skeleton, &samples, shells);
    let mut out = Measured::default();
    let n = skeleton.bones.len();
    for (i, ((pa, qa), (pb, qb))) in a.iter().zip(&b).enumerate() {
        for (x, y) in pa.iter().zip(pb) {
            let d = x.distance(*y);
            if d > out.distance {
                out.distance = d;
                out.worst = Some((i % n, samples[i / n]));
            }
        }
        let dot = qa.dot(*qb).abs().min(1.0);
        out.angle_deg = out.angle_deg.max((2.0 * dot.acos()).to_degrees());
    }
    out
}

/// One joint at one sample: its measured points and its world rotation.
type JointPose = (Vec<DVec3>, DQuat);

/// Every joint's points and world rotation at every sample (sample-major).
fn pose_all(
    clip: &Clip,
    skeleton: &Skeleton,
    samples: &[f64],
    shells: &[Option<f64>],
) -> Vec<JointPose> {
    // Which track drives which joint property.
    let mut drivers: HashMap<(String, String), usize> = HashMap::new();
    for (i, t) in clip.tracks.iter().enumerate() {
        if let Ok(path) = parse_track_name(&t.name) {
            let property = path.property_name.clone();
            if let Some(node) = path.animated_node() {
                drivers.insert((node, property), i);
            }
        }
    }
    let sampled: Vec<Option<Vec<f64>>> = clip
        .tracks
        .iter()
        .map(|t| {
            if !t.kind.is_numeric() {
                return None;
            }
            let mut s = Sampler::new(t);
            let mut out = Vec::new();
            for &time in samples {
                if let Values::Numbers(v) = s.evaluate(time) {
                    out.extend(v.iter().map(|&x| x as f64));
                }
            }
            Some(out)
        })
        .collect();
    let value = |bone: &str, property: &str, s: usize, size: usize| -> Option<Vec<f64>> {
        let i = *drivers.get(&(bone.to_string(), property.to_string()))?;
        let v = sampled[i].as_ref()?;
        Some(v.get(s * size..(s + 1) * size)?.to_vec())
    };
    let n = skeleton.bones.len();
    let mut out = Vec::with_capacity(samples.len() * n);
    let mut world = vec![DMat4::IDENTITY; n];
    let mut rotation = vec![DQuat::IDENTITY; n];
    for s in 0..samples.len() {
        // Parents first: bones may list children before parents, so resolve recursively.
        let mut done = vec![false; n];
        for j in 0..n {
            resolve(j, s, skeleton, &value, &mut world, &mut rotation, &mut done);
        }
        for j in 0..n {
            let m = world[j];
            let mut points = vec![m.transform_point3(DVec3::ZERO)];
            if let Some(r) = shells.get(j).copied().flatten() {
                for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
                    points.push(m.transform_point3(axis * r));
                }
            }
            out.push((points, rotation[j]));
        }
    }
    out
}

/// A property's value for a bone at a sample: `(bone, property, sample, size)`.
type ValueAt<'v> = dyn Fn(&str, &str, usize, usize) -> Option<Vec<f64>> + 'v;

/// Poses joint `j` (after its parent) at sample `s`.
fn resolve(
    j: usize,
    s: usize,
    skeleton: &Skeleton,
    value: &ValueAt,
    world: &mut [DMat4],
    rotation: &mut [DQuat],
    done: &mut [bool],
) {
    if done[j] {
        return;
    }
    done[j] = true;
    let bone = &skeleton.bones[j];
    let p = value(&bone.name, "position", s, 3)
        .map(|v| DVec3::new(v[0], v[1], v[2]))
        .unwrap_or_else(|| DVec3::from_array(bone.position.map(|x| x as f64)));
    let q = value(&bone.name, "quaternion", s, 4)
        .map(|v| DQuat::from_xyzw(v[0], v[1], v[2], v[3]))
        .unwrap_or_else(|| {
            let r = bone.rotation.map(|x| x as f64);
            DQuat::from_xyzw(r[0], r[1], r[2], r[3])
        });
    let sc = value(&bone.name, "scale", s, 3)
        .map(|v| DVec3::new(v[0], v[1], v[2]))
        .unwrap_or_else(|| DVec3::from_array(bone.scale.map(|x| x as f64)));
    let local = DMat4::from_scale_rotation_translation(sc, q, p);
    let unit = if q.length() > 0.0 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    };
    match bone.parent.filter(|&p| p < world.len() && p != j) {
        Some(parent) => {
            resolve(parent, s, skeleton, value, world, rotation, done);
            world[j] = world[parent] * local;
            rotation[j] = rotation[parent] * unit;
        }
        None => {
            world[j] = local;
            rotation[j] = unit;
        }
    }
}
