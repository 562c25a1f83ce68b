//! What each fuzz target checks, one function per target. Every function takes arbitrary bytes
//! and must return without panicking, hanging or aborting; the round trip also panics when what
//! was read does not read back equal after writing, and the packed check when a packed glTF
//! file does not read back as the reducer's model of it says.
//!
//! Only clipscope's public API is used, so the same functions run the committed regression
//! inputs under plain `cargo test` (`tests/formats/fuzz_regressions.rs` includes this file).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clipscope_core::formats::{self, Document, Format, Packing, ReadOptions, WriteOptions};
use clipscope_core::model::{Track, TrackKind};
use clipscope_core::validate::Baseline;
use clipscope_core::validate::{Config, check_bytes};
use clipscope_scene::procedural::{Cycle, Preset};

/// The name readers see: in a folder that does not exist, so a glTF buffer URI never reads a
/// real file.
fn fake_file(ext: &str) -> PathBuf {
    PathBuf::from(format!("/nonexistent-clipscope-fuzz/input.{ext}"))
}

/// Reads `data` as `format` strictly and leniently, then runs what callers run on a read
/// document (validation, lint rules, the writability check and conversion losses) and what
/// `clipscope validate` runs on the file (the validation engine with the default config).
fn read_as(format: Format, data: &[u8]) {
    let file = fake_file(format.extension());
    let opts = ReadOptions::default();
    if let Ok(doc) = formats::read_bytes_as(format, data, &file, &opts) {
        exercise(&doc);
    }
    let linted = formats::lint_bytes_as(format, data, &file, &opts);
    for p in &linted.problems {
        assert!(!p.message.contains('\n'), "a finding is one line: {p:?}");
    }
    if let Some(doc) = &linted.doc {
        exercise(doc);
    }
    // What `clipscope validate` does with the file: the lenient read, every rule the registry
    // applies to the detected format, the default levels.
    let report = check_bytes(data, &file, &default_settings(), &opts);
    for f in &report.problems {
        let p = &f.problem;
        assert!(!p.message.contains('\n'), "a finding is one line: {p:?}");
    }
}

/// The settings `clipscope validate` uses for a file when no `clipscope.toml` is found.
fn default_settings() -> clipscope_core::validate::FileSettings {
    static SETTINGS: OnceLock<clipscope_core::validate::FileSettings> = OnceLock::new();
    SETTINGS
        .get_or_init(|| Config::default_at(PathBuf::from("/")).settings_for("input", None))
        .clone()
}

/// What the editor and the CLI do with every document they read.
fn exercise(doc: &Document) {
    for clip in &doc.clips {
        let _ = clip.validate();
        let _ = clip.lint(&Default::default());
    }
    let _ = formats::check_writable(doc);
    for &to in Format::ALL {
        let _ = formats::conversion_losses(doc, to);
    }
    // What the viewport and `clipscope render` draw (Lottie's art): every clip's picture at its
    // start, middle and end, and the notes on what is not drawn.
    if let Some(art) = doc.artwork() {
        for (_, why) in doc.artwork_notes() {
            assert!(!why.contains('\n'), "a note is one line: {why}");
        }
        for clip in &doc.clips {
            for t in [0.0, 0.5, 1.0] {
                let _ = art.picture(clip, t * clip.duration);
            }
        }
    }
}

/// three.js JSON (`AnimationClip.toJSON`, arrays of clips, objects with `animations`).
pub fn threejs(data: &[u8]) {
    read_as(Format::ThreeJs, data);
}

/// Legacy three.js JSON (format 3 models, hierarchy animations).
pub fn threejs_legacy(data: &[u8]) {
    read_as(Format::ThreeJsLegacy, data);
}

/// PlayCanvas animation JSON.
pub fn playcanvas(data: &[u8]) {
    read_as(Format::PlayCanvas, data);
}

/// Lottie (bodymovin) JSON.
pub fn lottie(data: &[u8]) {
    read_as(Format::Lottie, data);
}

/// glTF 2.0 JSON.
pub fn gltf(data: &[u8]) {
    read_as(Format::Gltf, data);
}

/// Binary glTF (GLB): the container and the JSON and BIN chunks inside it.
pub fn glb(data: &[u8]) {
    read_as(Format::Glb, data);
}

