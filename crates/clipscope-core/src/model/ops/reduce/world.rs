//! Where a clip puts every joint of a skeleton, in world space, at every sample time: the
//! reducer's measure of what a change to the keys does on screen.
//!
//! Each joint's local transform is composed from its position, quaternion and scale tracks (or
//! its rest values) exactly like three.js's `Matrix4.compose` — a quaternion a bezier curve left
//! slightly off unit length skews the matrix as it would in three.js — and multiplied down the
//! hierarchy. A joint is measured by four points: its origin and the points one axis length
//! (3 cm in metres) along its local x, y and z axes, so a rotation that turns the joint in place
//! still moves something; and by its world rotation, for the angle budget.

use std::collections::HashMap;

use glam::{DAffine3, DMat3, DVec3};
use rayon::prelude::*;

use super::channel::unit_rotation_angle_above;
use crate::model::Skeleton;

/// The joints of a skeleton, parents first.
#[derive(Debug, Clone)]
pub(crate) struct Hierarchy {
    /// Joint names (the skeleton's bone names).
    pub names: Vec<String>,
    /// Each joint's parent joint.
    pub parent: Vec<Option<usize>>,
    /// Rest position, rotation (x, y, z, w) and scale of each joint, relative to its parent.
    pub rest: Vec<([f64; 3], [f64; 4], [f64; 3])>,
    /// The joints in an order where every parent comes before its children.
    pub order: Vec<usize>,
    /// Each name's joint (the first bone of a repeated name).
    pub index: HashMap<String, usize>,
}

impl Hierarchy {
    /// The hierarchy of `skeleton`; a parent link that would close a cycle is dropped.
    pub fn new(skeleton: &Skeleton) -> Hierarchy {
        let n = skeleton.bones.len();
        let mut parent: Vec<Option<usize>> = skeleton
            .bones
            .iter()
            .map(|b| b.parent.filter(|&p| p < n))
            .collect();
        // Break cycles: walk up from each joint; a walk longer than n has looped.
        for j in 0..n {
            let mut at = parent[j];
            let mut steps = 0;
            while let Some(p) = at {
                steps += 1;
                if p == j || steps > n {
                    parent[j] = None;
                    break;
                }
                at = parent[p];
            }
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (j, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(j);
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&j| parent[j].is_none()).rev().collect();
        while let Some(j) = stack.pop() {
            order.push(j);
            stack.extend(children[j].iter().rev());
        }
        let mut index = HashMap::with_capacity(n);
        for (j, b) in skeleton.bones.iter().enumerate() {
            index.entry(b.name.clone()).or_insert(j);
        }
        Hierarchy {
            names: skeleton.bones.iter().map(|b| b.name.clone()).collect(),
            parent,
            rest: skeleton
                .bones
                .iter()
                .map(|b| {
                    (
                        b.position.map(|v| v as f64),
                        b.rotation.map(|v| v as f64),
                        b.scale.map(|v| v as f64),
                    )
                })
                .collect(),
            order,
            index,
        }
    }

    /// The number of joints.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `j` and every joint above it, nearest first.
    pub fn chain(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(j), move |&k| self.parent[k])
    }
}

/// What drives one joint: the sampled values of its animated properties (`None` for rest).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JointInput<'a> {
    /// Position samples (3 per sample).
    pub position: Option<&'a [f64]>,
    /// Quaternion samples (4 per sample).
    pub quaternion: Option<&'a [f64]>,
    /// Euler XYZ rotation samples in radians (3 per sample), used when there is no quaternion.
    pub euler: Option<&'a [f64]>,
    /// Scale samples (3 per sample).
    pub scale: Option<&'a [f64]>,
}

/// Every joint's world points and rotation at every sample. A long take has millions of
/// frames, so the parts that need no more are kept in `f32`: the axis points as offsets from
/// the origin (a few centimetres, so `f32` is exact to nanometres) and the rotations.
#[derive(Debug, Clone)]
pub(crate) struct WorldFrames {
    /// The number of joints.
    pub joints: usize,
    /// Each joint's origin at each sample.
    pub origins: Vec<[f64; 3]>,
    /// The offsets from the origin of the points along x, y and z (three vectors).
    pub axes: Vec<[f32; 9]>,
    /// The unit world rotation of each joint at each sample.
    pub rotations: Vec<[f32; 4]>,
    /// How far a point may be off for keeping the axis offsets in `f32` (half a unit in the
    /// last place of the largest offset, over three components, and twice over); every
    /// distance [`WorldFrames::compare`] measures is raised by it, so it stays an upper bound.
    pub rounding: f64,
}

