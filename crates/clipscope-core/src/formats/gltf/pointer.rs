//! `KHR_animation_pointer`: channels whose target is a JSON pointer into the glTF document
//! (`/nodes/0/translation`, `/materials/2/pbrMetallicRoughness/baseColorFactor`) instead of a
//! node and a path.
//!
//! A pointer to a node's `translation`, `rotation`, `scale` or `weights` is read as the
//! ordinary channel it is; any other pointer becomes a track named by the pointer itself, and
//! writing such a track to glTF gives a pointer channel again. The pointer must be an RFC 6901
//! JSON pointer as the extension's schema says (`^(?:\/(?:[^/~]|~0|~1)*)*$`).

use serde_json::{Map, Value};

/// The extension's name.
pub(crate) const EXTENSION: &str = "KHR_animation_pointer";

/// Whether `text` matches the extension's pointer pattern: empty, or `/`-separated reference
/// tokens in which `~` only appears as `~0` or `~1`.
pub(crate) fn is_valid(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    if !text.starts_with('/') {
        return false;
    }
    let bytes = text.as_bytes();
    (0..bytes.len()).all(|i| bytes[i] != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// The reference tokens of a valid pointer, unescaped (`~1` → `/`, `~0` → `~`).
pub(crate) fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The node and channel path a pointer names when it is one of the four a plain channel can
/// target: `/nodes/N/translation`, `rotation`, `scale` or `weights`.
pub(crate) fn node_target(pointer: &str) -> Option<(usize, &'static str)> {
    let tokens = tokens(pointer);
    let [nodes, node, property] = tokens.as_slice() else {
        return None;
    };
    if nodes != "nodes" || (node.len() > 1 && node.starts_with('0')) {
        return None;
    }
    let node = node.parse::<usize>().ok()?;
    let path = match property.as_str() {
        "translation" => "translation",
        "rotation" => "rotation",
        "scale" => "scale",
        "weights" => "weights",
        _ => return None,
    };
    Some((node, path))
}

/// The pointer of a channel target object (`target.extensions.KHR_animation_pointer.pointer`),
/// when the target carries the extension: `Some(None)` when the extension object has no
/// pointer string.
pub(crate) fn of_target(target: &Map<String, Value>) -> Option<Option<&str>> {
    let ext = target.get("extensions")?.as_object()?.get(EXTENSION)?;
    Some(ext.get("pointer").and_then(Value::as_str))
}

/// Whether a channel's target path means a pointer channel: `pointer`.
pub(crate) fn is_pointer_path(path: &str) -> bool {
    path == "pointer"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern() {
        for ok in [
            "",
            "/",
            "/nodes/0/translation",
            "/a~0b/c~1d",
            "/extensions/x/0",
        ] {
            assert!(is_valid(ok), "{ok}");
        }
        for bad in ["nodes/0", "/a~2", "/a~", "materials/0/pbrMetallicRoughness"] {
            assert!(!is_valid(bad), "{bad}");
        }
        assert_eq!(tokens("/a~1b/c~0d"), ["a/b", "c~d"]);
    }

    #[test]
    fn node_targets() {
        assert_eq!(node_target("/nodes/3/rotation"), Some((3, "rotation")));
        assert_eq!(node_target("/nodes/0/weights"), Some((0, "weights")));
        assert_eq!(node_target("/nodes/03/rotation"), None);
        assert_eq!(node_target("/nodes/0/extras/x"), None);
        assert_eq!(node_target("/materials/0/alphaCutoff"), None);
        let target: Map<String, Value> = serde_json::from_str(
            r#"{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/x"}}}"#,
        )
        .unwrap();
        assert_eq!(of_target(&target), Some(Some("/x")));
        let none: Map<String, Value> =
            serde_json::from_str(r#"{"extensions":{"KHR_animation_pointer":{}}}"#).unwrap();
        assert_eq!(of_target(&none), Some(None));
    }
}
