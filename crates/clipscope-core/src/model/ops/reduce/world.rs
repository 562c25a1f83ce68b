//! Where a clip puts every measured point of every node ([`Tree`]), in world space (or
//! composition space), at every sample time: the reducer's measure of what a change to the
//! keys does on screen.
//!
//! A 3D node's local transform is composed from its position, quaternion and scale tracks (or
//! its rest values) exactly like three.js's `Matrix4.compose` — a quaternion a bezier curve left
//! slightly off unit length skews the matrix as it would in three.js — and a layer's like
//! lottie-web ([`layer`](super::layer)); both are multiplied down the hierarchy. Each node's
//! measured points ([`Tree::points`]) are carried into the world; 3D nodes also keep their
//! world rotation, for the angle budget. Samples are posed [`LANES`] at a time
//! ([`Pose::solve_lanes`]), each lane bit for bit what posing its sample alone gives.

use glam::{DAffine3, DVec3};
use rayon::prelude::*;

use super::channel::unit_rotation_angle_above;
use super::layer::{LayerValues, layer_matrix};
use super::property::{PROPERTIES, Property};
use super::tree::{Local, Tree};
use crate::model::prefetch::prefetch;

mod lanes;
mod reference;

pub(crate) use lanes::LANES;
use lanes::{Affines, IDENTITY, Lanes, Quats, Vec3s, compose, multiply, normalized_lanes, turning};
pub(crate) use reference::Reference;

/// One animated property's samples and how many values each has.
pub(crate) type Samples<'a> = Option<(&'a [f32], usize)>;

/// What drives one node: the sampled values of each animated property (`None` for rest), and
/// for an auto-oriented layer its heading in degrees at each sample.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NodeInput<'a> {
    /// Each property's samples, indexed by [`Property`].
    pub values: [Samples<'a>; PROPERTIES],
    /// The auto-orient heading at each sample (degrees).
    pub heading: Option<&'a [f64]>,
    /// Whether its quaternion is scaled to unit length before it is composed (a glTF
    /// `CUBICSPLINE` track: three.js's interpolant normalizes; linear and step tracks play
    /// their keys as they are, and so does a rest rotation).
    pub unit_rotation: bool,
}

/// The input of a node nothing drives: its rest transform.
static REST: NodeInput<'static> = NodeInput {
    values: [None; PROPERTIES],
    heading: None,
    unit_rotation: false,
};

impl<'a> NodeInput<'a> {
    /// Asks the processor to start loading every property's values at sample `s`, which a
    /// later pose reads: a pose reads one sample of many long arrays (see [`prefetch`]).
    #[inline]
    fn prefetch(&self, s: usize) {
        for (v, n) in self.values.iter().flatten() {
            prefetch(v, s * n);
        }
    }

    /// The values of `property` at sample `s`, if animated.
    #[inline]
    fn at(&self, property: Property, s: usize) -> Option<&'a [f32]> {
        self.values[property as usize].map(|(v, n)| &v[s * n..(s + 1) * n])
    }
}

/// Every node's origin and world rotation at every sample (what a diff of two clips' joints
/// reads; a reduction compares poses as they are posed: [`Reference`]).
#[derive(Debug, Clone)]
pub(crate) struct WorldFrames {
    /// The number of nodes.
    nodes: usize,
    /// Each node's first point at each sample (`samples × nodes`; unused for nodes without
    /// points).
    bases: Vec<[f64; 3]>,
    /// The unit world rotation of each node at each sample.
    rotations: Vec<[f32; 4]>,
}

/// The largest difference between two clips' world frames.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WorldError {
    /// The largest distance any measured point moved.
    pub distance: f64,
    /// The largest angle any node's world rotation turned, in radians.
    pub angle: f64,
    /// The node, sample and point of the largest distance.
    pub worst: Option<(usize, usize, usize)>,
}

/// Per node: the largest distance any of its points moved and the largest angle it turned.
pub(crate) type PerNode = Vec<(f64, f64)>;

/// A sample and node past a limit, with its distance and angle ([`Reference::overshoots`]).
pub(crate) type Overshoot = (usize, usize, (f64, f64));

/// The comparison of one chunk of samples ([`CHUNK`]): its largest difference and each node's.
pub(crate) type Chunk = (WorldError, PerNode);