/// Procedural cycle files and cycle presets: read, then evaluated at a few phases.
pub fn cycle(data: &[u8]) {
    if let Ok(cycle) = Cycle::from_json(data, "fuzz.json") {
        let values = cycle.defaults();
        let mut out = Vec::new();
        for phase in [0.0, 0.25, 0.5, 1.0] {
            let _ = cycle.evaluate(&values, phase, &mut out);
        }
        let _ = cycle.period(&values);
    }
    if let Ok(preset) = Preset::from_json(data, "preset.json") {
        for cycle in Cycle::builtins() {
            let _ = preset.values_for(cycle);
        }
    }
}

/// A scratch folder for the targets that read files, made once per process.
fn scratch() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a scratch folder"))
        .path()
}

/// `clipscope.toml`: loaded like `validate` loads it, then asked for a file's settings.
pub fn config_toml(data: &[u8]) {
    let path = scratch().join("clipscope.toml");
    std::fs::write(&path, data).expect("write the config");
    match Config::load(&path) {
        Ok(config) => {
            let _ = config.settings_for("clips/walk.json", None);
            let _ = config.relative(&scratch().join("clips/walk.json"));
        }
        Err(e) => assert!(
            !e.to_string().contains('\n'),
            "a config error is one line: {e}"
        ),
    }
}

/// Baseline files: read, and what was read writes and reads back equal.
pub fn baseline(data: &[u8]) {
    let path = scratch().join("baseline.json");
    std::fs::write(&path, data).expect("write the baseline");
    if let Ok(baseline) = Baseline::read_or_empty(&path) {
        let out = scratch().join("baseline-out.json");
        baseline
            .write(&out)
            .expect("a baseline that was read can be written");
        let back = Baseline::read_or_empty(&out).expect("a written baseline reads back");
        assert_eq!(back, baseline, "the baseline reads back equal");
    }
}

/// Read → write → read: a document that reads and is writable writes in its own format and
/// reads back as the same clips (times, values, names, durations, tangents, extras). Where the
/// writer says it adapts something the format cannot hold (`conversion_losses` into the
/// document's own format: repeated glTF key times separated, keys before 0 cut, …), what it
/// wrote must read back as what it writes again: one adaptation, then a fixed point.
pub fn round_trip(data: &[u8]) {
    let file = fake_file("json");
    let opts = ReadOptions::default();
    let Ok(doc) = formats::read_bytes_with(data, &file, &opts) else {
        return;
    };
    if formats::check_writable(&doc).is_err() {
        return;
    }
    let (written, back) = write_and_read(&doc, &file, &opts);
    if clips_text(&doc) == clips_text(&back) {
        return;
    }
    if formats::conversion_losses(&doc, doc.format).is_empty() {
        // Nothing adapted, yet the clips changed.
        same_clips(&doc, &back, &written);
    }
    let (again, back_again) = write_and_read(&back, &file, &opts);
    same_clips(&back, &back_again, &again);
}

/// Writes `doc` in its own format and reads it back; panics when what was written does not
/// read, or reads as another format.
fn write_and_read(doc: &Document, file: &Path, opts: &ReadOptions) -> (Vec<u8>, Document) {
    let written = formats::write_bytes(doc, &WriteOptions::default());
    let back = formats::read_bytes_as(doc.format, &written, file, opts).unwrap_or_else(|e| {
        panic!(
            "a written {} file does not read back: {e}\n{}",
            doc.format,
            String::from_utf8_lossy(&written[..written.len().min(2000)])
        )
    });
    assert_eq!(back.format, doc.format, "the format stays");
    (written, back)
}

/// Panics, showing where, when `back` (read from `written`) holds other clips than `doc`.
fn same_clips(doc: &Document, back: &Document, written: &[u8]) {
    let (a, b) = (clips_text(doc), clips_text(back));
    if a != b {
        panic!(
            "{} round trip changed the clips:\nread:    {}\nwritten: {}\nread back: {}",
            doc.format,
            first_difference(&a, &b).0,
            String::from_utf8_lossy(&written[..written.len().min(2000)]),
            first_difference(&a, &b).1,
        );
    }
}

