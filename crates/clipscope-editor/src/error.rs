//! [`EditError`]: why [`Workspace::apply`](crate::Workspace::apply) refused an edit.
//!
//! An edit is refused before it changes anything: its own numbers are wrong
//! ([`Edit::check`](crate::Edit::check)), it names a document, clip or track that is not there
//! (a stale index from a queued edit), or a model operation refuses it
//! ([`OpError`]). The text of each error is one line, shown as it is in the editor's status
//! line ("could not …") and by `clipscope edit`.

use std::fmt;

use clipscope_core::model::ops::OpError;

use crate::ClipId;

/// Why an edit was refused; the documents and the undo history are as they were.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EditError {
    /// The edit names a document that is not open.
    NoSuchDocument(usize),
    /// [`Edit::AddClip`](crate::Edit::AddClip) names a document that is not open.
    NoDocumentToAddTo(usize),
    /// The edit names a clip that is not there.
    NoSuchClip(ClipId),
    /// [`Edit::MakeAdditive`](crate::Edit::MakeAdditive) names a reference clip that is not
    /// there.
    NoSuchReferenceClip(ClipId),
    /// [`Edit::ReplaceClips`](crate::Edit::ReplaceClips) names a clip that is gone.
    ReplacedClipGone,
    /// The edit names a track that the clip does not have.
    NoSuchTrack(usize),
    /// The edit names a track that the clip does not have; the message names the clip.
    TrackNotInClip {
        /// The track index.
        track: usize,
        /// The clip's name.
        clip: String,
    },
    /// A track edit names a track that the clip does not have.
    NoTrack {
        /// The track index.
        track: usize,
        /// What the edit would have done to it ("delete", "duplicate", "mute").
        action: &'static str,
    },
    /// [`Edit::DuplicateTracks`](crate::Edit::DuplicateTracks) with no tracks.
    NoTracksToDuplicate,
    /// [`Edit::MuteTracks`](crate::Edit::MuteTracks) would change nothing: every track is
    /// already muted (or playing).
    MuteUnchanged {
        /// What the edit asked for: mute (true) or unmute.
        muted: bool,
    },
    /// [`Edit::MergeClips`](crate::Edit::MergeClips) with fewer than two clips.
    MergeTooFew,
    /// [`Edit::MergeClips`](crate::Edit::MergeClips) names a clip the document does not have.
    NoClipToMerge(usize),
    /// A duration that is not a finite number ≥ 0.
    Duration(f64),
    /// A retime factor that is not finite and above 0, or an offset that is not finite.
    Retime {
        /// The time factor.
        factor: f64,
        /// The offset (seconds).
        offset: f64,
    },
    /// A frame rate that is not a finite number above 0.
    FrameRate {
        /// The edit that needs it ("resample", "snap keys").
        edit: &'static str,
        /// The rate given.
        fps: f64,
    },
    /// A paste time that is not a finite number.
    PasteTime(f64),
    /// A value scale factor (or its pivot) that is not a finite number.
    ValueFactor(f64),
    /// Subclip frames or a rate that are not finite numbers.
    SubclipRange {
        /// First frame kept.
        start: f64,
        /// First frame not kept.
        end: f64,
        /// Frames per second.
        fps: f64,
    },
    /// A subclip whose end does not come after its start.
    SubclipOrder {
        /// First frame kept.
        start: f64,
        /// First frame not kept.
        end: f64,
    },
    /// A subclip range that holds no keys.
    SubclipEmpty {
        /// First frame kept.
        start: f64,
        /// First frame not kept.
        end: f64,
        /// Frames per second.
        fps: f64,
    },
    /// A reference frame for [`Edit::MakeAdditive`](crate::Edit::MakeAdditive) that is not a
    /// number.
    AdditiveFrame(f64),
    /// A rename pattern that is not a regular expression.
    Pattern {
        /// The pattern as given.
        pattern: String,
        /// What the regular expression parser said.
        source: regex::Error,
    },
    /// A model operation refused the edit (a split outside the clip, keys scaled past their
    /// neighbours, …).
    Op(OpError),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NoSuchDocument(_) => f.write_str("no such document"),
            EditError::NoDocumentToAddTo(_) => f.write_str("add a clip: no such document"),
            EditError::NoSuchClip(_) => f.write_str("no such clip"),
            EditError::NoSuchReferenceClip(_) => f.write_str("no such reference clip"),
            EditError::ReplacedClipGone => f.write_str("replace clips: a clip is gone"),
            EditError::NoSuchTrack(_) => f.write_str("no such track"),
            EditError::TrackNotInClip { track, clip } => {
                write!(f, "no track {track} in clip {clip}")
            }
            EditError::NoTrack { track, action } => write!(f, "no track {track} to {action}"),
            EditError::NoTracksToDuplicate => f.write_str("no tracks to duplicate"),
            EditError::MuteUnchanged { muted: true } => {
                f.write_str("mute: the tracks are already muted")
            }
            EditError::MuteUnchanged { muted: false } => {
                f.write_str("unmute: the tracks are already playing")
            }
            EditError::MergeTooFew => f.write_str("merge clips: choose at least two clips"),
            EditError::NoClipToMerge(clip) => write!(f, "merge clips: no clip {clip}"),
            EditError::Duration(duration) => {
                write!(f, "duration must be a finite number ≥ 0, not {duration}")
            }
            EditError::Retime { factor, offset } => write!(
                f,
                "retime: the factor must be a finite number above 0 and the offset finite (not {factor} and {offset})"
            ),
            EditError::FrameRate { edit, fps } => {
                write!(f, "{edit}: {fps} is not a frame rate above 0")
            }
            EditError::PasteTime(time) => write!(f, "paste at {time} s: not a time"),
            EditError::ValueFactor(factor) => {
                write!(f, "scale keys: value factor {factor} is not a number")
            }
            EditError::SubclipRange { start, end, fps } => write!(
                f,
                "subclip: frames {start} to {end} at {fps} fps is not a range"
            ),
            EditError::SubclipOrder { start, end } => write!(
                f,
                "subclip: the end ({end}) must come after the start ({start})"
            ),
            EditError::SubclipEmpty { start, end, fps } => write!(
                f,
                "subclip: no keys in frames {start} to {end} at {fps} fps"
            ),
            EditError::AdditiveFrame(frame) => {
                write!(f, "make additive: frame {frame} is not a number")
            }
            EditError::Pattern { pattern, source } => write!(
                f,
                "rename: {pattern:?} is not a regular expression: {}",
                one_line(&source.to_string())
            ),
            EditError::Op(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EditError::Pattern { source, .. } => Some(source),
            EditError::Op(e) => Some(e),
            _ => None,
        }
    }
}

