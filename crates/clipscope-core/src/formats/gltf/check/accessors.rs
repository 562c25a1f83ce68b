//! The accessors animation data and skins use: their format (type, component type,
//! normalization), their buffer view's stride, their bounds and, when the bytes are there,
//! their data.

use serde_json::{Map, Value};

use super::{Checked, Doc};
use crate::formats::gltf::accessor::{Decoded, decode};

/// `FLOAT`.
pub(super) const FLOAT: u64 = 5126;

/// The glTF name of a component type.
pub(super) fn component_name(c: u64) -> String {
    match c {
        5120 => "BYTE".into(),
        5121 => "UNSIGNED_BYTE".into(),
        5122 => "SHORT".into(),
        5123 => "UNSIGNED_SHORT".into(),
        5125 => "UNSIGNED_INT".into(),
        5126 => "FLOAT".into(),
        other => other.to_string(),
    }
}

/// The accessor's `{TYPE, COMPONENT}` format as the validator writes it, with `normalized`.
pub(super) fn format_of(a: &Map<String, Value>) -> String {
    let t = a.get("type").and_then(Value::as_str).unwrap_or("?");
    let c = a.get("componentType").and_then(Value::as_u64).unwrap_or(0);
    let normalized = if normalized(a) { " normalized" } else { "" };
    format!("{{{t}, {}{normalized}}}", component_name(c))
}

/// Whether the accessor is marked `normalized`.
pub(super) fn normalized(a: &Map<String, Value>) -> bool {
    a.get("normalized").and_then(Value::as_bool) == Some(true)
}

/// The accessor's type (`VEC3`).
pub(super) fn type_of(a: &Map<String, Value>) -> &str {
    a.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The accessor's component type.
pub(super) fn component_of(a: &Map<String, Value>) -> u64 {
    a.get("componentType").and_then(Value::as_u64).unwrap_or(0)
}

/// The accessor's element count.
pub(super) fn count_of(a: &Map<String, Value>) -> u64 {
    a.get("count").and_then(Value::as_u64).unwrap_or(0)
}

/// Whether the accessor is FLOAT or a normalized integer of 8 or 16 bits (the formats rotation
/// and weights outputs allow).
pub(super) fn float_or_normalized_small(a: &Map<String, Value>) -> bool {
    let c = component_of(a);
    c == FLOAT || (normalized(a) && matches!(c, 5120..=5123))
}

/// `Some((view, stride))` when the accessor's buffer view has a `byteStride`.
pub(super) fn stride(doc: &Doc<'_>, a: &Map<String, Value>) -> Option<(usize, u64)> {
    let v = super::index(a.get("bufferView"))?;
    let s = doc.item("bufferViews", v)?.get("byteStride")?.as_u64()?;
    Some((v, s))
}

/// Where an accessor's data comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Data {
    /// Stored in loadable buffers.
    Stored,
    /// Not stored: no buffer view and no sparse values, so every element is zero.
    Zeros,
    /// Stored in a buffer that cannot be loaded (the buffer's index).
    Unavailable(usize),
    /// Its buffer view or buffer does not resolve (reported elsewhere, or not at all when no
    /// animation uses it).
    Broken,
}

/// Where accessor `a`'s data comes from.
pub(super) fn data_of(doc: &Doc<'_>, a: &Map<String, Value>) -> Data {
    let mut views = Vec::new();
    if let Some(v) = a.get("bufferView") {
        views.push(v);
    }
    if let Some(sparse) = a.get("sparse").and_then(Value::as_object) {
        for part in ["indices", "values"] {
            if let Some(v) = sparse.get(part).and_then(|p| p.get("bufferView")) {
                views.push(v);
            }
        }
    }
    if views.is_empty() {
        return Data::Zeros;
    }
    for v in views {
        let Some(view) = super::index(Some(v)).and_then(|v| doc.item("bufferViews", v)) else {
            return Data::Broken;
        };
        let Some(b) = super::index(view.get("buffer")) else {
            return Data::Broken;
        };
        match doc.missing.get(b) {
            None => return Data::Broken,
            Some(Some(_)) => return Data::Unavailable(b),
            Some(None) => {}
        }
    }
    Data::Stored
}

/// The decoded data of accessor `i`, when it is stored and decodes.
pub(super) fn decoded(doc: &Doc<'_>, i: usize, a: &Map<String, Value>) -> Option<Decoded> {
    if data_of(doc, a) != Data::Stored {
        return None;
    }
    decode(doc.json?, doc.buffers, u32::try_from(i).ok()?, "").ok()
}

/// Records that accessor `i` holds zeros by definition, and says whether its data can be
/// checked (it is stored and loadable).
pub(super) fn note_data(
    doc: &Doc<'_>,
    i: usize,
    a: &Map<String, Value>,
    out: &mut Checked,
) -> Data {
    let data = data_of(doc, a);
    if data == Data::Zeros {
        out.unstored.insert(i);
    }
    data
}

/// The `gltf-accessor-bounds` finding of accessor `i` whose data is `data`, if its declared
/// `min`/`max` do not match the data.
pub(super) fn bounds(i: usize, a: &Map<String, Value>, data: &Decoded) -> Option<String> {
    let n = data.components;
    if data.count == 0 || n == 0 {
        return None;
    }
    let mut lo = vec![f64::INFINITY; n];
    let mut hi = vec![f64::NEG_INFINITY; n];
    for element in data.values.chunks_exact(n) {
        for (c, &v) in element.iter().enumerate() {
            lo[c] = lo[c].min(v as f64);
            hi[c] = hi[c].max(v as f64);
        }
    }
    for (name, actual) in [("min", &lo), ("max", &hi)] {
        let Some(Value::Array(declared)) = a.get(name) else {
            continue;
        };
        let wrong = declared.len() != n
            || declared.iter().zip(actual.iter()).any(|(d, &a)| {
                d.as_f64()
                    .is_none_or(|d| (d - a).abs() > 1e-6 + 1e-5 * a.abs().max(d.abs()))
            });
        if wrong {
            let actual: Vec<String> = actual.iter().map(|v| (*v as f32).to_string()).collect();
            return Some(format!(
                "/accessors/{i}/{name}: {} but the data's {name} is [{}]",
                Value::Array(declared.clone()),
                actual.join(", ")
            ));
        }
    }
    None
}
