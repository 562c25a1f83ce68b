//! How one animation buffer view is stored when packing: what a reader will see in it, the
//! accessor's new component type, and what goes through the meshopt codec with which filter.
//!
//! Key times stay floats, exact unless compressed: through the exponential filter they stay
//! exact when they sit on a grid of a power of two seconds, else move by at most
//! [`Packing::time_error`] (50 µs by default) and a sixteenth of the closest two keys, keeping
//! their order. Quantized rotations are normalized 16-bit integers: through
//! the quaternion filter when they are unit quaternions (`LINEAR` and `STEP` samplers), rounded
//! per component otherwise (`CUBICSPLINE` tangents, which must then lie in [-1, 1]). Quantized
//! weights are normalized unsigned (all in [0, 1]) or signed 16-bit integers; their 2-byte
//! elements do not meet the attribute codec's multiple-of-4 stride, so they stay uncompressed.
//! Translations and scales go through the exponential filter, each component with mantissa
//! bits of its own that keep it within [`Packing::float_error`], checked on the decoded
//! values. Wherever several counts of bits keep the bound, the one whose words the codec
//! stores in the fewest bytes is taken (the codec deltas each byte of a word on its own, so a
//! step that lines up with a byte is cheaper than fewer bits).

use rayon::prelude::*;

use super::codec::{Filter, encode_attributes, filter_exponential, filter_quaternions, unfilter};
use crate::formats::Packing;
use crate::formats::gltf::bin::le_bytes;

/// What an animation accessor holds, from the samplers and channels that use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Key times.
    Input,
    /// Rotations; `unit` when every element is a unit quaternion (not `CUBICSPLINE`).
    Rotation {
        /// Whether the elements are unit quaternions.
        unit: bool,
        /// Bits per quantized component for this track's node (0: the packing's).
        bits: u8,
    },
    /// Morph target weights.
    Weights,
    /// Translations or scales (`scale` for the relative bound).
    Vector {
        /// Whether the values are scales (their bound is relative).
        scale: bool,
    },
    /// Anything else (pointer targets, or an accessor used in several roles).
    Other,
}

/// A view as packed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Packed {
    /// The bytes a reader sees (what the fallback buffer holds).
    pub bytes: Vec<u8>,
    /// What the attribute codec compresses, its stride and the filter a reader applies after.
    pub codec: Option<(Vec<u8>, usize, Filter)>,
    /// The accessor's new component type and `normalized`, when the numbers became integers.
    pub integers: Option<(u32, bool)>,
}

/// The most a key time may move in the exponential filter by default, in seconds.
const TIME_ERROR: f64 = 5e-5;

/// Signed 16-bit normalized.
pub(crate) const SHORT: u32 = 5122;
/// Unsigned 16-bit normalized.
pub(crate) const UNSIGNED_SHORT: u32 = 5123;

