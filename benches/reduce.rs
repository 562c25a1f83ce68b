//! The reduction benchmark (issue 14): clipscope's `reduce` against glTF-Transform's `resample`
//! on a synthetic motion-capture take, at equal *measured* world error.
//!
//! * Key counts: a 22-joint humanoid walking for 60 s at 30 fps with capture jitter and drift
//!   and five static end bones (`support/mocap.rs`), as GLB. glTF-Transform's `resample` runs
//!   over a sweep of tolerances from 1e-5 to 1e-2 (ten steps a decade) and each result's real
//!   world error is measured by three.js r187 playing it (every node, end bones included;
//!   `tests/conformance/measure_error.mjs`), or without node by an evaluator that shares no
//!   code with the reducer (`support/world_error.rs`). At budgets of
//!   1, 2 and 5 cm the table compares clipscope's key count with the fewest keys of any
//!   glTF-Transform result whose measured error is within the same budget.
//! * Speed: the same skeleton walking for 10 minutes (~414,000 keys): the whole `clipscope
//!   reduce` process (start to file written) against the whole `node` process running
//!   `resample` (start to file written); and, with criterion, `reduce_clip` alone.
//!
//! glTF-Transform is the npm package in `tests/conformance` (`npm ci` there); without it the
//! comparison is skipped with a note and only clipscope is measured. `REDUCE_BENCH_KEYS_ONLY=1`
//! stops after the key-count table.
#![allow(clippy::unwrap_used)] // bench code: a panic is the failure message

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clipscope_core::formats::{self, Format, WriteOptions};
use clipscope_core::model::ops::reduce::{CurveFit, ReduceOptions, reduce_clip};
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "support/mocap.rs"]
#[allow(dead_code)]
mod mocap;
#[path = "support/world_error.rs"]
#[allow(dead_code)]
mod world_error;

/// The folder the benchmark files go in.
fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/reduce-bench");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes the take of `seconds` as GLB (once) and returns its path.
fn take_file(seconds: f64) -> PathBuf {
    let path = dir().join(format!("walk{seconds}.glb"));
    if !path.exists() {
        let doc = mocap::document(seconds, 7, Format::Glb);
        formats::write_file(&doc, &path, &WriteOptions::default()).unwrap();
    }
    path
}

/// The node script and the folder to run it in, when glTF-Transform is installed.
fn gltf_transform() -> Option<(PathBuf, PathBuf)> {
    let conformance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let installed = conformance
        .join("node_modules/@gltf-transform/functions")
        .exists();
    if !installed {
        eprintln!(
            "NOTE: glTF-Transform is not installed (npm ci in tests/conformance): \
             the comparison is skipped"
        );
        return None;
    }
    Some((conformance.join("resample_gltf_transform.mjs"), conformance))
}

/// Keys over all tracks of a file's first clip.
fn keys(path: &Path) -> usize {
    let doc = formats::read_file(path).unwrap();
    doc.clips[0].tracks.iter().map(|t| t.len()).sum()
}

/// The measured world error (metres) of `path` against the original file: three.js r187
/// playing both (`tests/conformance/measure_error.mjs`: the world position of every node, end
/// bones included, at every original key time and midpoint) when node and three.js are
/// installed, else the Rust evaluator (`support/world_error.rs`, every node's origin).
fn measured(original: &Path, path: &Path) -> f64 {
    let conformance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    if conformance.join("node_modules/three").exists() {
        let out = node(
            &conformance,
            &[
                "measure_error.mjs".into(),
                original.display().to_string(),
                path.display().to_string(),
            ],
        );
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        return v["seen"].as_f64().unwrap();
    }
    let a = formats::read_file(original).unwrap();
    let b = formats::read_file(path).unwrap();
    let skeleton = a.skeleton.clone().unwrap();
    let origins = vec![None; skeleton.bones.len()];
    world_error::world_error(&a.clips[0], &b.clips[0], &skeleton, &origins).distance
}

