//! [`UnsupportedInterpolation`]: a track kind asked for an interpolation it cannot do.

use std::fmt;

use super::{Interpolation, TrackKind};

/// A track kind asked for an interpolation it does not support (smooth quaternions, linear
/// booleans, …), as three.js's `setInterpolation` warns; the track keeps its interpolation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedInterpolation {
    /// The track's value type.
    pub kind: TrackKind,
    /// The track's name.
    pub track: String,
    /// The interpolation asked for.
    pub interpolation: Interpolation,
}

impl fmt::Display for UnsupportedInterpolation {
    /// three.js's warning text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported interpolation for {} keyframe track named {}",
            self.kind.type_name(),
            self.track
        )
    }
}

impl std::error::Error for UnsupportedInterpolation {}