/// Packs `values` (`n` per element, in `role`) as `packing` asks.
pub(crate) fn pack(values: &[f32], n: usize, role: Role, packing: &Packing) -> Packed {
    let floats = || le_bytes(values);
    let plain = || {
        let bytes = floats();
        let codec = (packing.meshopt && n * 4 <= 256).then(|| (bytes.clone(), n * 4, Filter::None));
        Packed {
            bytes,
            codec,
            integers: None,
        }
    };
    let in_unit = values.iter().all(|v| (-1.0..=1.0).contains(v));
    match role {
        Role::Input if packing.meshopt && n == 1 => {
            // Key times through the exponential filter: one exponent for the whole accessor
            // makes them integers of one step, whose deltas the codec stores in a byte or two;
            // the step stays far below the closest two keys, so the times keep their order.
            let closest = values
                .windows(2)
                .map(|w| (w[1] - w[0]) as f64)
                .fold(f64::INFINITY, f64::min);
            let most = match packing.time_error {
                e if e > 0.0 => e,
                _ => TIME_ERROR,
            };
            let tolerance = (closest / 16.0).min(most);
            times(values, tolerance)
        }
        Role::Input | Role::Other => plain(),
        Role::Rotation { unit: true, bits } if packing.quantize && packing.meshopt => {
            let quaternions: Vec<[f32; 4]> = values
                .chunks_exact(4)
                .map(|q| [q[0], q[1], q[2], q[3]])
                .collect();
            let filtered = filter_quaternions(&quaternions, rotation_bits(packing, bits));
            Packed {
                bytes: unfilter(&filtered, 8, Filter::Quaternion),
                codec: Some((filtered, 8, Filter::Quaternion)),
                integers: Some((SHORT, true)),
            }
        }
        Role::Rotation { bits, .. } if packing.quantize && in_unit => {
            // Rounded to the quaternion filter's precision: the low bits the bits leave zero
            // cost the codec nothing.
            let step = f64::from(1u16 << (16 - rotation_bits(packing, bits).min(16)));
            let bytes = shorts(values, 32767.0 / step, |v| {
                (v * step).clamp(-32767.0, 32767.0) as i16 as u16
            });
            let codec = packing.meshopt.then(|| (bytes.clone(), 8, Filter::None));
            Packed {
                bytes,
                codec,
                integers: Some((SHORT, true)),
            }
        }
        Role::Weights if packing.quantize && values.iter().all(|v| (0.0..=1.0).contains(v)) => {
            Packed {
                bytes: shorts(values, 65535.0, |v| v as u16),
                codec: None,
                integers: Some((UNSIGNED_SHORT, true)),
            }
        }
        Role::Weights if packing.quantize && in_unit => Packed {
            bytes: shorts(values, 32767.0, |v| v as i16 as u16),
            codec: None,
            integers: Some((SHORT, true)),
        },
        Role::Vector { .. } | Role::Rotation { .. } | Role::Weights if packing.meshopt => {
            let tolerance = match role {
                Role::Vector { scale: true } => {
                    let largest = values.iter().fold(0.0f32, |m, v| m.max(v.abs())) as f64;
                    packing.float_error * largest.max(1.0)
                }
                Role::Vector { scale: false } => packing.float_error,
                Role::Rotation { bits, .. } if packing.rotation_bits > 0 || bits > 0 => {
                    1.0 / f64::from(1u32 << rotation_bits(packing, bits))
                }
                _ => 0.0,
            };
            exponential(values, n, tolerance)
        }
        _ => plain(),
    }
}

/// The bits per quaternion component of a track whose node asks for `bits` (0: what `packing`
/// asks for; 16 when neither says).
fn rotation_bits(packing: &Packing, bits: u8) -> i32 {
    match if bits > 0 {
        bits
    } else {
        packing.rotation_bits
    } {
        0 => 16,
        b => i32::from(b).clamp(4, 16),
    }
}

/// `values` rounded to integers of `scale` (`v × scale`), as little-endian 16-bit words.
fn shorts(values: &[f32], scale: f64, word: impl Fn(f64) -> u16) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| word((v as f64 * scale).round()).to_le_bytes())
        .collect()
}

/// Bit counts tried past the first that keeps a column within its bound: the codec stores
/// each byte of a word on its own, so a few more bits can line a column's steps up with a
/// byte and take fewer bytes compressed.
const MORE_BITS: i32 = 3;

/// Bit counts tried past the fewest that keep times on a grid exact: up to the count whose
/// grid step is a whole byte (the word's low byte always zero), and one past it.
const MORE_EXACT_BITS: i32 = 9;

/// Key times through the exponential filter: exactly when they sit on a grid of a power of
/// two seconds (a reduction's [`key_grid`](crate::model::ops::reduce::ReduceOptions::key_grid)),
/// else within `tolerance` and in increasing order; either way with the bits that take the
/// fewest bytes compressed.
fn times(values: &[f32], tolerance: f64) -> Packed {
    let words = exact_times(values).unwrap_or_else(|| column(values, tolerance, true));
    exponential_words(words, 1)
}

/// `values` (`n` per element) through the exponential filter, every component within
/// `tolerance` (exact floats when it is 0). Each component gets bits of its own (the filter
/// decodes every word on its own): a root's small sway needs far fewer than its long walk.
fn exponential(values: &[f32], n: usize, tolerance: f64) -> Packed {
    let words = |c: usize| {
        let component: Vec<f32> = values.iter().skip(c).step_by(n).copied().collect();
        column(&component, tolerance, false)
    };
    // A long track's columns (a root's walk, thousands of keys) each try several bit counts:
    // they are worked out side by side, the same words either way.
    let columns: Vec<Vec<u8>> = match values.len() >= PARALLEL_COLUMNS {
        true => (0..n).into_par_iter().map(words).collect(),
        false => (0..n).map(words).collect(),
    };
    let mut filtered = vec![0u8; values.len() * 4];
    for (c, words) in columns.iter().enumerate() {
        for (i, word) in words.chunks_exact(4).enumerate() {
            filtered[(i * n + c) * 4..][..4].copy_from_slice(word);
        }
    }
    exponential_words(filtered, n)
}

