//! The JSON type of a value ([`JsonKind`]), for "expected …, found …" messages.

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