/// The world frames of `tree` driven by `inputs` (one per node) at the sample `times`.
pub(crate) fn evaluate(tree: &Tree, inputs: &[NodeInput], times: &[f64]) -> WorldFrames {
    let n = tree.len();
    let samples = times.len();
    let mut bases = vec![[0.0; 3]; samples * n];
    // Zeroed (fresh pages, touched first by the threads that fill them): every slot is set.
    let mut rotations = vec![[0.0f32; 4]; samples * n];
    if n > 0 {
        bases
            .par_chunks_mut(n * CHUNK)
            .zip(rotations.par_chunks_mut(n * CHUNK))
            .enumerate()
            .for_each(|(chunk, (bases, rotations))| {
                let mut pose = Pose::new(tree);
                let first = chunk * CHUNK;
                for (group, count) in lane_groups(first..(first + CHUNK).min(samples)) {
                    pose.solve_lanes(tree, inputs, group, true);
                    for (lane, &s) in group[..count].iter().enumerate() {
                        let at = (s - first) * n;
                        for j in 0..n {
                            bases[at + j] = pose.base(lane, j);
                            rotations[at + j] =
                                normalized(pose.rotation(lane, j)).map(|v| v as f32);
                        }
                    }
                }
            });
    }
    WorldFrames {
        nodes: n,
        bases,
        rotations,
    }
}

/// How many samples ahead a pose asks for its inputs ([`NodeInput::prefetch`]).
const PREFETCH_AHEAD: usize = 8;

/// Samples per piece of parallel work (and per [`Chunk`] of a comparison).
pub(crate) const CHUNK: usize = 256;

/// One pose of every node at [`LANES`] samples at once ([`Pose::solve_lanes`]): world
/// transforms, measured points and world rotations.
pub(crate) struct Pose {
    /// Each node's world transform.
    world: Vec<Affines>,
    /// Each node's world rotation (3D nodes; a layer keeps its parent's), not yet scaled to
    /// unit length: the product of its chain's local rotations as they are. Most are measured
    /// without the root that scaling takes ([`scaled_rotation_angle_above_by`]).
    rotation: Vec<Quats>,
    /// Each node's first point, in lanes.
    base: Vec<Vec3s>,
    /// The offsets of every node's other points from its first, nodes in order, in lanes.
    offsets: Vec<Vec3s>,
    /// Each node's first point, `None` at its origin (then it is the translation).
    firsts: Vec<Option<Vec3s>>,
    /// Every node's other points as offsets from its first, nodes in order: one along an axis
    /// (a shell point) as the axis and its length, else the offset.
    arms: Vec<Arm>,
}

/// A point's offset from its node's first point, in the node's local space.
#[derive(Debug, Clone, Copy)]
enum Arm {
    /// Along one local axis (0, 1, 2), this far: the world offset is that column scaled.
    Axis(usize, Lanes),
    /// Any other offset.
    Any(Vec3s),
}

/// The samples of `samples` in groups of [`LANES`] (for [`Pose::solve_lanes`]), each with how
/// many of its lanes count: a last group short of samples repeats its last one.
pub(crate) fn lane_groups(
    samples: std::ops::Range<usize>,
) -> impl Iterator<Item = ([usize; LANES], usize)> {
    let end = samples.end;
    samples.step_by(LANES).map(move |first| {
        let count = (end - first).min(LANES);
        (std::array::from_fn(|l| first + l.min(count - 1)), count)
    })
}

impl Pose {
    /// A pose of `tree`'s nodes.
    pub fn new(tree: &Tree) -> Pose {
        let n = tree.len();
        let extra = tree.points.iter().map(|p| p.len().saturating_sub(1)).sum();
        let mut firsts = Vec::with_capacity(n);
        let mut arms = Vec::with_capacity(extra);
        let splat = |v: DVec3| v.to_array().map(Lanes::splat);
        for points in &tree.points {
            let first = points.first().copied().unwrap_or([0.0; 3]);
            firsts.push((first != [0.0; 3]).then(|| first.map(Lanes::splat)));
            for p in points.iter().skip(1) {
                let d = DVec3::from_array(*p) - DVec3::from_array(first);
                let mut axes = (0..3).filter(|&k| d[k] != 0.0);
                arms.push(match (axes.next(), axes.next()) {
                    (Some(k), None) => Arm::Axis(k, Lanes::splat(d[k])),
                    _ => Arm::Any(splat(d)),
                });
            }
        }
        Pose {
            world: vec![Affines::splat(&DAffine3::IDENTITY); n],
            rotation: vec![IDENTITY; n],
            base: vec![[Lanes::splat(0.0); 3]; n],
            offsets: vec![[Lanes::splat(0.0); 3]; extra],
            firsts,
            arms,
        }
    }