/// The largest difference between two clips' world frames.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WorldError {
    /// The largest distance any measured point moved.
    pub distance: f64,
    /// The largest angle any joint's world rotation turned, in radians.
    pub angle: f64,
    /// The joint and sample of the largest distance.
    pub worst: Option<(usize, usize)>,
}

/// The world frames of `hierarchy` driven by `inputs` (one per joint) at `samples` sample
/// times, measuring points `axis` along each joint's local axes.
pub(crate) fn evaluate(
    hierarchy: &Hierarchy,
    inputs: &[JointInput],
    samples: usize,
    axis: f64,
) -> WorldFrames {
    let n = hierarchy.len();
    let mut origins = vec![[0.0; 3]; samples * n];
    let mut axes = vec![[0.0f32; 9]; samples * n];
    let mut rotations = vec![[0.0f32, 0.0, 0.0, 1.0]; samples * n];
    let mut largest: f64 = 0.0;
    if n > 0 {
        largest = origins
            .par_chunks_mut(n * CHUNK)
            .zip(axes.par_chunks_mut(n * CHUNK))
            .zip(rotations.par_chunks_mut(n * CHUNK))
            .enumerate()
            .map(|(chunk, ((origins, axes), rotations))| {
                let mut pose = Pose::new(n);
                let first = chunk * CHUNK;
                let mut largest: f64 = 0.0;
                for (k, s) in (first..(first + CHUNK).min(samples)).enumerate() {
                    pose.solve(hierarchy, inputs, s, axis, true);
                    let at = k * n;
                    origins[at..at + n].copy_from_slice(&pose.origin);
                    for j in 0..n {
                        axes[at + j] = pose.axes[j].map(|v| v as f32);
                        rotations[at + j] = pose.rotation[j].map(|v| v as f32);
                        largest = pose.axes[j].iter().fold(largest, |m, v| m.max(v.abs()));
                    }
                }
                largest
            })
            .reduce(|| 0.0, f64::max);
    }
    WorldFrames {
        joints: n,
        origins,
        axes,
        rotations,
        // Half an ulp is at most 2^-24 of the value; √3 components; doubled for safety.
        rounding: if largest.is_finite() {
            largest * 2f64.powi(-24) * 3f64.sqrt() * 2.0
        } else {
            0.0
        },
    }
}

/// Samples per piece of parallel work.
const CHUNK: usize = 256;

/// One pose of every joint: its world transform, measured points and world rotation.
struct Pose {
    world: Vec<DAffine3>,
    rotation: Vec<[f64; 4]>,
    /// Each joint's origin.
    origin: Vec<[f64; 3]>,
    /// The offsets of its axis points from the origin (x, y, z).
    axes: Vec<[f64; 9]>,
}

impl Pose {
    /// A pose of `n` joints.
    fn new(n: usize) -> Pose {
        Pose {
            world: vec![DAffine3::IDENTITY; n],
            rotation: vec![[0.0, 0.0, 0.0, 1.0]; n],
            origin: vec![[0.0; 3]; n],
            axes: vec![[0.0; 9]; n],
        }
    }

    /// Poses every joint at sample `s` (with world rotations only when `rotations`).
    fn solve(
        &mut self,
        hierarchy: &Hierarchy,
        inputs: &[JointInput],
        s: usize,
        axis: f64,
        rotations: bool,
    ) {
        for &j in &hierarchy.order {
            let (rest_p, rest_q, rest_s) = hierarchy.rest[j];
            let input = inputs.get(j).copied().unwrap_or_default();
            let p = input
                .position
                .map_or(rest_p, |v| [v[s * 3], v[s * 3 + 1], v[s * 3 + 2]]);
            let q = match (input.quaternion, input.euler) {
                (Some(v), _) => [v[s * 4], v[s * 4 + 1], v[s * 4 + 2], v[s * 4 + 3]],
                (None, Some(e)) => euler_xyz(e[s * 3], e[s * 3 + 1], e[s * 3 + 2]),
                (None, None) => rest_q,
            };
            let sc = input
                .scale
                .map_or(rest_s, |v| [v[s * 3], v[s * 3 + 1], v[s * 3 + 2]]);
            let local = compose(p, q, sc);
            let w = match hierarchy.parent[j] {
                Some(pj) => self.world[pj] * local,
                None => local,
            };
            self.world[j] = w;
            if rotations {
                let unit = normalized(q);
                self.rotation[j] = match hierarchy.parent[j] {
                    Some(pj) => multiply(self.rotation[pj], unit),
                    None => unit,
                };
            }
            let m = w.matrix3 * axis;
            self.origin[j] = w.translation.to_array();
            self.axes[j] = m.to_cols_array();
        }
    }
}

