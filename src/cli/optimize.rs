//! `clipscope optimize FILE -o OUT`: three.js's lossless key reduction on every clip.

use clipscope_core::formats::ReadOptions;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use super::output::{self, OutputArgs, thousands};

/// Arguments of `optimize`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to optimize.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Optimizes every clip and writes the result, printing `keys before → after`.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let mut doc = args.output.read_for_output(&args.file, read)?;
    let (mut before, mut after) = (0, 0);
    for clip in &mut doc.clips {
        let report = clip.optimize();
        before += report.keys_before;
        after += report.keys_after;
    }
    let bytes = args.output.write(&doc)?;
    println!(
        "optimize: {} → {} keys in {} clip(s); wrote {} ({} bytes)",
        thousands(before),
        thousands(after),
        doc.clips.len(),
        args.output.output.display(),
        thousands(bytes as usize)
    );
    output::release(doc);
    Ok(ExitCode::SUCCESS)
}
