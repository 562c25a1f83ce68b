//! `clipscope info FILE [--json]`: what is in a file, clip by clip and track by track.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use super::Outcome;
use super::output::{self, thousands};
use crate::formats::Document;

/// Arguments of `info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to describe.
    pub file: PathBuf,
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Prints the description.
pub fn run(args: Args) -> Outcome {
    let doc = output::read(&args.file)?;
    if args.json {
        println!("{}", to_json(&doc));
    } else {
        print!("{}", to_text(&doc));
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--json` report: `{"format", "clips": [{"name", "duration", "blendMode", "uuid",
/// "tracks": [{"name", "type", "interpolation", "keys", "valueSize"}]}]}`.
pub fn to_json(doc: &Document) -> Value {
    let clips: Vec<Value> = doc
        .clips
        .iter()
        .map(|clip| {
            let tracks: Vec<Value> = clip
                .tracks
                .iter()
                .map(|t| {
                    json!({
                        "name": t.name,
                        "type": t.kind.type_name(),
                        "interpolation": t.interpolation.name(),
                        "keys": t.len(),
                        "valueSize": t.value_size(),
                    })
                })
                .collect();
            json!({
                "name": clip.name,
                "duration": clip.duration,
                "blendMode": clip.blend_mode.name(),
                "uuid": clip.uuid,
                "tracks": tracks,
            })
        })
        .collect();
    json!({ "format": doc.format.name(), "clips": clips })
}

/// The human-readable report: one header line per clip, then one aligned line per track.
pub fn to_text(doc: &Document) -> String {
    let mut out = String::new();
    let path = doc
        .path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{path}: {} file, {} clip(s)",
        doc.format.name(),
        doc.clips.len()
    );
    for (i, clip) in doc.clips.iter().enumerate() {
        let _ = writeln!(
            out,
            "\nclip {i} \"{}\": {:.3} s, {} blending, {} tracks, {} keys, uuid {}",
            clip.name,
            clip.duration,
            clip.blend_mode.name(),
            clip.tracks.len(),
            thousands(clip.key_count()),
            clip.uuid.as_deref().unwrap_or("(none)")
        );
        let width = clip
            .tracks
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(0);
        for t in &clip.tracks {
            let _ = writeln!(
                out,
                "  {:<width$}  {:<10} {:<8} {:>7} keys × {}",
                t.name,
                t.kind.type_name(),
                t.interpolation.name(),
                thousands(t.len()),
                t.value_size(),
            );
        }
    }
    out
}
