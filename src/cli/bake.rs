//! `clipscope bake --cycle NAME [--set PARAM=VALUE ...] [--preset FILE] [--fps N] [--cycles N]
//! [--optimize] -o OUT`: sample a procedural cycle into an ordinary clip file, for scripts and
//! CI.
//!
//! The cycle is a built-in one (`hero-run`, `hero-walk`, `dog-trot`, by id or name) or a cycle
//! file. Parameters start at their defaults, then take a preset's values, then each `--set`. The
//! clip is written in the output's format (`--to`, else `.gltf` / `.glb` from the extension,
//! else three.js JSON). Exit status 1 (the file is still written) when a channel jumps at the
//! loop seam.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Outcome;
use super::convert::parse_format;
use super::output::{self, OutputArgs, format_for_extension, thousands};
use clipscope_core::formats::{self, Document, Format};
use clipscope_scene::procedural::{self, BakeOptions, Cycle, Preset};

/// Arguments of `bake`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The cycle: a built-in cycle's id or name (`hero-run`, `hero-walk`, `dog-trot`) or the
    /// path of a cycle file (`.json`).
    #[arg(long, value_name = "NAME")]
    pub cycle: String,
    /// A parameter value, `NAME=VALUE` (repeat for more); applied after `--preset`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// A preset file (as saved from the editor's Cycles panel) with parameter values.
    #[arg(long, value_name = "FILE")]
    pub preset: Option<PathBuf>,
    /// Samples per second.
    #[arg(long, value_name = "N", default_value_t = 30.0, value_parser = output::parse_fps)]
    pub fps: f64,
    /// How many whole cycles to bake.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub cycles: u32,
    /// Remove redundant keys afterwards (lossless, three.js's `optimize`).
    #[arg(long)]
    pub optimize: bool,
    /// The clip's name (default: the cycle's name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The output format (see `convert --to`); default: `.gltf` / `.glb` from the output's
    /// extension, else three.js clip JSON.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub to: Option<Format>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Bakes and writes the clip, printing what was baked and any seam jump.
pub fn run(args: Args) -> Outcome {
    let cycle = find_cycle(&args.cycle)?;
    let mut values = cycle.defaults();
    if let Some(path) = &args.preset {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let preset = Preset::from_json(&bytes, path).map_err(|e| e.to_string())?;
        values = preset
            .values_for(&cycle)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for setting in &args.set {
        procedural::set_from_text(&cycle, &mut values, setting)
            .map_err(|e| format!("--set {e}"))?;
    }
    let options = BakeOptions {
        fps: args.fps,
        cycles: args.cycles,
        optimize: args.optimize,
        name: args.name.clone(),
    };
    let baked = cycle.bake(&values, &options).map_err(|e| e.to_string())?;
    let to = args
        .to
        .or_else(|| format_for_extension(&args.output.output))
        .unwrap_or(Format::ThreeJs);
    let doc = Document::new(Format::ThreeJs, vec![baked.clip.clone()]);
    let lost = formats::conversion_losses(&doc, to);
    let doc = doc.converted_to(to);
    let bytes = args.output.write(&doc)?;
    println!(
        "bake: {} ({}) on {}, {} fps × {} cycle(s): {}; {} bytes ({to}); wrote {}",
        cycle.name,
        cycle.id,
        cycle.rig,
        args.fps,
        args.cycles,
        baked.summary(),
        thousands(bytes as usize),
        args.output.output.display()
    );
    for what in lost {
        println!("bake: not written: {what}");
    }
    for jump in &baked.seam {
        eprintln!("bake: warning: {}", jump.describe());
    }
    Ok(if baked.seam.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A built-in cycle by id or name, else a cycle file.
fn find_cycle(name: &str) -> Result<Cycle, String> {
    if let Some(cycle) = Cycle::builtin(name) {
        return Ok(cycle.clone());
    }
    let path = Path::new(name);
    if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        return Cycle::from_json(&bytes, path).map_err(|e| e.to_string());
    }
    let ids: Vec<&str> = Cycle::builtins().iter().map(|c| c.id.as_str()).collect();
    Err(format!(
        "no cycle named {name:?} (built in: {}; or give a cycle file)",
        ids.join(", ")
    ))
}
