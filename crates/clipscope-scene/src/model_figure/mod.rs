//! A file's 3D model as the viewport shows it: its meshes drawn at their nodes and deformed by
//! their skins and morph targets, posed by the same pose that moves the file's skeleton, with the
//! skeleton's bones ready to be drawn on top.
//!
//! The pose is the skeleton rig's ([`Rig::rest_pose`]) plus `morphTargetInfluences` on every
//! mesh node with morph targets. Each frame the rig's forward kinematics gives the world matrix of
//! every part; model nodes that are parts take it, the others (never animated) hang at their rest
//! transform from their parent. What the renderer needs is then only matrices and weights
//! ([`FigureFrame::joints`], [`FigureFrame::weights`]): per drawn mesh, its skin's joint matrices
//! (`jointWorld · inverseBind`) followed by the node's own world matrix, which unskinned
//! primitives use. Vertices are skinned on the GPU; the CPU computes nothing per vertex, and the
//! posed bounds come from each joint's bind-space box of the vertices it moves.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use clipscope_core::model::{MAX_INFLUENCES, MeshInstance, Model};
use clipscope_core::playback::Pose;

use super::{FigureFrame, Rig};

/// The property morph target weights live in.
const MORPHS: &str = "morphTargetInfluences";

/// A model a rig's parts belong to: the model and, for each part, the node it is.
#[derive(Debug, Clone, PartialEq)]
pub struct RigModel {
    /// The model, shared with the document it came from.
    pub model: Arc<Model>,
    /// For each part of the rig (in part order), the model node of the same name.
    pub part_nodes: Vec<Option<usize>>,
}

impl Rig {
    /// This rig showing `model`: its parts matched to the model's nodes by name (do this before
    /// [`Rig::bound_to`] renames parts). A model with nothing to draw is not attached.
    pub fn with_model(mut self, model: Arc<Model>) -> Rig {
        if model.vertex_count() == 0 {
            return self;
        }
        let part_nodes = self
            .parts
            .iter()
            .map(|p| model.node_index(&p.name))
            .collect();
        self.model = Some(RigModel { model, part_nodes });
        self
    }
}

/// What the renderer draws for one mesh instance, and how its frame data is laid out.
#[derive(Debug, Clone)]
struct Draw {
    /// The node, mesh and skin.
    instance: MeshInstance,
    /// The pose node its morph weights are read from (`None` without targets).
    morph_node: Option<String>,
    /// Morph targets of the mesh.
    targets: usize,
    /// For each matrix of its palette (the skin's joints, then the node), the bind-space box of
    /// the vertices it moves (`None`: it moves none).
    boxes: Vec<Option<(Vec3, Vec3)>>,
}

/// A model posed by a skeleton rig (or standing at rest when the file has no skeleton).
#[derive(Debug, Clone)]
pub struct ModelFigure {
    /// The model, shared with the document it came from.
    pub model: Arc<Model>,
    /// The skeleton as bones (what x-ray shows and picking finds), bound to the clip.
    pub rig: Option<Rig>,
    /// The figure's name (the rig's, else the model's first mesh node's).
    name: String,
    /// For each model node, the rig part that moves it.
    node_part: Vec<Option<usize>>,
    /// The model's nodes, parents first.
    order: Vec<usize>,
    /// One per mesh instance, in [`Model::instances`] order.
    draws: Vec<Draw>,
}

