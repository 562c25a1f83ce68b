//! Big input (issue 17): what `clipscope validate` does to one file (the lenient read, three.js's
//! validation, the lint rules) and what the viewport does to bind a clip (the proxy rig), as
//! tracks and clips grow tenfold. Near-linear cost is the target: ten times the tracks should
//! cost about ten times as much, and 100,000 tracks validate in under a second.
//!
//! * `validate_tracks/{10000,100000}`: one clip of N two-key vector tracks (the 100,000-track
//!   file is 7 MB);
//! * `validate_clips/{1000,10000}`: N clips of ten two-key tracks;
//! * `proxy_rig/{10000,100000}`: the stand-in rig for a clip animating N nodes;
//! * `autosave/snapshot_13mb_take`: what an autosave costs the UI thread for the 13 MB
//!   motion-capture take (`support/big_clip.rs`): a clone of the document (its clips are
//!   plain data; the file layout is shared), and `autosave/write_13mb_take`, what the
//!   worker then spends writing it.
//!
//! Run with `cargo bench --no-default-features --bench big_input`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use clipscope_core::formats::{self, ReadOptions, WriteOptions};
use clipscope_core::validate::{Config, FileSettings, check_bytes};
use clipscope_scene::Rig;

/// One clip object of `tracks` two-key vector tracks, named from `offset`.
fn clip_text(out: &mut String, name: &str, tracks: usize) {
    let _ = write!(out, r#"{{"name":"{name}","duration":1,"tracks":["#);
    for t in 0..tracks {
        if t > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            r#"{{"name":"node{t}.position","type":"vector","times":[0,1],"values":[0,0,0,{},1,0]}}"#,
            t % 7
        );
    }
    out.push_str("]}");
}

/// A file of `clips` clips of `tracks` tracks each.
fn file_text(clips: usize, tracks: usize) -> Vec<u8> {
    let mut out = String::from("[");
    for c in 0..clips {
        if c > 0 {
            out.push(',');
        }
        clip_text(&mut out, &format!("clip{c}"), tracks);
    }
    out.push(']');
    out.into_bytes()
}

/// What `clipscope validate` runs on one file's bytes (`validate::check_bytes` with the
/// settings of a tree without `clipscope.toml`): the lenient read (three.js's rules and the
/// format's) and every lint rule; returns the number of findings.
fn validate(bytes: &[u8], settings: &FileSettings) -> usize {
    check_bytes(
        bytes,
        Path::new("big.json"),
        settings,
        &ReadOptions::default(),
    )
    .problems
    .len()
}

#[path = "support/big_clip.rs"]
mod big_clip;

fn big_input(c: &mut Criterion) {
    let settings = Config::default_at(PathBuf::from(".")).settings_for("big.json", None);
    let mut group = c.benchmark_group("validate_tracks");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for tracks in [10_000usize, 100_000] {
        let bytes = file_text(1, tracks);
        eprintln!("validate_tracks/{tracks}: {} bytes", bytes.len());
        group.throughput(Throughput::Elements(tracks as u64));
        group.bench_with_input(BenchmarkId::from_parameter(tracks), &bytes, |b, bytes| {
            b.iter(|| validate(bytes, &settings))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("validate_clips");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for clips in [1_000usize, 10_000] {
        let bytes = file_text(clips, 10);
        group.throughput(Throughput::Elements(clips as u64));
        group.bench_with_input(BenchmarkId::from_parameter(clips), &bytes, |b, bytes| {
            b.iter(|| validate(bytes, &settings))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("proxy_rig");
    group.sample_size(10);
    for tracks in [10_000usize, 100_000] {
        let doc = formats::read_bytes(&file_text(1, tracks), Path::new("big.json")).unwrap();
        let clip = &doc.clips[0];
        group.throughput(Throughput::Elements(tracks as u64));
        group.bench_with_input(BenchmarkId::from_parameter(tracks), clip, |b, clip| {
            b.iter(|| Rig::proxy(clip, None).parts.len())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("autosave");
    group.sample_size(10);
    let take = formats::read_bytes(big_clip::json().as_bytes(), Path::new("take.json")).unwrap();
    group.bench_function("snapshot_13mb_take", |b| b.iter(|| take.clone()));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("doc-1.json");
    group.bench_function("write_13mb_take", |b| {
        b.iter(|| formats::write_file(&take, &out, &WriteOptions::default()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, big_input);
criterion_main!(benches);
