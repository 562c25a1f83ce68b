//! Posing a [`Model`] on the CPU: morph targets, then linear blend skinning, exactly as
//! three.js's `SkinnedMesh.getVertexPosition` computes a vertex (and as the GPU renderer does
//! for every vertex each frame). The reference the render tests and other tools trust; the
//! viewport itself never skins on the CPU.
//!
//! * A skinned primitive (its node has a skin and the primitive has joints and weights):
//!   `Σ wᵢ · jointWorldᵢ · inverseBindᵢ · v` (the node's own transform is not applied).
//! * Any other primitive: `nodeWorld · v`.
//!
//! `v` is the base position plus the morph offsets times the node's weights.

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};

use super::mesh_model::MeshInstance;
use super::{MAX_INFLUENCES, Model, Primitive};

/// One primitive of a mesh instance, posed in the world.
#[derive(Debug, Clone, PartialEq)]
pub struct PosedPrimitive {
    /// The node, mesh and skin it belongs to.
    pub instance: MeshInstance,
    /// The primitive's index in its mesh.
    pub primitive: usize,
    /// World positions, one per vertex.
    pub positions: Vec<[f32; 3]>,
}

/// The vertices one joint moves, at rest: what a tool needs to say how far a joint's skin lies
/// from it (the "shell" a small joint error shows on).
#[derive(Debug, Clone, PartialEq)]
pub struct JointInfluence {
    /// The joint node (index into [`Model::nodes`]).
    pub node: usize,
    /// The joint's world position at rest.
    pub joint: [f32; 3],
    /// Every vertex the joint moves with at least the asked weight: its world position at rest
    /// and the weight.
    pub vertices: Vec<([f32; 3], f32)>,
}

impl Model {
    /// Every primitive of every mesh instance posed: node world matrices `world` (indexed like
    /// [`Model::nodes`], e.g. from [`Model::world_matrices`]) and each mesh node's morph weights
    /// (`weights(node)`; an empty slice takes the node's default weights).
    pub fn posed<'w>(
        &self,
        world: &[Mat4],
        weights: impl Fn(usize) -> &'w [f32],
    ) -> Vec<PosedPrimitive> {
        let mut out = Vec::new();
        let mut joints = Vec::new();
        for instance in self.instances() {
            let node = &self.nodes[instance.node];
            let w = weights(instance.node);
            let w = if w.is_empty() { &node.weights[..] } else { w };
            let node_world = world.get(instance.node).copied().unwrap_or(Mat4::IDENTITY);
            match instance.skin {
                Some(s) => self.skins[s].joint_matrices(world, &mut joints),
                None => joints.clear(),
            }
            for (p, primitive) in self.meshes[instance.mesh].primitives.iter().enumerate() {
                let morphed = primitive.morphed(w);
                let positions = if instance.skin.is_some() && primitive.is_skinned() {
                    skin(primitive, &morphed, &joints)
                } else {
                    morphed
                        .iter()
                        .map(|v| node_world.transform_point3(Vec3::from(*v)).to_array())
                        .collect()
                };
                out.push(PosedPrimitive {
                    instance,
                    primitive: p,
                    positions,
                });
            }
        }
        out
    }

    /// The rest-pose vertices of every skin joint with at least `min_weight` of a vertex, by
    /// joint node (in node order; joints that move no vertex are left out). Positions are
    /// world positions of the model at rest (each node at its rest transform, default morph
    /// weights).
    pub fn rest_influences(&self, min_weight: f32) -> Vec<JointInfluence> {
        let world = self.rest_world();
        let posed = self.posed(&world, |_| &[]);
        let mut by_node: BTreeMap<usize, Vec<([f32; 3], f32)>> = BTreeMap::new();
        for posed in &posed {
            let Some(s) = posed.instance.skin else {
                continue;
            };
            let skin = &self.skins[s];
            let primitive = &self.meshes[posed.instance.mesh].primitives[posed.primitive];
            if !primitive.is_skinned() {
                continue;
            }
            for ((js, ws), p) in primitive
                .joints
                .iter()
                .zip(&primitive.weights)
                .zip(&posed.positions)
            {
                for (&j, &w) in js.iter().zip(ws) {
                    if w > 0.0
                        && w >= min_weight
                        && let Some(&node) = skin.joints.get(usize::from(j))
                    {
                        by_node.entry(node).or_default().push((*p, w));
                    }
                }
            }
        }
        by_node
            .into_iter()
            .map(|(node, vertices)| JointInfluence {
                node,
                joint: world[node].w_axis.truncate().to_array(),
                vertices,
            })
            .collect()
    }
}

