//! The pose a humanoid is built from: each node's first `position` and `quaternion` key, which
//! the body layout (where each role sits) and the rest pose both start from.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use clipscope_core::model::Clip;
use clipscope_core::model::binding::parse_track_name;

/// The first keys of each node's `position` and `quaternion` tracks, by node name.
pub(super) type FirstKeys = HashMap<String, (Option<Vec3>, Option<Quat>)>;

/// The first keys of each node's `position` and `quaternion` tracks.
pub(super) fn first_keys(clip: &Clip) -> FirstKeys {
    let mut out = FirstKeys::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        if path.property_index.is_some() {
            continue;
        }
        let property = path.property_name.clone();
        let Some(node) = path.animated_node() else {
            continue;
        };
        let Some(v) = track.values.as_numbers() else {
            continue;
        };
        let entry = out.entry(node).or_default();
        match (property.as_str(), v) {
            ("position", [x, y, z, ..]) => {
                let p = Vec3::new(*x, *y, *z);
                if p.is_finite() {
                    entry.0 = Some(p);
                }
            }
            ("quaternion", [x, y, z, w, ..]) => {
                let q = Quat::from_xyzw(*x, *y, *z, *w);
                if q.is_finite() && q.length() > 1e-6 {
                    entry.1 = Some(q.normalize());
                }
            }
            _ => {}
        }
    }
    out
}
