//! The body a humanoid is built for: its nodes, their [`Role`]s, where each role is (the pelvis,
//! the spine and neck chains, the hips and chest the limbs hang from) and the clip's first keys,
//! which every later stage reads.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use super::first_keys::{FirstKeys, first_keys};
use super::roles::Role;
use clipscope_core::model::Clip;

/// The nodes of a clip with their roles, the nodes that play the body's central parts, and each
/// node's first keys.
pub(super) struct Body<'a> {
    /// The clip's animated nodes.
    pub nodes: &'a [String],
    /// One role per node, `None` where no role fits.
    pub roles: &'a [Option<Role>],
    /// Whether the names follow 3ds Max Biped (`Bip01 L Thigh`): a lone `L` or `R` word.
    pub biped: bool,
    /// The node above the pelvis (`root`, `Bip01`).
    pub root: Option<usize>,
    /// The pelvis.
    pub pelvis: Option<usize>,
    /// The spine chain, lowest first: (number, node).
    pub spines: Vec<(u32, usize)>,
    /// The neck chain, lowest first: (number, node).
    pub necks: Vec<(u32, usize)>,
    /// The lowest spine bone.
    pub first_spine: Option<usize>,
    /// The highest spine bone (the chest).
    pub top_spine: Option<usize>,
    /// The highest neck bone.
    pub top_neck: Option<usize>,
    /// What the legs hang from: the pelvis, else the first spine bone, else the root.
    pub hips: Option<usize>,
    /// What the arms and neck hang from: the top of the spine, else the hips.
    pub chest: Option<usize>,
    /// The node of each role.
    by_role: HashMap<Role, usize>,
    /// The first position and rotation keys of each node.
    keys: FirstKeys,
}

impl<'a> Body<'a> {
    /// The body of `nodes` with `roles`, keyed by `clip`.
    pub fn new(clip: &Clip, nodes: &'a [String], roles: &'a [Option<Role>]) -> Body<'a> {
        let biped = nodes.iter().any(|n| {
            let n = format!(" {n} ");
            n.contains(" L ") || n.contains(" R ")
        });
        let by_role: HashMap<Role, usize> = roles
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.map(|r| (r, i)))
            .collect();
        let find = |r: Role| by_role.get(&r).copied();
        let root = find(Role::Root);
        let pelvis = find(Role::Pelvis);
        let spines = chain(roles, |r| match r {
            Role::Spine(k) => Some(*k),
            _ => None,
        });
        let necks = chain(roles, |r| match r {
            Role::Neck(k) => Some(*k),
            _ => None,
        });
        let first_spine = spines.first().map(|s| s.1);
        let top_spine = spines.last().map(|s| s.1);
        let top_neck = necks.last().map(|s| s.1);
        let hips = pelvis.or(first_spine).or(root);
        let chest = top_spine.or(hips);
        Body {
            nodes,
            roles,
            biped,
            root,
            pelvis,
            spines,
            necks,
            first_spine,
            top_spine,
            top_neck,
            hips,
            chest,
            by_role,
            keys: first_keys(clip),
        }
    }

    /// How many nodes the body has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node that plays `role`.
    pub fn find(&self, role: Role) -> Option<usize> {
        self.by_role.get(&role).copied()
    }

    /// The first position and rotation keys of node `i`.
    pub fn key(&self, i: usize) -> (Option<Vec3>, Option<Quat>) {
        self.keys
            .get(&self.nodes[i])
            .copied()
            .unwrap_or((None, None))
    }

    /// The first position key of the node called `name`.
    pub fn position_of(&self, name: &str) -> Option<Vec3> {
        self.keys.get(name).and_then(|k| k.0)
    }

    /// `base`, with `_` added until no node has that name (for the parts the clip lacks).
    pub fn fresh_name(&self, base: String) -> String {
        let mut name = base;
        while self.nodes.contains(&name) {
            name.push('_');
        }
        name
    }
}

/// The numbered links of a chain (spine1, spine2, …), lowest first: (number, node).
fn chain(roles: &[Option<Role>], link: fn(&Role) -> Option<u32>) -> Vec<(u32, usize)> {
    let mut links: Vec<(u32, usize)> = roles
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().and_then(link).map(|k| (k, i)))
        .collect();
    links.sort_unstable();
    links
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::humanoid::roles::{Side, roles};
    use clipscope_core::model::{Track, TrackKind};

    #[test]
    fn a_body_finds_its_chains_and_keys() {
        let nodes: Vec<String> = ["spine2", "Hips", "spine1", "neck", "thigh_l", "Humanoid"]
            .map(String::from)
            .to_vec();
        let roles = roles(&nodes);
        let clip = Clip::new(
            "c",
            1.0,
            vec![Track::numeric(
                "spine1.position",
                TrackKind::Vector,
                vec![0.0],
                vec![0.0, 2.0, 0.0],
            )],
        );
        let body = Body::new(&clip, &nodes, &roles);
        assert!(!body.biped);
        assert_eq!(body.pelvis, Some(1));
        assert_eq!(body.spines, [(1, 2), (2, 0)]);
        assert_eq!((body.first_spine, body.top_spine), (Some(2), Some(0)));
        assert_eq!(
            (body.hips, body.chest, body.top_neck),
            (Some(1), Some(0), Some(3))
        );
        assert_eq!(body.find(Role::Thigh(Side::Left)), Some(4));
        assert_eq!(body.key(2).0, Some(Vec3::new(0.0, 2.0, 0.0)));
        assert_eq!(body.key(1), (None, None));
        assert_eq!(body.position_of("spine1"), Some(Vec3::new(0.0, 2.0, 0.0)));
        assert_eq!(body.fresh_name("Humanoid".into()), "Humanoid_");
        assert_eq!(body.fresh_name("(upright)".into()), "(upright)");
    }
}
