//! The `clipscope` binary: parses the command line and either opens the editor or runs a
//! command-line subcommand.

use std::process::ExitCode;

use clap::Parser;
use clipscope::cli::{self, Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli::set_read_options(clipscope::formats::ReadOptions {
        morph_fps: cli.morph_fps,
    });
    match cli.command {
        None => open(Vec::new()),
        Some(Command::Open { files }) => open(files),
        Some(command) => cli::run(command),
    }
}

#[cfg(feature = "gui")]
fn open(files: Vec<std::path::PathBuf>) -> ExitCode {
    clipscope::ui::run(files)
}

#[cfg(not(feature = "gui"))]
fn open(_files: Vec<std::path::PathBuf>) -> ExitCode {
    cli::run(Command::Open { files: Vec::new() })
}
