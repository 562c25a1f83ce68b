//! JSON values that stay raw text until a reader decodes them, each with its JSON path: the
//! layer the hand-walked format schemas (legacy three.js, PlayCanvas, Lottie) share.
//!
//! serde scans a file once into objects whose field values are borrowed [`RawValue`]s
//! ([`RawFields`]); a [`Node`] is one such value plus where it sits (`animation.nodes[2].keys[0]`),
//! an [`Obj`] an object's fields plus its path. Decoding a node either gives the value or a
//! [`Located`] error naming the exact place, so every read error is one line with a JSON path.
//! How numbers are read differs by format (what `null` means, which ranges are allowed, what the
//! messages say), so each format adds its number readers in its own schema module.

use std::ops::Range;
use std::path::Path;

use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use super::path::{field, index, syntax_error};
use super::{JsonKind, RawFields, Shaped};
use crate::formats::{ReadError, ReadErrorKind};

/// Why a part of the file cannot be read: its JSON path, the reason and what kind of failure it
/// is (a [`ReadErrorKind::Schema`] error unless made otherwise).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    /// JSON path of the culprit (`animation.nodes[2].keys[0].p[1]`).
    pub path: String,
    /// What is wrong, on one line.
    pub reason: String,
    /// What kind of failure it is.
    pub kind: ReadErrorKind,
}

impl Located {
    /// A value at `path` that breaks the format's rules.
    pub(crate) fn new(path: impl Into<String>, reason: impl Into<String>) -> Located {
        Located {
            path: path.into(),
            reason: reason.into(),
            kind: ReadErrorKind::Schema,
        }
    }

    /// Text at `path` that is not valid JSON (or a broken binary container).
    pub(crate) fn syntax(path: impl Into<String>, reason: impl Into<String>) -> Located {
        Located {
            kind: ReadErrorKind::Syntax,
            ..Located::new(path, reason)
        }
    }

    /// Content at `path` that clipscope does not read.
    pub(crate) fn unsupported(path: impl Into<String>, reason: impl Into<String>) -> Located {
        Located {
            kind: ReadErrorKind::Unsupported,
            ..Located::new(path, reason)
        }
    }

    /// The read was cancelled.
    pub(crate) fn cancelled() -> Located {
        Located {
            kind: ReadErrorKind::Cancelled,
            ..Located::new("", "cancelled")
        }
    }

    /// The error as a read error of `file`.
    pub(crate) fn in_file(self, file: &Path) -> ReadError {
        ReadError::new(self.kind, file, self.path, self.reason)
    }
}

/// How a format parses its top level: the object, `Ok(Err(kind))` for another JSON type, or
/// serde_json's syntax error.
pub(crate) type ParseTop<'a> = Result<Result<Obj<'a>, JsonKind>, serde_json::Error>;

/// The top-level object of a file's `bytes` (after a byte-order mark, which is skipped) parsed
/// by `parse`, with the text it was parsed from; or the one-line error: an empty file, another
/// JSON type ("expected {expected}, found an array"), or a syntax error with its JSON path.
pub(crate) fn top_object<'a>(
    bytes: &'a [u8],
    file: &Path,
    expected: &str,
    parse: impl FnOnce(&'a [u8]) -> ParseTop<'a>,
) -> Result<(&'a [u8], Obj<'a>), ReadError> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::syntax(file, "", "file is empty"));
    }
    match parse(body) {
        Ok(Ok(top)) => Ok((body, top)),
        Ok(Err(kind)) => Err(ReadError::schema(
            file,
            "",
            format!("expected {expected}, found {}", kind.describe()),
        )),
        Err(e) => {
            let (path, reason) = syntax_error(body, &e);
            Err(ReadError::syntax(file, path, reason))
        }
    }
}

/// One JSON value of the file and where it is.
#[derive(Debug, Clone)]
pub(crate) struct Node<'a> {
    /// The value's text, borrowed from the file.
    pub raw: &'a RawValue,
    /// Its JSON path.
    pub path: String,
}

impl<'a> Node<'a> {
    /// The node for `raw` at `path`.
    pub(crate) fn new(raw: &'a RawValue, path: impl Into<String>) -> Node<'a> {
        Node {
            raw,
            path: path.into(),
        }
    }

    /// The JSON type of the value.
    pub(crate) fn kind(&self) -> JsonKind {
        JsonKind::of(self.raw)
    }

    /// The byte range of the value in `file` (the bytes it was parsed from).
    pub(crate) fn span(&self, file: &[u8]) -> Range<usize> {
        let start = self.raw.get().as_ptr() as usize - file.as_ptr() as usize;
        start..start + self.raw.get().len()
    }

    /// "expected {what}, found …" here.
    pub(crate) fn wrong(&self, what: &str) -> Located {
        Located::new(
            &self.path,
            format!("expected {what}, found {}", self.kind().describe()),
        )
    }

    /// The value as an object.
    pub(crate) fn object(&self) -> Result<Obj<'a>, Located> {
        self.object_as("an object")
    }

