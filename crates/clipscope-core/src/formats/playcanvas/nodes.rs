//! From a clip's tracks to PlayCanvas nodes: which tracks a node holds, baking what keys
//! cannot carry, and one time line per node.
//!
//! * A track named `NODE.position`, `NODE.quaternion` or `NODE.scale` (a vector of 3, a
//!   quaternion, a vector of 3) animates node `NODE`; `.bones[NODE].…` does too (the engine binds
//!   nodes by name, and a skinned three.js mesh finds bones by name the same way). Anything else
//!   (morph weights, materials, `.rotation` Euler tracks, booleans) has no place in the format:
//!   [`unwritable`] names why; the writer leaves such tracks out and reports them. A
//!   2-component position or scale (a Lottie layer) is padded to 3 (z = 0, scale z = 1).
//! * Tracks of the same node go together; a second track for a channel the node already has
//!   starts another node of the same name (a file may repeat a node name, and reads back so).
//! * PlayCanvas keys are always linear (position/scale lerp, rotation slerp), and every key of
//!   a node holds every channel that is not in `defaults` (the engine's parser throws
//!   otherwise): [`node_keys`] makes one time line per node that the engine's
//!   `Skeleton` plays as the model plays the tracks (steps, curves and the clip's ends
//!   included).
//! * A channel the node has no track for is constant: the skeleton's rest value for a bone of
//!   that name, else the identity (PlayCanvas writes every channel of a node it animates).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::formats::Tolerance;
use crate::formats::adapt;
use crate::formats::fidelity::fit::{Channel, Encode, fit_group, linear_times};
use crate::formats::fidelity::{Player, Quantity};
use crate::formats::keys::{Keys, Sampling};
use crate::model::interpolant::Sampler;
use crate::model::ops::QUATERNION_LENGTH_TOLERANCE;
use crate::model::{Clip, Interpolation, Skeleton, Track, TrackKind};

/// The channels of a node: track property, kind and values per key.
pub(crate) const PROPERTIES: [(&str, TrackKind, usize); 3] = [
    ("position", TrackKind::Vector, 3),
    ("quaternion", TrackKind::Quaternion, 4),
    ("scale", TrackKind::Vector, 3),
];

/// The node a track animates and its channel (0 position, 1 rotation, 2 scale), from its name.
pub(crate) fn node_channel(name: &str) -> Option<(&str, usize)> {
    PROPERTIES
        .iter()
        .enumerate()
        .find_map(|(c, (property, ..))| {
            let node = name.strip_suffix(*property)?.strip_suffix('.')?;
            let node = node
                .strip_prefix(".bones[")
                .and_then(|n| n.strip_suffix(']'))
                .unwrap_or(node);
            Some((node, c))
        })
}

/// Why `track` cannot be written as PlayCanvas keys, if it cannot.
pub(crate) fn unwritable(track: &Track) -> Option<String> {
    let Some((_, channel)) = node_channel(&track.name) else {
        return Some("not a NODE.position, .quaternion or .scale track".into());
    };
    let (_, kind, size) = PROPERTIES[channel];
    if track.kind != kind {
        return Some(format!(
            "a {} track where PlayCanvas keys hold a {}",
            track.kind.type_name(),
            kind.type_name()
        ));
    }
    let padded = channel != 1 && track.value_size() == 2;
    if !track.is_empty() && track.value_size() != size && !padded {
        return Some(format!(
            "{} values per key where PlayCanvas keys hold {size}",
            track.value_size()
        ));
    }
    None
}

/// A node's channel tracks (position, rotation, scale), each with its index in the clip.
type Slots<'a> = [Option<(usize, &'a Track)>; 3];

/// One node ready to write: its name, key times and each channel's values at those times.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NodeKeys {
    /// The node's name.
    pub name: String,
    /// The key times, in order.
    pub times: Vec<f32>,
    /// Per channel, `times.len()` values of 3 (position, scale) or 4 (quaternion) numbers.
    pub values: [Vec<f32>; 3],
    /// Which channels had no track and were filled with a rest or identity value.
    pub filled: [bool; 3],
    /// Per channel, the index in the clip of the track it was written from.
    pub tracks: [Option<usize>; 3],
}

