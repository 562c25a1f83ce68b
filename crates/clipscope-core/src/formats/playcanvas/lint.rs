//! PlayCanvas lint rules that need the raw file, run by `validate` after the strict read.
//!
//! A channel a node lists in `defaults` is constant: the engine uses the default for every key
//! and ignores per-key values. A channel absent from `defaults` must be on every key, or the
//! engine's parser throws (the read reports that as `parse`). What is left to warn about is
//! the node whose keys carry a channel that `defaults` overrides
//! (`playcanvas-ignored-channel`): the animator's keys silently do nothing.

use serde_json::Value;

use crate::model::Problem;

/// The raw-file findings of the PlayCanvas text `bytes`.
pub(crate) fn lint(bytes: &[u8]) -> Vec<Problem> {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let Some(nodes) = root.pointer("/animation/nodes").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        let Some(defaults) = node.get("defaults").and_then(Value::as_object) else {
            continue;
        };
        let keys = node.get("keys").and_then(Value::as_array);
        for channel in ["p", "r", "s"] {
            if defaults.get(channel).is_none_or(Value::is_null) {
                continue;
            }
            let keyed = keys.and_then(|keys| {
                keys.iter()
                    .position(|k| k.get(channel).is_some_and(|v| !v.is_null()))
            });
            if let Some(k) = keyed {
                let name = node.get("name").and_then(Value::as_str).unwrap_or("");
                out.push(
                    Problem::warning(
                        "playcanvas-ignored-channel",
                        format!(
                            "animation.nodes[{n}].keys[{k}].{channel}: node \"{name}\" has a default for `{channel}`, so the engine ignores its per-key values"
                        ),
                    )
                    .in_clip(0),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_channels_with_defaults_warn() {
        let bad = r#"{"animation":{"nodes":[{"name":"a","defaults":{"s":[1,1,1]},
            "keys":[{"t":0,"p":[0,0,0],"s":[2,2,2]}]}]}}"#;
        let p = lint(bad.as_bytes());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].code, "playcanvas-ignored-channel");
        assert!(p[0].message.starts_with("animation.nodes[0].keys[0].s"));
        let good = r#"{"animation":{"nodes":[{"name":"a","defaults":{"s":[1,1,1]},
            "keys":[{"t":0,"p":[0,0,0]}]}]}}"#;
        assert!(lint(good.as_bytes()).is_empty());
    }
}
