//! Proxy rigs: a stand-in cube character for a skeletal clip whose bones match no rig.
//!
//! One box per bone: every bone the clip's tracks address ([`animated_nodes`]), plus the bones
//! of the hierarchy when one is given (a skeleton's unanimated bones still hold its shape).
//! With a hierarchy the bones form a tree that grows upward: each child's pivot sits one bone
//! length above its parent's, siblings fanned out sideways, boxes shrinking with depth. Without
//! one the bones stand in a grid on the ground, in track order. Bone lengths follow the clip's
//! own scale when it has bone position tracks (the median length of their first keys), so a
//! take in centimetres gets centimetre-sized boxes. Colours cycle through a warm palette.

use std::collections::HashMap;

use glam::Vec3;

use super::rig_match::animated_nodes;
use super::rig_schema::parse_hex_colour;
use super::{Part, Rig};
use clipscope_core::model::Clip;
use clipscope_core::model::binding::parse_track_name;

/// The proxy palette, sRGB: warm, friendly flat colours.
const PALETTE: [&str; 8] = [
    "#e8a15c", "#7fb77e", "#5fa8d3", "#e07a5f", "#f2c572", "#b58fd6", "#f4a6b7", "#6cc3b9",
];

/// The bone length when the clip gives no scale.
const DEFAULT_BONE_LENGTH: f32 = 0.25;

/// The colour of proxy box `i`, linear RGB.
pub fn palette_colour(i: usize) -> [f32; 3] {
    parse_hex_colour(PALETTE[i % PALETTE.len()]).unwrap_or([1.0; 3])
}

impl Rig {
    /// A proxy rig for `clip`, laid out by `hierarchy` (bone, parent) when given (see the module
    /// docs). The rig is called `proxy` (with `_` added if a bone has that name).
    pub fn proxy(clip: &Clip, hierarchy: Option<&[(String, Option<String>)]>) -> Rig {
        // Bones by name, so a clip of 100,000 tracks binds in linear time.
        let mut index = HashMap::<String, usize>::new();
        let mut bones = Vec::<String>::new();
        let mut parents = Vec::<Option<String>>::new();
        for (bone, parent) in hierarchy.unwrap_or_default() {
            if !bone.is_empty() && !index.contains_key(bone) {
                index.insert(bone.clone(), bones.len());
                bones.push(bone.clone());
                parents.push(parent.clone().filter(|p| p != bone));
            }
        }
        for bone in animated_nodes(clip) {
            if !index.contains_key(&bone) {
                index.insert(bone.clone(), bones.len());
                bones.push(bone);
                parents.push(None);
            }
        }
        let mut name = String::from("proxy");
        while index.contains_key(&name) {
            name.push('_');
        }
        let parent_index: Vec<Option<usize>> = parents
            .iter()
            .map(|p| p.as_ref().and_then(|p| index.get(p).copied()))
            .collect();
        let length = bone_length(clip, &index, &parent_index);
        let parts = match hierarchy {
            Some(_) => tree(&bones, &parent_index, length),
            None => grid(&bones, length),
        };
        Rig {
            name,
            parts,
            morph_targets: Vec::new(),
            origin: super::rig::Origin::Proxy,
            joint_size: 0.0,
            model: None,
        }
    }
}

/// The median length of the first keys of the position tracks of bones with a parent (all
/// bones when none has one), or [`DEFAULT_BONE_LENGTH`].
fn bone_length(clip: &Clip, bones: &HashMap<String, usize>, parents: &[Option<usize>]) -> f32 {
    let any_parent = parents.iter().any(Option::is_some);
    let mut lengths: Vec<f32> = Vec::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        if path.property_name != "position" || path.property_index.is_some() {
            continue;
        }
        let node = match (
            path.object_name.as_deref(),
            path.object_index,
            path.node_name,
        ) {
            (Some("bones"), Some(bone), _) => bone,
            (_, _, Some(node)) => node,
            _ => continue,
        };
        let Some(&i) = bones.get(node.as_str()) else {
            continue;
        };
        if any_parent && parents[i].is_none() {
            continue;
        }
        if let Some(v) = track.values.as_numbers().and_then(|v| v.get(..3)) {
            let length = Vec3::new(v[0], v[1], v[2]).length();
            if length.is_finite() && length > 1e-6 {
                lengths.push(length);
            }
        }
    }
    if lengths.is_empty() {
        return DEFAULT_BONE_LENGTH;
    }
    lengths.sort_by(f32::total_cmp);
    lengths[lengths.len() / 2]
}

