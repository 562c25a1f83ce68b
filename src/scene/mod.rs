//! What the viewport shows: cube-built rigs (from data or made up for a skeletal clip), their
//! poses, and the boxes the renderer draws for them.
//!
//! A rig is a tree of named parts; a clip plays on it through [`crate::playback`], which writes
//! the animated properties into a [`Pose`](crate::playback::Pose); forward kinematics turns the
//! pose into one [`BoxInstance`] per part for the renderer.

pub mod colour;
pub mod instance;
mod standin;

pub use instance::BoxInstance;

use crate::model::Clip;

/// The boxes of `clip` posed at `time` seconds: what the viewport and `clipscope render` draw.
pub fn posed_instances(clip: &Clip, time: f64) -> Vec<BoxInstance> {
    standin::standin_instances(clip, time)
}
