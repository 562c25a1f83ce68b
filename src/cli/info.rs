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
/// "tracks": [{"name", "type", "interpolation", "keys", "valueSize"}]}], "unread": [{"path",
/// "what", "clip"}]}` (`unread`: keyframe data in the file that clipscope does not read).
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
    let unread: Vec<Value> = doc
        .unread
        .iter()
        .map(|u| json!({"path": u.path, "what": u.what, "clip": u.clip}))
        .collect();
    json!({ "format": doc.format.name(), "clips": clips, "unread": unread })
}

/// The human-readable report: one header line per clip, then one aligned line per track (a
/// clip without tracks says so), and a line for every place of keyframe data clipscope does
/// not read.
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
        if clip.tracks.is_empty() {
            let why = if doc.unread.iter().any(|u| u.clip.is_none_or(|c| c == i)) {
                "no tracks clipscope reads: see \"not read\" below"
            } else {
                "no tracks: the clip animates nothing"
            };
            let _ = writeln!(out, "  ({why})");
        }
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
    if !doc.unread.is_empty() {
        let _ = writeln!(
            out,
            "\nnot read ({} place(s) of keyframe data in a shape clipscope does not read):",
            doc.unread.len()
        );
        for u in &doc.unread {
            let clip = u.clip.map(|c| format!("clip {c}: ")).unwrap_or_default();
            let _ = writeln!(out, "  {clip}{}: {}", u.path, u.what);
        }
    }
    out
}
