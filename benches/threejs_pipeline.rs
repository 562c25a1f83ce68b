//! The three.js pipeline benchmark (issue 2): a 23-joint × 6214-frame take (~13 MB of JSON),
//! parsed, optimized and written, measured side by side with the references it is judged against:
//!
//! * `parse/serde_ignored_any` — serde_json merely scanning the file (the floor for any parser);
//! * `parse/clipscope` — reading it into the clip model;
//! * `optimize/clipscope`, `write/clipscope` — the other two stages on their own;
//! * `pipeline/clipscope_cli` — the whole `clipscope optimize FILE -o OUT` process;
//! * `pipeline/threejs_node` — the same in node with three.js r187 (`JSON.parse` +
//!   `AnimationClip.parse`, `clip.optimize()`, `JSON.stringify(AnimationClip.toJSON(clip))`),
//!   run when `tests/conformance/node_modules` is installed (`npm ci` there), skipped otherwise.
//!
//! Run with `cargo bench --bench threejs_pipeline`; sizes of both outputs are printed too.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

#[path = "support/big_clip.rs"]
mod big_clip;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats::{self, WriteOptions};

/// Where the generated take and the outputs live (inside `target/`, never committed).
fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    dir
}

/// The take on disk, generated once.
fn input_file() -> PathBuf {
    let path = data_dir().join("mocap_take_01.json");
    if !path.exists() {
        std::fs::write(&path, big_clip::json()).expect("write the benchmark clip");
    }
    path
}

fn node_script() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let has_three = root.join("node_modules/three/package.json").exists();
    let has_node = Command::new("node").arg("--version").output().is_ok();
    (has_three && has_node).then(|| root.join("bench_pipeline.mjs"))
}

fn stages(c: &mut Criterion) {
    let input = input_file();
    let bytes = std::fs::read(&input).expect("read the benchmark clip");
    eprintln!(
        "benchmark clip: {} ({} bytes)",
        input.display(),
        bytes.len()
    );

    let mut parse = c.benchmark_group("parse");
    parse.sample_size(20);
    parse.bench_function("serde_ignored_any", |b| {
        b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).expect("valid JSON"))
    });
    parse.bench_function("clipscope", |b| {
        b.iter(|| formats::read_bytes(&bytes, &input).expect("readable clip"))
    });
    parse.finish();

    let doc = formats::read_bytes(&bytes, &input).expect("readable clip");
    let mut optimize = c.benchmark_group("optimize");
    optimize.sample_size(20);
    optimize.bench_function("clipscope", |b| {
        b.iter_batched(
            || doc.clips[0].clone(),
            |mut clip| clip.optimize(),
            criterion::BatchSize::LargeInput,
        )
    });
    optimize.finish();

    let mut optimized = formats::read_bytes(&bytes, &input).expect("readable clip");
    optimized.clips[0].optimize();
    let mut write = c.benchmark_group("write");
    write.sample_size(20);
    write.bench_function("clipscope", |b| {
        b.iter(|| formats::write_bytes(&optimized, &WriteOptions::default()))
    });
    write.finish();
}

fn pipeline(c: &mut Criterion) {
    let input = input_file();
    let dir = data_dir();
    let ours = dir.join("optimized.clipscope.json");
    let theirs = dir.join("optimized.threejs.json");
    let exe = env!("CARGO_BIN_EXE_clipscope");
    let run_ours = || {
        let status = Command::new(exe)
            .arg("optimize")
            .arg(&input)
            .arg("-o")
            .arg(&ours)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run clipscope");
        assert!(status.success());
    };

    let mut group = c.benchmark_group("pipeline");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("clipscope_cli", |b| b.iter(run_ours));
    let node = node_script();
    match &node {
        Some(script) => {
            group.bench_function("threejs_node", |b| {
                b.iter(|| {
                    let status = Command::new("node")
                        .arg(script)
                        .arg(&input)
                        .arg(&theirs)
                        .status()
                        .expect("run node");
                    assert!(status.success());
                })
            });
        }
        None => eprintln!(
            "pipeline/threejs_node skipped: run `npm ci` in tests/conformance (needs node) to compare"
        ),
    }
    group.finish();

    run_ours();
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    eprintln!("output bytes: clipscope {}", size(&ours));
    if node.is_some() {
        eprintln!(
            "output bytes: three.js {} (clipscope/three.js = {:.3})",
            size(&theirs),
            size(&ours) as f64 / size(&theirs) as f64
        );
    }
}

criterion_group!(benches, stages, pipeline);
criterion_main!(benches);
