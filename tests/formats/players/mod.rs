//! The destinations' own players judge every conversion.
//!
//! Every shared sample file and a set of generated clips ([`generated`]) is converted by the
//! `clipscope convert` binary to every format it writes (`--json`), and each written file is
//! played by the player it ships to ([`tests/conformance/players.mjs`], one node process per
//! player for the whole batch): three.js r187 for three.js JSON (`AnimationClip.parse`,
//! `ObjectLoader`) and glTF (`GLTFLoader`, with the Khronos glTF-Validator, which must find no
//! error or warning), three.js r150's `parseAnimation` for legacy three.js JSON, the PlayCanvas
//! engine's anim component for anim clips and its `Skeleton` for animation JSON, lottie-web for
//! Lottie. At 41 times over each clip the player must show what the model samples of the source
//! (`clipscope sample`): within 1e-4 relative (`|a − b| / max(|a|, 1)`) for positions, scales and
//! other values, 0.05° for rotations after normalization. A source track `convert` reports as
//! not written is checked against that report instead; so is a track `convert` reports as
//! playing further from the source than the tolerance (the format cannot hold it), and then
//! the player must agree that it does.
//!
//! Lottie: a precomposition's layers are checked as lottie-web plays them inside the first
//! precomp layer showing it, at the precomposition's own time then; a property driven by an
//! expression (which lottie-web evaluates and clipscope does not: `convert` notes it) has its
//! keys checked in the same file played without expressions; a file lottie-web fails on because
//! a precomp layer's asset is missing is played with those layers empty. A layer never shown in
//! the composition's time is counted, not checked. Values are compared with what the source
//! plays within one `f32` step of each time (key times are `f32`), allowing lottie-web's 10⁻⁵
//! display deadband. An object file no three.js reads is checked against `convert`'s note.

mod compare;
mod generated;
mod lenient;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;
use crate::test_support::sample_data;
use clipscope_core::formats::{Document, Format, read_file};
use clipscope_core::model::Track;

use compare::{Check, Tally};

/// Every target: the format and the player that plays it.
const TARGETS: [(Format, &str); 7] = [
    (Format::ThreeJs, "threejs"),
    (Format::ThreeJsLegacy, "threejs-legacy"),
    (Format::PlayCanvas, "pc-animation"),
    (Format::PlayCanvasAnim, "pc-anim"),
    (Format::Gltf, "gltf"),
    (Format::Glb, "gltf"),
    (Format::Lottie, "lottie"),
];

/// Times per clip.
const TIMES: usize = 41;

/// The shared sample files (`*/*.json`, `gltf/*.gltf`), or none without the sample data.
fn corpus() -> Vec<PathBuf> {
    let Some(root) = sample_data("") else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root).expect("shared data").flatten() {
        if !dir.path().is_dir() || dir.file_name() == "gltf-validator" {
            continue;
        }
        for f in std::fs::read_dir(dir.path()).expect("folder").flatten() {
            let p = f.path();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "json" || (dir.file_name() == "gltf" && ext == "gltf") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The 41 times a clip is checked at: evenly over its duration (or its keys, when it has no
/// duration), as `f32` values like key times.
pub fn clip_times(clip: &clipscope_core::model::Clip) -> Vec<f64> {
    let end = if clip.duration.is_finite() && clip.duration > 0.0 {
        clip.duration
    } else {
        clip.tracks
            .iter()
            .filter_map(Track::end_time)
            .fold(0.0f32, f32::max) as f64
    };
    (0..TIMES)
        .map(|i| (end * i as f64 / (TIMES - 1) as f64) as f32 as f64)
        .collect()
}

/// One written file for a player: the file, its clips' check times, and where it came from.
struct Job {
    file: PathBuf,
    source: PathBuf,
    first: Option<String>,
    times: HashMap<String, Vec<f64>>,
    durations: HashMap<String, f64>,
    case: usize,
}

/// One conversion: the source document, the target and what `convert --json` reported.
struct Case {
    source: PathBuf,
    doc: Document,
    format: Format,
    player: &'static str,
    report: Value,
}

/// Runs `clipscope convert SRC --to FORMAT -o OUT --json` and returns its report.
fn convert(src: &Path, format: Format, out: &Path) -> Result<Value, String> {
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("convert")
        .arg(src)
        .arg("--to")
        .arg(format.name())
        .arg("-o")
        .arg(out)
        .arg("--json")
        .output()
        .expect("run clipscope");
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).trim().to_string());
    }
    serde_json::from_slice(&o.stdout).map_err(|e| format!("bad --json report: {e}"))
}

