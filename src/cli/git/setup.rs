//! `clipscope git setup`: one command to make git show clip files as semantic diffs.
//!
//! In the repository (found from `--repo`, default the working folder) it
//! 1. appends `PATTERN diff=clipscope` lines to the root `.gitattributes` for the clip files:
//!    the `clips` globs of the `clipscope.toml` found above the working folder (made relative to
//!    the repository's root), else every extension clipscope reads (`*.json`, `*.gltf`,
//!    `*.glb`: JSON files that are not clips still diff as text); lines already there are kept
//!    and not repeated, so running it again changes nothing;
//! 2. sets, in the repository's own git config, `diff.clipscope.command` (the semantic diff,
//!    what `git diff` runs), `diff.clipscope.textconv` (the per-track listing, what `git log -p`
//!    and `git show` run) and `difftool.clipscope.cmd` (the editor's compare view, for
//!    `git difftool --tool=clipscope`), each calling this clipscope by its full path (or
//!    `--program`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clipscope_core::formats::{self, clip_extensions};
use clipscope_core::validate::Config;

use super::super::Outcome;

/// The attribute line's driver.
const ATTRIBUTE: &str = "diff=clipscope";

/// Arguments of `git setup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder in the repository (default: the working folder).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,
    /// The noise the diff driver ignores (see `clipscope diff --tolerance`).
    #[arg(long, value_name = "TOL")]
    pub tolerance: Option<f64>,
    /// How git should call clipscope (default: this program's full path).
    #[arg(long, value_name = "PATH")]
    pub program: Option<String>,
    /// Print what would change without changing anything.
    #[arg(long)]
    pub dry_run: bool,
}

/// Configures the repository and prints what it did.
pub fn run(args: Args) -> Outcome {
    let root = git_root(&args.repo)?;
    let config = Config::discover(
        None,
        &std::fs::canonicalize(&args.repo).unwrap_or(args.repo.clone()),
    )
    .map_err(|e| e.to_string())?;
    let patterns = patterns(&root, &config)?;
    let attributes = root.join(".gitattributes");
    let existing = std::fs::read_to_string(&attributes).unwrap_or_default();
    let (text, added) = with_attributes(&existing, &patterns);
    let program = match &args.program {
        Some(p) => p.clone(),
        None => shell_quote(
            &std::env::current_exe()
                .map_err(|e| format!("cannot find this program's path: {e}"))?
                .to_string_lossy(),
        ),
    };
    let tolerance = args
        .tolerance
        .filter(|t| *t > 0.0)
        .map_or(String::new(), |t| format!(" --tolerance {t}"));
    let settings = [
        (
            "diff.clipscope.command",
            format!("{program} git diff-driver{tolerance}"),
        ),
        ("diff.clipscope.textconv", format!("{program} git textconv")),
        (
            "difftool.clipscope.cmd",
            format!("{program} open \"$REMOTE\" --against \"$LOCAL\""),
        ),
    ];
    if args.dry_run {
        for line in &added {
            println!("git setup: would add to .gitattributes: {line}");
        }
        for (key, value) in &settings {
            println!("git setup: would set {key} = {value}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !added.is_empty() {
        formats::write_atomic(&attributes, text.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", attributes.display()))?;
    }
    for line in &added {
        println!("git setup: .gitattributes: {line}");
    }
    if added.is_empty() {
        println!("git setup: .gitattributes already marks the clip files");
    }
    for (key, value) in &settings {
        git(&root, &["config", "--local", key, value])?;
        println!("git setup: {key} = {value}");
    }
    println!(
        "git setup: done: git diff shows clip changes; git log -p and git show list each \
         changed track (add --ext-diff for the full diff); git difftool --tool=clipscope opens \
         the compare view"
    );
    Ok(ExitCode::SUCCESS)
}

/// The repository's top folder.
fn git_root(folder: &Path) -> Result<PathBuf, String> {
    let out = git(folder, &["rev-parse", "--show-toplevel"])
        .map_err(|e| format!("{}: not in a git repository ({e})", folder.display()))?;
    Ok(PathBuf::from(out.trim()))
}

/// Runs git in `folder` and returns its output.
fn git(folder: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(folder)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err
            .lines()
            .next()
            .unwrap_or("git failed")
            .trim()
            .to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `.gitattributes` patterns of the clip files: the config's `clips` globs relative to the
/// repository's root, else one per clip extension.
fn patterns(root: &Path, config: &Config) -> Result<Vec<String>, String> {
    let Some(globs) = &config.file.clips else {
        return Ok(clip_extensions().iter().map(|e| format!("*.{e}")).collect());
    };
    let root = std::fs::canonicalize(root).unwrap_or(root.to_path_buf());
    let config_root = std::fs::canonicalize(&config.root).unwrap_or(config.root.clone());
    let prefix = config_root.strip_prefix(&root).map_err(|_| {
        format!(
            "{}: clipscope.toml is outside the repository {}",
            config.root.display(),
            root.display()
        )
    })?;
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    Ok(globs
        .iter()
        .map(|g| {
            let g = g.trim_start_matches("./");
            if prefix.is_empty() {
                g.to_string()
            } else {
                format!("{prefix}/{g}")
            }
        })
        .collect())
}

/// `existing` with a `PATTERN diff=clipscope` line for each pattern that has none, and the
/// lines added.
fn with_attributes(existing: &str, patterns: &[String]) -> (String, Vec<String>) {
    let present: std::collections::HashSet<(&str, bool)> = existing
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let pattern = words.next()?;
            Some((pattern, words.any(|w| w == ATTRIBUTE)))
        })
        .filter(|(_, ours)| *ours)
        .collect();
    let added: Vec<String> = patterns
        .iter()
        .filter(|p| !present.contains(&(p.as_str(), true)))
        .map(|p| format!("{} {ATTRIBUTE}", quote_pattern(p)))
        .collect();
    let mut text = existing.to_string();
    if !added.is_empty() {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("# clipscope: semantic diffs of animation clips (clipscope git setup)\n");
        for line in &added {
            text.push_str(line);
            text.push('\n');
        }
    }
    (text, added)
}

/// A pattern as `.gitattributes` writes it (quoted when it holds a space).
fn quote_pattern(p: &str) -> String {
    if p.contains([' ', '\t', '"']) {
        format!("\"{}\"", p.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        p.to_string()
    }
}

/// A word for the shell git runs commands with.
fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_added_once() {
        let patterns = vec!["*.glb".to_string(), "assets/anim/**/*.json".to_string()];
        let (text, added) = with_attributes("*.png binary\n*.glb diff=clipscope\n", &patterns);
        assert_eq!(added, ["assets/anim/**/*.json diff=clipscope"]);
        assert!(text.starts_with("*.png binary\n*.glb diff=clipscope\n# clipscope"));
        let (again, none) = with_attributes(&text, &patterns);
        assert!(none.is_empty());
        assert_eq!(again, text);
    }

    #[test]
    fn words_are_quoted_for_the_shell() {
        assert_eq!(shell_quote("/usr/bin/clipscope"), "/usr/bin/clipscope");
        assert_eq!(shell_quote("/a b/it's"), "'/a b/it'\\''s'");
        assert_eq!(quote_pattern("my clips/*.json"), "\"my clips/*.json\"");
    }
}
