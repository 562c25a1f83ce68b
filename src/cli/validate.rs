//! `clipscope validate PATH... [--format text|json]`: check clip files before they are committed.
//!
//! Errors are exactly what three.js rejects (its `parse` throwing, or `validate()` returning
//! false); warnings are clipscope's advice. Directories are searched recursively.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use super::Outcome;
use crate::formats;
use crate::model::{Problem, Severity};

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// One line per problem, for people.
    Text,
    /// `{"files": [{"path", "format", "ok", "problems": [...]}]}`, for scripts.
    Json,
}

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories (searched recursively for `.json`, `.gltf` and `.glb` files).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// The findings for one file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    /// The file as given or found.
    pub path: String,
    /// The detected format, or `null` when the file could not be read.
    pub format: Option<&'static str>,
    /// True when no problem is an error.
    pub ok: bool,
    /// Every finding, errors first.
    pub problems: Vec<Problem>,
    /// Clip names, for the text report.
    #[serde(skip)]
    clip_names: Vec<String>,
    /// Whether the file could be read at all.
    #[serde(skip)]
    readable: bool,
}

/// Validates every file and prints the report; exit 0, 1 (errors found) or 2 (unreadable file).
pub fn run(args: Args) -> Outcome {
    let mut files = Vec::new();
    for path in &args.paths {
        collect(path, &mut files)?;
    }
    let reports: Vec<FileReport> = files.iter().map(|f| check_file(f)).collect();
    match args.format {
        ReportFormat::Json => {
            let body = serde_json::json!({ "files": reports });
            println!("{body}");
        }
        ReportFormat::Text => print!("{}", to_text(&reports)),
    }
    let code = if reports.iter().any(|r| !r.readable) {
        2
    } else if reports.iter().any(|r| !r.ok) {
        1
    } else {
        0
    };
    Ok(ExitCode::from(code))
}

/// Lints one file: read problems plus model validation of every clip.
pub fn check_file(path: &Path) -> FileReport {
    let (doc, mut problems) = formats::lint_file(path);
    // Anything three.js's parse would throw on makes the whole file unreadable (exit status 2).
    let readable = doc.is_some() && !problems.iter().any(|p| p.code == "parse");
    problems.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.clip.cmp(&b.clip))
            .then(a.track.cmp(&b.track))
            .then(a.key.cmp(&b.key))
    });
    FileReport {
        path: path.display().to_string(),
        format: doc.as_ref().map(|d| d.format.name()),
        ok: !problems.iter().any(|p| p.severity == Severity::Error),
        clip_names: doc
            .map(|d| d.clips.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default(),
        problems,
        readable,
    }
}

/// Expands directories into the clip files below them (sorted, for stable reports).
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect(&entry, out)?;
        } else if is_clip_file(&entry) {
            out.push(entry);
        }
    }
    Ok(())
}

/// Files a directory search picks up: `.json`, `.gltf` and `.glb`.
fn is_clip_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["json", "gltf", "glb"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

/// The text report: a verdict line per file, then one indented line per problem.
fn to_text(reports: &[FileReport]) -> String {
    let mut out = String::new();
    let (mut errors, mut warnings) = (0, 0);
    for r in reports {
        let e = r
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        let w = r.problems.len() - e;
        errors += e;
        warnings += w;
        let verdict = match (e, w) {
            (0, 0) => "ok".to_string(),
            _ => format!("{e} error(s), {w} warning(s)"),
        };
        let _ = writeln!(out, "{}: {verdict}", r.path);
        for p in &r.problems {
            let mut place = String::new();
            if let Some(c) = p.clip {
                let name = r.clip_names.get(c).map(String::as_str).unwrap_or("");
                let _ = write!(place, "clip {c} \"{name}\"");
            }
            if let Some(t) = p.track {
                let _ = write!(place, " track {t}");
            }
            if let Some(k) = p.key {
                let _ = write!(place, " key {k}");
            }
            let sev = match p.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let place = place.trim();
            let sep = if place.is_empty() { "" } else { ": " };
            let _ = writeln!(out, "  {sev:<7} {:<26} {place}{sep}{}", p.code, p.message);
        }
    }
    let _ = writeln!(
        out,
        "{} file(s): {errors} error(s), {warnings} warning(s)",
        reports.len()
    );
    out
}
