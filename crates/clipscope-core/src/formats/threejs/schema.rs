//! A serde schema mirroring three.js JSON files as written, borrowed from the input text.
//!
//! Only the structure is decoded here: the file is an array of clips, a clip object, or an object
//! file whose `animations` holds clips; a clip's `tracks` is an array of track objects. Every
//! leaf (names, numbers, the `times`/`values` arrays, unknown fields) stays a borrowed
//! [`RawValue`], so this pass is one scan of the text with no allocation per number. Each track
//! object is handed to a [`Sink`] as soon as the scan has passed it, so the converters in
//! [`read`](super::read) can decode its leaves (knowing their JSON path) on other threads while
//! the scan goes on.
//!
//! Where a structural node has the wrong JSON type the schema records it ([`Shaped::Wrong`])
//! instead of failing, so the reader can name the exact path in its error.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::formats::json::{JsonKind, Key, RawFields, Shaped};

/// One track object handed to the converter as soon as the scan has passed it.
#[derive(Debug)]
pub(crate) struct TrackJob<'de> {
    /// Unique id of the clip object holding the track.
    pub uid: usize,
    /// Position of the `tracks` key among the clip object's fields.
    pub array: usize,
    /// Index of the track in its clip.
    pub track: usize,
    /// JSON path of the track (`animations[0].tracks[2]`).
    pub path: String,
    /// The track's fields, or what was found instead of an object.
    pub fields: Shaped<RawFields<'de>>,
    /// An earlier track of the same array whose `times` text is byte for byte the same (common
    /// in exports, where every channel repeats the frame times): its parsed times can be reused.
    pub shares_times_with: Option<usize>,
}

/// Receives every track as the scan reaches it (the reader converts it, maybe on another thread).
pub(crate) type Sink<'a, 'de> = &'a (dyn Fn(TrackJob<'de>) + 'a);

/// What every seed shares: the sink and a counter that gives each clip object a unique id (so
/// repeated `tracks` or `animations` keys never mix their tracks up; the last one wins).
pub(crate) struct SeedCtx<'a, 'de> {
    /// Where tracks go.
    pub sink: Sink<'a, 'de>,
    /// The next clip id (0 is the top-level object).
    next_uid: std::cell::Cell<usize>,
}

impl<'a, 'de> SeedCtx<'a, 'de> {
    /// A context handing tracks to `sink`.
    pub(crate) fn new(sink: Sink<'a, 'de>) -> SeedCtx<'a, 'de> {
        SeedCtx {
            sink,
            next_uid: std::cell::Cell::new(1),
        }
    }

    /// A fresh clip id.
    fn uid(&self) -> usize {
        let uid = self.next_uid.get();
        self.next_uid.set(uid + 1);
        uid
    }
}

/// Visitor methods that turn every scalar into [`Shaped::Wrong`].
macro_rules! wrong_scalars {
    ($value:ty) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Bool))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Number))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Number))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Number))
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::String))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Null))
        }
        fn visit_none<E: de::Error>(self) -> Result<$value, E> {
            Ok(Self::wrong(JsonKind::Null))
        }
    };
}

/// Skips the rest of an array.
fn skip_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of an object.
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Decodes a clip's `tracks` array, handing each track to the sink; yields the track count.
struct TracksSeed<'a, 'de> {
    /// Shared seed state.
    ctx: &'a SeedCtx<'a, 'de>,
    /// Unique id of the clip.
    uid: usize,
    /// Position of the `tracks` key among the clip's fields.
    array: usize,
    /// JSON path of the `tracks` array.
    path: String,
}

impl<'a, 'de> TracksSeed<'a, 'de> {
    /// A wrong-shaped `tracks`.
    fn wrong(kind: JsonKind) -> Shaped<usize> {
        Shaped::Wrong(kind)
    }
}

impl<'a, 'de> de::DeserializeSeed<'de> for TracksSeed<'a, 'de> {
    type Value = Shaped<usize>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Shaped<usize>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a, 'de> Visitor<'de> for TracksSeed<'a, 'de> {
    type Value = Shaped<usize>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of tracks")
    }
    wrong_scalars!(Shaped<usize>);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shaped<usize>, A::Error> {
        let mut track = 0;
        // The last track whose times were new, and their text.
        let mut times_source: Option<(usize, &'de str)> = None;
        while let Some(fields) = seq.next_element::<Shaped<RawFields<'de>>>()? {
            let times = match &fields {
                Shaped::Ok(f) => f.get("times").map(RawValue::get),
                Shaped::Wrong(_) => None,
            };
            let shares_times_with = times.and_then(|text| match times_source {
                Some((source, seen)) if seen == text => Some(source),
                _ => {
                    times_source = Some((track, text));
                    None
                }
            });
            (self.ctx.sink)(TrackJob {
                uid: self.uid,
                array: self.array,
                track,
                path: format!("{}[{track}]", self.path),
                fields,
                shares_times_with,
            });
            track += 1;
        }
        Ok(Shaped::Ok(track))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shaped<usize>, A::Error> {
        skip_map(map)?;
        Ok(Shaped::Wrong(JsonKind::Object))
    }
}

