//! `clipscope convert FILE -o OUT [--to FORMAT]`: read and write again, with compact or rounded
//! numbers, optionally in another format (three.js clip JSON, legacy three.js JSON, PlayCanvas
//! animation JSON, glTF, GLB or Lottie, where a non-Lottie document becomes null layers).
//! Without `--to`, an output ending in `.gltf` or `.glb` picks that format. A format that holds
//! one clip (PlayCanvas) gets one file per clip of a document with several: `OUT_CLIP.json`.
//!
//! Every written file is measured in its destination's player ([`formats::fidelity`]): the
//! summary gives the largest deviation between the source and what the destination plays
//! (positions in file units, rotations in degrees, other values relative) and the keys added so
//! the destination follows the source; `--json` gives it per track, and `--max-deviation`
//! fails instead of writing a file that would play differently.

use clipscope_core::formats::ReadOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use super::Outcome;
use super::output::{self, OutputArgs, format_for_extension, thousands};
use clipscope_core::formats::{
    self, Document, Fidelity, Format, Limits, Quantity, Tolerance, WriteOptions,
};

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to convert.
    pub file: PathBuf,
    /// The output format: `threejs` (AnimationClip JSON), `threejs-legacy` (model format 3
    /// hierarchy keys), `playcanvas` (animation JSON v4; steps and curves as linear keys the
    /// engine's `Skeleton` plays as the source), `playcanvas-anim` (an anim clip), `gltf` (JSON, embedded buffers), `glb` (binary glTF) or `lottie` (a
    /// Lottie input is written back; other documents become a composition of null layers); when
    /// not given, the output's `.gltf` / `.glb` extension, else the input's own format.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub to: Option<Format>,
    /// Where the destination plays keys otherwise than the source (PlayCanvas rotations,
    /// Euler angles, linear-only keys, curves a format cannot hold), keys are added until its
    /// rotations stay within this many degrees of the source's.
    #[arg(long, value_name = "DEGREES", default_value_t = formats::DEFAULT_ROTATION_DEG,
          value_parser = parse_tolerance)]
    pub tolerance: f64,
    /// The same for positions, scales and other values: the largest difference relative to the
    /// value's magnitude above 1 (`|a − b| / max(|a|, 1)`).
    #[arg(long, value_name = "RELATIVE", default_value_t = formats::DEFAULT_RELATIVE,
          value_parser = parse_tolerance)]
    pub value_tolerance: f64,
    /// Fail (exit 1, nothing written) when a written track would play further from the source
    /// than this in its destination: one number for every quantity in its unit (degrees for
    /// rotations, file units for positions, relative for scales and other values), or
    /// `rotation=0.05,position=0.001,scale=1e-4,value=1e-4` (any of them).
    #[arg(long, value_name = "LIMITS", value_parser = Limits::parse)]
    pub max_deviation: Option<Limits>,
    /// Print the report as JSON: each file written with its deviations per track, the tracks
    /// not written and why.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A tolerance: a finite number above 0.
fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{text:?} is not a number above 0")),
    }
}

/// A format from its short name (`threejs`, `threejs-legacy`, `playcanvas`).
pub(super) fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format '{name}' (expected {})", names.join(" or "))
    })
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

/// One file to write: the document in its destination format, where it goes, and how it plays.
struct Written {
    doc: Document,
    path: PathBuf,
    bytes: Vec<u8>,
    fidelity: Fidelity,
}