    /// Node `j`'s world transform in lane `lane`.
    pub fn world(&self, lane: usize, j: usize) -> DAffine3 {
        self.world[j].lane(lane)
    }

    /// Node `j`'s first point in lane `lane`.
    fn base(&self, lane: usize, j: usize) -> [f64; 3] {
        self.base[j].map(|v| v.0[lane])
    }

    /// Node `j`'s world rotation in lane `lane`: its chain's product, not yet scaled to unit
    /// length.
    fn rotation(&self, lane: usize, j: usize) -> [f64; 4] {
        self.rotation[j].map(|v| v.0[lane])
    }

    /// Poses every node at sample `s` (with world rotations only when `rotations`), in every
    /// lane: read it as lane 0 (the tests' one-sample pose).
    #[cfg(test)]
    pub fn solve(&mut self, tree: &Tree, inputs: &[NodeInput], s: usize, rotations: bool) {
        self.solve_lanes(tree, inputs, [s; LANES], rotations);
    }

    /// Poses every node at each of `samples`, one per lane (with world rotations only when
    /// `rotations`).
    pub fn solve_lanes(
        &mut self,
        tree: &Tree,
        inputs: &[NodeInput],
        samples: [usize; LANES],
        rotations: bool,
    ) {
        for &j in &tree.order {
            let input = inputs.get(j).unwrap_or(&REST);
            let (local, unit) = local_transforms(&tree.local[j], input, samples, rotations);
            let parent = tree.parent[j];
            let w = match parent {
                Some(pj) => self.world[pj].mul(&local),
                None => local,
            };
            self.world[j] = w;
            if rotations {
                self.rotation[j] = match (parent, unit) {
                    (Some(pj), Some(u)) => multiply(&self.rotation[pj], &u),
                    (Some(pj), None) => self.rotation[pj],
                    (None, Some(u)) => u,
                    (None, None) => IDENTITY,
                };
            }
        }
        // Points, in node order (the order offsets are stored in).
        let mut arms = self.arms.iter().zip(&mut self.offsets);
        for (j, points) in tree.points.iter().enumerate() {
            if points.is_empty() {
                continue;
            }
            let w = &self.world[j];
            let base = match &self.firsts[j] {
                None => w.translation,
                Some(first) => {
                    let v = w.transform_vector(first);
                    std::array::from_fn(|r| v[r] + w.translation[r])
                }
            };
            self.base[j] = base;
            for (arm, slot) in arms.by_ref().take(points.len() - 1) {
                let offset = match arm {
                    Arm::Axis(k, length) => w.axes[*k].map(|v| v * *length),
                    Arm::Any(d) => w.transform_vector(d),
                };
                *slot = offset;
            }
        }
    }
}

/// A 3D node's rest position, quaternion and scale.
type Rest<'t> = (&'t [f64; 3], &'t [f64; 4], &'t [f64; 3]);

