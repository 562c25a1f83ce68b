//! The checking behind `clipscope validate` (and its benchmark): find the clip files, read each
//! leniently, run the model and format rules with the file's config, apply rule levels and the
//! baseline, all in parallel with a deterministic, path-sorted result.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::baseline::{Baseline, Entry};
use super::config::{Config, FileSettings};
use super::rig::rig_nodes;
use crate::cli::output::read_options;
use crate::formats::{self, Document};
use crate::model::{Problem, Severity};

/// What to check and how.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// `--config FILE`, instead of discovering `clipscope.toml`.
    pub config: Option<PathBuf>,
    /// `--rig FILE`, overriding the config's rig.
    pub rig: Option<PathBuf>,
    /// `--baseline FILE`: findings listed there are suppressed.
    pub baseline: Option<PathBuf>,
    /// Show a progress bar on stderr (only honoured when stderr is a terminal).
    pub progress: bool,
}

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

/// The files under `paths` (directories searched recursively), the config, the rig and the
/// baseline; errors are one line (exit status 2).
pub struct Plan {
    /// The clip files, sorted.
    pub files: Vec<PathBuf>,
    /// The config in force.
    pub config: Config,
    /// The rig's node names, when a rig was given.
    pub rig_nodes: Option<Vec<String>>,
    /// The baseline, when one was given.
    pub baseline: Option<Baseline>,
}

impl Plan {
    /// Collects the files and loads config, rig and baseline.
    pub fn new(paths: &[PathBuf], opts: &CheckOptions) -> Result<Plan, String> {
        let mut files = Vec::new();
        for path in paths {
            collect(path, &mut files)?;
        }
        files.sort();
        files.dedup();
        let start = paths
            .first()
            .map(PathBuf::as_path)
            .unwrap_or(Path::new("."));
        let config = Config::discover(opts.config.as_deref(), start)?;
        let rig = opts
            .rig
            .clone()
            .or_else(|| config.file.rig.as_ref().map(|r| config.root.join(r)));
        let rig_nodes = rig.as_deref().map(rig_nodes).transpose()?;
        let baseline = opts
            .baseline
            .as_deref()
            .map(Baseline::read_or_empty)
            .transpose()?;
        Ok(Plan {
            files,
            config,
            rig_nodes,
            baseline,
        })
    }

    /// Checks every file in parallel, with a progress bar when asked and stderr is a terminal.
    pub fn check(self, progress: bool) -> Run {
        let bar = (progress && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(self.files.len() as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        let reports: Vec<FileReport> = self
            .files
            .par_iter()
            .map(|f| {
                let report = self.check_file(f);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                report
            })
            .collect();
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Run {
            reports,
            config: self.config,
        }
    }

    /// The settings for `path`.
    pub fn settings_for(&self, path: &Path) -> FileSettings {
        self.config
            .settings_for(&self.config.relative(path), self.rig_nodes.as_deref())
    }

    /// Checks one file.
    pub fn check_file(&self, path: &Path) -> FileReport {
        let settings = self.settings_for(path);
        let (doc, problems) = formats::lint_file(path, &read_options());
        let mut report = report_for(path, doc.as_ref(), problems, &settings);
        report.relative = self.config.relative(path);
        if let Some(baseline) = &self.baseline {
            let entries: Vec<Entry> = report.entries().collect();
            let before = report.problems.len();
            let mut keep = entries.iter().map(|e| !baseline.contains(e));
            report.problems.retain(|_| keep.next().unwrap_or(true));
            report.suppressed = before - report.problems.len();
            report.ok = report.errors() == 0;
        }
        report
    }
}

/// The report for a file read into `doc` with read `problems`: the model lint rules added,
/// rule levels applied, names and times filled in, sorted errors first.
pub fn report_for(
    path: &Path,
    doc: Option<&Document>,
    problems: Vec<Problem>,
    settings: &FileSettings,
) -> FileReport {
    // Anything three.js's parse would throw on makes the whole file unreadable (exit status 2).
    let readable = doc.is_some() && !problems.iter().any(|p| p.code == "parse");
    let mut all: Vec<Problem> = problems
        .into_iter()
        .filter(|p| p.code != "non-unit-quaternion")
        .collect();
    if let Some(doc) = doc {
        for (c, clip) in doc.clips.iter().enumerate() {
            all.extend(
                clip.lint_rules(&settings.lint)
                    .into_iter()
                    .map(|p| p.in_clip(c)),
            );
        }
    }
    let mut findings: Vec<Finding> = all
        .into_iter()
        .filter_map(|mut p| {
            p.severity = settings.severity(&p.code, p.severity)?;
            let clip = p.clip.and_then(|c| doc?.clips.get(c));
            let track = clip.zip(p.track).and_then(|(c, t)| c.tracks.get(t));
            if p.time.is_none()
                && let Some(&time) = track.zip(p.key).and_then(|(t, k)| t.times.get(k))
            {
                p.time = Some(Problem::key_time(time));
            }
            Some(Finding {
                clip_name: clip.map(|c| c.name.clone()),
                track_name: track.map(|t| t.name.clone()),
                problem: p,
            })
        })
        .collect();
    findings.sort_by(|a, b| {
        let (a, b) = (&a.problem, &b.problem);
        b.severity
            .cmp(&a.severity)
            .then(a.clip.cmp(&b.clip))
            .then(a.track.cmp(&b.track))
            .then(a.key.cmp(&b.key))
            .then(a.code.cmp(&b.code))
    });
    FileReport {
        path: path.display().to_string(),
        format: doc.map(|d| d.format.name()),
        ok: !findings
            .iter()
            .any(|f| f.problem.severity == Severity::Error),
        problems: findings,
        relative: path.display().to_string(),
        readable,
        suppressed: 0,
        clip_names: doc
            .map(|d| d.clips.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default(),
    }
}

/// Expands directories into the clip files below them.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for entry in entries.filter_map(Result::ok).map(|e| e.path()) {
        if entry.is_dir() {
            collect(&entry, out)?;
        } else if is_clip_file(&entry) {
            out.push(entry);
        }
    }
    Ok(())
}

/// Files a directory search picks up: `.json`, `.gltf` and `.glb`, except `clipscope`'s own
/// baseline files (`*.baseline.json`).
fn is_clip_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !name.ends_with(".baseline.json")
        && path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["json", "gltf", "glb"]
                .iter()
                .any(|x| e.eq_ignore_ascii_case(x))
        })
}
