//! Time → pose: three.js r187's animation mixer, bit for bit.
//!
//! A [`Mixer`] plays [`AnimationAction`]s (one per clip) on a [`Pose`], the flat store of node
//! properties that stands in for three.js's scene graph. Each track is bound by name to a
//! property ([`PropertyBinding`], three.js's track-name grammar); each bound property gets a
//! [`PropertyMixer`] that blends the values of every action writing to it, normally (weighted
//! average, filled up with the original value) or additively. Actions loop once, repeat or
//! ping-pong, fade and warp, and report `finished` and `loop` [`MixerEvent`]s.
//!
//! | three.js | here |
//! |---|---|
//! | `PropertyBinding` | [`property_binding`] |
//! | `PropertyMixer` | [`property_mixer`] |
//! | `AnimationAction` | [`action`] (state and update), [`ActionMut`] (methods) |
//! | `AnimationMixer` | [`mixer`] |
//! | control interpolants | [`control_interpolant`] |
//! | `Object3D` properties | [`pose`] |
//!
//! Arithmetic and evaluation order follow the spec (`threejs.md` §6–§9) so that the pose
//! matches what three.js computes for the same updates.

pub(crate) mod action;
pub(crate) mod control_interpolant;
pub(crate) mod event;
pub(crate) mod loop_mode;
pub(crate) mod mixer;
pub(crate) mod pose;
pub(crate) mod property_binding;
pub(crate) mod property_mixer;

pub use action::{ActionId, AnimationAction};
pub use control_interpolant::ControlInterpolant;
pub use event::MixerEvent;
pub use loop_mode::LoopMode;
pub use mixer::{ActionMut, Mixer, MixerStats, UnboundTrack};
pub use pose::{Pose, PropertyKey, PropertyValue};
pub use property_binding::{BindError, PropertyBinding};
pub use property_mixer::{MixKind, PropertyMixer};

#[cfg(test)]
pub(crate) mod test_support;
