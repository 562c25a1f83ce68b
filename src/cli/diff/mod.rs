//! `clipscope diff OLD NEW`: what changed between two versions of a clip file, in any two
//! formats clipscope reads (a glTF file and its three.js conversion, say), from
//! [`clipscope_core::model::ops::diff`]: clips added, removed and renamed, each changed track
//! with its keys and its largest change in degrees or the file's units, and each joint's move
//! in world space through the skeleton.
//!
//! Exit status like `diff`: 0 when the versions hold the same clips (within `--tolerance`),
//! 1 when they differ, 2 when a file cannot be read. `--json` prints the diff for scripts
//! ([`json`]); `--html FILE` also writes the review page ([`page`]). The text for people is
//! [`text`], shared with the git diff driver.

pub mod json;
pub mod page;
mod plot;
pub mod text;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clipscope_core::formats::{self, Document, ReadOptions};
use clipscope_core::model::Skeleton;
use clipscope_core::model::ops::diff::{Diff, Skeletons, diff_clips};

use super::Outcome;

/// Arguments of `diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old version (`/dev/null` for a file that is added).
    pub old: PathBuf,
    /// The new version (any format clipscope reads, not necessarily the old one's;
    /// `/dev/null` for a file that is deleted).
    pub new: PathBuf,
    /// Print the diff as JSON.
    #[arg(long)]
    pub json: bool,
    /// The largest change that is float noise and not reported: in the unit a change is
    /// reported in (degrees for rotations, the file's units for positions, seconds for times).
    #[arg(long, value_name = "TOL", default_value_t = 0.0, value_parser = parse_tolerance)]
    pub tolerance: f64,
    /// The hierarchy the clips' joints hang in, for the world-space change of each joint, when
    /// the files have none of their own: any model file clipscope reads or a rig JSON.
    #[arg(long, value_name = "FILE")]
    pub skeleton: Option<PathBuf>,
    /// Also write the review page: both versions' animated previews, the changed tracks'
    /// curves, both versions' validation findings and the change summary, in one HTML file.
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// How the old version is named in reports (default: its path).
    #[arg(long, value_name = "NAME")]
    pub old_label: Option<String>,
    /// How the new version is named in reports (default: its path).
    #[arg(long, value_name = "NAME")]
    pub new_label: Option<String>,
    /// What the review page's previews play on (see `render --rig`).
    #[arg(long, value_name = "NAME")]
    pub rig: Option<String>,
    /// The review page without animated previews (faster; no GPU needed).
    #[arg(long)]
    pub no_previews: bool,
}

/// A tolerance: a number of at least 0.
fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!(
            "{text:?} is not a tolerance (a number of at least 0)"
        )),
    }
}

/// One version of a file: its name in reports, where it was read from, and its clips (`None`
/// for a version that does not exist: a file git adds or deletes).
pub struct Version {
    /// The name reports give it.
    pub label: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// Its document, when it exists.
    pub doc: Option<Document>,
}

impl Version {
    /// The file at `path`, named `label` (default: the path).
    pub fn read(path: &Path, label: Option<&str>, read: &ReadOptions) -> Result<Version, String> {
        Ok(Version {
            label: label.map_or_else(|| path.display().to_string(), str::to_string),
            path: path.to_path_buf(),
            doc: Some(super::output::read(path, read)?),
        })
    }

    /// [`Version::read`], except that `/dev/null` is a version that does not exist (as in
    /// git: a file added or deleted).
    pub fn read_or_none(
        path: &Path,
        label: Option<&str>,
        read: &ReadOptions,
    ) -> Result<Version, String> {
        if path == Path::new("/dev/null") {
            return Ok(Version::missing(label.unwrap_or("/dev/null"), path));
        }
        Version::read(path, label, read)
    }

    /// A version that does not exist.
    pub fn missing(label: &str, path: &Path) -> Version {
        Version {
            label: label.to_string(),
            path: path.to_path_buf(),
            doc: None,
        }
    }

    /// Its clips (none when it does not exist).
    pub fn clips(&self) -> &[clipscope_core::model::Clip] {
        self.doc.as_ref().map_or(&[], |d| &d.clips)
    }

    /// The symbol of its length unit (`m`, `px`, `units`).
    pub fn length_symbol(&self) -> &'static str {
        self.doc
            .as_ref()
            .map_or("units", |d| d.format.spec().length_symbol())
    }
}

/// What changed from `old` to `new`, measuring joints through `skeleton` when given.
pub fn compare(old: &Version, new: &Version, skeleton: Option<&Skeleton>, tolerance: f64) -> Diff {
    match (&old.doc, &new.doc) {
        (Some(a), Some(b)) => formats::diff_documents(a, b, skeleton, tolerance),
        (a, b) => {
            let spec = a.as_ref().or(b.as_ref()).map(|d| d.format.spec());
            let options = spec.map(|s| s.diff_options(tolerance)).unwrap_or_default();
            let mut diff = diff_clips(old.clips(), new.clips(), Skeletons::default(), &options);
            diff.set_length_unit(length_symbol(old, new));
            diff
        }
    }
}

/// The length unit changes are reported in: the new version's, else the old one's.
pub fn length_symbol(old: &Version, new: &Version) -> &'static str {
    if new.doc.is_some() {
        new.length_symbol()
    } else {
        old.length_symbol()
    }
}

/// Compares the two files and prints the diff; exit status 0 when identical, 1 when not.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let old = Version::read_or_none(&args.old, args.old_label.as_deref(), read)?;
    let new = Version::read_or_none(&args.new, args.new_label.as_deref(), read)?;
    if old.doc.is_none() && new.doc.is_none() {
        return Err("diff: both versions are /dev/null".into());
    }
    let skeleton = match &args.skeleton {
        Some(path) => Some(super::reduce::read_skeleton(path, read)?),
        None => None,
    };
    let diff = compare(&old, &new, skeleton.as_ref(), args.tolerance);
    if let Some(out) = &args.html {
        let options = page::PageOptions {
            previews: !args.no_previews,
            rig: args.rig.as_deref(),
            tolerance: args.tolerance,
        };
        let html = page::build(&old, &new, &diff, &options, read);
        formats::write_atomic(out, html.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
        eprintln!("diff: wrote the review page {}", out.display());
    }
    if args.json {
        let value = json::report(&old, &new, &diff, args.tolerance);
        println!(
            "{}",
            serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", text::report(&old, &new, &diff));
    }
    Ok(if diff.is_identical() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
