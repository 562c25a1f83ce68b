//! A file's 3D model: its node tree, the meshes hanging from nodes, the skins that deform them,
//! their materials and images, as glTF describes a scene and three.js builds one from it.
//!
//! Readers fill it (glTF meshes, skins and materials; a legacy three.js skinned model); the
//! viewport and `clipscope render` draw it, posed by the same clips that move its nodes; other
//! tools read it (vertex positions, skin influences, inverse bind matrices). Nodes carry the
//! track names clips address them by, so a clip's `NODE.quaternion` moves
//! `nodes[i]` where `nodes[i].name == "NODE"`.
//!
//! The CPU reference of how a posed model deforms is [`Model::posed`] (morph targets, then
//! linear blend skinning; see [`skinning`](super::skinning)); the GPU renderer does the same per
//! vertex.
//!
//! ```
//! use clipscope_core::model::{Mesh, Model, ModelNode, Primitive};
//!
//! let mut model = Model::default();
//! model.meshes.push(Mesh {
//!     primitives: vec![Primitive {
//!         positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
//!         triangles: vec![[0, 1, 2]],
//!         ..Primitive::default()
//!     }],
//!     ..Mesh::default()
//! });
//! let mut node = ModelNode::new("Triangle", None);
//! node.translation = [0.0, 2.0, 0.0];
//! node.mesh = Some(0);
//! model.nodes.push(node);
//!
//! let world = model.rest_world();
//! let posed = model.posed(&world, |_| &[]);
//! assert_eq!(posed[0].positions[2], [0.0, 3.0, 0.0]);
//! ```

use glam::{Mat4, Quat, Vec3};

use super::{Image, Material, Mesh, Skin};

/// A 3D model: nodes, meshes, skins, materials and images.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    /// Every node of the file, in file order (a glTF file's `nodes`; a legacy model's mesh and
    /// then its bones).
    pub nodes: Vec<ModelNode>,
    /// The meshes nodes refer to.
    pub meshes: Vec<Mesh>,
    /// The skins nodes refer to.
    pub skins: Vec<Skin>,
    /// The materials primitives refer to.
    pub materials: Vec<Material>,
    /// The images textures refer to.
    pub images: Vec<Image>,
    /// What the reader could not use, one line each with the JSON path (`images[0]: …`): the
    /// model is drawn without it.
    pub notes: Vec<String>,
}

/// One node: its name, parent, rest transform and what hangs from it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelNode {
    /// The name tracks address the node by (unique within the model).
    pub name: String,
    /// The parent node's index; `None` for a root. Parents form no cycle.
    pub parent: Option<usize>,
    /// Rest translation relative to the parent.
    pub translation: [f32; 3],
    /// Rest rotation relative to the parent, a quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Rest scale.
    pub scale: [f32; 3],
    /// The mesh drawn at this node, as an index into [`Model::meshes`].
    pub mesh: Option<usize>,
    /// The skin that deforms the node's mesh, as an index into [`Model::skins`].
    pub skin: Option<usize>,
    /// The node's default morph target weights (`node.weights`, else the mesh's); empty: 0.
    pub weights: Vec<f32>,
}

impl ModelNode {
    /// A node at its parent's origin, unrotated, unscaled, with nothing attached.
    pub fn new(name: impl Into<String>, parent: Option<usize>) -> ModelNode {
        ModelNode {
            name: name.into(),
            parent,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            mesh: None,
            skin: None,
            weights: Vec::new(),
        }
    }

    /// The rest transform `T · R · S` relative to the parent (a non-finite part is left out).
    pub fn rest_local(&self) -> Mat4 {
        let t = Vec3::from(self.translation);
        let q = Quat::from_array(self.rotation);
        let s = Vec3::from(self.scale);
        Mat4::from_scale_rotation_translation(
            if s.is_finite() { s } else { Vec3::ONE },
            if q.is_finite() && q.length_squared() > 0.0 {
                q.normalize()
            } else {
                Quat::IDENTITY
            },
            if t.is_finite() { t } else { Vec3::ZERO },
        )
    }
}

/// A mesh drawn at a node: the node, the mesh and the skin deforming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshInstance {
    /// The node (index into [`Model::nodes`]).
    pub node: usize,
    /// The mesh (index into [`Model::meshes`]).
    pub mesh: usize,
    /// The skin (index into [`Model::skins`]), when the node has one.
    pub skin: Option<usize>,
}

