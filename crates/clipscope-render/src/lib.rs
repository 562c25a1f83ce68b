//! The 3D viewport's renderer (feature `gui`): wgpu drawing instanced boxes and GPU-blended
//! morph meshes on a soft-lit ground into its own offscreen target, which the viewport panel shows and headless callers
//! read back.
//!
//! The picture follows the house look: a warm vertical backdrop gradient, flat-shaded boxes lit
//! by a soft directional key light (with a filtered shadow map) plus a fill light and
//! hemispheric ambient, a ground plane that catches the shadows and carries a grid that fades
//! with distance, and gentle fog that melts the far ground into the backdrop. Shaders live in
//! `shaders/*.wgsl`.
//!
//! - [`Renderer`]: GPU resources that live between frames; `render` draws a [`Frame`].
//! - [`Camera`]: the orbit camera; [`Bounds`] to frame what is drawn.
//! - [`Look`]: the colours and strengths.
//! - [`headless`]: a device of its own and frames as images, for the CLI and tests;
//!   [`RenderError`] says why it failed.
//! - [`InstanceBuffer`]: the boxes of a frame as a GPU vertex buffer.

pub mod bounds;
pub mod camera;
mod error;
mod frame;
mod globals;
pub mod headless;
pub mod instances;
pub mod look;
mod mesh;
mod morph;
pub mod pick;
mod pipelines;
mod readback;
mod renderer;
mod shadow;
mod target;

pub use bounds::Bounds;
pub use camera::Camera;
pub use error::RenderError;
pub use frame::{Frame, MeshDraw};
pub use instances::InstanceBuffer;
pub use look::Look;
pub use pick::pick;
pub use renderer::Renderer;
