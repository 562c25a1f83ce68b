//! Conformance with three.js r187: the built `clipscope` binary must agree with three.js on clip
//! files it has never seen.
//!
//! The fixtures in `tests/fixtures/conformance/` were made by `tests/conformance/generate.mjs`
//! with three.js 0.187.0 (see `tests/conformance/README.md`). Each `caseNNN.input.json` has a
//! `caseNNN.expected.json` holding what three.js computes for it: `sample` (interpolant results at
//! a list of times), `optimize` and `trim` (the `AnimationClip.toJSON` of every clip after the op),
//! `valid` (`clip.validate()` per clip), or `parseError` when `AnimationClip.parse` throws.
//!
//! Each test runs the binary on every case and collects every mismatch (case file and key) before
//! failing once, so a failure reads as a list of differences.
//!
//! Comparison rules:
//! * Numbers are compared as f32 bit patterns after `(x as f64) as f32`, so `0.1` and
//!   `0.10000000149011612` are the same value. In `sample` output the sign of zero counts; in
//!   written files it does not (three.js's own `JSON.stringify` writes `-0` as `0`).
//! * The fixtures write non-finite numbers as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
//!   The CLI may write them as `null` (what `JSON.stringify` does), as the same strings, or, for
//!   infinities, as a number that rounds to an infinite f32.
//! * Written files are compared the way three.js would load them: a track `type` alias counts as
//!   its canonical kind, `interpolation` is resolved with three.js's rules (absent or unsupported
//!   means the default), a missing `blendMode` is 2500, `userData` is a JSON string compared
//!   parsed (absent or `""` is `{}`), and a truthy `fps` field scales times like
//!   `AnimationClip.parse` does.
//! * For cases three.js finds invalid, `sample`/`optimize`/`trim` may refuse the file (non-zero
//!   exit, no panic); if they succeed, their output must match.

use crate::common;

use common::{Report, as_f32, canonical_type, is_nonfinite_marker, short, user_data_of};
use serde_json::Value;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where the generated fixtures live.
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/conformance");

/// How long one CLI run may take before it counts as hung.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);

// ------------------------------------------------------------------------------------------------
// Fixtures

/// One conformance case: the input file and what three.js computed for it.
struct Case {
    /// File stem, e.g. `case007`.
    id: String,
    /// Path of `caseNNN.input.json`.
    input: PathBuf,
    /// The parsed input file.
    input_json: Value,
    /// The parsed `caseNNN.expected.json`.
    expected: Value,
}

impl Case {
    /// True when three.js's `AnimationClip.parse` threw on this file.
    fn parse_error(&self) -> Option<&str> {
        self.expected.get("parseError").and_then(Value::as_str)
    }

    /// Per-clip `validate()` results (empty for parse errors).
    fn valid(&self) -> Vec<bool> {
        self.expected
            .get("valid")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|v| v.as_bool().unwrap_or(false)).collect())
            .unwrap_or_default()
    }

    /// True when three.js parsed the file and every clip validated.
    fn all_valid(&self) -> bool {
        self.parse_error().is_none() && self.valid().iter().all(|&v| v)
    }
}

