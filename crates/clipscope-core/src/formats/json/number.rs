//! The one number formatter every writer uses.
//!
//! Times and values are `f32`, but every JSON reader (three.js included) turns text into an
//! `f64` first and only then rounds to `f32`. The shortest form written here is the shortest text
//! that survives exactly that path (`text -> f64 -> f32`) back to the same bits; it comes from
//! `ryu`'s shortest `f32` form. An exhaustive test over all 4 billion `f32`s (run with
//! `cargo test --release -- --ignored exhaustive`) found exactly one magnitude where that form
//! is hit by double rounding (7.038531e-26); it is written with its exact `f64` text. Choices:
//!
//! * integers are written without `.0` (`1`, not `1.0`), large and tiny numbers as `1e30`, `1e-7`;
//! * `-0` is written as `-0` (JSON allows it and `JSON.parse("-0")` is `-0`), so the sign of
//!   zero survives a round trip; three.js's own `JSON.stringify` would write `0`;
//! * NaN and ±Infinity have no JSON form: they are written as `null`, like `JSON.stringify`.
//!   (clipscope's strict reader refuses `null` numbers, so such a file does not read back.)
//! * With a precision `n`, a number is rounded to `n` decimals (half away from zero on `x·10ⁿ`)
//!   with trailing zeros trimmed, unless the shortest form is no longer (then it is used).
//!   The sign of a zero is dropped in this mode.

/// Appends the shortest JSON text that reads back (`text -> f64 -> f32`) to the same `f32`, or
/// `x` rounded to `precision` decimals when given; NaN and infinities become `null`.
pub fn write_f32(out: &mut Vec<u8>, x: f32, precision: Option<u32>) {
    if !x.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    let mut buf = ryu::Buffer::new();
    let shortest = if x.abs().to_bits() == DOUBLE_ROUNDING_TRAP {
        // The widened f64's shortest text is exact, so it survives text -> f64 -> f32.
        buf.format_finite(x as f64)
    } else {
        trim_point_zero(buf.format_finite(x))
    };
    match precision {
        None => out.extend_from_slice(shortest.as_bytes()),
        Some(n) => write_rounded(out, x as f64, n, shortest),
    }
}

/// The `f32` a reader gets back from `x` written with `precision` decimals ([`write_f32`]):
/// `x` itself without a precision.
pub(crate) fn rounded_f32(x: f32, precision: Option<u32>) -> f32 {
    if precision.is_none() || !x.is_finite() {
        return x;
    }
    let mut text = Vec::with_capacity(24);
    write_f32(&mut text, x, precision);
    std::str::from_utf8(&text)
        .ok()
        .and_then(|t| t.parse::<f32>().ok())
        .unwrap_or(x)
}

/// The bits of the only positive finite `f32` (7.038531e-26) whose shortest `f32` text does not
/// survive `text -> f64 -> f32`: the f64 nearest to `7.038531e-26` is exactly halfway between two
/// f32s and ties to the other one. Found (and its uniqueness checked) by the exhaustive test.
const DOUBLE_ROUNDING_TRAP: u32 = 0x15AE_43FD;

/// Appends the shortest JSON text that reads back to the same `f64` (for clip durations), or
/// `x` rounded to `precision` decimals when given; NaN and infinities become `null`.
pub fn write_f64(out: &mut Vec<u8>, x: f64, precision: Option<u32>) {
    if !x.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    let mut buf = ryu::Buffer::new();
    let shortest = trim_point_zero(buf.format_finite(x));
    match precision {
        None => out.extend_from_slice(shortest.as_bytes()),
        Some(n) => write_rounded(out, x, n, shortest),
    }
}

/// The shortest text for `x` as a `String` (see [`write_f64`]).
pub fn format_f64(x: f64) -> String {
    let mut out = Vec::with_capacity(24);
    write_f64(&mut out, x, None);
    String::from_utf8(out).unwrap_or_default()
}

/// Appends the decimal digits of `n`.
pub fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// `ryu` writes integers as `1.0` and `1.0e20`-free forms like `1e20`; drop a trailing `.0`.
fn trim_point_zero(s: &str) -> &str {
    s.strip_suffix(".0").unwrap_or(s)
}

/// Exact powers of ten up to 10^17.
const POW10: [f64; 18] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17,
];

/// `x` rounded to `n` decimals, or `shortest` when that is no longer.
fn write_rounded(out: &mut Vec<u8>, x: f64, n: u32, shortest: &str) {
    let n = n.min(17) as usize;
    let scaled = (x * POW10[n]).round();
    if scaled.is_nan() || scaled.abs() >= 9.0e15 {
        out.extend_from_slice(shortest.as_bytes());
        return;
    }
    // Digits of |scaled|, left-padded with zeros to at least n + 1 digits.
    let mut digits = [b'0'; 24];
    let mut m = scaled.abs() as u64;
    let mut i = digits.len();
    while m > 0 {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
    }
    let first = i.min(digits.len() - n - 1);
    let (int, frac) = digits[first..].split_at(digits.len() - first - n);
    let start = out.len();
    if scaled < 0.0 {
        out.push(b'-');
    }
    out.extend_from_slice(int);
    push_fraction(out, frac);
    if out.len() - start > shortest.len() {
        out.truncate(start);
        out.extend_from_slice(shortest.as_bytes());
    }
}