/// Numbers from which [`exponential`] works out a track's columns side by side.
const PARALLEL_COLUMNS: usize = 4096;

/// A view of `filtered` exponential-filter words, `n` per element.
fn exponential_words(filtered: Vec<u8>, n: usize) -> Packed {
    Packed {
        bytes: unfilter(&filtered, n * 4, Filter::Exponential),
        codec: Some((filtered, n * 4, Filter::Exponential)),
        integers: None,
    }
}

/// The words of one column of numbers through the exponential filter, each within
/// `tolerance` of its number (and, when `increasing`, in increasing order): of the fewest bits
/// that do and the [`MORE_BITS`] after, the words that take the fewest bytes compressed
/// (24 bits, the most the filter has, when none of fewer does).
fn column(values: &[f32], tolerance: f64, increasing: bool) -> Vec<u8> {
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs() as f64));
    let first = if tolerance > 0.0 && largest > 0.0 {
        ((largest / tolerance).log2().ceil() as i32 + 1).clamp(1, 24)
    } else {
        24
    };
    let mut best: Option<(usize, Vec<u8>)> = None;
    let mut last = 24;
    for bits in first..=24 {
        if bits > last {
            break;
        }
        let words = filter_exponential(values, 1, bits);
        if bits < 24 && !keeps(values, &words, tolerance, increasing) {
            continue;
        }
        last = last.min(bits + MORE_BITS);
        smaller(&mut best, words);
    }
    best.map(|(_, words)| words)
        .unwrap_or_else(|| filter_exponential(values, 1, 24))
}

/// Times that sit exactly on a grid of a power of two seconds through the exponential filter
/// with the bits that keep every one exact and take the fewest bytes compressed; `None` when
/// they sit on no such grid. Which counts keep them exact is worked out where the times allow
/// ([`TimeBits`]), and the counts are compared on only the words [`sampled_size`] looks at, so
/// a long column is filtered whole once, with the chosen count.
fn exact_times(values: &[f32]) -> Option<Vec<u8>> {
    let counts: Vec<i32> = exact_time_counts(values, TimeBits::of(values))?.collect();
    let bits = match counts[..] {
        [] => return None,
        [only] => only,
        _ => {
            let compared = Compared::of(values);
            // The first of the smallest, as `smaller` keeps it.
            *counts.iter().min_by_key(|&&bits| compared.size(bits))?
        }
    };
    Some(filter_exponential(values, 1, bits))
}

/// Whether key times read back exactly as they are from a file that writes them with meshopt
/// (they sit on a grid the exponential filter keeps exact: [`exact_times`]), found without
/// compressing them.
pub(crate) fn times_read_back_exactly(values: &[f32]) -> bool {
    match worked_out(values) {
        Some(exact) => exact,
        None => filtered_exactly(values),
    }
}

/// [`times_read_back_exactly`] found by filtering the times with each bit count
/// [`exact_time_counts`] tries.
fn filtered_exactly(values: &[f32]) -> bool {
    exact_time_counts(values, None).is_some_and(|mut counts| counts.next().is_some())
}

/// [`times_read_back_exactly`] worked out rather than filtered, for times that are all `+0` or
/// normal numbers from 2⁻¹⁰⁰ on (`None` for others): whether one of the bit counts
/// [`exact_time_counts`] tries keeps them exact ([`TimeBits::exact_with`]), found without a
/// division or rounding per time.
fn worked_out(values: &[f32]) -> Option<bool> {
    let known = TimeBits::of(values)?;
    let Some(lowest) = known.lowest else {
        return Some(known.increasing);
    };
    // The coarsest grid (as `coarsest_grid` finds it).
    let k = (-lowest).max(0);
    if k > 16 {
        return Some(false);
    }
    let exponent = known.exponent;
    let (fewest, most) = ((exponent + k - 1).max(1), (exponent + k + 9).min(24));
    Some(fewest.max(exponent - lowest + 1) <= most && known.increasing)
}

/// What decides which bit counts of the exponential filter keep a column of times exact, read
/// off their floats. The filter gives the column one exponent `E` (the largest time's binary
/// exponent plus one) and keeps `bits − 1` bits below it, so the times read back exactly when
/// `E − (bits − 1)` is at most the lowest bit any of them sets; read back exactly, they
/// increase when the times do.
#[derive(Debug, Clone, Copy)]
struct TimeBits {
    /// The filter's shared exponent `E` (`i32::MIN` when every time is 0).
    exponent: i32,
    /// The lowest bit any nonzero time sets (`None` when every time is 0).
    lowest: Option<i32>,
    /// Whether the times increase.
    increasing: bool,
}

