//! glTF's own rules on animation data and the skins it drives, on par with the Khronos
//! glTF-Validator: what the validator reports as errors about `animations` (their channels,
//! samplers and the accessors the samplers use), the skins and the skinned nodes an animation
//! moves, with a clipscope code for each validator code (registered in
//! `validate::rules`) and the validator's JSON pointer at the start of each message.
//!
//! The checks look at the raw JSON (so a file the strict read refuses is still checked
//! everywhere), and at the data of the accessors they concern when its buffer can be loaded.
//! Accessors without a buffer view hold zeros by definition, so their data is not checked, and
//! the tracks read from them are listed (`unstored`) for the engine to leave alone too.
//!
//! * [`animations`]: animations, channels, targets (including `KHR_animation_pointer`),
//!   duplicate targets, node rules (matrix, morph targets, skinned nodes);
//! * [`accessors`]: the format, stride, bounds and count of sampler and inverse-bind-matrix
//!   accessors, and their data (negative or non-increasing times, non-unit quaternions,
//!   min/max that do not match);
//! * [`skins`]: joints, skeleton, inverse bind matrices, common roots and scenes, and the
//!   transforms a skinned mesh ignores.
//!
//! What the checks find also says which channels the lenient read must leave out
//! ([`Checked::skip_channels`]) and which skins the skeleton must ignore.

mod accessors;
mod animations;
mod skins;

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::schema::GltfJson;
use crate::formats::json::Located;
use crate::model::Problem;

/// What the checks found, and what the lenient read must leave out because of it.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// The findings, in file order (animations, then skins and nodes).
    pub problems: Vec<Problem>,
    /// Channels `(animation, channel)` that cannot be read.
    pub skip_channels: HashSet<(usize, usize)>,
    /// Accessors whose data the file does not store (no buffer view, no sparse values): zeros.
    pub unstored: HashSet<usize>,
    /// Skins too broken to build a skeleton from.
    pub broken_skins: HashSet<usize>,
}

/// The document being checked: the raw JSON, and the typed parts with the loaded buffers when
/// the typed parse worked (for decoding accessor data).
pub(crate) struct Doc<'a> {
    /// Every top-level field.
    pub root: &'a Map<String, Value>,
    /// The typed parts, for decoding accessors.
    pub json: Option<&'a GltfJson>,
    /// The bytes of each buffer (empty when it could not be loaded).
    pub buffers: &'a [Vec<u8>],
    /// Why each buffer could not be loaded, when it could not.
    pub missing: &'a [Option<Located>],
}

impl<'a> Doc<'a> {
    /// The top-level array `key` (empty when missing or not an array).
    fn list(&self, key: &str) -> &'a [Value] {
        self.root
            .get(key)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// Entry `i` of the top-level array `key`, as an object.
    fn item(&self, key: &str, i: usize) -> Option<&'a Map<String, Value>> {
        self.list(key).get(i)?.as_object()
    }
}

/// An index property: `Some(i)` for a non-negative integer.
fn index(v: Option<&Value>) -> Option<usize> {
    v?.as_u64().and_then(|i| usize::try_from(i).ok())
}

/// Runs every check on `doc`.
pub(crate) fn check(doc: &Doc<'_>) -> Checked {
    let mut out = Checked::default();
    for key in [
        "animations",
        "skins",
        "accessors",
        "bufferViews",
        "buffers",
        "nodes",
    ] {
        if doc
            .root
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            out.problems.push(Problem::error(
                "gltf-empty-entity",
                format!("/{key}: the array is empty; glTF requires at least one entry (leave it out instead)"),
            ));
        }
    }
    animations::check(doc, &mut out);
    skins::check(doc, &mut out);
    out
}

/// An unresolved reference finding: `pointer` names `what` `i`, of which the file has `n`.
fn unresolved(pointer: &str, what: &str, i: &Value, n: usize) -> Problem {
    Problem::error(
        "gltf-unresolved-reference",
        format!("{pointer}: unresolved reference: {what} {i} does not exist (the file has {n})"),
    )
}

/// A missing required property: `name` of the object at `pointer`.
fn undefined(pointer: &str, name: &str) -> Problem {
    Problem::error(
        "gltf-undefined-property",
        format!("{pointer}: property '{name}' must be defined"),
    )
}

/// An empty array at `pointer` that glTF requires to hold something.
fn empty(pointer: &str) -> Problem {
    Problem::error(
        "gltf-empty-entity",
        format!("{pointer}: the array is empty; glTF requires at least one entry"),
    )
}

#[cfg(test)]
mod tests;
