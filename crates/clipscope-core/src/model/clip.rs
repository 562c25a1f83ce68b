//! An animation clip: a named, timed set of tracks (three.js `AnimationClip`).

use std::sync::Arc;

use super::{Extras, Layers, Track};

/// How a clip combines with others when mixed (three.js `*AnimationBlendMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BlendMode {
    /// `NormalAnimationBlendMode` (2500): weighted average with other clips.
    #[default]
    Normal,
    /// `AdditiveAnimationBlendMode` (2501): added on top of the blended result.
    Additive,
}

impl BlendMode {
    /// The three.js constant.
    pub fn code(self) -> u32 {
        match self {
            BlendMode::Normal => 2500,
            BlendMode::Additive => 2501,
        }
    }

    /// The mode for a three.js constant.
    pub fn from_code(code: f64) -> Option<BlendMode> {
        if code == 2500.0 {
            Some(BlendMode::Normal)
        } else if code == 2501.0 {
            Some(BlendMode::Additive)
        } else {
            None
        }
    }

    /// `normal` or `additive`, for reports.
    pub fn name(self) -> &'static str {
        match self {
            BlendMode::Normal => "normal",
            BlendMode::Additive => "additive",
        }
    }
}

/// A named animation: tracks that play together over `duration` seconds.
///
/// `duration` is an `f64` like three.js's (a plain JS number, not stored in a typed array).
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// The clip's name (three.js defaults to `""`).
    pub name: String,
    /// Length in seconds; [`Clip::reset_duration`](crate::model::ops) recomputes it from the keys.
    pub duration: f64,
    /// The animated properties.
    pub tracks: Vec<Track>,
    /// Normal or additive blending.
    pub blend_mode: BlendMode,
    /// Identifier kept through a round trip; `None` when the file had none.
    pub uuid: Option<String>,
    /// Free-form user data (three.js writes it as a JSON string), without the
    /// [`layers`](Clip::layers) (see [`Clip::user_data_with_layers`]).
    pub user_data: serde_json::Value,
    /// The 2D layers of the composition the clip animates, when a layered format (Lottie)
    /// describes them; shared, since they do not change when the clip is edited.
    pub layers: Option<Arc<Layers>>,
    /// Fields of the source file that the model does not interpret.
    pub extras: Extras,
}

impl Clip {
    /// This clip with `tracks` in place of its own (name, duration, blend mode, uuid, user
    /// data and extras copied, the old tracks not): what an operation that rebuilds every track
    /// returns.
    pub fn with_tracks(&self, tracks: Vec<Track>) -> Clip {
        Clip {
            name: self.name.clone(),
            duration: self.duration,
            tracks,
            blend_mode: self.blend_mode,
            uuid: self.uuid.clone(),
            user_data: self.user_data.clone(),
            layers: self.layers.clone(),
            extras: self.extras.clone(),
        }
    }

    /// A clip like `new AnimationClip(name, duration, tracks)`: a fresh uuid, normal blending,
    /// empty user data, and a negative `duration` replaced by the end of the last key.
    pub fn new(name: impl Into<String>, duration: f64, tracks: Vec<Track>) -> Clip {
        let mut clip = Clip {
            name: name.into(),
            duration,
            tracks,
            blend_mode: BlendMode::Normal,
            uuid: Some(new_uuid()),
            user_data: serde_json::Value::Object(Default::default()),
            layers: None,
            extras: Extras::default(),
        };
        if clip.duration < 0.0 {
            clip.reset_duration();
        }
        clip
    }

    /// Total number of keys over all tracks.
    pub fn key_count(&self) -> usize {
        self.tracks.iter().map(Track::len).sum()
    }
}

/// A random lowercase v4 uuid, like three.js's `MathUtils.generateUUID()`.
pub fn new_uuid() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}