impl TimeBits {
    /// The column's bits, for times that are all `+0` or normal numbers from 2⁻¹⁰⁰ on (the
    /// filter's exponent floor); `None` for others, which are filtered to find out.
    fn of(values: &[f32]) -> Option<TimeBits> {
        let usual = |v: &f32| v.to_bits() == 0 || (v.is_normal() && v.abs() >= 2f32.powi(-100));
        if !values.iter().all(usual) {
            return None;
        }
        // Each nonzero time's binary exponent plus one (the filter's `optlog2`) and lowest set
        // bit (a time sits on the grid of 2^-k s when that bit is at least the -k-th).
        let bits = |v: &f32| {
            let biased = ((v.to_bits() >> 23) & 0xff) as i32;
            let significand = (v.to_bits() & 0x7f_ffff) | 0x80_0000;
            (
                biased - 126,
                significand.trailing_zeros() as i32 + biased - 150,
            )
        };
        let nonzero = values.iter().filter(|v| **v != 0.0).map(bits);
        let (exponent, lowest) = nonzero.fold((i32::MIN, i32::MAX), |(e, l), (ve, vl)| {
            (e.max(ve), l.min(vl))
        });
        Some(TimeBits {
            exponent,
            lowest: (lowest != i32::MAX).then_some(lowest),
            increasing: values.windows(2).all(|w| w[0] < w[1]),
        })
    }

    /// Whether the filter with `bits` (1 to 24) keeps every time exact and in order.
    fn exact_with(&self, bits: i32) -> bool {
        self.increasing
            && self
                .lowest
                .is_none_or(|lowest| self.exponent - (bits - 1) <= lowest)
    }
}

/// The coarsest grid of 2^-k s (k up to 16) every time sits on.
fn coarsest_grid(values: &[f32]) -> Option<i32> {
    (0..=16).find(|&k| {
        let scale = f64::from(1u32 << k);
        values.iter().all(|&t| (t as f64 * scale).fract() == 0.0)
    })
}

/// The bit counts [`exact_times`] tries that keep every time exact, fewest first: worked out
/// from `known` (the column's [`TimeBits`]) when given, else by filtering the times with each;
/// `None` when the times sit on no grid of a power of two seconds.
fn exact_time_counts(
    values: &[f32],
    known: Option<TimeBits>,
) -> Option<impl Iterator<Item = i32> + '_> {
    // The coarsest grid of 2^-k s every time sits on; its index needs about the largest time's
    // binary exponent plus k bits, give or take the filter's rounding.
    let k = coarsest_grid(values)?;
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs() as f64));
    let exponent = if largest > 0.0 {
        largest.log2().floor() as i32 + 1
    } else {
        0
    };
    let fewest = exponent + k;
    let counts = (fewest - 1).max(1)..=(fewest + MORE_EXACT_BITS).min(24);
    let exact = move |bits: &i32| match known {
        Some(known) => known.exact_with(*bits),
        None => keeps(values, &filter_exponential(values, 1, *bits), 0.0, true),
    };
    // Past the first count that keeps the times exact, a bit only moves the grid step along
    // the low byte until it fills it: the counts that straddle it are not tried.
    let last = *counts.end();
    let first = counts.clone().find(exact);
    let from = first.map_or(last + 1, |bits| bits + BYTE_STEP_BITS);
    Some(first.into_iter().chain((from..=last).filter(exact)))
}

/// The numbers of one column [`sampled_size`] compares its candidate words on, ready to be
/// filtered with each count: the whole column when it is short, else its windows with the
/// column's widest number after them, so that the filter gives them the column's exponent.
struct Compared<'v> {
    /// What is filtered.
    values: std::borrow::Cow<'v, [f32]>,
    /// How many of the filtered words are compared (the rest only set the exponent).
    words: usize,
}

