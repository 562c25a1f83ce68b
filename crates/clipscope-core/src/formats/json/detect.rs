//! Deciding whether a file is in a format by scanning as little of it as possible.
//!
//! serde visits the top-level object field by field and the format's [`TopScan`] stops the scan
//! (by returning [`decided`]) as soon as a field tells, so big files of other formats cost next
//! to nothing to rule out. An array, any other top-level value and text that breaks off before
//! anything decided are not the format.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Where a scan puts its decision: `Some(true)` for "this format".
pub(crate) type Verdict = Cell<Option<bool>>;

/// A format's reading of the top-level object's fields.
pub(crate) trait TopScan {
    /// Reads fields from `map` until they decide, then sets `verdict` (at the end of the
    /// object) or stops the scan early with [`decided`].
    fn visit_fields<'de, A: MapAccess<'de>>(
        &self,
        map: A,
        verdict: &Verdict,
    ) -> Result<(), A::Error>;
}

/// Whether `bytes` (after a byte-order mark) is in the format `scan` recognises.
pub(crate) fn detect_with(bytes: &[u8], scan: impl TopScan) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let verdict = Cell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = TopSeed {
        verdict: &verdict,
        scan: &scan,
    }
    .deserialize(&mut de);
    verdict.get().unwrap_or(false)
}

/// The error a detection visitor returns to stop the scan once it has decided.
pub(crate) fn decided<E: de::Error>(verdict: &Verdict, yes: bool) -> E {
    verdict.set(Some(yes));
    E::custom("decided")
}

/// Visits the top-level value.
struct TopSeed<'a, S> {
    verdict: &'a Verdict,
    scan: &'a S,
}

impl<'de, S: TopScan> DeserializeSeed<'de> for TopSeed<'_, S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: TopScan> Visitor<'de> for TopSeed<'_, S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(decided(self.verdict, false))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.scan.visit_fields(map, self.verdict)
    }
}
