//! What happened to actions during a mixer update (three.js's `finished` and `loop` events).
//!
//! three.js dispatches these synchronously from inside `AnimationMixer.update`; clipscope
//! returns them, in dispatch order, as the result of [`Mixer::update`](super::Mixer::update).

use super::ActionId;

/// One event of a mixer update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MixerEvent {
    /// The action stopped at the end (or the start, playing backwards) of its last loop.
    Finished {
        /// The action.
        action: ActionId,
        /// `1` playing forwards, `-1` backwards.
        direction: i8,
    },
    /// The action wrapped around and carries on.
    Loop {
        /// The action.
        action: ActionId,
        /// How many loops the step crossed (signed: negative when playing backwards).
        loop_delta: f64,
    },
}

impl MixerEvent {
    /// The action the event is about.
    pub fn action(&self) -> ActionId {
        match *self {
            MixerEvent::Finished { action, .. } | MixerEvent::Loop { action, .. } => action,
        }
    }
}
