//! The nodes a reduction measures and the points on each that an error is measured at.
//!
//! Every node of the hierarchy counts: the skeleton's bones (a glTF file's whole node tree
//! below and above its joints and animated nodes, static end bones such as Mixamo's
//! `HeadTop_End` included), or a composition's layers. What is measured on each:
//!
//! * a 3D node ([`Local::Trs`]): its origin, and — for a node whose own transform moves or
//!   that carries geometry of its own — three *shell points* one shell radius along its local
//!   x, y and z axes, so a twist that moves no child still moves something. The radius is the
//!   farthest point that moves with the node: the farthest skinned vertex it influences
//!   (weighted) when the file has a mesh, else its farthest child, else (a leaf) a fraction of
//!   its own bone's length (ACL's "shell distance"), in the file's units;
//! * a layer ([`Local::Layer`]): the corners of its content in layer space (a solid's or
//!   precomposition's box, the convex hull of the path points a shape layer draws over all its
//!   keys, the composition's box where the content is not known; a null layer has none), while
//!   it is visible (between its in and out points).
//!
//! The error of a point is convex in the point, so the corners bound everything inside them.

use std::collections::HashMap;

use crate::model::{Layer, Layers, Skeleton};

/// How a node's local transform is made from its animated properties.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Local {
    /// three.js's `compose(position, quaternion, scale)` (the rotation from an Euler XYZ track
    /// when there is no quaternion one); the rest values where a property is not animated.
    Trs {
        /// Rest position.
        position: [f64; 3],
        /// Rest rotation (x, y, z, w).
        rotation: [f64; 4],
        /// Rest scale.
        scale: [f64; 3],
    },
    /// A composition layer ([`Layer`]) transformed like lottie-web: anchor, scale, skew,
    /// rotation, auto-orientation and position.
    Layer {
        /// A 3D layer (`ddd`): rotations about x, y and z, an orientation and z positions.
        ddd: bool,
        /// The layer turns with the direction its position moves in (`ao`).
        auto_orient: bool,
    },
}

/// What a measured point stands for, for the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointKind {
    /// The node's origin (what a player's world matrix puts there).
    Origin,
    /// A point one shell radius along one of the node's axes (0, 1, 2 for x, y, z), standing
    /// for geometry that moves with the node.
    Shell {
        /// The axis.
        axis: usize,
        /// The radius, in the node's local units.
        radius: f64,
    },
    /// A corner of a layer's content (0–3: top left, top right, bottom right, bottom left).
    Corner(usize),
    /// A corner of the convex hull of what a shape layer draws (its index on the hull).
    Outline(usize),
    /// A vertex of a mesh (its index in the mesh's primitive).
    Vertex(usize),
}

/// The nodes, parents first, with their transforms and measured points.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    /// Node names (bone names, layer track prefixes).
    pub names: Vec<String>,
    /// Each node's parent.
    pub parent: Vec<Option<usize>>,
    /// The nodes in an order where every parent comes before its children.
    pub order: Vec<usize>,
    /// Each name's node (the first of a repeated name).
    pub index: HashMap<String, usize>,
    /// How each node's local transform is made.
    pub local: Vec<Local>,
    /// The measured points of each node, in its local space.
    pub points: Vec<Vec<[f64; 3]>>,
    /// What each measured point stands for.
    pub kinds: Vec<Vec<PointKind>>,
    /// The clip times each node is seen between (`[from, to)`), `None` for always.
    pub visible: Vec<Option<(f64, f64)>>,
    /// Frames per second of a composition (auto-orientation looks a fraction of a frame back);
    /// 30 for a skeleton.
    pub fps: f64,
    /// Quaternions of cubic (bezier) tracks are scaled to unit length before they are
    /// composed, as the player does ([`ReduceOptions::unit_rotations`](super::ReduceOptions)).
    pub unit_rotations: bool,
}

/// A leaf's shell radius as a share of its own bone's length (the distance from its parent).
pub const BONE_FRACTION: f64 = 0.5;

