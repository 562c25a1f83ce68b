//! The fuzz targets' checks (`fuzz/src/checks.rs`, shared with `cargo fuzz`) on every minimised
//! input the fuzzers once failed on (`fuzz/regressions/<target>/`), and the round trip on every
//! sample file and fixture: plain `cargo test`, stable toolchain, no fuzzer needed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "../../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use crate::test_support::sample_data;

/// A fuzz target's check.
type Check = fn(&[u8]);

/// The check of each target, by its folder name.
const TARGETS: &[(&str, Check)] = &[
    ("threejs", checks::threejs),
    ("threejs_legacy", checks::threejs_legacy),
    ("playcanvas", checks::playcanvas),
    ("lottie", checks::lottie),
    ("gltf", checks::gltf),
    ("glb", checks::glb),
    ("cycle", checks::cycle),
    ("config_toml", checks::config_toml),
    ("baseline", checks::baseline),
    ("round_trip", checks::round_trip),
    ("packed", checks::packed),
];

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    files
}

/// Runs `check` on `input`, failing with the file's name (a hang shows as a slow test: each
/// input must finish within the fuzzers' 10 s timeout).
fn run(target: &str, check: Check, input: &Path) {
    let bytes = std::fs::read(input).unwrap();
    let started = Instant::now();
    let outcome = std::panic::catch_unwind(|| check(&bytes));
    assert!(
        outcome.is_ok(),
        "fuzz target {target} fails on {}",
        input.display()
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "fuzz target {target} took {:?} on {}",
        started.elapsed(),
        input.display()
    );
}

#[test]
fn every_regression_input_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut count = 0;
    for (target, check) in TARGETS {
        for input in files_in(&root.join(target)) {
            run(target, *check, &input);
            count += 1;
        }
    }
    // Every folder belongs to a target.
    for dir in std::fs::read_dir(&root).unwrap().filter_map(|e| e.ok()) {
        if dir.path().is_dir() {
            let name = dir.file_name();
            assert!(
                TARGETS.iter().any(|(t, _)| *t == name),
                "fuzz/regressions/{} is no fuzz target",
                name.to_string_lossy()
            );
        }
    }
    eprintln!("{count} fuzz regression inputs passed");
}

#[test]
fn every_sample_file_and_fixture_reads_back_equal_after_a_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = files_in(&root.join("tests/fixtures/conformance"));
    inputs.retain(|p| p.to_string_lossy().ends_with(".input.json"));
    inputs.push(root.join("assets/demo/walk.json"));
    inputs.extend(samples(&["threejs", "playcanvas", "lottie"]));
    inputs.extend(samples(GLTF_SAMPLES));
    let failed = failing(&inputs, checks::round_trip);
    assert!(failed.is_empty(), "round trip differs for: {failed:#?}");
}

/// The sample folders (`../shared/data`) of glTF files and the glTF-Validator's animation cases.
const GLTF_SAMPLES: &[&str] = &[
    "gltf",
    "gltf-validator/animation",
    "gltf-validator/animation_data",
    "gltf-validator/KHR_animation_pointer",
    "gltf-validator/skin",
];

/// The files in the sample `folders` that are there, the validator's reports left out.
fn samples(folders: &[&str]) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = folders
        .iter()
        .filter_map(|f| sample_data(f))
        .flat_map(|dir| files_in(&dir))
        .collect();
    inputs.retain(|p| !p.to_string_lossy().ends_with(".report.json"));
    inputs
}

/// The `inputs` on which `check` panics.
fn failing(inputs: &[PathBuf], check: Check) -> Vec<String> {
    inputs
        .iter()
        .filter(|input| {
            let bytes = std::fs::read(input).unwrap();
            std::panic::catch_unwind(|| check(&bytes)).is_err()
        })
        .map(|input| input.display().to_string())
        .collect()
}

#[test]
fn every_gltf_sample_packs_and_reads_back_as_the_reducer_models_it() {
    let failed = failing(&samples(GLTF_SAMPLES), checks::packed);
    assert!(failed.is_empty(), "packed files differ for: {failed:#?}");
}
