//! What one frame draws: boxes, and optionally a morph mesh with its target weights and a
//! model with its palettes and weights.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::Bounds;
use clipscope_core::model::{Model, MorphMesh};
use clipscope_scene::{BoxInstance, Figure, FigureFrame};

/// The contents of one frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct Frame<'a> {
    /// Boxes to draw.
    pub boxes: &'a [BoxInstance],
    /// A morph mesh to draw.
    pub mesh: Option<MeshDraw<'a>>,
    /// A model to draw.
    pub model: Option<ModelDraw<'a>>,
    /// Draw the boxes over everything else (a model's bones seen through its skin: x-ray).
    pub boxes_on_top: bool,
}

/// A model in a frame: which model, and its posed palettes and morph weights.
#[derive(Debug, Clone, Copy)]
pub struct ModelDraw<'a> {
    /// The model (uploaded once; a different `Arc` uploads again).
    pub model: &'a Arc<Model>,
    /// The palettes ([`FigureFrame::joints`]).
    pub joints: &'a [Mat4],
    /// The morph weights ([`FigureFrame::weights`]).
    pub weights: &'a [f32],
    /// World bounds of the posed meshes.
    pub bounds: Bounds,
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
        Frame {
            boxes,
            ..Frame::default()
        }
    }

    /// The frame showing `figure` posed as `posed` (a model without its bones: see
    /// [`Frame::with_bones`]).
    pub fn of(figure: &'a Figure, posed: &'a FigureFrame) -> Frame<'a> {
        let mesh = match figure {
            Figure::Mesh(m) => Some(MeshDraw {
                mesh: &m.mesh,
                transform: m.transform,
                weights: &posed.weights,
                bounds: Bounds::new(m.bounds.0, m.bounds.1),
            }),
            _ => None,
        };
        let model = match figure {
            Figure::Model(m) => Some(ModelDraw {
                model: &m.model,
                joints: &posed.joints,
                weights: &posed.weights,
                bounds: m
                    .bounds(posed)
                    .map_or_else(Bounds::unit, |(lo, hi)| Bounds::new(lo, hi)),
            }),
            _ => None,
        };
        Frame {
            boxes: if model.is_some() { &[] } else { &posed.boxes },
            mesh,
            model,
            boxes_on_top: false,
        }
    }

    /// The same frame with a model's bones (`posed.boxes`) drawn on top of it; other frames
    /// are unchanged.
    pub fn with_bones(mut self, posed: &'a FigureFrame) -> Frame<'a> {
        if self.model.is_some() {
            self.boxes = &posed.boxes;
            self.boxes_on_top = true;
        }
        self
    }

    /// The bounds the camera frames `figure` posed as `posed` by: a model's exact bounds (its
    /// vertices skinned on the CPU, see `ModelFigure::exact_bounds`), else the bounds of what
    /// its frame draws.
    pub fn framing_bounds(figure: &Figure, posed: &FigureFrame) -> Option<Bounds> {
        match figure {
            Figure::Model(m) => m.exact_bounds(posed).map(|(lo, hi)| Bounds::new(lo, hi)),
            _ => Frame::of(figure, posed).bounds(),
        }
    }

    /// The bounds of everything drawn, if anything is.
    pub fn bounds(&self) -> Option<Bounds> {
        [
            Bounds::of_instances(self.boxes),
            self.mesh.map(|m| m.bounds),
            self.model.map(|m| m.bounds),
        ]
        .into_iter()
        .flatten()
        .reduce(Bounds::union)
    }
}

impl Bounds {
    /// A unit cube around the origin, for empty frames.
    pub(crate) fn unit() -> Bounds {
        Bounds::new(Vec3::splat(-0.5), Vec3::splat(0.5))
    }
}
