//! The checking behind `clipscope validate` (and its benchmark) and the editor's validation
//! panel: find the clip files, read each leniently, run the model and format rules that apply
//! to its format with the file's config, apply rule levels and the baseline, all in parallel
//! with a deterministic, path-sorted result.
//!
//! [`check_bytes`] is the one function every caller ends in: the CLI on each file's bytes, the
//! editor on the bytes of an open document's file (or of what saving it would write), so both
//! report the same findings for the same input.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::ValidateError;
use super::baseline::{Baseline, Entry};
use super::config::{Config, FileSettings};
use super::report::{FileReport, Finding, Run};
use super::rig::rig_nodes;
use crate::formats::file_bytes::read_limited;
use crate::formats::{self, Document, Linted, ReadError, ReadOptions};
use crate::model::{Problem, Severity};

/// What to check and how.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// `--config FILE`, instead of discovering `clipscope.toml`.
    pub config: Option<PathBuf>,
    /// `--rig FILE`, overriding the config's rig.
    pub rig: Option<PathBuf>,
    /// `--baseline FILE`: findings listed there are suppressed.
    pub baseline: Option<PathBuf>,
    /// How files are read (the frame rate of morph-target clips).
    pub read: ReadOptions,
}

/// Where [`Plan::check`] reports how far it is: the command line draws a bar, a caller that
/// does not care passes `&()`. Called from the checking threads, so it takes `&self`.
pub trait Progress: Sync {
    /// Checking starts, `files` in all.
    fn start(&self, files: usize) {
        let _ = files;
    }
    /// `file` has been checked (in any order).
    fn file_done(&self, file: &Path) {
        let _ = file;
    }
    /// Every file has been checked.
    fn finish(&self) {}
}

/// No progress shown.
impl Progress for () {}

/// The files under `paths` (directories searched recursively), the config, the rig and the
/// baseline; errors ([`ValidateError`]) are one line (exit status 2).
pub struct Plan {
    /// The clip files, sorted.
    pub files: Vec<PathBuf>,
    /// The config in force.
    pub config: Config,
    /// The rig's node names, when a rig was given.
    pub rig_nodes: Option<Vec<String>>,
    /// The baseline, when one was given.
    pub baseline: Option<Baseline>,
    /// How files are read.
    pub read: ReadOptions,
}

impl Plan {
    /// Collects the files and loads config, rig and baseline.
    pub fn new(paths: &[PathBuf], opts: &CheckOptions) -> Result<Plan, ValidateError> {
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
        let rig_nodes = rig
            .as_deref()
            .map(|r| rig_nodes(r, &opts.read))
            .transpose()?;
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
            read: opts.read.clone(),
        })
    }

    /// Checks every file in parallel, telling `progress` as each file is done.
    pub fn check(self, progress: &dyn Progress) -> Run {
        progress.start(self.files.len());
        let reports: Vec<FileReport> = self
            .files
            .par_iter()
            .map(|f| {
                let report = self.check_file(f);
                progress.file_done(f);
                report
            })
            .collect();
        progress.finish();
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
        let mut report = match read_limited(path, self.read.max_file_size) {
            Ok(bytes) => check_bytes(&bytes, path, &settings, &self.read),
            Err(e) => report_for(
                path,
                Linted::unreadable(ReadError::file(path, e).reason),
                &settings,
            ),
        };
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

/// Validates the contents `bytes` of the file `path` with `settings`: the lenient read (reader
/// findings, the model's validation, the format's rules), then the model rules that apply to
/// the file's format, rule levels, names and times. The CLI and the editor both end here.
pub fn check_bytes(
    bytes: &[u8],
    path: &Path,
    settings: &FileSettings,
    read: &ReadOptions,
) -> FileReport {
    report_for(path, formats::lint_bytes(bytes, path, read), settings)
}

/// Validates a document held in memory that is not a file (one that cannot be written, say):
/// the model's validation and rules with `settings`; the format's raw-file rules need a file.
pub fn check_document(doc: &Document, path: &Path, settings: &FileSettings) -> FileReport {
    let linted = Linted {
        doc: Some(doc.clone()),
        problems: formats::lint_document(doc),
        unstored: Vec::new(),
    };
    report_with(path, linted, settings, true)
}

/// The report for the file `path` read leniently into `linted`: the model lint rules that
/// apply to its format added (none on tracks whose keys the format defines rather than the
/// file), rule levels applied, names and times filled in, sorted errors first.
pub fn report_for(path: &Path, linted: Linted, settings: &FileSettings) -> FileReport {
    report_with(path, linted, settings, false)
}

/// [`report_for`]; `in_memory` when the format's raw-file rules did not run, so the clip rules
/// they stand in for run instead.
fn report_with(
    path: &Path,
    linted: Linted,
    settings: &FileSettings,
    in_memory: bool,
) -> FileReport {
    let Linted {
        doc,
        problems,
        unstored,
    } = linted;
    let doc = doc.as_ref();
    // Anything three.js's parse would throw on makes the whole file unreadable (exit status 2).
    let readable = doc.is_some() && !problems.iter().any(|p| p.code == "parse");
    let lint = doc.map(|d| match in_memory {
        true => settings.for_format_in_memory(d.format),
        false => settings.for_format(d.format),
    });
    let runs = |code: &str| lint.as_ref().is_none_or(|l| l.checks(code));
    let mut all: Vec<Problem> = problems
        .into_iter()
        // The readers' `non-unit-quaternion` uses the default tolerance; the lint rule below
        // reports it with the configured one.
        .filter(|p| p.code != "non-unit-quaternion" && runs(&p.code))
        .collect();
    if let (Some(doc), Some(lint)) = (doc, &lint) {
        for (c, clip) in doc.clips.iter().enumerate() {
            all.extend(clip.lint_rules(lint).into_iter().map(|p| p.in_clip(c)));
        }
    }
    if !unstored.is_empty() {
        let unstored: HashSet<(usize, usize)> = unstored.into_iter().collect();
        all.retain(|p| match (p.clip, p.track) {
            (Some(c), Some(t)) => !unstored.contains(&(c, t)),
            _ => true,
        });
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
            .then(a.message.cmp(&b.message))
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
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), ValidateError> {
    let io = |source| ValidateError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(io)?;
    for entry in entries.filter_map(Result::ok).map(|e| e.path()) {
        if entry.is_dir() {
            collect(&entry, out)?;
        } else if is_clip_file(&entry) {
            out.push(entry);
        }
    }
    Ok(())
}

/// Files a directory search picks up: those with a format's extension
/// ([`clip_extensions`](crate::formats::clip_extensions): `.json`, `.gltf`, `.glb`), except
/// `clipscope`'s own baseline files (`*.baseline.json`).
fn is_clip_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !name.ends_with(".baseline.json")
        && path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(formats::is_clip_extension)
}
