//! `--fix`: the model's safe repairs ([`Clip::fix`](crate::model::Clip::fix)) applied to each
//! file in place. A file is read strictly (a file only the lenient read accepts is left alone),
//! fixed with its config's tolerances and the rules that run for its format (a Lottie
//! composition's duration is never reset, say), copied to `FILE.bak` (unless `--no-backup`) and
//! written back atomically in its own format, so fields clipscope does not model survive.

use std::fmt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::engine::Plan;
use crate::formats::{self, WriteError, WriteOptions};

/// Fixes every file of `plan`, returning one line per change (`PATH: clip "walk": …`), sorted
/// by path. An I/O failure is an error (exit status 2).
pub fn fix_files(plan: &Plan, backup: bool) -> Result<Vec<String>, FixError> {
    let results: Vec<Result<Vec<String>, FixError>> = plan
        .files
        .par_iter()
        .map(|path| fix_file(plan, path, backup))
        .collect();
    let mut lines = Vec::new();
    for r in results {
        lines.extend(r?);
    }
    Ok(lines)
}

/// Fixes one file (see the module docs).
fn fix_file(plan: &Plan, path: &Path, backup: bool) -> Result<Vec<String>, FixError> {
    let Ok(mut doc) = formats::read_file_with(path, &plan.read) else {
        return Ok(Vec::new());
    };
    let settings = plan.settings_for(path).for_format(doc.format);
    let mut lines = Vec::new();
    for clip in &mut doc.clips {
        let report = clip.fix(&settings);
        for change in report.changes {
            lines.push(format!(
                "{}: clip \"{}\": {change}",
                path.display(),
                clip.name
            ));
        }
    }
    if lines.is_empty() {
        return Ok(lines);
    }
    if let Err(reason) = formats::check_writable(&doc) {
        return Ok(vec![format!("{}: not fixed: {reason}", path.display())]);
    }
    if backup {
        let mut bak = path.as_os_str().to_owned();
        bak.push(".bak");
        std::fs::copy(path, &bak).map_err(|source| FixError::Backup {
            path: path.to_path_buf(),
            source,
        })?;
    }
    formats::write_file(&doc, path, &WriteOptions::default()).map_err(|source| {
        FixError::Write {
            path: path.to_path_buf(),
            source,
        }
    })?;
    Ok(lines)
}

/// Why `--fix` stopped (exit status 2): a file it changed could not be backed up or written.
/// Its [`Display`](fmt::Display) is one line naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum FixError {
    /// The copy to `FILE.bak` failed.
    Backup {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The fixed file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: WriteError,
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::Backup { path, source } => {
                write!(f, "{}: cannot back up: {source}", path.display())
            }
            FixError::Write { path, source } => {
                write!(
                    f,
                    "{}: cannot write the fixed file: {source}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for FixError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FixError::Backup { source, .. } => Some(source),
            FixError::Write { source, .. } => Some(source),
        }
    }
}
