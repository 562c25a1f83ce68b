//! `clipscope convert FILE -o OUT`: read and write again, with compact or rounded numbers.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use super::output::{self, OutputArgs, thousands};

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to convert.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Rewrites the file and prints the sizes before and after.
pub fn run(args: Args) -> Outcome {
    let doc = output::read(&args.file)?;
    let before = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let after = args.output.write(&doc)?;
    println!(
        "convert: {} clip(s), {} keys; {} → {} bytes; wrote {}",
        doc.clips.len(),
        thousands(doc.clips.iter().map(|c| c.key_count()).sum()),
        thousands(before as usize),
        thousands(after as usize),
        args.output.output.display()
    );
    output::release(doc);
    Ok(ExitCode::SUCCESS)
}