/// The bones as a tree growing upward from the ground, parents first.
fn tree(bones: &[String], parents: &[Option<usize>], length: f32) -> Vec<Part> {
    let n = bones.len();
    // A parent that leads back to the bone itself (a cycle) is dropped: the bone becomes a root.
    // Each chain is walked once: bones already placed (state 2) end the walk.
    let mut parents = parents.to_vec();
    let mut state = vec![0u8; n]; // 0 unseen, 1 on the current walk, 2 done
    for start in 0..n {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(b) = at {
            match state[b] {
                2 => break,
                1 => {
                    // `b` leads back to itself: cut the cycle at `b`.
                    parents[b] = None;
                    break;
                }
                _ => {
                    state[b] = 1;
                    walk.push(b);
                    at = parents[b];
                }
            }
        }
        for b in walk {
            state[b] = 2;
        }
    }
    let mut kids_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, p) in parents.iter().enumerate() {
        match p {
            Some(p) => kids_of[*p].push(i),
            None => roots.push(i),
        }
    }
    let mut parts = Vec::with_capacity(n);
    // (bone, parent part index, depth, position)
    let mut stack: Vec<(usize, Option<usize>, usize, Vec3)> = Vec::new();
    let fan =
        |k: usize, count: usize, spread: f32| (k as f32 - (count as f32 - 1.0) / 2.0) * spread;
    for (k, &r) in roots.iter().enumerate().rev() {
        let size = box_size(length, 0);
        let at = Vec3::new(fan(k, roots.len(), length * 2.0), size / 2.0, 0.0);
        stack.push((r, None, 0, at));
    }
    while let Some((bone, parent, depth, position)) = stack.pop() {
        let size = box_size(length, depth);
        let index = parts.len();
        let mut part = Part::new(
            bones[bone].clone(),
            parent,
            Vec3::splat(size),
            palette_colour(index),
        );
        part.position = position;
        parts.push(part);
        let kids = &kids_of[bone];
        let spread = length * 0.6 * 0.85f32.powi(depth as i32);
        for (k, &c) in kids.iter().enumerate().rev() {
            let at = Vec3::new(fan(k, kids.len(), spread), length, 0.0);
            stack.push((c, Some(index), depth + 1, at));
        }
    }
    parts
}

/// The bones standing in a square grid on the ground, in order, row by row.
fn grid(bones: &[String], length: f32) -> Vec<Part> {
    let columns = (bones.len() as f32).sqrt().ceil().max(1.0) as usize;
    let rows = bones.len().div_ceil(columns);
    let spacing = length * 1.5;
    let size = box_size(length, 0);
    bones
        .iter()
        .enumerate()
        .map(|(i, bone)| {
            let (row, column) = (i / columns, i % columns);
            let mut part = Part::new(bone.clone(), None, Vec3::splat(size), palette_colour(i));
            part.position = Vec3::new(
                (column as f32 - (columns as f32 - 1.0) / 2.0) * spacing,
                size / 2.0,
                (row as f32 - (rows as f32 - 1.0) / 2.0) * spacing,
            );
            part
        })
        .collect()
}

