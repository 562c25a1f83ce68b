//! JSON paths for error messages (`animations[0].tracks[2].values[5]`).
//!
//! Readers build paths as they descend ([`field`], [`index`]). When `serde_json` rejects the text
//! itself (truncated file, stray comma) it only knows a line and column, so [`path_at`] rescans
//! the text up to that point with a tiny bracket/string lexer to recover the path.

/// The longest key a path shows in full; longer ones (a key that swallowed part of the file
/// through a missing quote) are cut.
const KEY_SHOWN: usize = 64;

/// `prefix.name` (or just `name` at the root).
pub fn field(prefix: &str, name: &str) -> String {
    let name = crate::text::shortened(name, KEY_SHOWN);
    if prefix.is_empty() {
        name.into_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

/// `prefix[i]`.
pub fn index(prefix: &str, i: usize) -> String {
    format!("{prefix}[{i}]")
}

/// One open container while scanning.
enum Frame {
    /// An object and the key whose value is being read (if any yet).
    Object(Option<String>),
    /// An array and the index of the element being read.
    Array(usize),
}

/// The JSON path of the value being read at byte `offset` of `text` (clamped to the text).
/// Works on any prefix of a JSON document, valid or not.
pub fn path_at(text: &[u8], offset: usize) -> String {
    let end = offset.min(text.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while i < end {
        match text[i] {
            b'{' => {
                stack.push(Frame::Object(None));
                expect_key = true;
            }
            b'[' => {
                stack.push(Frame::Array(0));
                expect_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key)) => {
                    *key = None;
                    expect_key = true;
                }
                None => {}
            },
            b':' => expect_key = false,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < end && text[i] != b'"' {
                    if text[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if expect_key && let Some(Frame::Object(key)) = stack.last_mut() {
                    let stop = i.min(end);
                    *key = Some(String::from_utf8_lossy(&text[start..stop]).into_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => path = field(&path, key),
            Frame::Object(None) => {}
            Frame::Array(n) => path = index(&path, *n),
        }
    }
    path
}

/// The byte offset of 1-based `line` and `column` (as `serde_json` reports them) in `text`.
pub fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut offset = 0;
    let mut current = 1;
    while current < line {
        match text[offset..].iter().position(|&b| b == b'\n') {
            Some(p) => offset += p + 1,
            None => return text.len(),
        }
        current += 1;
    }
    (offset + column.saturating_sub(1)).min(text.len())
}

/// The JSON path and one-line reason for a `serde_json` syntax error in `text`: "truncated JSON"
/// at the end of the text, "invalid JSON" elsewhere, followed by `serde_json`'s message.
pub fn syntax_error(text: &[u8], e: &serde_json::Error) -> (String, String) {
    // serde_json's column points at the offending byte, or at the last byte read at EOF.
    let offset = offset_of(text, e.line(), e.column()) + usize::from(e.is_eof());
    let what = if e.is_eof() {
        "truncated JSON"
    } else {
        "invalid JSON"
    };
    (path_at(text, offset), format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_paths() {
        assert_eq!(field("", "tracks"), "tracks");
        assert_eq!(
            index(&field("animations[0]", "tracks"), 2),
            "animations[0].tracks[2]"
        );
        assert_eq!(index("", 1), "[1]");
    }

    #[test]
    fn locates_truncation() {
        let text = br#"{"name":"c","tracks":[{"name":".x","times":[0,1,"#;
        assert_eq!(path_at(text, text.len()), "tracks[0].times[2]");
        let text = br#"[{"tracks":[]},{"tracks":[{"na\"me":1,"values":[1,2"#;
        assert_eq!(path_at(text, text.len()), "[1].tracks[0].values[1]");
        assert_eq!(path_at(b"", 0), "");
        assert_eq!(path_at(br#"{"a":{"b":1},"c":"#, 100), "c");
    }

    #[test]
    fn line_column_to_offset() {
        let text = b"ab\ncd\nef";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 2), 4);
        assert_eq!(offset_of(text, 3, 3), 8);
        assert_eq!(offset_of(text, 9, 1), 8);
    }
}
