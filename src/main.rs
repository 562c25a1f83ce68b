//! The `clipscope` binary: parses the command line and either opens the editor or runs a
//! command-line subcommand.

use std::process::ExitCode;

use clap::Parser;
use clipscope::cli::{self, Cli, Subcommand};

fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = Cli::parse_from(cli::implied_open(std::env::args_os().collect()));
    let read_options = clipscope_core::formats::ReadOptions {
        morph_fps: cli.morph_fps,
        max_file_size: cli.max_file_size,
        ..Default::default()
    };
    match cli.subcommand {
        None => open(Vec::new(), None, read_options),
        Some(Subcommand::Open { files, against }) => open(files, against, read_options),
        Some(subcommand) => {
            keep_freed_memory();
            cli::run(subcommand, &read_options)
        }
    }
}

#[cfg(feature = "gui")]
fn open(
    files: Vec<std::path::PathBuf>,
    against: Option<String>,
    read_options: clipscope_core::formats::ReadOptions,
) -> ExitCode {
    clipscope::ui::run(files, against, read_options)
}

#[cfg(not(feature = "gui"))]
fn open(
    _files: Vec<std::path::PathBuf>,
    _against: Option<String>,
    _read_options: clipscope_core::formats::ReadOptions,
) -> ExitCode {
    cli::run(
        Subcommand::Open {
            files: Vec::new(),
            against: None,
        },
        &_read_options,
    )
}

/// Lets `clipscope … | head` end quietly when the reader goes away, like other command-line
/// tools, instead of panicking in `println!` on the broken pipe.
/// Lets glibc's allocator keep and reuse the memory a command frees rather than hand it back
/// to the kernel and fault fresh pages in for the next step: blocks up to 32 MiB come from the
/// heap (not a mapping of their own, unmapped when freed), and the heap is trimmed only past
/// 64 MiB of free memory at its top. A long take's reduction frees and allocates its per-try
/// buffers (hundreds of kilobytes to megabytes each) over and over; this saves about 1,700 of
/// its 23,500 page faults. Only for the short-lived commands: the editor keeps glibc's defaults.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets two of the allocator's thresholds (it takes the allocator's
    // locks itself); called before the command starts any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE at startup, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
