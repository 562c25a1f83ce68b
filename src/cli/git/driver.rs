//! `clipscope git diff-driver`: the external diff command git runs for files marked
//! `diff=clipscope` (`diff.clipscope.command`), with git's seven arguments
//! `PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE` (nine for a rename: the new path
//! and a similarity line follow).
//!
//! It prints the semantic diff ([`crate::cli::diff::text`]) with `a/PATH` and `b/PATH` as the
//! versions' names; `/dev/null` is a version that does not exist (an added or deleted file).
//! Each version is read from the file git gives but named by its path in the repository, so a
//! glTF file's relative buffers resolve beside the real file. When either version is not a clip
//! file clipscope reads (any other JSON, a broken file), the files are compared as text with
//! `git diff --no-index` instead, under the same names. It exits 0 whatever the files hold:
//! git stops at a driver that fails.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clipscope_core::formats::{self, ReadOptions};

use super::super::Outcome;
use crate::cli::diff::{Version, compare, text};

/// Arguments of `git diff-driver`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What git passes: path, old file, old hash, old mode, new file, new hash, new mode
    /// (and for a rename, the new path and the similarity).
    #[arg(num_args = 7..=9, required = true)]
    pub git_args: Vec<String>,
    /// The noise to ignore (see `clipscope diff --tolerance`).
    #[arg(long, value_name = "TOL", default_value_t = 0.0)]
    pub tolerance: f64,
}

/// Prints the diff of one file for git.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let a = &args.git_args;
    let path = &a[0];
    let new_path = a.get(7).unwrap_or(path);
    let (old_label, new_label) = (format!("a/{path}"), format!("b/{new_path}"));
    let old = version(Path::new(&a[1]), Path::new(path), &old_label, read);
    let new = version(Path::new(&a[4]), Path::new(new_path), &new_label, read);
    match (old, new) {
        (Ok(old), Ok(new)) => {
            let diff = compare(&old, &new, None, args.tolerance);
            print!("{}", text::report(&old, &new, &diff));
        }
        (old, new) => {
            if let Some(reason) = [old.err(), new.err()]
                .into_iter()
                .flatten()
                .find(|r| !r.is_empty())
            {
                println!("clipscope: {reason}; compared as text");
            }
            print!(
                "{}",
                plain_diff(Path::new(&a[1]), Path::new(&a[4]), &old_label, &new_label)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One version: read from `file`, named by `path` in the repository; `Err("")` for a JSON
/// file that is not a clip file, `Err(reason)` for another file that cannot be read.
fn version(file: &Path, path: &Path, label: &str, read: &ReadOptions) -> Result<Version, String> {
    if file == Path::new("/dev/null") {
        return Ok(Version::missing(label, path));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    match formats::read_bytes_with(&bytes, path, read) {
        Ok(doc) => Ok(Version {
            label: label.to_string(),
            path: PathBuf::from(path),
            doc: Some(doc),
        }),
        // Most `.json` files that do not read as clips are simply other JSON (package.json, …):
        // they are compared as text without a word; a broken glTF file is worth one.
        Err(_) if is_json(path) => Err(String::new()),
        Err(e) => Err(e.to_string()),
    }
}

/// Whether `path` has the `.json` extension.
fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The text diff of two files, under the names `old_label` and `new_label`.
fn plain_diff(old: &Path, new: &Path, old_label: &str, new_label: &str) -> String {
    let output = Command::new("git")
        .args([
            "diff",
            "--no-index",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            "--",
        ])
        .arg(old)
        .arg(new)
        .output();
    let text = match output {
        Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
        Err(e) => return format!("clipscope: cannot run git to compare the files as text: {e}\n"),
    };
    let (old_s, new_s) = (old.to_string_lossy(), new.to_string_lossy());
    let strip = |p: &str| p.trim_start_matches('/').to_string();
    let mut out = String::with_capacity(text.len());
    let mut header = true;
    for line in text.lines() {
        if line.starts_with("@@") {
            header = false;
        }
        if header {
            let renamed = line
                .replace(&format!("a/{}", strip(&old_s)), old_label)
                .replace(&format!("b/{}", strip(&new_s)), new_label)
                .replace(&format!("a/{}", strip(&new_s)), old_label)
                .replace(&format!("b/{}", strip(&old_s)), new_label);
            out.push_str(&renamed);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