/// The edge of a proxy box at `depth` in the tree.
fn box_size(length: f32, depth: usize) -> f32 {
    length * 0.45 * 0.85f32.powi(depth.min(12) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Track, TrackKind};

    fn clip() -> Clip {
        let q = |n: &str| {
            Track::numeric(
                n,
                TrackKind::Quaternion,
                vec![0.0],
                vec![0.0, 0.0, 0.0, 1.0],
            )
        };
        Clip::new(
            "take",
            1.0,
            vec![
                q(".bones[Spine].quaternion"),
                q(".bones[Hip].quaternion"),
                q("Neck.quaternion"),
                q(".bones[ArmL].quaternion"),
                q(".bones[ArmR].quaternion"),
                q(".quaternion"),
            ],
        )
    }

    #[test]
    fn grid_without_hierarchy() {
        let rig = Rig::proxy(&clip(), None);
        assert_eq!(rig.name, "proxy");
        let names: Vec<&str> = rig.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Spine", "Hip", "Neck", "ArmL", "ArmR"]);
        assert!(rig.parts.iter().all(|p| p.parent.is_none()));
        // 3 columns × 2 rows, standing on the ground, 0.375 apart.
        let size = DEFAULT_BONE_LENGTH * 0.45;
        let p: Vec<Vec3> = rig.parts.iter().map(|p| p.position).collect();
        assert!(p.iter().all(|p| (p.y - size / 2.0).abs() < 1e-6));
        assert!(
            p[0].abs_diff_eq(Vec3::new(-0.375, size / 2.0, -0.1875), 1e-6),
            "{p:?}"
        );
        assert!(
            p[4].abs_diff_eq(Vec3::new(0.0, size / 2.0, 0.1875), 1e-6),
            "{p:?}"
        );
        assert_ne!(rig.parts[0].colour, rig.parts[1].colour);
        assert!(Rig::new(rig.name.clone(), rig.parts.clone(), vec![]).is_ok());
        assert_eq!(rig.match_score(&clip()), 1.0);
    }

    #[test]
    fn tree_with_hierarchy() {
        let h = |b: &str, p: Option<&str>| (b.to_string(), p.map(str::to_string));
        let hierarchy = [
            h("Hip", None),
            h("Spine", Some("Hip")),
            h("Chest", Some("Spine")),
            h("Neck", Some("Chest")),
            h("ArmL", Some("Chest")),
            h("ArmR", Some("Chest")),
            h("Loop", Some("Loop")),
        ];
        let rig = Rig::proxy(&clip(), Some(&hierarchy));
        let names: Vec<&str> = rig.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["Hip", "Spine", "Chest", "Neck", "ArmL", "ArmR", "Loop"]
        );
        let parent = |n: &str| {
            rig.parts[rig.part_index(n).unwrap()]
                .parent
                .map(|p| rig.parts[p].name.as_str())
        };
        assert_eq!(parent("Hip"), None);
        assert_eq!(parent("Chest"), Some("Spine"));
        assert_eq!(parent("ArmR"), Some("Chest"));
        assert_eq!(parent("Loop"), None);
        assert!(Rig::new(rig.name.clone(), rig.parts.clone(), vec![]).is_ok());
        // Children sit one bone length above their parents; siblings fan out; boxes shrink.
        let part = |n: &str| &rig.parts[rig.part_index(n).unwrap()];
        assert_eq!(
            part("Spine").position,
            Vec3::new(0.0, DEFAULT_BONE_LENGTH, 0.0)
        );
        let (neck, left, right) = (part("Neck"), part("ArmL"), part("ArmR"));
        assert!(neck.position.x < left.position.x && left.position.x < right.position.x);
        assert!((left.position.x).abs() < 1e-6);
        assert!(neck.position.y == DEFAULT_BONE_LENGTH);
        assert!(neck.size.x < part("Chest").size.x && part("Chest").size.x < part("Hip").size.x);
        // The two roots stand side by side on the ground.
        assert!(part("Loop").position.x > part("Hip").position.x);
        assert_eq!(part("Loop").position.y, part("Hip").size.y / 2.0);
    }

    #[test]
    fn bone_length_follows_the_clip() {
        let mut c = clip();
        for (bone, y) in [("Spine", 10.0), ("Neck", 20.0), ("Hip", 95.0)] {
            c.tracks.push(Track::numeric(
                format!(".bones[{bone}].position"),
                TrackKind::Vector,
                vec![0.0],
                vec![0.0, y, 0.0],
            ));
        }
        let h = |b: &str, p: Option<&str>| (b.to_string(), p.map(str::to_string));
        let hierarchy = [
            h("Hip", None),
            h("Spine", Some("Hip")),
            h("Neck", Some("Spine")),
        ];
        let rig = Rig::proxy(&c, Some(&hierarchy));
        // The median of the non-root bones' first keys: 10 and 20 → 20.
        assert_eq!(rig.parts[1].position.y, 20.0);
        let rig = Rig::proxy(&c, None);
        assert_eq!(rig.parts[0].size.x, 20.0 * 0.45);
    }
}
