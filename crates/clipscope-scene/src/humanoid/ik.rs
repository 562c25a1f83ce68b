//! IK controls: a foot or hand whose position key runs off its chain parent's axes, or any node
//! keyed far beyond the bones of the body, is a control (an IK target, in the space above the
//! body) rather than the next bone of its limb, and hangs from the top. A shin whose foot is
//! such a control ends at an unanimated ankle part.

use glam::Vec3;

use super::body::Body;
use super::rest::Draft;
use super::roles::{Role, Side, side_word};
use crate::Part;

/// Marks the feet and hands keyed off their chain parent's axes as controls, hanging them from
/// the root; returns which nodes are controls.
pub(super) fn limb_controls(body: &Body<'_>, parent: &mut [Option<usize>]) -> Vec<bool> {
    let roles = body.roles;
    let mut loose = vec![false; body.len()];
    for i in 0..body.len() {
        let (Some(role), Some(p)) = (roles[i], body.key(i).0) else {
            continue;
        };
        let chain = parent[i]
            .and_then(|q| roles[q])
            .is_some_and(|q| continues(q, role));
        if chain && matches!(role, Role::Foot(_) | Role::Hand(_)) && off_axis(p) {
            loose[i] = true;
            parent[i] = body.root;
        }
    }
    loose
}

/// Marks the nodes (but the root and pelvis) whose position keys lie far beyond any bone of the
/// body (four times the median bone) as controls too, hanging them from the root.
pub(super) fn far_controls(body: &Body<'_>, parent: &mut [Option<usize>], loose: &mut [bool]) {
    let n = body.len();
    let mut lengths: Vec<f32> = (0..n)
        .filter(|&i| parent[i].is_some() && !loose[i])
        .filter_map(|i| body.key(i).0.map(Vec3::length))
        .filter(|l| *l > 1e-6)
        .collect();
    lengths.sort_by(f32::total_cmp);
    let far = lengths.get(lengths.len() / 2).copied().unwrap_or(f32::MAX) * 4.0;
    for i in 0..n {
        let far_off = !matches!(body.roles[i], Some(Role::Root | Role::Pelvis))
            && body.key(i).0.is_some_and(|p| p.length() > far);
        if far_off {
            loose[i] = true;
            parent[i] = body.root;
        }
    }
}

/// A leg whose foot is a control.
#[derive(Debug, Clone, Copy)]
pub(super) struct Leg {
    /// The leg's side.
    pub side: Side,
    /// The thigh node.
    pub thigh: usize,
    /// The calf (shin) node.
    pub calf: usize,
    /// The foot node, a control.
    pub foot: usize,
}

/// The legs (left first) with a thigh, a calf and a foot that is a control.
pub(super) fn loose_legs(body: &Body<'_>, loose: &[bool]) -> Vec<Leg> {
    [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|side| {
            let foot = body.find(Role::Foot(side)).filter(|&f| loose[f])?;
            Some(Leg {
                side,
                thigh: body.find(Role::Thigh(side))?,
                calf: body.find(Role::Calf(side))?,
                foot,
            })
        })
        .collect()
}

/// Adds an unanimated ankle part at the end of each shin of `legs` (the shin as long as the
/// thigh: the calf's first position key); returns (side, ankle part).
pub(super) fn ankles(body: &Body<'_>, legs: &[Leg], draft: &mut Draft) -> Vec<(Side, usize)> {
    let mut ankles: Vec<(Side, usize)> = Vec::new();
    for leg in legs {
        let Some(shin) = body.key(leg.calf).0.filter(|p| p.length() > 1e-6) else {
            continue;
        };
        let name = body.fresh_name(format!("(ankle {})", side_word(leg.side)));
        let calf = draft.index[leg.calf];
        let colour = draft.parts[calf].colour;
        let mut ankle = Part::new(name, Some(calf), Vec3::ZERO, colour);
        ankle.position = shin;
        draft.parts.push(ankle);
        ankles.push((leg.side, draft.parts.len() - 1));
    }
    ankles
}

/// Whether `child` continues the chain of `parent` (the bone from `parent`'s joint runs to
/// `child`'s), rather than branching off it.
fn continues(parent: Role, child: Role) -> bool {
    match (parent, child) {
        (Role::Thigh(a), Role::Calf(b))
        | (Role::Calf(a), Role::Foot(b))
        | (Role::Foot(a), Role::Toe(b))
        | (Role::Clavicle(a), Role::UpperArm(b))
        | (Role::UpperArm(a), Role::Forearm(b))
        | (Role::Forearm(a), Role::Hand(b)) => a == b,
        _ => false,
    }
}

/// Whether a bone offset runs off its parent's axes (its second largest component is over a
/// third of its largest), as the offset between two bones of one limb does not.
fn off_axis(p: Vec3) -> bool {
    let mut c = p.abs().to_array();
    c.sort_by(f32::total_cmp);
    c[2] > 1e-6 && c[1] > c[2] / 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limbs_continue_their_own_side_only() {
        use Side::{Left, Right};
        assert!(continues(Role::Calf(Left), Role::Foot(Left)));
        assert!(!continues(Role::Calf(Left), Role::Foot(Right)));
        assert!(!continues(Role::Thigh(Left), Role::Foot(Left)));
        assert!(!continues(Role::Pelvis, Role::Thigh(Left)));
    }

    #[test]
    fn offsets_along_an_axis_are_bones_and_others_controls() {
        assert!(!off_axis(Vec3::new(0.0, -0.44, 0.0)));
        assert!(!off_axis(Vec3::new(0.05, -0.44, 0.02)));
        assert!(off_axis(Vec3::new(0.3, -0.44, 0.0)));
        assert!(!off_axis(Vec3::ZERO));
    }
}
