//! PlayCanvas anim clips: the JSON asset of the engine's anim system (`AnimClipHandler`), not
//! the legacy `animation` asset of [`playcanvas`](super::playcanvas):
//!
//! ```json
//! {"name": "Run", "duration": 1.2,
//!  "inputs": [[0, 0.4, 0.8, 1.2]],
//!  "outputs": [{"components": 3, "data": [0, 0, 0, …]}],
//!  "curves": [{"path": "RootNode.Hips/graph/localPosition", "inputIndex": 0,
//!              "outputIndex": 0, "interpolation": 1}]}
//! ```
//!
//! [`detect`] tells it by its `inputs`, `outputs` and `curves`; [`path`] reads a curve's target
//! (node transforms become `NODE.position`/`quaternion`/`scale` tracks, any other property a
//! track named by its path); [`read`] converts the curves as the engine evaluates them;
//! [`write`](mod@write) writes a clip back (the file's own bytes when unedited); [`lint`]
//! holds its raw-file rule ([`rules`] its registry entry); [`codec`] is its entry in the format
//! registry.
//!
//! Playback: the engine interpolates every curve component by component (`AnimCache`), so a
//! linear `localRotation` curve between quaternions in opposite hemispheres takes the long way
//! round (three.js's slerp does not); [`lint`] reports such keys.

pub(crate) mod codec;
pub(crate) mod detect;
pub(crate) mod lint;
pub(crate) mod path;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod write;

use std::collections::HashMap;

use serde_json::{Map, Value};

pub(crate) use codec::CODEC;
pub(crate) use rules::RULES;

use crate::model::Clip;

/// Where a track read from an anim clip came from.
#[derive(Debug, Clone)]
pub(crate) struct CurveOrigin {
    /// The curve's `path`, as written.
    pub path: Value,
    /// A `localEulerAngles` curve (written back in Euler degrees).
    pub euler: bool,
}

/// What a document read from an anim clip keeps of its file.
#[derive(Debug)]
pub(crate) struct AnimClipSource {
    /// The file as read: written back as it is while the clip is unedited.
    pub bytes: Vec<u8>,
    /// The top-level fields, in order (kept when an edited clip is written back).
    pub fields: Map<String, Value>,
    /// The clip as read.
    pub clips: Vec<Clip>,
    /// Each track's curve, by track name.
    pub origins: HashMap<String, CurveOrigin>,
}