/// The value of one object field: raw text, or a decoded `tracks` / `animations` array.
#[derive(Debug)]
pub(crate) enum Field<'de> {
    /// Any field the schema does not descend into.
    Raw(&'de RawValue),
    /// A `tracks` array (its tracks went to the sink): the number of tracks.
    Tracks(Shaped<usize>),
    /// A top-level `animations` array (object files only).
    Animations(Shaped<Vec<Shaped<ClipSchema<'de>>>>),
}

/// The fields of a clip object (`AnimationClip.toJSON` shape), in file order.
#[derive(Debug)]
pub(crate) struct ClipSchema<'de> {
    /// Unique id of the clip object (matches its [`TrackJob`]s).
    pub uid: usize,
    /// Every field; `tracks` went to the sink, the rest is raw.
    pub fields: Vec<(Key<'de>, Field<'de>)>,
}

/// The raw value of clip field `name` in `fields` (the last one when repeated).
pub(crate) fn clip_raw<'de>(
    fields: &[(Key<'de>, Field<'de>)],
    name: &str,
) -> Option<&'de RawValue> {
    fields.iter().rev().find_map(|(k, v)| match v {
        Field::Raw(raw) if k.0 == name => Some(*raw),
        _ => None,
    })
}

/// The `tracks` field in `fields` and its position, if any (the last one when repeated).
pub(crate) fn clip_tracks(fields: &[(Key, Field)]) -> Option<(usize, Shaped<usize>)> {
    fields
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, (_, v))| match v {
            Field::Tracks(Shaped::Ok(n)) => Some((i, Shaped::Ok(*n))),
            Field::Tracks(Shaped::Wrong(k)) => Some((i, Shaped::Wrong(*k))),
            _ => None,
        })
}

/// Reads object fields: `tracks` goes to the sink as clip `clip` at `path`, `animations` is
/// decoded when `top` is set, everything else stays raw.
fn visit_fields<'a, 'de, A: MapAccess<'de>>(
    mut map: A,
    ctx: &'a SeedCtx<'a, 'de>,
    uid: usize,
    path: &str,
    top: bool,
) -> Result<Vec<(Key<'de>, Field<'de>)>, A::Error> {
    let mut fields = Vec::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        let value = match &*key.0 {
            "tracks" => Field::Tracks(map.next_value_seed(TracksSeed {
                ctx,
                uid,
                array: fields.len(),
                path: if path.is_empty() {
                    "tracks".to_string()
                } else {
                    format!("{path}.tracks")
                },
            })?),
            "animations" if top => Field::Animations(map.next_value_seed(ClipsSeed {
                ctx,
                prefix: "animations",
            })?),
            _ => Field::Raw(map.next_value()?),
        };
        fields.push((key, value));
    }
    Ok(fields)
}

/// Decodes one clip object.
struct ClipSeed<'a, 'de> {
    /// Shared seed state.
    ctx: &'a SeedCtx<'a, 'de>,
    /// JSON path of the clip.
    path: String,
}

impl<'a, 'de> ClipSeed<'a, 'de> {
    /// A wrong-shaped clip.
    fn wrong(kind: JsonKind) -> Shaped<ClipSchema<'de>> {
        Shaped::Wrong(kind)
    }
}

impl<'a, 'de> de::DeserializeSeed<'de> for ClipSeed<'a, 'de> {
    type Value = Shaped<ClipSchema<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a, 'de> Visitor<'de> for ClipSeed<'a, 'de> {
    type Value = Shaped<ClipSchema<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a clip object")
    }
    wrong_scalars!(Shaped<ClipSchema<'de>>);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        skip_seq(seq)?;
        Ok(Shaped::Wrong(JsonKind::Array))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let uid = self.ctx.uid();
        Ok(Shaped::Ok(ClipSchema {
            uid,
            fields: visit_fields(map, self.ctx, uid, &self.path, false)?,
        }))
    }
}

