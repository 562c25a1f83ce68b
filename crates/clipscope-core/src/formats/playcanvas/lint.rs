//! PlayCanvas lint rules that need the raw file, run by `validate` after the strict read.
//!
//! A channel a node lists in `defaults` is constant: the engine uses the default for every key
//! and ignores per-key values. A channel absent from `defaults` must be on every key, or the
//! engine's parser throws (the read reports that as `parse`). What is left to warn about is
//! the node whose keys carry a channel that `defaults` overrides
//! (`playcanvas-ignored-channel`): the animator's keys silently do nothing.
//!
//! Shapes the reader accepted because the engine's parser reads them leniently (a version
//! written as text, a value with other than 3 numbers) are noted (`playcanvas-lenient-shape`).

use serde_json::Value;

use crate::formats::Document;
use crate::model::Problem;

/// `playcanvas-lenient-shape` findings: what the reader of `doc` accepted (see
/// [`Document::accepted`]).
pub(crate) fn lenient(doc: &Document) -> Vec<Problem> {
    doc.accepted
        .iter()
        .map(|a| Problem::warning("playcanvas-lenient-shape", a.describe()).in_clip(0))
        .collect()
}

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

    #[test]
    fn lenient_shapes_are_read_as_the_engine_reads_them_and_noted() {
        let text = r#"{"animation":{"version":"4","name":"a","duration":1,"nodes":[
            {"name":"n","defaults":{"s":[2,2]},
             "keys":[{"t":0,"p":[1,2,3,9],"r":[0,90,0,5]},{"t":1,"p":[1],"r":[0,0,0]}]}]}}"#;
        let path = std::path::Path::new("a.json");
        let doc = crate::formats::read_bytes(text.as_bytes(), path).unwrap();
        let track = |name: &str| {
            let t = doc.clips[0].tracks.iter().find(|t| t.name == name).unwrap();
            t.values.as_numbers().unwrap().to_vec()
        };
        assert_eq!(track("n.position"), [1.0, 2.0, 3.0, 1.0, 0.0, 0.0]);
        assert_eq!(track("n.scale"), [2.0, 2.0, 0.0, 2.0, 2.0, 0.0]);
        let found: Vec<String> = lenient(&doc).into_iter().map(|p| p.message).collect();
        assert_eq!(
            found,
            [
                "animation.version: the version written as text; the engine's loader picks its \
                 parser by `_parseAnimationV${version}`, the same as for the number",
                "animation.nodes[0].defaults.s: 2 numbers where 3 are expected; the engine's Vec3 \
                 takes each missing one as 0",
                "animation.nodes[0].keys[0].p: 4 numbers where 3 are expected; the engine's parser \
                 reads the first 3 and ignores the rest",
                "animation.nodes[0].keys[0].r: 4 numbers where 3 are expected; the engine's parser \
                 reads the first 3 and ignores the rest",
                "animation.nodes[0].keys[1].p: 1 number where 3 are expected; the engine's Vec3 \
                 takes each missing one as 0",
            ]
        );
        // A rotation short of an angle stays an error (the engine's quaternion would be NaN).
        let short = text.replace("[0,0,0]}", "[0,0]}");
        let e = crate::formats::read_bytes(short.as_bytes(), path).unwrap_err();
        assert!(e.to_string().contains("keys[1].r"), "{e}");
    }
}
