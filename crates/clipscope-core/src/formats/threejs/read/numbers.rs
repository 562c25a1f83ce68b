//! Numbers the way three.js gets them: `JSON.parse` gives an `f64`, a `Float32Array` rounds
//! it to `f32`. The text is parsed with a fast path for plain decimals (Clinger's: the digits
//! form an exact integer, one division by an exact power of ten rounds correctly) and
//! `fast_float2` for the rest, both correctly rounded, then rounded again to `f32`, so every
//! number is bit for bit what three.js holds.
//!
//! Arrays of plain numbers are parsed straight from the text without building a list of
//! elements; an array holding anything else takes the element-by-element path, where a
//! non-number is an error in a strict read and three.js's coercion of it (usually NaN) plus a
//! finding in a lenient one.

use serde_json::value::RawValue;

use super::issue::{Ctx, Issue};
use super::leaves::{string_of, wrong};
use crate::formats::json::JsonKind;
pub(super) use crate::formats::json::js_number;
use crate::formats::json::path::index;

/// "number T is out of range for a N-bit float" at `path`.
pub(super) fn out_of_range(path: &str, text: &str, bits: &str) -> Issue {
    Issue::coded(
        "number-out-of-range",
        path,
        format!("number {} is out of range for {bits} float", text.trim()),
    )
}

/// The number in `raw` (which holds a JSON number) as an `f64`; overflow gives ±Infinity.
pub(super) fn number_f64(raw: &RawValue) -> f64 {
    let text = raw.get().trim().as_bytes();
    match parse_json_number(text) {
        Ok((v, n)) if n == text.len() => v,
        _ => f64::NAN,
    }
}

/// Skips JSON whitespace from `i`.
#[inline]
fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = s.get(i) {
        i += 1;
    }
    i
}

/// Parses a JSON array of numbers (`text -> f64 -> f32`). Non-numbers are errors in strict mode
/// and three.js's `Float32Array` coercion (usually NaN) plus a `nan_code` issue in lenient mode.
pub(super) fn numbers(
    raw: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
) -> Result<Vec<f32>, Issue> {
    let s = raw.get().as_bytes();
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'[') {
        return Err(wrong(path, "an array of numbers", raw));
    }
    let mut out = Vec::with_capacity(s.len() / 6 + 1);
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b']') {
        return Ok(out);
    }
    loop {
        match s.get(i) {
            Some(b'-' | b'0'..=b'9') => match parse_json_number(&s[i..]) {
                Ok((v, n)) => {
                    let f = v as f32;
                    if f.is_infinite() {
                        let text = String::from_utf8_lossy(&s[i..i + n]);
                        let issue = out_of_range(&index(path, out.len()), &text, "a 32-bit");
                        ctx.soft(issue.at_key(out.len()))?;
                    }
                    out.push(f);
                    i += n;
                }
                Err(_) => return numbers_slow(raw, path, ctx, nan_code),
            },
            _ => return numbers_slow(raw, path, ctx, nan_code),
        }
        i = skip_ws(s, i);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b']') => return Ok(out),
            _ => return numbers_slow(raw, path, ctx, nan_code),
        }
    }
}

/// Exact powers of ten for the fast path (all representable in an `f64`).
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Parses the JSON number at the start of `s` (which must start with `-` or a digit) as a
/// correctly rounded `f64`, returning it and its length. Plain decimals with at most 15
/// significant digits and no exponent take a fast path: the digits form an exact integer and
/// one correctly rounded division by an exact power of ten gives the correctly rounded result
/// (Clinger's fast path). Everything else goes to `fast_float2`.
#[inline(always)]
fn parse_json_number(s: &[u8]) -> Result<(f64, usize), fast_float2::Error> {
    let negative = s.first() == Some(&b'-');
    let mut i = usize::from(negative);
    let mut mantissa = 0u64;
    let mut digits = 0usize;
    while let Some(&d @ b'0'..=b'9') = s.get(i) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
        digits += 1;
        i += 1;
    }
    let mut frac = 0usize;
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&d @ b'0'..=b'9') = s.get(i) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
            frac += 1;
            i += 1;
        }
    }
    if digits == 0
        || digits + frac > 15
        || frac == 0 && s.get(i - 1) == Some(&b'.')
        || matches!(s.get(i), Some(b'e' | b'E'))
    {
        return parse_json_number_slow(s);
    }
    let v = mantissa as f64 / POW10[frac];
    Ok((if negative { -v } else { v }, i))
}

/// Numbers off the fast path (exponents, more than 15 digits): `fast_float2`. Kept out of line
/// so the fast path inlines into the array loop.
#[cold]
#[inline(never)]
fn parse_json_number_slow(s: &[u8]) -> Result<(f64, usize), fast_float2::Error> {
    fast_float2::parse_partial::<f64, _>(s)
}

/// Element-by-element version of [`numbers`] for arrays that hold something other than numbers.
fn numbers_slow(
    raw: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
) -> Result<Vec<f32>, Issue> {
    let elems: Vec<&RawValue> =
        serde_json::from_str(raw.get()).map_err(|_| wrong(path, "an array of numbers", raw))?;
    let mut out = Vec::with_capacity(elems.len());
    for (k, elem) in elems.iter().enumerate() {
        let p = index(path, k);
        out.push(number_elem(elem, &p, ctx, nan_code, k)?);
    }
    Ok(out)
}

