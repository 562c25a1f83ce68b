//! `clipscope trim FILE -o OUT`: drop keys outside each clip's `[0, duration]` like three.js.

use clipscope_core::formats::ReadOptions;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use super::output::{self, OutputArgs, thousands};

/// Arguments of `trim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to trim.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Trims every clip to its duration and writes the result.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let mut doc = args.output.read_for_output(&args.file, read)?;
    let before: usize = doc.clips.iter().map(|c| c.key_count()).sum();
    for clip in &mut doc.clips {
        clip.trim();
    }
    let after: usize = doc.clips.iter().map(|c| c.key_count()).sum();
    args.output.write(&doc)?;
    println!(
        "trim: {} → {} keys in {} clip(s); wrote {}",
        thousands(before),
        thousands(after),
        doc.clips.len(),
        args.output.output.display()
    );
    output::release(doc);
    Ok(ExitCode::SUCCESS)
}
