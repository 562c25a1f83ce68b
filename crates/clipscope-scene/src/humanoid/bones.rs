//! The humanoid's look: bones along the body's central chain and down the limbs (the bone look
//! of [`draw_bones_preferring`]), the head a block as deep as it is high, and the node above the
//! body, the upright group and the ankles pivots or points without a box.

use glam::Vec3;

use super::body::Body;
use super::hierarchy::Tree;
use super::roles::{Role, Side};
use crate::Rig;
use crate::skeleton_rig::draw_bones_preferring;

/// Draws `rig`, built from `body` in `tree` order with node parts at `index`, as bones; the
/// `ankles` (side, part) are points.
pub(super) fn draw(
    rig: &mut Rig,
    body: &Body<'_>,
    tree: &Tree,
    index: &[usize],
    ankles: &[(Side, usize)],
) {
    let roles = body.roles;
    // Bones run along the body's central chain and down the limbs.
    let central = |r: Option<Role>| {
        matches!(
            r,
            Some(Role::Pelvis | Role::Spine(_) | Role::Neck(_) | Role::Head)
        )
    };
    let mut prefer: Vec<Option<usize>> = vec![None; rig.parts.len()];
    for &i in &tree.order {
        if central(roles[i])
            && let Some(&c) = tree.children[i].iter().find(|&&c| central(roles[c]))
        {
            prefer[index[i]] = Some(index[c]);
        }
    }
    draw_bones_preferring(rig, &prefer);
    // The upright group is a pivot only.
    rig.parts[0].tip = None;
    rig.parts[0].size = Vec3::ZERO;
    rig.parts[0].offset = Vec3::ZERO;
    for &i in &tree.order {
        let k = index[i];
        let part = &mut rig.parts[k];
        match roles[i] {
            // The node above the body: a pivot, not a bone.
            Some(Role::Root) => {
                part.tip = None;
                part.size = Vec3::ZERO;
            }
            Some(Role::Head) => head_block(rig, body, &tree.children[i], k),
            _ => {}
        }
    }
    // The ankles are points, not bones.
    for &(_, a) in ankles {
        rig.parts[a].tip = None;
        rig.parts[a].size = Vec3::ZERO;
        rig.parts[a].offset = Vec3::ZERO;
    }
}

/// Makes the head, part `k` with child nodes `children`, a block as deep as it is high, six
/// joints across, reaching from the neck along the head (toward its first keyed child).
fn head_block(rig: &mut Rig, body: &Body<'_>, children: &[usize], k: usize) {
    let part = &rig.parts[k];
    let along = part
        .position
        .try_normalize()
        .map_or(Vec3::Y, |d| part.rotation.inverse() * d);
    let mut scale = 1.0;
    let mut at = Some(k);
    while let Some(a) = at {
        scale *= rig.parts[a].scale.abs().max_element();
        at = rig.parts[a].parent;
    }
    let along = children
        .iter()
        .find_map(|&c| body.position_of(&body.nodes[c]))
        .and_then(Vec3::try_normalize)
        .unwrap_or(along);
    // In the head's own (scaled) space.
    let edge = rig.joint_size * 6.0 / scale.max(1e-9);
    let part = &mut rig.parts[k];
    part.tip = None;
    part.size = Vec3::splat(edge);
    part.offset = along * edge * 0.5;
}
