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
//! them (times and sampled values as the `f32` numbers the files hold).

use serde::Serialize;

use super::Version;
use clipscope_core::model::ops::diff::{ClipDiff, Diff};

/// The JSON report (see the module docs).
#[derive(Serialize)]
pub struct Report<'a> {
    old: Side<'a>,
    new: Side<'a>,
    identical: bool,
    tolerance: f64,
    length_unit: &'static str,
    clips: &'a [ClipDiff],
    unchanged_clips: usize,
}

/// One version: its name, format and clip count (`null` format for a missing version).
#[derive(Serialize)]
struct Side<'a> {
    file: &'a str,
    format: Option<&'static str>,
    clips: usize,
}

impl<'a> Side<'a> {
    fn of(v: &'a Version) -> Side<'a> {
        Side {
            file: &v.label,
            format: v.doc.as_ref().map(|d| d.format.spec().name),
            clips: v.clips().len(),
        }
    }
}

/// The JSON report of `diff` between `old` and `new`.
pub fn report<'a>(
    old: &'a Version,
    new: &'a Version,
    diff: &'a Diff,
    tolerance: f64,
) -> Report<'a> {
    Report {
        old: Side::of(old),
        new: Side::of(new),
        identical: diff.is_identical(),
        tolerance,
        length_unit: super::length_symbol(old, new),
        clips: &diff.clips,
        unchanged_clips: diff.unchanged_clips,
    }
}
