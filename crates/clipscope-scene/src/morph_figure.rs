//! A morph mesh as the viewport shows it: the mesh standing on the ground, a pose whose root
//! carries one `morphTargetInfluences` weight per target, and the weights read back each frame
//! for the GPU to blend.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use clipscope_core::model::MorphMesh;
use clipscope_core::playback::Pose;

/// The name of a mesh's pose root when the mesh has none.
const UNNAMED: &str = "mesh";

/// A morph mesh placed in the scene: centred over the origin and standing on the ground
/// (its lowest point over every target at height 0).
#[derive(Debug, Clone)]
pub struct MorphFigure {
    /// The mesh, shared with the document it came from.
    pub mesh: Arc<MorphMesh>,
    /// Mesh → world.
    pub transform: Mat4,
    /// World-space bounds over the base shape and every target (so framing does not jump).
    pub bounds: (Vec3, Vec3),
}

impl MorphFigure {
    /// `mesh` placed on the ground.
    pub fn new(mesh: Arc<MorphMesh>) -> MorphFigure {
        let (min, max) = local_bounds(&mesh);
        let centre = (min + max) * 0.5;
        let transform = Mat4::from_translation(Vec3::new(-centre.x, -min.y, -centre.z));
        let bounds = (
            transform.transform_point3(min),
            transform.transform_point3(max),
        );
        MorphFigure {
            mesh,
            transform,
            bounds,
        }
    }

    /// The pose root's name: the mesh's name, or `mesh`.
    pub fn name(&self) -> &str {
        if self.mesh.name.is_empty() {
            UNNAMED
        } else {
            &self.mesh.name
        }
    }

    /// The rest pose: the root with `morphTargetInfluences` (all 0) and the target names as its
    /// morph dictionary, so `.morphTargetInfluences[name]` and `[index]` tracks bind.
    pub fn rest_pose(&self) -> Pose {
        let mut pose = Pose::new(self.name());
        pose.define(
            self.name().to_string(),
            "morphTargetInfluences",
            &vec![0.0; self.mesh.targets.len()],
        );
        pose.set_morph_targets(self.name(), &self.mesh.target_names());
        pose
    }

    /// The target weights in `pose` (one per target), written into `out`.
    pub fn weights(&self, pose: &Pose, out: &mut Vec<f32>) {
        out.clear();
        match pose.value(self.name(), "morphTargetInfluences") {
            Some(values) => out.extend(values.iter().map(|&w| w as f32)),
            None => out.resize(self.mesh.targets.len(), 0.0),
        }
    }
}

/// The mesh's bounds over its base shape and all targets, in mesh space.
fn local_bounds(mesh: &MorphMesh) -> (Vec3, Vec3) {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    let all = std::iter::once(&mesh.vertices).chain(mesh.targets.iter().map(|t| &t.vertices));
    for v in all.flatten() {
        let p = Vec3::from(*v);
        if p.is_finite() {
            min = min.min(p);
            max = max.max(p);
        }
    }
    if min.x > max.x {
        (Vec3::ZERO, Vec3::ZERO)
    } else {
        (min, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::MorphTarget;

    fn mesh() -> Arc<MorphMesh> {
        Arc::new(MorphMesh {
            name: "blob".into(),
            vertices: vec![[1.0, 2.0, 3.0], [3.0, 4.0, 5.0], [1.0, 4.0, 3.0]],
            triangles: vec![[0, 1, 2]],
            triangle_colours: vec![],
            targets: vec![MorphTarget {
                name: "squash".into(),
                vertices: vec![[1.0, 1.0, 3.0], [3.0, 4.0, 5.0], [1.0, 4.0, 3.0]],
            }],
        })
    }

    #[test]
    fn stands_on_the_ground_over_every_target() {
        let f = MorphFigure::new(mesh());
        assert_eq!(f.bounds.0, Vec3::new(-1.0, 0.0, -1.0));
        assert_eq!(f.bounds.1, Vec3::new(1.0, 3.0, 1.0));
    }

    #[test]
    fn tracks_bind_by_target_name_and_weights_come_back() {
        use clipscope_core::model::{Clip, Track, TrackKind};
        use clipscope_core::playback::Mixer;
        let f = MorphFigure::new(mesh());
        let clip = Arc::new(Clip::new(
            "c",
            -1.0,
            vec![Track::numeric(
                ".morphTargetInfluences[squash]",
                TrackKind::Number,
                vec![0.0, 1.0],
                vec![0.0, 1.0],
            )],
        ));
        let mut mixer = Mixer::new(f.rest_pose());
        let id = mixer.clip_action(&clip);
        mixer.action_mut(id).play();
        assert!(mixer.unbound_tracks().is_empty());
        mixer.update(0.25);
        let mut w = Vec::new();
        f.weights(mixer.pose(), &mut w);
        assert_eq!(w, vec![0.25]);
    }
}
