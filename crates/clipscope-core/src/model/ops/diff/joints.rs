//! How far each joint of the skeleton moved in world space: both versions posed through their
//! hierarchy (the reducer's forward kinematics, three.js's `Matrix4.compose` down the chain) at
//! every key time of either version and every midpoint, compared joint by joint.
//!
//! The samples are posed a block at a time, so a long take needs memory for one block, not for
//! the whole take.

use super::matching::TrackPair;
use super::{DiffOptions, JointChange, Skeletons};
use crate::model::binding::parse_track_name;
use crate::model::interpolant::Sampler;
use crate::model::ops::reduce::property::{PROPERTIES, Property};
use crate::model::ops::reduce::rotation_angle;
use crate::model::ops::reduce::tree::Tree;
use crate::model::ops::reduce::world::{NodeInput, evaluate};
use crate::model::{Clip, Track};

/// Samples posed at once.
const BLOCK: usize = 1024;

/// The transform property a track drives: position, quaternion, Euler rotation or scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Position = 0,
    Quaternion = 1,
    Euler = 2,
    Scale = 3,
}

impl Slot {
    /// Values per sample.
    fn size(self) -> usize {
        if self == Slot::Quaternion { 4 } else { 3 }
    }

    /// The reducer's property for the slot.
    fn property(self) -> Property {
        match self {
            Slot::Position => Property::Position,
            Slot::Quaternion => Property::Quaternion,
            Slot::Euler => Property::Euler,
            Slot::Scale => Property::Scale,
        }
    }
}

/// The slots, in their buffer order.
const SLOTS: [Slot; 4] = [Slot::Position, Slot::Quaternion, Slot::Euler, Slot::Scale];

/// One version: its hierarchy and the tracks that drive its joints.
struct Side<'a> {
    hierarchy: Tree,
    drivers: Vec<(usize, Slot, &'a Track, Sampler<'a>)>,
    /// Each joint's sampled values of the current block, per slot (empty when not driven).
    buffers: Vec<[Vec<f32>; 4]>,
}

impl<'a> Side<'a> {
    /// The side of `clip` on `hierarchy`; a track whose own name binds to no joint may bind
    /// through `alias` (the name of the track it pairs with in the other version).
    fn new(
        clip: &'a Clip,
        hierarchy: Tree,
        alias: &dyn Fn(usize) -> Option<&'a str>,
        options: &DiffOptions,
    ) -> Side<'a> {
        let mut drivers = Vec::new();
        for (k, track) in clip.tracks.iter().enumerate() {
            let bound = driven(track, &track.name, &hierarchy, options)
                .or_else(|| driven(track, alias(k)?, &hierarchy, options));
            if let Some((joint, slot)) = bound {
                drivers.push((joint, slot, track, Sampler::new(track)));
            }
        }
        let buffers = vec![Default::default(); hierarchy.len()];
        Side {
            hierarchy,
            drivers,
            buffers,
        }
    }

    /// Samples the drivers at `times` into the buffers.
    fn sample(&mut self, times: &[f64]) {
        for b in &mut self.buffers {
            for slot in b.iter_mut() {
                slot.clear();
            }
        }
        let mut value = [0.0f64; 4];
        for (joint, slot, _, sampler) in &mut self.drivers {
            let size = slot.size();
            let buffer = &mut self.buffers[*joint][*slot as usize];
            buffer.clear();
            for &t in times {
                sampler.evaluate_f64(t, &mut value[..size]);
                buffer.extend(value[..size].iter().map(|&v| v as f32));
            }
        }
    }

    /// What drives each joint for the block just sampled.
    fn inputs(&self) -> Vec<NodeInput<'_>> {
        self.buffers
            .iter()
            .map(|b| {
                let mut values = [None; PROPERTIES];
                for slot in SLOTS {
                    values[slot.property() as usize] =
                        some(&b[slot as usize]).map(|v| (v, slot.size()));
                }
                NodeInput {
                    values,
                    heading: None,
                    unit_rotation: false,
                }
            })
            .collect()
    }
}

