//! Which clip of the new version is which clip of the old one, and which track which track:
//! through maps, never by searching one list for every item of the other.
//!
//! Clips pair by name first (repeated names in file order). A clip left over on one side pairs
//! with one left over on the other that has the same content (a rename): candidates share the
//! same track names and key counts, and a candidate is confirmed by diffing it (at most
//! [`CANDIDATES`] per clip, so many look-alike clips stay linear). When exactly one clip is left
//! on each side and they animate mostly the same properties, they are the same clip renamed
//! and edited. Tracks pair by name, then by what they animate (`.bones[hip].position` and
//! `hip.position` are the same joint's position, as a conversion between formats writes them),
//! and a track left over pairs with one left over on the other side whose keys and values are
//! the same bit for bit (a renamed property or bone).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

use crate::model::binding::parse_track_name;
use crate::model::{Clip, Track, Values};

/// How many same-looking clips a leftover clip is diffed against, at most.
const CANDIDATES: usize = 8;

/// A clip of the old version, of the new one, or of both (old index, new index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClipPair {
    /// The same clip in both versions.
    Both(usize, usize),
    /// Only in the new version.
    Added(usize),
    /// Only in the old version.
    Removed(usize),
}

/// A track of the old clip, of the new one, or of both (old index, new index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrackPair {
    /// The same track in both versions.
    Both(usize, usize),
    /// Only in the new version.
    Added(usize),
    /// Only in the old version.
    Removed(usize),
}

/// Pairs `old`'s clips with `new`'s: pairs in the new version's order, then added clips, then
/// removed ones in the old version's order. `same(a, b)` says whether old clip `a` and new clip
/// `b` hold the same content but for their names (what confirms a rename).
pub(crate) fn pair_clips(
    old: &[Clip],
    new: &[Clip],
    same: impl Fn(usize, usize) -> bool,
) -> Vec<ClipPair> {
    let mut old_of_new: Vec<Option<usize>> = by_name(
        old.iter().map(|c| c.name.as_str()),
        new.iter().map(|c| c.name.as_str()),
    );
    let mut taken = vec![false; old.len()];
    for a in old_of_new.iter().flatten() {
        taken[*a] = true;
    }
    // Renames: leftovers with the same look, confirmed by content.
    let mut looks: HashMap<u64, Vec<usize>> = HashMap::new();
    for (a, c) in old.iter().enumerate().filter(|(a, _)| !taken[*a]) {
        looks.entry(look(c)).or_default().push(a);
    }
    for (b, slot) in old_of_new.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let Some(candidates) = looks.get_mut(&look(&new[b])) else {
            continue;
        };
        if let Some(k) = candidates.iter().take(CANDIDATES).position(|&a| same(a, b)) {
            let a = candidates.remove(k);
            taken[a] = true;
            *slot = Some(a);
        }
    }
    // One clip left on each side, animating mostly the same properties: renamed and edited.
    let left_old: Vec<usize> = (0..old.len()).filter(|&a| !taken[a]).collect();
    let left_new: Vec<usize> = (0..new.len())
        .filter(|&b| old_of_new[b].is_none())
        .collect();
    if let ([a], [b]) = (left_old.as_slice(), left_new.as_slice())
        && mostly_shared(&old[*a], &new[*b])
    {
        old_of_new[*b] = Some(*a);
        taken[*a] = true;
    }
    let mut out: Vec<ClipPair> = old_of_new
        .iter()
        .enumerate()
        .filter_map(|(b, a)| a.map(|a| ClipPair::Both(a, b)))
        .collect();
    out.extend(
        old_of_new
            .iter()
            .enumerate()
            .filter(|(_, a)| a.is_none())
            .map(|(b, _)| ClipPair::Added(b)),
    );
    out.extend((0..old.len()).filter(|&a| !taken[a]).map(ClipPair::Removed));
    out
}

