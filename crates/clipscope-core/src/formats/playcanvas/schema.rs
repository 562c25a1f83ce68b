//! A schema mirroring PlayCanvas animation JSON as written, borrowed from the input text.
//!
//! The file is `{"animation": {"version", "name", "duration", "nodes": [{"name", "defaults",
//! "keys": [{"t", "p", "r", "s"}]}]}}` (version 4; version 3 keys are `{"time", "pos", "rot",
//! "scale"}` and nodes have no `defaults`). Every value stays a [`Node`] (its raw JSON text plus
//! its JSON path) until the reader decodes it, so each error names the exact place
//! (`animation.nodes[0].keys[3].t`), and the raw text of numbers and unknown fields can be kept
//! for writing the file back unchanged.
//!
//! [`detect`] decides whether a file is in this format by looking at as little of it as it can.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::formats::json::detect::{TopScan, Verdict, decided, detect_with};
use crate::formats::json::{JsonKind, Key, RawFields, Shaped};

pub(crate) use crate::formats::json::{Located, Node, Obj};

/// How PlayCanvas animation JSON reads numbers: like `JSON.parse`, keys and vectors within
/// `f32` range (the engine stores them in `Float32Array`s).
pub(crate) trait Numbers {
    /// The value as a number (`f64`, like `JSON.parse`).
    fn f64(&self) -> Result<f64, Located>;
    /// The value as a number that fits an `f32` (key times, positions and scales are stored as
    /// `f32`); the number itself stays `f64`.
    fn finite_f32(&self) -> Result<f64, Located>;
    /// An array of exactly three numbers (`[x, y, z]`), each fitting an `f32`.
    fn triple(&self) -> Result<[f64; 3], Located>;
}

impl Numbers for Node<'_> {
    fn f64(&self) -> Result<f64, Located> {
        match self.kind() {
            JsonKind::Number => {
                serde_json::from_str::<f64>(self.raw.get()).map_err(|_| self.out_of_range(64))
            }
            kind => Err(Located::new(
                &self.path,
                format!("{} is not a number", kind.describe()),
            )),
        }
    }

    fn finite_f32(&self) -> Result<f64, Located> {
        let v = self.f64()?;
        if (v as f32).is_infinite() {
            return Err(self.out_of_range(32));
        }
        Ok(v)
    }

    fn triple(&self) -> Result<[f64; 3], Located> {
        let elems = self.array("an array of 3 numbers")?;
        if elems.len() != 3 {
            return Err(Located::new(
                &self.path,
                format!("expected 3 numbers, found {}", elems.len()),
            ));
        }
        Ok([
            elems[0].finite_f32()?,
            elems[1].finite_f32()?,
            elems[2].finite_f32()?,
        ])
    }
}

/// Parses `bytes` (one JSON value). `Ok(Err(kind))` when it is not an object.
pub(crate) fn parse_top(bytes: &[u8]) -> Result<Result<Obj<'_>, JsonKind>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let shaped: Shaped<RawFields<'_>> = serde::Deserialize::deserialize(&mut de)?;
    de.end()?;
    Ok(match shaped {
        Shaped::Ok(fields) => Ok(Obj {
            fields,
            path: String::new(),
            raw: None,
        }),
        Shaped::Wrong(kind) => Err(kind),
    })
}

// ---------------------------------------------------------------------------------------------
// Detection

/// Whether `bytes` is a PlayCanvas animation file: a top-level object with an `animation` field
/// that is not a legacy three.js animation (no `hierarchy` or `tracks`), or, for the error
/// message, the animation object without its envelope (top-level `nodes` and `duration`, no
/// `animation`). A top-level `tracks`, `animations`, `metadata`, `asset` or `bones` rules the
/// file out, as do arrays and text that breaks off before anything decided.
///
/// The scan stops as soon as a field decides (`animation.nodes` is usually the fourth key), so
/// big files of other formats cost next to nothing to rule out.
pub(crate) fn detect(bytes: &[u8]) -> bool {
    detect_with(bytes, PlayCanvasTop)
}

/// The top-level fields that decide (see [`detect`]).
struct PlayCanvasTop;

impl TopScan for PlayCanvasTop {
    fn visit_fields<'de, A: MapAccess<'de>>(
        &self,
        mut map: A,
        verdict: &Verdict,
    ) -> Result<(), A::Error> {
        let (mut animation, mut nodes, mut duration) = (false, false, false);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "tracks" | "animations" | "metadata" | "asset" | "bones" => {
                    return Err(decided(verdict, false));
                }
                "animation" => {
                    let seen = map.next_value_seed(AnimationSeed { verdict })?;
                    animation |= seen;
                }
                "nodes" => {
                    nodes = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "duration" => {
                    duration = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        verdict.set(Some(animation || (nodes && duration)));
        Ok(())
    }
}

/// Visits the value of `animation`: an object decides at its first `nodes` (PlayCanvas) or
/// `hierarchy` / `tracks` (not); any other non-null value counts as a (broken) PlayCanvas
/// envelope. Returns whether it counts.
struct AnimationSeed<'a> {
    /// Where the decision goes.
    verdict: &'a Cell<Option<bool>>,
}

impl<'de> DeserializeSeed<'de> for AnimationSeed<'_> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AnimationSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an animation")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(true)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "nodes" => return Err(decided(self.verdict, true)),
                "hierarchy" | "tracks" => return Err(decided(self.verdict, false)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn detection_by_content() {
        let playcanvas = [
            r#"{"animation":{"version":4,"name":"a","duration":1,"nodes":[]}}"#,
            "\u{feff}{\"animation\":{\"nodes\":[]}}",
            r#"{"animation":{"version":3}}"#,
            r#"{"animation":5}"#,
            r#"{"version":4,"duration":1,"nodes":[]}"#,
            // Decided before the text breaks off: the reader reports the truncation.
            r#"{"animation":{"version":4,"nodes":[{"name""#,
        ];
        for text in playcanvas {
            assert!(detect(text.as_bytes()), "{text}");
        }
        let other = [
            r#"{"animation":{"name":"a","fps":24,"hierarchy":[]}}"#,
            r#"{"bones":[],"animation":{"nodes":[]}}"#,
            r#"{"name":"c","duration":1,"tracks":[]}"#,
            r#"{"asset":{"version":"2.0"},"nodes":[],"duration":1}"#,
            r#"{"animations":[{"nodes":[]}]}"#,
            r#"{"animation":null}"#,
            r#"[{"animation":{"nodes":[]}}]"#,
            r#"{"nodes":[]}"#,
            r#"{"animation":{"version":4"#,
            "",
            "42",
        ];
        for text in other {
            assert!(!detect(text.as_bytes()), "{text}");
        }
    }
}
