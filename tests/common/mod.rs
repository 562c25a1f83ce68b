//! Helpers shared by the integration test binaries that link the library (`tests/formats`,
//! `tests/gui`), included from their `main.rs` beside `test_support` (the sample data, the
//! skip line and the random generator, shared with the unit tests):
//!
//! - conformance: collecting mismatches, reading the fixtures' numbers and non-finite markers,
//!   and three.js's reading rules for the JSON it writes;
//! - [`node_package`]: node and the npm packages of `tests/conformance`, or a skip;
//! - [`gpu::require_gpu`] and [`snapshot::check_snapshot`] (feature `gui`): a headless renderer
//!   or a skip, and pictures compared with the references in `tests/snapshots`;
//! - [`gui`] (feature `gui`): the real editor driven through egui_kittest.
// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use serde_json::Value;

/// At most this many mismatch lines are printed (the total count is always printed).
pub const MAX_LINES: usize = 400;

/// Mismatches of one test, each a line `<context>: <key>: <what>`; the test fails once, at the
/// end, with all of them.
#[derive(Default)]
pub struct Report {
    /// The mismatch lines, in the order found.
    pub lines: Vec<String>,
}

impl Report {
    /// Records a mismatch at `key` (may be empty) of `context` (a case, an operation).
    pub fn push(&mut self, context: &str, key: &str, what: impl std::fmt::Display) {
        if key.is_empty() {
            self.lines.push(format!("{context}: {what}"));
        } else {
            self.lines.push(format!("{context}: {key}: {what}"));
        }
    }

    /// Fails the test with every mismatch (up to [`MAX_LINES`] lines) and a count per context;
    /// `what` names the check and `checked` how many cases or results were compared.
    pub fn finish(self, what: &str, checked: usize) {
        if self.lines.is_empty() {
            return;
        }
        let mut per_context: Vec<(String, usize)> = Vec::new();
        for line in &self.lines {
            let context = line.split(':').next().unwrap_or_default().to_string();
            match per_context.last_mut() {
                Some((c, n)) if *c == context => *n += 1,
                _ => per_context.push((context, 1)),
            }
        }
        let summary: Vec<String> = per_context
            .iter()
            .map(|(c, n)| format!("{c} ({n})"))
            .collect();
        let shown: Vec<&str> = self
            .lines
            .iter()
            .take(MAX_LINES)
            .map(String::as_str)
            .collect();
        panic!(
            "{what}: {} mismatches with three.js r187 in {} of {checked} checked: {}\n{}{}",
            self.lines.len(),
            per_context.len(),
            summary.join(", "),
            shown.join("\n"),
            if self.lines.len() > MAX_LINES {
                format!("\n… {} more", self.lines.len() - MAX_LINES)
            } else {
                String::new()
            }
        );
    }
}

/// Is `s` one of the fixtures' non-finite markers (`"NaN"`, `"Infinity"`, `"-Infinity"`)?
pub fn is_nonfinite_marker(s: &str) -> bool {
    matches!(s, "NaN" | "Infinity" | "-Infinity")
}

/// A JSON number or non-finite marker as an f64, or `None` when `v` is not numeric (`null`
/// included).
pub fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// A JSON number or non-finite marker as an f32 (the fixtures' numbers are f32 values widened
/// to f64), or `None` when `v` is not numeric.
pub fn as_f32(v: &Value) -> Option<f32> {
    as_f64(v).map(|x| x as f32)
}

/// Short text of a JSON value for reports.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 200 {
        format!("{}…", &s[..s.floor_char_boundary(200)])
    } else {
        s
    }
}

/// three.js's case-insensitive track type map (`parseKeyframeTrack`), giving the canonical
/// `ValueTypeName`, or `None` for a type three.js rejects.
pub fn canonical_type(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "scalar" | "double" | "float" | "number" | "integer" => "number",
        "vector" | "vector2" | "vector3" | "vector4" => "vector",
        "color" => "color",
        "quaternion" => "quaternion",
        "bool" | "boolean" => "bool",
        "string" => "string",
        _ => return None,
    })
}

/// A clip's `userData` as three.js reads it: `JSON.parse(json.userData || '{}')`.
pub fn user_data_of(clip: &Value) -> Result<Value, String> {
    match clip.get("userData") {
        None | Some(Value::Null) => Ok(Value::Object(Default::default())),
        Some(Value::String(s)) if s.is_empty() => Ok(Value::Object(Default::default())),
        Some(Value::String(s)) => {
            serde_json::from_str(s).map_err(|e| format!("userData is not JSON text: {e}"))
        }
        Some(other) => Err(format!(
            "userData must be a JSON string, got {}",
            short(other)
        )),
    }
}

/// `tests/conformance` when its `node_modules/<package>` is installed (`npm ci` there), for
/// tests that run node; otherwise `None` after a `SKIPPED` line, or a panic when
/// `CLIPSCOPE_REQUIRE_NODE=1` (CI) asks for node.
#[track_caller]
pub fn node_package(package: &str) -> Option<std::path::PathBuf> {
    let conformance = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    if conformance.join("node_modules").join(package).exists() {
        return Some(conformance);
    }
    crate::test_support::skip::skip(
        "CLIPSCOPE_REQUIRE_NODE",
        &format!(
            "tests/conformance/node_modules/{package} is missing (run npm ci in tests/conformance)"
        ),
    );
    None
}

#[cfg(feature = "gui")]
pub mod gpu;
#[cfg(feature = "gui")]
pub mod gui;
#[cfg(feature = "gui")]
pub mod snapshot;
