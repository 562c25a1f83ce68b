//! `clipscope cycles [FILE...] [--json]`: list the procedural cycles `bake` can sample, with
//! their parameters (name, default, range, unit, meaning), or check cycle files of your own.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use super::Outcome;
use clipscope_scene::procedural::Cycle;

/// Arguments of `cycles`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cycle files to check and list instead of the built-in cycles.
    pub files: Vec<PathBuf>,
    /// Print JSON (`{"cycles": [{"id", "name", "rig", "description", "parameters": [...],
    /// "channels": {...}}]}`) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Lists the cycles; a cycle file that cannot be read is a one-line error (exit status 2).
pub fn run(args: Args) -> Outcome {
    let cycles: Vec<Cycle> = if args.files.is_empty() {
        Cycle::builtins().to_vec()
    } else {
        let mut read = Vec::new();
        for path in &args.files {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            read.push(Cycle::from_json(&bytes, path).map_err(|e| e.to_string())?);
        }
        read
    };
    if args.json {
        println!("{}", to_json(&cycles));
    } else {
        print!("{}", to_text(&cycles));
    }
    Ok(ExitCode::SUCCESS)
}

/// The cycles as JSON.
fn to_json(cycles: &[Cycle]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = cycles
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "name": c.name,
                "rig": c.rig,
                "description": c.description,
                "parameters": c.parameters.iter().map(|p| json!({
                    "name": p.name, "label": p.label, "default": p.default,
                    "min": p.min, "max": p.max, "unit": p.unit, "help": p.help,
                })).collect::<Vec<_>>(),
                "channels": c.channels.iter()
                    .map(|ch| (ch.key(), json!(ch.formula.text())))
                    .collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    json!({ "cycles": list })
}

/// The cycles as text: a heading per cycle, then one line per parameter.
fn to_text(cycles: &[Cycle]) -> String {
    let mut out = String::new();
    for c in cycles {
        let _ = writeln!(out, "{}: {} on {} — {}", c.id, c.name, c.rig, c.description);
        for p in &c.parameters {
            let range = format!("{} to {}", short(p.min), short(p.max));
            let _ = writeln!(
                out,
                "  {:<10} {:>7}  {:<16} {:<9} {}",
                p.name,
                short(p.default),
                range,
                p.unit,
                p.help
            );
        }
        let _ = writeln!(out, "  {} channels", c.channels.len());
    }
    out
}

/// A number for people: as written when it has at most four decimals, else rounded to four
/// (π shows as 3.1416; the JSON output keeps every digit).
fn short(x: f64) -> String {
    let rounded = (x * 1e4).round() / 1e4;
    if rounded == x {
        format!("{x}")
    } else {
        format!("{x:.4}")
    }
}
