//! A serde schema mirroring three.js JSON files as written, borrowed from the input text.
//!
//! Only the structure is decoded here: the file is an array of clips, a clip object, or an object
//! file whose `animations` holds clips; a clip's `tracks` is an array of track objects. Every
//! leaf (names, numbers, the `times`/`values` arrays, unknown fields) stays a borrowed
//! [`RawValue`], so this pass is one scan of the text with no allocation per number. The
//! converters in [`read`](super::read) then decode the leaves, knowing each one's JSON path.
//!
//! Where a structural node has the wrong JSON type the schema records it ([`Shaped::Wrong`])
//! instead of failing, so the reader can name the exact path in its error.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The JSON type of a value, for "expected …, found …" messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind of the JSON text `raw` (which must be one valid value).
    pub(crate) fn of(raw: &RawValue) -> JsonKind {
        match raw.get().trim_start().as_bytes().first() {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            Some(b'"') => JsonKind::String,
            Some(b't' | b'f') => JsonKind::Bool,
            Some(b'n') => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }

    /// `an object`, `a number`, `null`, … for messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// An object key, borrowed from the text unless it contained escapes.
#[derive(Debug, Clone)]
pub(crate) struct Key<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// A structural node: the expected container, or the JSON type that was found instead.
#[derive(Debug)]
pub(crate) enum Shaped<T> {
    /// The node had the expected shape.
    Ok(T),
    /// The node was something else (its contents were skipped).
    Wrong(JsonKind),
}

/// A container that [`Shaped`] can decode: overrides `visit_seq` (arrays) or `visit_map` (objects).
pub(crate) trait Container<'de>: Sized {
    /// Decodes an array; by default an array is the wrong shape.
    fn visit_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Shaped<Self>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Shaped::Wrong(JsonKind::Array))
    }

    /// Decodes an object; by default an object is the wrong shape.
    fn visit_map<A: MapAccess<'de>>(mut map: A) -> Result<Shaped<Self>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Shaped::Wrong(JsonKind::Object))
    }
}

/// The visitor behind `Shaped<T>`.
struct ShapedVisitor<T>(PhantomData<T>);

impl<'de, T: Container<'de>> Visitor<'de> for ShapedVisitor<T> {
    type Value = Shaped<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Bool))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Number))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Number))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Number))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::String))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Shaped<T>, E> {
        Ok(Shaped::Wrong(JsonKind::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Shaped<T>, A::Error> {
        T::visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shaped<T>, A::Error> {
        T::visit_map(map)
    }
}

impl<'de, T: Container<'de>> Deserialize<'de> for Shaped<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShapedVisitor(PhantomData))
    }
}

/// An object whose values stay raw JSON text: a track (`name`, `type`, `times`, `values`, …),
/// a legacy key (`time`, `value`) or a track's `settings`. Keys keep file order.
#[derive(Debug, Default)]
pub(crate) struct RawFields<'de>(pub Vec<(Key<'de>, &'de RawValue)>);

impl<'de> RawFields<'de> {
    /// The value of `name` (the last one when repeated, like `JSON.parse`).
    pub(crate) fn get(&self, name: &str) -> Option<&'de RawValue> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k.0 == name)
            .map(|(_, v)| *v)
    }
}

impl<'de> Container<'de> for RawFields<'de> {
    fn visit_map<A: MapAccess<'de>>(mut map: A) -> Result<Shaped<Self>, A::Error> {
        let mut fields = Vec::with_capacity(6);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            fields.push((key, map.next_value::<&'de RawValue>()?));
        }
        Ok(Shaped::Ok(RawFields(fields)))
    }
}

/// A clip's `tracks` array.
#[derive(Debug)]
pub(crate) struct TrackList<'de>(pub Vec<Shaped<RawFields<'de>>>);

