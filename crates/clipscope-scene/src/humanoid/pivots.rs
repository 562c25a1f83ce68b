//! Pivots for missing hip and shoulder bones: thighs (or upper arms without clavicles) keyed at
//! one and the same offset hang from sided bones the clip lacks. Each gets a pivot part turned
//! a quarter turn at a time until its ankle reaches its foot (its arm hangs at its side).

use std::sync::Arc;

use glam::{Quat, Vec3};

use super::AXES;
use super::body::Body;
use super::ik::Leg;
use super::rest::Draft;
use super::roles::{Role, Side, side_word};
use crate::{Part, Player, Rig};
use clipscope_core::model::Clip;

/// A pivot part standing in for a hip or shoulder bone the clip lacks.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pivot {
    /// The side of the body.
    pub side: Side,
    /// The pivot's part.
    pub part: usize,
    /// A hip (a thigh hangs from it), else a shoulder (an upper arm does).
    pub hip: bool,
}

/// Inserts a pivot part above each thigh of the two `legs` (whose feet are controls) and each
/// upper arm without a clavicle when both of the pair have the same position key, renumbering
/// the parts; returns the pivots in part order.
pub(super) fn insert(
    body: &Body<'_>,
    parent: &[Option<usize>],
    legs: &[Leg],
    draft: &mut Draft,
) -> Vec<Pivot> {
    let find = |r: Role| body.find(r);
    // Both limbs of a pair with the same position key: their real parents are sided bones the
    // clip lacks (hip or shoulder bones), whose turns are unknown.
    let same_offset = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (Some(a), Some(b)) => {
            parent[a] == parent[b]
                && matches!((body.key(a).0, body.key(b).0), (Some(p), Some(q))
                    if p.length() > 1e-6 && p.distance(q) < p.length() * 1e-3)
        }
        _ => false,
    };
    let hidden_hips = legs.len() == 2 && same_offset(Some(legs[0].thigh), Some(legs[1].thigh));
    let upper_arm = |s: Side| find(Role::UpperArm(s)).filter(|_| find(Role::Clavicle(s)).is_none());
    let hidden_shoulders = same_offset(upper_arm(Side::Left), upper_arm(Side::Right));
    // (side, node below, a hip), the hips first.
    let mut below: Vec<(Side, usize, bool)> = Vec::new();
    if hidden_hips {
        below.extend(legs.iter().map(|l| (l.side, l.thigh, true)));
    }
    if hidden_shoulders {
        below.extend(
            [Side::Left, Side::Right]
                .into_iter()
                .filter_map(|s| Some((s, upper_arm(s)?, false))),
        );
    }
    let mut pivots: Vec<Pivot> = Vec::new();
    if below.is_empty() {
        return pivots;
    }
    let parts = std::mem::take(&mut draft.parts);
    let mut remap = vec![0usize; parts.len()];
    let mut with_pivots = Vec::with_capacity(parts.len() + below.len());
    for (k, mut part) in parts.into_iter().enumerate() {
        part.parent = part.parent.map(|p| remap[p]);
        if let Some(&(side, _, hip)) = below.iter().find(|l| draft.index[l.1] == k) {
            let what = if hip { "hip" } else { "shoulder" };
            let name = body.fresh_name(format!("({what} {})", side_word(side)));
            let colour = part.colour;
            with_pivots.push(Part::new(name, part.parent, Vec3::ZERO, colour));
            pivots.push(Pivot {
                side,
                part: with_pivots.len() - 1,
                hip,
            });
            part.parent = Some(with_pivots.len() - 1);
        }
        remap[k] = with_pivots.len();
        with_pivots.push(part);
    }
    draft.parts = with_pivots;
    for x in &mut draft.index {
        *x = remap[*x];
    }
    pivots
}

/// Turns each of `pivots`, the hips first (the shoulders' sides come from the thighs): a hip
/// takes the quarter turn that brings its ankle (of `ankles`: side, part) onto its loose foot, a
/// shoulder the one that hangs its arm down (away from the head) on its own side.
pub(super) fn turn(
    rig: &mut Rig,
    clip: &Clip,
    body: &Body<'_>,
    index: &[usize],
    mut pivots: Vec<Pivot>,
    legs: &[Leg],
    ankles: &[(Side, usize)],
) {
    let part_of = |r: Role| body.find(r).map(|i| index[i]);
    let (hip_part, head_part) = (
        body.hips.map(|i| index[i]),
        part_of(Role::Head)
            .or(body.top_neck.map(|i| index[i]))
            .or(body.top_spine.map(|i| index[i])),
    );
    pivots.sort_by_key(|p| !p.hip);
    for &Pivot { side, part, hip } in &pivots {
        let pivot = part;
        if hip {
            let ankle = ankles.iter().find(|a| a.0 == side).map(|a| a.1);
            let foot = legs.iter().find(|l| l.side == side).map(|l| index[l.foot]);
            if let (Some(ankle), Some(foot)) = (ankle, foot) {
                turn_pivot(rig, clip, pivot, |j| j[ankle].distance(j[foot]));
            }
        } else if let (Some(h), Some(top)) = (hip_part, head_part) {
            let ends: Vec<usize> = [Role::Forearm(side), Role::Hand(side)]
                .into_iter()
                .filter_map(part_of)
                .collect();
            // The shoulder joint on its own side (from the right thigh to the left).
            let arm = part_of(Role::UpperArm(side));
            let thighs = (
                part_of(Role::Thigh(Side::Left)),
                part_of(Role::Thigh(Side::Right)),
            );
            let outward = if side == Side::Left { 1.0 } else { -1.0 };
            turn_pivot(rig, clip, pivot, |j| {
                let up = (j[top] - j[h]).normalize_or_zero();
                let hang: f32 = ends.iter().map(|&e| (j[e] - j[pivot]).dot(up)).sum();
                let side_way = match (arm, thighs) {
                    (Some(a), (Some(l), Some(r))) => {
                        (j[a] - j[pivot]).dot((j[l] - j[r]).normalize_or_zero()) * outward
                    }
                    _ => 0.0,
                };
                // On the wrong side is worse than any hang.
                hang + if side_way < 0.0 { 1e3 } else { 0.0 }
            });
        }
    }
}

/// How many moments of a clip [`turn_pivot`] looks at.
const PIVOT_SAMPLES: u32 = 6;

/// Turns part `pivot` of `rig` to the quarter-turn rotation (one of 24) with the least `cost`
/// of the joints, summed over [`PIVOT_SAMPLES`] moments of `clip`.
fn turn_pivot(rig: &mut Rig, clip: &Clip, pivot: usize, cost: impl Fn(&[Vec3]) -> f32) {
    let clip = Arc::new(clip.clone());
    let mut best = (f32::INFINITY, Quat::IDENTITY);
    for &a in &AXES {
        for &b in AXES.iter().filter(|&&b| a.dot(b) == 0.0) {
            let turn = Quat::from_mat3(&glam::Mat3::from_cols(a, b, a.cross(b)));
            rig.parts[pivot].rotation = turn;
            let mut player = Player::new(clip.clone(), rig.clone());
            let mut total = 0.0;
            for k in 0..PIVOT_SAMPLES {
                let t = clip.duration.max(0.0) * f64::from(k) / f64::from(PIVOT_SAMPLES);
                let joints = rig.joints(player.pose_at(t));
                if joints.len() == rig.parts.len() {
                    total += cost(&joints);
                }
            }
            if total < best.0 {
                best = (total, turn);
            }
        }
    }
    rig.parts[pivot].rotation = best.1;
}