impl<'v> Compared<'v> {
    /// What [`sampled_size`] compares of the column `values`.
    fn of(values: &'v [f32]) -> Compared<'v> {
        let n = values.len();
        if n <= SAMPLED_FROM {
            return Compared {
                values: values.into(),
                words: n,
            };
        }
        let mut sample = Vec::with_capacity(SAMPLE_WINDOWS * SAMPLE_WINDOW + 1);
        for start in window_starts(n) {
            sample.extend_from_slice(&values[start..start + SAMPLE_WINDOW]);
        }
        // The filter's shared exponent is the largest of the numbers' float exponents.
        let exponent = |v: &&f32| (v.to_bits() >> 23) & 0xff;
        sample.extend(values.iter().max_by_key(exponent));
        Compared {
            values: sample.into(),
            words: SAMPLE_WINDOWS * SAMPLE_WINDOW,
        }
    }

    /// [`sampled_size`] of the column's words through the exponential filter with `bits`.
    fn size(&self, bits: i32) -> usize {
        let mut words = filter_exponential(&self.values, 1, bits);
        words.truncate(self.words * 4);
        encode_attributes(&words, 4).len()
    }
}

/// Bits past the first count that keeps times exact at which the counts that line the grid
/// step up with the word's low byte start (up to [`MORE_EXACT_BITS`] past the fewest): the
/// counts between, whose step straddles that byte, took more bytes on every column measured
/// (the benchmark's takes, the shared files' reductions, random grids). From 6 on, a short
/// column of the 60 s take at 5 cm lost 16 bytes.
const BYTE_STEP_BITS: i32 = 5;

/// Whether exponential-filter `words` decode to within `tolerance` of `values` (bit for bit
/// when it is 0), and when `increasing` to increasing numbers.
fn keeps(values: &[f32], words: &[u8], tolerance: f64, increasing: bool) -> bool {
    let back = unfilter(words, 4, Filter::Exponential);
    let back = back
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut previous = f32::NEG_INFINITY;
    back.zip(values).all(|(b, &v)| {
        let near = if tolerance > 0.0 {
            (b as f64 - v as f64).abs() <= tolerance
        } else {
            b.to_bits() == v.to_bits()
        };
        let ordered = !increasing || b > previous;
        previous = b;
        near && ordered
    })
}

/// Keeps in `best` whichever of it and `words` (one column) takes fewer bytes compressed
/// ([`sampled_size`]).
fn smaller(best: &mut Option<(usize, Vec<u8>)>, words: Vec<u8>) {
    let size = sampled_size(&words);
    if best.as_ref().is_none_or(|(s, _)| size < *s) {
        *best = Some((size, words));
    }
}

/// Words (4 bytes each) from which a column's candidate encodings are compared on a sample of
/// it rather than whole.
const SAMPLED_FROM: usize = 4096;

/// Words in each of the [`SAMPLE_WINDOWS`] windows a long column is compared on.
const SAMPLE_WINDOW: usize = 1024;

/// Windows a long column is compared on, spread evenly over it.
const SAMPLE_WINDOWS: usize = 4;

/// The compressed size of one column of words (4 bytes each), to compare its candidate
/// encodings: of every word up to [`SAMPLED_FROM`], else of [`SAMPLE_WINDOWS`] windows spread
/// over the column (each starting on a multiple of 256 words, a block of the codec). The
/// chosen words are compressed whole once more in their stream, so a long take's dozens of
/// candidates cost a fraction of that each; they compress alike all along a column.
fn sampled_size(words: &[u8]) -> usize {
    let n = words.len() / 4;
    if n <= SAMPLED_FROM {
        return encode_attributes(words, 4).len();
    }
    let mut sample = Vec::with_capacity(SAMPLE_WINDOWS * SAMPLE_WINDOW * 4);
    for start in window_starts(n) {
        sample.extend_from_slice(&words[start * 4..(start + SAMPLE_WINDOW) * 4]);
    }
    encode_attributes(&sample, 4).len()
}

/// Where each of the [`SAMPLE_WINDOWS`] windows of a column of `n` words (more than
/// [`SAMPLED_FROM`]) starts: spread evenly over it, each on a multiple of 256 words.
fn window_starts(n: usize) -> impl Iterator<Item = usize> {
    (0..SAMPLE_WINDOWS).map(move |w| (n - SAMPLE_WINDOW) * w / (SAMPLE_WINDOWS - 1) / 256 * 256)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }

    /// Quantized and compressed, within a millimetre.
    fn quantized() -> Packing {
        Packing {
            quantize: true,
            meshopt: true,
            fallback: false,
            float_error: 0.001,
            rotation_bits: 0,
            rotation_error: 0.0,
            time_error: 0.0,
        }
    }

