//! The validation benchmark (issue 7): a tree of 1,000 clip files of mixed formats (copies of
//! every three.js, PlayCanvas, Lottie and glTF file in `shared/data` plus the demo walk, in ten
//! folders), measured two ways:
//!
//! * `validate_tree/read_all` — reading and parsing every file with `formats::read_file`, in
//!   parallel like the CLI (the floor: validation has to read the files too);
//! * `validate_tree/validate` — the whole check `clipscope validate DIR` runs (file search,
//!   config discovery, lenient read, model and format lint rules, sorting), without printing.
//!
//! The target is `validate` ≤ 2 × `read_all`. Run with
//! `cargo bench --no-default-features --bench validate`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rayon::prelude::*;

use clipscope_core::formats;
use clipscope_core::validate::{CheckOptions, Plan};

/// Number of files in the tree.
const FILES: usize = 1000;

/// The source files the tree is made of.
fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("assets/demo/walk.json")];
    for format in ["threejs", "playcanvas", "lottie", "gltf"] {
        let dir = root.join("../shared/data").join(format);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "gltf"))
            .filter(|p| formats::read_file(p).is_ok())
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// Writes the tree into `dir` and returns its files.
fn make_tree(dir: &Path) -> Vec<PathBuf> {
    let sources = sources();
    let mut files = Vec::with_capacity(FILES);
    for i in 0..FILES {
        let source = &sources[i % sources.len()];
        let folder = dir.join(format!("folder_{}", i % 10));
        std::fs::create_dir_all(&folder).expect("create a folder");
        let ext = source
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("json");
        let path = folder.join(format!("clip_{i:04}.{ext}"));
        std::fs::copy(source, &path).expect("copy a clip");
        files.push(path);
    }
    files
}

fn validate_tree(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = make_tree(dir.path());
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .sum();
    eprintln!("validate tree: {} files, {bytes} bytes", files.len());
    let opts = CheckOptions::default();
    let paths = vec![dir.path().to_path_buf()];
    let mut group = c.benchmark_group("validate_tree");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("read_all", |b| {
        b.iter(|| {
            files
                .par_iter()
                .map(|f| formats::read_file(f).map(|d| d.clips.len()).unwrap_or(0))
                .sum::<usize>()
        })
    });
    group.bench_function("validate", |b| {
        b.iter(|| {
            let plan = Plan::new(&paths, &opts).expect("plan");
            let run = plan.check(&());
            assert_eq!(run.reports.len(), FILES);
            run.reports.iter().map(|r| r.problems.len()).sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, validate_tree);
criterion_main!(benches);
