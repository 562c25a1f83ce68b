//! How `reduce` packs a glTF output (`--quantize`, `--meshopt`): the quaternion bits from the
//! budget; without meshopt, straight segments tried against curves (each written, read back
//! and measured like any reduction, the smaller file within the budget kept); text formats get
//! fewer decimals where the budget allows; and the report's sizes and per-track storage.

use std::collections::{BTreeMap, HashMap};

use clipscope_core::formats::{self, Document, TrackStorage, WriteOptions};
use clipscope_core::model::ops::reduce::{CurveFit, ReduceOptions};

use super::{Attempt, Pass, Target};

/// The share of the budget a quaternion's rounding may use at a metre from its joint.
const ROTATION_SHARE: f64 = 0.2;

/// The quaternion filter's bits for `budget` (in metres): enough that a component's rounding
/// turns a point a metre away by about a fifth of the budget. (On the benchmark's takes one
/// bit more or fewer never made a smaller file within the budget at 1, 2 or 5 cm.)
pub(super) fn rotation_bits(budget: f64) -> u8 {
    let bits = (1.0 / (ROTATION_SHARE * budget)).log2().ceil() + 1.0;
    bits.clamp(5.0, 15.0) as u8
}

/// The smallest of `first` and the reductions with the other writer choices that keep the
/// budget: without meshopt, straight segments instead of curves. (With meshopt `first` has
/// straight segments already, at the budget's quaternion bits.)
pub(super) fn smallest(
    target: &Target<'_>,
    doc: &Document,
    options: &ReduceOptions,
    first: Attempt,
) -> Result<Attempt, String> {
    if target.write.packing.meshopt || options.curves == CurveFit::Linear {
        return Ok(first);
    }
    let o = ReduceOptions {
        curves: CurveFit::Linear,
        ..options.clone()
    };
    let a = target.attempt(doc, &o, Pass::Fit)?;
    Ok(if a.within && a.bytes.len() < first.bytes.len() {
        a
    } else {
        first
    })
}

/// Decimals whose rounding moves a number by at most 2% of `budget`.
pub(super) fn decimals(budget: f64) -> u32 {
    (-(DIGITS_SHARE * budget).log10()).ceil().clamp(0.0, 17.0) as u32
}

/// Twice the share of the budget rounding a number to [`decimals`] may use.
const DIGITS_SHARE: f64 = 0.04;

/// `first`, or the same reduction written with fewer decimals when the format writes numbers
/// as text and the rounding keeps the budget (measured on the file as written, like any
/// reduction): the decimals for 2% of the budget, then one fewer. Nothing changes when
/// `--precision` was given.
pub(super) fn fewer_digits(
    target: &Target<'_>,
    doc: &Document,
    options: &ReduceOptions,
    first: Attempt,
) -> Result<Attempt, String> {
    if target.write.precision.is_some() {
        return Ok(first);
    }
    let d = decimals(options.max_error);
    let rounded = WriteOptions {
        precision: Some(d),
        ..target.write
    };
    // A format that keeps its numbers in binary (glTF) ignores the precision.
    if formats::write_bytes(&first.doc, &rounded).len() >= first.bytes.len() {
        return Ok(first);
    }
    let mut best = first;
    for p in [d, d.saturating_sub(1)] {
        let mut t = *target;
        t.write.precision = Some(p);
        let a = t.attempt(doc, options, Pass::Fit)?;
        if !(a.within && a.bytes.len() < best.bytes.len()) {
            break;
        }
        best = a;
    }
    Ok(best)
}

/// The input's and the output's sizes, and how the output stores each track (glTF).
pub(super) struct Sizes {
    /// The input file's bytes.
    pub(super) before: u64,
    /// The output's bytes.
    pub(super) after: u64,
    /// How each track of the output is stored, by clip and track name (empty for formats
    /// other than glTF).
    pub(super) storage: HashMap<(String, String), TrackStorage>,
}

impl Sizes {
    /// The storage of track `track` of clip `clip`, if the output says.
    pub(super) fn of(&self, clip: &str, track: &str) -> Option<&TrackStorage> {
        self.storage.get(&(clip.to_string(), track.to_string()))
    }

    /// The input accessors (each counted once, however many tracks share it) and their bytes.
    pub(super) fn times(&self) -> (usize, usize) {
        let inputs: HashMap<usize, usize> = self.storage.values().map(|s| s.times).collect();
        (inputs.len(), inputs.values().sum())
    }

    /// The tracks grouped by how they are stored: `(interpolation, numbers, filter)` with the
    /// count of tracks and their bytes, most bytes first.
    pub(super) fn groups(&self) -> Vec<(String, usize, usize)> {
        let mut groups: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for s in self.storage.values() {
            let key = format!(
                "{} {}{}",
                s.interpolation,
                s.components,
                s.meshopt
                    .as_ref()
                    .map(|f| format!(", meshopt {f}"))
                    .unwrap_or_default()
            );
            let g = groups.entry(key).or_default();
            g.0 += 1;
            g.1 += s.bytes;
        }
        let mut out: Vec<(String, usize, usize)> =
            groups.into_iter().map(|(k, (n, b))| (k, n, b)).collect();
        out.sort_by_key(|g| std::cmp::Reverse(g.2));
        out
    }
}
