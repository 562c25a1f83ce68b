//! `clipscope convert FILE -o OUT [--to FORMAT]`: read and write again, with compact or rounded
//! numbers, optionally in another format (three.js clip JSON, legacy three.js JSON, PlayCanvas
//! animation JSON, glTF, GLB or Lottie, where a non-Lottie document becomes null layers).
//! Without `--to`, an output ending in `.gltf` or `.glb` picks that format.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use super::output::{self, OutputArgs, thousands};
use crate::formats::{self, Format};

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to convert.
    pub file: PathBuf,
    /// The output format: `threejs` (AnimationClip JSON), `threejs-legacy` (model format 3
    /// hierarchy keys), `playcanvas` (animation JSON v4; non-linear tracks are baked at the
    /// source frame rate), `gltf` (JSON, embedded buffers), `glb` (binary glTF) or `lottie` (a
    /// Lottie input is written back; other documents become a composition of null layers); when
    /// not given, the output's `.gltf` / `.glb` extension, else the input's own format.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub to: Option<Format>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A format from its short name (`threejs`, `threejs-legacy`, `playcanvas`).
fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format '{name}' (expected {})", names.join(" or "))
    })
}

/// The glTF format an output path's extension names (`.gltf`, `.glb`, any case).
fn format_for_extension(path: &std::path::Path) -> Option<Format> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "gltf" => Some(Format::Gltf),
        "glb" => Some(Format::Glb),
        _ => None,
    }
}

/// Rewrites the file, printing the sizes before and after (in bytes) and every kind of data the
/// target format could not hold.
pub fn run(args: Args) -> Outcome {
    let doc = output::read(&args.file)?;
    let from = doc.format;
    let to = args
        .to
        .or_else(|| format_for_extension(&args.output.output))
        .unwrap_or(from);
    let lost = formats::conversion_losses(&doc, to);
    let doc = doc.converted_to(to);
    let before = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let after = args.output.write(&doc)?;
    let formats = if from == to {
        to.to_string()
    } else {
        format!("{from} → {to}")
    };
    println!(
        "convert: {} clip(s), {} keys; {} → {} bytes ({formats}); wrote {}",
        doc.clips.len(),
        thousands(doc.clips.iter().map(|c| c.key_count()).sum()),
        thousands(before as usize),
        thousands(after as usize),
        args.output.output.display()
    );
    for what in lost {
        println!("convert: not written: {what}");
    }
    output::release(doc);
    Ok(ExitCode::SUCCESS)
}