/// `positions` (one per vertex of `primitive`) skinned by the joint matrices `joints`
/// (`jointWorld · inverseBind`, indexed like the skin's joints).
fn skin(primitive: &Primitive, positions: &[[f32; 3]], joints: &[Mat4]) -> Vec<[f32; 3]> {
    positions
        .iter()
        .zip(primitive.joints.iter().zip(&primitive.weights))
        .map(|(v, (js, ws))| {
            let v = Vec3::from(*v);
            let mut sum = Vec3::ZERO;
            for k in 0..MAX_INFLUENCES {
                let w = ws[k];
                if w == 0.0 {
                    continue;
                }
                if let Some(m) = joints.get(usize::from(js[k])) {
                    sum += m.transform_point3(v) * w;
                }
            }
            sum.to_array()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Mesh, ModelNode, MorphDelta, Skin};
    use glam::Quat;

    /// A strip of two quads along +y skinned to two joints (`lower` at 0, `upper` at 1), the
    /// middle row shared half and half, on a mesh node moved away (which skinning ignores).
    fn strip() -> Model {
        let mut model = Model::default();
        let mut mesh_node = ModelNode::new("mesh", None);
        mesh_node.translation = [5.0, 0.0, 0.0];
        mesh_node.mesh = Some(0);
        mesh_node.skin = Some(0);
        model.nodes.push(mesh_node);
        model.nodes.push(ModelNode::new("lower", None));
        let mut upper = ModelNode::new("upper", Some(1));
        upper.translation = [0.0, 1.0, 0.0];
        model.nodes.push(upper);
        let j = |a: u16| {
            let mut out = [0u16; MAX_INFLUENCES];
            out[0] = a;
            out[1] = 1;
            out
        };
        let w = |a: f32| {
            let mut out = [0.0; MAX_INFLUENCES];
            out[0] = a;
            out[1] = 1.0 - a;
            out
        };
        model.meshes.push(Mesh {
            primitives: vec![Primitive {
                positions: vec![
                    [0.0, 0.0, 0.0],
                    [1.0, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    [1.0, 1.0, 0.0],
                    [0.0, 2.0, 0.0],
                    [1.0, 2.0, 0.0],
                ],
                joints: vec![j(0), j(0), j(0), j(0), j(0), j(0)],
                weights: vec![w(1.0), w(1.0), w(0.5), w(0.5), w(0.0), w(0.0)],
                triangles: vec![[0, 1, 3], [0, 3, 2], [2, 3, 5], [2, 5, 4]],
                targets: vec![MorphDelta {
                    positions: vec![[0.0, 0.0, 1.0]; 6],
                    normals: vec![],
                }],
                ..Primitive::default()
            }],
            target_names: vec!["push".into()],
            weights: vec![],
            ..Mesh::default()
        });
        model.skins.push(Skin {
            joints: vec![1, 2],
            inverse_bind_matrices: vec![
                Mat4::IDENTITY,
                Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
            ],
            ..Skin::default()
        });
        model
    }

    #[test]
    fn at_rest_the_skin_sits_where_it_was_bound() {
        let model = strip();
        let world = model.rest_world();
        let posed = model.posed(&world, |_| &[]);
        assert_eq!(posed.len(), 1);
        assert_eq!(
            posed[0].positions, model.meshes[0].primitives[0].positions,
            "the mesh node's own offset does not move a skinned mesh"
        );
    }

    #[test]
    fn bending_the_upper_joint_bends_the_top_and_half_the_middle() {
        let model = strip();
        let bend = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let world = model.world_matrices(|i| {
            let rest = model.nodes[i].rest_local();
            if i == 2 {
                rest * Mat4::from_quat(bend)
            } else {
                rest
            }
        });
        let weights = [1.0f32];
        let posed = model.posed(&world, |_| &weights);
        let p = &posed[0].positions;
        // Morph first (+1 in z), then skin: the top row turns about (0, 1) by 90°.
        let close = |a: [f32; 3], b: [f32; 3]| Vec3::from(a).abs_diff_eq(Vec3::from(b), 1e-6);
        assert!(close(p[0], [0.0, 0.0, 1.0]), "{:?}", p[0]);
        assert!(close(p[5], [-1.0, 2.0, 1.0]), "{:?}", p[5]);
        // The middle row is half rest, half bent: (1, 1) and (0, 2) averaged.
        assert!(close(p[3], [0.5, 1.5, 1.0]), "{:?}", p[3]);
    }

    #[test]
    fn rest_influences_list_each_joints_vertices() {
        let model = strip();
        let shells = model.rest_influences(0.25);
        assert_eq!(shells.len(), 2);
        assert_eq!(shells[0].node, 1);
        assert_eq!(shells[0].joint, [0.0, 0.0, 0.0]);
        assert_eq!(shells[0].vertices.len(), 4);
        assert_eq!(shells[1].node, 2);
        assert_eq!(shells[1].joint, [0.0, 1.0, 0.0]);
        assert_eq!(shells[1].vertices.len(), 4);
        assert!(shells[1].vertices.contains(&([1.0, 2.0, 0.0], 1.0)));
        assert_eq!(model.rest_influences(0.75)[1].vertices.len(), 2);
    }
}
