//! Procedural cycles: walk and run cycles written as formulas of one master phase, tuned with
//! sliders, previewed live and baked into ordinary clips.
//!
//! Hand-written game characters animate this way: an angle `t` advances every frame, and each
//! part of a cube character follows a trig formula of it (the seed's Hero run:
//! `legR.position.x = cos(t)·amp`, `legR.position.y = max(0, −sin(t)·amp)`, the left leg half a
//! cycle later, the torso bobbing at twice the rate). Here that is data: a [`Cycle`] (read from
//! `assets/cycles/*.json`, [`schema`]) names a built-in rig, its [`Parameter`]s (speed,
//! amplitudes, multipliers, phase offsets, each with a range and a default) and one
//! [`Expression`] per animated channel. [`Cycle::evaluate`] gives every channel at a phase;
//! [`Cycle::bake`] samples whole cycles at a frame rate into a seamlessly looping [`Clip`](clipscope_core::model::Clip)
//! (clipscope_core::model::Clip); [`Cycle::seam_jumps`] finds formulas that do not come back where they
//! started; [`preset`] saves and loads parameter values.

pub mod bake;
pub mod cycle;
pub mod expression;
pub mod preset;
pub mod schema;
pub mod seam;

pub use bake::{BakeOptions, Baked, quaternion_from_euler_xyz};
pub use cycle::{Channel, Cycle, CycleError, Parameter, Property, SPEED};
pub use expression::{Expression, ExpressionError, FUNCTIONS};
pub use preset::{ParameterError, Preset, PresetError, randomize, set_from_text};
pub use seam::{SEAM_TOLERANCE, SeamJump};
