//! Text written for people: counts with thousands separators, and messages kept on one line.

/// `12345` → `12,345`: counts are printed with thousands separators.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` on one line: control characters (a newline inside a track name or a JSON key, say)
/// are written as escapes (`\n`, `\u{1b}`), so an error or a finding that quotes file content
/// stays one line. Text without any is returned as it is.
pub fn one_line(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text`, cut to at most `max` characters with `…` at the end when it was longer (a JSON key
/// that swallowed half the file through a missing quote, say).
pub fn shortened(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some(_) => {
            let cut = text
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(text.len(), |(i, _)| i);
            std::borrow::Cow::Owned(format!("{}…", &text[..cut]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{one_line, shortened, thousands};

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("plain".into()), "plain");
        assert_eq!(one_line("a\nb\tc\u{1b}".into()), "a\\nb\\tc\\u{1b}");
        assert_eq!(shortened("short", 10), "short");
        assert_eq!(shortened("0123456789abc", 10), "012345678…");
        assert_eq!(shortened("ééééé", 3), "éé…");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(428766), "428,766");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
