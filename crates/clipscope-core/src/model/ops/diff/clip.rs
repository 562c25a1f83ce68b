//! How one clip changed: its duration, blend mode, markers, user data and tracks, and through
//! the skeleton its joints.

use std::collections::HashMap;

use serde_json::Value;

use super::{
    BlendModeName, Change, ClipDiff, Counts, DiffOptions, MarkerChange, Skeletons, Status, joints,
    matching, track,
};
use crate::model::Clip;

/// The tracks and keys of `clip`.
fn counts(clip: &Clip) -> Counts {
    Counts {
        tracks: clip.tracks.len(),
        keys: clip.key_count(),
    }
}

/// The diff of a clip present in only one version (its size in `counts`; its tracks are not
/// listed one by one).
pub(crate) fn alone(status: Status, index: usize, clip: &Clip) -> ClipDiff {
    let (old, new) = match status {
        Status::Removed => (Some(index), None),
        _ => (None, Some(index)),
    };
    let (old_counts, new_counts) = match status {
        Status::Removed => (counts(clip), Counts::default()),
        _ => (Counts::default(), counts(clip)),
    };
    ClipDiff {
        status,
        name: clip.name.clone(),
        renamed_from: None,
        index: Change { old, new },
        duration: None,
        blend_mode: None,
        markers: Vec::new(),
        user_data: false,
        counts: Change {
            old: old_counts,
            new: new_counts,
        },
        tracks: Vec::new(),
        unchanged_tracks: 0,
        joints: Vec::new(),
    }
}

/// How clip `b` of the new version differs from clip `a` of the old one, or `None` when it
/// does not beyond the tolerances.
pub(crate) fn diff_pair(
    (a, old): (usize, &Clip),
    (b, new): (usize, &Clip),
    skeletons: Skeletons,
    options: &DiffOptions,
) -> Option<ClipDiff> {
    // A duration is a time: a file that stores it as `f32` (glTF) holds the same one.
    let same_f32 = old.duration as f32 == new.duration as f32;
    let duration = (!same_f32
        && ((old.duration - new.duration).abs() > options.tolerance.max(options.time_tolerance)
            || old.duration.is_nan() != new.duration.is_nan()))
    .then_some(Change {
        old: old.duration,
        new: new.duration,
    });
    let blend_mode = (old.blend_mode != new.blend_mode).then_some(Change {
        old: BlendModeName(old.blend_mode),
        new: BlendModeName(new.blend_mode),
    });
    let markers = markers(old, new, options.tolerance);
    let user_data = other_user_data(old) != other_user_data(new);
    let mut tracks = Vec::new();
    let mut unchanged_tracks = 0;
    let pairs = matching::pair_tracks(old, new);
    for &pair in &pairs {
        match pair {
            matching::TrackPair::Both(i, j) => {
                match track::diff_pair((i, &old.tracks[i]), (j, &new.tracks[j]), options) {
                    Some(d) => tracks.push(d),
                    None => unchanged_tracks += 1,
                }
            }
            matching::TrackPair::Added(j) => {
                tracks.push(track::alone(Status::Added, j, &new.tracks[j], options))
            }
            matching::TrackPair::Removed(i) => {
                tracks.push(track::alone(Status::Removed, i, &old.tracks[i], options))
            }
        }
    }
    let renamed = old.name != new.name;
    if !renamed
        && duration.is_none()
        && blend_mode.is_none()
        && markers.is_empty()
        && !user_data
        && tracks.is_empty()
    {
        return None;
    }
    let joints = if tracks.is_empty() {
        Vec::new()
    } else {
        joints::changes(old, new, &pairs, skeletons, options)
    };
    Some(ClipDiff {
        status: Status::Changed,
        name: new.name.clone(),
        renamed_from: renamed.then(|| old.name.clone()),
        index: Change {
            old: Some(a),
            new: Some(b),
        },
        duration,
        blend_mode,
        markers,
        user_data,
        counts: Change {
            old: counts(old),
            new: counts(new),
        },
        tracks,
        unchanged_tracks,
        joints,
    })
}