/// Pairs the tracks of two versions of a clip: pairs and added tracks in the new clip's order,
/// then removed ones in the old clip's order.
pub(crate) fn pair_tracks(old: &Clip, new: &Clip) -> Vec<TrackPair> {
    let mut old_of_new = by_name(
        old.tracks.iter().map(|t| t.name.as_str()),
        new.tracks.iter().map(|t| t.name.as_str()),
    );
    let mut taken = vec![false; old.tracks.len()];
    for a in old_of_new.iter().flatten() {
        taken[*a] = true;
    }
    // The same binding spelled another way.
    let mut bindings: HashMap<(String, String, Option<String>), VecDeque<usize>> = HashMap::new();
    for (a, t) in old.tracks.iter().enumerate().filter(|(a, _)| !taken[*a]) {
        if let Some(key) = binding(&t.name) {
            bindings.entry(key).or_default().push_back(a);
        }
    }
    for (b, slot) in old_of_new.iter_mut().enumerate() {
        if slot.is_none()
            && let Some(key) = binding(&new.tracks[b].name)
            && let Some(a) = bindings.get_mut(&key).and_then(VecDeque::pop_front)
        {
            taken[a] = true;
            *slot = Some(a);
        }
    }
    pair_root_with_node(old, new, &mut old_of_new, &mut taken);
    let mut contents: HashMap<u64, VecDeque<usize>> = HashMap::new();
    for (a, t) in old.tracks.iter().enumerate().filter(|(a, _)| !taken[*a]) {
        contents.entry(content(t)).or_default().push_back(a);
    }
    for (b, slot) in old_of_new.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let t = &new.tracks[b];
        if let Some(queue) = contents.get_mut(&content(t))
            && let Some(k) = queue.iter().position(|&a| same_keys(&old.tracks[a], t))
            && let Some(a) = queue.remove(k)
        {
            taken[a] = true;
            *slot = Some(a);
        }
    }
    let mut out: Vec<TrackPair> = old_of_new
        .iter()
        .enumerate()
        .map(|(b, a)| match a {
            Some(a) => TrackPair::Both(*a, b),
            None => TrackPair::Added(b),
        })
        .collect();
    out.extend(
        (0..old.tracks.len())
            .filter(|&a| !taken[a])
            .map(TrackPair::Removed),
    );
    out
}

/// Pairs a track on the root (`.morphTargetInfluences[smile]`) with the one track left on the
/// other side that names a node for the same property and index
/// (`face.morphTargetInfluences[smile]`): the file that names the node made the other's root
/// object one (a glTF file's mesh node for a three.js clip). Only a pairing that is the one
/// candidate on both sides is made.
fn pair_root_with_node(
    old: &Clip,
    new: &Clip,
    old_of_new: &mut [Option<usize>],
    taken: &mut [bool],
) {
    type Key = (String, Option<String>);
    // The untaken tracks of each side by property, with whether each is on the root.
    let property = |name: &str| -> Option<(Key, bool)> {
        let path = parse_track_name(name).ok()?;
        let key = (path.property_name.clone(), path.property_index.clone());
        Some((key, path.animated_node().is_none()))
    };
    let mut olds: HashMap<Key, Vec<(usize, bool)>> = HashMap::new();
    for (a, t) in old.tracks.iter().enumerate().filter(|(a, _)| !taken[*a]) {
        if let Some((key, root)) = property(&t.name) {
            olds.entry(key).or_default().push((a, root));
        }
    }
    if olds.is_empty() {
        return;
    }
    let mut news: HashMap<Key, Vec<(usize, bool)>> = HashMap::new();
    for (b, _) in old_of_new.iter().enumerate().filter(|(_, a)| a.is_none()) {
        if let Some((key, root)) = property(&new.tracks[b].name) {
            news.entry(key).or_default().push((b, root));
        }
    }
    for (key, list) in news {
        if let ([(b, new_root)], Some([(a, old_root)])) =
            (list.as_slice(), olds.get(&key).map(Vec::as_slice))
            && new_root != old_root
        {
            taken[*a] = true;
            old_of_new[*b] = Some(*a);
        }
    }
}

/// What a track animates: its node (the bone of `.bones[name]`), property and property index;
/// `None` for a name three.js cannot parse or one on the root.
pub(crate) fn binding(name: &str) -> Option<(String, String, Option<String>)> {
    let path = parse_track_name(name).ok()?;
    let (property, index) = (path.property_name.clone(), path.property_index.clone());
    Some((path.animated_node()?, property, index))
}

/// For each name of `new`, the index of the same name in `old` (a repeated name pairs in
/// order).
fn by_name<'a>(
    old: impl Iterator<Item = &'a str>,
    new: impl Iterator<Item = &'a str>,
) -> Vec<Option<usize>> {
    let mut index: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (a, name) in old.enumerate() {
        index.entry(name).or_default().push_back(a);
    }
    new.map(|name| index.get_mut(name).and_then(VecDeque::pop_front))
        .collect()
}

/// What a clip looks like without reading its values: its track names and key counts.
fn look(clip: &Clip) -> u64 {
    let mut tracks: Vec<(&str, usize)> = clip
        .tracks
        .iter()
        .map(|t| (t.name.as_str(), t.len()))
        .collect();
    tracks.sort_unstable();
    let mut h = DefaultHasher::new();
    tracks.hash(&mut h);
    h.finish()
}

/// Whether two clips share at least half the track names of the larger.
fn mostly_shared(a: &Clip, b: &Clip) -> bool {
    let names: std::collections::HashSet<&str> = a.tracks.iter().map(|t| t.name.as_str()).collect();
    let shared = b
        .tracks
        .iter()
        .filter(|t| names.contains(t.name.as_str()))
        .count();
    let larger = a.tracks.len().max(b.tracks.len());
    larger > 0 && shared * 2 >= larger
}