impl Tree {
    /// The tree of `skeleton`'s bones (a parent link that would close a cycle is dropped);
    /// `animated(name)` tells whether a bone's own transform moves, `fallback` is the shell
    /// radius of a bone with nothing to measure it by (no children, no length).
    pub fn from_skeleton(
        skeleton: &Skeleton,
        animated: impl Fn(&str) -> bool,
        fallback: f64,
    ) -> Tree {
        let n = skeleton.bones.len();
        let parent = acyclic(skeleton.bones.iter().map(|b| b.parent).collect());
        let mut children_reach = vec![0.0f64; n];
        let mut has_children = vec![false; n];
        for (j, b) in skeleton.bones.iter().enumerate() {
            if let Some(p) = parent[j] {
                has_children[p] = true;
                children_reach[p] = children_reach[p].max(length(b.position.map(f64::from)));
            }
        }
        let mut points = Vec::with_capacity(n);
        let mut kinds = Vec::with_capacity(n);
        for (j, b) in skeleton.bones.iter().enumerate() {
            let moves = animated(&b.name);
            let mut p = vec![[0.0; 3]];
            let mut k = vec![PointKind::Origin];
            // A static leaf (an end bone) marks a place; it carries no geometry of its own.
            if has_children[j] || moves {
                let radius = if has_children[j] {
                    children_reach[j]
                } else {
                    let scale = b.scale.iter().map(|s| (*s as f64).abs()).sum::<f64>() / 3.0;
                    BONE_FRACTION * length(b.position.map(f64::from)) / scale.max(1e-9)
                };
                let radius = if radius > 0.0 && radius.is_finite() {
                    radius
                } else {
                    fallback
                };
                for axis in 0..3 {
                    let mut q = [0.0; 3];
                    q[axis] = radius;
                    p.push(q);
                    k.push(PointKind::Shell { axis, radius });
                }
            }
            points.push(p);
            kinds.push(k);
        }
        Tree::assemble(
            skeleton.bones.iter().map(|b| b.name.clone()).collect(),
            parent,
            skeleton
                .bones
                .iter()
                .map(|b| Local::Trs {
                    position: b.position.map(f64::from),
                    rotation: b.rotation.map(f64::from),
                    scale: b.scale.map(f64::from),
                })
                .collect(),
            points,
            kinds,
            vec![None; n],
        )
    }

    /// The tree of a composition's layers: parents by `ind`, content corners as the measured
    /// points (see the module docs), visible from their in point to their out point.
    pub fn from_layers(layers: &Layers) -> Tree {
        let list = &layers.layers;
        let n = list.len();
        let mut by_ind: HashMap<u64, usize> = HashMap::with_capacity(n);
        for (i, l) in list.iter().enumerate() {
            if let Some(ind) = l.ind.filter(|v| !v.is_nan()) {
                by_ind.entry((ind + 0.0).to_bits()).or_insert(i);
            }
        }
        let parent = acyclic(
            list.iter()
                .map(|l| {
                    l.parent
                        .and_then(|p| by_ind.get(&(p + 0.0).to_bits()).copied())
                })
                .collect(),
        );
        let comp = layers.size();
        let start = layers.start_frame();
        let fr = if layers.fps > 0.0 && layers.fps.is_finite() {
            layers.fps
        } else {
            30.0
        };
        let mut points = Vec::with_capacity(n);
        let mut kinds = Vec::with_capacity(n);
        for l in list {
            let (corners, outlined) = content_corners(l, comp);
            let kind = if outlined {
                PointKind::Outline
            } else {
                PointKind::Corner
            };
            kinds.push((0..corners.len()).map(kind).collect());
            points.push(corners);
        }
        let visible = list
            .iter()
            .map(|l| {
                let from = l.ip.map_or(f64::NEG_INFINITY, |ip| (ip - start) / fr);
                let to = l.op.map_or(f64::INFINITY, |op| (op - start) / fr);
                (from.is_finite() || to.is_finite()).then_some((from, to))
            })
            .collect();
        let mut tree = Tree::assemble(
            list.iter().map(|l| l.name.clone()).collect(),
            parent,
            list.iter()
                .map(|l| Local::Layer {
                    ddd: l.ddd,
                    auto_orient: l.auto_orient,
                })
                .collect(),
            points,
            kinds,
            visible,
        );
        tree.fps = fr;
        tree
    }