/// Markers added, removed and moved, matched by name (repeated names in time order).
fn markers(old: &Clip, new: &Clip, tolerance: f64) -> Vec<MarkerChange> {
    let (before, after) = (old.markers(), new.markers());
    let mut by_name: HashMap<&str, Vec<f64>> = HashMap::new();
    for m in before.iter().rev() {
        by_name.entry(m.name.as_str()).or_default().push(m.time);
    }
    let mut out = Vec::new();
    for m in &after {
        match by_name.get_mut(m.name.as_str()).and_then(Vec::pop) {
            Some(t) if (t - m.time).abs() <= tolerance => {}
            Some(t) => out.push(MarkerChange {
                status: Status::Changed,
                name: m.name.clone(),
                old_time: Some(t),
                new_time: Some(m.time),
            }),
            None => out.push(MarkerChange {
                status: Status::Added,
                name: m.name.clone(),
                old_time: None,
                new_time: Some(m.time),
            }),
        }
    }
    for m in &before {
        if let Some(times) = by_name.get_mut(m.name.as_str())
            && times.last() == Some(&m.time)
        {
            times.pop();
            out.push(MarkerChange {
                status: Status::Removed,
                name: m.name.clone(),
                old_time: Some(m.time),
                new_time: None,
            });
        }
    }
    out
}

/// The clip's user data without the markers (compared on their own): what else a format keeps
/// there, compared as a whole. Empty user data and none are the same.
fn other_user_data(clip: &Clip) -> Option<Value> {
    match &clip.user_data {
        Value::Object(map) => {
            let rest: serde_json::Map<String, Value> = map
                .iter()
                .filter(|(k, _)| k.as_str() != "markers")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            (!rest.is_empty()).then_some(Value::Object(rest))
        }
        Value::Null => None,
        other => Some(other.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::Marker;
    use crate::model::{BlendMode, Track, TrackKind};

    fn clip(name: &str, x: f32) -> Clip {
        Clip::new(
            name,
            1.0,
            vec![
                Track::numeric(
                    "a.position",
                    TrackKind::Vector,
                    vec![0.0, 1.0],
                    vec![0.0, 0.0, 0.0, x, 0.0, 0.0],
                ),
                Track::numeric("b.scale", TrackKind::Vector, vec![0.0], vec![1.0; 3]),
            ],
        )
    }

    #[test]
    fn an_equal_clip_is_no_change_whatever_its_uuid() {
        let (a, b) = (clip("walk", 1.0), clip("walk", 1.0));
        assert_ne!(a.uuid, b.uuid);
        assert!(
            diff_pair(
                (0, &a),
                (0, &b),
                Skeletons::default(),
                &DiffOptions::default()
            )
            .is_none()
        );
    }

    #[test]
    fn only_the_changed_track_is_listed() {
        let (a, mut b) = (clip("walk", 1.0), clip("walk", 2.0));
        b.duration = 1.5;
        b.blend_mode = BlendMode::Additive;
        let d = diff_pair(
            (0, &a),
            (0, &b),
            Skeletons::default(),
            &DiffOptions::default(),
        )
        .expect("changed");
        assert_eq!(d.tracks.len(), 1);
        assert_eq!(d.tracks[0].name, "a.position");
        assert_eq!(d.unchanged_tracks, 1);
        assert_eq!(d.duration, Some(Change { old: 1.0, new: 1.5 }));
        // The same duration stored as f32 is no change.
        let mut c = a.clone();
        c.duration = 0.8;
        let mut e = c.clone();
        e.duration = 0.8f32 as f64;
        let same = diff_pair(
            (0, &c),
            (0, &e),
            Skeletons::default(),
            &DiffOptions::default(),
        );
        assert!(same.is_none());
        assert_eq!(d.blend_mode.map(|m| m.new.0), Some(BlendMode::Additive));
        let largest = d.tracks[0].largest.as_ref().expect("moved");
        assert_eq!((largest.amount, largest.time), (1.0, 1.0));
    }

    #[test]
    fn markers_are_matched_by_name() {
        let m = |name: &str, time: f64| Marker {
            name: name.into(),
            time,
        };
        let (mut a, mut b) = (clip("walk", 1.0), clip("walk", 1.0));
        a.set_markers(&[m("left", 0.0), m("right", 0.5), m("gone", 0.9)])
            .expect("object");
        b.set_markers(&[m("left", 0.0), m("right", 0.55), m("new", 0.7)])
            .expect("object");
        let d = diff_pair(
            (0, &a),
            (0, &b),
            Skeletons::default(),
            &DiffOptions::default(),
        )
        .expect("changed");
        let got: Vec<(Status, &str)> = d
            .markers
            .iter()
            .map(|m| (m.status, m.name.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Status::Changed, "right"),
                (Status::Added, "new"),
                (Status::Removed, "gone")
            ]
        );
        assert!(!d.user_data, "markers are not other user data");
    }
}