    #[test]
    fn exact_times_skip_only_bit_counts_that_take_more_bytes() {
        // Reductions' key times on the 1/32 s grid: every key, or gaps of a few steps, over a
        // minute and over ten; the counts skipped never take fewer bytes than the choice.
        let mut rng = clipscope_test_support::rng::Rng::new(3);
        let cases = [
            (1920, 1),
            (2000, 4),
            (19_200, 1),
            (8000, 3),
            (3000, 12),
            (111, 16),
        ];
        for (keys, most_gap) in cases {
            let mut step = 0u32;
            let times: Vec<f32> = (0..keys)
                .map(|_| {
                    step += 1 + (rng.next_u64() % most_gap) as u32;
                    step as f32 / 32.0
                })
                .collect();
            let chosen = exact_times(&times).unwrap();
            let every = (1..=24)
                .map(|bits| filter_exponential(&times, 1, bits))
                .filter(|words| keeps(&times, words, 0.0, true))
                .min_by_key(|words| sampled_size(words))
                .unwrap();
            assert_eq!(
                sampled_size(&chosen),
                sampled_size(&every),
                "{keys} keys, gaps up to {most_gap}"
            );
        }
    }

    #[test]
    fn times_on_a_power_of_two_grid_are_known_to_read_back_exactly_without_packing() {
        let packing = quantized();
        let grid: Vec<f32> = (0..2000).map(|k| (k * 3) as f32 / 64.0).collect();
        assert!(times_read_back_exactly(&grid));
        assert_eq!(f32s(&pack(&grid, 1, Role::Input, &packing).bytes), grid);
        let frames: Vec<f32> = (0..2000).map(|k| k as f32 / 30.0).collect();
        assert!(!times_read_back_exactly(&frames));
        assert_ne!(f32s(&pack(&frames, 1, Role::Input, &packing).bytes), frames);
    }

    #[test]
    fn times_worked_out_read_back_exactly_as_filtered() {
        let mut rng = clipscope_test_support::rng::Rng::new(5);
        let mut next = |below: u64| rng.next_u64() % below.max(1);
        let (mut exact, mut inexact) = (0, 0);
        for case in 0..3000 {
            let k = next(19) as i32;
            let count = 1 + next(40) as usize;
            // Steps on 2^-k s, from a start that may be negative or far out (up to 2^26 steps).
            let spread = 1u64 << next(27);
            let start = next(spread) as i64 - (spread / 3) as i64;
            let mut n = start;
            let mut times: Vec<f32> = Vec::with_capacity(count);
            for _ in 0..count {
                times.push((n as f64 / f64::from(1u32 << k)) as f32);
                n += match case % 7 {
                    0 => next(3) as i64,    // repeats now and then
                    1 => -(next(4) as i64), // decreasing
                    _ => 1 + next(1 + spread / 64) as i64,
                };
            }
            if case % 11 == 0 {
                times.push(1.0 / 30.0);
            }
            if case % 13 == 0 {
                times = vec![0.0; count];
            }
            let Some(worked) = worked_out(&times) else {
                continue;
            };
            assert_eq!(worked, filtered_exactly(&times), "{times:?}");
            // Each count on its own, as the writer picks among them.
            let known = TimeBits::of(&times).unwrap();
            for bits in 1..=24 {
                let filtered = keeps(&times, &filter_exponential(&times, 1, bits), 0.0, true);
                assert_eq!(known.exact_with(bits), filtered, "{bits} bits: {times:?}");
            }
            if worked { exact += 1 } else { inexact += 1 }
        }
        assert!(exact > 500 && inexact > 500, "{exact} {inexact}");
        // Unusual times are filtered to find out.
        assert_eq!(worked_out(&[-0.0, 1.0]), None);
        assert_eq!(worked_out(&[1e-40, 1.0]), None);
        assert_eq!(worked_out(&[f32::NAN]), None);
        assert!(!times_read_back_exactly(&[-0.0, 1.0]));
    }

    #[test]
    fn times_stay_exact_and_vectors_keep_their_bound() {
        let packing = quantized();
        let times: Vec<f32> = (0..1800).map(|k| k as f32 / 30.0).collect();
        let p = pack(&times, 1, Role::Input, &packing);
        let back = f32s(&p.bytes);
        assert!(back.iter().zip(&times).all(|(a, b)| (a - b).abs() <= 5e-5));
        assert!(back.is_sorted_by(|a, b| a < b));
        assert_eq!(back[0], 0.0);
        assert_eq!(p.codec.as_ref().map(|c| c.2), Some(Filter::Exponential));
        let v: Vec<f32> = (0..30).map(|i| (i as f32 * 0.1).sin() * 2.0).collect();
        let p = pack(&v, 3, Role::Vector { scale: false }, &packing);
        let back = f32s(&p.bytes);
        assert!(back.iter().zip(&v).all(|(a, b)| (a - b).abs() <= 0.001));
        assert_ne!(back, v, "fewer bits than a float");
    }