/// One element that should be a number: the `f32`, or (lenient) three.js's coercion of it.
/// `key` is the element index, later turned into a key index by the caller.
pub(super) fn number_elem(
    elem: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
    key: usize,
) -> Result<f32, Issue> {
    let kind = JsonKind::of(elem);
    if kind == JsonKind::Number {
        let f = number_f64(elem) as f32;
        if f.is_infinite() {
            ctx.soft(out_of_range(path, elem.get(), "a 32-bit").at_key(key))?;
        }
        return Ok(f);
    }
    // A number written as text: `new Float32Array(["0.5"])` holds 0.5.
    if kind == JsonKind::String
        && let Some(v) = string_of(elem).as_deref().and_then(js_number)
    {
        let f = v as f32;
        if f.is_infinite() {
            ctx.soft(out_of_range(path, elem.get(), "a 32-bit").at_key(key))?;
        }
        ctx.number_as_text(path, key);
        return Ok(f);
    }
    // What `new Float32Array([x])` stores for a non-number x.
    let (coerced, note) = match kind {
        JsonKind::Null => (0.0, " (three.js stores 0)"),
        JsonKind::Bool => (
            if elem.get().trim() == "true" {
                1.0
            } else {
                0.0
            },
            "",
        ),
        JsonKind::String => {
            let s = string_of(elem).unwrap_or_default();
            let t = s.trim();
            let v = if t.is_empty() {
                0.0
            } else {
                fast_float2::parse::<f64, _>(t).unwrap_or(f64::NAN)
            };
            (v as f32, "")
        }
        _ => (f32::NAN, ""),
    };
    let reason = format!("{} is not a number{note}", kind.describe());
    ctx.soft(Issue::coded(nan_code, path, reason).at_key(key))?;
    Ok(coerced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::threejs::read::testing::{nums, read};

    /// three.js's `AnimationClip.parse` plays numbers written as text (its `Float32Array`s
    /// and `1 / fps` turn them into numbers): read the same, in a strict read too, listed as
    /// accepted and noted by `validate`; text that is no number stays an error.
    #[test]
    fn numbers_written_as_text_are_read_as_three_js_reads_them() {
        let text = r#"{"name":"c","fps":"2","duration":" 1 ","tracks":[{"name":"a.position","type":"vector",
            "times":["0","1e0"],"values":["0"," -1.5 ",0,1,2,"3"]}]}"#;
        let doc = read(text);
        let track = &doc.clips[0].tracks[0];
        assert_eq!(track.times, vec![0.0, 0.5]);
        assert_eq!(nums(track), [0.0, -1.5, 0.0, 1.0, 2.0, 3.0]);
        assert_eq!(doc.clips[0].duration, 1.0);
        let what: Vec<String> = doc.accepted.iter().map(|a| a.describe()).collect();
        assert_eq!(what.len(), 2, "{what:?}");
        assert!(
            what[0].starts_with("clip 0 duration: 2 numbers written as text"),
            "{what:?}"
        );
        assert!(
            what[1].starts_with("clip 0 tracks[0].times[0]: 5 numbers"),
            "{what:?}"
        );
        let linted = crate::formats::lint_bytes(
            text.as_bytes(),
            std::path::Path::new("t.json"),
            &crate::formats::ReadOptions::default(),
        );
        let codes: Vec<_> = linted
            .problems
            .iter()
            .map(|p| (p.code.as_str(), p.severity))
            .collect();
        assert_eq!(
            codes,
            vec![
                ("number-as-string", crate::model::Severity::Warning),
                ("number-as-string", crate::model::Severity::Warning)
            ]
        );
        for bad in ["\"\"", "\"0x10\"", "\"Infinity\"", "\"one\""] {
            let text = format!(
                r#"{{"tracks":[{{"name":".x","type":"number","times":[0,{bad}],"values":[0,1]}}]}}"#
            );
            let e = crate::formats::read_bytes(text.as_bytes(), std::path::Path::new("t.json"))
                .unwrap_err();
            assert!(e.to_string().contains("is not a number"), "{bad}: {e}");
        }
    }

    #[test]
    fn text_goes_through_f64_before_f32() {
        // 1.00000005960464477539062500001 is just above the f32 midpoint between 1 and
        // 1+2^-23; as f64 it rounds to the midpoint exactly, which then ties to even (1.0).
        let doc = read(
            r#"[{"tracks":[{"name":".x","type":"number","times":[0],"values":[1.00000005960464477539062500001]}]}]"#,
        );
        assert_eq!(nums(&doc.clips[0].tracks[0])[0].to_bits(), 1.0f32.to_bits());
        let doc = read(
            r#"[{"tracks":[{"name":".x","type":"number","times":[0],"values":[-0, 3.4028235e38]}]}]"#,
        );
        let v = nums(&doc.clips[0].tracks[0]);
        assert_eq!(v[0].to_bits(), (-0.0f32).to_bits());
        assert_eq!(v[1], f32::MAX);
    }

    #[test]
    fn fast_number_path_matches_fast_float() {
        let mut rng = clipscope_test_support::Rng::new(0x853c_49e6_748f_ea9b);
        let mut next = || rng.next_u64();
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "0.5",
            "1.",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "9007199254740993",
            "-12.5e3",
            "1E-2",
            "0.1",
            "100",
            "3.4028235e38",
            "1e400",
            "-1e-400",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for _ in 0..200_000 {
            let digits = (next() % 18 + 1) as usize;
            let mut t = String::new();
            if next() % 2 == 0 {
                t.push('-');
            }
            let int = next() % (digits as u64 + 1);
            for k in 0..digits {
                if k as u64 == int && k > 0 {
                    t.push('.');
                }
                t.push((b'0' + (next() % 10) as u8) as char);
            }
            texts.push(t);
        }
        for t in texts {
            let expected = fast_float2::parse_partial::<f64, _>(t.as_bytes()).unwrap();
            let got = parse_json_number(t.as_bytes()).unwrap();
            assert_eq!(
                (got.0.to_bits(), got.1),
                (expected.0.to_bits(), expected.1),
                "{t}"
            );
        }
    }
}
