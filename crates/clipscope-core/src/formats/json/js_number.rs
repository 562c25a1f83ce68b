//! JavaScript's `Number(text)` for numbers written as text, which several engines read as the
//! numbers they spell (three.js's `Float32Array`s, the PlayCanvas engine's comparisons and
//! arithmetic, lottie-web's loose equality).

/// JavaScript's `Number(text)` for a text that spells a finite decimal number (optional sign,
/// digits with an optional point, optional exponent, white space around): `None` for anything
/// else (empty text, `Infinity`, hex, words), which JavaScript would turn into 0, ±Infinity or
/// NaN.
pub(crate) fn js_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let plain = t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    if t.is_empty() || !plain || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::js_number;

    #[test]
    fn decimal_text_only() {
        assert_eq!(js_number(" 0.5 "), Some(0.5));
        assert_eq!(js_number("-1e3"), Some(-1000.0));
        for bad in ["", "0x10", "Infinity", "1e999", "one", "."] {
            assert_eq!(js_number(bad), None, "{bad}");
        }
    }
}