impl From<OpError> for EditError {
    fn from(e: OpError) -> EditError {
        EditError::Op(e)
    }
}

/// The line of a (regex) error message that says what is wrong: the last line that is not
/// blank and not only the `^^^` marker under the pattern, trimmed.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty() && !l.chars().all(|c| c == '^' || c == ' '))
        .unwrap_or(text)
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;

    #[test]
    fn messages_keep_their_text_and_model_errors_are_the_source() {
        let split = OpError::SplitOutside {
            time: 9.0,
            duration: 3.0,
        };
        let e = EditError::from(split.clone());
        assert_eq!(e.to_string(), split.to_string());
        assert!(e.source().is_some());
        assert_eq!(
            EditError::NoTrack {
                track: 5,
                action: "duplicate"
            }
            .to_string(),
            "no track 5 to duplicate"
        );
        assert_eq!(
            EditError::MuteUnchanged { muted: false }.to_string(),
            "unmute: the tracks are already playing"
        );
        assert!(EditError::ReplacedClipGone.source().is_none());
    }

    #[test]
    fn a_bad_pattern_is_one_line_with_the_parser_as_source() {
        let pattern = String::from("(");
        let Err(source) = regex::Regex::new(&pattern) else {
            panic!("{pattern:?} is not a regular expression");
        };
        assert!(
            source.to_string().contains('\n'),
            "the parser's text spans lines"
        );
        let e = EditError::Pattern { pattern, source };
        let text = e.to_string();
        assert!(
            text.starts_with("rename: \"(\" is not a regular expression: "),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
        assert!(e.source().is_some());
    }
}
