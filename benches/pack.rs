//! The packing benchmark (issue 28): clipscope's `reduce --quantize --meshopt` against npm
//! `gltfpack` (meshoptimizer's glTF packer) in bytes, at equal *measured* world error.
//!
//! * Bytes: the 22-joint humanoid with five end bones (`support/mocap.rs`) walking for 60 s and
//!   for 10 minutes at 30 fps, as GLB. gltfpack runs with `-kn` (keep the named end bones, so
//!   both files have the same node tree) and each of `-c`, `-cc`, `-af N -cc` (compressed) and
//!   none, `-af N` (uncompressed, quantized), N from 10 to 24 Hz; clipscope's `reduce` at 1, 2
//!   and 5 cm with `--quantize --meshopt` and with `--quantize`. Every output's error is measured
//!   by three.js r187 playing it against the original (GLTFLoader with its MeshoptDecoder, every
//!   node, end bones included: `tests/conformance/measure_error.mjs`). Per budget the table
//!   compares clipscope's bytes with the smallest gltfpack output whose measured error is within
//!   the same budget, compressed with compressed and uncompressed with uncompressed.
//! * Speed: the whole `clipscope reduce --quantize --meshopt` process on the 10-minute take
//!   against the whole `gltfpack -cc` process, best of three; and, with criterion, writing the
//!   10-minute take packed.
//!
//! gltfpack and three.js are the npm packages in `tests/conformance` (`npm ci` there); without
//! them the comparison is skipped with a note. `PACK_BENCH_BYTES_ONLY=1` stops after the tables
//! (bytes do not depend on the build: `cargo bench --profile dev --bench pack` prints them too).
#![allow(clippy::unwrap_used)] // bench code: a panic is the failure message

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clipscope_core::formats::{self, Format, Packing, WriteOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;

#[path = "support/mocap.rs"]
#[allow(dead_code)]
mod mocap;

/// The budgets compared, in metres.
const BUDGETS: [f64; 3] = [0.01, 0.02, 0.05];

/// The folder the benchmark files go in (`PACK_BENCH_DIR`, else `target/pack-bench`).
fn dir() -> PathBuf {
    let d = std::env::var_os("PACK_BENCH_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pack-bench"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `tests/conformance` when gltfpack and three.js are installed there.
fn conformance() -> Option<PathBuf> {
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let installed = ["gltfpack", "three"]
        .iter()
        .all(|p| c.join("node_modules").join(p).exists());
    if !installed {
        eprintln!(
            "NOTE: gltfpack or three.js is not installed (npm ci in tests/conformance): the \
             comparison is skipped"
        );
        return None;
    }
    Some(c)
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

/// Runs `program args` in `cwd`; its standard output (a failure is the bench's).
fn run(program: &str, args: &[String], cwd: &Path) -> Vec<u8> {
    let out = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The error three.js r187 sees in `path` against `original`, in metres.
fn measured(c: &Path, original: &Path, path: &Path) -> f64 {
    let args = [
        "measure_error.mjs".to_string(),
        original.display().to_string(),
        path.display().to_string(),
    ];
    let v: Value = serde_json::from_slice(&run("node", &args, c)).unwrap();
    v["seen"].as_f64().unwrap()
}

/// gltfpack with `flags` on `input`; the output's path.
fn gltfpack(c: &Path, input: &Path, flags: &[&str], name: &str) -> PathBuf {
    let out = dir().join(name);
    let mut args = vec![
        "node_modules/gltfpack/cli.js".to_string(),
        "-i".into(),
        input.display().to_string(),
        "-o".into(),
        out.display().to_string(),
        "-kn".into(),
    ];
    args.extend(flags.iter().map(|f| f.to_string()));
    run("node", &args, c);
    out
}

/// `clipscope reduce INPUT -o OUT --max-error BUDGET FLAGS`; the output's path.
fn clipscope(input: &Path, budget: f64, flags: &[&str], name: &str) -> PathBuf {
    let out = dir().join(name);
    let mut args = vec![
        "reduce".to_string(),
        input.display().to_string(),
        "-o".into(),
        out.display().to_string(),
        "--max-error".into(),
        budget.to_string(),
    ];
    args.extend(flags.iter().map(|f| f.to_string()));
    run(env!("CARGO_BIN_EXE_clipscope"), &args, &dir());
    out
}

/// A file's size in bytes.
fn size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

/// One output: its name, bytes and measured error.
type Output = (String, u64, f64);

/// Every gltfpack output of `input`, compressed or not, measured.
fn gltfpack_sweep(c: &Path, input: &Path, compressed: bool) -> Vec<Output> {
    let rates = ["10", "12", "15", "20", "24"];
    let mut runs: Vec<Vec<&str>> = if compressed {
        vec![vec!["-c"], vec!["-cc"]]
    } else {
        vec![vec![]]
    };
    for r in rates {
        runs.push(if compressed {
            vec!["-af", r, "-cc"]
        } else {
            vec!["-af", r]
        });
    }
    runs.iter()
        .map(|flags| {
            let label = if flags.is_empty() {
                "(no flags)".to_string()
            } else {
                flags.join(" ")
            };
            let name = format!(
                "gp{}{}.glb",
                label.replace([' ', '(', ')'], ""),
                size(input)
            );
            let out = gltfpack(c, input, flags, &name);
            (label, size(&out), measured(c, input, &out))
        })
        .collect()
}

/// The byte comparison of the take of `seconds`, printed.
fn compare_bytes(c: &Path, seconds: f64) {
    let input = take_file(seconds);
    println!(
        "\npack: {seconds} s take, {} bytes ({})",
        size(&input),
        input.display()
    );
    for (compressed, flags) in [
        (true, &["--quantize", "--meshopt"][..]),
        (false, &["--quantize"][..]),
    ] {
        let sweep = gltfpack_sweep(c, &input, compressed);
        println!(
            "{:>7} | {:>28} {:>9} | {:>32} {:>9} | {:>5}",
            "budget",
            format!("clipscope {}", flags.join(" ")),
            "measured",
            "smallest gltfpack within",
            "measured",
            "ratio"
        );
        for budget in BUDGETS {
            let name = format!("cs{}{budget}{seconds}.glb", flags.join("").replace('-', ""));
            let out = clipscope(&input, budget, flags, &name);
            let (bytes, error) = (size(&out), measured(c, &input, &out));
            let best = sweep
                .iter()
                .filter(|(_, _, e)| *e <= budget)
                .min_by_key(|(_, b, _)| *b);
            let (theirs, ratio) = match best {
                Some((label, b, e)) => (
                    format!("{b} B ({label}) {:>6.2} mm", e * 1000.0),
                    format!("{:.2}", bytes as f64 / *b as f64),
                ),
                None => ("-".to_string(), "-".to_string()),
            };
            println!(
                "{:>5} cm | {:>28} {:>6.2} mm | {theirs:>42} | {ratio:>5}",
                budget * 100.0,
                format!("{bytes} B"),
                error * 1000.0
            );
        }
        for (label, b, e) in &sweep {
            println!("    gltfpack {label}: {b} B, {:.2} mm", e * 1000.0);
        }
    }
}

/// The whole-process speed comparison on the 10-minute take, best of three.
fn compare_speed(c: &Path) {
    let input = take_file(600.0);
    let best = |run: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                run();
                start.elapsed()
            })
            .min()
            .unwrap_or(Duration::ZERO)
    };
    let theirs = best(&|| {
        gltfpack(c, &input, &["-cc"], "gp-speed.glb");
    });
    println!("\npack: 10 min take: gltfpack -cc (node process): {theirs:.2?}");
    for budget in BUDGETS {
        let ours = best(&|| {
            clipscope(&input, budget, &["--quantize", "--meshopt"], "cs-speed.glb");
        });
        println!(
            "clipscope reduce --max-error {budget} --quantize --meshopt (process): {ours:.2?} \
             ({:.2}× gltfpack's time)",
            ours.as_secs_f64() / theirs.as_secs_f64()
        );
    }
    // Encoding alone, every key kept: gltfpack -c against a packed conversion (which also
    // reads the file back and measures how it plays).
    let theirs = best(&|| {
        gltfpack(c, &input, &["-c"], "gp-speed-c.glb");
    });
    let ours = best(&|| {
        let out = dir().join("cs-speed-convert.glb");
        let args = [
            "convert".to_string(),
            input.display().to_string(),
            "-o".into(),
            out.display().to_string(),
            "--quantize".into(),
            "--meshopt".into(),
        ];
        run(env!("CARGO_BIN_EXE_clipscope"), &args, &dir());
    });
    println!(
        "gltfpack -c (node process): {theirs:.2?}; clipscope convert --quantize --meshopt \
         (process): {ours:.2?} ({:.2}× gltfpack's time)",
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}

fn bench(c: &mut Criterion) {
    if let Some(conformance) = conformance() {
        compare_bytes(&conformance, 60.0);
        compare_bytes(&conformance, 600.0);
        if std::env::var_os("PACK_BENCH_BYTES_ONLY").is_some() {
            return;
        }
        compare_speed(&conformance);
    }
    let doc = formats::read_file(&take_file(600.0)).unwrap();
    let packed = WriteOptions {
        packing: Packing {
            quantize: true,
            meshopt: true,
            fallback: false,
            float_error: 0.0005,
            rotation_bits: 12,
            rotation_error: 0.0,
            time_error: 0.0002,
        },
        ..WriteOptions::default()
    };
    let mut group = c.benchmark_group("pack");
    group.sample_size(10);
    group.bench_function("write_10min_quantize_meshopt", |b| {
        b.iter(|| formats::write_bytes(&doc, &packed))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
