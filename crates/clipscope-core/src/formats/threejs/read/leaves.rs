//! Leaf values that are not numbers: strings, booleans, arrays of them, and the "expected X,
//! found Y" issue every converter raises for a value of the wrong JSON type.

use serde_json::value::RawValue;

use super::issue::Issue;
use crate::formats::json::JsonKind;
use crate::formats::json::path::index;

/// "expected X, found Y" at `path`.
pub(super) fn wrong(path: &str, expected: &str, raw: &RawValue) -> Issue {
    Issue::parse(
        path,
        format!(
            "expected {expected}, found {}",
            JsonKind::of(raw).describe()
        ),
    )
}

/// The string in `raw`, or `None` when it is not a string.
pub(super) fn string_of(raw: &RawValue) -> Option<String> {
    if JsonKind::of(raw) != JsonKind::String {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// A JSON array of booleans (a `BooleanKeyframeTrack`'s values).
pub(super) fn bools(raw: &RawValue, path: &str) -> Result<Vec<bool>, Issue> {
    let elems: Vec<&RawValue> = elements(raw, path, "an array of booleans")?;
    elems
        .iter()
        .enumerate()
        .map(|(k, e)| match e.get().trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(wrong(&index(path, k), "true or false", e)),
        })
        .collect()
}

/// A JSON array of strings (a `StringKeyframeTrack`'s values).
pub(super) fn strings(raw: &RawValue, path: &str) -> Result<Vec<String>, Issue> {
    let elems: Vec<&RawValue> = elements(raw, path, "an array of strings")?;
    elems
        .iter()
        .enumerate()
        .map(|(k, e)| string_of(e).ok_or_else(|| wrong(&index(path, k), "a string", e)))
        .collect()
}

/// The elements of a JSON array, or "expected {what}" at `path`.
pub(super) fn elements<'a>(
    raw: &'a RawValue,
    path: &str,
    what: &str,
) -> Result<Vec<&'a RawValue>, Issue> {
    if JsonKind::of(raw) != JsonKind::Array {
        return Err(wrong(path, what, raw));
    }
    serde_json::from_str(raw.get()).map_err(|_| wrong(path, what, raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    #[test]
    fn strings_and_booleans_or_where_they_are_not() {
        assert_eq!(string_of(&raw(r#""a\u0062""#)).as_deref(), Some("ab"));
        assert_eq!(string_of(&raw("5")), None);
        assert_eq!(bools(&raw("[true, false]"), "v").unwrap(), [true, false]);
        let e = bools(&raw("[true, 1]"), "v").unwrap_err();
        assert_eq!(
            e.problem(0, None).message,
            "v[1]: expected true or false, found a number"
        );
        assert_eq!(strings(&raw(r#"["x"]"#), "v").unwrap(), ["x"]);
        let e = strings(&raw("{}"), "v").unwrap_err();
        assert_eq!(
            e.problem(0, None).message,
            "v: expected an array of strings, found an object"
        );
    }
}
