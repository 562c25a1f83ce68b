//! `clipscope git textconv FILE`: one version of a clip file as text for git's line diff (what
//! `git log -p` and `git show` print for clip files after `clipscope git setup`).
//!
//! One line per clip, marker and track; a track's line holds its type, interpolation, key count
//! and time range, a summary of its values (how far a rotation turns from its first key, the
//! range of each component of other numbers, the values of a flag or text track) and a
//! fingerprint of its keys, so a track whose keys change shows as one changed line with its
//! new summary, however many numbers changed, and an unchanged track does not show at all.
//! A file that is not a clip file (any other JSON) is passed through unchanged.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::formats::{self, Document, ReadOptions};
use clipscope_core::model::ops::reduce::rotation_angle;
use clipscope_core::model::{Clip, Track, TrackKind, Values};

use super::super::Outcome;
use crate::cli::diff::text::{amount, seconds};

/// Arguments of `git textconv`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file (git passes a temporary copy of the version).
    pub file: PathBuf,
}

/// Prints the listing of the file, or the file itself when it is not a clip file.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let text = match formats::read_bytes_with(&bytes, &args.file, read) {
        Ok(doc) => listing(&doc),
        Err(e) if bytes.starts_with(b"glTF") => format!("clipscope: cannot read this GLB: {e}\n"),
        Err(_) => {
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| e.to_string())?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The listing of `doc`.
pub fn listing(doc: &Document) -> String {
    let mut out = format!(
        "clipscope: {} file, {} clip(s){}\n",
        doc.format.spec().name,
        doc.clips.len(),
        doc.skeleton.as_ref().map_or(String::new(), |s| format!(
            ", skeleton of {} joint(s)",
            s.bones.len()
        ))
    );
    for clip in &doc.clips {
        clip_lines(&mut out, clip);
    }
    for u in &doc.unread {
        out.push_str(&format!("not read: {}: {}\n", u.path, u.what));
    }
    out
}

/// A clip's lines.
fn clip_lines(out: &mut String, clip: &Clip) {
    out.push_str(&format!(
        "clip {:?}: {} s, {} blending, {} track(s), {} key(s)\n",
        clip.name,
        seconds(clip.duration),
        clip.blend_mode.name(),
        clip.tracks.len(),
        clip.key_count()
    ));
    for m in clip.markers() {
        out.push_str(&format!("  marker {:?} at {} s\n", m.name, seconds(m.time)));
    }
    for track in &clip.tracks {
        out.push_str(&format!("  {}\n", track_line(track)));
    }
}

/// A track's line (see the module docs).
fn track_line(t: &Track) -> String {
    let range = match (t.times.first(), t.times.last()) {
        (Some(a), Some(b)) => format!(" {}–{} s", seconds(*a), seconds(*b)),
        _ => String::new(),
    };
    format!(
        "{}: {} {}, {} key(s){range}, {} #{:08x}",
        t.name,
        t.kind,
        t.interpolation,
        t.len(),
        summary(t),
        fingerprint(t)
    )
}

/// What the values do, in a few words.
fn summary(t: &Track) -> String {
    let size = t.value_size();
    match &t.values {
        Values::Numbers(v) if size == 0 => format!("{} value(s)", v.len()),
        Values::Numbers(v) if t.kind == TrackKind::Quaternion && size == 4 => {
            let first: Vec<f64> = v[..4].iter().map(|&x| x as f64).collect();
            let most = v
                .chunks_exact(4)
                .map(|q| {
                    let q: Vec<f64> = q.iter().map(|&x| x as f64).collect();
                    rotation_angle(&first, &q).to_degrees()
                })
                .fold(0.0, f64::max);
            format!("turns up to {}° from its first key", amount(most))
        }
        Values::Numbers(v) => {
            let names = ["x", "y", "z", "w"];
            let parts: Vec<String> = (0..size.min(names.len()))
                .map(|c| {
                    let (lo, hi) = v
                        .iter()
                        .skip(c)
                        .step_by(size)
                        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| {
                            (lo.min(x), hi.max(x))
                        });
                    let name = if size == 1 { "values" } else { names[c] };
                    format!("{name} {}…{}", amount(lo as f64), amount(hi as f64))
                })
                .collect();
            let more = if size > names.len() {
                format!(" (+{} more per key)", size - names.len())
            } else {
                String::new()
            };
            format!("{}{more}", parts.join(", "))
        }
        Values::Bools(v) => format!(
            "{} true, {} false",
            v.iter().filter(|b| **b).count(),
            v.iter().filter(|b| !**b).count()
        ),
        Values::Strings(v) => {
            let mut distinct: Vec<&str> = Vec::new();
            for s in v {
                if !distinct.contains(&s.as_str()) && distinct.len() < 4 {
                    distinct.push(s);
                }
            }
            format!("values {distinct:?}")
        }
    }
}

/// FNV-1a over the track's key times, values, interpolation and handles: stable from run to run
/// and from machine to machine.
fn fingerprint(t: &Track) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= *b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
    };
    eat(t.interpolation.name().as_bytes());
    for x in &t.times {
        eat(&x.to_bits().to_le_bytes());
    }
    match &t.values {
        Values::Numbers(v) => v.iter().for_each(|x| eat(&x.to_bits().to_le_bytes())),
        Values::Bools(v) => v.iter().for_each(|b| eat(&[*b as u8])),
        Values::Strings(v) => v.iter().for_each(|s| {
            eat(s.as_bytes());
            eat(&[0]);
        }),
    }
    if let Some(tangents) = &t.tangents {
        eat(format!("{tangents:?}").as_bytes());
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_track_line_summarizes_without_listing_numbers() {
        let h = 30f32.to_radians() / 2.0;
        let t = Track::numeric(
            "hip.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, h.sin(), 0.0, 0.0, h.cos()],
        );
        let line = track_line(&t);
        assert!(line.starts_with("hip.quaternion: quaternion linear, 2 key(s) 0–1 s, turns up to 30.0° from its first key #"), "{line}");
        let mut moved = t.clone();
        moved.times[1] = 1.5;
        assert_ne!(fingerprint(&t), fingerprint(&moved));
        let p = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 1.0, 2.0, 0.5, 1.0, 3.0],
        );
        assert!(
            track_line(&p).contains("x 0…0.500, y 1.00…1.00, z 2.00…3.00"),
            "{}",
            track_line(&p)
        );
    }
}