fn load_cases() -> Vec<Case> {
    // CLIPSCOPE_CONFORMANCE_DIR points the same checks at another generated batch.
    let dir = std::env::var_os("CLIPSCOPE_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(FIXTURES));
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture folder tests/fixtures/conformance is missing")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".input.json"))
        })
        .collect();
    inputs.sort();
    inputs
        .into_iter()
        .map(|input| {
            let name = input
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let id = name.trim_end_matches(".input.json").to_string();
            let expected_path = input.with_file_name(format!("{id}.expected.json"));
            let read = |p: &Path| -> Value {
                let text =
                    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            };
            Case {
                id,
                input_json: read(&input),
                expected: read(&expected_path),
                input,
            }
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Running the binary

/// The outcome of one CLI run.
struct Run {
    /// Exit code; `None` when killed by a signal or the timeout.
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

impl Run {
    /// A one-line description of a failed run for mismatch reports.
    fn describe(&self) -> String {
        let stderr = self.stderr.trim();
        let stderr: String = stderr.chars().take(300).collect();
        if self.timed_out {
            format!("timed out after {RUN_TIMEOUT:?}")
        } else {
            format!("exit {:?}, stderr: {stderr}", self.code)
        }
    }

    /// True when the process panicked (Rust exits with 101), was killed or hung.
    fn crashed(&self) -> bool {
        self.timed_out || self.code.is_none() || self.code == Some(101)
    }
}

/// The binary under test: `CLIPSCOPE_CONFORMANCE_BIN` when set (e.g. the three.js reference
/// CLI `tests/conformance/threejs_cli.mjs`, to check the fixtures and this harness), else the
/// `clipscope` binary cargo built.
fn binary() -> OsString {
    std::env::var_os("CLIPSCOPE_CONFORMANCE_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_clipscope").into())
}

fn run_cli(args: &[OsString]) -> Run {
    let mut child = Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start the clipscope binary");
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let stdout = String::from_utf8_lossy(&out_thread.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_thread.join().unwrap_or_default()).into_owned();
    Run {
        code: status.and_then(|s| s.code()),
        stdout,
        stderr,
        timed_out,
    }
}

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

// ------------------------------------------------------------------------------------------------
// Value comparison

/// Whether `-0` and `0` count as different.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ZeroSign {
    /// Compare the sign of zero (interpolant results).
    Strict,
    /// `-0 == 0` (file output: three.js itself writes `-0` as `0`).
    Loose,
}

/// Compares two f32 values bit for bit (any NaN equals any NaN).
fn same_f32(a: f32, b: f32, zero: ZeroSign) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if zero == ZeroSign::Loose && a == 0.0 && b == 0.0 {
        return true;
    }
    a.to_bits() == b.to_bits()
}

/// Compares one scalar of a fixture (`expected`) with the CLI's output (`actual`).
fn same_scalar(expected: &Value, actual: &Value, zero: ZeroSign) -> bool {
    match expected {
        Value::Number(_) => match (as_f32(expected), actual) {
            (Some(e), Value::Number(_)) => as_f32(actual).is_some_and(|a| same_f32(e, a, zero)),
            _ => false,
        },
        Value::String(s) if is_nonfinite_marker(s) => match actual {
            Value::Null => true,
            Value::String(a) => a == s,
            Value::Number(_) => as_f32(actual).is_some_and(|a| {
                !a.is_finite() && same_f32(as_f32(expected).unwrap_or(0.0), a, zero)
            }),
            _ => false,
        },
        _ => expected == actual,
    }
}

/// Compares two arrays of scalars element by element; pushes one line per differing element
/// (at most 5, then a count).
fn compare_scalars(
    report: &mut Report,
    case: &str,
    key: &str,
    expected: &Value,
    actual: &Value,
    zero: ZeroSign,
) {
    let (Some(e), Some(a)) = (expected.as_array(), actual.as_array()) else {
        report.push(
            case,
            key,
            format!(
                "expected an array {}, got {}",
                short(expected),
                short(actual)
            ),
        );
        return;
    };
    if e.len() != a.len() {
        report.push(
            case,
            key,
            format!(
                "length {} expected, got {}: expected {}, got {}",
                e.len(),
                a.len(),
                short(expected),
                short(actual)
            ),
        );
        return;
    }
    let bad: Vec<usize> = (0..e.len())
        .filter(|&i| !same_scalar(&e[i], &a[i], zero))
        .collect();
    for &i in bad.iter().take(5) {
        report.push(
            case,
            &format!("{key}[{i}]"),
            format!("expected {}, got {}", e[i], a[i]),
        );
    }
    if bad.len() > 5 {
        report.push(
            case,
            key,
            format!("{} more differing elements", bad.len() - 5),
        );
    }
}

// ------------------------------------------------------------------------------------------------
// three.js reading rules for written files

/// The interpolation three.js ends up with for a track of canonical type `kind` whose JSON has
/// `interpolation` (`None` when absent): bool/string ignore it, unknown or unsupported codes give
/// the default (Linear for numeric kinds, Discrete for bool/string; Smooth is unsupported on
/// quaternions).
fn resolved_interpolation(kind: &str, interpolation: Option<&Value>) -> u32 {
    let default = if matches!(kind, "bool" | "string") {
        2300
    } else {
        2301
    };
    if default == 2300 {
        return 2300; // the Boolean/String constructors drop the argument
    }
    let code = interpolation.and_then(Value::as_f64).unwrap_or(0.0);
    let supported = [2300.0, 2301.0, 2302.0, 2303.0].contains(&code)
        && !(kind == "quaternion" && code == 2302.0);
    if supported { code as u32 } else { default }
}

