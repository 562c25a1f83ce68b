//! What the viewport shows: cube-built rigs (from data or made up for a skeletal clip), their
//! poses, and the boxes the renderer draws for them.
//!
//! A rig is a tree of named parts; a clip plays on it through [`crate::playback`], which writes
//! the animated properties into a [`Pose`](crate::playback::Pose); forward kinematics turns the
//! pose into one [`BoxInstance`] per part for the renderer.

pub mod instance;

pub use instance::BoxInstance;
