//! The parts of a glTF JSON document clipscope reads, with the `gltf-json` types.
//!
//! [`GltfJson`] holds only the arrays animation needs (accessors, buffer views, buffers,
//! animations, nodes, meshes, skins); the rest of the file is never deserialized into
//! types, so a material or texture clipscope does not use cannot stop a read. The whole text is
//! also parsed into a `serde_json::Value` (key order preserved) for writing back. Animations use
//! clipscope's own small structs, because `gltf-json` requires `target.node`, which
//! `KHR_animation_pointer` channels leave out.
//!
//! Errors carry the JSON path: syntax errors through
//! [`syntax_error`], type errors (a string where an
//! index belongs) through the position `serde_json` reports.

use std::cell::Cell;
use std::fmt;

use gltf_json::{Accessor, Asset, Buffer, Mesh, Node, buffer::View};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::formats::json::Key;
use crate::formats::json::Located;
use crate::formats::json::path::{offset_of, path_at, syntax_error};

/// The top-level keys glTF 2.0 defines.
const TOP_LEVEL_KEYS: [&str; 19] = [
    "asset",
    "extensionsUsed",
    "extensionsRequired",
    "accessors",
    "animations",
    "buffers",
    "bufferViews",
    "cameras",
    "images",
    "materials",
    "meshes",
    "nodes",
    "samplers",
    "scene",
    "scenes",
    "skins",
    "textures",
    "extensions",
    "extras",
];

/// Top-level keys only glTF uses (three.js ObjectLoader files share `animations`, `images`,
/// `materials`, `textures`): seeing one decides for glTF even before `asset`.
const GLTF_ONLY_KEYS: [&str; 10] = [
    "extensionsUsed",
    "extensionsRequired",
    "accessors",
    "buffers",
    "bufferViews",
    "meshes",
    "nodes",
    "scene",
    "scenes",
    "skins",
];

/// The glTF arrays clipscope reads (everything else stays in the `Value`).
#[derive(Debug, Deserialize)]
pub(crate) struct GltfJson {
    /// `asset`: version and generator.
    pub asset: Asset,
    /// `accessors`.
    #[serde(default)]
    pub accessors: Vec<Accessor>,
    /// `animations`.
    #[serde(default)]
    pub animations: Vec<AnimationJson>,
    /// `buffers`.
    #[serde(default)]
    pub buffers: Vec<Buffer>,
    /// `bufferViews`.
    #[serde(default, rename = "bufferViews")]
    pub buffer_views: Vec<View>,
    /// `meshes`.
    #[serde(default)]
    pub meshes: Vec<Mesh>,
    /// `nodes`.
    #[serde(default)]
    pub nodes: Vec<Node>,
    /// `skins`.
    #[serde(default)]
    pub skins: Vec<SkinJson>,
}

/// One `animations[i]` entry.
#[derive(Debug, Deserialize)]
pub(crate) struct AnimationJson {
    /// The animation's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its channels.
    #[serde(default)]
    pub channels: Vec<ChannelJson>,
    /// Its samplers.
    #[serde(default)]
    pub samplers: Vec<SamplerJson>,
}

/// One channel: a sampler aimed at a node property.
#[derive(Debug, Deserialize)]
pub(crate) struct ChannelJson {
    /// Index into the animation's samplers (required).
    #[serde(default)]
    pub sampler: Option<u32>,
    /// What it animates (required).
    #[serde(default)]
    pub target: Option<TargetJson>,
}

impl ChannelJson {
    /// The target's node, when the channel has a target with a node.
    pub(crate) fn node(&self) -> Option<u32> {
        self.target.as_ref()?.node
    }

    /// The target's path, when the channel has a target with a path.
    pub(crate) fn path(&self) -> Option<&str> {
        self.target.as_ref()?.path.as_deref()
    }
}

/// A channel's target.
#[derive(Debug, Deserialize)]
pub(crate) struct TargetJson {
    /// The node (absent for `KHR_animation_pointer` targets).
    #[serde(default)]
    pub node: Option<u32>,
    /// `translation`, `rotation`, `scale`, `weights` (or `pointer`); required.
    #[serde(default)]
    pub path: Option<String>,
}

