//! Structural nodes that record a wrong JSON type instead of failing ([`Shaped`]), so a reader
//! can name the exact path in its error.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::JsonKind;

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