impl NodeKeys {
    /// Channel `c`'s value at key `k`.
    pub(crate) fn value(&self, c: usize, k: usize) -> &[f32] {
        let size = PROPERTIES[c].2;
        &self.values[c][k * size..(k + 1) * size]
    }

    /// Whether channel `c` has the same bits at every key.
    pub(crate) fn constant(&self, c: usize) -> bool {
        let size = PROPERTIES[c].2;
        let first = &self.values[c][..size.min(self.values[c].len())];
        self.values[c]
            .chunks(size)
            .all(|v| v.iter().zip(first).all(|(a, b)| a.to_bits() == b.to_bits()))
    }
}

/// What preparing a clip's nodes had to change, one human-readable line each.
pub(crate) type Notes = Vec<String>;

/// The nodes of `clip`, in the order their first track comes, and notes on what was baked,
/// filled or normalized. Tracks [`unwritable`] refuses and tracks without keys are skipped (the
/// caller reports them).
pub(crate) fn prepare(
    clip: &Clip,
    skeleton: Option<&Skeleton>,
    tolerance: &Tolerance,
    conversion: bool,
) -> (Vec<NodeKeys>, Notes) {
    let fitting = Fitting {
        tolerance,
        conversion,
        duration: clip.duration,
    };
    let mut notes = Vec::new();
    // 2-component positions and scales (Lottie layers) get z = 0 / z = 1.
    let padded: Vec<Cow<Track>> = clip
        .tracks
        .iter()
        .map(|t| match node_channel(&t.name) {
            Some((_, c)) if c != 1 && !t.is_empty() && t.value_size() == 2 => {
                Cow::Owned(adapt::pad_to_3(t, if c == 0 { 0.0 } else { 1.0 }))
            }
            _ => Cow::Borrowed(t),
        })
        .collect();
    let count = padded.iter().filter(|t| matches!(t, Cow::Owned(_))).count();
    if count > 0 {
        notes.push(format!(
            "clip '{}': {count} 2-component position/scale track(s), padded to 3 (z = 0, scale              z = 1)",
            clip.name
        ));
    }
    // Group: the first group of that name whose channel is still free. Per name, the groups
    // in order and, per channel, how many of them have it filled (channels fill in group
    // order), so each track is placed in constant time.
    let mut groups: Vec<(&str, Slots)> = Vec::new();
    let mut by_name: HashMap<&str, (Vec<usize>, [usize; 3])> = HashMap::new();
    for (index, track) in padded.iter().map(|t| &**t).enumerate() {
        if track.is_empty() || unwritable(track).is_some() {
            continue;
        }
        let Some((node, c)) = node_channel(&track.name) else {
            continue;
        };
        let (of_name, filled) = by_name.entry(node).or_default();
        match of_name.get(filled[c]) {
            Some(&g) => groups[g].1[c] = Some((index, track)),
            None => {
                let mut slots = [None; 3];
                slots[c] = Some((index, track));
                of_name.push(groups.len());
                groups.push((node, slots));
            }
        }
        filled[c] += 1;
    }

    let mut nodes = Vec::with_capacity(groups.len());
    for (name, slots) in groups {
        for (_, track) in slots.iter().flatten() {
            if track.tangents.is_some()
                && Track::resolve_interpolation(track.kind, Some(track.interpolation))
                    == Interpolation::Linear
            {
                notes.push(format!(
                    "clip '{}' track '{}': its bezier handles (unused by its linear interpolation)",
                    clip.name, track.name
                ));
            }
        }
        let owned: [Option<(usize, Cow<Track>)>; 3] =
            std::array::from_fn(|c| slots[c].map(|(i, t)| (i, Cow::Borrowed(t))));
        let (node, _, fitted) = node_keys(name, &owned, skeleton, &fitting);
        for n in fitted {
            notes.push(format!("clip '{}' node '{name}': {n}", clip.name));
        }
        let missing: Vec<&str> = (0..3)
            .filter(|&c| node.filled[c])
            .map(|c| PROPERTIES[c].0)
            .collect();
        if !missing.is_empty() {
            let from = if skeleton.is_some_and(|s| s.bones.iter().any(|b| b.name == name)) {
                "the skeleton's rest pose"
            } else {
                "the identity"
            };
            notes.push(format!(
                "clip '{}' node '{name}': no {} track(s); PlayCanvas keys set every channel, so \
                 they are written as constant defaults from {from}",
                clip.name,
                missing.join(", ")
            ));
        }
        let non_unit = node.values[1]
            .chunks(4)
            .filter(|q| {
                let len = q.iter().map(|&x| x as f64 * x as f64).sum::<f64>().sqrt();
                (len - 1.0).abs() > QUATERNION_LENGTH_TOLERANCE
            })
            .count();
        if non_unit > 0 {
            notes.push(format!(
                "clip '{}' node '{name}': {non_unit} non-unit quaternion(s), written as the \
                 rotation they stand for (Euler angles hold no length)",
                clip.name
            ));
        }
        nodes.push(node);
    }
    (nodes, notes)
}

