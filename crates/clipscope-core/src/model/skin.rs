//! A skin of a [`Model`](super::Model): the joints a skinned mesh follows and each joint's
//! inverse bind matrix.
//!
//! Linear blend skinning (glTF 2.0 §3.7.3, three.js's `SkinnedMesh`): a vertex `v` of a
//! skinned primitive lands at `Σ wᵢ · jointWorldᵢ · inverseBindᵢ · v` in the world, where
//! `jointWorldᵢ` is the posed world matrix of the node its `i`-th influence names. The skinned
//! node's own transform does not move the mesh (three.js binds it with an identity bind matrix
//! and cancels its world matrix the same way).

use glam::Mat4;

/// The joints of a skinned mesh and how the mesh sat relative to each when it was bound.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skin {
    /// The skin's name in the file (may be empty).
    pub name: String,
    /// The joint nodes, as indices into [`Model::nodes`](super::Model::nodes); a primitive's
    /// [`joints`](super::Primitive::joints) index this list.
    pub joints: Vec<usize>,
    /// One matrix per joint taking the mesh's space to the joint's space at bind time
    /// (identity where the file gives none).
    pub inverse_bind_matrices: Vec<Mat4>,
    /// The node the file names as the skeleton's root (`skin.skeleton`), if any; informative.
    pub skeleton: Option<usize>,
}

impl Skin {
    /// The skinning matrix of every joint, `jointWorld · inverseBind`, from the posed world
    /// matrix of every node (`world`, indexed like [`Model::nodes`](super::Model::nodes)),
    /// written into `out` (cleared first). A joint index outside `world` gives identity.
    pub fn joint_matrices(&self, world: &[Mat4], out: &mut Vec<Mat4>) {
        out.clear();
        out.extend(self.joints.iter().enumerate().map(|(j, &node)| {
            let ibm = self
                .inverse_bind_matrices
                .get(j)
                .copied()
                .unwrap_or(Mat4::IDENTITY);
            world.get(node).copied().unwrap_or(Mat4::IDENTITY) * ibm
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn joint_matrices_undo_the_bind_and_follow_the_joint() {
        let bind = Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0));
        let skin = Skin {
            joints: vec![1],
            inverse_bind_matrices: vec![bind.inverse()],
            ..Skin::default()
        };
        let posed = Mat4::from_translation(Vec3::new(2.0, 1.0, 0.0));
        let mut out = Vec::new();
        skin.joint_matrices(&[Mat4::IDENTITY, posed], &mut out);
        // A vertex at the joint's bind position lands at the joint's posed position.
        let v = out[0].transform_point3(Vec3::new(0.0, 1.0, 0.0));
        assert_eq!(v, Vec3::new(2.0, 1.0, 0.0));
    }
}
