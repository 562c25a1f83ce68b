//! A rig's pose: the rest [`Pose`] a mixer plays clips on, and forward kinematics from a pose to
//! the boxes the renderer draws.
//!
//! The rest pose has a root node named after the rig (its `position`, `quaternion`, `scale`,
//! `visible` and, when the rig has morph targets, `morphTargetInfluences`) and one node per part
//! with `position`, `quaternion` and `scale`, defined in a fixed order: the root first, then the
//! parts in rig order. [`Rig::instances`] reads a pose in that layout by position, checking the
//! node names as it goes and taking each node's transform in one piece
//! ([`Pose::transform_at`]), so posing costs no lookups and no allocations; a pose laid out
//! differently is read by name instead.
//!
//! Each part's world transform is `parent_world · T(position) · R(quaternion) · S(scale)`,
//! starting from the root's own transform; its box is `world · T(offset) · S(size)` applied to
//! the unit cube. Quaternions are used as the pose has them, like three.js's `Matrix4.compose`.

use glam::{Mat4, Quat, Vec3};

use super::{BoxInstance, Rig};
use clipscope_core::playback::Pose;

/// The root's property order in a rest pose.
const ROOT_VISIBLE: usize = 3;

impl Rig {
    /// The pose of this rig at rest, laid out as the module docs describe.
    pub fn rest_pose(&self) -> Pose {
        let mut pose = Pose::new(self.name.clone());
        define_transform(&mut pose, &self.name, Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        pose.define(self.name.clone(), "visible", &[1.0]);
        if !self.morph_targets.is_empty() {
            pose.define(
                self.name.clone(),
                "morphTargetInfluences",
                &vec![0.0; self.morph_targets.len()],
            );
            pose.set_morph_targets(&self.name, &self.morph_targets);
        }
        for part in &self.parts {
            define_transform(
                &mut pose,
                &part.name,
                part.position,
                part.rotation,
                part.scale,
            );
        }
        pose
    }

    /// Appends one box per part, posed by `pose`, to `out` (nothing when the root's `visible` is
    /// 0): the part's box, or its bone when it has a [`Part::tip`](super::Part::tip); then,
    /// when the rig has a [`Rig::joint_size`], one cube per joint. Properties the pose lacks
    /// keep the part's rest values. Allocates nothing once `out` has room for the boxes.
    pub fn instances(&self, pose: &Pose, out: &mut Vec<BoxInstance>) {
        let start = out.len();
        if !self.world(pose, out) {
            return;
        }
        self.shape(start, out);
    }

    /// The world position of every part's pivot (its joint) in `pose`, in part order; empty
    /// when the root is invisible.
    pub fn joints(&self, pose: &Pose) -> Vec<Vec3> {
        let mut out = Vec::with_capacity(self.parts.len());
        self.world(pose, &mut out);
        out.iter().map(|b| b.transform.w_axis.truncate()).collect()
    }

    /// Appends each part's world transform (its pivot's frame) to `out`; false, appending
    /// nothing, when the root's `visible` is 0.
    pub(crate) fn world(&self, pose: &Pose, out: &mut Vec<BoxInstance>) -> bool {
        let root_at = pose.node_name(0) == Some(self.name.as_str());
        let visible = read(pose, root_at, 0, ROOT_VISIBLE, &self.name, "visible");
        if visible.is_some_and(|v| v.first().is_some_and(|&v| v < 0.5)) {
            return false;
        }
        let root = node_transform(
            pose,
            root_at,
            0,
            &self.name,
            (Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
        );
        let start = out.len();
        out.reserve(self.parts.len());
        for (i, part) in self.parts.iter().enumerate() {
            let node = i + 1;
            let at = pose.node_name(node) == Some(part.name.as_str());
            let local = node_transform(
                pose,
                at,
                node,
                &part.name,
                (part.position, part.rotation, part.scale),
            );
            let parent = match part.parent {
                Some(p) if p < i => out[start + p].transform,
                _ => root,
            };
            out.push(BoxInstance {
                transform: parent * local,
                colour: part.colour,
                taper: 0.0,
            });
        }
        true
    }

    /// Turns the world transforms `world` appended from `start` into the drawn boxes.
    pub(crate) fn shape(&self, start: usize, out: &mut Vec<BoxInstance>) {
        if self.joint_size > 0.0 {
            let n = self.parts.len();
            out.reserve(n);
            for i in 0..n {
                let pivot = out[start + i].transform.w_axis;
                // A pivot without a box or bone (a group) has no joint to show.
                let part = &self.parts[i];
                let edge = if part.tip.is_none() && part.size == Vec3::ZERO {
                    0.0
                } else {
                    self.joint_size
                };
                out.push(BoxInstance {
                    transform: Mat4::from_cols(
                        glam::Vec4::X * edge,
                        glam::Vec4::Y * edge,
                        glam::Vec4::Z * edge,
                        pivot,
                    ),
                    colour: JOINT_COLOUR,
                    taper: 0.0,
                });
            }
        }
        for i in 0..self.parts.len() {
            let part = &self.parts[i];
            let world = out[start + i].transform;
            let tip = part.tip.map(|t| out[start + t].transform.w_axis.truncate());
            let bone = tip.and_then(|tip| bone_box(&world, tip, part.size.x));
            out[start + i].taper = if bone.is_some() { BONE_TAPER } else { 0.0 };
            out[start + i].transform = match bone {
                Some(bone) => bone,
                None => Mat4::from_cols(
                    world.x_axis * part.size.x,
                    world.y_axis * part.size.y,
                    world.z_axis * part.size.z,
                    world * part.offset.extend(1.0),
                ),
            };
        }
    }

    /// The part a box of [`Rig::instances`] belongs to: box `i` is part `i`, and when the rig
    /// draws joints, box `parts + i` is part `i`'s joint.
    pub fn part_of_box(&self, i: usize) -> Option<usize> {
        let n = self.parts.len();
        match i {
            i if i < n => Some(i),
            i if self.joint_size > 0.0 && i < 2 * n => Some(i - n),
            _ => None,
        }
    }
}

/// How much a bone narrows from its joint to its child's ([`BoxInstance::taper`]).
const BONE_TAPER: f32 = 0.7;

/// The colour of joint cubes, linear RGB: a light warm grey.
const JOINT_COLOUR: [f32; 3] = [0.72, 0.70, 0.66];

/// A bone from the pivot of `world` to `tip` (world), `width` thick, as a unit-cube transform:
/// its y axis along the bone, its x axis the part's x axis made square to it. `None` when the
/// bone has no length.
fn bone_box(world: &Mat4, tip: Vec3, width: f32) -> Option<Mat4> {
    let from = world.w_axis.truncate();
    let d = tip - from;
    let length = d.length();
    if length <= 1e-6 || !length.is_finite() {
        return None;
    }
    let y = d / length;
    let mut x = world.x_axis.truncate();
    if x.length_squared() < 1e-12 || x.normalize().dot(y).abs() > 0.95 {
        x = world.z_axis.truncate();
    }
    let x = (x - y * x.dot(y))
        .try_normalize()
        .unwrap_or_else(|| y.any_orthonormal_vector());
    let z = x.cross(y);
    let width = if width > 0.0 { width } else { length * 0.2 };
    Some(Mat4::from_cols(
        (x * width).extend(0.0),
        (y * length).extend(0.0),
        (z * width).extend(0.0),
        (from + d * 0.5).extend(1.0),
    ))
}

/// Defines `position`, `quaternion` and `scale` of `node`, in that order.
fn define_transform(pose: &mut Pose, node: &str, position: Vec3, rotation: Quat, scale: Vec3) {
    let v = |v: Vec3| [f64::from(v.x), f64::from(v.y), f64::from(v.z)];
    let q = [
        f64::from(rotation.x),
        f64::from(rotation.y),
        f64::from(rotation.z),
        f64::from(rotation.w),
    ];
    pose.define(node, "position", &v(position))
        .define(node, "quaternion", &q)
        .define(node, "scale", &v(scale));
}

/// The values of `property` of node `name`: at (`node`, `index`) when the node sits where the
/// rest layout puts it (`at`) and the name there matches, else by name.
#[inline]
fn read<'p>(
    pose: &'p Pose,
    at: bool,
    node: usize,
    index: usize,
    name: &str,
    property: &str,
) -> Option<&'p [f64]> {
    if at
        && let Some((found, values)) = pose.value_at(node, index)
        && found == property
    {
        return Some(values);
    }
    pose.value(name, property)
}