    /// A tree from its parts, with the order and the name index worked out.
    fn assemble(
        names: Vec<String>,
        parent: Vec<Option<usize>>,
        local: Vec<Local>,
        points: Vec<Vec<[f64; 3]>>,
        kinds: Vec<Vec<PointKind>>,
        visible: Vec<Option<(f64, f64)>>,
    ) -> Tree {
        let n = names.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (j, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(j);
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&j| parent[j].is_none()).rev().collect();
        while let Some(j) = stack.pop() {
            order.push(j);
            stack.extend(children[j].iter().rev());
        }
        let mut index = HashMap::with_capacity(n);
        for (j, name) in names.iter().enumerate() {
            index.entry(name.clone()).or_insert(j);
        }
        Tree {
            names,
            parent,
            order,
            index,
            local,
            points,
            kinds,
            visible,
            fps: 30.0,
            unit_rotations: false,
        }
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `j` and every node above it, nearest first.
    pub fn chain(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(j), move |&k| self.parent[k])
    }

    /// Whether node `j` is seen at clip time `t`.
    pub fn seen(&self, j: usize, t: f64) -> bool {
        self.visible[j].is_none_or(|(from, to)| t >= from && t < to)
    }

    /// Gives every node with nothing to measure (a null layer, a layer of unknown extent) one
    /// point: `anchor(name)`, its anchor point in its own space (`None`: the origin). That is
    /// where a null shows in the editor and what expressions linked to it (`toComp`, a path
    /// point following it) read, so its transform is bounded like any visible point.
    pub fn anchor_empty_nodes(&mut self, anchor: impl Fn(&str) -> Option<[f64; 3]>) {
        for j in 0..self.len() {
            if self.points[j].is_empty() {
                self.points[j] = vec![anchor(&self.names[j]).unwrap_or([0.0; 3])];
                self.kinds[j] = vec![PointKind::Origin];
            }
        }
    }

    /// Replaces node `j`'s shell points by ones of `radius` (a radius from the mesh).
    pub fn set_shell(&mut self, j: usize, radius: f64) {
        let mut p = vec![[0.0; 3]];
        let mut k = vec![PointKind::Origin];
        if radius > 0.0 && radius.is_finite() {
            for axis in 0..3 {
                let mut q = [0.0; 3];
                q[axis] = radius;
                p.push(q);
                k.push(PointKind::Shell { axis, radius });
            }
        }
        self.points[j] = p;
        self.kinds[j] = k;
    }
}

/// The parent links with every link that would close a cycle dropped.
fn acyclic(mut parent: Vec<Option<usize>>) -> Vec<Option<usize>> {
    let n = parent.len();
    for p in parent.iter_mut() {
        if p.is_some_and(|p| p >= n) {
            *p = None;
        }
    }
    // Walk up from each node; a walk longer than n has looped.
    for j in 0..n {
        let mut at = parent[j];
        let mut steps = 0;
        while let Some(p) = at {
            steps += 1;
            if p == j || steps > n {
                parent[j] = None;
                break;
            }
            at = parent[p];
        }
    }
    parent
}