impl<'de> Container<'de> for TrackList<'de> {
    fn visit_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Shaped<Self>, A::Error> {
        let mut tracks = Vec::with_capacity(seq.size_hint().unwrap_or(8));
        while let Some(track) = seq.next_element()? {
            tracks.push(track);
        }
        Ok(Shaped::Ok(TrackList(tracks)))
    }
}

/// An array of clips (a whole file, or an object file's `animations`).
#[derive(Debug)]
pub(crate) struct ClipList<'de>(pub Vec<Shaped<ClipSchema<'de>>>);

impl<'de> Container<'de> for ClipList<'de> {
    fn visit_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Shaped<Self>, A::Error> {
        let mut clips = Vec::new();
        while let Some(clip) = seq.next_element()? {
            clips.push(clip);
        }
        Ok(Shaped::Ok(ClipList(clips)))
    }
}

/// The value of one object field: raw text, or a decoded `tracks` / `animations` array.
#[derive(Debug)]
pub(crate) enum Field<'de> {
    /// Any field the schema does not descend into.
    Raw(&'de RawValue),
    /// A `tracks` array.
    Tracks(Shaped<TrackList<'de>>),
    /// A top-level `animations` array (object files only).
    Animations(Shaped<ClipList<'de>>),
}

/// The fields of a clip object (`AnimationClip.toJSON` shape), in file order.
#[derive(Debug)]
pub(crate) struct ClipSchema<'de> {
    /// Every field; `tracks` is decoded, the rest is raw.
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

/// The decoded `tracks` field in `fields`, if any (the last one when repeated).
pub(crate) fn clip_tracks<'a, 'de>(
    fields: &'a [(Key<'de>, Field<'de>)],
) -> Option<&'a Shaped<TrackList<'de>>> {
    fields.iter().rev().find_map(|(_, v)| match v {
        Field::Tracks(t) => Some(t),
        _ => None,
    })
}

/// Reads object fields, decoding `tracks` always and `animations` when `top` is set.
fn visit_fields<'de, A: MapAccess<'de>>(
    mut map: A,
    top: bool,
) -> Result<Vec<(Key<'de>, Field<'de>)>, A::Error> {
    let mut fields = Vec::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        let value = match &*key.0 {
            "tracks" => Field::Tracks(map.next_value()?),
            "animations" if top => Field::Animations(map.next_value()?),
            _ => Field::Raw(map.next_value()?),
        };
        fields.push((key, value));
    }
    Ok(fields)
}

impl<'de> Container<'de> for ClipSchema<'de> {
    fn visit_map<A: MapAccess<'de>>(map: A) -> Result<Shaped<Self>, A::Error> {
        Ok(Shaped::Ok(ClipSchema {
            fields: visit_fields(map, false)?,
        }))
    }
}

/// A whole three.js JSON file.
#[derive(Debug)]
pub(crate) enum FileSchema<'de> {
    /// An array of clips.
    Array(ClipList<'de>),
    /// An object: a single clip, or an object/scene file with `animations`.
    Object(Vec<(Key<'de>, Field<'de>)>),
    /// Some other JSON value.
    Other(JsonKind),
}

impl<'de> Container<'de> for FileSchema<'de> {
    fn visit_seq<A: SeqAccess<'de>>(seq: A) -> Result<Shaped<Self>, A::Error> {
        Ok(match ClipList::visit_seq(seq)? {
            Shaped::Ok(list) => Shaped::Ok(FileSchema::Array(list)),
            Shaped::Wrong(kind) => Shaped::Wrong(kind),
        })
    }
    fn visit_map<A: MapAccess<'de>>(map: A) -> Result<Shaped<Self>, A::Error> {
        Ok(Shaped::Ok(FileSchema::Object(visit_fields(map, true)?)))
    }
}

impl<'de> Deserialize<'de> for FileSchema<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Shaped::<FileSchema<'de>>::deserialize(d)? {
            Shaped::Ok(file) => file,
            Shaped::Wrong(kind) => FileSchema::Other(kind),
        })
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
    },
}