/// `T(position) · R(quaternion) · S(scale)` of a node, each falling back to `rest`: straight
/// from the pose's values when the node sits where the rest layout puts it (`at`) with its
/// transform laid out as a rest pose lays it out ([`Pose::transform_at`]), else property by
/// property.
#[inline]
fn node_transform(
    pose: &Pose,
    at: bool,
    node: usize,
    name: &str,
    rest: (Vec3, Quat, Vec3),
) -> Mat4 {
    if at && let Some(v) = pose.transform_at(node) {
        let vector = |v: &[f64]| Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32);
        let rotation = Quat::from_xyzw(v[3] as f32, v[4] as f32, v[5] as f32, v[6] as f32);
        return Mat4::from_scale_rotation_translation(vector(&v[7..]), rotation, vector(&v[..3]));
    }
    local_transform(pose, at, node, name, rest)
}

/// `T(position) · R(quaternion) · S(scale)` of a node, each falling back to `rest`.
#[inline(never)]
fn local_transform(
    pose: &Pose,
    at: bool,
    node: usize,
    name: &str,
    rest: (Vec3, Quat, Vec3),
) -> Mat4 {
    let vector = |v: &[f64]| Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32);
    let position = read(pose, at, node, 0, name, "position")
        .filter(|v| v.len() >= 3)
        .map_or(rest.0, vector);
    let rotation = read(pose, at, node, 1, name, "quaternion")
        .filter(|v| v.len() >= 4)
        .map_or(rest.1, |v| {
            Quat::from_xyzw(v[0] as f32, v[1] as f32, v[2] as f32, v[3] as f32)
        });
    let scale = read(pose, at, node, 2, name, "scale")
        .filter(|v| v.len() >= 3)
        .map_or(rest.2, vector);
    Mat4::from_scale_rotation_translation(scale, rotation, position)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use glam::Vec4;

    use super::*;
    use crate::Part;
    use clipscope_core::playback::Mixer;

    /// A two-part arm: a shoulder at (1, 2, 0) turned 90° about z, an elbow 0.5 along it.
    fn arm() -> Rig {
        let mut upper = Part::new("upper", None, Vec3::new(0.2, 1.0, 0.2), [1.0, 0.0, 0.0]);
        upper.position = Vec3::new(1.0, 2.0, 0.0);
        upper.rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        upper.offset = Vec3::new(0.0, -0.5, 0.0);
        let mut lower = Part::new("lower", Some(0), Vec3::new(0.1, 0.5, 0.1), [0.0, 1.0, 0.0]);
        lower.position = Vec3::new(0.0, -1.0, 0.0);
        lower.scale = Vec3::splat(2.0);
        lower.offset = Vec3::new(0.0, -0.25, 0.0);
        Rig::new("arm", vec![upper, lower], vec!["smile".into()]).unwrap()
    }

    /// The world position of the unit-cube point `p` under an instance.
    fn point(i: &BoxInstance, p: Vec3) -> Vec3 {
        (i.transform * p.extend(1.0)).truncate()
    }

    #[test]
    fn rest_pose_layout() {
        let pose = arm().rest_pose();
        assert_eq!(pose.root(), "arm");
        assert_eq!(pose.node_name(1), Some("upper"));
        assert_eq!(pose.value_at(0, 3), Some(("visible", &[1.0][..])));
        assert_eq!(pose.value("arm", "morphTargetInfluences"), Some(&[0.0][..]));
        assert_eq!(pose.morph_target("arm", "smile"), Some(0));
        assert_eq!(pose.value("lower", "scale"), Some(&[2.0, 2.0, 2.0][..]));
        assert_eq!(pose.value("upper", "position"), Some(&[1.0, 2.0, 0.0][..]));
        let q = pose.value("upper", "quaternion").unwrap();
        assert!((q[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-7);
    }

    #[test]
    fn forward_kinematics_of_a_chain() {
        let rig = arm();
        let mut pose = rig.rest_pose();
        let mut out = vec![];
        rig.instances(&pose, &mut out);
        assert_eq!(out.len(), 2);
        // The upper arm points along +x from the shoulder (its −y turned by 90° about z).
        let upper = &out[0];
        assert!(point(upper, Vec3::ZERO).abs_diff_eq(Vec3::new(1.5, 2.0, 0.0), 1e-6));
        assert!(
            point(upper, Vec3::new(0.0, -0.5, 0.0)).abs_diff_eq(Vec3::new(2.0, 2.0, 0.0), 1e-6)
        );
        assert_eq!(upper.colour, [1.0, 0.0, 0.0]);
        // The elbow is at (2, 2, 0); the forearm, scaled 2×, reaches 1 further along +x.
        let lower = &out[1];
        let expected = Mat4::from_cols(
            Vec4::new(0.0, 0.2, 0.0, 0.0),
            Vec4::new(-1.0, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 0.2, 0.0),
            Vec4::new(2.5, 2.0, 0.0, 1.0),
        );
        assert!(
            lower.transform.abs_diff_eq(expected, 1e-6),
            "{}",
            lower.transform
        );

        // Bend the elbow 90° about z, move and turn the root: everything follows.
        let bend = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        pose.set_value(
            "lower",
            "quaternion",
            &[0.0, 0.0, f64::from(bend.z), f64::from(bend.w)],
        );
        pose.set_value("arm", "position", &[0.0, 0.0, 5.0]);
        out.clear();
        rig.instances(&pose, &mut out);
        let end = point(&out[1], Vec3::new(0.0, -0.5, 0.0));
        assert!(end.abs_diff_eq(Vec3::new(2.0, 3.0, 5.0), 1e-6), "{end}");

        // An invisible root draws nothing; a pose without the rig's properties poses at rest.
        pose.set_value("arm", "visible", &[0.0]);
        out.clear();
        rig.instances(&pose, &mut out);
        assert!(out.is_empty());
        let mut rest = vec![];
        rig.instances(&Pose::new("other"), &mut rest);
        let mut expected = vec![];
        rig.instances(&rig.rest_pose(), &mut expected);
        assert_eq!(rest, expected);
    }

    #[test]
    fn a_pose_in_another_layout_is_read_by_name() {
        let rig = arm();
        let mut pose = Pose::new("arm");
        pose.define("lower", "scale", &[1.0, 1.0, 1.0]).define(
            "upper",
            "position",
            &[0.0, 0.0, 0.0],
        );
        let mut out = vec![];
        rig.instances(&pose, &mut out);
        // Upper at the origin, turned; lower at scale 1: its box centre 1 + 0.25 along +x.
        assert!(point(&out[0], Vec3::ZERO).abs_diff_eq(Vec3::new(0.5, 0.0, 0.0), 1e-6));
        assert!(point(&out[1], Vec3::ZERO).abs_diff_eq(Vec3::new(1.25, 0.0, 0.0), 1e-6));
    }

    #[test]
    fn the_rest_layout_and_a_shuffled_layout_pose_alike() {
        // The same values in the rest layout (read in one piece) and defined in another order
        // (read by name) give the very same boxes.
        let rig = arm();
        let mut fast = rig.rest_pose();
        assert!(fast.set_value("upper", "quaternion", &[0.1, 0.2, 0.3, 0.9]));
        fast.set_value("lower", "position", &[0.5, -1.0, 0.25]);
        fast.set_value("arm", "scale", &[1.5, 1.5, 1.5]);
        let mut slow = Pose::new("arm");
        for (node, property) in [
            ("lower", "scale"),
            ("lower", "quaternion"),
            ("lower", "position"),
            ("upper", "scale"),
            ("upper", "position"),
            ("upper", "quaternion"),
            ("arm", "visible"),
            ("arm", "scale"),
            ("arm", "quaternion"),
            ("arm", "position"),
        ] {
            slow.define(node, property, fast.value(node, property).unwrap());
        }
        let (mut a, mut b) = (vec![], vec![]);
        rig.instances(&fast, &mut a);
        rig.instances(&slow, &mut b);
        assert_eq!(a, b);
        assert!(fast.transform_at(1).is_some() && slow.transform_at(1).is_none());
    }

    /// The world y of an instance's box corners.
    fn corner_ys(i: &BoxInstance) -> impl Iterator<Item = f32> + '_ {
        (0..8).map(move |corner| {
            let half = |bit: i32| if corner & bit == 0 { -0.5 } else { 0.5 };
            point(i, Vec3::new(half(1), half(2), half(4))).y
        })
    }

    /// The lowest world y of an instance's box.
    fn bottom(i: &BoxInstance) -> f32 {
        corner_ys(i).fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn builtins_stand_on_the_ground_at_rest() {
        for rig in Rig::builtins() {
            let mut out = vec![];
            rig.instances(&rig.rest_pose(), &mut out);
            let lowest = out.iter().map(bottom).fold(f32::INFINITY, f32::min);
            assert!(
                (0.0..0.02).contains(&lowest),
                "{} floats at {lowest}",
                rig.name
            );
        }
    }

    #[test]
    fn hero_walks_the_demo_clip() {
        let demo = clipscope_core::formats::read_bytes(
            clipscope_core::assets::DEMO_CLIPS,
            std::path::Path::new(clipscope_core::assets::DEMO_NAME),
        )
        .unwrap();
        let walk = Arc::new(demo.clips.into_iter().find(|c| c.name == "walk").unwrap());
        let hero = Rig::builtin("hero").unwrap();
        let mut mixer = Mixer::new(hero.rest_pose());
        let id = mixer.clip_action(&walk);
        mixer.action_mut(id).play();
        assert!(
            mixer.unbound_tracks().is_empty(),
            "{:?}",
            mixer.unbound_tracks()
        );

        let foot_l = hero.part_index("foot.L").unwrap();
        let foot_r = hero.part_index("foot.R").unwrap();
        let leg_l = hero.part_index("upperLeg.L").unwrap();
        let mut rest = vec![];
        hero.instances(&hero.rest_pose(), &mut rest);
        let top = rest.iter().flat_map(corner_ys).fold(f32::MIN, f32::max);
        assert!((1.85..1.95).contains(&top), "the Hero is {top} tall");
        assert!(bottom(&rest[foot_l]).abs() < 0.02);

        let mut out = Vec::new();
        let mut moved = 0;
        let mut previous_leg = rest[leg_l].transform;
        for step in 0..40 {
            mixer.set_time(f64::from(step) / 40.0);
            out.clear();
            hero.instances(mixer.pose(), &mut out);
            assert_eq!(out.len(), hero.parts.len());
            for (part, i) in hero.parts.iter().zip(&out) {
                assert!(
                    bottom(i) > -0.02,
                    "{} under the ground at step {step}",
                    part.name
                );
            }
            let lowest_foot = bottom(&out[foot_l]).min(bottom(&out[foot_r]));
            assert!(
                lowest_foot < 0.2,
                "both feet in the air at step {step}: {lowest_foot}"
            );
            if !out[leg_l].transform.abs_diff_eq(previous_leg, 1e-4) {
                moved += 1;
            }
            previous_leg = out[leg_l].transform;
        }
        assert!(
            moved >= 35,
            "the left leg moved on only {moved} of 40 steps"
        );
        // Half a cycle apart, the legs have swapped: the left foot was ahead, now behind.
        mixer.set_time(0.25);
        out.clear();
        hero.instances(mixer.pose(), &mut out);
        let ahead = point(&out[foot_l], Vec3::ZERO).z - point(&out[foot_r], Vec3::ZERO).z;
        mixer.set_time(0.75);
        out.clear();
        hero.instances(mixer.pose(), &mut out);
        let behind = point(&out[foot_l], Vec3::ZERO).z - point(&out[foot_r], Vec3::ZERO).z;
        assert!(ahead > 0.3 && behind < -0.3, "{ahead} {behind}");
    }
}
