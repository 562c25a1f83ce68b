//! Operations on clips and tracks, each in its own file and each matching three.js r187 exactly
//! (see `shared/spec/threejs.md` §2–§5). They are inherent methods on [`Clip`](super::Clip) and
//! [`Track`](super::Track), or free functions for the `AnimationUtils` helpers, and they return
//! reports instead of printing.

mod reset_duration;