/// The joint and transform property `track` drives when it is called `name`, if that animates
/// a joint of `hierarchy`.
fn driven(
    track: &Track,
    name: &str,
    hierarchy: &Tree,
    options: &DiffOptions,
) -> Option<(usize, Slot)> {
    let numbers = track.values.as_numbers()?;
    if track.is_empty() || numbers.len() % track.len() != 0 {
        return None;
    }
    let path = parse_track_name(name).ok()?;
    if options
        .property_measures
        .iter()
        .any(|(p, _)| *p == path.property_name)
    {
        return None;
    }
    let slot = match (path.property_name.as_str(), track.value_size()) {
        ("position", 3) => Slot::Position,
        ("quaternion", 4) => Slot::Quaternion,
        ("rotation", 3) => Slot::Euler,
        ("scale", 3) => Slot::Scale,
        _ => return None,
    };
    let joint = *hierarchy.index.get(&path.animated_node()?)?;
    Some((joint, slot))
}

/// Every key time of the tracks that drive joints, in either version, and every midpoint.
fn sample_times(old: &Side, new: &Side) -> Vec<f64> {
    let mut keys: Vec<f64> = old
        .drivers
        .iter()
        .chain(&new.drivers)
        .flat_map(|(_, _, t, _)| t.times.iter().map(|&x| x as f64))
        .filter(|t| t.is_finite())
        .collect();
    keys.sort_by(f64::total_cmp);
    keys.dedup();
    let mut out = Vec::with_capacity(keys.len() * 2);
    for (k, &t) in keys.iter().enumerate() {
        if k > 0 {
            out.push(keys[k - 1] + (t - keys[k - 1]) / 2.0);
        }
        out.push(t);
    }
    out
}

/// The joints whose world position or rotation differs between the clips beyond the tolerance,
/// largest move first; empty without a skeleton or when neither clip drives a joint.
pub(crate) fn changes(
    old: &Clip,
    new: &Clip,
    pairs: &[TrackPair],
    skeletons: Skeletons,
    options: &DiffOptions,
) -> Vec<JointChange> {
    let (Some(so), Some(sn)) = (skeletons.old, skeletons.new) else {
        return Vec::new();
    };
    // Each track's partner in the other version, by index.
    let mut new_of_old = vec![None; old.tracks.len()];
    let mut old_of_new = vec![None; new.tracks.len()];
    for pair in pairs {
        if let TrackPair::Both(i, j) = *pair {
            new_of_old[i] = Some(j);
            old_of_new[j] = Some(i);
        }
    }
    let old_alias = |i: usize| new_of_old[i].map(|j| new.tracks[j].name.as_str());
    let new_alias = |j: usize| old_of_new[j].map(|i| old.tracks[i].name.as_str());
    let mut a = Side::new(old, joint_tree(so), &old_alias, options);
    let mut b = Side::new(new, joint_tree(sn), &new_alias, options);
    if a.drivers.is_empty() && b.drivers.is_empty() {
        return Vec::new();
    }
    // The joints both skeletons have, by name.
    let common: Vec<(usize, usize)> = (0..a.hierarchy.len())
        .filter_map(|ja| {
            let jb = *b.hierarchy.index.get(&a.hierarchy.names[ja])?;
            (a.hierarchy.index.get(&a.hierarchy.names[ja]) == Some(&ja)).then_some((ja, jb))
        })
        .collect();
    let times = sample_times(&a, &b);
    // Per common joint: (distance, its time, angle, its time).
    let mut worst = vec![(0.0f64, 0.0f64, 0.0f64, 0.0f64); common.len()];
    for block in times.chunks(BLOCK) {
        a.sample(block);
        b.sample(block);
        let fa = evaluate(&a.hierarchy, &a.inputs(), block);
        let fb = evaluate(&b.hierarchy, &b.inputs(), block);
        for (s, &t) in block.iter().enumerate() {
            for ((ja, jb), w) in common.iter().zip(worst.iter_mut()) {
                let (pa, pb) = (fa.origin(s, *ja), fb.origin(s, *jb));
                let d =
                    ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2) + (pa[2] - pb[2]).powi(2))
                        .sqrt();
                if d > w.0 || (d.is_nan() && !w.0.is_infinite()) {
                    (w.0, w.1) = (if d.is_nan() { f64::INFINITY } else { d }, t);
                }
                let ra = fa.rotation(s, *ja).map(f64::from);
                let rb = fb.rotation(s, *jb).map(f64::from);
                let angle = rotation_angle(&ra, &rb).to_degrees();
                if angle > w.2 {
                    (w.2, w.3) = (angle, t);
                }
            }
        }
    }
    let mut out: Vec<JointChange> = common
        .iter()
        .zip(worst)
        .filter(|(_, w)| w.0 > options.tolerance || w.2 > options.tolerance)
        .map(|((ja, _), w)| JointChange {
            name: a.hierarchy.names[*ja].clone(),
            distance: w.0,
            distance_time: w.1 as f32,
            angle: w.2,
            angle_time: w.3 as f32,
        })
        .collect();
    out.sort_by(|x, y| {
        y.distance
            .total_cmp(&x.distance)
            .then(y.angle.total_cmp(&x.angle))
    });
    out
}