    /// `p`'s compressed bytes.
    fn size(p: &Packed) -> usize {
        let (bytes, stride, _) = p.codec.as_ref().unwrap();
        encode_attributes(bytes, *stride).len()
    }

    /// `n` keys on a 1/32 s grid with irregular gaps, as a grid reduction keeps them, packed
    /// with meshopt: exact, through the exponential filter, and in no more bytes than any
    /// count of bits that keeps them exact takes.
    fn grid_times_take_the_fewest_bytes(n: u32) -> (Vec<f32>, Packed) {
        let packing = Packing {
            meshopt: true,
            ..Packing::default()
        };
        let mut g = 0u32;
        let grid: Vec<f32> = (0..n)
            .map(|k| {
                g += 1 + (k * 7 % 5);
                g as f32 / 32.0
            })
            .collect();
        let p = pack(&grid, 1, Role::Input, &packing);
        assert_eq!(f32s(&p.bytes), grid, "exact");
        let (_, stride, filter) = p.codec.clone().unwrap();
        assert_eq!((stride, filter), (4, Filter::Exponential));
        for bits in 1..=24 {
            let words = filter_exponential(&grid, 1, bits);
            if keeps(&grid, &words, 0.0, true) {
                let fewest = encode_attributes(&words, 4).len();
                assert!(size(&p) <= fewest, "{bits} bits");
            }
        }
        (grid, p)
    }

    #[test]
    fn grid_times_are_stored_exactly_in_the_fewest_bytes() {
        let packing = Packing {
            meshopt: true,
            ..Packing::default()
        };
        let (grid, p) = grid_times_take_the_fewest_bytes(2000);
        // Keys mostly two grid steps apart (a root resampled at 16 Hz): half the step in the
        // low byte's top bit, which seldom changes, and a step of one in the next byte, which
        // the codec stores in 2 bits, rather than steps of two in 4 bits.
        let mut g = 0u32;
        let even: Vec<f32> = (0..2000)
            .map(|k| {
                g += if k % 50 == 49 { 3 } else { 2 };
                g as f32 / 32.0
            })
            .collect();
        let e = pack(&even, 1, Role::Input, &packing);
        assert_eq!(f32s(&e.bytes), even, "exact");
        // The largest time needs 7 bits, the grid 5, the sign 1; 8 more put every step in
        // the second byte.
        let whole = filter_exponential(&even, 1, 7 + 5 + 1 + 8);
        assert!(whole.chunks_exact(4).all(|b| b[0] == 0));
        let whole_steps = encode_attributes(&whole, 4).len();
        assert!(
            size(&e) * 4 < whole_steps * 3,
            "{} vs {whole_steps} bytes",
            size(&e)
        );
        // The same keys at 30 fps frame times are not on any grid: more bytes compressed.
        let frames: Vec<f32> = grid.iter().map(|t| (t * 32.0) / 30.0).collect();
        let q = pack(&frames, 1, Role::Input, &packing);
        assert!(
            size(&p) * 2 < size(&q),
            "{} vs {} bytes",
            size(&p),
            size(&q)
        );
    }

    #[test]
    fn a_column_s_counts_are_compared_on_the_words_the_whole_filtered_column_has() {
        // Long and short columns whose widest time sits anywhere (a window or not), signed.
        let mut rng = clipscope_test_support::rng::Rng::new(8);
        for (n, widest_at) in [
            (100, 7),
            (4096, 4000),
            (5000, 2500),
            (19_201, 19_200),
            (9000, 3),
        ] {
            let mut times: Vec<f32> = (0..n)
                .map(|_| (rng.next_u64() % 4096) as f32 / 64.0 - 20.0)
                .collect();
            times[widest_at] = -300.5;
            let compared = Compared::of(&times);
            for bits in [1, 9, 16, 20, 24] {
                let whole = filter_exponential(&times, 1, bits);
                assert_eq!(
                    compared.size(bits),
                    sampled_size(&whole),
                    "{n} times, {bits} bits"
                );
            }
        }
    }

