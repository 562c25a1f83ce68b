//! How one animation buffer view is stored when packing: what a reader will see in it, the
//! accessor's new component type, and what goes through the meshopt codec with which filter.
//!
//! Key times stay floats, exact unless compressed: through the exponential filter they move by
//! at most [`Packing::time_error`] (50 µs by default) and a sixteenth of the closest two keys,
//! keeping their order. Quantized rotations are normalized 16-bit integers: through
//! the quaternion filter when they are unit quaternions (`LINEAR` and `STEP` samplers), rounded
//! per component otherwise (`CUBICSPLINE` tangents, which must then lie in [-1, 1]). Quantized
//! weights are normalized unsigned (all in [0, 1]) or signed 16-bit integers; their 2-byte
//! elements do not meet the attribute codec's multiple-of-4 stride, so they stay uncompressed.
//! Translations and scales go through the exponential filter with the fewest mantissa bits
//! that keep every component within [`Packing::float_error`], checked on the decoded values.

use super::codec::{Filter, filter_exponential, filter_quaternions, unfilter};
use crate::formats::Packing;

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
    let floats = || {
        values
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
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
            aligned_times(values).unwrap_or_else(|| exponential(values, 1, tolerance))
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

/// Key times that sit exactly on a grid of a power of two seconds (a reduction's
/// [`key_grid`](crate::model::ops::reduce::ReduceOptions::key_grid)) through the exponential
/// filter with the fewest bits that keep them exact and make each time a whole number of
/// 256 steps: the codec's lowest byte lane is then zero throughout and the next holds the
/// grid index, whose deltas take a few bits. `None` when no such bits exist.
fn aligned_times(values: &[f32]) -> Option<Packed> {
    // The coarsest grid of 2^-k s every time sits on, and the bits whose step is 1/256 of it:
    // the largest time's binary exponent plus k plus 8, give or take the filter's rounding.
    let k = (0..=16).find(|&k| {
        let scale = f64::from(1u32 << k);
        values.iter().all(|&t| (t as f64 * scale).fract() == 0.0)
    })?;
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs() as f64));
    let exponent = if largest > 0.0 {
        largest.log2().floor() as i32 + 1
    } else {
        0
    };
    let guess = exponent + k + 9;
    (guess - 2..=guess + 1)
        .filter(|b| (1..=24).contains(b))
        .find_map(|bits| {
            let filtered = filter_exponential(values, 1, bits);
            if filtered.chunks_exact(4).any(|b| b[0] != 0) {
                return None;
            }
            let bytes = unfilter(&filtered, 4, Filter::Exponential);
            let exact = bytes.chunks_exact(4).zip(values).all(|(b, v)| {
                f32::from_le_bytes([b[0], b[1], b[2], b[3]]).to_bits() == v.to_bits()
            });
            exact.then_some(Packed {
                bytes,
                codec: Some((filtered, 4, Filter::Exponential)),
                integers: None,
            })
        })
}

/// `values` through the exponential filter with the fewest bits that keep every value within
/// `tolerance` (24 when it is 0).
fn exponential(values: &[f32], n: usize, tolerance: f64) -> Packed {
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs() as f64));
    let first = if tolerance > 0.0 && largest > 0.0 {
        ((largest / tolerance).log2().ceil() as i32 + 1).clamp(1, 24)
    } else {
        24
    };
    let mut bits = first;
    loop {
        let filtered = filter_exponential(values, n, bits);
        let bytes = unfilter(&filtered, n * 4, Filter::Exponential);
        let off = bytes
            .chunks_exact(4)
            .zip(values)
            .map(|(b, &v)| (f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64 - v as f64).abs())
            .fold(0.0, f64::max);
        let increasing = n > 1
            || bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .is_sorted_by(|a, b| a < b);
        if bits >= 24 || (off <= tolerance && increasing) {
            return Packed {
                bytes,
                codec: Some((filtered, n * 4, Filter::Exponential)),
                integers: None,
            };
        }
        bits += 1;
    }
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

    #[test]
    fn times_stay_exact_and_vectors_keep_their_bound() {
        let packing = Packing {
            quantize: true,
            meshopt: true,
            fallback: false,
            float_error: 0.001,
            rotation_bits: 0,
            rotation_error: 0.0,
            time_error: 0.0,
        };
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

    #[test]
    fn grid_times_are_stored_exactly_as_whole_units_of_256_steps() {
        let packing = Packing {
            meshopt: true,
            ..Packing::default()
        };
        // Keys on a 1/32 s grid with irregular gaps, as a grid reduction keeps them.
        let mut g = 0u32;
        let grid: Vec<f32> = (0..2000)
            .map(|k| {
                g += 1 + (k * 7 % 5);
                g as f32 / 32.0
            })
            .collect();
        let p = pack(&grid, 1, Role::Input, &packing);
        assert_eq!(f32s(&p.bytes), grid, "exact");
        let (filtered, stride, filter) = p.codec.clone().unwrap();
        assert_eq!((stride, filter), (4, Filter::Exponential));
        assert!(filtered.chunks_exact(4).all(|b| b[0] == 0), "low byte zero");
        // The same keys at 30 fps frame times are not on any grid: more bytes compressed.
        let frames: Vec<f32> = grid.iter().map(|t| (t * 32.0) / 30.0).collect();
        let q = pack(&frames, 1, Role::Input, &packing);
        let size = |p: &Packed| {
            let (bytes, stride, _) = p.codec.as_ref().unwrap();
            super::super::codec::encode_attributes(bytes, *stride).len()
        };
        assert!(
            size(&p) * 2 < size(&q),
            "{} vs {} bytes",
            size(&p),
            size(&q)
        );
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