/// Runs `node ARGS` in `dir` and returns its standard output (a failure is the bench's).
fn node(dir: &Path, args: &[String]) -> Vec<u8> {
    let out = Command::new("node")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `clipscope reduce` as a user does; returns the wall time.
fn clipscope_reduce(input: &Path, out: &Path, budget: f64) -> Duration {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("reduce")
        .arg(input)
        .arg("-o")
        .arg(out)
        .arg("--max-error")
        .arg(budget.to_string())
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    elapsed
}

/// The key-count comparison table, printed once.
fn compare_keys() {
    let input = take_file(60.0);
    let before = keys(&input);
    println!("\nreduce: 60 s take, {before} keys ({})", input.display());
    // glTF-Transform's sweep.
    let mut sweep: Vec<(f64, usize, f64)> = Vec::new();
    if let Some((script, cwd)) = gltf_transform() {
        let tolerances: Vec<f64> = (0..=30)
            .map(|i| 1e-5 * 10f64.powf(i as f64 / 10.0))
            .collect();
        let mut args = vec![input.display().to_string()];
        for (i, t) in tolerances.iter().enumerate() {
            args.push(dir().join(format!("gt{i}.glb")).display().to_string());
            args.push(format!("{t:e}"));
        }
        args.insert(0, script.display().to_string());
        node(&cwd, &args);
        for (i, t) in tolerances.iter().enumerate() {
            let path = dir().join(format!("gt{i}.glb"));
            sweep.push((*t, keys(&path), measured(&input, &path)));
        }
    }
    println!(
        "{:>7} | {:>15} {:>10} | {:>26} {:>10} | {:>6}",
        "budget", "clipscope keys", "measured", "best glTF-Transform keys", "measured", "ratio"
    );
    for budget in [0.01, 0.02, 0.05] {
        let out = dir().join(format!("clipscope{budget}.glb"));
        clipscope_reduce(&input, &out, budget);
        let ours = (keys(&out), measured(&input, &out));
        let best = sweep
            .iter()
            .filter(|(_, _, e)| *e <= budget)
            .min_by_key(|(_, k, _)| *k);
        match best {
            Some((t, k, e)) => println!(
                "{:>5} cm | {:>15} {:>8.2} mm | {:>14} (tolerance {t:.1e}) {:>8.2} mm | {:>6.3}",
                budget * 100.0,
                ours.0,
                ours.1 * 1000.0,
                k,
                e * 1000.0,
                ours.0 as f64 / *k as f64
            ),
            None => println!(
                "{:>5} cm | {:>15} {:>8.2} mm | {:>26} {:>10} |",
                budget * 100.0,
                ours.0,
                ours.1 * 1000.0,
                "-",
                "-"
            ),
        }
    }
}

/// The whole-process speed comparison on the 10-minute take, printed once: the best of five
/// runs of each, clipscope at each budget, glTF-Transform at its default tolerance (1e-4; its
/// time hardly depends on it).
fn compare_speed() {
    let input = take_file(600.0);
    println!("\nreduce: 10 min take, {} keys", keys(&input));
    let best = |run: &dyn Fn() -> Duration| (0..5).map(|_| run()).min().unwrap_or_default();
    let theirs = gltf_transform().map(|(script, cwd)| {
        best(&|| {
            let start = Instant::now();
            let out = Command::new("node")
                .arg(&script)
                .arg(&input)
                .arg(dir().join("gt600.glb"))
                .arg("1e-4")
                .current_dir(&cwd)
                .output()
                .unwrap();
            assert!(out.status.success());
            start.elapsed()
        })
    });
    if let Some(theirs) = theirs {
        println!("glTF-Transform resample (node process, start to file written): {theirs:.2?}");
    }
    for budget in [0.01, 0.02, 0.05] {
        let out = dir().join("clipscope600.glb");
        let ours = best(&|| clipscope_reduce(&input, &out, budget));
        let ratio = theirs
            .map(|t| {
                format!(
                    " — {:.2}× glTF-Transform's time",
                    ours.as_secs_f64() / t.as_secs_f64()
                )
            })
            .unwrap_or_default();
        println!(
            "clipscope reduce --max-error {budget} (process): {ours:.2?}, {} keys{ratio}",
            keys(&out)
        );
    }
}

fn bench(c: &mut Criterion) {
    compare_keys();
    if std::env::var_os("REDUCE_BENCH_KEYS_ONLY").is_some() {
        return;
    }
    compare_speed();
    let doc = formats::read_file(&take_file(600.0)).unwrap();
    let skeleton = doc.skeleton.clone().unwrap();
    let options = ReduceOptions {
        max_error: 0.01,
        curves: CurveFit::Cubic {
            flat_where_level: false,
        },
        ..ReduceOptions::default()
    };
    let mut group = c.benchmark_group("reduce");
    group.sample_size(10);
    group.bench_function("reduce_clip_10min_1cm", |b| {
        b.iter(|| reduce_clip(&doc.clips[0], Some(&skeleton), &options))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
