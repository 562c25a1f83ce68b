//! The original pose a reduction measures every candidate against, posed again beside each
//! candidate rather than kept.
//!
//! A long take's world frames (every node's points and rotation at every sample) are tens of
//! megabytes that a reduction would write once and read a few times; posing the original
//! again, [`LANES`] samples at a time next to the candidate, costs less than faulting in and
//! streaming those megabytes, and both poses are then compared in `f64` as posed.

use rayon::prelude::*;

use super::lanes::{LANES, Lanes, Quats, normalized_lanes};
use super::{CHUNK, Chunk, NodeInput, Overshoot, PerNode, Pose, WorldError, join, lane_groups};
use super::{Local, Tree, scaled_rotation_angle_above_by};

/// The original pose of `tree`, driven by `inputs` at the sample `times`, to compare
/// candidates with.
#[derive(Clone, Copy)]
pub(crate) struct Reference<'r> {
    /// The nodes and their measured points.
    pub tree: &'r Tree,
    /// What drives each node in the original.
    pub inputs: &'r [NodeInput<'r>],
    /// The sample times.
    pub times: &'r [f64],
}

/// How far apart a node is in the original and the candidate, in each lane: the largest
/// squared distance of its points and which point it is at (0 the first), and what the angle
/// between its world rotations is worked out from (the original's rotation `a`, unit length,
/// and the candidate's `b`: `a·b`, `‖a‖²` and `‖b‖²`).
#[derive(Debug, Clone, Copy)]
struct Apart {
    /// The largest squared distance.
    d2: Lanes,
    /// The point it is at.
    point: [usize; LANES],
    /// `a·b`, `‖a‖²` and `‖b‖²` of the rotations.
    turn: [Lanes; 3],
}

impl Default for Apart {
    fn default() -> Apart {
        Apart {
            d2: Lanes::splat(0.0),
            point: [0; LANES],
            turn: [Lanes::splat(0.0); 3],
        }
    }
}

/// The original and a candidate posed at the same samples.
pub(crate) struct Poses {
    /// The original's pose, its world rotations scaled to unit length.
    original: Pose,
    /// The candidate's pose.
    candidate: Pose,
    /// How far apart they are at each node ([`Reference::apart`]).
    apart: Vec<Apart>,
}