impl ModelFigure {
    /// `model` posed by `rig` (whose parts are matched to nodes by its [`RigModel`] when it
    /// carries this model, else by their current names); `name` when there is no rig.
    pub fn new(model: Arc<Model>, rig: Option<Rig>, name: &str) -> ModelFigure {
        let mut node_part = vec![None; model.nodes.len()];
        if let Some(rig) = &rig {
            match &rig.model {
                Some(rm) if Arc::ptr_eq(&rm.model, &model) => {
                    for (p, node) in rm.part_nodes.iter().enumerate() {
                        if let Some(n) = node.filter(|&n| n < node_part.len()) {
                            node_part[n] = Some(p);
                        }
                    }
                }
                _ => {
                    for (n, node) in model.nodes.iter().enumerate() {
                        node_part[n] = rig.part_index(&node.name);
                    }
                }
            }
        }
        let name = match &rig {
            Some(r) => r.name.clone(),
            None => model
                .instances()
                .next()
                .map(|i| model.nodes[i.node].name.clone())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| name.to_string()),
        };
        let draws = model
            .instances()
            .map(|instance| {
                let mesh = &model.meshes[instance.mesh];
                let targets = mesh.target_names.len();
                let morph_node = (targets > 0).then(|| match (&rig, node_part[instance.node]) {
                    (Some(r), Some(p)) => r.parts[p].name.clone(),
                    _ => model.nodes[instance.node].name.clone(),
                });
                Draw {
                    instance,
                    morph_node,
                    targets,
                    boxes: palette_boxes(&model, instance),
                }
            })
            .collect();
        ModelFigure {
            order: model.order(),
            model,
            rig,
            name,
            node_part,
            draws,
        }
    }

    /// The figure's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pose clips play on: the rig's, plus each morphing mesh node's weights (its default
    /// weights) with its target names, so `NODE.morphTargetInfluences[name]` tracks bind.
    pub fn rest_pose(&self) -> Pose {
        let mut pose = match &self.rig {
            Some(rig) => rig.rest_pose(),
            None => Pose::new(self.name.clone()),
        };
        for draw in &self.draws {
            let Some(node) = &draw.morph_node else {
                continue;
            };
            if pose.value(node, MORPHS).is_some() {
                continue;
            }
            let defaults = &self.model.nodes[draw.instance.node].weights;
            let rest: Vec<f64> = (0..draw.targets)
                .map(|k| f64::from(defaults.get(k).copied().unwrap_or(0.0)))
                .collect();
            pose.define(node.clone(), MORPHS, &rest);
            pose.set_morph_targets(node, &self.model.meshes[draw.instance.mesh].target_names);
        }
        pose
    }

    /// `pose` as the renderer needs it, into `out` (cleared by the caller): the bones
    /// ([`FigureFrame::boxes`]), every mesh instance's palette ([`FigureFrame::joints`]) and
    /// morph weights ([`FigureFrame::weights`], `targets` per morphing instance). Nothing when
    /// the rig's root is invisible.
    pub fn frame(&self, pose: &Pose, out: &mut FigureFrame) {
        let start = out.boxes.len();
        if let Some(rig) = &self.rig
            && !rig.world(pose, &mut out.boxes)
        {
            return;
        }
        let world = &mut out.nodes;
        world.clear();
        world.resize(self.model.nodes.len(), Mat4::IDENTITY);
        for &i in &self.order {
            let node = &self.model.nodes[i];
            world[i] = match self.node_part[i] {
                Some(p) => out.boxes[start + p].transform,
                None => {
                    let parent = node.parent.map_or(Mat4::IDENTITY, |p| world[p]);
                    parent * node.rest_local()
                }
            };
        }
        if let Some(rig) = &self.rig {
            rig.shape(start, &mut out.boxes);
        }
        for draw in &self.draws {
            if let Some(s) = draw.instance.skin {
                let skin = &self.model.skins[s];
                for (j, &node) in skin.joints.iter().enumerate() {
                    let ibm = skin.inverse_bind_matrices.get(j).copied();
                    let joint = world.get(node).copied().unwrap_or(Mat4::IDENTITY);
                    out.joints.push(joint * ibm.unwrap_or(Mat4::IDENTITY));
                }
            }
            out.joints.push(world[draw.instance.node]);
            if let Some(node) = &draw.morph_node {
                let values = pose.value(node, MORPHS).unwrap_or(&[]);
                out.weights
                    .extend((0..draw.targets).map(|k| values.get(k).map_or(0.0, |&w| w as f32)));
            }
        }
    }

    /// The world bounds of the posed meshes of `frame` (made by [`ModelFigure::frame`]): each
    /// palette matrix applied to the box of the vertices it moves. Skinned vertices blend
    /// these, so they lie inside; morph targets are counted at weights 0 to 1.
    pub fn bounds(&self, frame: &FigureFrame) -> Option<(Vec3, Vec3)> {
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        let mut at = 0;
        for draw in &self.draws {
            for (k, b) in draw.boxes.iter().enumerate() {
                let (Some((lo, hi)), Some(m)) = (b, frame.joints.get(at + k)) else {
                    continue;
                };
                for corner in 0..8 {
                    let p = Vec3::new(
                        if corner & 1 == 0 { lo.x } else { hi.x },
                        if corner & 2 == 0 { lo.y } else { hi.y },
                        if corner & 4 == 0 { lo.z } else { hi.z },
                    );
                    let w = m.transform_point3(p);
                    if w.is_finite() {
                        min = min.min(w);
                        max = max.max(w);
                    }
                }
            }
            at += draw.boxes.len();
        }
        (min.x <= max.x).then_some((min, max))
    }
}

