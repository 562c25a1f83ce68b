//! Per-object clips of io_three's object format 4.3 (the Blender exporter of three.js r7x):
//!
//! ```json
//! "object": {"type": "Scene", "children": [{"name": "Cube", "type": "Mesh", …,
//!     "clips": [{"name": "CubeAction", "fps": 24, "tracks": [
//!         {"name": "position", "type": "vector3", "keys": [{"time": 0, "value": [0, 0, 0]}, …]},
//!         {"name": "quaternion", "type": "quaternion", "keys": […]},
//!         {"name": "scale", "type": "vector3", "keys": […]}]}]}]}
//! ```
//!
//! This module knows where those clips sit in the tree and what their tracks aim at; reading
//! them is the reader's (`read::object_clips`). Each clip is read exactly like a clip object of
//! `AnimationClip.parse` (the same reader: times
//! in frames at `fps`, `keys` flattened like `AnimationUtils.flattenJSON`), and its tracks are
//! aimed at the object that holds it: a track named `position` becomes `<object>.position`, the
//! object's name sanitized like three.js's `PropertyBinding.sanitizeNodeName` (its `uuid` when
//! it has no name). Clips come in tree order, depth first.
//!
//! Read only from an object file without a top-level `animations` array, like the
//! geometry-level clips of the same format version ([`geometry_clips`](super::geometry_clips));
//! beside a top-level `animations` array (which is what three.js reads) and in any shape other
//! than an array of clip objects they are not read, and the document lists them as
//! [`unread`](crate::formats::Document::unread).
//!
//! Writing back: an unedited document writes the file's fields verbatim; edited clips go to a
//! top-level `animations` array like any object file, and [`strip`] removes the per-object
//! clips so they are not read twice.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::formats::document::Unread;
use crate::formats::json::path::{field, index};
use crate::formats::json::{JsonKind, RawFields, Shaped};
use crate::model::binding::sanitize_node_name;

/// An object of the tree that has `clips`.
pub(crate) struct Holder<'a> {
    /// Its JSON path (`object.children[0]`).
    pub(crate) path: String,
    /// Its name for tracks: its name (else its uuid), sanitized.
    pub(crate) name: String,
    /// Its `clips` value.
    pub(crate) clips: &'a RawValue,
}

/// The string in `raw`, if it holds one.
fn text(raw: &RawValue) -> Option<String> {
    serde_json::from_str(raw.get()).ok()
}

/// The elements of `raw`, if it is an array.
pub(crate) fn elements(raw: &RawValue) -> Option<Vec<&RawValue>> {
    if JsonKind::of(raw) != JsonKind::Array {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// Every object of the tree `object` (at path `object`) that has `clips`, depth first.
pub(crate) fn holders(object: &RawValue) -> Vec<Holder<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![("object".to_string(), object)];
    while let Some((path, node)) = stack.pop() {
        let Ok(Shaped::Ok(fields)) = serde_json::from_str::<Shaped<RawFields>>(node.get()) else {
            continue;
        };
        if let Some(clips) = fields.get("clips") {
            let name = fields
                .get("name")
                .and_then(text)
                .filter(|n| !n.is_empty())
                .or_else(|| fields.get("uuid").and_then(text))
                .map(|n| sanitize_node_name(&n))
                .unwrap_or_default();
            out.push(Holder {
                path: path.clone(),
                name,
                clips,
            });
        }
        let children = fields
            .get("children")
            .and_then(elements)
            .unwrap_or_default();
        for (i, child) in children.into_iter().enumerate().rev() {
            stack.push((index(&field(&path, "children"), i), child));
        }
    }
    out
}

/// `name` as a track of object `object`: `position` → `object.position`; a name that already
/// names a node is kept.
pub(crate) fn on_object(object: &str, name: &str) -> String {
    if name.starts_with('.') {
        format!("{object}{name}")
    } else if name.contains('.') || name.contains('[') {
        name.to_string()
    } else {
        format!("{object}.{name}")
    }
}

/// The per-object clips beside a top-level `animations` array: not read (three.js reads only
/// the top-level clips), listed for the document.
pub(crate) fn beside_animations(object: Option<&RawValue>) -> Vec<Unread> {
    let Some(object) = object else {
        return Vec::new();
    };
    holders(object)
        .into_iter()
        .map(|holder| {
            Unread::new(
                field(&holder.path, "clips"),
                "per-object clips beside the top-level animations (three.js reads only those)",
            )
        })
        .collect()
}

/// `object` without the per-object `clips` (for writing edited clips to a top-level
/// `animations` array instead); `None` when there is nothing to remove.
pub(crate) fn strip(object: &RawValue) -> Option<Box<RawValue>> {
    let mut value: Value = serde_json::from_str(object.get()).ok()?;
    let mut removed = false;
    let mut stack = vec![&mut value];
    while let Some(node) = stack.pop() {
        let Some(obj) = node.as_object_mut() else {
            continue;
        };
        if obj.get("clips").is_some_and(Value::is_array) {
            obj.shift_remove("clips");
            removed = true;
        }
        if let Some(Value::Array(children)) = obj.get_mut("children") {
            stack.extend(children.iter_mut());
        }
    }
    if !removed {
        return None;
    }
    RawValue::from_string(serde_json::to_string(&value).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    const TREE: &str = r#"{"type":"Scene","children":[
        {"name":"Cube Main","type":"Mesh","clips":[{"name":"Spin","fps":10,"tracks":[
            {"name":"position","type":"vector3","keys":[{"time":0,"value":[0,0,0]},{"time":10,"value":[1,2,3]}]},
            {"name":"quaternion","type":"quaternion","keys":[{"time":0,"value":[0,0,0,1]},{"time":5,"value":[0,0,1,0]}]}]}],
         "children":[{"uuid":"U-1","clips":[{"name":"Grow","tracks":[
            {"name":"scale","type":"vector3","keys":[{"time":0,"value":[1,1,1]},{"time":2,"value":[2,2,2]}]}]}]}]}]}"#;

    #[test]
    fn strip_removes_the_clips_and_clips_beside_animations_are_listed() {
        let stripped = strip(&raw(TREE)).unwrap();
        assert!(!stripped.get().contains("clips"));
        assert!(stripped.get().contains("Cube Main"));
        assert!(strip(&raw(r#"{"children":[]}"#)).is_none());
        assert_eq!(beside_animations(Some(&raw(TREE))).len(), 2);
    }
}
