//! `clipscope info FILE [--json] [--rig NAME|FILE]`: what is in a file, clip by clip and track
//! by track, and what each clip plays on (the figure the viewport chooses, or `--rig`'s) with
//! how many of its tracks bind.

use clipscope_core::formats::ReadOptions;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use std::sync::Arc;

use super::Outcome;
use super::figure::Cast;
use super::output::{self, thousands};
use clipscope_core::formats::Document;
use clipscope_core::model::Clip;
use clipscope_scene::{Figure, FigureReport, Player};

/// Arguments of `info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to describe.
    pub file: PathBuf,
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Bind the clips against this figure: a built-in rig's name (`hero`), `proxy`, `names`,
    /// `skeleton`, `mesh`, `model`, or a file (a rig file or any model with a skeleton).
    #[arg(long, value_name = "NAME|FILE")]
    pub rig: Option<String>,
}

/// Prints the description.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let doc = output::read(&args.file, read)?;
    let cast = Cast::new(&doc, &args.file, args.rig.as_deref())?;
    let figures = doc
        .clips
        .iter()
        .map(|clip| figure_report(&doc, &cast, clip))
        .collect::<Result<Vec<_>, _>>()?;
    if args.json {
        let mut value = to_json(&doc);
        if let Some(clips) = value.get_mut("clips").and_then(Value::as_array_mut) {
            for (clip, figure) in clips.iter_mut().zip(&figures) {
                clip["figure"] = figure_json(figure);
            }
        }
        println!("{value}");
    } else {
        print!("{}", to_text(&doc, &figures));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `clip` plays on with `cast`, and how much of it binds; `--rig`'s error if it names
/// nothing `clip` can play on.
pub fn figure_report(doc: &Document, cast: &Cast, clip: &Clip) -> Result<FigureReport, String> {
    let figure = Figure::for_clip(clip, cast.source(doc, clip), cast.choice.as_deref())
        .map_err(|e| format!("--rig: {e}"))?;
    Ok(Player::on(Arc::new(clip.clone()), figure).report())
}

/// A clip's `"figure"` object: `{"name", "source": "built-in" | "file" | "names" | "proxy",
/// "file" (when from a file), "bound", "tracks", "unbound": [track names], "mesh" (when the
/// figure draws one): {"vertices", "triangles", "skinned", "textures", "notes": [what could not
/// be drawn]}}`.
pub fn figure_json(report: &FigureReport) -> Value {
    let mut value = json!({
        "name": report.name,
        "source": report.source,
        "bound": report.bound,
        "tracks": report.tracks,
        "unbound": report.unbound,
    });
    if let Some(file) = &report.file {
        value["file"] = json!(file);
    }
    if let Some(mesh) = &report.mesh {
        value["mesh"] = json!({
            "vertices": mesh.vertices,
            "triangles": mesh.triangles,
            "skinned": mesh.skinned,
            "textures": mesh.textures,
            "notes": mesh.notes,
        });
    }
    value
}

/// The `--json` report: `{"format", "clips": [{"name", "duration", "blendMode", "uuid",
/// "tracks": [{"name", "type", "interpolation", "keys", "valueSize"}]}], "unread": [{"path",
/// "what", "clip"}], "accepted": [{"path", "what"}], "notDrawn": [{"path", "what"}]}` (`unread`:
/// keyframe data in the file that clipscope does not read; `accepted`: unusual shapes read the
/// way the engine reads them; `notDrawn`: artwork the viewport and `render` leave out).
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
    let accepted: Vec<Value> = doc
        .accepted
        .iter()
        .map(|a| json!({"path": a.path, "what": a.what}))
        .collect();
    let not_drawn: Vec<Value> = doc
        .artwork_notes()
        .into_iter()
        .map(|(path, what)| json!({"path": path, "what": what}))
        .collect();
    json!({ "format": doc.format.name(), "clips": clips, "unread": unread, "accepted": accepted, "notDrawn": not_drawn })
}

/// The human-readable report: one header line per clip, then one aligned line per track (a
/// clip without tracks says so), and a line for every place of keyframe data clipscope does
/// not read.
///
/// Each clip with a report in `figures` gets a "plays on" line.
pub fn to_text(doc: &Document, figures: &[FigureReport]) -> String {
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
        if let Some(f) = figures.get(i) {
            let from = match &f.file {
                Some(file) => format!("{}: {file}", f.source),
                None => f.source.to_string(),
            };
            let _ = writeln!(
                out,
                "  plays on {} ({from}): {} of {} tracks bound",
                f.name, f.bound, f.tracks
            );
            if let Some(m) = &f.mesh {
                let _ = writeln!(
                    out,
                    "  mesh: {} vertices, {} triangles, {}, {} texture(s)",
                    thousands(m.vertices),
                    thousands(m.triangles),
                    if m.skinned { "skinned" } else { "not skinned" },
                    m.textures
                );
                for note in &m.notes {
                    let _ = writeln!(out, "    {note}");
                }
            }
        }
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
    if !doc.accepted.is_empty() {
        let _ = writeln!(
            out,
            "\nread as the engine reads it ({} unusual shape(s)):",
            doc.accepted.len()
        );
        for a in &doc.accepted {
            let _ = writeln!(out, "  {}", a.describe());
        }
    }
    let not_drawn = doc.artwork_notes();
    if !not_drawn.is_empty() {
        let _ = writeln!(
            out,
            "\nnot drawn ({} part(s) of the artwork clipscope does not draw):",
            not_drawn.len()
        );
        for (path, why) in &not_drawn {
            let _ = writeln!(out, "  {path}: {why}");
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