/// Decodes the clip object `text` on its own (a clip found elsewhere in a file, such as a
/// per-object clip of an io_three object file), handing its tracks to the sink of `ctx` with
/// JSON paths under `path`, the clip's own path.
pub(crate) fn scan_clip<'de>(
    text: &'de str,
    ctx: &SeedCtx<'_, 'de>,
    path: &str,
) -> Result<Shaped<ClipSchema<'de>>, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let seed = ClipSeed {
        ctx,
        path: path.to_string(),
    };
    let clip = de::DeserializeSeed::deserialize(seed, &mut deserializer)?;
    deserializer.end()?;
    Ok(clip)
}

/// Decodes an array of clips whose paths start with `prefix`.
struct ClipsSeed<'a, 'de> {
    /// Shared seed state.
    ctx: &'a SeedCtx<'a, 'de>,
    /// `""` for a top-level array, `"animations"` in object files.
    prefix: &'static str,
}

impl<'a, 'de> ClipsSeed<'a, 'de> {
    /// A wrong-shaped clip array.
    fn wrong(kind: JsonKind) -> Shaped<Vec<Shaped<ClipSchema<'de>>>> {
        Shaped::Wrong(kind)
    }

    /// Reads the clips of an array.
    fn clips<A: SeqAccess<'de>>(
        &self,
        mut seq: A,
    ) -> Result<Vec<Shaped<ClipSchema<'de>>>, A::Error> {
        let mut clips = Vec::new();
        loop {
            let clip = clips.len();
            let seed = ClipSeed {
                ctx: self.ctx,
                path: format!("{}[{clip}]", self.prefix),
            };
            match seq.next_element_seed(seed)? {
                Some(c) => clips.push(c),
                None => return Ok(clips),
            }
        }
    }
}

impl<'a, 'de> de::DeserializeSeed<'de> for ClipsSeed<'a, 'de> {
    type Value = Shaped<Vec<Shaped<ClipSchema<'de>>>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a, 'de> Visitor<'de> for ClipsSeed<'a, 'de> {
    type Value = Shaped<Vec<Shaped<ClipSchema<'de>>>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of clips")
    }
    wrong_scalars!(Shaped<Vec<Shaped<ClipSchema<'de>>>>);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok(Shaped::Ok(self.clips(seq)?))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        skip_map(map)?;
        Ok(Shaped::Wrong(JsonKind::Object))
    }
}

/// A whole three.js file (its tracks went to the sink).
#[derive(Debug)]
pub(crate) enum FileSchema<'de> {
    /// An array of clips.
    Array(Vec<Shaped<ClipSchema<'de>>>),
    /// An object: a single clip, or an object/scene file with `animations`.
    Object(Vec<(Key<'de>, Field<'de>)>),
    /// Some other JSON value.
    Other(JsonKind),
}

/// Decodes a whole file, handing every track to `sink` as soon as it has been scanned.
pub(crate) struct FileSeed<'a, 'de> {
    /// Shared seed state.
    pub ctx: &'a SeedCtx<'a, 'de>,
}

impl<'a, 'de> FileSeed<'a, 'de> {
    /// A file that is neither an array nor an object.
    fn wrong(kind: JsonKind) -> FileSchema<'de> {
        FileSchema::Other(kind)
    }
}

impl<'a, 'de> de::DeserializeSeed<'de> for FileSeed<'a, 'de> {
    type Value = FileSchema<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a, 'de> Visitor<'de> for FileSeed<'a, 'de> {
    type Value = FileSchema<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a three.js JSON file")
    }
    wrong_scalars!(FileSchema<'de>);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let clips = ClipsSeed {
            ctx: self.ctx,
            prefix: "",
        }
        .clips(seq)?;
        Ok(FileSchema::Array(clips))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(FileSchema::Object(visit_fields(
            map, self.ctx, 0, "", true,
        )?))
    }
}

/// How a three.js file was laid out, kept in the [`Document`](crate::formats::Document) so that
/// writing back produces the same shape.
#[derive(Debug, Clone)]
pub(crate) enum Layout {
    /// One clip object at the top level.
    Clip,
    /// An array of clips.
    Array,
    /// An object file: every top-level field but `animations`, verbatim and in order, and the
    /// position `animations` had among them (`None` when the file had none).
    Scene {
        /// The other top-level fields, raw.
        fields: Vec<(String, Box<RawValue>)>,
        /// Index in `fields` before which `animations` goes.
        animations_at: Option<usize>,
        /// The clips read from geometry-level `animations` (io_three 4.3, see
        /// [`geometry_clips`](super::geometry_clips)): while the document still has exactly
        /// these and the object clips, writing leaves them where they were.
        geometry_clips: Vec<crate::model::Clip>,
        /// The clips read from objects' `clips` (io_three 4.3, see
        /// [`object_clips`](super::object_clips)), after the geometry clips.
        object_clips: Vec<crate::model::Clip>,
    },
}
