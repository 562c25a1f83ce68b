//! The hierarchy: which node hangs from which, from their roles (pelvis → spine chain → neck →
//! head; clavicle → upper arm → forearm → hand → fingers from the top of the spine; thigh → calf
//! → foot → toe from the pelvis, with Biped's own habits), and the nodes in tree order.

use super::body::Body;
use super::roles::Role;

/// The parent node of each node of `body`: by role, and for nodes no role fits, the matched
/// node whose name they extend (the longest), else the matched node listed before them.
pub(super) fn parents(body: &Body<'_>) -> Vec<Option<usize>> {
    let (nodes, roles) = (body.nodes, body.roles);
    let (root, pelvis, chest, hips) = (body.root, body.pelvis, body.chest, body.hips);
    let find = |r: Role| body.find(r);
    let n = nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, role) in roles.iter().enumerate() {
        let Some(role) = *role else { continue };
        let or = |options: &[Option<usize>]| options.iter().flatten().next().copied();
        parent[i] = match role {
            Role::Root => None,
            Role::Pelvis => root,
            Role::Spine(_) => {
                let k = body.spines.iter().position(|s| s.1 == i).unwrap_or(0);
                if k == 0 {
                    or(&[pelvis, root])
                } else {
                    Some(body.spines[k - 1].1)
                }
            }
            Role::Neck(_) => {
                let k = body.necks.iter().position(|s| s.1 == i).unwrap_or(0);
                if k == 0 {
                    chest
                } else {
                    Some(body.necks[k - 1].1)
                }
            }
            Role::Head => or(&[body.top_neck, chest]),
            Role::Clavicle(_) if body.biped => or(&[body.top_neck, chest]),
            Role::Clavicle(_) => chest,
            Role::UpperArm(s) => or(&[find(Role::Clavicle(s)), chest]),
            Role::Forearm(s) => or(&[find(Role::UpperArm(s)), find(Role::Clavicle(s)), chest]),
            Role::Hand(s) => or(&[
                find(Role::Forearm(s)),
                find(Role::UpperArm(s)),
                find(Role::Clavicle(s)),
                chest,
            ]),
            Role::Finger(s, f, j) => {
                let before = (0..j).rev().find_map(|k| find(Role::Finger(s, f, k)));
                or(&[before, find(Role::Hand(s)), find(Role::Forearm(s)), chest])
            }
            Role::Thigh(_) if body.biped => or(&[pelvis, body.first_spine, root]),
            Role::Thigh(_) => hips,
            Role::Calf(s) => or(&[find(Role::Thigh(s)), hips]),
            Role::Foot(s) => or(&[find(Role::Calf(s)), find(Role::Thigh(s)), hips]),
            Role::Toe(s) => or(&[
                find(Role::Foot(s)),
                find(Role::Calf(s)),
                find(Role::Thigh(s)),
                hips,
            ]),
        };
    }
    // Unmatched nodes: under the matched node whose name they extend (the longest), else the
    // matched node listed before them.
    for i in 0..n {
        if roles[i].is_some() {
            continue;
        }
        let extends = (0..n)
            .filter(|&j| j != i && roles[j].is_some() && nodes[i].starts_with(nodes[j].as_str()))
            .max_by_key(|&j| nodes[j].len());
        parent[i] = extends.or_else(|| (0..i).rev().find(|&j| roles[j].is_some()));
    }
    parent
}

/// The nodes in tree order (parents first) and each node's children.
pub(super) struct Tree {
    /// Every node, each after its parent.
    pub order: Vec<usize>,
    /// The children of each node, in node order.
    pub children: Vec<Vec<usize>>,
}

impl Tree {
    /// The tree of `parent` (one entry per node). A node left in a cycle (not possible from
    /// roles, kept for safety) hangs from the top: its parent is cleared.
    pub fn new(parent: &mut [Option<usize>]) -> Tree {
        let n = parent.len();
        let mut order: Vec<usize> = Vec::with_capacity(n);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut tops = Vec::new();
        for (i, p) in parent.iter().enumerate() {
            match *p {
                Some(p) if p != i => children[p].push(i),
                _ => tops.push(i),
            }
        }
        let mut stack: Vec<usize> = tops.iter().rev().copied().collect();
        let mut seen = vec![false; n];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            order.push(i);
            stack.extend(children[i].iter().rev());
        }
        for (i, was) in seen.iter().enumerate() {
            if !was {
                order.push(i);
                parent[i] = None;
            }
        }
        Tree { order, children }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_lists_parents_first_and_breaks_cycles() {
        // 0 ← 2 ← 1, and 3 ↔ 4 in a cycle.
        let mut parent = vec![None, Some(2), Some(0), Some(4), Some(3)];
        let tree = Tree::new(&mut parent);
        assert_eq!(&tree.order[..3], [0, 2, 1]);
        assert_eq!(tree.children[0], [2]);
        assert_eq!(tree.children[2], [1]);
        assert_eq!(tree.order.len(), 5);
        assert_eq!(parent[3], None);
        assert_eq!(parent[4], None);
    }
}