impl WorldFrames {
    /// Point `p` (0 the origin, 1–3 along x, y, z) of joint `j` at sample `s`.
    pub fn point(&self, s: usize, j: usize, p: usize) -> [f64; 3] {
        let at = s * self.joints + j;
        let o = self.origins[at];
        if p == 0 {
            return o;
        }
        let a = &self.axes[at][(p - 1) * 3..p * 3];
        [o[0] + a[0] as f64, o[1] + a[1] as f64, o[2] + a[2] as f64]
    }

    /// The largest difference from these frames of the pose `inputs` drive (same joints and
    /// samples), overall and per joint (distance, angle: angles only when `angles`), computed
    /// without keeping the other frames.
    pub fn compare(
        &self,
        hierarchy: &Hierarchy,
        inputs: &[JointInput],
        axis: f64,
        angles: bool,
    ) -> (WorldError, Vec<(f64, f64)>) {
        self.compare_first(usize::MAX, hierarchy, inputs, axis, angles)
    }

    /// [`WorldFrames::compare`] over the first `samples` samples only (a pilot try).
    pub fn compare_first(
        &self,
        samples: usize,
        hierarchy: &Hierarchy,
        inputs: &[JointInput],
        axis: f64,
        angles: bool,
    ) -> (WorldError, Vec<(f64, f64)>) {
        let n = self.joints;
        let samples = self.origins.len().checked_div(n).unwrap_or(0).min(samples);
        let chunks = samples.div_ceil(CHUNK);
        let partial: Vec<(WorldError, Vec<(f64, f64)>)> = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut pose = Pose::new(n);
                let mut out = WorldError::default();
                let mut per_joint = vec![(0.0f64, 0.0f64); n];
                let first = chunk * CHUNK;
                for s in first..(first + CHUNK).min(samples) {
                    pose.solve(hierarchy, inputs, s, axis, angles);
                    for (j, slot) in per_joint.iter_mut().enumerate() {
                        let at = s * n + j;
                        let (oa, aa) = (self.origins[at], &self.axes[at]);
                        let (ob, ab) = (pose.origin[j], &pose.axes[j]);
                        let o = [ob[0] - oa[0], ob[1] - oa[1], ob[2] - oa[2]];
                        let mut d2 = o[0] * o[0] + o[1] * o[1] + o[2] * o[2];
                        for p in 0..3 {
                            let mut e = 0.0;
                            for (c, oc) in o.iter().enumerate() {
                                let k = p * 3 + c;
                                // Both offsets rounded alike, so an unchanged pose
                                // measures exactly 0.
                                let diff = oc + (ab[k] as f32 as f64 - aa[k] as f64);
                                e += diff * diff;
                            }
                            d2 = d2.max(e);
                        }
                        if d2.is_nan() {
                            d2 = f64::INFINITY;
                        }
                        let d = d2.sqrt();
                        if d > out.distance {
                            out.distance = d;
                            out.worst = Some((j, s));
                        }
                        slot.0 = slot.0.max(d);
                        if angles
                            && let Some(angle) = unit_rotation_angle_above(
                                &self.rotations[at].map(f64::from),
                                &pose.rotation[j],
                                slot.1,
                            )
                        {
                            out.angle = out.angle.max(angle);
                            slot.1 = slot.1.max(angle);
                        }
                    }
                }
                (out, per_joint)
            })
            .collect();
        let mut out = WorldError::default();
        let mut per_joint = vec![(0.0f64, 0.0f64); n];
        let rounding = |d: f64| if d > 0.0 { d + self.rounding } else { d };
        for (e, pj) in partial {
            if e.distance > out.distance {
                out.distance = e.distance;
                out.worst = e.worst;
            }
            out.angle = out.angle.max(e.angle);
            for (a, b) in per_joint.iter_mut().zip(pj) {
                a.0 = a.0.max(b.0);
                a.1 = a.1.max(b.1);
            }
        }
        out.distance = rounding(out.distance);
        for j in &mut per_joint {
            j.0 = rounding(j.0);
        }
        (out, per_joint)
    }
}

