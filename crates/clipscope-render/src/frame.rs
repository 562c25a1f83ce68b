//! What one frame draws: boxes, and optionally a morph mesh with its target weights.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::Bounds;
use clipscope_core::model::MorphMesh;
use clipscope_scene::{BoxInstance, Figure, FigureFrame};

/// The contents of one frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct Frame<'a> {
    /// Boxes to draw.
    pub boxes: &'a [BoxInstance],
    /// A morph mesh to draw.
    pub mesh: Option<MeshDraw<'a>>,
}

/// A morph mesh in a frame: which mesh, where, and how much of each target.
#[derive(Debug, Clone, Copy)]
pub struct MeshDraw<'a> {
    /// The mesh (uploaded once; a different `Arc` uploads again).
    pub mesh: &'a Arc<MorphMesh>,
    /// Mesh → world.
    pub transform: Mat4,
    /// One weight per target.
    pub weights: &'a [f32],
    /// World bounds to frame and fit the shadow to (over every target, so they do not jump).
    pub bounds: Bounds,
}

impl<'a> Frame<'a> {
    /// A frame of boxes only.
    pub fn boxes(boxes: &'a [BoxInstance]) -> Frame<'a> {
        Frame { boxes, mesh: None }
    }

    /// The frame showing `figure` posed as `posed`.
    pub fn of(figure: &'a Figure, posed: &'a FigureFrame) -> Frame<'a> {
        let mesh = match figure {
            Figure::Rig(_) | Figure::Layers(_) => None,
            Figure::Mesh(m) => Some(MeshDraw {
                mesh: &m.mesh,
                transform: m.transform,
                weights: &posed.weights,
                bounds: Bounds::new(m.bounds.0, m.bounds.1),
            }),
        };
        Frame {
            boxes: &posed.boxes,
            mesh,
        }
    }

    /// The bounds of everything drawn, if anything is.
    pub fn bounds(&self) -> Option<Bounds> {
        let boxes = Bounds::of_instances(self.boxes);
        let mesh = self.mesh.map(|m| m.bounds);
        match (boxes, mesh) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Bounds {
    /// A unit cube around the origin, for empty frames.
    pub(crate) fn unit() -> Bounds {
        Bounds::new(Vec3::splat(-0.5), Vec3::splat(0.5))
    }
}