/// The length of a vector.
fn length(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// The corners of a layer's content in layer space: a solid's or precomposition's box, the
/// hull of what a shape layer draws, nothing for a null layer, else the composition's box
/// (content not known: text, images without a size).
/// The second value says the corners are the shape outline's.
fn content_corners(layer: &Layer, comp: Option<[f64; 2]>) -> (Vec<[f64; 3]>, bool) {
    const NULL: f64 = 3.0;
    let corners = |[x0, y0, x1, y1]: [f64; 4]| {
        vec![[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]]
    };
    if let Some([w, h]) = layer.size {
        return (corners([0.0, 0.0, w, h]), false);
    }
    let outline: Vec<[f64; 3]> = layer
        .outline
        .iter()
        .filter(|p| p.iter().all(|v| v.is_finite()))
        .map(|&[x, y]| [x, y, 0.0])
        .collect();
    if !outline.is_empty() {
        return (outline, true);
    }
    if layer.ty == Some(NULL) {
        return (Vec::new(), false);
    }
    let box_corners = comp.map_or_else(Vec::new, |[w, h]| corners([0.0, 0.0, w, h]));
    (box_corners, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bone, Composition};

    #[test]
    fn shells_reach_the_farthest_child_or_half_a_leaf_s_bone() {
        let mut hip = Bone::new("hip", None);
        hip.position = [0.0, 1.0, 0.0];
        let mut knee = Bone::new("knee", Some(0));
        knee.position = [0.0, -0.5, 0.0];
        let mut toe = Bone::new("toe", Some(0));
        toe.position = [0.0, -0.2, 0.3];
        let mut end = Bone::new("knee_End", Some(1));
        end.position = [0.0, -0.1, 0.0];
        let skeleton = Skeleton {
            bones: vec![hip, knee, toe, end],
        };
        let tree = Tree::from_skeleton(&skeleton, |n| n != "knee_End", 0.03);
        // hip: farthest child 0.5; knee: its child 0.1; toe, a moving leaf: half its 0.36.
        assert_eq!(tree.points[0][1], [0.5, 0.0, 0.0]);
        assert!((tree.points[1][2][1] - 0.1).abs() < 1e-7);
        let toe_len = (0.2f64 * 0.2 + 0.3 * 0.3).sqrt();
        assert!((tree.points[2][3][2] - toe_len / 2.0).abs() < 1e-7);
        // The static end bone is measured at its origin only.
        assert_eq!(tree.points[3], vec![[0.0; 3]]);
        assert_eq!(tree.order, [0, 1, 3, 2]);
    }

    #[test]
    fn layers_measure_their_content_corners_while_seen() {
        let layers = Layers {
            fps: 10.0,
            composition: Composition::Main {
                version: None,
                start_frame: 5.0,
                end_frame: Some(50.0),
                width: Some(100.0),
                height: Some(80.0),
            },
            layers: vec![
                Layer {
                    name: "null".into(),
                    ind: Some(1.0),
                    ty: Some(3.0),
                    ..Layer::default()
                },
                Layer {
                    name: "solid".into(),
                    ind: Some(2.0),
                    parent: Some(1.0),
                    ty: Some(1.0),
                    size: Some([20.0, 10.0]),
                    ip: Some(15.0),
                    op: Some(25.0),
                    ..Layer::default()
                },
                Layer {
                    name: "text".into(),
                    ty: Some(5.0),
                    parent: Some(9.0),
                    ..Layer::default()
                },
            ],
        };
        let tree = Tree::from_layers(&layers);
        assert_eq!(tree.parent, [None, Some(0), None]);
        assert!(tree.points[0].is_empty());
        assert_eq!(tree.points[1][2], [20.0, 10.0, 0.0]);
        assert_eq!(tree.points[2][2], [100.0, 80.0, 0.0]);
        assert!(tree.seen(1, 1.0) && !tree.seen(1, 2.0) && !tree.seen(1, 0.99));
        assert!(tree.seen(0, -100.0));
        // The null has nothing to draw: it is measured at its anchor point; the others keep
        // their corners.
        let mut anchored = tree.clone();
        anchored.anchor_empty_nodes(|name| (name == "null").then_some([5.0, 6.0, 0.0]));
        assert_eq!(anchored.points[0], vec![[5.0, 6.0, 0.0]]);
        assert_eq!(anchored.kinds[0], vec![PointKind::Origin]);
        assert_eq!(anchored.points[1], tree.points[1]);
    }

    #[test]
    fn shape_layers_measure_their_outline_points() {
        let layers = Layers {
            fps: 30.0,
            composition: Composition::Main {
                version: None,
                start_frame: 0.0,
                end_frame: Some(30.0),
                width: Some(100.0),
                height: Some(80.0),
            },
            layers: vec![Layer {
                name: "shape".into(),
                ty: Some(4.0),
                outline: vec![
                    [0.0, -5.0],
                    [5.0, 0.0],
                    [0.0, 5.0],
                    [-5.0, 0.0],
                    [f64::NAN, 0.0],
                ],
                ..Layer::default()
            }],
        };
        let tree = Tree::from_layers(&layers);
        // The hull's points, not the box around them (whose corners the player never draws).
        assert_eq!(
            tree.points[0],
            [
                [0.0, -5.0, 0.0],
                [5.0, 0.0, 0.0],
                [0.0, 5.0, 0.0],
                [-5.0, 0.0, 0.0]
            ]
        );
        assert_eq!(tree.kinds[0][3], PointKind::Outline(3));
        assert_eq!(layers.layers[0].bounds(), Some([-5.0, -5.0, 5.0, 5.0]));
    }

    #[test]
    fn cycles_in_parents_are_broken() {
        let tree = Tree::from_skeleton(
            &Skeleton {
                bones: vec![Bone::new("a", Some(1)), Bone::new("b", Some(0))],
            },
            |_| true,
            0.03,
        );
        assert_eq!(tree.order.len(), 2);
        assert!(tree.parent.iter().any(Option::is_none));
    }
}
