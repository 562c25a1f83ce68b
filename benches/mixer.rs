//! The mixer against three.js (issue 4): one action playing the 23-joint × 6214-frame take (69
//! tracks) on a proxy rig, `Mixer::update(1/60)` per frame, side by side with three.js r187's
//! `AnimationMixer.update(1/60)` on a scene where the same 69 tracks bind.
//!
//! * `mixer/update_1_60` — clipscope: the take on `Rig::proxy(&clip, None)`'s rest pose, the
//!   action repeating (the default loop), one update of 1/60 s per iteration;
//! * three.js — `tests/conformance/bench_mixer.mjs` in node (a root `Object3D` whose skeleton
//!   holds one bone per joint, no `SkinnedMesh`), warmed up, then timed over many updates; run
//!   when `tests/conformance/node_modules` is installed (`npm ci` there), skipped otherwise.
//!
//! Both figures and the ratio are printed at the end, timed alike (the best of 10 rounds of
//! 20,000 updates, after 20,000 warm-up updates), and the final poses of both (after the same
//! 220,000 updates) are compared bit for bit. Run with
//! `cargo bench --no-default-features --bench mixer` (no `gui` feature needed).
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

#[path = "support/big_clip.rs"]
mod big_clip;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats;
use clipscope_core::playback::Mixer;
use clipscope_scene::Rig;

/// The mixer step.
const DT: f64 = 1.0 / 60.0;

/// Where the generated take lives (inside `target/`, never committed; shared with
/// `threejs_pipeline`).
fn input_file() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let path = dir.join("mocap_take_01.json");
    if !path.exists() {
        std::fs::write(&path, big_clip::json()).expect("write the benchmark clip");
    }
    path
}

/// A mixer playing the take on its proxy rig, every track bound.
fn playing_mixer(input: &Path) -> Mixer {
    let bytes = std::fs::read(input).expect("read the benchmark clip");
    let doc = formats::read_bytes(&bytes, input).expect("readable clip");
    let clip = Arc::new(doc.clips.into_iter().next().expect("one clip"));
    let rig = Rig::proxy(&clip, None);
    let mut mixer = Mixer::new(rig.rest_pose());
    let id = mixer.clip_action(&clip);
    mixer.action_mut(id).play();
    assert!(
        mixer.unbound_tracks().is_empty(),
        "every track binds: {:?}",
        mixer.unbound_tracks()
    );
    assert_eq!(mixer.stats().bindings_total, clip.tracks.len());
    mixer
}

/// The three.js reference script, when node and three.js are installed.
fn node_script() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let has_three = root.join("node_modules/three/package.json").exists();
    let has_node = Command::new("node").arg("--version").output().is_ok();
    (has_three && has_node).then(|| root.join("bench_mixer.mjs"))
}

/// What the node script reports: three.js's best mean µs per update and its final pose.
struct ThreeJs {
    best_us: f64,
    updates: u64,
    pose: serde_json::Map<String, serde_json::Value>,
}

/// Runs the three.js side (`FRAMES` updates timed in `ROUNDS` rounds after `WARMUP`), or says
/// why it cannot.
fn threejs(input: &Path) -> Result<ThreeJs, String> {
    let script = node_script().ok_or(
        "three.js skipped: run `npm ci` in tests/conformance (needs node) to compare".to_string(),
    )?;
    let out = Command::new("node")
        .arg(&script)
        .arg(input)
        .args([FRAMES, ROUNDS, WARMUP].map(|n| n.to_string()))
        .output()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "node failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("unreadable report {text}: {e}"))?;
    eprintln!("three.js rounds (µs/update): {}", report["rounds"]);
    if report["unbound"].as_u64() != Some(0) {
        return Err(format!(
            "three.js left tracks unbound: {}",
            report["unbound"]
        ));
    }
    Ok(ThreeJs {
        best_us: report["best_us"].as_f64().ok_or("no best_us")?,
        updates: report["updates"].as_u64().ok_or("no updates")?,
        pose: report["pose"].as_object().ok_or("no pose")?.clone(),
    })
}

/// clipscope's mean µs per update over `frames` updates, timed the way the node script times
/// three.js (best of `rounds`).
fn clipscope_us(mixer: &mut Mixer, frames: usize, rounds: usize) -> f64 {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..frames {
                black_box(mixer.update(DT));
            }
            start.elapsed().as_secs_f64() * 1e6 / frames as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// How many of three.js's final pose numbers differ (as bits) from clipscope's, out of how many.
fn compare_poses(
    mixer: &Mixer,
    theirs: &serde_json::Map<String, serde_json::Value>,
) -> (usize, usize) {
    let (mut differ, mut total) = (0, 0);
    for (bone, values) in theirs {
        let ours: Vec<f64> = ["position", "quaternion", "scale"]
            .iter()
            .flat_map(|p| mixer.pose().value(bone, p).unwrap_or_default().to_vec())
            .collect();
        let values = values.as_array().map(Vec::as_slice).unwrap_or_default();
        total += values.len().max(ours.len());
        differ += values.len().abs_diff(ours.len());
        for (a, b) in ours.iter().zip(values) {
            if b.as_f64().map(f64::to_bits) != Some(a.to_bits()) {
                differ += 1;
            }
        }
    }
    (differ, total)
}

/// Updates per timed round, timed rounds, and warm-up updates of the side-by-side figures (the
/// same for both).
const FRAMES: usize = 20_000;
const ROUNDS: usize = 10;
const WARMUP: usize = 20_000;

fn mixer(c: &mut Criterion) {
    let input = input_file();
    let mut mixer = playing_mixer(&input);
    let mut group = c.benchmark_group("mixer");
    group.bench_function("update_1_60", |b| {
        b.iter(|| black_box(mixer.update(black_box(DT))))
    });
    group.finish();

    // The side-by-side figures: the same loop, the same counts, the same "best round".
    let mut mixer = playing_mixer(&input);
    clipscope_us(&mut mixer, WARMUP, 1);
    let ours = clipscope_us(&mut mixer, FRAMES, ROUNDS);
    eprintln!("mixer update (1/60 s, 69 tracks): clipscope {ours:.3} µs/frame");
    match threejs(&input) {
        Ok(theirs) => {
            eprintln!(
                "mixer update (1/60 s, 69 tracks): three.js r187 {:.3} µs/frame; \
                 clipscope is {:.2}× faster",
                theirs.best_us,
                theirs.best_us / ours
            );
            let updates = WARMUP + ROUNDS * FRAMES;
            assert_eq!(theirs.updates, updates as u64);
            let (differ, total) = compare_poses(&mixer, &theirs.pose);
            eprintln!(
                "final pose after {updates} updates: {} ({total} numbers)",
                if differ == 0 {
                    "identical to three.js, bit for bit".to_string()
                } else {
                    format!("{differ} numbers differ from three.js")
                }
            );
        }
        Err(why) => eprintln!("{why}"),
    }
}

criterion_group!(benches, mixer);
criterion_main!(benches);
