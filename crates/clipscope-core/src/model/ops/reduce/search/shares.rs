//! Each node track's first share of the budget: how far the points at and below its node
//! reach and how many animated channels share the longest chain decide how much the track may
//! stray before the search scales the shares.

use std::collections::HashMap;

use crate::model::ops::reduce::ReduceOptions;
use crate::model::ops::reduce::property::Property;
use crate::model::ops::reduce::tree::Tree;
use crate::model::ops::reduce::world::{self, NodeInput};

/// How many samples (evenly spread) the first shares of the budget are worked out from.
const SHARE_SAMPLES: usize = 2048;

/// Each node track's share of the budget at scale 1, in its own metric (see the module docs).
pub(super) fn shares(
    tree: &Tree,
    targets: &[(usize, Property)],
    inputs: &[NodeInput],
    samples: usize,
    options: &ReduceOptions,
) -> Vec<f64> {
    // How far the points at and below each node reach from its origin, and how much each
    // node's world transform stretches space, over up to a few thousand samples: enough for
    // a first share.
    let (reach, stretch) = world::levers(tree, inputs, samples, SHARE_SAMPLES);
    // How many animated channels sit on the longest chain (and rotations, for the angle).
    let mut animated: HashMap<usize, (usize, usize)> = HashMap::new();
    for &(joint, property) in targets {
        let e = animated.entry(joint).or_default();
        e.0 += 1;
        if property.turns() {
            e.1 += 1;
        }
    }
    let (mut chain_channels, mut chain_rotations) = (1usize, 1usize);
    for j in 0..tree.len() {
        let (c, r) = tree
            .chain(j)
            .map(|a| animated.get(&a).copied().unwrap_or_default())
            .fold((0, 0), |acc, x| (acc.0 + x.0, acc.1 + x.1));
        chain_channels = chain_channels.max(c);
        chain_rotations = chain_rotations.max(r);
    }
    // Errors down a chain rarely line up: share as if they added like independent ones.
    let share = options.max_error / (chain_channels as f64).sqrt();
    let angle_share = options
        .max_angle
        .map(|a| a / (chain_rotations as f64).sqrt())
        .unwrap_or(f64::INFINITY);
    // Nothing measured hangs below a node whose lever is 0: any change of it goes unseen.
    const TINY: f64 = 1e-12;
    targets
        .iter()
        .map(|&(joint, property)| {
            let lever = reach[joint].max(TINY);
            let own = stretch[joint].max(TINY);
            let parent = tree.parent[joint].map_or(1.0, |p| stretch[p]).max(TINY);
            let turn = (share / lever).min(angle_share);
            match property {
                Property::Position
                | Property::LayerPosition
                | Property::PositionX
                | Property::PositionY
                | Property::PositionZ => share / parent,
                Property::Anchor => share / own,
                Property::Quaternion => turn,
                // An error of e per Euler angle turns by at most √3·e.
                Property::Euler => turn / 3f64.sqrt(),
                Property::Scale => share / lever,
                Property::LayerScale => 100.0 * share / lever,
                Property::Rotation
                | Property::RotationX
                | Property::RotationY
                | Property::Skew
                | Property::SkewAxis => turn.to_degrees(),
                Property::Orientation => turn.to_degrees() / 3f64.sqrt(),
            }
        })
        .collect()
}
