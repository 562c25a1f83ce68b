//! `clipscope git …`: clips in version control.
//!
//! * `clipscope git setup` ([`setup`]) marks a repository's clip files in `.gitattributes`
//!   (`diff=clipscope`) and configures the `clipscope` diff driver, so `git diff` prints the
//!   semantic diff of clips ([`driver`], an external diff command), `git log -p` and `git show`
//!   print the change of each track's summary line ([`listing`], a textconv), GLB included,
//!   and `git difftool --tool=clipscope` opens the editor's compare view.
//! * `clipscope git diff-driver` and `clipscope git textconv` are what git runs; people do not
//!   call them.
//! * [`revision`] reads a file as it was at a git revision (`clipscope open FILE --against REV`).

pub mod driver;
pub mod listing;
pub mod revision;
pub mod setup;

use clipscope_core::formats::ReadOptions;

use super::Outcome;

/// Arguments of `git`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The `git` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Configure the repository so git shows clip files as semantic diffs: `.gitattributes`
    /// entries for the clip files (`clips` globs in clipscope.toml, else every clip extension)
    /// and the `clipscope` diff driver and difftool in the repository's git config.
    Setup(setup::Args),
    /// What git runs as the external diff command (`diff.clipscope.command`): the semantic
    /// diff of one file, or a plain diff for files that are not clips.
    #[command(hide = true)]
    DiffDriver(driver::Args),
    /// What git runs to show one version of a clip file as text (`diff.clipscope.textconv`):
    /// one summary line per track, so `git log -p` shows which tracks changed and how.
    #[command(hide = true)]
    Textconv(listing::Args),
}

/// Runs a `git` subcommand.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    match args.command {
        Command::Setup(a) => setup::run(a),
        Command::DiffDriver(a) => driver::run(a, read),
        Command::Textconv(a) => listing::run(a, read),
    }
}
