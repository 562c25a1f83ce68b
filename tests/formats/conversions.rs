//! Every file of the shared corpus converts to every format clipscope writes (three.js,
//! legacy three.js, PlayCanvas, glTF, GLB), and what a conversion carries plays back the same.
//!
//! Each conversion goes through the library the way `clipscope convert` does: read,
//! [`conversion_losses`], [`Document::converted_to`], [`check_writable`], [`write_file`] into a
//! temporary folder (one file per clip for a format that holds one clip), then read back. Every
//! source track found again in the read-back clip of the same name (same track name, or the
//! `.bones[X].p` ↔ `X.p` forms, node names sanitized for glTF) is sampled at 5 frame-aligned
//! times and compared: within 1e-4 (relative to the value's magnitude above 1; quaternions up
//! to sign, normalized), or 1e-3 for a source track that is not linear (it may be baked). Documents without
//! clips are skipped. Lottie as a target is covered by its own tests.

use std::path::PathBuf;

use crate::test_support::sample_data;
use clipscope_core::formats::{
    Document, Format, WriteOptions, check_writable, conversion_losses, read_file, track_aliases,
    write_file,
};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Clip, Interpolation, Track, TrackKind};

/// The formats every file must convert to.
const TARGETS: [Format; 5] = [
    Format::ThreeJs,
    Format::ThreeJsLegacy,
    Format::PlayCanvas,
    Format::Gltf,
    Format::Glb,
];

/// Every file of the sample data: `*/*.json` and `gltf/*.gltf`, sorted; `None` (the test is
/// skipped) without the sample data.
fn corpus() -> Option<Vec<PathBuf>> {
    let root = sample_data("")?;
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root).expect("shared data").flatten() {
        if !dir.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(dir.path()).expect("folder").flatten() {
            let p = f.path();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            let gltf = dir.file_name() == "gltf" && ext == "gltf";
            if ext == "json" || gltf {
                files.push(p);
            }
        }
    }
    files.sort();
    Some(files)
}

/// The frame rate of a clip's source (`fps`, a Lottie composition's `fr`, else 30).
fn fps(clip: &Clip) -> f64 {
    clip.extras
        .get("fps")
        .and_then(|raw| serde_json::from_str::<f64>(raw.get()).ok())
        .or_else(|| clip.layers.as_ref().map(|l| l.fps))
        .filter(|f| *f > 0.0 && f.is_finite())
        .unwrap_or(30.0)
}

/// 5 times over the clip, on whole frames of its frame rate (where baked keys are exact).
fn times(clip: &Clip) -> Vec<f64> {
    let end = clip
        .tracks
        .iter()
        .filter_map(Track::end_time)
        .fold(clip.duration.max(0.0) as f32, f32::max) as f64;
    let fps = fps(clip);
    (0..5)
        .map(|i| {
            let frame = (end * fps * i as f64 / 4.0).floor();
            (frame / fps) as f32 as f64
        })
        .collect()
}

/// The numeric values of `track` at `t`.
fn sample(track: &Track, t: f64) -> Vec<f64> {
    let mut out = vec![0.0; track.value_size()];
    Sampler::new(track).evaluate_f64(t, &mut out);
    out
}

/// Whether `track` plays back from its keys alone, linearly (so no format bakes it).
fn linear(track: &Track) -> bool {
    Track::resolve_interpolation(track.kind, Some(track.interpolation)) == Interpolation::Linear
        && track.tangents.is_none()
}

/// How one conversion went: tracks compared, and mismatches.
#[derive(Default)]
struct Tally {
    compared: usize,
    tracks: usize,
}

/// Compares the clips of `src` with those read back in `back`, adding mismatches to `bad`.
fn compare(src: &Document, back: &Document, what: &str, tally: &mut Tally, bad: &mut Vec<String>) {
    for clip in &src.clips {
        tally.tracks += clip.tracks.len();
        let Some(other) = back.clips.iter().find(|c| c.name == clip.name) else {
            continue;
        };
        let times = times(clip);
        for track in &clip.tracks {
            if track.values.as_numbers().is_none() || track.is_empty() {
                continue;
            }
            let names = track_aliases(&track.name);
            let Some(found) = other.tracks.iter().find(|t| {
                // A root morph track comes back on the mesh's node in glTF.
                let on_node = track.name.starts_with(".morphTargetInfluences[")
                    && t.name.ends_with(&track.name);
                (names.contains(&t.name) || on_node) && t.values.as_numbers().is_some()
            }) else {
                continue;
            };
            tally.compared += 1;
            let tolerance = if linear(track) { 1e-4 } else { 1e-3 };
            for &t in &times {
                let (mut a, mut b) = (sample(track, t), sample(found, t));
                if track.kind == TrackKind::Quaternion {
                    // Formats that store rotations (PlayCanvas Euler angles) normalize them.
                    for q in [&mut a, &mut b] {
                        let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                        if len > 0.0 {
                            q.iter_mut().for_each(|x| *x /= len);
                        }
                    }
                }
                let n = a.len().min(b.len());
                let diff = |sign: f64| {
                    (0..n)
                        .map(|i| (a[i] - sign * b[i]).abs() / a[i].abs().max(1.0))
                        .fold(0.0, f64::max)
                };
                let d = if track.kind == TrackKind::Quaternion {
                    diff(1.0).min(diff(-1.0))
                } else {
                    diff(1.0)
                };
                if d > tolerance || n == 0 {
                    bad.push(format!(
                        "{what}: clip '{}' track '{}' (as '{}') at {t}: {a:?} vs {b:?}",
                        clip.name, track.name, found.name
                    ));
                    break;
                }
            }
        }
    }
}

#[test]
fn every_file_converts_to_every_format() {
    let Some(corpus) = corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut bad = Vec::new();
    let mut matrix = Vec::new();
    for path in corpus {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let doc = match read_file(&path) {
            Ok(d) => d,
            Err(e) => {
                bad.push(format!("{file}: cannot read: {e}"));
                continue;
            }
        };
        if doc.clips.is_empty() {
            matrix.push(format!("{file}: no clips, skipped"));
            continue;
        }
        for to in TARGETS {
            let parts: Vec<Document> = if to.holds_one_clip() && doc.clips.len() > 1 {
                doc.clips
                    .iter()
                    .map(|c| {
                        let mut one = doc.clone();
                        one.clips = vec![c.clone()];
                        one
                    })
                    .collect()
            } else {
                vec![doc.clone()]
            };
            let what = format!("{file} → {to}");
            let mut tally = Tally::default();
            let mut ok = true;
            for (i, part) in parts.into_iter().enumerate() {
                let _losses = conversion_losses(&part, to);
                let converted = part.clone().converted_to(to);
                if let Err(e) = check_writable(&converted) {
                    bad.push(format!("{what}: refused: {e}"));
                    ok = false;
                    continue;
                }
                let out = dir
                    .path()
                    .join(format!("{file}.{i}.{}.{}", to.name(), to.extension()));
                if let Err(e) = write_file(&converted, &out, &WriteOptions::default()) {
                    bad.push(format!("{what}: cannot write: {e}"));
                    ok = false;
                    continue;
                }
                match read_file(&out) {
                    Ok(back) => compare(&part, &back, &what, &mut tally, &mut bad),
                    Err(e) => {
                        bad.push(format!("{what}: cannot read back: {e}"));
                        ok = false;
                    }
                }
            }
            matrix.push(format!(
                "{what}: {} ({} of {} tracks compared)",
                if ok { "ok" } else { "FAILED" },
                tally.compared,
                tally.tracks
            ));
        }
    }
    eprintln!("{}", matrix.join("\n"));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
