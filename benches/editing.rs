//! The editor's clip and key operations on a long motion-capture take (issue 18): 23 joints ×
//! 6,214 frames, 428,766 keys (`benches/support/big_clip.rs`). Each is linear in the keys, so
//! on this take each should stay well under a frame of the editor (16 ms) or near it.
//!
//! * `editing/copy_all_keys` — `KeyClipboard::copy` of every key;
//! * `editing/paste_all_keys` — pasting them back onto the take (every key replaced: one sorted
//!   merge per track);
//! * `editing/split_at_middle` — `Clip::split_at` half way;
//! * `editing/unroll_quaternions` — every quaternion track checked and unrolled;
//! * `editing/smooth_all_keys` — one pass of Smooth Keys over every key;
//! * `editing/resample_24fps` — baking to 24 fps through three.js's interpolants;
//! * `editing/rename_tracks` — a regular-expression rename of every track.
//!
//! Run with `cargo bench --no-default-features --bench editing`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats;
use clipscope_core::model::Clip;
use clipscope_core::model::ops::{KeyClipboard, PasteValues, paste_keys};

#[path = "support/big_clip.rs"]
mod big_clip;

fn take() -> Clip {
    let json = big_clip::json();
    let doc = formats::read_bytes(json.as_bytes(), Path::new("take.json")).unwrap();
    doc.clips.into_iter().next().unwrap()
}

fn every_key(clip: &Clip) -> Vec<(usize, usize)> {
    clip.tracks
        .iter()
        .enumerate()
        .flat_map(|(t, track)| (0..track.len()).map(move |k| (t, k)))
        .collect()
}

fn editing(c: &mut Criterion) {
    let clip = take();
    let keys = every_key(&clip);
    let mut g = c.benchmark_group("editing");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("copy_all_keys", |b| {
        b.iter(|| black_box(KeyClipboard::copy(&clip, keys.iter().copied())))
    });
    let board = KeyClipboard::copy(&clip, keys.iter().copied());
    let targets: Vec<Option<usize>> = board.tracks.iter().map(|t| Some(t.source)).collect();
    g.bench_function("paste_all_keys", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| {
                black_box(paste_keys(
                    &mut c,
                    &board,
                    &targets,
                    0.0,
                    PasteValues::Absolute,
                ))
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("split_at_middle", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| {
                let half = c.duration / 2.0;
                black_box(c.split_at(half, "tail").unwrap())
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("unroll_quaternions", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| black_box(c.unroll_quaternions()),
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("smooth_all_keys", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| {
                for track in &mut c.tracks {
                    let all: Vec<usize> = (0..track.len()).collect();
                    black_box(track.smooth_keys(&all, 0.5, 1));
                }
                c
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("resample_24fps", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| black_box(c.resample(24.0).unwrap()),
            criterion::BatchSize::LargeInput,
        )
    });
    let re = regex::Regex::new(r"^(\w+)\.").unwrap();
    g.bench_function("rename_tracks", |b| {
        b.iter_batched(
            || clip.clone(),
            |mut c| black_box(c.rename_tracks(&re, "rig:$1.")),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, editing);
criterion_main!(benches);
