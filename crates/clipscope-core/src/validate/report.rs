//! What validation says about a file: its findings (problems with the clip and track names they
//! point at), errors first, as the CLI prints them and the editor lists them.

use serde::Serialize;

use super::baseline::Entry;
use super::config::Config;
use crate::model::{Problem, Severity};

/// One finding in a report: the problem plus the names it points at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The problem, with its severity after config.
    #[serde(flatten)]
    pub problem: Problem,
    /// The clip's name, when the finding belongs to a clip.
    pub clip_name: Option<String>,
    /// The track's name, when the finding belongs to a track.
    pub track_name: Option<String>,
}

/// The findings for one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// The file as given or found.
    pub path: String,
    /// The detected format, or `null` when the file could not be read.
    pub format: Option<&'static str>,
    /// True when no finding is an error.
    pub ok: bool,
    /// Every finding, errors first.
    pub problems: Vec<Finding>,
    /// The path relative to the config root with forward slashes (baselines, SARIF).
    #[serde(skip)]
    pub relative: String,
    /// Whether the file could be read at all.
    #[serde(skip)]
    pub readable: bool,
    /// Findings the baseline suppressed.
    #[serde(skip)]
    pub suppressed: usize,
    /// The clip names of the file, in order.
    #[serde(skip)]
    pub clip_names: Vec<String>,
}

impl FileReport {
    /// The baseline entries of this report's findings.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.problems.iter().map(|f| Entry {
            path: self.relative.clone(),
            code: f.problem.code.clone(),
            clip: f.clip_name.clone(),
            track: f.track_name.clone(),
            key: f.problem.key,
        })
    }

    /// Number of error findings.
    pub fn errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|f| f.problem.severity == Severity::Error)
            .count()
    }

    /// Number of warning findings.
    pub fn warnings(&self) -> usize {
        self.problems.len() - self.errors()
    }
}

/// The result of a run: the reports, sorted by path, and the config used.
#[derive(Debug, Clone)]
pub struct Run {
    /// One report per file, sorted by path.
    pub reports: Vec<FileReport>,
    /// The config in force.
    pub config: Config,
}