impl ModelFigure {
    /// The exact world bounds of the posed meshes of `frame`: every vertex skinned on the CPU
    /// ([`Model::posed`]). A pass over the vertices, so it is for framing the camera (a new
    /// clip, F, a review render), not for every frame ([`ModelFigure::bounds`] is the cheap,
    /// looser box).
    pub fn exact_bounds(&self, frame: &FigureFrame) -> Option<(Vec3, Vec3)> {
        let mut per_node: Vec<&[f32]> = vec![&[]; self.model.nodes.len()];
        let mut at = 0;
        for draw in self.draws.iter().filter(|d| d.morph_node.is_some()) {
            let end = (at + draw.targets).min(frame.weights.len());
            per_node[draw.instance.node] = &frame.weights[at.min(end)..end];
            at += draw.targets;
        }
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        for p in self.model.posed(&frame.nodes, |n| per_node[n]) {
            for v in p.positions.iter().map(|v| Vec3::from(*v)) {
                if v.is_finite() {
                    min = min.min(v);
                    max = max.max(v);
                }
            }
        }
        (min.x <= max.x).then_some((min, max))
    }
}

/// For each palette matrix of `instance` (its skin's joints, then its node), the box of the
/// mesh-space vertices it moves, morph offsets included at weights 0 to 1.
fn palette_boxes(model: &Model, instance: MeshInstance) -> Vec<Option<(Vec3, Vec3)>> {
    let joints = instance.skin.map_or(0, |s| model.skins[s].joints.len());
    let mut boxes: Vec<Option<(Vec3, Vec3)>> = vec![None; joints + 1];
    let mut grow = |k: usize, lo: Vec3, hi: Vec3| {
        let b = &mut boxes[k];
        *b = Some(match *b {
            Some((a, c)) => (a.min(lo), c.max(hi)),
            None => (lo, hi),
        });
    };
    for p in &model.meshes[instance.mesh].primitives {
        let skinned = instance.skin.is_some() && p.is_skinned();
        for (v, pos) in p.positions.iter().enumerate() {
            let base = Vec3::from(*pos);
            let (mut lo, mut hi) = (base, base);
            for t in &p.targets {
                if let Some(d) = t.positions.get(v) {
                    let d = Vec3::from(*d);
                    lo += d.min(Vec3::ZERO);
                    hi += d.max(Vec3::ZERO);
                }
            }
            if !(lo.is_finite() && hi.is_finite()) {
                continue;
            }
            if skinned {
                for k in 0..MAX_INFLUENCES {
                    let j = usize::from(p.joints[v][k]);
                    if p.weights[v][k] != 0.0 && j < joints {
                        grow(j, lo, hi);
                    }
                }
            } else {
                grow(joints, lo, hi);
            }
        }
    }
    boxes
}

#[cfg(test)]
mod tests;