/// three.js's `Matrix4.compose(position, quaternion, scale)`, quaternion used as it is.
fn compose(p: [f64; 3], q: [f64; 4], s: [f64; 3]) -> DAffine3 {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let [sx, sy, sz] = s;
    DAffine3 {
        matrix3: DMat3::from_cols(
            DVec3::new((1.0 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx),
            DVec3::new((xy - wz) * sy, (1.0 - (xx + zz)) * sy, (yz + wx) * sy),
            DVec3::new((xz + wy) * sz, (yz - wx) * sz, (1.0 - (xx + yy)) * sz),
        ),
        translation: DVec3::from_array(p),
    }
}

/// three.js's `Quaternion.setFromEuler` for the XYZ order.
fn euler_xyz(x: f64, y: f64, z: f64) -> [f64; 4] {
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

/// `q` scaled to unit length (the identity for a zero or non-finite quaternion).
fn normalized(q: [f64; 4]) -> [f64; 4] {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    if n > 0.0 && n.is_finite() {
        q.map(|v| v / n)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// The Hamilton product `a · b` of two quaternions (x, y, z, w).
fn multiply(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Bone;

    fn chain() -> Hierarchy {
        let mut hip = Bone::new("hip", None);
        hip.position = [0.0, 1.0, 0.0];
        let mut knee = Bone::new("knee", Some(0));
        knee.position = [0.0, -0.5, 0.0];
        Hierarchy::new(&Skeleton {
            bones: vec![hip, knee],
        })
    }

    #[test]
    fn rest_pose_points_sit_along_the_axes() {
        let h = chain();
        let frames = evaluate(&h, &[], 1, 0.03);
        assert_eq!(frames.point(0, 1, 0), [0.0, 0.5, 0.0]);
        let x = frames.point(0, 1, 1);
        assert_eq!(x[1..], [0.5, 0.0]);
        assert!((x[0] - 0.03).abs() <= frames.rounding, "{x:?}");
        assert!(frames.rounding < 1e-8);
    }

    #[test]
    fn a_hip_rotation_moves_the_knee_by_its_lever() {
        let h = chain();
        let rest = evaluate(&h, &[], 1, 0.03);
        let angle: f64 = 0.01;
        let q = [0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()];
        let inputs = [JointInput {
            quaternion: Some(&q),
            ..JointInput::default()
        }];
        let (e, per_joint) = rest.compare(&h, &inputs, 0.03, true);
        // Measured as an upper bound, within the rounding of the stored offsets.
        let hip = 2.0 * 0.03 * (angle / 2.0).sin();
        assert!(per_joint[0].0 >= hip && per_joint[0].0 - hip <= 2.0 * rest.rounding);
        let (same, _) = rest.compare(&h, &[], 0.03, true);
        assert_eq!(same.distance, 0.0, "an unchanged pose measures exactly 0");
        // The knee's x-axis point is 0.5 m below the hip and 3 cm out: lever √(0.25 + 0.0009).
        let lever = (0.25f64 + 0.0009).sqrt();
        let knee = 2.0 * lever * (angle / 2.0).sin();
        assert!(
            e.distance >= knee && e.distance - knee <= 2.0 * rest.rounding,
            "{e:?}"
        );
        assert!((e.angle - angle).abs() < 1e-12);
        assert_eq!(e.worst.map(|w| w.0), Some(1));
    }

    #[test]
    fn cycles_in_parents_are_broken() {
        let h = Hierarchy::new(&Skeleton {
            bones: vec![Bone::new("a", Some(1)), Bone::new("b", Some(0))],
        });
        assert_eq!(h.order.len(), 2);
        assert!(h.parent.iter().any(Option::is_none));
    }
}
