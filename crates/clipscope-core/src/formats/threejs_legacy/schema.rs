//! A serde schema mirroring legacy three.js JSON (model format 3) as written, borrowed from the
//! input text.
//!
//! The file is one object. [`FileJson`] keeps its top-level fields raw and in order and names the
//! parts the readers use: `bones` ([`BoneJson`]), `animation` / `animations` ([`AnimationJson`],
//! whose `hierarchy` entries are [`EntryJson`]s holding [`KeyJson`]s) and the model arrays
//! ([`ModelJson`], shared with three.js object files through
//! [`legacy_geometry`](crate::formats::legacy_geometry)). Every leaf stays a [`Node`] (raw JSON
//! text plus its JSON path), decoded only when a reader asks, so each error names the exact place
//! (`animation.hierarchy[3].keys[7].rot`).
//!
//! [`detect`] decides whether a file is in this format by looking at as little of it as it can.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::formats::json::detect::{TopScan, Verdict, decided, detect_with};
use crate::formats::json::{JsonKind, Key, RawFields, Shaped};

pub(crate) use crate::formats::json::{Located, Node, Obj};
pub(crate) use crate::formats::legacy_geometry::{ModelJson, Numbers};

/// The whole file: a top-level object.
#[derive(Debug)]
pub(crate) struct FileJson<'de> {
    /// The top-level fields.
    pub top: Obj<'de>,
}

/// Where a file's animations were and in which shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnimationsShape {
    /// No `animation` or `animations` field.
    None,
    /// `"animation": {…}`, one animation object.
    Single,
    /// `"animations": [{…}, …]`.
    Array,
    /// `"animations": {…}`, one animation object under the plural name.
    Object,
}

impl<'de> FileJson<'de> {
    /// Parses `bytes` (one JSON value). `Ok(Err(kind))` when it is not an object.
    pub(crate) fn parse(
        bytes: &'de [u8],
    ) -> Result<Result<FileJson<'de>, JsonKind>, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let shaped: Shaped<RawFields<'de>> = serde::Deserialize::deserialize(&mut de)?;
        de.end()?;
        Ok(match shaped {
            Shaped::Ok(fields) => Ok(FileJson {
                top: Obj {
                    fields,
                    path: String::new(),
                    raw: None,
                },
            }),
            Shaped::Wrong(kind) => Err(kind),
        })
    }

    /// The `bones` array, if the file has one.
    pub(crate) fn bones(&self) -> Result<Option<Vec<BoneJson<'de>>>, Located> {
        let Some(bones) = self.top.get_some("bones") else {
            return Ok(None);
        };
        let list = bones.array("an array of bones")?;
        list.iter()
            .map(|b| {
                let obj = b.object()?;
                Ok(BoneJson {
                    path: b.path.clone(),
                    parent: obj.get("parent"),
                    name: obj.get("name"),
                    pos: obj.get_some("pos"),
                    rotq: obj.get_some("rotq"),
                    scl: obj.get_some("scl"),
                })
            })
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// The animations in the order three.js's legacy loader takes them (`animation` first, then
    /// `animations`), and the shape they were in.
    pub(crate) fn animations(&self) -> Result<(Vec<AnimationJson<'de>>, AnimationsShape), Located> {
        let mut nodes = Vec::new();
        let mut shape = AnimationsShape::None;
        if let Some(single) = self.top.get_some("animation") {
            nodes.push(single);
            shape = AnimationsShape::Single;
        }
        if let Some(plural) = self.top.get_some("animations") {
            if plural.kind() == JsonKind::Array {
                nodes.extend(plural.array("an array of animations")?);
                shape = AnimationsShape::Array;
            } else {
                nodes.push(plural);
                shape = if shape == AnimationsShape::None {
                    AnimationsShape::Object
                } else {
                    AnimationsShape::Array
                };
            }
        }
        let animations = nodes
            .into_iter()
            .map(AnimationJson::from_node)
            .collect::<Result<_, _>>()?;
        Ok((animations, shape))
    }

    /// The model arrays (vertices, faces, …).
    pub(crate) fn model(&self) -> ModelJson<'de> {
        ModelJson::of(&self.top)
    }
}