/// `json.fps || 1` as three.js reads it; the scale applied to times is `1 / fps`.
fn fps_of(clip: &Value) -> f64 {
    match clip.get("fps").and_then(Value::as_f64) {
        Some(f) if f != 0.0 && !f.is_nan() => f,
        _ => 1.0,
    }
}

/// Applies three.js's `track.scale(1 / fps)` (f64 product stored as f32) to times and to the
/// time entries (even indices) of tangent arrays of a written track, when the clip has an fps.
fn scale_track_times(track: &Value, fps: f64) -> Value {
    let mut track = track.clone();
    if fps == 1.0 {
        return track;
    }
    let s = 1.0 / fps;
    let scale = |v: &mut Value, step: usize| {
        if let Some(a) = v.as_array_mut() {
            for (i, x) in a.iter_mut().enumerate() {
                if i % step == 0
                    && let Some(t) = as_f32(x)
                {
                    let scaled = ((t as f64) * s) as f32;
                    *x = serde_json::Number::from_f64(scaled as f64)
                        .map(Value::Number)
                        .unwrap_or(Value::Null);
                }
            }
        }
    };
    if let Some(times) = track.get_mut("times") {
        scale(times, 1);
    }
    if let Some(settings) = track.get_mut("settings") {
        for key in ["inTangents", "outTangents"] {
            if let Some(t) = settings.get_mut(key) {
                scale(t, 2);
            }
        }
    }
    track
}

/// A file's clips: a single clip object becomes a one-element list.
fn clips_of(file: &Value) -> Vec<Value> {
    match file {
        Value::Array(a) => a.clone(),
        other => vec![other.clone()],
    }
}