    /// The value as an object; `what` names what was expected.
    pub(crate) fn object_as(&self, what: &str) -> Result<Obj<'a>, Located> {
        if self.kind() != JsonKind::Object {
            return Err(self.wrong(what));
        }
        match serde_json::from_str::<Shaped<RawFields<'a>>>(self.raw.get()) {
            Ok(Shaped::Ok(fields)) => Ok(Obj {
                fields,
                path: self.path.clone(),
                raw: Some(self.raw),
            }),
            _ => Err(self.wrong(what)),
        }
    }

    /// The elements of an array, each with its path; `what` names what was expected.
    pub(crate) fn array(&self, what: &str) -> Result<Vec<Node<'a>>, Located> {
        if self.kind() != JsonKind::Array {
            return Err(self.wrong(what));
        }
        let elems: Vec<&'a RawValue> =
            serde_json::from_str(self.raw.get()).map_err(|_| self.wrong(what))?;
        Ok(elems
            .into_iter()
            .enumerate()
            .map(|(i, raw)| Node::new(raw, index(&self.path, i)))
            .collect())
    }

    /// The number of elements of an array (0 for anything else), without decoding them.
    pub(crate) fn len(&self) -> usize {
        if self.kind() != JsonKind::Array {
            return 0;
        }
        serde_json::from_str::<Vec<IgnoredAny>>(self.raw.get()).map_or(0, |v| v.len())
    }

    /// The value as a string.
    pub(crate) fn string(&self) -> Result<String, Located> {
        if self.kind() != JsonKind::String {
            return Err(self.wrong("a string"));
        }
        serde_json::from_str(self.raw.get()).map_err(|_| self.wrong("a string"))
    }

    /// "number … is out of range for a {bits}-bit float" here.
    pub(crate) fn out_of_range(&self, bits: u32) -> Located {
        Located::new(
            &self.path,
            format!(
                "number {} is out of range for a {bits}-bit float",
                self.raw.get().trim()
            ),
        )
    }
}

/// A JSON object of the file: its fields raw and in order, and its path.
#[derive(Debug)]
pub(crate) struct Obj<'a> {
    /// The fields, in file order.
    pub fields: RawFields<'a>,
    /// The object's JSON path (empty at the top level).
    pub path: String,
    /// The object's own text, when it was read from a [`Node`] (a top-level object parsed
    /// straight from the file has none).
    pub raw: Option<&'a RawValue>,
}

impl<'a> Obj<'a> {
    /// Field `name` (the last one when repeated, like `JSON.parse`).
    pub(crate) fn get(&self, name: &str) -> Option<Node<'a>> {
        self.fields
            .get(name)
            .map(|raw| Node::new(raw, field(&self.path, name)))
    }

    /// Field `name` unless it is missing or `null` (JavaScript's `x ? x : …`, `json.x || …` and
    /// `!== undefined` checks read both as absent in the places they are used).
    pub(crate) fn get_some(&self, name: &str) -> Option<Node<'a>> {
        self.get(name).filter(|n| n.kind() != JsonKind::Null)
    }

    /// Field `name`, which must be there (and not `null`): `missing "name"` otherwise.
    pub(crate) fn require(&self, name: &str) -> Result<Node<'a>, Located> {
        self.get_some(name)
            .ok_or_else(|| Located::new(field(&self.path, name), format!("missing \"{name}\"")))
    }

    /// Field `name`, which must be there: `missing {what} "name"` otherwise.
    pub(crate) fn require_as(&self, name: &str, what: &str) -> Result<Node<'a>, Located> {
        self.get_some(name).ok_or_else(|| {
            Located::new(
                field(&self.path, name),
                format!("missing {what} \"{name}\""),
            )
        })
    }

    /// The names of the fields in file order, each once (its first position), like the key
    /// order of `JSON.parse`'s result.
    pub(crate) fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::with_capacity(self.fields.0.len());
        for (k, _) in &self.fields.0 {
            if !names.contains(&&*k.0) {
                names.push(&k.0);
            }
        }
        names
    }

    /// The byte range of the object in `file` (empty for a top-level object parsed straight
    /// from the file).
    pub(crate) fn span(&self, file: &[u8]) -> Range<usize> {
        match self.raw {
            Some(raw) => Node::new(raw, "").span(file),
            None => 0..0,
        }
    }
}
