//! Fields a file carried that the model does not interpret, kept so a round trip loses nothing.

use serde_json::value::RawValue;

/// An ordered bag of `(key, raw JSON text)` pairs that a reader found next to the fields it
/// understands. Writers for the same format put them back verbatim; the model never reads them.
#[derive(Debug, Clone, Default)]
pub struct Extras(pub Vec<(String, Box<RawValue>)>);

impl PartialEq for Extras {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| a.0 == b.0 && a.1.get() == b.1.get())
    }
}

impl Extras {
    /// True when nothing extra was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The raw JSON text stored under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| &**v)
    }
}