/// One sampler: key times, key values and how to interpolate.
#[derive(Debug, Deserialize)]
pub(crate) struct SamplerJson {
    /// The accessor of the key times (required).
    #[serde(default)]
    pub input: Option<u32>,
    /// `LINEAR` (the default), `STEP` or `CUBICSPLINE`.
    #[serde(default)]
    pub interpolation: Option<String>,
    /// The accessor of the key values (required).
    #[serde(default)]
    pub output: Option<u32>,
}

/// One skin: the joints a skinned mesh follows.
#[derive(Debug, Deserialize)]
pub(crate) struct SkinJson {
    /// The joint nodes (required).
    #[serde(default)]
    pub joints: Option<Vec<u32>>,
}

/// `mesh.extras` as glTF exporters (Blender, three.js) write morph target names.
#[derive(Debug, Deserialize)]
struct MeshExtras {
    /// One name per morph target.
    #[serde(rename = "targetNames")]
    target_names: Vec<String>,
}

/// The label of each of `mesh`'s morph targets (as many as its primitive with the most): the
/// names in `extras.targetNames` when there is a non-empty one for each, else their indices, as
/// three.js's GLTFLoader names `morphTargetDictionary` entries.
pub(crate) fn target_labels(mesh: &Mesh) -> Vec<String> {
    let count = mesh
        .primitives
        .iter()
        .map(|p| p.targets.as_ref().map_or(0, Vec::len))
        .max()
        .unwrap_or(0);
    target_names(mesh)
        .filter(|n| n.len() == count && n.iter().all(|s| !s.is_empty()))
        .unwrap_or_else(|| (0..count).map(|j| j.to_string()).collect())
}

/// The morph target names in `mesh.extras.targetNames`, when present and well formed.
pub(crate) fn target_names(mesh: &Mesh) -> Option<Vec<String>> {
    let raw = mesh.extras.as_ref()?;
    serde_json::from_str::<MeshExtras>(raw.get())
        .ok()
        .map(|e| e.target_names)
}

/// A parsed document: the typed parts and the whole JSON object.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The typed parts.
    pub json: GltfJson,
    /// Every top-level field, as written.
    pub root: Map<String, Value>,
}

/// Parses glTF JSON `text`, or says where and why it cannot.
pub(crate) fn parse(text: &[u8]) -> Result<Parsed, Located> {
    let root = parse_root(text)?;
    let json = parse_typed(text)?;
    Ok(Parsed { json, root })
}

/// The top-level object of glTF JSON `text` (syntax errors and a top level that is not an
/// object are failures).
pub(crate) fn parse_root(text: &[u8]) -> Result<Map<String, Value>, Located> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Err(Located::syntax("", "the glTF JSON is empty"));
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => {
            let kind = match other {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                Value::Array(_) => "an array",
                Value::Object(_) => "an object",
            };
            Err(Located::new(
                "",
                format!("expected a glTF object, found {kind}"),
            ))
        }
        Err(e) => {
            let (path, reason) = syntax_error(text, &e);
            Err(Located::syntax(path, reason))
        }
    }
}

/// The typed parts of glTF JSON `text` (known to be a JSON object), with the asset version
/// checked.
pub(crate) fn parse_typed(text: &[u8]) -> Result<GltfJson, Located> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let json = serde_json::from_slice::<GltfJson>(text).map_err(|e| {
        let (path, reason) = data_error(text, &e);
        Located::new(path, reason)
    })?;
    let version = json.asset.version.trim();
    if !version.starts_with("2.") && version != "2" {
        return Err(Located::unsupported(
            "asset.version",
            format!("glTF version {version:?} is not supported (only 2.x)"),
        ));
    }
    Ok(json)
}

/// The path and reason of a type error in otherwise valid JSON: the path of the value being
/// read where `serde_json` stopped (for a missing field, the object that lacks it).
fn data_error(text: &[u8], e: &serde_json::Error) -> (String, String) {
    let offset = offset_of(text, e.line(), e.column());
    let message = e.to_string();
    // Drop serde_json's " at line L column C": the path says where.
    let reason = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    let path = if reason.starts_with("missing field") {
        // The error points just past the object's closing brace.
        path_at(text, offset + 1)
    } else {
        path_at(text, offset)
    };
    (path, reason)
}