impl Reference<'_> {
    /// The number of samples.
    pub fn samples(&self) -> usize {
        self.times.len()
    }

    /// The largest difference from the original of the pose `inputs` drive (same nodes and
    /// samples), overall and per node (distance, angle: angles only when `angles`).
    pub fn compare(&self, inputs: &[NodeInput], angles: bool) -> (WorldError, PerNode) {
        self.merge(&self.chunks(usize::MAX, inputs, angles, |_| None))
    }

    /// The comparison of the first `samples` samples chunk by chunk ([`CHUNK`] samples
    /// each); `known(chunk)` gives a chunk's result when it is already known (the pose there
    /// is one measured before).
    pub fn chunks(
        &self,
        samples: usize,
        inputs: &[NodeInput],
        angles: bool,
        known: impl Fn(usize) -> Option<Chunk> + Sync,
    ) -> Vec<Chunk> {
        let n = self.tree.len();
        let samples = self.samples().min(samples);
        (0..samples.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                if let Some(done) = known(chunk) {
                    return done;
                }
                let mut poses = self.poses();
                let mut out = WorldError::default();
                let mut per_node = vec![(0.0f64, 0.0f64); n];
                let first = chunk * CHUNK;
                for (group, count) in lane_groups(first..(first + CHUNK).min(samples)) {
                    self.solve(&mut poses, inputs, group, angles);
                    for (lane, &s) in group[..count].iter().enumerate() {
                        self.compare_sample(&poses, lane, s, angles, &mut out, &mut per_node);
                    }
                }
                (out, per_node)
            })
            .collect()
    }

    /// The largest difference overall and per node over `chunks` (see
    /// [`Reference::chunks`]).
    pub fn merge(&self, chunks: &[Chunk]) -> (WorldError, PerNode) {
        join(chunks.iter(), self.tree.len())
    }

    /// The comparison of the samples `samples` (angles included, like one chunk of
    /// [`Reference::chunks`]) of the pose `inputs` drive, and where it strays past `distance`
    /// or turns past `angle`: each sample and node that does, with its distance and angle (a
    /// distance under the limit where only the angle is past it, and the other way round,
    /// may be given as a bound). Posed in `poses` ([`Reference::poses`]), which a caller
    /// reuses from piece to piece: every solve writes all of it that a comparison reads.
    pub fn overshoots(
        &self,
        poses: &mut Poses,
        inputs: &[NodeInput],
        samples: std::ops::Range<usize>,
        distance: f64,
        angle: Option<f64>,
    ) -> (Chunk, Vec<Overshoot>) {
        let n = self.tree.len();
        let mut found = Vec::new();
        let mut out = WorldError::default();
        let mut per_node = vec![(0.0f64, 0.0f64); n];
        let mut sample = vec![(0.0f64, 0.0f64); n];
        for (group, count) in lane_groups(samples.start..samples.end.min(self.samples())) {
            self.solve(poses, inputs, group, true);
            for (lane, &s) in group[..count].iter().enumerate() {
                // Distances and angles at or under the node's largest so far (or the limit,
                // if lower) are not worked out: they change neither, and stand at that floor.
                for (slot, &(d, a)) in sample.iter_mut().zip(&per_node) {
                    *slot = (d.min(distance), angle.map_or(a, |limit| a.min(limit)));
                }
                let mut worst = WorldError::default();
                self.compare_sample(poses, lane, s, true, &mut worst, &mut sample);
                if worst.distance > out.distance {
                    out.distance = worst.distance;
                    out.worst = worst.worst;
                }
                out.angle = out.angle.max(worst.angle);
                for (j, (&(d, a), slot)) in sample.iter().zip(&mut per_node).enumerate() {
                    slot.0 = slot.0.max(d);
                    slot.1 = slot.1.max(a);
                    if d > distance || angle.is_some_and(|limit| a > limit) {
                        found.push((s, j, (d, a)));
                    }
                }
            }
        }
        ((out, per_node), found)
    }

    /// A pose of the original and one of a candidate, to solve and compare them in.
    pub fn poses(&self) -> Poses {
        Poses {
            original: Pose::new(self.tree),
            candidate: Pose::new(self.tree),
            apart: vec![Apart::default(); self.tree.len()],
        }
    }

    /// Poses the original and the candidate `inputs` drive at `group` (world rotations when
    /// `angles`, the original's scaled to unit length), and how far apart they are.
    fn solve(&self, poses: &mut Poses, inputs: &[NodeInput], group: [usize; LANES], angles: bool) {
        poses
            .original
            .solve_lanes(self.tree, self.inputs, group, angles);
        poses
            .candidate
            .solve_lanes(self.tree, inputs, group, angles);
        if angles {
            for q in &mut poses.original.rotation {
                *q = normalized_lanes(*q);
            }
        }
        self.apart(poses, angles);
    }

    /// How far apart the candidate's points are from the original's at every node, in every
    /// lane of `poses` ([`Apart`]): worked out for all lanes at once, the arithmetic of each
    /// lane exactly as for its sample alone.
    fn apart(&self, poses: &mut Poses, angles: bool) {
        let (a, b) = (&poses.original, &poses.candidate);
        // Where the node's offsets start among every node's.
        let mut first = 0;
        for (j, slot) in poses.apart.iter_mut().enumerate() {
            if angles {
                let (qa, qb) = (&a.rotation[j], &b.rotation[j]);
                let dot =
                    |x: &Quats, y: &Quats| x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
                slot.turn = [dot(qa, qb), dot(qa, qa), dot(qb, qb)];
            }
            let count = self.tree.points[j].len();
            let offsets = first..first + count.saturating_sub(1);
            first = offsets.end;
            if count == 0 {
                continue;
            }
            let (oa, ob) = (&a.base[j], &b.base[j]);
            let o: [Lanes; 3] = std::array::from_fn(|c| ob[c] - oa[c]);
            let mut d2 = o[0] * o[0] + o[1] * o[1] + o[2] * o[2];
            let mut point = [0; LANES];
            for (k, (aa, ab)) in a.offsets[offsets.clone()]
                .iter()
                .zip(&b.offsets[offsets])
                .enumerate()
            {
                let mut e = Lanes::splat(0.0);
                for c in 0..3 {
                    let diff = o[c] + (ab[c] - aa[c]);
                    e = e + diff * diff;
                }
                for ((e, d2), point) in e.0.iter().zip(&mut d2.0).zip(&mut point) {
                    if *e > *d2 {
                        *d2 = *e;
                        *point = k + 1;
                    }
                }
            }
            slot.d2 = d2;
            slot.point = point;
        }
    }

    /// Compares the candidate with the original at sample `s` (lane `lane` of `poses`),
    /// raising `out` and `per_node`.
    fn compare_sample(
        &self,
        poses: &Poses,
        lane: usize,
        s: usize,
        angles: bool,
        out: &mut WorldError,
        per_node: &mut [(f64, f64)],
    ) {
        // Checked once here, not at every node read below.
        assert!(lane < LANES, "lane {lane} of {LANES}");
        let (a, b) = (&poses.original, &poses.candidate);
        let tree = self.tree;
        let time = self.times[s];
        for (j, (slot, apart)) in per_node.iter_mut().zip(&poses.apart).enumerate() {
            if !tree.points[j].is_empty() && tree.seen(j, time) {
                let (mut d2, point) = (apart.d2.0[lane], apart.point[lane]);
                if d2.is_nan() {
                    d2 = f64::INFINITY;
                }
                // Most points move less than the node's largest so far (which the clip's
                // largest is at least): those need no root.
                if d2 >= slot.0 * slot.0 * (1.0 - 1e-12) {
                    let d = d2.sqrt();
                    if d > out.distance {
                        out.distance = d;
                        out.worst = Some((j, s, point));
                    }
                    slot.0 = slot.0.max(d);
                }
            }
            if angles
                && matches!(tree.local[j], Local::Trs { .. })
                && let Some(angle) = scaled_rotation_angle_above_by(
                    apart.turn.map(|v| v.0[lane]).into(),
                    || (a.rotation(lane, j), b.rotation(lane, j)),
                    slot.1,
                )
            {
                out.angle = out.angle.max(angle);
                slot.1 = slot.1.max(angle);
            }
        }
    }
}
