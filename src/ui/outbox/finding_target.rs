//! [`Target`]: where a validation finding clicked in the Validation panel points.

use clipscope_editor::ClipId;

/// Where a clicked finding points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The clip.
    pub clip: ClipId,
    /// The track, if the finding names one.
    pub track: Option<usize>,
    /// The key, if the finding names one.
    pub key: Option<usize>,
}
