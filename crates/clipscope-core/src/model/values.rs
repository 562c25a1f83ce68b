//! Keyframe values: a flat array with `value_size` entries per key, like three.js's `values`.

/// The flat value array of a track. Numeric kinds hold `f32` (three.js's `Float32Array`);
/// bool and string tracks hold plain values (three.js's plain `Array`).
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Values of number, vector, color and quaternion tracks.
    Numbers(Vec<f32>),
    /// Values of bool tracks.
    Bools(Vec<bool>),
    /// Values of string tracks.
    Strings(Vec<String>),
}

impl Values {
    /// Number of entries (keys × value size).
    pub fn len(&self) -> usize {
        match self {
            Values::Numbers(v) => v.len(),
            Values::Bools(v) => v.len(),
            Values::Strings(v) => v.len(),
        }
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The numeric entries, or `None` for bool and string values.
    pub fn as_numbers(&self) -> Option<&[f32]> {
        match self {
            Values::Numbers(v) => Some(v),
            _ => None,
        }
    }

    /// Mutable numeric entries, or `None` for bool and string values.
    pub fn as_numbers_mut(&mut self) -> Option<&mut Vec<f32>> {
        match self {
            Values::Numbers(v) => Some(v),
            _ => None,
        }
    }

    /// A copy of the entries in `range` (like `values.slice(a, b)`).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Values {
        match self {
            Values::Numbers(v) => Values::Numbers(v[range].to_vec()),
            Values::Bools(v) => Values::Bools(v[range].to_vec()),
            Values::Strings(v) => Values::Strings(v[range].to_vec()),
        }
    }

    /// Whether entry `a` differs from entry `b` with JavaScript's `!==` (NaN differs from itself,
    /// `-0` equals `0`).
    pub fn differs(&self, a: usize, b: usize) -> bool {
        match self {
            Values::Numbers(v) => v[a] != v[b],
            Values::Bools(v) => v[a] != v[b],
            Values::Strings(v) => v[a] != v[b],
        }
    }

    /// Copies `count` entries from `src` to `dst` within the same array (like `copyWithin`).
    pub fn copy_within(&mut self, src: usize, dst: usize, count: usize) {
        match self {
            Values::Numbers(v) => v.copy_within(src..src + count, dst),
            Values::Bools(v) => v.copy_within(src..src + count, dst),
            Values::Strings(v) => {
                for k in 0..count {
                    v[dst + k] = v[src + k].clone();
                }
            }
        }
    }

    /// Keeps only the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Values::Numbers(v) => v.truncate(len),
            Values::Bools(v) => v.truncate(len),
            Values::Strings(v) => v.truncate(len),
        }
    }

    /// Appends the entries `range` of `other` (which must be the same variant).
    pub fn extend_from(&mut self, other: &Values, range: std::ops::Range<usize>) {
        match (self, other) {
            (Values::Numbers(a), Values::Numbers(b)) => a.extend_from_slice(&b[range]),
            (Values::Bools(a), Values::Bools(b)) => a.extend_from_slice(&b[range]),
            (Values::Strings(a), Values::Strings(b)) => a.extend_from_slice(&b[range]),
            _ => panic!("Values::extend_from: mismatched value kinds"),
        }
    }

    /// Inserts the entries of `other` (which must be the same variant) before entry `at`.
    pub fn insert_from(&mut self, at: usize, other: &Values) {
        match (self, other) {
            (Values::Numbers(a), Values::Numbers(b)) => drop(a.splice(at..at, b.iter().copied())),
            (Values::Bools(a), Values::Bools(b)) => drop(a.splice(at..at, b.iter().copied())),
            (Values::Strings(a), Values::Strings(b)) => drop(a.splice(at..at, b.iter().cloned())),
            _ => panic!("Values::insert_from: mismatched value kinds"),
        }
    }

    /// An empty array of the same variant.
    pub fn empty_like(&self) -> Values {
        match self {
            Values::Numbers(_) => Values::Numbers(Vec::new()),
            Values::Bools(_) => Values::Bools(Vec::new()),
            Values::Strings(_) => Values::Strings(Vec::new()),
        }
    }
}