/// The rest value of channel `c` of node `name`: the skeleton's bone of that name, else the
/// identity.
pub(crate) fn rest_value(c: usize, name: &str, skeleton: Option<&Skeleton>) -> Vec<f32> {
    let bone = skeleton.and_then(|s| s.bones.iter().find(|b| b.name == name));
    match (c, bone) {
        (0, Some(b)) => b.position.to_vec(),
        (1, Some(b)) => b.rotation.to_vec(),
        (2, Some(b)) => b.scale.to_vec(),
        (0, None) => vec![0.0; 3],
        (1, None) => vec![0.0, 0.0, 0.0, 1.0],
        _ => vec![1.0; 3],
    }
}

/// `track`'s values at sorted `times`: a key's own value where the track has a key at exactly
/// that time (the last of repeated ones, as the interpolant would pick), sampled elsewhere.
pub(crate) fn sample_at(track: &Track, times: &[f32]) -> Vec<f32> {
    let size = track.value_size();
    let own = track.values.as_numbers().unwrap_or_default();
    let sorted = track.times.is_sorted_by(|a, b| a <= b);
    let mut sampler = Sampler::new(track);
    let mut out = Vec::with_capacity(times.len() * size);
    let mut k = 0;
    for &t in times {
        if sorted {
            while k < track.times.len() && track.times[k] < t {
                k += 1;
            }
            let mut last = None;
            while k < track.times.len() && track.times[k] == t {
                last = Some(k);
                k += 1;
            }
            if let Some(j) = last {
                out.extend_from_slice(&own[j * size..(j + 1) * size]);
                continue;
            }
        }
        out.extend_from_slice(sampler.evaluate(t as f64).as_numbers().unwrap_or_default());
    }
    out
}

// One node's time line for the engine's `Skeleton`.
//
// One node's key times and values for the engine's `Skeleton`, which interpolates linearly
// (position and scale lerp, rotation `Quat.slerp`), holds every channel on every key, and
// writes a node only between its first and last key (see
// [`Player::PlayCanvasSkeleton`](crate::formats::fidelity::Player)).
//
// * Each channel's keys become linear keys the skeleton plays as the model plays the track: a
//   discrete key holds its value until one `f32` step before the next key; a repeated key time
//   (a jump) becomes the same step; smooth and bezier curves start from their keys.
// * The node's times are the union of its channels' (every key holds every channel), each
//   channel sampled there (a key's own value where it has one).
// * A document converted from another format also gets keys at 0 and at the clip's end where its
//   keys start later or end earlier (the skeleton would leave the node alone there; a node with
//   keys at one time only holds that key throughout), and its
//   channels are fitted together: keys added where the skeleton's playback strays from the
//   source by more than the tolerance (the engine's slerp averages keys closer than about
//   0.1°, and linear keys cannot hold a curve). A document read from a PlayCanvas file keeps
//   its keys as they are, unless a channel is not linear.

/// How a node's keys are made.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fitting<'a> {
    /// How closely the skeleton must follow the source.
    pub tolerance: &'a Tolerance,
    /// A conversion (not a document read from a PlayCanvas file): keys cover the clip and every
    /// channel is fitted.
    pub conversion: bool,
    /// The clip's duration, in seconds.
    pub duration: f64,
}

