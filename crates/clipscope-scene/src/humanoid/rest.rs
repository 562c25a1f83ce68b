//! The rest pose: each joint where the clip's first position key puts it, turned by its first
//! rotation key and sized by its first scale key; joints without position keys get human
//! proportions, scaled to the clip's units by the nodes that have them.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use super::body::Body;
use super::roles::{Role, Side, side_of};
use crate::{Part, parse_hex_colour};
use clipscope_core::model::Clip;
use clipscope_core::model::binding::parse_track_name;

/// Human proportions, metres: a role's rest offset from its parent's joint in a T-pose
/// (y up, the figure's left at +x, facing +z).
fn proportion(role: Role) -> Vec3 {
    let side = |s: Side| if s == Side::Left { 1.0 } else { -1.0 };
    match role {
        Role::Root => Vec3::ZERO,
        Role::Pelvis => Vec3::new(0.0, 0.95, 0.0),
        Role::Spine(_) => Vec3::new(0.0, 0.14, 0.0),
        Role::Neck(_) => Vec3::new(0.0, 0.1, 0.0),
        Role::Head => Vec3::new(0.0, 0.1, 0.0),
        Role::Clavicle(s) => Vec3::new(side(s) * 0.03, 0.08, 0.0),
        Role::UpperArm(s) => Vec3::new(side(s) * 0.15, 0.0, 0.0),
        Role::Forearm(s) => Vec3::new(side(s) * 0.28, 0.0, 0.0),
        Role::Hand(s) => Vec3::new(side(s) * 0.26, 0.0, 0.0),
        Role::Finger(s, _, 0) => Vec3::new(side(s) * 0.09, 0.0, 0.0),
        Role::Finger(s, _, _) => Vec3::new(side(s) * 0.035, 0.0, 0.0),
        Role::Thigh(s) => Vec3::new(side(s) * 0.09, -0.05, 0.0),
        Role::Calf(_) => Vec3::new(0.0, -0.44, 0.0),
        Role::Foot(_) => Vec3::new(0.0, -0.43, 0.0),
        Role::Toe(_) => Vec3::new(0.0, -0.05, 0.13),
    }
}

/// The body colours, sRGB: centre, left, right, unmatched.
const CENTRE: &str = "#e8a15c";
const LEFT: &str = "#5fa8d3";
const RIGHT: &str = "#e07a5f";
const OTHER: &str = "#b58fd6";

/// The first key of each node's `scale` track, where it is finite, not zero and not 1.
fn first_scales(clip: &Clip) -> HashMap<String, Vec3> {
    let mut out = HashMap::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        if path.property_name != "scale" || path.property_index.is_some() {
            continue;
        }
        let (Some(node), Some([x, y, z, ..])) = (path.animated_node(), track.values.as_numbers())
        else {
            continue;
        };
        let s = Vec3::new(*x, *y, *z);
        if s.is_finite() && s.abs().min_element() > 1e-9 && s != Vec3::ONE {
            out.insert(node, s);
        }
    }
    out
}

/// The clip's length unit in metres of [`proportion`]: the median ratio of a position key to
/// its role's proportion, over the nodes hanging from a parent that are not controls (`loose`).
pub(super) fn unit(body: &Body<'_>, parent: &[Option<usize>], loose: &[bool]) -> f32 {
    let mut ratios: Vec<f32> = (0..body.len())
        .filter_map(|i| {
            let role = body.roles[i]?;
            let length = proportion(role).length();
            let p = body.key(i).0?;
            (!loose[i] && parent[i].is_some() && length > 0.0 && p.length() > 1e-6)
                .then(|| p.length() / length)
        })
        .collect();
    ratios.sort_by(f32::total_cmp);
    ratios.get(ratios.len() / 2).copied().unwrap_or(1.0)
}

/// The rig's parts as they are being built, and the part each node became.
pub(super) struct Draft {
    /// The parts, parents first; the first is the upright group every other part hangs under.
    pub parts: Vec<Part>,
    /// The index in `parts` of each node's part.
    pub index: Vec<usize>,
}

/// One part per node in tree `order`, under the upright group, at its rest transform: the
/// clip's first keys, else the role's [`proportion`] in `unit`s; coloured by side.
pub(super) fn parts(
    clip: &Clip,
    body: &Body<'_>,
    parent: &[Option<usize>],
    order: &[usize],
    unit: f32,
) -> Draft {
    let (nodes, roles) = (body.nodes, body.roles);
    let group_name = body.fresh_name(String::from("(upright)"));
    let scales = first_scales(clip);
    let mut index = vec![0usize; nodes.len()];
    let mut parts = vec![Part::new(group_name, None, Vec3::ZERO, [1.0; 3])];
    for &i in order {
        index[i] = parts.len();
        let colour = match roles[i] {
            None => OTHER,
            Some(role) => match side_of(role) {
                Some(Side::Left) => LEFT,
                Some(Side::Right) => RIGHT,
                None => CENTRE,
            },
        };
        let mut part = Part::new(
            nodes[i].clone(),
            Some(parent[i].map_or(0, |p| index[p])),
            Vec3::ZERO,
            parse_hex_colour(colour).unwrap_or([1.0; 3]),
        );
        let (position, rotation) = body.key(i);
        part.position = position.unwrap_or_else(|| match roles[i] {
            Some(role) => proportion(role) * unit,
            None => Vec3::new(0.0, 0.05 * unit, 0.0),
        });
        part.rotation = rotation.unwrap_or(Quat::IDENTITY);
        // A scaled node (PlayCanvas's Playbot root at 0.01) keeps its scale at rest, so bones
        // are sized for the body as it plays.
        if let Some(&scale) = scales.get(&nodes[i]) {
            part.scale = scale;
        }
        parts.push(part);
    }
    Draft { parts, index }
}
