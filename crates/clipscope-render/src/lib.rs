//! The 3D viewport's renderer (feature `gui` of the app): wgpu drawing instanced boxes,
//! GPU-blended morph meshes and GPU-skinned models (textured, vertex-coloured) on a soft-lit
//! ground into its own offscreen target, which the
//! viewport panel shows and headless callers read back.
//!
//! The picture follows the house look: a warm vertical backdrop gradient, flat-shaded boxes lit
//! by a soft directional key light (with a filtered shadow map) plus a fill light and
//! hemispheric ambient, a ground plane that catches the shadows and carries a grid that fades
//! with distance, and gentle fog that melts the far ground into the backdrop. Shaders live in
//! `shaders/*.wgsl`.
//!
//! - [`Renderer`]: GPU resources that live between frames; `render` draws a [`Frame`] (boxes
//!   and a morph mesh, see [`MeshDraw`]).
//! - [`Camera`]: the orbit camera; [`Bounds`] to frame what is drawn; [`pick`] finds the box
//!   under the pointer.
//! - [`Look`]: the colours and strengths.
//! - [`Headless`] and [`render_rgba`]: a device of its own and frames as images, for the CLI
//!   and tests; [`find_adapter`] and [`check_adapter`] say which GPU adapter that uses;
//!   [`RenderError`] says why it failed.
//! - [`rasterise`]: a 2D vector [`Picture`](clipscope_core::model::picture::Picture) (a Lottie
//!   composition's artwork) drawn on the CPU with vello_cpu, for `render --view front` and the
//!   viewport's texture of it.
//! - [`InstanceBuffer`]: the boxes of a frame as a GPU vertex buffer.
//!
//! # Example
//!
//! Frame a box with the camera and find it under the middle of the picture (no GPU needed):
//!
//! ```
//! use clipscope_render::{Camera, Frame, pick};
//! use clipscope_scene::BoxInstance;
//! use glam::{Mat4, Vec2, Vec3};
//!
//! let boxes = [BoxInstance {
//!     transform: Mat4::from_translation(Vec3::new(0.0, 0.5, 0.0)),
//!     colour: [0.8, 0.5, 0.3],
//!     taper: 0.0,
//! }];
//! let frame = Frame::boxes(&boxes);
//! let mut camera = Camera::default();
//! camera.frame_aspect(frame.bounds().expect("one box"), 4.0 / 3.0);
//! assert_eq!(pick(&boxes, &camera, 4.0 / 3.0, Vec2::ZERO), Some(0));
//! ```
//!
//! Then draw it without a window, as `clipscope render` does (this needs a GPU adapter, even a
//! software one such as Mesa's lavapipe):
//!
//! ```no_run
//! # use clipscope_render::{Camera, Frame};
//! # let (frame, camera) = (Frame::default(), Camera::default());
//! use clipscope_render::{Headless, RenderError};
//!
//! let mut headless = Headless::new()?;
//! let picture = headless.render(&frame, &camera, 320, 240)?;
//! assert_eq!(picture.dimensions(), (320, 240));
//! # Ok::<(), RenderError>(())
//! ```

mod bounds;
mod camera;
mod error;
mod frame;
mod globals;
mod headless;
mod instances;
mod look;
mod mesh;
mod morph;
mod pick;
mod picture;
mod pipelines;
mod readback;
mod renderer;
mod shadow;
mod skin;
mod target;

pub use bounds::Bounds;
pub use camera::Camera;
pub use error::RenderError;
pub use frame::{Frame, MeshDraw, ModelDraw};
pub use headless::{Headless, check_adapter, find_adapter, render_rgba};
pub use instances::InstanceBuffer;
pub use look::Look;
pub use pick::pick;
pub use picture::{MAX_SIDE, Rasteriser, fit_view, rasterise, rasterise_premultiplied};
pub use renderer::Renderer;
