//! Objects whose values stay raw JSON text ([`RawFields`]): how readers keep fields they do not
//! interpret, in file order, to decode later or write back verbatim.

use serde::de::MapAccess;
use serde_json::value::RawValue;

use super::{Container, Key, Shaped};

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
