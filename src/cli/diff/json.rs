//! `clipscope diff --json`: the diff for scripts.
//!
//! ```json
//! { "old": { "file": "a.gltf", "format": "gltf", "clips": 2 },
//!   "new": { "file": "b.json", "format": "threejs", "clips": 2 },
//!   "identical": false, "tolerance": 0, "length_unit": "m",
//!   "clips": [ { "status": "changed", "name": "walk", "index": { "old": 0, "new": 0 },
//!                "counts": { … }, "unchanged_tracks": 51,
//!                "tracks": [ { "status": "changed", "name": "hip.quaternion",
//!                              "measure": "rotation", "unit": "°",
//!                              "largest": { "amount": 15.0, "time": 0.5, "old": […], "new": […] },
//!                              … } ],
//!                "joints": [ { "name": "hand", "distance": 0.12, … } ] } ],
//!   "unchanged_clips": 1 }
//! ```
//!
//! The clip and track entries are [`clipscope_core::model::ops::diff`]'s types as serde writes
//! them, with each track's `unit` added (`°`, `%`, `×`, the file's length unit, or none).

use serde_json::{Value, json};

use super::Version;
use clipscope_core::model::ops::diff::{Diff, Measure};

/// The JSON report of `diff` between `old` and `new`.
pub fn report(old: &Version, new: &Version, diff: &Diff, tolerance: f64) -> Value {
    let length = new
        .doc
        .as_ref()
        .map_or_else(|| old.length_symbol(), |_| new.length_symbol());
    let mut clips = serde_json::to_value(&diff.clips).unwrap_or(Value::Null);
    if let Value::Array(list) = &mut clips {
        for (clip, d) in list.iter_mut().zip(&diff.clips) {
            if let Some(Value::Array(tracks)) = clip.get_mut("tracks") {
                for (track, t) in tracks.iter_mut().zip(&d.tracks) {
                    track["unit"] = json!(unit(t.measure, length));
                }
            }
        }
    }
    json!({
        "old": side(old),
        "new": side(new),
        "identical": diff.is_identical(),
        "tolerance": tolerance,
        "length_unit": length,
        "clips": clips,
        "unchanged_clips": diff.unchanged_clips,
    })
}

/// The unit a measure's amounts are in, `length` for lengths; `None` for plain numbers.
pub fn unit(measure: Measure, length: &'static str) -> Option<&'static str> {
    if measure.is_length() {
        Some(length)
    } else {
        measure.unit()
    }
}

/// One version: its name, format and clip count (`null` format for a missing version).
fn side(v: &Version) -> Value {
    json!({
        "file": v.label,
        "format": v.doc.as_ref().map(|d| d.format.spec().name),
        "clips": v.clips().len(),
    })
}