/// A 3D node's local transforms at `samples` (one per lane) and its unit local rotations (when
/// `rotations`), reading only the properties a 3D node has (the hot path of every pose) and
/// asking for their values [`PREFETCH_AHEAD`] samples ahead.
#[inline(always)]
fn trs_transforms(
    (position, rotation, scale): Rest,
    input: &NodeInput,
    samples: [usize; LANES],
    rotations: bool,
) -> (Affines, Option<Quats>) {
    let values = &input.values;
    let ahead = samples[0] + PREFETCH_AHEAD;
    // The first `N` values of a property at each sample, asking for them further ahead.
    #[inline(always)]
    fn read<const N: usize>(
        samples: Samples,
        at: [usize; LANES],
        ahead: usize,
    ) -> Option<[Lanes; N]> {
        let (v, n) = samples?;
        prefetch(v, ahead * n);
        let lanes: [&[f32]; LANES] = at.map(|s| &v[s * n..(s + 1) * n]);
        Some(std::array::from_fn(|k| {
            Lanes(std::array::from_fn(|l| f64::from(lanes[l][k])))
        }))
    }
    let splat = |v: &[f64; 3]| v.map(Lanes::splat);
    let p = read::<3>(values[Property::Position as usize], samples, ahead)
        .unwrap_or_else(|| splat(position));
    let q = match read::<4>(values[Property::Quaternion as usize], samples, ahead) {
        Some(q) => q,
        None => match read::<3>(values[Property::Euler as usize], samples, ahead) {
            Some([x, y, z]) => {
                let q: [[f64; 4]; LANES] =
                    std::array::from_fn(|l| euler_xyz(x.0[l], y.0[l], z.0[l]));
                std::array::from_fn(|k| Lanes(q.map(|q| q[k])))
            }
            None => rotation.map(Lanes::splat),
        },
    };
    let q = if input.unit_rotation {
        normalized_lanes(q)
    } else {
        q
    };
    let sc =
        read::<3>(values[Property::Scale as usize], samples, ahead).unwrap_or_else(|| splat(scale));
    (compose(p, q, sc), rotations.then(|| turning(q)))
}

/// A node's local transforms at `samples` (one per lane), and its unit local rotations (3D
/// nodes, when `rotations`); the properties it reads are asked for [`PREFETCH_AHEAD`] samples
/// ahead.
#[inline]
fn local_transforms(
    local: &Local,
    input: &NodeInput,
    samples: [usize; LANES],
    rotations: bool,
) -> (Affines, Option<Quats>) {
    match local {
        Local::Trs {
            position,
            rotation,
            scale,
        } => trs_transforms((position, rotation, scale), input, samples, rotations),
        &Local::Layer { ddd, auto_orient } => {
            let first = layer_transform(ddd, auto_orient, input, samples[0]);
            let mut out = Affines::splat(&first);
            for (lane, &s) in samples.iter().enumerate().skip(1) {
                if s != samples[0] {
                    out.set_lane(lane, &layer_transform(ddd, auto_orient, input, s));
                }
            }
            (out, None)
        }
    }
}

/// A layer's local transform at sample `s`; the properties it reads are asked for
/// [`PREFETCH_AHEAD`] samples ahead.
fn layer_transform(ddd: bool, auto_orient: bool, input: &NodeInput, s: usize) -> DAffine3 {
    input.prefetch(s + PREFETCH_AHEAD);
    let get = |p: Property| input.at(p, s);
    let triple = |v: Option<&[f32]>, default: f64| -> [f64; 3] {
        let mut out = [default; 3];
        if let Some(v) = v {
            for (o, &x) in out.iter_mut().zip(v) {
                *o = x.into();
            }
        }
        out
    };
    let scalar = |p: Property| get(p).map_or(0.0, |v| f64::from(v[0]));
    let mut position = triple(get(Property::LayerPosition), 0.0);
    for (axis, p) in [
        Property::PositionX,
        Property::PositionY,
        Property::PositionZ,
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(v) = get(p) {
            position[axis] = v[0].into();
        }
    }
    if !ddd {
        position[2] = 0.0;
    }
    let mut anchor = triple(get(Property::Anchor), 0.0);
    let mut scale = triple(get(Property::LayerScale), 100.0);
    if !ddd {
        anchor[2] = 0.0;
        scale[2] = 100.0;
    }
    let values = LayerValues {
        anchor,
        position,
        scale,
        rotation: scalar(Property::Rotation),
        rotation_x: scalar(Property::RotationX),
        rotation_y: scalar(Property::RotationY),
        orientation: triple(get(Property::Orientation), 0.0),
        skew: scalar(Property::Skew),
        skew_axis: scalar(Property::SkewAxis),
        heading: if auto_orient {
            input.heading.map(|h| h[s])
        } else {
            None
        },
    };
    layer_matrix(&values, ddd)
}

impl WorldFrames {
    /// Where node `j`'s origin (its first measured point) is at sample `s`.
    pub fn origin(&self, s: usize, j: usize) -> [f64; 3] {
        self.bases[s * self.nodes + j]
    }

