//! Where indices into a glTF file's buffer views sit, and rewriting them: what both the
//! write-back (which drops and packs views) and the packer (which merges them) renumber.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

/// Every place a buffer view index may sit: accessors (and their sparse parts) and images.
pub(crate) fn view_slots(root: &mut Map<String, Value>, mut f: impl FnMut(&mut Value)) {
    if let Some(Value::Array(accessors)) = root.get_mut("accessors") {
        for a in accessors {
            for p in [
                "/bufferView",
                "/sparse/indices/bufferView",
                "/sparse/values/bufferView",
            ] {
                if let Some(v) = a.pointer_mut(p) {
                    f(v);
                }
            }
        }
    }
    if let Some(Value::Array(images)) = root.get_mut("images") {
        for i in images {
            if let Some(v) = i.get_mut("bufferView") {
                f(v);
            }
        }
    }
}

/// Rewrites index `v` through `map` (left alone when it is not a known index).
pub(crate) fn remap(v: &mut Value, map: &HashMap<u64, u64>) {
    if let Some(new) = v.as_u64().and_then(|i| map.get(&i)) {
        *v = json!(new);
    }
}