/// One entry of `bones`: `{parent, name, pos, rotq, scl}`.
#[derive(Debug)]
pub(crate) struct BoneJson<'de> {
    /// JSON path of the bone (`bones[1]`).
    pub path: String,
    /// Index of the parent bone, -1 for a root.
    pub parent: Option<Node<'de>>,
    /// The bone's name.
    pub name: Option<Node<'de>>,
    /// Rest position `[x, y, z]`.
    pub pos: Option<Node<'de>>,
    /// Rest rotation, a quaternion `[x, y, z, w]`.
    pub rotq: Option<Node<'de>>,
    /// Rest scale `[x, y, z]`.
    pub scl: Option<Node<'de>>,
}

/// One animation: `{name, fps, length, hierarchy, [blendMode]}` plus whatever else it holds.
#[derive(Debug)]
pub(crate) struct AnimationJson<'de> {
    /// The whole animation as written (kept verbatim when it gives no clip).
    pub node: Node<'de>,
    /// Its fields.
    pub obj: Obj<'de>,
}

impl<'de> AnimationJson<'de> {
    /// The animation at `node`, which must be an object.
    fn from_node(node: Node<'de>) -> Result<AnimationJson<'de>, Located> {
        if node.kind() != JsonKind::Object {
            return Err(node.wrong("an animation object"));
        }
        let obj = node.object()?;
        Ok(AnimationJson { node, obj })
    }

    /// The `hierarchy` entries (none when it is missing or `null`, like `hierarchy || []`).
    pub(crate) fn hierarchy(&self) -> Result<Vec<EntryJson<'de>>, Located> {
        let Some(h) = self.obj.get_some("hierarchy") else {
            return Ok(Vec::new());
        };
        h.array("an array of hierarchy entries")?
            .into_iter()
            .map(|e| {
                let obj = e.object()?;
                Ok(EntryJson {
                    path: e.path,
                    keys: obj.get_some("keys"),
                })
            })
            .collect()
    }
}

/// One `hierarchy` entry: `{parent, keys}`; entry `h` animates bone `h`.
#[derive(Debug)]
pub(crate) struct EntryJson<'de> {
    /// JSON path of the entry (`animations[0].hierarchy[1]`).
    pub path: String,
    /// The `keys` array, if any.
    pub keys: Option<Node<'de>>,
}

/// One key of a hierarchy entry: `{time, pos, rot, scl}`, or in the serialized shape one key
/// whose fields are flat arrays over all times.
#[derive(Debug)]
pub(crate) struct KeyJson<'de> {
    /// JSON path of the key.
    pub path: String,
    /// The key's fields.
    pub obj: Obj<'de>,
}