    /// Node `j`'s unit world rotation at sample `s`.
    pub fn rotation(&self, s: usize, j: usize) -> [f32; 4] {
        self.rotations[s * self.nodes + j]
    }
}

/// The comparison of consecutive runs of samples (`parts`, in order) together, in a tree of
/// `nodes` nodes: what measuring them in one pass gives.
pub(crate) fn join<'a>(parts: impl Iterator<Item = &'a Chunk>, nodes: usize) -> Chunk {
    let mut out = WorldError::default();
    let mut per_node = vec![(0.0f64, 0.0f64); nodes];
    for (e, part) in parts {
        if e.distance > out.distance {
            out.distance = e.distance;
            out.worst = e.worst;
        }
        out.angle = out.angle.max(e.angle);
        for (a, b) in per_node.iter_mut().zip(part) {
            a.0 = a.0.max(b.0);
            a.1 = a.1.max(b.1);
        }
    }
    (out, per_node)
}

/// For each node, over up to `most` evenly spread samples: how far the measured points at and
/// below it reach from its origin in the world (its lever), and how much its world transform
/// stretches space (the largest length its local axes take).
pub(crate) fn levers(
    tree: &Tree,
    inputs: &[NodeInput],
    samples: usize,
    most: usize,
) -> (Vec<f64>, Vec<f64>) {
    let n = tree.len();
    let picked: Vec<usize> = (0..samples)
        .step_by((samples / most.max(1)).max(1))
        .collect();
    // The largest of each, so the samples may be taken in any order.
    let larger = |mut a: Vec<f64>, b: Vec<f64>| {
        for (x, y) in a.iter_mut().zip(b) {
            if y > *x {
                *x = y;
            }
        }
        a
    };
    let (reach2, stretch2): (Vec<f64>, Vec<f64>) = picked
        .par_chunks(LEVER_SAMPLES)
        .map(|picked| {
            // Squared lengths: their largest is the square of the largest length (a root is
            // taken once at the end, not per point and ancestor).
            let mut reach = vec![0.0f64; n];
            let mut stretch = vec![0.0f64; n];
            let mut pose = Pose::new(tree);
            let mut world_points: Vec<Vec<DVec3>> = vec![Vec::new(); n];
            for group in picked.chunks(LANES) {
                let samples = std::array::from_fn(|l| group[l.min(group.len() - 1)]);
                pose.solve_lanes(tree, inputs, samples, false);
                for lane in 0..group.len() {
                    for j in 0..n {
                        let w = &pose.world(lane, j);
                        let m = w.matrix3;
                        stretch[j] = stretch[j]
                            .max(m.x_axis.length_squared())
                            .max(m.y_axis.length_squared())
                            .max(m.z_axis.length_squared());
                        world_points[j].clear();
                        world_points[j].extend(
                            tree.points[j]
                                .iter()
                                .map(|p| w.transform_point3(DVec3::from_array(*p))),
                        );
                    }
                    for (j, points) in world_points.iter().enumerate() {
                        for a in tree.chain(j) {
                            let origin = pose.world(lane, a).translation;
                            for q in points {
                                let d = q.distance_squared(origin);
                                if d > reach[a] {
                                    reach[a] = d;
                                }
                            }
                        }
                    }
                }
            }
            (reach, stretch)
        })
        .reduce(
            || (vec![0.0; n], vec![0.0; n]),
            |(ra, sa), (rb, sb)| (larger(ra, rb), larger(sa, sb)),
        );
    let roots = |v: Vec<f64>| v.into_iter().map(f64::sqrt).collect();
    (roots(reach2), roots(stretch2))
}

/// Samples per piece of parallel work in [`levers`].
const LEVER_SAMPLES: usize = 128;

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
        // Times the reciprocal, like three.js's `Quaternion.normalize`.
        let f = 1.0 / n;
        q.map(|v| v * f)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// [`scaled_rotation_angle_above_by`] of `a` and `b`.
#[cfg(test)]
pub(crate) fn scaled_rotation_angle_above(a: &[f64; 4], b: &[f64; 4], floor: f64) -> Option<f64> {
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let a2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
    let b2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
    scaled_rotation_angle_above_by((dot, a2, b2), || (*a, *b), floor)
}