/// Runs `player` on `jobs` (one node process) and returns one result per job.
fn play(conformance: &Path, dir: &Path, player: &str, jobs: &[&Job]) -> Vec<Value> {
    let manifest: Vec<Value> = jobs
        .iter()
        .map(|j| {
            // The file's first clip (a Lottie file's main composition) unless a clip has its own.
            let default = j
                .first
                .as_ref()
                .and_then(|c| j.times.get(c))
                .cloned()
                .unwrap_or_default();
            // A one-clip anim clip also plays looping, as the anim state does by default.
            let duration = j.first.as_ref().and_then(|c| j.durations.get(c)).copied();
            let loop_times = match duration {
                Some(d) if player == "pc-anim" && d > 0.0 => compare::loop_times(d),
                _ => Vec::new(),
            };
            serde_json::json!({
                "file": j.file,
                "source": j.source,
                "times": default,
                "clipTimes": j.times,
                "loopTimes": loop_times,
            })
        })
        .collect();
    let path = dir.join(format!("{player}.manifest.json"));
    std::fs::write(&path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let o = Command::new("node")
        .arg(conformance.join("players.mjs"))
        .arg(player)
        .arg(&path)
        .output()
        .expect("run node");
    assert!(
        o.status.success(),
        "{player}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let results: Vec<Value> =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{player}: bad output ({e})"));
    assert_eq!(results.len(), jobs.len(), "{player}: one result per file");
    results
}

#[test]
fn every_conversion_plays_in_the_destinations_player() {
    let Some(conformance) = common::node_package("playcanvas") else {
        return;
    };
    for package in [
        "three",
        "three-legacy",
        "lottie-web",
        "jsdom",
        "gltf-validator",
    ] {
        if common::node_package(package).is_none() {
            return;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mut sources = corpus();
    if sources.is_empty() {
        crate::test_support::skip::skip(
            "CLIPSCOPE_REQUIRE_DATA",
            "the shared sample data is missing; only generated clips are played",
        );
    }
    sources.extend(generated::write_sources(&dir.path().join("sources"), 2401));

    let mut cases: Vec<Case> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for src in &sources {
        let doc = read_file(src).unwrap_or_else(|e| panic!("{e}"));
        if doc.clips.is_empty() {
            continue;
        }
        let stem = src.file_name().unwrap().to_string_lossy().to_string();
        for (format, player) in TARGETS {
            let out = dir.path().join(format!(
                "{stem}.to.{}.{}",
                format.name(),
                format.extension()
            ));
            let report = match convert(src, format, &out) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{stem} → {format}: convert failed: {e}"));
                    continue;
                }
            };
            let case = cases.len();
            for file in report["files"].as_array().into_iter().flatten() {
                let times = file["clips"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter_map(|name| doc.clips.iter().find(|c| c.name == name))
                    .map(|c| (c.name.clone(), clip_times(c)))
                    .collect();
                let durations = file["clips"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter_map(|name| doc.clips.iter().find(|c| c.name == name))
                    .map(|c| (c.name.clone(), c.duration))
                    .collect();
                jobs.push(Job {
                    file: PathBuf::from(file["path"].as_str().unwrap()),
                    source: src.clone(),
                    first: file["clips"][0].as_str().map(str::to_string),
                    times,
                    durations,
                    case,
                });
            }
            cases.push(Case {
                source: src.clone(),
                doc: doc.clone(),
                format,
                player,
                report,
            });
        }
    }

    let mut tally = Tally::default();
    let mut by_player: HashMap<&str, Vec<&Job>> = HashMap::new();
    for job in &jobs {
        by_player
            .entry(cases[job.case].player)
            .or_default()
            .push(job);
    }
    let mut players: Vec<&str> = by_player.keys().copied().collect();
    players.sort();
    for player in players {
        let batch = &by_player[player];
        let results = play(&conformance, dir.path(), player, batch);
        for (job, result) in batch.iter().zip(&results) {
            let case = &cases[job.case];
            let check = Check {
                source: &case.source,
                doc: &case.doc,
                format: case.format,
                player: case.player,
                report: &case.report,
                file: &job.file,
                times: &job.times,
            };
            check.run(result, &mut tally, &mut failures);
        }
    }
    eprintln!("{}", tally.summary());
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
