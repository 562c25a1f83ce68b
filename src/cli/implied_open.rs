//! `clipscope FILE…` as a shorthand for `clipscope open FILE…`: what a desktop's "Open with",
//! a file association or a drag onto the program's icon runs.

use std::ffi::OsString;
use std::path::Path;

use clap::CommandFactory;

use super::Cli;

/// The command line `args` (program name first) with `open` put in front of the first
/// argument when that argument is an existing file or folder rather than a subcommand or an
/// option, so that `clipscope walk.json` opens the editor on it.
pub fn implied_open(args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1) else {
        return args;
    };
    let text = first.to_string_lossy();
    let is_subcommand = Cli::command().find_subcommand(text.as_ref()).is_some();
    if text.starts_with('-') || is_subcommand || !Path::new(first).exists() {
        return args;
    }
    let mut out = Vec::with_capacity(args.len() + 1);
    out.push(args[0].clone());
    out.push("open".into());
    out.extend(args.into_iter().skip(1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_file_first_opens_it_and_anything_else_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("walk.json");
        std::fs::write(&file, "{}").unwrap();
        let file = file.to_string_lossy().into_owned();
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            strings(&implied_open(args(&["clipscope", &file, &file]))),
            ["clipscope", "open", file.as_str(), file.as_str()]
        );
        for kept in [
            &["clipscope"][..],
            &["clipscope", "info", &file],
            &["clipscope", "--help"],
            &["clipscope", "no-such-file.json"],
        ] {
            assert_eq!(strings(&implied_open(args(kept))), kept);
        }
    }
}
