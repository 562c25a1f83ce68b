//! [`OpError`]: why one of the editor's clip and key operations refused its arguments.
//!
//! The operations that can refuse ([`Track::scale_key_times`](crate::model::Track::scale_key_times),
//! [`Clip::split_at`](crate::model::Clip::split_at), [`Clip::resample`](crate::model::Clip::resample),
//! [`Clip::set_markers`](crate::model::Clip::set_markers)) check before they change anything, so
//! an error always means the clip or track is as it was. The messages are shown to users as
//! they are (the editor's status line, `clipscope edit`).

use std::fmt;

use super::MAX_RESAMPLE_FRAMES;

/// Why a clip or key operation refused to run; nothing was changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OpError {
    /// A time scale factor (or its pivot) that is not a finite number above 0.
    TimeFactor(f64),
    /// Scaling key times would move `key` of `track` onto or past its unselected `neighbour`.
    KeysWouldPass {
        /// The track's name.
        track: String,
        /// The key that would move too far.
        key: usize,
        /// The key it would reach.
        neighbour: usize,
    },
    /// A split time that is not strictly inside the clip.
    SplitOutside {
        /// The requested time (seconds).
        time: f64,
        /// The clip's duration (seconds).
        duration: f64,
    },
    /// A frame rate that is not a finite number above 0.
    FrameRate(f64),
    /// Resampling would make more than [`MAX_RESAMPLE_FRAMES`] frames.
    TooManyFrames {
        /// The clip's duration (seconds).
        duration: f64,
        /// The requested frame rate.
        fps: f64,
    },
    /// The clip's `userData` is not a JSON object, so it cannot hold markers.
    MarkersNeedObject,
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::TimeFactor(factor) => {
                write!(f, "a time factor must be above 0, not {factor}")
            }
            OpError::KeysWouldPass {
                track,
                key,
                neighbour,
            } => write!(
                f,
                "{track}: scaling would move key {key} onto or past key {neighbour} (select the keys in between too)"
            ),
            OpError::SplitOutside { time, duration } => write!(
                f,
                "split at {time} s: the time must lie inside the clip (0 to {duration} s)"
            ),
            OpError::FrameRate(fps) => write!(f, "{fps} is not a frame rate above 0"),
            OpError::TooManyFrames { duration, fps } => write!(
                f,
                "{duration} s at {fps} fps is more than {MAX_RESAMPLE_FRAMES} frames"
            ),
            OpError::MarkersNeedObject => {
                f.write_str("the clip's userData is not an object, so it cannot hold markers")
            }
        }
    }
}

impl std::error::Error for OpError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        let all = [
            OpError::TimeFactor(0.0),
            OpError::KeysWouldPass {
                track: ".x".into(),
                key: 2,
                neighbour: 3,
            },
            OpError::SplitOutside {
                time: 2.0,
                duration: 1.0,
            },
            OpError::FrameRate(f64::NAN),
            OpError::TooManyFrames {
                duration: 1e9,
                fps: 60.0,
            },
            OpError::MarkersNeedObject,
        ];
        for e in all {
            let text = e.to_string();
            assert!(!text.is_empty() && !text.contains('\n'), "{text}");
        }
        assert_eq!(
            OpError::FrameRate(0.0).to_string(),
            "0 is not a frame rate above 0"
        );
    }
}
