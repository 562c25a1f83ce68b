//! One box to draw: the unit of the renderer's instanced drawing.

use glam::Mat4;

/// A box to draw: the unit cube (−0.5…0.5 on each axis) transformed by `transform` (which
/// includes the box's size, its rest offset and the posed world transform), in a flat colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxInstance {
    /// Unit cube → world.
    pub transform: Mat4,
    /// Linear RGB, 0–1.
    pub colour: [f32; 3],
    /// How much the box narrows toward its +y end (0: a box; 0.7: a bone, its far end 30% as
    /// wide as its joint end).
    pub taper: f32,
}
