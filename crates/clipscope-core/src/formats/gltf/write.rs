//! Writing a document as `.gltf` (JSON, the buffer embedded as a base64 `data:` URI) or `.glb`
//! (JSON chunk plus BIN chunk): a document read from glTF is written back by
//! [`patch`], which keeps the rest of the file; any other document gets a
//! [`fresh`] file. Both follow the document's [`plan`](super::plan). Samplers with equal key
//! times share their input accessor; accessors have `min`/`max` (quantized outputs need not);
//! views are 4-byte aligned and have no stride. Number precision options do not apply: the
//! numbers live in the binary buffer as `f32`, or as [`Packing`](crate::formats::Packing) asks
//! ([`pack`](super::pack): normalized 16-bit rotations and weights, `EXT_meshopt_compression`).

use super::plan::{Plan, base, keeps_animations, plan, refuse};
use super::{fresh, patch};
use crate::formats::{Document, NotWritable, WriteOptions};

/// `doc` as a `.gltf` or `.glb` file (by its format). Tracks glTF cannot hold are left out:
/// check with [`check_writable`](crate::formats::check_writable) first.
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    write_planned(doc, &plan(doc), opts)
}

/// [`write`] when [`check_writable`](super::plan::check_writable) passes, planning once for
/// both (the plan of a long take costs a few milliseconds).
pub(crate) fn write_checked(doc: &Document, opts: &WriteOptions) -> Result<Vec<u8>, NotWritable> {
    let plan = plan(doc);
    if !base(doc).is_some_and(|src| keeps_animations(doc, src)) {
        refuse(doc, &plan.errors)?;
    }
    Ok(write_planned(doc, &plan, opts))
}

/// `doc` written as `plan` says.
fn write_planned(doc: &Document, plan: &Plan, opts: &WriteOptions) -> Vec<u8> {
    match base(doc) {
        Some(src) => patch::write_back(doc, src, plan, opts),
        None => fresh::write(doc, plan, opts),
    }
}