/// The joints of `skeleton` as the reducer's tree; only their origins and rotations are
/// compared.
fn joint_tree(skeleton: &crate::model::Skeleton) -> Tree {
    Tree::from_skeleton(skeleton, |_| false, 0.0)
}

/// The sampled values, or `None` when the slot is not driven.
fn some(v: &[f32]) -> Option<&[f32]> {
    (!v.is_empty()).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::diff::matching::pair_tracks;
    use crate::model::{Bone, Skeleton, TrackKind};

    fn arm() -> Skeleton {
        let shoulder = Bone::new("shoulder", None);
        let mut hand = Bone::new("hand", Some(0));
        hand.position = [1.0, 0.0, 0.0];
        Skeleton {
            bones: vec![shoulder, hand],
        }
    }

    fn raise(deg: f32) -> Clip {
        let h = deg.to_radians() / 2.0;
        Clip::new(
            "raise",
            1.0,
            vec![Track::numeric(
                ".bones[shoulder].quaternion",
                TrackKind::Quaternion,
                vec![0.0, 1.0],
                vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, h.sin(), h.cos()],
            )],
        )
    }

    #[test]
    fn a_shoulder_turn_moves_the_hand_through_the_hierarchy() {
        let skeleton = arm();
        let skeletons = Skeletons {
            old: Some(&skeleton),
            new: Some(&skeleton),
        };
        let (old, new) = (raise(90.0), raise(60.0));
        let pairs = pair_tracks(&old, &new);
        let changes = changes(&old, &new, &pairs, skeletons, &DiffOptions::default());
        let hand = changes
            .iter()
            .find(|j| j.name == "hand")
            .expect("the hand moved");
        // A 30° turn at the end moves a point 1 unit out by the chord 2·sin(15°).
        let chord = 2.0 * 15f64.to_radians().sin();
        assert!((hand.distance - chord).abs() < 1e-6, "{}", hand.distance);
        assert_eq!(hand.distance_time, 1.0);
        assert!((hand.angle - 30.0).abs() < 1e-3, "{}", hand.angle);
        // The shoulder turned but did not move.
        let shoulder = changes
            .iter()
            .find(|j| j.name == "shoulder")
            .expect("turned");
        assert!(shoulder.distance < 1e-9);
        assert_eq!(changes[0].name, "hand", "largest move first");
    }

    #[test]
    fn no_skeleton_no_joints() {
        assert!(
            changes(
                &raise(90.0),
                &raise(60.0),
                &[TrackPair::Both(0, 0)],
                Skeletons::default(),
                &DiffOptions::default()
            )
            .is_empty()
        );
    }
}