impl Model {
    /// The nodes in an order where every parent comes before its children.
    pub fn order(&self) -> Vec<usize> {
        let n = self.nodes.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            match node.parent {
                Some(p) if p < n && p != i => children[p].push(i),
                _ => roots.push(i),
            }
        }
        let mut out = Vec::with_capacity(n);
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(children[i].iter().rev());
        }
        out
    }

    /// The world matrix of every node from each node's local matrix (`local(i)`), composed
    /// down the tree. Nodes caught in a parent cycle (which readers never make) stay at
    /// identity.
    pub fn world_matrices(&self, mut local: impl FnMut(usize) -> Mat4) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; self.nodes.len()];
        for i in self.order() {
            let parent = self.nodes[i]
                .parent
                .and_then(|p| world.get(p).copied())
                .unwrap_or(Mat4::IDENTITY);
            world[i] = parent * local(i);
        }
        world
    }

    /// The world matrix of every node at rest.
    pub fn rest_world(&self) -> Vec<Mat4> {
        self.world_matrices(|i| self.nodes[i].rest_local())
    }

    /// The meshes drawn, one per node with a valid mesh, in node order.
    pub fn instances(&self) -> impl Iterator<Item = MeshInstance> + '_ {
        self.nodes.iter().enumerate().filter_map(|(node, n)| {
            let mesh = n.mesh.filter(|&m| m < self.meshes.len())?;
            Some(MeshInstance {
                node,
                mesh,
                skin: n.skin.filter(|&s| s < self.skins.len()),
            })
        })
    }

    /// The index of the node named `name`.
    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.name == name)
    }

    /// Vertices drawn: every primitive of every mesh instance.
    pub fn vertex_count(&self) -> usize {
        self.instances()
            .flat_map(|i| &self.meshes[i.mesh].primitives)
            .map(|p| p.positions.len())
            .sum()
    }

    /// Triangles drawn: every primitive of every mesh instance.
    pub fn triangle_count(&self) -> usize {
        self.instances()
            .flat_map(|i| &self.meshes[i.mesh].primitives)
            .map(|p| p.triangles.len())
            .sum()
    }

    /// Whether any drawn primitive is deformed by a skin.
    pub fn is_skinned(&self) -> bool {
        self.instances().any(|i| {
            i.skin.is_some()
                && self.meshes[i.mesh]
                    .primitives
                    .iter()
                    .any(|p| p.is_skinned())
        })
    }

    /// Textures the materials use (distinct images).
    pub fn texture_count(&self) -> usize {
        let mut used: Vec<usize> = self
            .materials
            .iter()
            .filter_map(|m| m.texture.map(|t| t.image))
            .collect();
        used.sort_unstable();
        used.dedup();
        used.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_come_first_and_worlds_compose() {
        let mut model = Model::default();
        let mut child = ModelNode::new("child", Some(1));
        child.translation = [1.0, 0.0, 0.0];
        model.nodes.push(child);
        let mut root = ModelNode::new("root", None);
        root.scale = [2.0; 3];
        model.nodes.push(root);
        let mut mid = ModelNode::new("mid", Some(1));
        mid.translation = [0.0, 1.0, 0.0];
        model.nodes.push(mid);
        model.nodes[0].parent = Some(2);
        assert_eq!(model.order(), [1, 2, 0]);
        let world = model.rest_world();
        assert_eq!(
            world[0].transform_point3(Vec3::ZERO),
            Vec3::new(2.0, 2.0, 0.0)
        );
        assert_eq!(model.node_index("mid"), Some(2));
    }

    #[test]
    fn counts_follow_the_instances() {
        use crate::model::{Primitive, TextureRef};
        let mut model = Model::default();
        model.meshes.push(Mesh {
            primitives: vec![Primitive {
                positions: vec![[0.0; 3]; 3],
                triangles: vec![[0, 1, 2]],
                ..Primitive::default()
            }],
            ..Mesh::default()
        });
        assert_eq!(model.vertex_count(), 0, "a mesh no node shows is not drawn");
        let mut a = ModelNode::new("a", None);
        a.mesh = Some(0);
        model.nodes.push(a.clone());
        a.name = "b".into();
        model.nodes.push(a);
        assert_eq!((model.vertex_count(), model.triangle_count()), (6, 2));
        assert!(!model.is_skinned());
        let texture = TextureRef {
            image: 0,
            tex_coord: 0,
            sampler: Default::default(),
        };
        for _ in 0..2 {
            model.materials.push(Material {
                texture: Some(texture),
                ..Material::default()
            });
        }
        assert_eq!(model.texture_count(), 1);
    }
}
