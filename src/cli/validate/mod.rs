//! `clipscope validate PATH...`: the checker a studio gates commits and CI on.
//!
//! The checking itself is the library's validation engine ([`clipscope_core::validate`]), which the
//! editor's validation panel runs too: errors are what three.js rejects and what a format's
//! specification forbids, warnings clipscope's advice, each code registered with the formats it
//! applies to. This module parses the arguments, prints the report (text, JSON, [`sarif`],
//! [`junit`]), explains rules (`--explain CODE`, `--list-rules`, whose `--format markdown` is the
//! table of `docs/rules.md`) and picks the exit status.
//!
//! Exit status: 0 when nothing fails, 1 when an error is found (or a warning with
//! `--deny-warnings`), 2 when a file cannot be read or the arguments or config are wrong.

mod junit;
mod progress;
mod sarif;
mod text;

use clipscope_core::formats::ReadOptions;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use clipscope_core::validate::rules::{self, explain, rules};
use clipscope_core::validate::{Baseline, CheckOptions, Plan, Run, fix_files};

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Grouped by file, one line per finding and a summary line, for people.
    Text,
    /// `{"files": [{"path", "format", "ok", "problems": [...]}], "config", "rules"}`.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// JUnit XML: a testsuite per file, a testcase per clip, a failure per error.
    Junit,
    /// With `--list-rules` only: the rule table as Markdown (code, default severity, formats,
    /// summary, fix), the table `docs/rules.md` holds.
    Markdown,
}

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories (searched recursively for `.json`, `.gltf` and `.glb` files).
    #[arg(required_unless_present_any = ["explain", "list_rules"])]
    pub paths: Vec<PathBuf>,
    /// Explain a rule: what it finds, which formats it checks, why it matters, how to fix it.
    #[arg(long, value_name = "CODE", conflicts_with_all = ["paths", "list_rules"])]
    pub explain: Option<String>,
    /// List every rule (code, default severity, formats, summary); with `--format json`, the
    /// whole registry as JSON; with `--format markdown`, the rule table of `docs/rules.md`.
    #[arg(long, conflicts_with = "paths")]
    pub list_rules: bool,
    /// Output format (`markdown` only with `--list-rules`).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Use this config file instead of the nearest `clipscope.toml` above the first path.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A rig or model file whose node names every track must bind to (`unbound-track`).
    #[arg(long, value_name = "FILE")]
    pub rig: Option<PathBuf>,
    /// Suppress the findings listed in this baseline file (if it exists).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every current finding to the `--baseline` file instead of failing on them.
    #[arg(long, requires = "baseline")]
    pub update_baseline: bool,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Apply the safe fixes in place (keeping FILE.bak), then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix`, do not keep a `.bak` copy of each changed file.
    #[arg(long, requires = "fix")]
    pub no_backup: bool,
}

/// Validates every file and prints the report; exit 0, 1 (findings that fail) or 2.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    if let Some(code) = &args.explain {
        let rule = rules::rule(code).ok_or_else(|| {
            format!("unknown rule `{code}` (clipscope validate --list-rules lists them)")
        })?;
        print!("{}", explain(rule));
        return Ok(ExitCode::SUCCESS);
    }
    if args.list_rules {
        print!("{}", list_rules(args.format));
        return Ok(ExitCode::SUCCESS);
    }
    if args.format == ReportFormat::Markdown {
        return Err(
            "--format markdown is for --list-rules; a report is text, json, sarif or junit"
                .to_string(),
        );
    }
    let opts = CheckOptions {
        config: args.config.clone(),
        rig: args.rig.clone(),
        baseline: if args.update_baseline {
            None
        } else {
            args.baseline.clone()
        },
        read: read.clone(),
    };
    let plan = Plan::new(&args.paths, &opts).map_err(|e| e.to_string())?;
    if args.fix {
        for line in fix_files(&plan, !args.no_backup).map_err(|e| e.to_string())? {
            eprintln!("{line}");
        }
    }
    let run = plan.check(&progress::Bar::on_terminal());
    if args.update_baseline
        && let Some(path) = &args.baseline
    {
        let b = Baseline::new(run.reports.iter().flat_map(|r| r.entries()));
        b.write(path).map_err(|e| e.to_string())?;
        eprintln!(
            "clipscope: wrote {} finding(s) to baseline {}",
            b.findings.len(),
            path.display()
        );
    }
    print!("{}", render(&run, args.format));
    let code = if run.reports.iter().any(|r| !r.readable) {
        2
    } else if args.update_baseline {
        0
    } else if run
        .reports
        .iter()
        .any(|r| !r.ok || (args.deny_warnings && r.warnings() > 0))
    {
        1
    } else {
        0
    };
    Ok(ExitCode::from(code))
}

/// The report of `run` in `format`. Reports have no Markdown form (`validate` refuses
/// `--format markdown` without `--list-rules`): asked for one anyway, this gives the text report.
pub fn render(run: &Run, format: ReportFormat) -> String {
    match format {
        ReportFormat::Text | ReportFormat::Markdown => text::to_text(run),
        ReportFormat::Json => {
            let rules: Vec<_> = rules().iter().map(rules::Rule::to_json).collect();
            let body = serde_json::json!({
                "files": run.reports,
                "config": {
                    "path": run.config.source.as_ref().map(|p| p.display().to_string()),
                    "root": run.config.root.display().to_string(),
                    "settings": run.config.file,
                },
                "rules": rules,
            });
            format!("{body}\n")
        }
        ReportFormat::Sarif => sarif::to_sarif(run) + "\n",
        ReportFormat::Junit => junit::to_junit(run),
    }
}

/// `--list-rules`: one line per rule (code, default severity, formats, summary), the whole
/// registry as JSON with `--format json`, or the Markdown rule table of `docs/rules.md` with
/// `--format markdown`.
fn list_rules(format: ReportFormat) -> String {
    match format {
        ReportFormat::Json => {
            let all: Vec<_> = rules().iter().map(rules::Rule::to_json).collect();
            return serde_json::to_string_pretty(&all).unwrap_or_default() + "\n";
        }
        ReportFormat::Markdown => return rules::markdown_table(),
        ReportFormat::Text | ReportFormat::Sarif | ReportFormat::Junit => {}
    }
    let width = rules().iter().map(|r| r.code.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in rules() {
        let severity = match r.severity {
            clipscope_core::model::Severity::Error => "error",
            clipscope_core::model::Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "{:<width$}  {severity:<7}  {}  [{}]\n",
            r.code,
            r.summary,
            r.describe_formats()
        ));
    }
    out
}