/// Rewrites the file, printing the sizes before and after (in bytes), every kind of data the
/// target format could not hold and how each written file plays in its destination. A document
/// with several clips converted to a format that holds one clip per file
/// ([`Format::holds_one_clip`]) is written one file per clip, named after the output with
/// `_CLIP` added to its stem. With `--max-deviation`, nothing is written when a file would play
/// further from the source than allowed (exit 1).
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let doc = output::read(&args.file, read)?;
    let from = doc.format;
    let to = args
        .to
        .or_else(|| format_for_extension(&args.output.output))
        .unwrap_or(from);
    let before = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let opts = WriteOptions {
        tolerance: Tolerance {
            rotation_deg: args.tolerance,
            relative: args.value_tolerance,
        },
        ..args.output.write_options()
    };
    let parts: Vec<(Document, PathBuf)> = if to.holds_one_clip() && doc.clips.len() > 1 {
        split_clips(&doc, &args.output.output)
    } else {
        vec![(doc.clone(), args.output.output.clone())]
    };
    let mut lost: Vec<String> = Vec::new();
    let mut files = Vec::with_capacity(parts.len());
    for (part, path) in parts {
        let losses = formats::conversion_losses(&part, to);
        let part = part.converted_to(to);
        formats::check_writable(&part).map_err(|e| format!("{}: {e}", path.display()))?;
        // Written once: the bytes measured are the bytes written.
        let (bytes, fidelity) = formats::write_measured(&part, &opts, &losses);
        for what in losses {
            if !lost.contains(&what) {
                lost.push(what);
            }
        }
        files.push(Written {
            doc: part,
            path,
            bytes,
            fidelity,
        });
    }
    if let Some(limits) = &args.max_deviation {
        let beyond: Vec<String> = files
            .iter()
            .flat_map(|f| f.fidelity.beyond(limits).map(move |t| (f, t)))
            .map(|(f, t)| {
                format!(
                    "{}: clip '{}' track '{}' plays {} from the source at {:.4} s",
                    f.path.display(),
                    t.clip,
                    t.track,
                    deviation_text(t.quantity, t.deviation),
                    t.at
                )
            })
            .collect();
        if !beyond.is_empty() {
            if args.json {
                let report = report(&args, from, to, before, &files, &[], &lost, false);
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            }
            for line in &beyond {
                eprintln!("convert: {line}");
            }
            eprintln!(
                "convert: nothing written: {} track(s) would play beyond --max-deviation",
                beyond.len()
            );
            return Ok(ExitCode::from(1));
        }
    }
    let mut sizes = Vec::with_capacity(files.len());
    for f in &files {
        formats::write_atomic(&f.path, &f.bytes)
            .map_err(|e| format!("{}: cannot write: {e}", f.path.display()))?;
        sizes.push(std::fs::metadata(&f.path).map(|m| m.len()).unwrap_or(0));
    }
    if args.json {
        let report = report(&args, from, to, before, &files, &sizes, &lost, true);
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print_summary(&doc, from, to, before, &files, &sizes, &lost);
    }
    output::release(doc);
    Ok(ExitCode::SUCCESS)
}

/// A deviation in its quantity's unit ([`Quantity::describe`]).
fn deviation_text(quantity: Quantity, d: f64) -> String {
    quantity.describe(d)
}

/// The text summary: one line per file, its deviations, then what was not written.
fn print_summary(
    doc: &Document,
    from: Format,
    to: Format,
    before: u64,
    files: &[Written],
    sizes: &[u64],
    lost: &[String],
) {
    let formats = if from == to {
        to.to_string()
    } else {
        format!("{from} → {to}")
    };
    let split = files.len() > 1 || (to.holds_one_clip() && doc.clips.len() > 1);
    for (f, size) in files.iter().zip(sizes) {
        if split {
            println!(
                "convert: clip '{}', {} keys; {} bytes ({formats}); wrote {}",
                f.doc.clips.first().map_or("", |c| c.name.as_str()),
                thousands(f.doc.clips.first().map_or(0, |c| c.key_count())),
                thousands(*size as usize),
                f.path.display()
            );
        } else {
            println!(
                "convert: {} clip(s), {} keys; {} → {} bytes ({formats}); wrote {}",
                f.doc.clips.len(),
                thousands(f.doc.clips.iter().map(|c| c.key_count()).sum()),
                thousands(before as usize),
                thousands(*size as usize),
                f.path.display()
            );
        }
        println!("convert: {}", f.fidelity.summary(to));
        for line in noted_lines(&f.fidelity) {
            println!("convert: {line}");
        }
        if let Some(line) = seam_line(&f.fidelity, to) {
            println!("convert: {line}");
        }
    }
    if split {
        println!(
            "convert: {} clip(s) from {} bytes, one file per clip ({to} holds one clip)",
            doc.clips.len(),
            thousands(before as usize)
        );
    }
    for what in lost {
        println!("convert: not written: {what}");
    }
}

