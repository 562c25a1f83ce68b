//! Findings of validation, shared by the CLI, the GUI and tests.

use serde::Serialize;

/// How bad a finding is. Errors are exactly what three.js's `validate()` rejects (or what makes
/// a file unreadable); warnings are clipscope's own advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a look, but three.js plays the clip.
    Warning,
    /// three.js rejects the clip (or the file cannot be read).
    Error,
}

/// One finding about a clip, located as precisely as possible.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// A stable kebab-case identifier such as `unsorted-times`, for scripts and config.
    pub code: String,
    /// Index of the clip in its file, if the problem belongs to one.
    pub clip: Option<usize>,
    /// Index of the track in its clip, if the problem belongs to one.
    pub track: Option<usize>,
    /// Index of the key in its track, if the problem belongs to one.
    pub key: Option<usize>,
    /// A human-readable sentence naming what is wrong.
    pub message: String,
    /// The clip time in seconds the finding is about (usually its key's time), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
}

impl Problem {
    /// A problem of `severity` with `code` and `message`, not yet located.
    pub fn new(severity: Severity, code: &str, message: impl Into<String>) -> Problem {
        Problem {
            severity,
            code: code.to_string(),
            clip: None,
            track: None,
            key: None,
            message: crate::text::one_line(message.into()),
            time: None,
        }
    }

    /// An error (see [`Severity::Error`]).
    pub fn error(code: &str, message: impl Into<String>) -> Problem {
        Problem::new(Severity::Error, code, message)
    }

    /// A warning (see [`Severity::Warning`]).
    pub fn warning(code: &str, message: impl Into<String>) -> Problem {
        Problem::new(Severity::Warning, code, message)
    }

    /// Sets the clip index.
    pub fn in_clip(mut self, clip: usize) -> Problem {
        self.clip = Some(clip);
        self
    }

    /// Sets the track index.
    pub fn in_track(mut self, track: usize) -> Problem {
        self.track = Some(track);
        self
    }

    /// Sets the key index.
    pub fn at_key(mut self, key: usize) -> Problem {
        self.key = Some(key);
        self
    }

    /// Sets the clip time (seconds) the finding is about.
    pub fn at_time(mut self, time: f64) -> Problem {
        self.time = Some(time);
        self
    }

    /// Sets the time from a key time stored as `f32` (see [`Problem::key_time`]).
    pub fn at_key_time(self, time: f32) -> Problem {
        self.at_time(Problem::key_time(time))
    }

    /// A key time stored as `f32` as the shortest decimal that reads back to it, so reports say
    /// `0.1` rather than `0.10000000149011612`.
    pub fn key_time(time: f32) -> f64 {
        time.to_string().parse().unwrap_or(time as f64)
    }
}