    #[test]
    fn a_long_column_is_compared_on_windows_spread_over_it() {
        let words = |n: usize| -> Vec<u8> {
            (0..n as u32)
                .flat_map(|k| (k * 3 + k % 7).to_le_bytes())
                .collect()
        };
        // A short column is compressed whole.
        let short = words(SAMPLED_FROM);
        assert_eq!(sampled_size(&short), encode_attributes(&short, 4).len());
        // A long one on its windows: the first at its start, the last ending at its end, each
        // starting on a block of 256 words.
        let n = 10_000;
        let long = words(n);
        let mut sample = Vec::new();
        for start in [0, 2_816, 5_888, 8_960] {
            assert_eq!(start % 256, 0);
            sample.extend_from_slice(&long[start * 4..(start + SAMPLE_WINDOW) * 4]);
        }
        assert_eq!(sampled_size(&long), encode_attributes(&sample, 4).len());
        assert!(8_960 + SAMPLE_WINDOW <= n && n - (8_960 + SAMPLE_WINDOW) < 256);
        // Long grid times still get the bits that compress them best on the whole column
        // here (every window alike).
        grid_times_take_the_fewest_bytes(12_000);
    }

    #[test]
    fn each_component_of_a_vector_gets_bits_of_its_own() {
        let packing = Packing {
            meshopt: true,
            float_error: 5e-4,
            ..Packing::default()
        };
        // A root walking 78 m forward while it sways by 2 cm.
        let v: Vec<f32> = (0..1000)
            .flat_map(|i| {
                let t = i as f32 / 16.0;
                [
                    0.02 * (t * 3.0).sin(),
                    0.95 + 0.02 * (t * 6.0).cos(),
                    1.3 * t,
                ]
            })
            .collect();
        let p = pack(&v, 3, Role::Vector { scale: false }, &packing);
        let back = f32s(&p.bytes);
        let off = back
            .iter()
            .zip(&v)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(off <= 5e-4, "{off}");
        // One count of bits for all three, the fewest that keep the walk within the bound.
        let shared = (1..=24)
            .map(|bits| filter_exponential(&v, 3, bits))
            .find(|w| {
                let back = f32s(&unfilter(w, 12, Filter::Exponential));
                back.iter().zip(&v).all(|(a, b)| (a - b).abs() <= 5e-4)
            })
            .unwrap();
        let shared = encode_attributes(&shared, 12).len();
        assert!(size(&p) * 4 < shared * 3, "{} vs {shared} bytes", size(&p));
    }

    #[test]
    fn a_long_track_s_columns_worked_out_side_by_side_are_the_columns_one_by_one() {
        // 3,000 keys of three values: past `PARALLEL_COLUMNS`, so worked out in parallel.
        let v: Vec<f32> = (0..3000)
            .flat_map(|i| {
                let t = i as f32 / 32.0;
                [0.03 * (t * 2.0).sin(), 0.9 + 0.01 * t.cos(), 1.1 * t]
            })
            .collect();
        assert!(v.len() >= PARALLEL_COLUMNS);
        let tolerance = 1e-3;
        let packed = exponential(&v, 3, tolerance);
        let (filtered, stride, filter) = packed.codec.expect("through the codec");
        assert_eq!((stride, filter), (12, Filter::Exponential));
        for c in 0..3 {
            let component: Vec<f32> = v.iter().skip(c).step_by(3).copied().collect();
            let alone = column(&component, tolerance, false);
            let words: Vec<u8> = filtered
                .chunks_exact(12)
                .flat_map(|element| element[c * 4..c * 4 + 4].to_vec())
                .collect();
            assert_eq!(words, alone, "component {c}");
        }
    }

    #[test]
    fn rotations_and_weights_become_normalized_shorts() {
        let packing = Packing {
            quantize: true,
            ..Packing::default()
        };
        let q = [0.0f32, 0.6, 0.0, 0.8];
        let p = pack(
            &q,
            4,
            Role::Rotation {
                unit: true,
                bits: 0,
            },
            &packing,
        );
        assert_eq!(p.integers, Some((SHORT, true)));
        assert_eq!(p.bytes.len(), 8);
        assert_eq!(i16::from_le_bytes([p.bytes[2], p.bytes[3]]), 19660);
        let w = pack(&[0.0, 0.5, 1.0], 1, Role::Weights, &packing);
        assert_eq!(w.integers, Some((UNSIGNED_SHORT, true)));
        assert_eq!(w.bytes, [0, 0, 0, 128, 255, 255]);
        // A tangent outside [-1, 1] keeps the rotation in floats.
        let t = pack(
            &[1.5, 0.0, 0.0, 0.0],
            4,
            Role::Rotation {
                unit: false,
                bits: 0,
            },
            &packing,
        );
        assert_eq!(t.integers, None);
    }
}