impl<'de> EntryJson<'de> {
    /// The keys (`keys` must be an array of objects).
    pub(crate) fn keys(&self) -> Result<Vec<KeyJson<'de>>, Located> {
        let Some(keys) = &self.keys else {
            return Ok(Vec::new());
        };
        keys.array("an array of keys")?
            .into_iter()
            .map(|k| {
                if k.kind() != JsonKind::Object {
                    return Err(k.wrong("a key object"));
                }
                Ok(KeyJson {
                    obj: k.object()?,
                    path: k.path,
                })
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Detection

/// Whether `bytes` is a legacy three.js JSON file: a top-level object whose `metadata` has a
/// `formatVersion` of 3.x, or whose first animation under `animation` / `animations` that has
/// either has a `hierarchy` rather than `tracks`, or that has `bones` or both `morphTargets` and
/// `faces` (and no top-level `tracks`). An ObjectLoader file (`metadata.type` "Object"), a clip
/// with `tracks`, an array and text that breaks off before anything decided are not.
///
/// The scan stops as soon as a field decides (usually `metadata`, or a clip's `tracks` long
/// before its numbers), so big three.js files cost next to nothing to rule out.
pub(crate) fn detect(bytes: &[u8]) -> bool {
    detect_with(bytes, LegacyTop)
}

/// The top-level fields that decide (see [`detect`]).
struct LegacyTop;

impl TopScan for LegacyTop {
    fn visit_fields<'de, A: MapAccess<'de>>(
        &self,
        mut map: A,
        verdict: &Verdict,
    ) -> Result<(), A::Error> {
        let (mut bones, mut morph_targets, mut faces) = (false, false, false);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "metadata" => {
                    let raw: &'de RawValue = map.next_value()?;
                    if let Some(legacy) = metadata_verdict(raw) {
                        return Err(decided(verdict, legacy));
                    }
                }
                "tracks" => return Err(decided(verdict, false)),
                "animation" | "animations" => map.next_value_seed(AnimationsSeed { verdict })?,
                "bones" => {
                    bones = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "morphTargets" => {
                    morph_targets = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "faces" => {
                    faces = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        verdict.set(Some(bones || (morph_targets && faces)));
        Ok(())
    }
}

/// `Some(true)` for `formatVersion` 3.x, `Some(false)` for an ObjectLoader file
/// (`type: "Object"`), `None` when `metadata` does not tell.
fn metadata_verdict(raw: &RawValue) -> Option<bool> {
    let Ok(Shaped::Ok(fields)) = serde_json::from_str::<Shaped<RawFields>>(raw.get()) else {
        return None;
    };
    if let Some(v) = fields.get("formatVersion")
        && let Ok(v) = serde_json::from_str::<f64>(v.get())
        && (3.0..4.0).contains(&v)
    {
        return Some(true);
    }
    if let Some(t) = fields.get("type")
        && let Ok(t) = serde_json::from_str::<String>(t.get())
        && t.eq_ignore_ascii_case("object")
    {
        return Some(false);
    }
    None
}

/// Visits `animation` / `animations`: an animation object, or an array of them looked at until
/// one has `hierarchy` (legacy) or `tracks` (not).
struct AnimationsSeed<'a> {
    /// Where the decision goes.
    verdict: &'a Cell<Option<bool>>,
}

impl<'de> DeserializeSeed<'de> for AnimationsSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AnimationsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("animations")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // The first animation object decides; anything undecided skips the rest.
        while let Some(()) = seq.next_element_seed(AnimationsSeed {
            verdict: self.verdict,
        })? {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "hierarchy" => return Err(decided(self.verdict, true)),
                "tracks" => return Err(decided(self.verdict, false)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn detection_by_content() {
        let legacy = [
            r#"{"metadata":{"formatVersion":3.1},"vertices":[]}"#,
            "\u{feff}{\"metadata\":{\"formatVersion\":3}}",
            r#"{"animation":{"name":"a","fps":24,"hierarchy":[]}}"#,
            r#"{"animations":[{"name":"a","hierarchy":[]},{"tracks":[]}]}"#,
            r#"{"bones":[],"x":1}"#,
            r#"{"faces":[],"morphTargets":[]}"#,
            // Decided before the text breaks off: the legacy reader reports the truncation.
            r#"{"animations":[{"hierarchy""#,
        ];
        for text in legacy {
            assert!(detect(text.as_bytes()), "{text}");
        }
        let other = [
            r#"{"name":"c","duration":1,"tracks":[],"bones":[]}"#,
            r#"[{"hierarchy":[]}]"#,
            r#"{"metadata":{"version":4.5,"type":"Object"},"animations":[{"hierarchy":[]}]}"#,
            r#"{"object":{},"animations":[{"name":"a","tracks":[]},{"hierarchy":[]}]}"#,
            r#"{"faces":[]}"#,
            r#"{"metadata":{"formatVersion":4}}"#,
            "",
            "42",
        ];
        for text in other {
            assert!(!detect(text.as_bytes()), "{text}");
        }
    }
}