/// [`unit_rotation_angle_above`] of `a` (unit length) and `b` scaled to unit length, without
/// scaling `b` (a root and a division) where the angle clearly stays at or under `floor`.
///
/// With `b̂ = b / ‖b‖`, `‖a ∓ b̂‖² = ‖a‖² + 1 − 2·|a·b| / ‖b‖`, and the angle is at most
/// `floor` when that is at most `limit = 4·floor² / (16 + floor²)` (see
/// [`unit_rotation_angle_above`]), that is when `4·(a·b)² >= (‖a‖² + 1 − limit)²·‖b‖²`:
/// squared, so neither a root nor a division is needed. The limit is taken a millionth and
/// 1e-14 stricter, past this form's rounding (about 1e-15 on terms near 2), so it never skips
/// a pair the exact test keeps.
///
/// Given `a·b`, `‖a‖²` and `‖b‖²` (worked out for several samples at once), and `a` and `b`
/// themselves, asked for only when the angle must be worked out.
#[inline]
pub(crate) fn scaled_rotation_angle_above_by(
    (dot, a2, b2): (f64, f64, f64),
    ends: impl FnOnce() -> ([f64; 4], [f64; 4]),
    floor: f64,
) -> Option<f64> {
    if !(b2 > 0.0 && b2.is_finite()) {
        // A chain that has lost its length: as far from `a` as a turn can be.
        return Some(std::f64::consts::PI);
    }
    if floor >= 0.0 {
        let limit = 4.0 * floor * floor / (16.0 + floor * floor) * (1.0 - 1e-6) - 1e-14;
        let r = a2 + 1.0 - limit;
        if r <= 0.0 || 4.0 * dot * dot >= r * r * b2 {
            return None;
        }
    }
    let (a, b) = ends();
    unit_rotation_angle_above(&a, &normalized(b), floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interpolant::multiply_quaternions_flat;
    use crate::model::{Bone, Skeleton};
    use glam::DMat3;

    fn chain() -> Tree {
        let mut hip = Bone::new("hip", None);
        hip.position = [0.0, 1.0, 0.0];
        let mut knee = Bone::new("knee", Some(0));
        knee.position = [0.0, -0.5, 0.0];
        Tree::from_skeleton(
            &Skeleton {
                bones: vec![hip, knee],
            },
            |_| true,
            0.03,
        )
    }

    /// three.js's `Matrix4.compose` on one sample, with glam's types: what each lane of
    /// [`compose`] must give.
    fn compose_one(p: [f64; 3], q: [f64; 4], s: [f64; 3]) -> DAffine3 {
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

    fn quaternion(q: &[f32]) -> NodeInput<'_> {
        let mut input = NodeInput::default();
        input.values[Property::Quaternion as usize] = Some((q, 4));
        input
    }

    #[test]
    fn a_scaled_rotation_angle_skips_only_what_the_unit_one_skips() {
        use clipscope_test_support::rng::Rng;
        let mut rng = Rng::new(7);
        let unit = |rng: &mut Rng| {
            let q: [f64; 4] = std::array::from_fn(|_| rng.unit_f32() as f64 - 0.5);
            normalized(q)
        };
        let (mut skipped, mut measured) = (0, 0);
        for k in 0..50_000 {
            let a = unit(&mut rng);
            // b near a (by up to ~0.1 rad, or any turn now and then), of any length.
            let spread = if k % 10 == 0 {
                2.0
            } else {
                0.05 * rng.unit_f32() as f64
            };
            let b: [f64; 4] =
                std::array::from_fn(|c| a[c] + (rng.unit_f32() as f64 - 0.5) * spread);
            let b = normalized(b);
            let length = 0.25 + 4.0 * rng.unit_f32() as f64;
            let sign = if k % 3 == 0 { -1.0 } else { 1.0 };
            let scaled = b.map(|v| v * length * sign);
            let exact = unit_rotation_angle_above(&a, &b, -1.0).unwrap();
            let floor = match k % 4 {
                0 => 0.0,
                1 => exact * (1.0 - 1e-9),
                2 => exact * (1.0 + 1e-9),
                _ => 0.2 * rng.unit_f32() as f64,
            };
            match scaled_rotation_angle_above(&a, &scaled, floor) {
                None => {
                    assert!(exact <= floor, "skipped {exact} over {floor}");
                    skipped += 1;
                }
                Some(angle) => {
                    assert!((angle - exact).abs() <= 1e-12, "{angle} against {exact}");
                    measured += 1;
                }
            }
        }
        assert!(
            skipped > 10_000 && measured > 10_000,
            "{skipped} {measured}"
        );
        // A zero or non-finite chain is measured (as a half turn), never skipped.
        let a = [0.0, 0.0, 0.0, 1.0];
        assert!(scaled_rotation_angle_above(&a, &[0.0; 4], 0.5).is_some());
        assert!(scaled_rotation_angle_above(&a, &[f64::NAN, 0.0, 0.0, 1.0], 0.5).is_some());
    }

    #[test]
    fn a_tree_of_single_points_is_posed_at_every_sample() {
        // One static leaf: one point and no offsets (as in a single pose's clip, where no
        // bone moves).
        let mut lone = Bone::new("lone", None);
        lone.position = [1.0, 2.0, 3.0];
        let tree = Tree::from_skeleton(&Skeleton { bones: vec![lone] }, |_| false, 0.0);
        assert_eq!(tree.points[0].len(), 1);
        // More than one chunk of samples.
        let times: Vec<f64> = (0..CHUNK + 3).map(|k| k as f64 / 30.0).collect();
        let reference = Reference {
            tree: &tree,
            inputs: &[],
            times: &times,
        };
        let (same, _) = reference.compare(&[], true);
        assert_eq!((same.distance, same.angle), (0.0, 0.0));
        // Moved half a unit and turned, at every sample: measured as such (no sample was
        // posed before, so nothing was: 0 m and a third of a turn from a zero rotation).
        let half: f64 = 0.1;
        let position: Vec<f32> = times.iter().flat_map(|_| [1.5, 2.0, 3.0]).collect();
        let turn = [0.0, 0.0, half.sin() as f32, half.cos() as f32];
        let rotation: Vec<f32> = times.iter().flat_map(|_| turn).collect();
        let mut moved = NodeInput::default();
        moved.values[Property::Position as usize] = Some((&position, 3));
        moved.values[Property::Quaternion as usize] = Some((&rotation, 4));
        let (e, _) = reference.compare(&[moved], true);
        assert!((e.distance - 0.5).abs() <= 1e-9, "{e:?}");
        let angle = 2.0 * f64::from(turn[2]).atan2(f64::from(turn[3]));
        assert!((e.angle - angle).abs() < 1e-9, "{e:?}");
    }

    #[test]
    fn a_hip_rotation_moves_the_knee_and_the_shells_by_their_levers() {
        let tree = chain();
        let rest = Reference {
            tree: &tree,
            inputs: &[],
            times: &[0.0],
        };
        // The turn as sampled values hold it (f32), and its angle exactly.
        let half: f64 = 0.005;
        let q = [0.0, 0.0, half.sin() as f32, half.cos() as f32];
        let angle = 2.0 * f64::from(q[2]).atan2(f64::from(q[3]));
        let inputs = [quaternion(&q)];
        let (e, per_node) = rest.compare(&inputs, true);
        let chord = 2.0 * (angle / 2.0).sin();
        // The hip's shell: its farthest child, 0.5 away.
        let hip = 0.5 * chord;
        // The f32 quaternion is a hair off unit length, which three.js's compose keeps.
        assert!((per_node[0].0 - hip).abs() <= 1e-9, "{per_node:?} {hip}");
        let (same, _) = rest.compare(&[], true);
        assert_eq!(same.distance, 0.0, "an unchanged pose measures exactly 0");
        // The knee is a leaf: its shell is half its 0.5 bone, its x point 0.5 below the hip
        // and 0.25 out: lever √(0.25 + 0.0625).
        let lever = (0.25f64 + 0.0625).sqrt();
        let knee = lever * chord;
        assert!((e.distance - knee).abs() <= 1e-9, "{e:?} {knee}");
        assert!((e.angle - angle).abs() < 1e-12);
        assert_eq!(e.worst.map(|w| (w.0, w.2)), Some((1, 1)));
    }

    #[test]
    fn a_3d_node_composes_its_sampled_position_rotation_and_scale() {
        let tree = chain();
        // Two samples of each; the pose at the second must read the second.
        let position = [9.0f32, 9.0, 9.0, 0.5, 1.5, -2.0];
        let euler = [9.0f32, 9.0, 9.0, 0.3, -0.2, 0.1];
        let scale = [9.0f32, 9.0, 9.0, 1.0, 2.0, 0.5];
        let mut hip = NodeInput::default();
        hip.values[Property::Position as usize] = Some((&position, 3));
        hip.values[Property::Euler as usize] = Some((&euler, 3));
        hip.values[Property::Scale as usize] = Some((&scale, 3));
        // The knee's rotation is off unit length: scaled to it only where asked.
        let q = [0.0, 0.0, 0.0, 1.0, 0.0, 0.6, 0.0, 1.0];
        for unit in [false, true] {
            let mut knee = quaternion(&q);
            knee.unit_rotation = unit;
            let mut pose = Pose::new(&tree);
            pose.solve(&tree, &[hip, knee], 1, true);
            // Posed in a lane next to another sample, the same bits.
            let mut lanes = Pose::new(&tree);
            lanes.solve_lanes(
                &tree,
                &[hip, knee],
                std::array::from_fn(|l| 1 - l % 2),
                true,
            );
            // The samples are f32, read exactly.
            let (x, y, z) = (f64::from(0.3f32), f64::from(-0.2f32), f64::from(0.1f32));
            let hip_local = compose_one([0.5, 1.5, -2.0], euler_xyz(x, y, z), [1.0, 2.0, 0.5]);
            assert_eq!(pose.world(0, 0), hip_local);
            assert_eq!(lanes.world(0, 0), hip_local);
            let knee_y = f64::from(0.6f32);
            let knee_q = if unit {
                normalized([0.0, knee_y, 0.0, 1.0])
            } else {
                [0.0, knee_y, 0.0, 1.0]
            };
            // The knee keeps its rest position and scale.
            let knee_local = compose_one([0.0, -0.5, 0.0], knee_q, [1.0; 3]);
            assert_eq!(pose.world(0, 1), hip_local * knee_local);
            assert_eq!(lanes.world(0, 1), hip_local * knee_local);
            // The world rotation is the chain's product, scaled to unit length where measured.
            let chain = multiply_quaternions_flat(euler_xyz(x, y, z), knee_q);
            assert_eq!(pose.rotation(0, 1), chain);
            assert_eq!(lanes.rotation(0, 1), chain);
            // The other lane holds the first sample's pose.
            let mut first = Pose::new(&tree);
            first.solve(&tree, &[hip, knee], 0, true);
            for j in 0..2 {
                assert_eq!(lanes.world(1, j), first.world(0, j));
                assert_eq!(lanes.rotation(1, j), first.rotation(0, j));
                assert_eq!(lanes.base(1, j), first.base(0, j));
            }
            let hip_unit = normalized(euler_xyz(x, y, z));
            let knee_unit = normalized(knee_q);
            let unit_chain = multiply_quaternions_flat(hip_unit, knee_unit);
            let scaled = normalized(pose.rotation(0, 1));
            for (a, b) in scaled.iter().zip(unit_chain) {
                assert!((a - b).abs() < 1e-15, "{scaled:?} {unit_chain:?}");
            }
        }
    }

    #[test]
    fn unseen_layers_are_not_measured() {
        use crate::model::{Composition, Layer, Layers};
        let layers = Layers {
            fps: 1.0,
            composition: Composition::Main {
                version: None,
                start_frame: 0.0,
                end_frame: None,
                width: Some(10.0),
                height: Some(10.0),
            },
            layers: vec![Layer {
                name: "a".into(),
                size: Some([4.0, 2.0]),
                ip: Some(1.0),
                op: Some(2.0),
                ..Layer::default()
            }],
        };
        let tree = Tree::from_layers(&layers);
        let times = [0.0, 1.0, 2.0];
        let rest = Reference {
            tree: &tree,
            inputs: &[],
            times: &times,
        };
        let moved = [5.0, 0.0, 7.0, 0.0, 9.0, 0.0];
        let mut input = NodeInput::default();
        input.values[Property::LayerPosition as usize] = Some((&moved, 2));
        let (e, _) = rest.compare(&[input], false);
        assert_eq!(e.distance, 7.0, "{e:?}");
        assert_eq!(e.worst.map(|w| w.1), Some(1));
    }
}