/// A hash of a track's kind, interpolation, key times and values (not its name).
fn content(track: &Track) -> u64 {
    let mut h = DefaultHasher::new();
    track.kind.hash(&mut h);
    track.interpolation.hash(&mut h);
    for t in &track.times {
        t.to_bits().hash(&mut h);
    }
    match &track.values {
        Values::Numbers(v) => v.iter().for_each(|x| x.to_bits().hash(&mut h)),
        Values::Bools(v) => v.hash(&mut h),
        Values::Strings(v) => v.hash(&mut h),
    }
    h.finish()
}

/// Whether two tracks have the same kind, interpolation, keys and handles (names aside).
fn same_keys(a: &Track, b: &Track) -> bool {
    let mut renamed = a.clone();
    renamed.name = b.name.clone();
    renamed.muted = b.muted;
    renamed.extras = b.extras.clone();
    renamed == *b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    /// Whether two clips hold the same tracks (the test's stand-in for the clip diff).
    fn same_tracks<'a>(old: &'a [Clip], new: &'a [Clip]) -> impl Fn(usize, usize) -> bool + 'a {
        move |a, b| old[a].tracks == new[b].tracks
    }

    fn clip(name: &str, tracks: &[(&str, f32)]) -> Clip {
        Clip::new(
            name,
            1.0,
            tracks
                .iter()
                .map(|(n, x)| Track::numeric(*n, TrackKind::Number, vec![0.0, 1.0], vec![0.0, *x]))
                .collect(),
        )
    }

    #[test]
    fn clips_pair_by_name_then_by_content() {
        let old = [
            clip("walk", &[("a.x", 1.0)]),
            clip("run", &[("a.x", 2.0)]),
            clip("idle", &[("b.x", 3.0)]),
        ];
        let new = [
            clip("sprint", &[("a.x", 2.0)]),
            clip("walk", &[("a.x", 1.5)]),
            clip("wave", &[("c.x", 1.0)]),
        ];
        let pairs = pair_clips(&old, &new, same_tracks(&old, &new));
        assert_eq!(
            pairs,
            [
                ClipPair::Both(1, 0),
                ClipPair::Both(0, 1),
                ClipPair::Added(2),
                ClipPair::Removed(2)
            ]
        );
    }

    #[test]
    fn the_last_clip_left_on_each_side_is_renamed_and_edited() {
        let old = [clip("Take 001", &[("a.x", 1.0), ("b.x", 1.0)])];
        let new = [clip("walk", &[("a.x", 1.0), ("b.x", 2.0)])];
        assert_eq!(
            pair_clips(&old, &new, same_tracks(&old, &new)),
            [ClipPair::Both(0, 0)]
        );
        let unrelated = [clip("wave", &[("c.x", 1.0)])];
        assert_eq!(
            pair_clips(&old, &unrelated, same_tracks(&old, &unrelated)),
            [ClipPair::Added(0), ClipPair::Removed(0)]
        );
    }

    #[test]
    fn tracks_pair_by_what_they_animate() {
        let old = clip(
            "walk",
            &[(".bones[hip].position", 1.0), ("cube.scale", 2.0)],
        );
        let new = clip("walk", &[("hip.position", 1.5), ("cube.scale", 2.0)]);
        assert_eq!(
            pair_tracks(&old, &new),
            [TrackPair::Both(0, 0), TrackPair::Both(1, 1)]
        );
    }

    #[test]
    fn a_root_track_pairs_with_the_one_naming_a_node_for_the_same_property() {
        let old = clip(
            "fly",
            &[
                (".morphTargetInfluences[wingUp]", 1.0),
                (".morphTargetInfluences[wingDown]", 1.0),
                (".position", 1.0),
            ],
        );
        let new = clip(
            "fly",
            &[
                ("bird.morphTargetInfluences[wingDown]", 0.5),
                ("bird.morphTargetInfluences[wingUp]", 0.5),
                ("bird.position", 0.5),
                ("tail.position", 0.5),
            ],
        );
        // Two node tracks for one root position: no guess.
        assert_eq!(
            pair_tracks(&old, &new),
            [
                TrackPair::Both(1, 0),
                TrackPair::Both(0, 1),
                TrackPair::Added(2),
                TrackPair::Added(3),
                TrackPair::Removed(2)
            ]
        );
    }

    #[test]
    fn tracks_pair_by_name_then_by_identical_keys() {
        let old = clip("walk", &[("a.x", 1.0), ("b.x", 2.0), ("gone.x", 5.0)]);
        let new = clip("walk", &[("b.x", 2.0), ("renamed.x", 1.0), ("new.x", 7.0)]);
        assert_eq!(
            pair_tracks(&old, &new),
            [
                TrackPair::Both(1, 0),
                TrackPair::Both(0, 1),
                TrackPair::Added(2),
                TrackPair::Removed(2)
            ]
        );
    }
}