/// Appends `.frac` without trailing zeros (nothing when all zeros).
fn push_fraction(out: &mut Vec<u8>, frac: &[u8]) {
    let len = frac.iter().rposition(|&d| d != b'0').map_or(0, |p| p + 1);
    if len > 0 {
        out.push(b'.');
        out.extend_from_slice(&frac[..len]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(x: f32, p: Option<u32>) -> String {
        let mut v = Vec::new();
        write_f32(&mut v, x, p);
        String::from_utf8(v).unwrap()
    }

    /// What three.js (and every JSON reader feeding a Float32Array) does with number text.
    fn read_back(s: &str) -> f32 {
        fast_float2::parse::<f64, _>(s).unwrap() as f32
    }

    fn check_round_trip(x: f32) {
        let s = f32s(x, None);
        let back = read_back(&s);
        assert_eq!(back.to_bits(), x.to_bits(), "{x:e} -> {s} -> {back:e}");
        let json: f64 = serde_json::from_str(&s).unwrap();
        assert_eq!((json as f32).to_bits(), x.to_bits(), "serde_json reads {s}");
    }

    #[test]
    fn shortest_forms() {
        assert_eq!(f32s(1.0, None), "1");
        assert_eq!(f32s(0.0, None), "0");
        assert_eq!(f32s(-0.0, None), "-0");
        assert_eq!(f32s(0.1, None), "0.1");
        assert_eq!(f32s(0.3, None), "0.3");
        assert_eq!(f32s(-2.5, None), "-2.5");
        assert_eq!(f32s(1e30, None), "1e30");
        assert_eq!(f32s(1e-7, None), "1e-7");
        assert_eq!(f32s(16777216.0, None), "16777216");
        assert_eq!(f32s(f32::NAN, None), "null");
        assert_eq!(f32s(f32::INFINITY, None), "null");
        assert_eq!(f32s(f32::NEG_INFINITY, Some(3)), "null");
        assert_eq!(format_f64(0.30000001192092896), "0.30000001192092896");
        assert_eq!(format_f64(10.0), "10");
    }

    #[test]
    fn precision_rounds_and_trims() {
        assert_eq!(f32s(0.3000001, Some(3)), "0.3");
        assert_eq!(f32s(1.23456, Some(2)), "1.23");
        assert_eq!(f32s(-1.23556, Some(2)), "-1.24");
        assert_eq!(f32s(2.0, Some(4)), "2");
        assert_eq!(f32s(-0.0001, Some(2)), "0");
        assert_eq!(f32s(0.0004, Some(3)), "0");
        assert_eq!(f32s(0.0005, Some(3)), "0.001");
        assert_eq!(f32s(0.05, Some(0)), "0");
        assert_eq!(f32s(123.5, Some(0)), "124");
        assert_eq!(f32s(1e30, Some(3)), "1e30");
        assert_eq!(f32s(1e-7, Some(2)), "0");
        assert_eq!(f32s(0.5, Some(6)), "0.5");
        let mut v = Vec::new();
        write_f64(&mut v, 1.00049, Some(3));
        assert_eq!(v, b"1");
    }

    #[test]
    fn integers() {
        let mut v = Vec::new();
        write_u64(&mut v, 0);
        v.push(b' ');
        write_u64(&mut v, u64::MAX);
        assert_eq!(v, b"0 18446744073709551615");
    }

    #[test]
    fn double_rounding_trap() {
        let x = f32::from_bits(DOUBLE_ROUNDING_TRAP);
        assert_eq!(ryu::Buffer::new().format_finite(x), "7.038531e-26");
        assert_ne!(read_back("7.038531e-26").to_bits(), x.to_bits());
        check_round_trip(x);
        check_round_trip(-x);
    }

    #[test]
    fn shortest_round_trips_random_bit_patterns() {
        let mut rng = clipscope_test_support::Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300_000 {
            let x = f32::from_bits(rng.next_u64() as u32);
            if x.is_finite() {
                check_round_trip(x);
            }
        }
    }

    #[test]
    fn shortest_round_trips_whole_exponent_ranges() {
        // Every f32 with biased exponent 0 (subnormals, sampled), 1, 126, 127 (0.5..2) and 254.
        for exp in [1u32, 126, 127, 254] {
            let base = exp << 23;
            for m in (0..1u32 << 23).step_by(if cfg!(debug_assertions) { 7 } else { 1 }) {
                check_round_trip(f32::from_bits(base | m));
                check_round_trip(-f32::from_bits(base | m));
            }
        }
        for m in (0..1u32 << 23).step_by(97) {
            check_round_trip(f32::from_bits(m));
        }
    }

    /// Every finite f32 (about 4 billion). Slow: `cargo test --release -- --ignored exhaustive`.
    #[test]
    #[ignore]
    fn exhaustive_shortest_round_trip() {
        use rayon::prelude::*;
        let bad = (0..=u32::MAX >> 8)
            .into_par_iter()
            .map(|hi| {
                let mut bad = Vec::new();
                let mut buf = Vec::with_capacity(32);
                for lo in 0..256u32 {
                    let x = f32::from_bits(hi << 8 | lo);
                    if x.is_finite() {
                        buf.clear();
                        write_f32(&mut buf, x, None);
                        let back = fast_float2::parse::<f64, _>(&buf).unwrap() as f32;
                        if back.to_bits() != x.to_bits() {
                            bad.push((x, String::from_utf8_lossy(&buf).into_owned()));
                        }
                    }
                }
                bad
            })
            .flatten()
            .collect::<Vec<_>>();
        assert!(bad.is_empty(), "{bad:?}");
    }
}