/// Compares one written clip with three.js's `AnimationClip.toJSON` output.
fn compare_clip(report: &mut Report, case: &str, at: &str, expected: &Value, actual: &Value) {
    let zero = ZeroSign::Loose;
    let Some(actual_obj) = actual.as_object() else {
        report.push(
            case,
            at,
            format!("expected a clip object, got {}", short(actual)),
        );
        return;
    };
    let get = |v: &Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    if get(expected, "name") != get(actual, "name") {
        report.push(
            case,
            &format!("{at}.name"),
            format!(
                "expected {}, got {}",
                get(expected, "name"),
                get(actual, "name")
            ),
        );
    }
    // duration: exact f64 (it is never rounded to f32)
    let (ed, ad) = (get(expected, "duration"), get(actual, "duration"));
    let same_duration = match (&ed, &ad) {
        (Value::Number(e), Value::Number(a)) => {
            e.as_f64().map(f64::to_bits) == a.as_f64().map(f64::to_bits)
                || (e.as_f64() == Some(0.0) && a.as_f64() == Some(0.0))
        }
        (Value::String(e), _) if is_nonfinite_marker(e) => same_scalar(&ed, &ad, zero),
        _ => ed == ad,
    };
    if !same_duration {
        report.push(
            case,
            &format!("{at}.duration"),
            format!("expected {ed}, got {ad}"),
        );
    }
    let uuid = |v: &Value| v.get("uuid").filter(|u| !u.is_null()).cloned();
    if uuid(expected) != uuid(actual) {
        report.push(
            case,
            &format!("{at}.uuid"),
            format!("expected {:?}, got {:?}", uuid(expected), uuid(actual)),
        );
    }
    let blend = |v: &Value| v.get("blendMode").and_then(Value::as_f64).unwrap_or(2500.0);
    if blend(expected) != blend(actual) {
        report.push(
            case,
            &format!("{at}.blendMode"),
            format!("expected {}, got {}", blend(expected), blend(actual)),
        );
    }
    match (user_data_of(expected), user_data_of(actual)) {
        (Ok(e), Ok(a)) if e == a => {}
        (e, a) => report.push(
            case,
            &format!("{at}.userData"),
            format!("expected {e:?}, got {a:?}"),
        ),
    }
    let fps = fps_of(actual);
    let empty = Vec::new();
    let et = expected
        .get("tracks")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let Some(at_tracks) = actual_obj.get("tracks").and_then(Value::as_array) else {
        report.push(case, &format!("{at}.tracks"), "missing or not an array");
        return;
    };
    if et.len() != at_tracks.len() {
        let names = |t: &[Value]| {
            t.iter()
                .map(|t| get(t, "name").to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        report.push(
            case,
            &format!("{at}.tracks"),
            format!(
                "{} tracks expected [{}], got {} [{}]",
                et.len(),
                names(et),
                at_tracks.len(),
                names(at_tracks)
            ),
        );
        return;
    }
    for (j, (e, a)) in et.iter().zip(at_tracks).enumerate() {
        let a = scale_track_times(a, fps);
        let key = format!("{at}.tracks[{j}]");
        compare_track(report, case, &key, e, &a);
    }
}

/// Compares one written track with three.js's `KeyframeTrack.toJSON` output.
fn compare_track(report: &mut Report, case: &str, key: &str, expected: &Value, actual: &Value) {
    let zero = ZeroSign::Loose;
    let get = |v: &Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    let name = get(expected, "name");
    let key = format!("{key} {name}");
    if name != get(actual, "name") {
        report.push(
            case,
            &format!("{key}.name"),
            format!("expected {name}, got {}", get(actual, "name")),
        );
    }
    let kind = |v: &Value| {
        v.get("type")
            .and_then(Value::as_str)
            .and_then(canonical_type)
    };
    let (ek, ak) = (kind(expected), kind(actual));
    if ek != ak {
        report.push(
            case,
            &format!("{key}.type"),
            format!(
                "expected {}, got {}",
                get(expected, "type"),
                get(actual, "type")
            ),
        );
        return;
    }
    let kind = ek.unwrap_or("number");
    let ei = resolved_interpolation(kind, expected.get("interpolation"));
    let ai = resolved_interpolation(kind, actual.get("interpolation"));
    if ei != ai {
        report.push(
            case,
            &format!("{key}.interpolation"),
            format!(
                "expected {ei}, got {ai} (written {})",
                get(actual, "interpolation")
            ),
        );
    }
    compare_scalars(
        report,
        case,
        &format!("{key}.times"),
        &get(expected, "times"),
        &get(actual, "times"),
        zero,
    );
    compare_scalars(
        report,
        case,
        &format!("{key}.values"),
        &get(expected, "values"),
        &get(actual, "values"),
        zero,
    );
    let tangents = |v: &Value, k: &str| v.get("settings").and_then(|s| s.get(k)).cloned();
    for k in ["inTangents", "outTangents"] {
        match (tangents(expected, k), tangents(actual, k)) {
            (None, None) => {}
            (Some(e), Some(a)) => {
                compare_scalars(report, case, &format!("{key}.settings.{k}"), &e, &a, zero)
            }
            (e, a) => report.push(
                case,
                &format!("{key}.settings.{k}"),
                format!("expected {}, got {}", e.is_some(), a.is_some()),
            ),
        }
    }
}

/// Compares a written file with the expected `toJSON` array; `single` says whether the input
/// file was one clip object (then the output must be one too).
fn compare_file(
    report: &mut Report,
    case: &str,
    op: &str,
    single: bool,
    expected: &Value,
    actual: &Value,
) {
    if single == actual.is_array() {
        report.push(
            case,
            op,
            format!(
                "shape: input was {}, output is {}",
                if single {
                    "one clip object"
                } else {
                    "an array"
                },
                if actual.is_array() {
                    "an array"
                } else {
                    "not an array"
                }
            ),
        );
    }
    let e = clips_of(expected);
    let a = clips_of(actual);
    if e.len() != a.len() {
        report.push(
            case,
            op,
            format!("{} clips expected, got {}", e.len(), a.len()),
        );
        return;
    }
    for (i, (e, a)) in e.iter().zip(&a).enumerate() {
        compare_clip(report, case, &format!("{op} clip[{i}]"), e, a);
    }
}

/// Compares `clipscope sample` stdout with the expected `sample.result`.
fn compare_sample(report: &mut Report, case: &str, expected: &Value, actual: &Value) {
    let (Some(e), Some(a)) = (expected.as_object(), actual.as_object()) else {
        report.push(
            case,
            "sample",
            format!("expected a JSON object, got {}", short(actual)),
        );
        return;
    };
    for key in a.keys().filter(|k| !e.contains_key(*k)) {
        report.push(case, &format!("sample {key:?}"), "unexpected key");
    }
    for (key, per_time) in e {
        let Some(got) = a.get(key) else {
            report.push(case, &format!("sample {key:?}"), "missing key");
            continue;
        };
        let (Some(pe), Some(pa)) = (per_time.as_array(), got.as_array()) else {
            report.push(
                case,
                &format!("sample {key:?}"),
                format!("expected an array per time, got {}", short(got)),
            );
            continue;
        };
        if pe.len() != pa.len() {
            report.push(
                case,
                &format!("sample {key:?}"),
                format!("{} times expected, got {}", pe.len(), pa.len()),
            );
            continue;
        }
        for (i, (ve, va)) in pe.iter().zip(pa).enumerate() {
            compare_scalars(
                report,
                case,
                &format!("sample {key:?} time#{i}"),
                ve,
                va,
                ZeroSign::Strict,
            );
        }
    }
}

// ------------------------------------------------------------------------------------------------
// The tests

/// Runs an op that writes a file (`optimize`, `trim`) on every case and compares the output.
fn check_written_op(op: &str) {
    let cases = load_cases();
    assert!(
        cases.len() >= 60,
        "expected at least 60 conformance cases, found {}",
        cases.len()
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let mut report = Report::default();
    for case in &cases {
        let out = dir.path().join(format!("{}.{op}.json", case.id));
        let run = run_cli(&os(&[&op, &case.input, &"-o", &out]));
        if run.crashed() {
            report.push(&case.id, op, format!("crashed: {}", run.describe()));
            continue;
        }
        if let Some(msg) = case.parse_error() {
            if run.code == Some(0) {
                report.push(
                    &case.id,
                    op,
                    format!("three.js cannot parse this file ({msg}) but {op} succeeded"),
                );
            }
            continue;
        }
        if run.code != Some(0) {
            if case.all_valid() {
                report.push(&case.id, op, format!("failed: {}", run.describe()));
            }
            continue;
        }
        let Some(expected) = case.expected.get(op) else {
            continue; // three.js could not run it (e.g. optimize loops on a fractional value size)
        };
        let text = match std::fs::read_to_string(&out) {
            Ok(t) => t,
            Err(e) => {
                report.push(&case.id, op, format!("exit 0 but no output file: {e}"));
                continue;
            }
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(actual) => compare_file(
                &mut report,
                &case.id,
                op,
                !case.input_json.is_array(),
                expected,
                &actual,
            ),
            Err(e) => report.push(&case.id, op, format!("output is not JSON: {e}")),
        }
    }
    report.finish(&format!("clipscope {op}"), cases.len());
}

#[test]
fn sample_matches_threejs() {
    let cases = load_cases();
    assert!(
        cases.len() >= 60,
        "expected at least 60 conformance cases, found {}",
        cases.len()
    );
    let mut report = Report::default();
    for case in &cases {
        let times_arg = case
            .expected
            .pointer("/sample/timesArg")
            .and_then(Value::as_str)
            .map(|t| format!("--times={t}"));
        let times_arg = times_arg.unwrap_or_else(|| "--times=0".to_string());
        let run = run_cli(&os(&[&"sample", &case.input, &times_arg]));
        if run.crashed() {
            report.push(&case.id, "sample", format!("crashed: {}", run.describe()));
            continue;
        }
        if let Some(msg) = case.parse_error() {
            if run.code == Some(0) {
                report.push(
                    &case.id,
                    "sample",
                    format!("three.js cannot parse this file ({msg}) but sample succeeded"),
                );
            }
            continue;
        }
        if run.code != Some(0) {
            if case.all_valid() {
                report.push(&case.id, "sample", format!("failed: {}", run.describe()));
            }
            continue;
        }
        let Some(expected) = case.expected.pointer("/sample/result") else {
            continue; // three.js never returns on this file (fractional value size)
        };
        match serde_json::from_str::<Value>(&run.stdout) {
            Ok(actual) => compare_sample(&mut report, &case.id, expected, &actual),
            Err(e) => report.push(
                &case.id,
                "sample",
                format!(
                    "stdout is not one JSON object: {e}: {}",
                    short(&Value::String(run.stdout.clone()))
                ),
            ),
        }
    }
    report.finish("clipscope sample", cases.len());
}

#[test]
fn optimize_matches_threejs() {
    check_written_op("optimize");
}

#[test]
fn trim_matches_threejs() {
    check_written_op("trim");
}

#[test]
fn validate_matches_threejs() {
    let cases = load_cases();
    assert!(
        cases.len() >= 60,
        "expected at least 60 conformance cases, found {}",
        cases.len()
    );
    let mut report = Report::default();
    for case in &cases {
        let run = run_cli(&os(&[&"validate", &case.input, &"--format", &"json"]));
        if run.crashed() {
            report.push(&case.id, "validate", format!("crashed: {}", run.describe()));
            continue;
        }
        let json: Value = match serde_json::from_str(&run.stdout) {
            Ok(v) => v,
            Err(e) => {
                report.push(
                    &case.id,
                    "validate",
                    format!("stdout is not JSON ({e}); {}", run.describe()),
                );
                continue;
            }
        };
        let empty = Vec::new();
        let problems = json
            .pointer("/files/0/problems")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let errors: Vec<&Value> = problems
            .iter()
            .filter(|p| p.get("severity").and_then(Value::as_str) == Some("error"))
            .collect();
        let describe = |ps: &[&Value]| ps.iter().map(|p| short(p)).collect::<Vec<_>>().join("; ");
        if let Some(msg) = case.parse_error() {
            if run.code != Some(2) {
                report.push(
                    &case.id,
                    "validate exit",
                    format!(
                        "three.js cannot parse ({msg}): expected exit 2, got {:?}",
                        run.code
                    ),
                );
            }
            if !problems
                .iter()
                .any(|p| p.get("code").and_then(Value::as_str) == Some("parse"))
            {
                report.push(
                    &case.id,
                    "validate problems",
                    format!(
                        "three.js cannot parse ({msg}): expected a `parse` problem, got [{}]",
                        describe(&problems.iter().collect::<Vec<_>>())
                    ),
                );
            }
            continue;
        }
        let valid = case.valid();
        let invalid: Vec<usize> = (0..valid.len()).filter(|&i| !valid[i]).collect();
        let expected_code = if invalid.is_empty() { 0 } else { 1 };
        if run.code != Some(expected_code) {
            report.push(&case.id, "validate exit", format!("three.js validate() = {valid:?}: expected exit {expected_code}, got {:?}; errors: [{}]", run.code, describe(&errors)));
        }
        for &i in &invalid {
            if !errors
                .iter()
                .any(|p| p.get("clip").and_then(Value::as_u64) == Some(i as u64))
            {
                report.push(&case.id, &format!("validate clip[{i}]"), format!("three.js validate() is false but no error problem has clip {i}; errors: [{}]", describe(&errors)));
            }
        }
        for p in &errors {
            let clip = p.get("clip").and_then(Value::as_u64).map(|c| c as usize);
            let flagged_valid = match clip {
                Some(c) => valid.get(c).copied().unwrap_or(false),
                None => invalid.is_empty(),
            };
            if flagged_valid {
                report.push(
                    &case.id,
                    &format!("validate clip[{clip:?}]"),
                    format!(
                        "three.js validate() is true but clipscope reports an error: {}",
                        short(p)
                    ),
                );
            }
        }
    }
    report.finish("clipscope validate", cases.len());
}

// ------------------------------------------------------------------------------------------------
// Unit tests of the comparison helpers (they do not need the binary)

#[cfg(test)]
mod helper_tests {
    use super::*;
    use serde_json::json;

    fn parse(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn numbers_compare_as_f32_bits() {
        // 0.1 and the f64 of f32(0.1) are the same f32
        assert!(same_scalar(
            &parse("0.10000000149011612"),
            &parse("0.1"),
            ZeroSign::Strict
        ));
        // the next f32 up is not
        let next = f32::from_bits(0.1f32.to_bits() + 1) as f64;
        assert!(!same_scalar(
            &parse("0.10000000149011612"),
            &json!(next),
            ZeroSign::Strict
        ));
        assert!(same_scalar(
            &parse("3e38"),
            &parse("3.0000000054977558e38"),
            ZeroSign::Strict
        ));
        assert!(same_scalar(
            &parse("1e-45"),
            &parse("1.401298464324817e-45"),
            ZeroSign::Strict
        ));
        assert!(!same_scalar(&parse("1"), &json!("1"), ZeroSign::Strict));
        assert!(same_scalar(&json!(true), &json!(true), ZeroSign::Strict));
        assert!(!same_scalar(&json!(true), &json!(false), ZeroSign::Strict));
        assert!(same_scalar(
            &json!("walk"),
            &json!("walk"),
            ZeroSign::Strict
        ));
        assert!(!same_scalar(
            &json!("walk"),
            &json!("run"),
            ZeroSign::Strict
        ));
    }

    #[test]
    fn minus_zero_is_kept_by_serde_and_compared_by_mode() {
        let minus = parse("-0");
        assert_eq!(as_f32(&minus).unwrap().to_bits(), (-0.0f32).to_bits());
        assert!(same_scalar(&minus, &parse("-0.0"), ZeroSign::Strict));
        assert!(!same_scalar(&minus, &parse("0"), ZeroSign::Strict));
        assert!(same_scalar(&minus, &parse("0"), ZeroSign::Loose));
    }

    #[test]
    fn nonfinite_markers_accept_null_strings_and_overflowing_numbers() {
        let nan = json!("NaN");
        let inf = json!("Infinity");
        let ninf = json!("-Infinity");
        assert!(same_scalar(&nan, &Value::Null, ZeroSign::Strict));
        assert!(same_scalar(&nan, &json!("NaN"), ZeroSign::Strict));
        assert!(!same_scalar(&nan, &json!(0.0), ZeroSign::Strict));
        assert!(same_scalar(&inf, &parse("1e39"), ZeroSign::Strict));
        assert!(!same_scalar(&inf, &parse("-1e39"), ZeroSign::Strict));
        assert!(same_scalar(&ninf, &parse("-1e39"), ZeroSign::Strict));
        assert!(!same_scalar(&inf, &parse("3e38"), ZeroSign::Strict));
        // a finite expectation never matches null
        assert!(!same_scalar(&json!(1.0), &Value::Null, ZeroSign::Strict));
    }

    #[test]
    fn three_js_reading_rules() {
        assert_eq!(canonical_type("Vector3"), Some("vector"));
        assert_eq!(canonical_type("DOUBLE"), Some("number"));
        assert_eq!(canonical_type("boolean"), Some("bool"));
        assert_eq!(canonical_type("vector5"), None);
        assert_eq!(
            resolved_interpolation("quaternion", Some(&json!(2302))),
            2301
        );
        assert_eq!(
            resolved_interpolation("quaternion", Some(&json!(2303))),
            2303
        );
        assert_eq!(resolved_interpolation("bool", Some(&json!(2303))), 2300);
        assert_eq!(resolved_interpolation("number", Some(&json!(9999))), 2301);
        assert_eq!(resolved_interpolation("number", None), 2301);
        assert_eq!(resolved_interpolation("vector", Some(&json!(2302))), 2302);
        assert_eq!(user_data_of(&json!({"userData": ""})), Ok(json!({})));
        assert_eq!(user_data_of(&json!({})), Ok(json!({})));
        assert_eq!(
            user_data_of(&json!({"userData": "{\"a\":1}"})),
            Ok(json!({"a": 1}))
        );
        assert!(user_data_of(&json!({"userData": {"a": 1}})).is_err());
        assert_eq!(fps_of(&json!({"fps": 0})), 1.0);
        assert_eq!(fps_of(&json!({"fps": 30})), 30.0);
        // frames 3 at 30 fps: f32(3 * (1/30)) = 0.10000000149011612, tangent times scale too
        let t = scale_track_times(
            &json!({"times": [3], "settings": {"inTangents": [3, 7], "outTangents": [6, 7]}}),
            30.0,
        );
        assert_eq!(t["times"][0].as_f64().unwrap() as f32, 0.1f32);
        assert_eq!(t["settings"]["inTangents"], json!([0.10000000149011612, 7]));
        assert_eq!(
            t["settings"]["outTangents"][0].as_f64().unwrap() as f32,
            0.2f32
        );
    }

    fn clip(times: Value, values: Value, extra: Value) -> Value {
        let mut c = json!({
            "name": "walk", "duration": 1.5,
            "tracks": [{"name": ".position", "times": times, "values": values, "type": "vector"}],
            "uuid": "u", "blendMode": 2500, "userData": "{}"
        });
        if let (Some(c), Some(e)) = (c.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                c.insert(k.clone(), v.clone());
            }
        }
        c
    }

    #[test]
    fn equal_files_have_no_mismatch() {
        let mut r = Report::default();
        let e = clip(json!([0, 0.5]), json!([1, 2, 3, 0.1, 5, 6]), json!({}));
        // the same clip as an alias type, without blendMode/userData, with 0.1 written short
        let mut a = clip(
            json!([0, 0.5]),
            json!([1, 2, 3, 0.10000000149011612, 5, 6]),
            json!({}),
        );
        a["tracks"][0]["type"] = json!("Vector3");
        a.as_object_mut().unwrap().remove("blendMode");
        a.as_object_mut().unwrap().remove("userData");
        compare_file(&mut r, "c", "optimize", true, &json!([e]), &a);
        assert!(r.lines.is_empty(), "{:?}", r.lines);
        // frames with an fps field read the same as seconds
        let f = clip(
            json!([0, 15]),
            json!([1, 2, 3, 0.1, 5, 6]),
            json!({"fps": 30}),
        );
        compare_file(&mut r, "c", "optimize", true, &json!([e]), &f);
        assert!(r.lines.is_empty(), "{:?}", r.lines);
    }

    #[test]
    fn differences_are_reported_with_case_and_key() {
        let mut r = Report::default();
        let e = clip(json!([0, 0.5]), json!([1, 2, 3, 4, 5, 6]), json!({}));
        let a = clip(
            json!([0, 0.5]),
            json!([1, 2, 3, 4, 5, 6.5]),
            json!({"duration": 2, "uuid": "v", "blendMode": 2501}),
        );
        compare_file(
            &mut r,
            "case007",
            "trim",
            false,
            &json!([e.clone()]),
            &json!([a]),
        );
        let text = r.lines.join("\n");
        assert!(text.contains("case007: trim clip[0].duration"), "{text}");
        assert!(text.contains("case007: trim clip[0].uuid"), "{text}");
        assert!(text.contains("case007: trim clip[0].blendMode"), "{text}");
        assert!(
            text.contains(
                "case007: trim clip[0].tracks[0] \".position\".values[5]: expected 6, got 6.5"
            ),
            "{text}"
        );
        assert_eq!(r.lines.len(), 4, "{text}");

        let mut r = Report::default();
        compare_file(
            &mut r,
            "case008",
            "trim",
            false,
            &json!([e]),
            &clip(json!([0]), json!([1, 2, 3]), json!({})),
        );
        assert!(
            r.lines.iter().any(|l| l.contains(
                "case008: trim clip[0].tracks[0] \".position\".times: length 2 expected, got 1"
            )),
            "{:?}",
            r.lines
        );
        // a single-clip input written as an array is a shape mismatch
        assert!(r.lines.iter().any(|l| l.contains("shape")), "{:?}", r.lines);
    }

    #[test]
    fn sample_comparison_reports_keys_and_times() {
        let mut r = Report::default();
        let e = json!({"walk|.x": [[1], [0.3333333432674408]], "walk|.visible": [[true], [false]]});
        let a = json!({"walk|.x": [[1], [0.33333334]], "walk|.visible": [[true], [false]]});
        compare_sample(&mut r, "case001", &e, &a);
        assert!(r.lines.is_empty(), "{:?}", r.lines);
        let a = json!({"walk|.x": [[1], [0.3333333]], "walk|.extra": [[0], [0]]});
        compare_sample(&mut r, "case001", &e, &a);
        let text = r.lines.join("\n");
        assert!(
            text.contains(
                "case001: sample \"walk|.x\" time#1[0]: expected 0.3333333432674408, got 0.3333333"
            ),
            "{text}"
        );
        assert!(
            text.contains("case001: sample \"walk|.extra\": unexpected key"),
            "{text}"
        );
        assert!(
            text.contains("case001: sample \"walk|.visible\": missing key"),
            "{text}"
        );
    }

    #[test]
    fn fixtures_are_consistent() {
        let cases = load_cases();
        assert!(cases.len() >= 60);
        for c in &cases {
            if c.parse_error().is_some() {
                continue;
            }
            let n = clips_of(&c.input_json).len();
            assert_eq!(c.valid().len(), n, "{}", c.id);
            if let Some(opt) = c.expected.get("optimize") {
                assert_eq!(clips_of(opt).len(), n, "{}", c.id);
            }
            let times = c
                .expected
                .pointer("/sample/times")
                .and_then(Value::as_array)
                .expect("sample.times");
            let arg = c
                .expected
                .pointer("/sample/timesArg")
                .and_then(Value::as_str)
                .expect("sample.timesArg");
            let parsed: Vec<f64> = arg.split(',').map(|t| t.parse().unwrap()).collect();
            let listed: Vec<f64> = times.iter().map(|t| t.as_f64().unwrap()).collect();
            assert_eq!(
                parsed, listed,
                "{}: timesArg must parse to the listed times",
                c.id
            );
            if let Some(result) = c
                .expected
                .pointer("/sample/result")
                .and_then(Value::as_object)
            {
                for (k, v) in result {
                    assert_eq!(
                        v.as_array().map(Vec::len),
                        Some(times.len()),
                        "{} {k}",
                        c.id
                    );
                }
            }
        }
        // the invalid and unparseable groups are present
        assert!(
            cases
                .iter()
                .filter(|c| !c.all_valid() && c.parse_error().is_none())
                .count()
                >= 8
        );
        assert!(cases.iter().filter(|c| c.parse_error().is_some()).count() >= 3);
    }
}