/// Whether `bytes` start like glTF JSON: an object whose keys are glTF top-level keys and
/// include `asset`, or (for a file that breaks off, or lacks `asset`) at least one key only
/// glTF uses. The scan stops at `asset` or at the first key glTF does not define.
pub(crate) fn looks_like_gltf_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return false;
    }
    let verdict = Cell::new(None);
    let specific = Cell::new(false);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = TopSeed {
        verdict: &verdict,
        specific: &specific,
    }
    .deserialize(&mut de);
    verdict.get().unwrap_or(specific.get())
}

/// Visits the top-level object for [`looks_like_gltf_json`].
struct TopSeed<'a> {
    /// Where the decision goes.
    verdict: &'a Cell<Option<bool>>,
    /// Whether a key only glTF uses was seen.
    specific: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.verdict.set(Some(false));
        Err(de::Error::custom("decided"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if key.0 == "asset" {
                self.verdict.set(Some(true));
                return Err(de::Error::custom("decided"));
            }
            if !TOP_LEVEL_KEYS.contains(&&*key.0) {
                self.verdict.set(Some(false));
                return Err(de::Error::custom("decided"));
            }
            if GLTF_ONLY_KEYS.contains(&&*key.0) {
                self.specific.set(true);
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::ReadErrorKind;

    use super::*;

    #[test]
    fn detection() {
        for text in [
            r#"{"asset":{"version":"2.0"}}"#,
            "\u{feff} {\"accessors\":[],\"asset\":{}}",
            r#"{"asset":{"version":"2.0"},"buffers":[{"#,
            r#"{"scene":0,"nodes":[{"name":"#,
            r#"{"nodes":[]}"#,
        ] {
            assert!(looks_like_gltf_json(text.as_bytes()), "{text}");
        }
        for text in [
            r#"{"name":"c","tracks":[]}"#,
            r#"{"metadata":{},"asset":{}}"#,
            r#"{"animations":[]}"#,
            r#"{"animations":[],"materials":[{"#,
            r#"[{"asset":{}}]"#,
            "",
            "glTF",
        ] {
            assert!(!looks_like_gltf_json(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn errors_name_the_path() {
        let err = |t: &str| {
            let e = parse(t.as_bytes()).unwrap_err();
            (e.path, e.reason)
        };
        assert_eq!(err("[1]").1, "expected a glTF object, found an array");
        let (path, reason) = err(r#"{"asset":{"version":"2.0"},"accessors":[{"count":"#);
        assert_eq!(path, "accessors[0].count");
        assert!(reason.starts_with("truncated JSON"), "{reason}");
        let (path, reason) = err(
            r#"{"asset":{"version":"2.0"},"animations":[{"channels":[{"sampler":"x","target":{"path":"rotation"}}]}]}"#,
        );
        assert_eq!(path, "animations[0].channels[0].sampler");
        assert!(reason.contains("expected u32"), "{reason}");
        let (path, reason) = err(r#"{"asset":{"version":"2.0"},"accessors":[{"count":1}]}"#);
        assert_eq!(path, "accessors[0]");
        assert!(reason.starts_with("missing field"), "{reason}");
        let (path, reason) = err(r#"{"asset":{"version":"1.0"}}"#);
        assert_eq!(path, "asset.version");
        assert!(reason.contains("not supported"), "{reason}");
        assert_eq!(err(r#"{"accessors":[]}"#).1, "missing field `asset`");
        let kind = |t: &str| parse(t.as_bytes()).unwrap_err().kind;
        assert_eq!(kind(r#"{"asset":"#), ReadErrorKind::Syntax);
        assert_eq!(kind("[1]"), ReadErrorKind::Schema);
        assert_eq!(
            kind(r#"{"asset":{"version":"1.0"}}"#),
            ReadErrorKind::Unsupported
        );
    }
}
