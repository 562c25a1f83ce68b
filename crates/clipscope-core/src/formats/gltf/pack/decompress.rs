//! Reading `EXT_meshopt_compression`: every compressed buffer view is decoded into the bytes
//! its (fallback) buffer would hold, and the extension is taken out of the JSON, so everything
//! downstream (accessors, checks, writing back) sees a plain uncompressed file.
//!
//! A fallback buffer without a `uri` (marked `"fallback": true`) starts as zeros of its
//! `byteLength`; [`decompress`] fills the ranges of the views it holds.

use serde_json::{Map, Value};

use super::EXTENSION;
use super::codec::{Filter, Mode, decode};
use crate::formats::json::Located;

/// The largest fallback buffer clipscope allocates for decoded data, in bytes.
pub(crate) const MAX_FALLBACK: u64 = 1 << 30;

/// Whether `buffer` (a `buffers[i]` entry) is a fallback buffer with no data of its own.
pub(crate) fn is_fallback(buffer: &Value) -> bool {
    buffer.get("uri").is_none()
        && buffer
            .pointer(&format!("/extensions/{EXTENSION}/fallback"))
            .and_then(Value::as_bool)
            == Some(true)
}

/// A compressed view's extension object, read.
struct Compressed {
    /// The buffer holding the compressed bytes.
    buffer: usize,
    /// Where they start.
    offset: usize,
    /// How many there are.
    length: usize,
    /// Bytes per decoded element.
    stride: usize,
    /// Decoded elements.
    count: usize,
    /// The codec.
    mode: Mode,
    /// The filter.
    filter: Filter,
}

/// Reads the extension object `ext` at `path`.
fn compressed(ext: &Value, path: &str) -> Result<Compressed, Located> {
    let number = |key: &str, default: Option<u64>| -> Result<usize, Located> {
        let v = match ext.get(key) {
            Some(v) => v.as_u64().ok_or_else(|| {
                Located::new(format!("{path}.{key}"), "not a non-negative integer")
            })?,
            None => default
                .ok_or_else(|| Located::new(format!("{path}.{key}"), "missing (required)"))?,
        };
        usize::try_from(v).map_err(|_| Located::new(format!("{path}.{key}"), "too large"))
    };
    let name = |key: &str, default: Option<&'static str>| -> Result<String, Located> {
        match ext.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(Located::new(format!("{path}.{key}"), "not a string")),
            None => default
                .map(str::to_string)
                .ok_or_else(|| Located::new(format!("{path}.{key}"), "missing (required)")),
        }
    };
    let mode_name = name("mode", None)?;
    let mode = Mode::parse(&mode_name).ok_or_else(|| {
        Located::new(
            format!("{path}.mode"),
            format!("unknown mode {mode_name:?} (ATTRIBUTES, TRIANGLES or INDICES)"),
        )
    })?;
    let filter_name = name("filter", Some("NONE"))?;
    let filter = Filter::parse(&filter_name).ok_or_else(|| {
        Located::unsupported(
            format!("{path}.filter"),
            format!("unknown filter {filter_name:?}"),
        )
    })?;
    Ok(Compressed {
        buffer: number("buffer", None)?,
        offset: number("byteOffset", Some(0))?,
        length: number("byteLength", None)?,
        stride: number("byteStride", None)?,
        count: number("count", None)?,
        mode,
        filter,
    })
}

/// Decodes every compressed view of `root` into `buffers` (see the module docs) and removes
/// the extension from the views, the buffers and the extension lists.
pub(crate) fn decompress(
    root: &mut Map<String, Value>,
    buffers: &mut [Vec<u8>],
) -> Result<(), Located> {
    let Some(Value::Array(views)) = root.get_mut("bufferViews") else {
        return strip_lists(root);
    };
    for (i, view) in views.iter_mut().enumerate() {
        let Some(ext) = view.pointer(&format!("/extensions/{EXTENSION}")) else {
            continue;
        };
        let path = format!("bufferViews[{i}].extensions.{EXTENSION}");
        let c = compressed(ext, &path)?;
        let source = buffers
            .get(c.buffer)
            .ok_or_else(|| {
                Located::new(
                    format!("{path}.buffer"),
                    format!("buffer {} does not exist", c.buffer),
                )
            })?
            .get(c.offset..c.offset.saturating_add(c.length))
            .ok_or_else(|| {
                Located::new(
                    format!("{path}.byteLength"),
                    format!("the compressed bytes lie outside buffers[{}]", c.buffer),
                )
            })?;
        let decoded = decode(source, c.count, c.stride, c.mode, c.filter)
            .map_err(|reason| Located::new(path.clone(), reason))?;
        let target = view
            .get("buffer")
            .and_then(Value::as_u64)
            .and_then(|b| usize::try_from(b).ok());
        let start = view
            .get("byteOffset")
            .map_or(Some(0), Value::as_u64)
            .and_then(|o| usize::try_from(o).ok());
        let length = view.get("byteLength").and_then(Value::as_u64);
        let (Some(target), Some(start)) = (target, start) else {
            return Err(Located::new(
                format!("bufferViews[{i}]"),
                "the view has no valid buffer or byteOffset",
            ));
        };
        if length.is_none_or(|l| l < decoded.len() as u64) {
            return Err(Located::new(
                format!("bufferViews[{i}].byteLength"),
                format!(
                    "the view has {} bytes but decodes to {} ({} × {})",
                    length.unwrap_or(0),
                    decoded.len(),
                    c.count,
                    c.stride
                ),
            ));
        }
        let out = buffers
            .get_mut(target)
            .and_then(|b| b.get_mut(start..start + decoded.len()))
            .ok_or_else(|| {
                Located::new(
                    format!("bufferViews[{i}].byteLength"),
                    format!("the decoded bytes lie outside buffers[{target}]"),
                )
            })?;
        out.copy_from_slice(&decoded);
        remove_extension(view);
    }
    if let Some(Value::Array(list)) = root.get_mut("buffers") {
        list.iter_mut().for_each(remove_extension);
    }
    strip_lists(root)
}

/// Removes the extension from `value`'s `extensions` (and `extensions` when that empties it).
fn remove_extension(value: &mut Value) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(ext)) = map.get_mut("extensions") {
        ext.shift_remove(EXTENSION);
        if ext.is_empty() {
            map.shift_remove("extensions");
        }
    }
}

/// Removes the extension from `extensionsUsed` and `extensionsRequired` (and the lists when
/// that empties them).
fn strip_lists(root: &mut Map<String, Value>) -> Result<(), Located> {
    for key in ["extensionsUsed", "extensionsRequired"] {
        if let Some(Value::Array(list)) = root.get_mut(key) {
            list.retain(|e| e.as_str() != Some(EXTENSION));
            if list.is_empty() {
                root.shift_remove(key);
            }
        }
    }
    Ok(())
}