/// The clips as text (NaN equals NaN, every field included).
fn clips_text(doc: &Document) -> String {
    format!("{:?}", doc.clips)
}

/// The two texts from a little before the first byte where they differ.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = a.floor_char_boundary(at.saturating_sub(120));
    let cut = |s: &str| {
        let end = s.floor_char_boundary((from + 400).min(s.len()));
        s.get(from..end).unwrap_or_default().to_string()
    };
    (cut(a), cut(b))
}

/// The packings [`packed`] writes with: quantized, quantized and compressed (rotations at the
/// filter's own bits and by their nodes' reach, translations and times rounded), and
/// compressed with the uncompressed fallback.
fn packings() -> [Packing; 4] {
    let base = Packing {
        quantize: true,
        ..Packing::default()
    };
    [
        base,
        Packing {
            meshopt: true,
            rotation_bits: 9,
            ..base
        },
        Packing {
            meshopt: true,
            rotation_bits: 10,
            rotation_error: 1e-3,
            float_error: 1e-3,
            time_error: 1e-3,
            ..base
        },
        Packing {
            meshopt: true,
            fallback: true,
            ..base
        },
    ]
}

/// Packed glTF: a glTF document that reads back from its plain write is written with each of
/// [`packings`]; what was written must read back with the same clips and tracks, each track
/// exactly as [`formats::packed_storage`] says the file stores it (what a reduction measures is
/// what the file plays).
pub fn packed(data: &[u8]) {
    let file = fake_file("glb");
    let opts = ReadOptions::default();
    let Ok(doc) = formats::read_bytes_with(data, &fake_file("json"), &opts) else {
        return;
    };
    if !matches!(doc.format, Format::Gltf | Format::Glb) || formats::check_writable(&doc).is_err() {
        return;
    }
    // Start from what the plain writer makes of it (one adaptation: a fixed point after).
    let plain = formats::write_bytes(&doc, &WriteOptions::default());
    let Ok(doc) = formats::read_bytes_as(doc.format, &plain, &file, &opts) else {
        return;
    };
    if !formats::conversion_losses(&doc, doc.format).is_empty() {
        return;
    }
    for packing in packings() {
        let write = WriteOptions {
            packing,
            ..WriteOptions::default()
        };
        let written = formats::write_bytes(&doc, &write);
        let back = formats::read_bytes_as(doc.format, &written, &file, &opts)
            .unwrap_or_else(|e| panic!("a file written with {packing:?} does not read back: {e}"));
        assert_eq!(back.clips.len(), doc.clips.len(), "{packing:?}: the clips");
        let stored = formats::packed_storage(doc.format, &packing, doc.skeleton.as_ref())
            .expect("glTF stores packed tracks");
        for (clip, read) in doc.clips.iter().zip(&back.clips) {
            assert_eq!(
                read.tracks.len(),
                clip.tracks.len(),
                "{packing:?}: the tracks"
            );
            for (track, got) in clip.tracks.iter().zip(&read.tracks) {
                assert_eq!(got.name, track.name, "{packing:?}: the tracks' order");
                if !unit_rotations(track) || track.name.contains(".morphTargetInfluences") {
                    // Not what a reduction writes, or (morph weights, which the writer joins
                    // per node into one accessor) not what the model covers.
                    continue;
                }
                let mut expected = track.clone();
                stored.apply(&mut expected);
                let same = |a: &Track, b: &Track| {
                    format!("{:?}{:?}{:?}", a.times, a.values, a.tangents)
                        == format!("{:?}{:?}{:?}", b.times, b.values, b.tangents)
                };
                if !same(got, &expected) {
                    let (file, model) =
                        first_difference(&format!("{got:?}"), &format!("{expected:?}"));
                    panic!(
                        "{packing:?}: {} reads back as {file}, the reducer's model says {model}",
                        track.name
                    );
                }
            }
        }
    }
}

/// Whether `track` is not a rotation, or holds only unit quaternions (to 1e-3).
fn unit_rotations(track: &Track) -> bool {
    if track.kind != TrackKind::Quaternion {
        return true;
    }
    let values = track.values.as_numbers().unwrap_or_default();
    values.chunks(4).all(|q| {
        let length = q.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
        q.len() == 4 && (length - 1.0).abs() <= 1e-3
    })
}