/// `loops in playcanvas-anim as the source does looped (…); jumps at the seam: rotation 12°
/// ('Hips.quaternion'), …`, when a written track's end and start differ.
fn seam_line(fidelity: &Fidelity, to: Format) -> Option<String> {
    if fidelity.seams.is_empty() {
        return None;
    }
    let jumps: Vec<String> = fidelity
        .seams
        .iter()
        .map(|s| {
            format!(
                "{} {} ('{}')",
                s.quantity.name(),
                deviation_text(s.quantity, s.jump),
                s.track
            )
        })
        .collect();
    Some(format!(
        "loops in {to} as the source does looped (the last key held to the clip's end, then the \
         first, no interpolation across the seam); jumps at the seam: {}",
        jumps.join(", ")
    ))
}

/// What the measurement could not see of written tracks, one line per note: `2 track(s)
/// ('L.position', 'M.position') driven by an expression …`.
fn noted_lines(fidelity: &Fidelity) -> Vec<String> {
    let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in fidelity.tracks.iter().filter(|t| t.target.is_some()) {
        let Some(note) = t.note.as_deref() else {
            continue;
        };
        match notes.iter_mut().find(|(n, _)| *n == note) {
            Some((_, tracks)) => tracks.push(&t.track),
            None => notes.push((note, vec![&t.track])),
        }
    }
    notes
        .into_iter()
        .map(|(note, tracks)| {
            let shown: Vec<String> = tracks.iter().take(4).map(|t| format!("'{t}'")).collect();
            let more = if tracks.len() > 4 { ", …" } else { "" };
            format!(
                "{} track(s) ({}{more}) {note}",
                tracks.len(),
                shown.join(", ")
            )
        })
        .collect()
}

/// The `--json` report.
#[allow(clippy::too_many_arguments)]
fn report(
    args: &Args,
    from: Format,
    to: Format,
    before: u64,
    files: &[Written],
    sizes: &[u64],
    lost: &[String],
    written: bool,
) -> Value {
    let files: Vec<Value> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let largest: serde_json::Map<String, Value> = Quantity::ALL
                .iter()
                .filter_map(|&q| f.fidelity.largest(q))
                .map(|t| (t.quantity.name().to_string(), finite(t.deviation)))
                .collect();
            let tracks: Vec<Value> = f
                .fidelity
                .tracks
                .iter()
                .map(|t| {
                    json!({
                        "clip": t.clip,
                        "track": t.track,
                        "quantity": t.quantity.name(),
                        "target": t.target,
                        "deviation": finite(t.deviation),
                        "at": t.at,
                        "keys_added": t.keys_added,
                        "note": t.note,
                    })
                })
                .collect();
            json!({
                "path": f.path,
                "bytes": sizes.get(i),
                "clips": f.doc.clips.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
                "keys": f.doc.clips.iter().map(|c| c.key_count()).sum::<usize>(),
                "keys_added": f.fidelity.keys_added(),
                "largest": largest,
                "tracks": tracks,
                "seams": f.fidelity.seams.iter().map(|s| json!({
                    "clip": s.clip,
                    "track": s.track,
                    "quantity": s.quantity.name(),
                    "jump": finite(s.jump),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "file": args.file,
        "from": from.name(),
        "to": to.name(),
        "bytes_before": before,
        "written": written,
        "tolerance": { "rotation": args.tolerance, "relative": args.value_tolerance },
        "files": files,
        "not_written": lost,
    })
}

/// A deviation for JSON: `null` where the player leaves the value alone (no number).
fn finite(d: f64) -> Value {
    if d.is_finite() { json!(d) } else { Value::Null }
}
