//! A keyframe track: one animated property (three.js `KeyframeTrack`).

use super::{Extras, Interpolation, Tangents, TrackKind, UnsupportedInterpolation, Values};

/// One animated property: key `times` (seconds, ascending), a flat `values` array with
/// `value_size()` entries per key, and how to interpolate between keys.
///
/// Mirrors three.js r187's `KeyframeTrack` field for field. The model allows what three.js allows
/// (unsorted or NaN times, say); [`Track::validate`](crate::model::ops) reports them.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The property path, e.g. `.bones[hip].quaternion` or `cube.position`
    /// (see [`binding`](super::binding)).
    pub name: String,
    /// The value type (number, vector, color, quaternion, bool, string).
    pub kind: TrackKind,
    /// Key times in seconds, as `f32` like three.js's `Float32Array`.
    pub times: Vec<f32>,
    /// `times.len() * value_size()` values, key after key.
    pub values: Values,
    /// How values between keys are computed.
    pub interpolation: Interpolation,
    /// Bezier handles (three.js `settings.inTangents/outTangents`), if the track has them.
    pub tangents: Option<Tangents>,
    /// Fields of the source file that the model does not interpret.
    pub extras: Extras,
    /// Muted (Blender's F-curve mute): the track stays in the clip and is written to files as
    /// usual, but the editor's player skips it. No format stores it, so it is editor state
    /// that lives with the track (and so with undo) until the document is closed.
    pub muted: bool,
}

impl Track {
    /// A track like this one (name, kind, interpolation, extras) with no keys, made without
    /// copying the keys.
    pub fn without_keys(&self) -> Track {
        Track {
            name: self.name.clone(),
            kind: self.kind,
            times: Vec::new(),
            values: self.values.empty_like(),
            interpolation: self.interpolation,
            tangents: None,
            extras: self.extras.clone(),
            muted: self.muted,
        }
    }

    /// A track of `kind` with the kind's default interpolation and no tangents.
    pub fn new(name: impl Into<String>, kind: TrackKind, times: Vec<f32>, values: Values) -> Track {
        Track {
            name: name.into(),
            kind,
            times,
            values,
            interpolation: kind.default_interpolation(),
            tangents: None,
            extras: Extras::default(),
            muted: false,
        }
    }

    /// A number/vector/color/quaternion track from `f32` values.
    pub fn numeric(
        name: impl Into<String>,
        kind: TrackKind,
        times: Vec<f32>,
        values: Vec<f32>,
    ) -> Track {
        Track::new(name, kind, times, Values::Numbers(values))
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True for a track with no keys (which three.js refuses to construct).
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Values per key (three.js `getValueSize()`); readers guarantee it is a whole number.
    pub fn value_size(&self) -> usize {
        if self.times.is_empty() {
            0
        } else {
            self.values.len() / self.times.len()
        }
    }

    /// Sets the interpolation like three.js's `setInterpolation`: a mode the kind does not
    /// support (smooth quaternions, linear booleans, …) leaves the current one in place and
    /// is an error whose text is three.js's warning.
    pub fn set_interpolation(
        &mut self,
        interpolation: Interpolation,
    ) -> Result<(), UnsupportedInterpolation> {
        if self.kind.supports(interpolation) {
            self.interpolation = interpolation;
            Ok(())
        } else {
            Err(UnsupportedInterpolation {
                kind: self.kind,
                track: self.name.clone(),
                interpolation,
            })
        }
    }

    /// The interpolation three.js would end up with when constructing a track of `kind` with
    /// `requested` (unsupported or unknown modes fall back to the kind's default).
    pub fn resolve_interpolation(
        kind: TrackKind,
        requested: Option<Interpolation>,
    ) -> Interpolation {
        match requested {
            Some(i) if kind.supports(i) => i,
            _ => kind.default_interpolation(),
        }
    }

    /// The time of the last key, or `None` for an empty track.
    pub fn end_time(&self) -> Option<f32> {
        self.times.last().copied()
    }
}
