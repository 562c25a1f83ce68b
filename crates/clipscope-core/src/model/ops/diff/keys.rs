//! Which keys of a track were added, removed or moved: one merge of the two sorted time lists.
//!
//! Keys whose times are within the time tolerance are the same key. Between two such anchors,
//! the old version's leftover keys and the new version's are paired in order as moved keys;
//! what is left over after that was removed or added.

/// The keys of two versions of a track, aligned by time.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Alignment {
    /// Times of the keys only the new version has.
    pub added: Vec<f32>,
    /// Times of the keys only the old version has.
    pub removed: Vec<f32>,
    /// Old and new times of keys that moved.
    pub moved: Vec<(f32, f32)>,
}

impl Alignment {
    /// True when every key is where it was.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.moved.is_empty()
    }
}

/// Aligns the key times `old` and `new` (ascending, as valid tracks have them; unsorted times
/// are aligned all the same, in file order) with keys at most `tolerance` seconds apart taken
/// as the same key.
pub(crate) fn align(old: &[f32], new: &[f32], tolerance: f64) -> Alignment {
    let mut out = Alignment::default();
    let (mut gone, mut came): (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        let (a, b) = (old[i] as f64, new[j] as f64);
        if a == b || (a - b).abs() <= tolerance {
            settle(&mut out, &mut gone, &mut came);
            i += 1;
            j += 1;
        } else if a < b || b.is_nan() {
            gone.push(old[i]);
            i += 1;
        } else {
            came.push(new[j]);
            j += 1;
        }
    }
    gone.extend_from_slice(&old[i..]);
    came.extend_from_slice(&new[j..]);
    settle(&mut out, &mut gone, &mut came);
    out
}

/// Files the keys left over between two anchors: paired in order as moved, the rest removed
/// or added.
fn settle(out: &mut Alignment, gone: &mut Vec<f32>, came: &mut Vec<f32>) {
    let pairs = gone.len().min(came.len());
    out.moved
        .extend(gone.iter().copied().zip(came.iter().copied()).take(pairs));
    out.removed.extend_from_slice(&gone[pairs..]);
    out.added.extend_from_slice(&came[pairs..]);
    gone.clear();
    came.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_times_align_exactly() {
        assert!(align(&[0.0, 0.5, 1.0], &[0.0, 0.5, 1.0], 0.0).is_empty());
        assert!(align(&[], &[], 0.0).is_empty());
    }

    #[test]
    fn added_removed_and_moved_keys_are_told_apart() {
        let a = align(&[0.0, 0.5, 1.0, 2.0], &[0.0, 0.6, 1.0, 1.5, 2.0, 3.0], 0.0);
        assert_eq!(a.moved, [(0.5, 0.6)]);
        assert_eq!(a.added, [1.5, 3.0]);
        assert!(a.removed.is_empty());
        let b = align(&[0.0, 0.5, 1.0], &[0.0, 1.0], 0.0);
        assert_eq!(b.removed, [0.5]);
        assert!(b.added.is_empty() && b.moved.is_empty());
    }

    #[test]
    fn noise_within_the_tolerance_is_the_same_key() {
        assert!(align(&[0.0, 0.5], &[0.0, 0.500_001], 1e-5).is_empty());
        assert_eq!(align(&[0.0, 0.5], &[0.0, 0.500_1], 1e-5).moved.len(), 1);
    }

    #[test]
    fn a_resample_only_adds_keys() {
        let old: Vec<f32> = (0..=30).map(|k| k as f32 / 30.0).collect();
        let new: Vec<f32> = (0..=60).map(|k| k as f32 / 60.0).collect();
        let a = align(&old, &new, 1e-6);
        assert_eq!(a.added.len(), 30);
        assert!(a.removed.is_empty() && a.moved.is_empty());
    }

    #[test]
    fn nan_times_do_not_hang_or_panic() {
        let a = align(&[f32::NAN, 1.0], &[0.0, f32::NAN], 0.0);
        assert_eq!(a.moved.len() + a.added.len() + a.removed.len(), 2);
    }
}
