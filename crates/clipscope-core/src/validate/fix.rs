//! `--fix`: the model's safe repairs ([`Clip::fix`](crate::model::Clip::fix)) applied to each
//! file in place. A file is read strictly (a file only the lenient read accepts is left alone),
//! fixed with its config's tolerances and the rules that run for its format (a Lottie
//! composition's duration is never reset, say), copied to `FILE.bak` (unless `--no-backup`) and
//! written back atomically in its own format, so fields clipscope does not model survive.

use std::path::Path;

use rayon::prelude::*;

use super::engine::Plan;
use crate::formats::{self, WriteOptions};

/// Fixes every file of `plan`, returning one line per change (`PATH: clip "walk": …`), sorted
/// by path. An I/O failure is an error (exit status 2).
pub fn fix_files(plan: &Plan, backup: bool) -> Result<Vec<String>, String> {
    let results: Vec<Result<Vec<String>, String>> = plan
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
fn fix_file(plan: &Plan, path: &Path, backup: bool) -> Result<Vec<String>, String> {
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
        std::fs::copy(path, &bak)
            .map_err(|e| format!("{}: cannot back up: {e}", path.display()))?;
    }
    formats::write_file(&doc, path, &WriteOptions::default())
        .map_err(|e| format!("{}: cannot write the fixed file: {e}", path.display()))?;
    Ok(lines)
}
