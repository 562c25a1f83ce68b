//! The stand-in rig `render` draws until clips play on real rigs through the mixer: one box per
//! node the clip animates, laid out in a grid, moved by the clip's own transform tracks.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};

use crate::model::binding::parse_track_name;
use crate::model::interpolant::Sampler;
use crate::model::{Clip, Values};
use crate::scene::BoxInstance;

/// Distance between neighbouring boxes of the grid.
const SPACING: f32 = 1.6;
/// Side of a box at scale 1.
const SIDE: f32 = 0.8;

/// Friendly box colours (sRGB hex), one per node in turn.
const PALETTE: [u32; 8] = [
    0xF2_8C6B, 0x5D_BCB0, 0xF6_C85F, 0x6F_A8DC, 0xA6_8BD6, 0x8C_C66D, 0xEE_8FB0, 0xF4_A259,
];

/// One box per distinct node named by the clip's tracks (bones by bone name), in order of first
/// appearance, laid out in a square grid on the ground. The clip's `position` tracks move a box
/// from its grid slot by how far the track has moved since its first key; `quaternion` tracks
/// turn it and `scale` tracks scale it, all sampled at `t` like three.js's interpolants. Other
/// tracks are ignored.
///
/// A stand-in for the real rig (to be replaced by the mixer posing a rig).
pub fn standin_instances(clip: &Clip, t: f64) -> Vec<BoxInstance> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        let name = match (&path.object_name, &path.object_index) {
            (Some(object), Some(bone)) if object == "bones" => bone.clone(),
            _ => path.node_name.clone().unwrap_or_default(),
        };
        let slot = *index.entry(name).or_insert_with(|| {
            nodes.push(Node::default());
            nodes.len() - 1
        });
        let Values::Numbers(values) = &track.values else {
            continue;
        };
        let node = &mut nodes[slot];
        let value = |size: usize| (values.len() >= size).then(|| Sampler::new(track).evaluate(t));
        let numbers = |v: Values| v.as_numbers().map(<[f32]>::to_vec).unwrap_or_default();
        match (path.property_name.as_str(), track.value_size()) {
            ("position", 3) => {
                if let Some(now) = value(3).map(numbers) {
                    let first = Vec3::from_slice(&values[..3]);
                    node.offset = Vec3::from_slice(&now) - first;
                }
            }
            ("quaternion", 4) => {
                if let Some(q) = value(4).map(numbers) {
                    node.rotation = Quat::from_slice(&q).normalize();
                }
            }
            ("scale", 3) => {
                if let Some(s) = value(3).map(numbers) {
                    node.scale = Vec3::from_slice(&s);
                }
            }
            _ => {}
        }
    }
    let columns = (nodes.len() as f32).sqrt().ceil().max(1.0) as usize;
    let rows = nodes.len().div_ceil(columns);
    nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let (row, column) = (i / columns, i % columns);
            let slot = Vec3::new(
                (column as f32 - (columns - 1) as f32 * 0.5) * SPACING,
                SIDE * 0.5,
                (row as f32 - (rows.max(1) - 1) as f32 * 0.5) * SPACING,
            );
            let rotation = if node.rotation.is_finite() {
                node.rotation
            } else {
                Quat::IDENTITY
            };
            BoxInstance {
                transform: Mat4::from_scale_rotation_translation(
                    node.scale * SIDE,
                    rotation,
                    slot + node.offset,
                ),
                colour: super::colour::srgb(PALETTE[i % PALETTE.len()]),
            }
        })
        .collect()
}

/// What the tracks of one node say at the time.
struct Node {
    offset: Vec3,
    rotation: Quat,
    scale: Vec3,
}

impl Default for Node {
    fn default() -> Node {
        Node {
            offset: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    #[test]
    fn one_box_per_node_moved_by_its_tracks() {
        let clip = Clip::new(
            "c",
            1.0,
            vec![
                Track::new(
                    ".bones[a].position",
                    TrackKind::Vector,
                    vec![0.0, 1.0],
                    Values::Numbers(vec![0.0, 5.0, 0.0, 2.0, 5.0, 0.0]),
                ),
                Track::new(
                    ".bones[a].quaternion",
                    TrackKind::Quaternion,
                    vec![0.0],
                    Values::Numbers(vec![0.0, 0.0, 0.0, 1.0]),
                ),
                Track::new(
                    "b.scale",
                    TrackKind::Vector,
                    vec![0.0],
                    Values::Numbers(vec![2.0, 2.0, 2.0]),
                ),
            ],
        );
        let boxes = standin_instances(&clip, 0.5);
        assert_eq!(boxes.len(), 2);
        let a = boxes[0].transform.w_axis.truncate();
        let a0 = standin_instances(&clip, 0.0)[0].transform.w_axis.truncate();
        assert!((a - a0 - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-5);
        assert!((boxes[1].transform.x_axis.length() - 2.0 * SIDE).abs() < 1e-5);
    }
}
