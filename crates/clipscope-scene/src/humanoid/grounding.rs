//! Grounding: the figure turned so its head is up (a Z-up take stands) and lifted so the lowest
//! joint over the whole clip touches the ground.

use std::sync::Arc;

use glam::{Quat, Vec3};

use super::AXES;
use super::body::Body;
use super::roles::{Role, Side};
use crate::{Player, Rig};
use clipscope_core::model::Clip;

/// How many moments of a clip [`lowest_joint`] looks at.
const GROUND_SAMPLES: u32 = 24;

/// Stands `rig` (built from `body`, node parts at `index`) up: its upright group (the first
/// part) turned head up from the feet (else the hips) at the clip's first frame, and lifted so
/// the lowest joint while `clip` plays is on the ground.
pub(super) fn stand(rig: &mut Rig, clip: &Clip, body: &Body<'_>, index: &[usize]) {
    let joints = rig.joints(&rig.rest_pose());
    let at = |r: Role| body.find(r).map(|i| joints[index[i]]);
    let top = at(Role::Head)
        .or_else(|| body.top_neck.map(|i| joints[index[i]]))
        .or_else(|| body.top_spine.map(|i| joints[index[i]]));
    let feet: Vec<Vec3> = [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|s| {
            at(Role::Foot(s))
                .or_else(|| at(Role::Calf(s)))
                .or_else(|| at(Role::Thigh(s)))
        })
        .collect();
    let bottom = if feet.is_empty() {
        body.hips.map(|i| joints[index[i]])
    } else {
        Some(feet.iter().sum::<Vec3>() / feet.len() as f32)
    };
    let turn = match (top, bottom) {
        (Some(t), Some(b)) => upright(t - b),
        _ => Quat::IDENTITY,
    };
    rig.parts[0].rotation = turn;
    // The lowest joint over the whole clip (sampled) touches the ground.
    let lowest = lowest_joint(rig, clip);
    rig.parts[0].position = Vec3::new(0.0, if lowest.is_finite() { -lowest } else { 0.0 }, 0.0);
}

/// The lowest world y of any joint but the rig's first part (its pivot group) while `clip`
/// plays on `rig`, over [`GROUND_SAMPLES`] moments.
fn lowest_joint(rig: &Rig, clip: &Clip) -> f32 {
    let mut player = Player::new(Arc::new(clip.clone()), rig.clone());
    let mut lowest = f32::INFINITY;
    for k in 0..=GROUND_SAMPLES {
        let t = clip.duration.max(0.0) * f64::from(k) / f64::from(GROUND_SAMPLES);
        let joints = rig.joints(player.pose_at(t));
        for j in joints.iter().skip(1) {
            if j.y.is_finite() {
                lowest = lowest.min(j.y);
            }
        }
    }
    lowest
}

/// The turn that brings the axis nearest to `up` (±x, ±y or ±z) onto +y.
fn upright(up: Vec3) -> Quat {
    let axis = AXES
        .into_iter()
        .max_by(|a, b| a.dot(up).total_cmp(&b.dot(up)))
        .unwrap_or(Vec3::Y);
    if axis == Vec3::NEG_Y {
        // Upside down: half a turn about z (from_rotation_arc picks any axis).
        return Quat::from_rotation_z(std::f32::consts::PI);
    }
    Quat::from_rotation_arc(axis, Vec3::Y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upright_brings_the_nearest_axis_up() {
        assert_eq!(upright(Vec3::new(0.1, 2.0, 0.0)), Quat::IDENTITY);
        let z_up = upright(Vec3::new(0.0, 0.2, 1.0));
        assert!((z_up * Vec3::Z).distance(Vec3::Y) < 1e-6);
        let down = upright(Vec3::NEG_Y);
        assert!((down * Vec3::NEG_Y).distance(Vec3::Y) < 1e-6);
    }
}