/// The interpolation the model plays `track` with.
fn interpolation(track: &Track) -> Interpolation {
    Track::resolve_interpolation(track.kind, Some(track.interpolation))
}

/// The node `name` from its channel tracks (`slots`: position, rotation, scale, each with its
/// index in the clip): key times, values and filled channels; how many keys were added; and a
/// note per channel whose curve was fitted.
pub(crate) fn node_keys(
    name: &str,
    slots: &[Option<(usize, Cow<Track>)>; 3],
    skeleton: Option<&Skeleton>,
    fitting: &Fitting,
) -> (NodeKeys, usize, Vec<String>) {
    let present: Vec<(usize, &Track)> = slots
        .iter()
        .enumerate()
        .filter_map(|(c, s)| s.as_ref().map(|(_, t)| (c, &**t)))
        .collect();
    let shared = present.iter().all(|(_, t)| {
        t.times.len() == present[0].1.times.len()
            && t.times
                .iter()
                .zip(&present[0].1.times)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    });
    let curved = present
        .iter()
        .any(|(_, t)| interpolation(t) != Interpolation::Linear);
    let mut times: Vec<f32> = present.iter().flat_map(|(_, t)| linear_times(t)).collect();
    // One key is copied at every time; two or more play only between the first and the last.
    let several = times.iter().any(|&t| t != times[0]);
    if fitting.conversion && several {
        let end = fitting.duration as f32;
        if times.iter().all(|&t| t > 0.0) {
            times.push(0.0);
        }
        if end.is_finite() && end > 0.0 && times.iter().all(|&t| t < end) {
            times.push(end);
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    let own = |c: usize, t: &Track| -> Vec<f32> {
        let exact = shared && !curved && !fitting.conversion;
        if exact && t.times.len() == times.len() {
            t.values.as_numbers().unwrap_or_default().to_vec()
        } else {
            let _ = c;
            sample_at(t, &times)
        }
    };
    let mut values: [Vec<f32>; 3] = std::array::from_fn(|c| match &slots[c] {
        Some((_, t)) => own(c, t),
        None => Vec::new(),
    });
    let mut added = 0;
    let mut notes = Vec::new();
    // Keys listed out of time order (a file may list them so) play in time order; keys a file
    // read lists at one time become one (a conversion fits its jumps below).
    for &(c, t) in &present {
        let channel = PROPERTIES[c].0;
        if !t.times.is_sorted_by(|a, b| a <= b) {
            notes.push(format!(
                "its {channel} keys are out of time order, written in time order"
            ));
        } else if !fitting.conversion && !t.times.is_sorted_by(|a, b| a < b) {
            notes.push(format!(
                "its {channel} keys at repeated times are written as one key each (the later \
                 value)"
            ));
        }
    }
    if fitting.conversion || curved {
        let before = times.len();
        let channels: Vec<Channel> = present
            .iter()
            .map(|&(c, t)| Channel {
                source: t,
                quantity: [Quantity::Position, Quantity::Rotation, Quantity::Scale][c],
                player: Player::PlayCanvasSkeleton,
                encode: Encode::Plain,
                keys: Keys {
                    sampling: Sampling::Linear,
                    times: times.clone(),
                    values: std::mem::take(&mut values[c]),
                    tangents: None,
                    width: PROPERTIES[c].2,
                },
            })
            .collect();
        let (fitted, more) = fit_group(channels, fitting.tolerance);
        for (keys, &(c, _)) in fitted.into_iter().zip(&present) {
            times.clone_from(&keys.times);
            values[c] = keys.values;
        }
        added = more;
        for &(c, t) in &present {
            let i = interpolation(t);
            if i != Interpolation::Linear {
                notes.push(format!(
                    "{i} interpolation, written as linear keys the engine plays as the curve \
                     ({} keys → {}, channel {})",
                    t.len(),
                    times.len(),
                    PROPERTIES[c].0
                ));
            }
        }
        let _ = before;
    }
    let mut filled = [false; 3];
    for c in 0..3 {
        if slots[c].is_none() {
            filled[c] = true;
            values[c] = rest_value(c, name, skeleton).repeat(times.len());
        }
    }
    (
        NodeKeys {
            name: name.to_string(),
            times,
            values,
            filled,
            tracks: std::array::from_fn(|c| slots[c].as_ref().map(|(i, _)| *i)),
        },
        added,
        notes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Bone;

    fn vector(name: &str, times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(name, TrackKind::Vector, times, values)
    }

    fn quat(name: &str, times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(name, TrackKind::Quaternion, times, values)
    }

    #[test]
    fn node_names_and_channels() {
        assert_eq!(node_channel("PB Pelvis.position"), Some(("PB Pelvis", 0)));
        assert_eq!(node_channel("Bone.001.quaternion"), Some(("Bone.001", 1)));
        assert_eq!(node_channel(".bones[hip].scale"), Some(("hip", 2)));
        assert_eq!(node_channel(".scale"), Some(("", 2)));
        assert_eq!(node_channel("a.rotation"), None);
        assert_eq!(node_channel("position"), None);
        assert_eq!(node_channel(".morphTargetInfluences[0]"), None);
        let bad = Track::numeric(".x", TrackKind::Number, vec![0.0], vec![0.0]);
        assert_eq!(
            unwritable(&bad).unwrap(),
            "not a NODE.position, .quaternion or .scale track"
        );
        let bad = vector("a.quaternion", vec![0.0], vec![0.0; 4]);
        assert_eq!(
            unwritable(&bad).unwrap(),
            "a vector track where PlayCanvas keys hold a quaternion"
        );
        // 2 components (a Lottie layer) are padded; 1 cannot be.
        assert_eq!(
            unwritable(&vector("a.position", vec![0.0], vec![0.0; 2])),
            None
        );
        let bad = vector("a.position", vec![0.0], vec![0.0]);
        assert_eq!(
            unwritable(&bad).unwrap(),
            "1 values per key where PlayCanvas keys hold 3"
        );
    }

    #[test]
    fn channels_with_different_times_are_sampled_at_the_union() {
        let pos = vector(
            "n.position",
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 2.0, 4.0, 6.0],
        );
        let rot = quat("n.quaternion", vec![0.5], vec![0.0, 0.0, 0.0, 1.0]);
        let clip = Clip::new("c", -1.0, vec![pos, rot]);
        let (nodes, notes) = prepare(&clip, None, &Tolerance::default(), false);
        assert_eq!(nodes.len(), 1);
        let n = &nodes[0];
        assert_eq!(n.times, [0.0, 0.5, 1.0]);
        assert_eq!(n.values[0], [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 2.0, 4.0, 6.0]);
        assert_eq!(n.values[1], [0.0, 0.0, 0.0, 1.0].repeat(3));
        assert_eq!(n.values[2], [1.0; 3].repeat(3));
        assert_eq!(n.filled, [false, false, true]);
        assert!(n.constant(1) && n.constant(2) && !n.constant(0));
        assert_eq!(
            notes,
            [
                "clip 'c' node 'n': no scale track(s); PlayCanvas keys set every channel, so they are written as constant defaults from the identity"
            ]
        );
    }

    #[test]
    fn keys_out_of_time_order_are_written_in_order_and_said_so() {
        let pos = vector(
            "n.position",
            vec![0.0, 1.0, 0.5],
            vec![0.0, 0.0, 0.0, 2.0, 4.0, 6.0, 1.0, 2.0, 3.0],
        );
        let clip = Clip::new("c", -1.0, vec![pos]);
        let (nodes, notes) = prepare(&clip, None, &Tolerance::default(), false);
        assert_eq!(nodes[0].times, [0.0, 0.5, 1.0]);
        assert_eq!(
            notes[0],
            "clip 'c' node 'n': its position keys are out of time order, written in time order"
        );
        // Two keys at one time: one key, the later value, and said so.
        let pos = vector(
            "n.position",
            vec![0.0, 0.5, 0.5, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0],
        );
        let (nodes, notes) = prepare(
            &Clip::new("c", -1.0, vec![pos]),
            None,
            &Tolerance::default(),
            false,
        );
        assert_eq!(nodes[0].times, [0.0, 0.5, 1.0]);
        assert_eq!(nodes[0].values[0][3..6], [2.0, 2.0, 2.0]);
        assert_eq!(
            notes[0],
            "clip 'c' node 'n': its position keys at repeated times are written as one key each \
             (the later value)"
        );
        // In order: nothing said.
        let pos = vector("n.position", vec![0.0, 1.0], vec![0.0; 6]);
        let (_, notes) = prepare(
            &Clip::new("c", -1.0, vec![pos]),
            None,
            &Tolerance::default(),
            false,
        );
        assert!(notes.iter().all(|n| !n.contains("time order")), "{notes:?}");
    }

    #[test]
    fn repeated_nodes_and_skeleton_rest_values() {
        let a1 = vector("a.position", vec![0.0], vec![1.0, 1.0, 1.0]);
        let b = vector(".bones[b].scale", vec![0.0], vec![2.0, 2.0, 2.0]);
        let a2 = vector("a.position", vec![0.0], vec![3.0, 3.0, 3.0]);
        let aq = quat("a.quaternion", vec![0.0], vec![0.0, 0.0, 0.0, 1.0]);
        let clip = Clip::new("c", -1.0, vec![a1, b, a2, aq]);
        let mut bone = Bone::new("b", None);
        bone.position = [0.0, 5.0, 0.0];
        let skeleton = Skeleton { bones: vec![bone] };
        let (nodes, _) = prepare(&clip, Some(&skeleton), &Tolerance::default(), false);
        let names: Vec<_> = nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "a"]);
        assert_eq!(nodes[0].filled, [false, false, true]);
        assert_eq!(nodes[2].filled, [false, true, true]);
        assert_eq!(nodes[2].values[0], [3.0; 3]);
        assert_eq!(nodes[1].values[0], [0.0, 5.0, 0.0]);
    }

    #[test]
    fn steps_and_curves_become_linear_keys_that_play_them() {
        let mut step = vector(
            "n.position",
            vec![0.0, 0.1],
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
        );
        step.interpolation = Interpolation::Discrete;
        let clip = Clip::new("c", -1.0, vec![step]);
        let (nodes, notes) = prepare(&clip, None, &Tolerance::default(), false);
        // The step: a key one f32 step before the next key holds the value until then.
        let t = 0.1f32;
        assert_eq!(nodes[0].times, [0.0, t.next_down(), t]);
        assert_eq!(nodes[0].value(0, 1), [0.0; 3]);
        assert_eq!(nodes[0].value(0, 2), [1.0; 3]);
        assert_eq!(
            notes[0],
            "clip 'c' node 'n': discrete interpolation, written as linear keys the engine plays \
             as the curve (2 keys → 3, channel position)"
        );
        // A smooth curve gets keys until the skeleton's lerp follows it.
        let mut smooth = vector(
            "n.position",
            vec![0.0, 1.0, 2.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        );
        smooth.interpolation = Interpolation::Smooth;
        let clip = Clip::new("c", 2.0, vec![smooth.clone()]);
        let (nodes, _) = prepare(&clip, None, &Tolerance::default(), true);
        let n = &nodes[0];
        assert!(n.times.len() > 10, "{}", n.times.len());
        let mut sampler = Sampler::new(&smooth);
        for w in n.times.windows(2) {
            let mid = (w[0] as f64 + w[1] as f64) / 2.0;
            let i = n.times.iter().position(|&t| t == w[0]).unwrap();
            let lerp = (n.value(0, i)[0] + n.value(0, i + 1)[0]) as f64 / 2.0;
            let want = sampler.evaluate(mid).as_numbers().unwrap()[0] as f64;
            assert!((want - lerp).abs() <= 2e-5, "at {mid}: {want} vs {lerp}");
        }
        // Absurd times do not make absurd numbers of keys.
        let mut far = vector("n.scale", vec![-1e30, 1e30], vec![1.0; 6]);
        far.interpolation = Interpolation::Smooth;
        let (nodes, _) = prepare(
            &Clip::new("f", 1.0, vec![far]),
            None,
            &Tolerance::default(),
            true,
        );
        assert!(nodes[0].times.len() <= 8, "{:?}", nodes[0].times);
    }
}
