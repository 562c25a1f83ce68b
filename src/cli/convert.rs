//! `clipscope convert FILE -o OUT [--to FORMAT]`: read and write again, with compact or rounded
//! numbers, optionally in another format (three.js clip JSON, legacy three.js JSON, PlayCanvas
//! animation JSON, glTF, GLB or Lottie, where a non-Lottie document becomes null layers).
//! Without `--to`, an output ending in `.gltf` or `.glb` picks that format. A format that holds
//! one clip (PlayCanvas) gets one file per clip of a document with several: `OUT_CLIP.json`.

use clipscope_core::formats::ReadOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Outcome;
use super::output::{self, OutputArgs, thousands};
use clipscope_core::formats::{self, Document, Format};

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
pub(super) fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format '{name}' (expected {})", names.join(" or "))
    })
}

/// The format an output path's extension names, when only one format has it (`.gltf`, `.glb`,
/// any case; `.json` is shared, so it names none).
pub(super) fn format_for_extension(path: &Path) -> Option<Format> {
    Format::from_extension(path.extension()?.to_str()?)
}

/// `out` with `_` and `clip`'s name (letters, digits, `-` and `_` kept, anything else `_`)
/// added to its stem: `walk.json` and clip `Run 2` give `walk_Run_2.json`.
fn clip_path(out: &Path, clip: &str) -> PathBuf {
    let name: String = clip
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.is_empty() { "clip" } else { &name };
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    let mut file = format!("{stem}_{name}");
    if let Some(ext) = out.extension() {
        file.push('.');
        file.push_str(&ext.to_string_lossy());
    }
    out.with_file_name(file)
}

/// One document per clip of `doc` (skeleton, mesh and source kept), for a format that holds
/// one clip per file, with the path each is written to; clips whose names sanitize alike get a
/// number.
fn split_clips(doc: &Document, out: &Path) -> Vec<(Document, PathBuf)> {
    let mut base = doc.clone();
    base.clips = Vec::new();
    let mut used = std::collections::HashSet::new();
    doc.clips
        .iter()
        .map(|clip| {
            let mut one = base.clone();
            one.clips = vec![clip.clone()];
            let mut path = clip_path(out, &clip.name);
            let mut n = 2;
            while !used.insert(path.clone()) {
                path = clip_path(out, &format!("{}_{n}", clip.name));
                n += 1;
            }
            (one, path)
        })
        .collect()
}

/// Rewrites the file, printing the sizes before and after (in bytes) and every kind of data the
/// target format could not hold. A document with several clips converted to a format that holds
/// one clip per file ([`Format::holds_one_clip`]) is written one file per clip, named after the
/// output with `_CLIP` added to its stem.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let doc = output::read(&args.file, read)?;
    let from = doc.format;
    let to = args
        .to
        .or_else(|| format_for_extension(&args.output.output))
        .unwrap_or(from);
    let before = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let formats = if from == to {
        to.to_string()
    } else {
        format!("{from} → {to}")
    };
    if to.holds_one_clip() && doc.clips.len() > 1 {
        let mut lost: Vec<String> = Vec::new();
        for (one, path) in split_clips(&doc, &args.output.output) {
            for what in formats::conversion_losses(&one, to) {
                if !lost.contains(&what) {
                    lost.push(what);
                }
            }
            let one = one.converted_to(to);
            let after = args.output.write_to(&one, &path)?;
            println!(
                "convert: clip '{}', {} keys; {} bytes ({formats}); wrote {}",
                one.clips[0].name,
                thousands(one.clips[0].key_count()),
                thousands(after as usize),
                path.display()
            );
        }
        println!(
            "convert: {} clip(s) from {} bytes, one file per clip ({to} holds one clip)",
            doc.clips.len(),
            thousands(before as usize)
        );
        for what in lost {
            println!("convert: not written: {what}");
        }
        output::release(doc);
        return Ok(ExitCode::SUCCESS);
    }
    let lost = formats::conversion_losses(&doc, to);
    let doc = doc.converted_to(to);
    let after = args.output.write(&doc)?;
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
