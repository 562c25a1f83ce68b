//! The command-line front end: one module per subcommand, all sharing the same readers,
//! writers and model operations as the GUI.
//!
//! Exit status is part of the contract that scripts and CI hooks rely on: 0 for success,
//! 1 when `validate` found an error, 2 when a file could not be read or the arguments are wrong.

mod bake;
mod convert;
mod cycles;
pub mod diff;
mod edit;
mod figure;
pub mod git;
mod implied_open;
mod info;
mod optimize;
mod output;
mod reduce;

pub mod render;
mod sample;
mod trim;
pub mod validate;

pub use implied_open::implied_open;

/// `clipscope reduce`'s reduction of a document (reduce, write, read back, measure, pack),
/// shared with the editor's Reduce… window so that both make the same file.
pub mod reduction {
    pub use super::reduce::{Attempt, Target, packed_write, reduce_document};
}

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use clipscope_core::formats::ReadOptions;

/// `clipscope`: preview, fix and check animation clips.
#[derive(Debug, Parser)]
#[command(name = "clipscope", version, about, long_about = None)]
pub struct Cli {
    /// What to do; with none, the editor opens with its built-in demo.
    #[command(subcommand)]
    pub subcommand: Option<Subcommand>,
    /// Frames per second of the clips made from a legacy model's numbered morph targets
    /// (`horse_A_001`, …), for every file read.
    #[arg(long, global = true, value_name = "FPS", default_value_t = 10.0,
          value_parser = output::parse_fps)]
    pub morph_fps: f64,
    /// The largest file read, in bytes or with a unit (`512MiB`, `2GB`); larger files are
    /// refused with an error before anything is read (parsing takes about three times a
    /// file's size in memory).
    #[arg(long, global = true, value_name = "SIZE", default_value = "512MiB",
          value_parser = output::parse_size)]
    pub max_file_size: u64,
}

/// The subcommands (`clipscope info`, `clipscope validate`, …).
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// Open files in the editor window.
    Open {
        /// Clip files to open.
        files: Vec<PathBuf>,
        /// Compare the first file with another version of it: another file, or a git revision
        /// of the file (`HEAD`, `HEAD~1`, `main`, a commit). The other version's curves and
        /// figure show as ghosts, and the Compare tab lists the changes.
        #[arg(long, value_name = "REV|FILE", requires = "files")]
        against: Option<String>,
    },
    /// Print the clips and tracks of a file.
    Info(info::Args),
    /// Check clip files against three.js's rules and clipscope's own advice.
    Validate(validate::Args),
    /// Remove redundant keys, losslessly, exactly like three.js's `clip.optimize()`.
    Optimize(optimize::Args),
    /// Remove keys within a guaranteed error, measured in world space through the skeleton.
    Reduce(reduce::Args),
    /// Drop keys outside each clip's [0, duration], exactly like three.js's `clip.trim()`.
    Trim(trim::Args),
    /// Apply the editor's clip operations in order (rename tracks, subclip, shift, scale time,
    /// resample, make additive, unroll quaternions, reverse), one summary line each.
    Edit(edit::Args),
    /// Rewrite a file (compact numbers, optional rounding or pretty printing).
    Convert(convert::Args),
    /// Print track values at given times, as three.js's interpolants compute them.
    Sample(sample::Args),
    /// Draw frames of a clip without a window and write them as PNG, or the whole clip as an
    /// animated GIF or APNG.
    Render(render::Args),
    /// Show what changed between two versions of a clip file (exit status 0 when the same,
    /// 1 when different), as text, JSON or a review page.
    Diff(diff::Args),
    /// Clips in version control: `clipscope git setup` makes git diff, log -p and show print
    /// clip changes, and difftool open the editor's compare view.
    Git(git::Args),
    /// Sample a procedural walk/run cycle into a clip file.
    Bake(bake::Args),
    /// List the procedural cycles and their parameters (or check cycle files).
    Cycles(cycles::Args),
}

/// Runs a non-GUI subcommand and returns the process exit status.
pub fn run(subcommand: Subcommand, read: &ReadOptions) -> ExitCode {
    let result = match subcommand {
        Subcommand::Open { .. } => {
            eprintln!(
                "clipscope: this build has no editor window (built without the `gui` feature)"
            );
            return ExitCode::from(2);
        }
        Subcommand::Info(args) => info::run(args, read),
        Subcommand::Validate(args) => validate::run(args, read),
        Subcommand::Optimize(args) => optimize::run(args, read),
        Subcommand::Reduce(args) => reduce::run(args, read),
        Subcommand::Trim(args) => trim::run(args, read),
        Subcommand::Edit(args) => edit::run(args, read),
        Subcommand::Convert(args) => convert::run(args, read),
        Subcommand::Sample(args) => sample::run(args, read),
        Subcommand::Render(args) => render::run(args, read),
        Subcommand::Diff(args) => diff::run(args, read),
        Subcommand::Git(args) => git::run(args, read),
        Subcommand::Bake(args) => bake::run(args),
        Subcommand::Cycles(args) => cycles::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("clipscope: {message}");
            ExitCode::from(2)
        }
    }
}

/// What a subcommand returns: its exit status, or a one-line error (exit status 2).
type Outcome = Result<ExitCode, String>;
