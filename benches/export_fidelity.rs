//! Exports that play where they ship (issue 24): what `clipscope convert` adds to a conversion
//! for the 13 MB motion-capture take (`support/big_clip.rs`, 23 joints × 6214 frames, 69
//! tracks): writing a PlayCanvas anim clip with rotations made hemisphere-continuous and keys
//! added where the engine's normalised lerp strays (`write_playcanvas_anim`), and measuring how
//! the written file plays in the engine against the source (`measure_playcanvas_anim`, the
//! per-file "plays in" line); the same two for the legacy PlayCanvas animation (its `Skeleton`
//! plays linear keys fitted to the source) and for glTF (read back as three.js loads it); and
//! `write_measured_*`, both from one pass of the writer, which is what `convert` now runs.
//!
//! Run with `cargo bench --no-default-features --bench export_fidelity`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats::{self, Format, WriteOptions};

#[path = "support/big_clip.rs"]
mod big_clip;

fn export_fidelity(c: &mut Criterion) {
    let take = formats::read_bytes(big_clip::json().as_bytes(), Path::new("take.json")).unwrap();
    let opts = WriteOptions::default();
    let mut group = c.benchmark_group("export_fidelity");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for (name, format) in [
        ("playcanvas_anim", Format::PlayCanvasAnim),
        ("playcanvas", Format::PlayCanvas),
        ("glb", Format::Glb),
    ] {
        let doc = take.clone().converted_to(format);
        group.bench_function(format!("write_{name}"), |b| {
            b.iter(|| formats::write_bytes(&doc, &opts).len())
        });
        group.bench_function(format!("measure_{name}"), |b| {
            b.iter(|| formats::fidelity(&doc, &opts, &[]).tracks.len())
        });
        // What `convert` pays now: the file and its measurement from one pass of the writer.
        group.bench_function(format!("write_measured_{name}"), |b| {
            b.iter(|| formats::write_measured(&doc, &opts, &[]).0.len())
        });
    }
    group.finish();
}

criterion_group!(benches, export_fidelity);
criterion_main!(benches);
