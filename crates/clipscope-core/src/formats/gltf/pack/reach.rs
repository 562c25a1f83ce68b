//! How many bits a quantized rotation needs: its rounding turns everything below its node by
//! the same small angle, which moves each point by its distance from the node times that
//! angle. So the bits follow the node's *reach* — how far the farthest point it carries lies
//! from it — and a hand keeps fewer bits than the hips at the same guaranteed distance.
//!
//! The writer computes the reach from the file's node tree and the reducer from the
//! document's skeleton, with the same numbers in the same order, so both round alike.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::model::Skeleton;

/// One node as the reach sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReachNode {
    /// Its parent.
    pub parent: Option<usize>,
    /// Its rest offset from the parent, in the parent's units.
    pub offset: [f32; 3],
    /// The largest of its scale's components (absolute).
    pub scale: f32,
}

/// A leaf's reach as a share of its own offset: the shell point a reduction measures on a
/// moving leaf lies half its bone's length away
/// ([`BONE_FRACTION`](crate::model::ops::reduce::BONE_FRACTION)).
const LEAF_SHARE: f64 = 0.5;

/// Each node's reach in the file's units: the farthest distance from its origin to a node
/// below it (a leaf: half its own offset, where its shell points lie), through the scales on
/// the way. A node on a cycle of parents gets infinity (the packing's own bits).
pub(crate) fn reaches(nodes: &[ReachNode]) -> Vec<f64> {
    let n = nodes.len();
    let length = |o: [f32; 3]| {
        o.iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>()
            .sqrt()
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        match node.parent.filter(|&p| p < n) {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    // Parents before children, each node once.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = roots;
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        stack.extend(children[i].iter().copied());
    }
    // The farthest node below each node, in its own units, from the leaves up.
    let mut below = vec![0.0f64; n];
    for &i in order.iter().rev() {
        below[i] = children[i]
            .iter()
            .map(|&c| length(nodes[c].offset) + f64::from(nodes[c].scale) * below[c])
            .fold(0.0, f64::max);
    }
    // A leaf carries its shell.
    let local: Vec<f64> = (0..n)
        .map(|i| match children[i].is_empty() {
            true => LEAF_SHARE * length(nodes[i].offset) / f64::from(nodes[i].scale).max(1e-9),
            false => below[i],
        })
        .collect();
    // In the file's units: times the scales from the root down to the node.
    let mut world_scale = vec![1.0f64; n];
    let mut reach = vec![f64::INFINITY; n];
    for &i in &order {
        let above = nodes[i]
            .parent
            .filter(|&p| p < n)
            .map_or(1.0, |p| world_scale[p]);
        world_scale[i] = above * f64::from(nodes[i].scale);
        reach[i] = world_scale[i] * local[i];
    }
    reach
}

/// The bits per component of a quaternion of a node of `reach` whose rounding may move a
/// point by about `error`: a component rounded to `b` bits turns the node by about
/// `2.4 · 2^−b` radians, so `log2(reach / error) + 1` bits keep that at about `1.2 · error`
/// (4 to 16); 0 (the packing's own bits) when the reach says nothing: a node on a cycle, or
/// one that carries no length at all (a moving leaf at its parent's origin, whose shell a
/// reduction measures at a fixed radius).
pub(crate) fn rotation_bits(reach: f64, error: f64) -> u8 {
    if !(reach.is_finite() && reach > 0.0 && error > 0.0) {
        return 0;
    }
    ((reach / error).log2().ceil() + 1.0).clamp(4.0, 16.0) as u8
}

/// The nodes of a glTF file's JSON (`translation` and `scale`, or a `matrix`).
pub(crate) fn json_nodes(root: &Map<String, Value>) -> Vec<ReachNode> {
    let nodes = root
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut parent = vec![None; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for c in node
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
        {
            if let Some(slot) = parent.get_mut(c as usize) {
                *slot = Some(i);
            }
        }
    }
    let numbers = |node: &Value, key: &str| -> Option<Vec<f32>> {
        node.get(key)?
            .as_array()?
            .iter()
            .map(|v| v.as_f64().map(|x| x as f32))
            .collect()
    };
    nodes
        .iter()
        .zip(parent)
        .map(|(node, parent)| {
            let (offset, scale) = match numbers(node, "matrix").filter(|m| m.len() == 16) {
                Some(m) => {
                    let column = |c: usize| {
                        (0..3)
                            .map(|r| f64::from(m[c * 4 + r]).powi(2))
                            .sum::<f64>()
                            .sqrt() as f32
                    };
                    (
                        [m[12], m[13], m[14]],
                        column(0).max(column(1)).max(column(2)),
                    )
                }
                None => {
                    let t = numbers(node, "translation").filter(|t| t.len() == 3);
                    let s = numbers(node, "scale").filter(|s| s.len() == 3);
                    (
                        t.map_or([0.0; 3], |t| [t[0], t[1], t[2]]),
                        s.map_or(1.0, |s| s.iter().fold(0.0f32, |m, v| m.max(v.abs()))),
                    )
                }
            };
            ReachNode {
                parent,
                offset,
                scale,
            }
        })
        .collect()
}

/// Each bone's reach in `skeleton`, by name (the first of a repeated name).
pub(crate) fn skeleton_reaches(skeleton: &Skeleton) -> HashMap<String, f64> {
    let nodes: Vec<ReachNode> = skeleton
        .bones
        .iter()
        .map(|b| ReachNode {
            parent: b.parent,
            offset: b.position,
            scale: b.scale.iter().fold(0.0f32, |m, v| m.max(v.abs())),
        })
        .collect();
    let mut out = HashMap::with_capacity(nodes.len());
    for (b, r) in skeleton.bones.iter().zip(reaches(&nodes)) {
        out.entry(b.name.clone()).or_insert(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<usize>, offset: [f32; 3]) -> ReachNode {
        ReachNode {
            parent,
            offset,
            scale: 1.0,
        }
    }

    #[test]
    fn a_chain_reaches_its_far_end_and_a_leaf_half_its_bone() {
        // hips → knee (0.5 below) → foot (0.4 below), and a hand 0.2 off the hips.
        let nodes = [
            node(None, [0.0, 1.0, 0.0]),
            node(Some(0), [0.0, -0.5, 0.0]),
            node(Some(1), [0.0, -0.4, 0.0]),
            node(Some(0), [0.2, 0.0, 0.0]),
        ];
        let r = reaches(&nodes);
        assert!((r[0] - (0.5 + 0.4)).abs() < 1e-6, "{r:?}");
        assert!((r[1] - 0.4).abs() < 1e-6);
        assert!((r[2] - 0.2).abs() < 1e-6);
        assert!((r[3] - 0.1).abs() < 1e-6);
        // A scale of 2 on the knee doubles what is below it, in the file's units.
        let mut scaled = nodes;
        scaled[1].scale = 2.0;
        let r = reaches(&scaled);
        assert!((r[1] - 2.0 * 0.4).abs() < 1e-6, "{r:?}");
        assert!((r[0] - (0.5 + 2.0 * 0.4)).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn bits_grow_with_the_reach_and_an_unknown_reach_keeps_the_packing_s_bits() {
        assert_eq!(rotation_bits(1.0, 0.002), 10);
        assert_eq!(rotation_bits(0.25, 0.002), 8);
        assert_eq!(rotation_bits(1e-9, 0.002), 4);
        assert_eq!(rotation_bits(1e9, 0.002), 16);
        // No length, or a cycle: 0, the packing's own bits.
        assert_eq!(rotation_bits(0.0, 0.002), 0);
        let cycle = [
            node(Some(1), [1.0, 0.0, 0.0]),
            node(Some(0), [1.0, 0.0, 0.0]),
        ];
        assert!(reaches(&cycle).iter().all(|r| r.is_infinite()));
        assert_eq!(rotation_bits(f64::INFINITY, 0.002), 0);
    }

    #[test]
    fn the_file_and_the_skeleton_give_the_same_reaches() {
        let root: Map<String, Value> = serde_json::from_str(
            r#"{"nodes":[{"name":"a","children":[1],"translation":[0,1,0]},
                         {"name":"b","translation":[0.3,0,0.1],"scale":[1,2,1]}]}"#,
        )
        .unwrap();
        let from_file = reaches(&json_nodes(&root));
        let mut skeleton = Skeleton::default();
        let mut a = crate::model::Bone::new("a", None);
        a.position = [0.0, 1.0, 0.0];
        let mut b = crate::model::Bone::new("b", Some(0));
        b.position = [0.3, 0.0, 0.1];
        b.scale = [1.0, 2.0, 1.0];
        skeleton.bones = vec![a, b];
        let from_skeleton = skeleton_reaches(&skeleton);
        assert_eq!(from_skeleton["a"], from_file[0]);
        assert_eq!(from_skeleton["b"], from_file[1]);
    }
}
