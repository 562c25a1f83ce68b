//! Selected key components grouped by track: what key edits work with.
//!
//! A selection is a list of [`KeyRef`]s (one component of one key). Time edits move whole keys,
//! value edits single components, so each track gets both: its sorted unique key indices and
//! its sorted unique `(key, component)` pairs.

use std::collections::BTreeMap;

use crate::KeyRef;

/// Key refs grouped by track: `(sorted unique key indices, (key, component) pairs)`.
pub(super) type ByTrack = BTreeMap<usize, (Vec<usize>, Vec<(usize, usize)>)>;

/// Groups `keys` by track (see the module docs).
pub(super) fn group_by_track(keys: &[KeyRef]) -> ByTrack {
    let mut map: ByTrack = BTreeMap::new();
    for k in keys {
        let e = map.entry(k.track).or_default();
        e.0.push(k.key);
        e.1.push((k.key, k.component));
    }
    for (whole, parts) in map.values_mut() {
        whole.sort_unstable();
        whole.dedup();
        parts.sort_unstable();
        parts.dedup();
    }
    map
}

/// How many whole keys the groups hold.
pub(super) fn count_keys(by_track: &ByTrack) -> usize {
    by_track.values().map(|(w, _)| w.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::test_support::key;

    #[test]
    fn keys_group_by_track_once_each() {
        let grouped = group_by_track(&[key(2, 1, 0), key(0, 3, 1), key(2, 1, 2), key(2, 0, 0)]);
        assert_eq!(grouped[&0], (vec![3], vec![(3, 1)]));
        assert_eq!(grouped[&2], (vec![0, 1], vec![(0, 0), (1, 0), (1, 2)]));
        assert_eq!(count_keys(&grouped), 3);
    }
}
