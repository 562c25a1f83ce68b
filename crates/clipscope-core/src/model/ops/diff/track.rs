//! How one track changed: kind, interpolation, keys, and the largest change of the curve a
//! player shows, sampled at the keys of both versions and between them.

use super::keys::align;
use super::{
    Change, DiffOptions, InterpolationName, Measure, SampledValue, Status, TrackDiff,
    TrackKindName, ValueChange,
};
use crate::model::interpolant::Sampler;
use crate::model::{Interpolation, Track, Values};

/// The most values per key compared (vectors, colours and quaternions have up to 4; longer
/// tuples are compared on their first 16).
const MAX_VALUES: usize = 16;

/// The diff of a track present in only one version.
pub(crate) fn alone(
    status: Status,
    index: usize,
    track: &Track,
    options: &DiffOptions,
) -> TrackDiff {
    let (old, new) = match status {
        Status::Removed => (Some(index), None),
        _ => (None, Some(index)),
    };
    let keys = track.len();
    let range = range(track);
    TrackDiff {
        status,
        name: track.name.clone(),
        renamed_from: None,
        index: Change { old, new },
        kind: TrackKindName(track.kind),
        kind_change: None,
        measure: Measure::of(track, &options.property_measures),
        unit: Measure::of(track, &options.property_measures)
            .unit()
            .map(str::to_string),
        keys: match status {
            Status::Removed => Change { old: keys, new: 0 },
            _ => Change { old: 0, new: keys },
        },
        range: match status {
            Status::Removed => Change {
                old: range,
                new: None,
            },
            _ => Change {
                old: None,
                new: range,
            },
        },
        interpolation: None,
        value_size: None,
        keys_added: Vec::new(),
        keys_removed: Vec::new(),
        keys_moved: Vec::new(),
        keys_shifted: None,
        largest: None,
    }
}

/// How `new` (track `b` of the new clip) differs from `old` (track `a` of the old clip), or
/// `None` when it does not beyond the tolerances.
pub(crate) fn diff_pair(
    (a, old): (usize, &Track),
    (b, new): (usize, &Track),
    options: &DiffOptions,
) -> Option<TrackDiff> {
    // The same binding spelled another way (`.bones[hip].position`, `hip.position`) is not a
    // rename.
    let renamed = old.name != new.name
        && (super::matching::binding(&old.name).is_none()
            || super::matching::binding(&old.name) != super::matching::binding(&new.name));
    if !renamed && exactly_equal(old, new) {
        return None;
    }
    let measure = Measure::of(new, &options.property_measures);
    let kind_change = (old.kind != new.kind).then_some(Change {
        old: TrackKindName(old.kind),
        new: TrackKindName(new.kind),
    });
    let interpolation = (old.interpolation != new.interpolation).then_some(Change {
        old: InterpolationName(old.interpolation),
        new: InterpolationName(new.interpolation),
    });
    let value_size = (old.value_size() != new.value_size() && !old.is_empty() && !new.is_empty())
        .then_some(Change {
            old: old.value_size(),
            new: new.value_size(),
        });
    let keys_shifted = shift(&old.times, &new.times, options.time_tolerance);
    let alignment = match keys_shifted {
        Some(_) => Default::default(),
        None => align(&old.times, &new.times, options.time_tolerance),
    };
    let largest = if kind_change.is_none() && value_size.is_none() {
        largest_change(old, new, measure).filter(|c| c.amount > options.tolerance)
    } else {
        None
    };
    let changed = renamed
        || kind_change.is_some()
        || interpolation.is_some()
        || value_size.is_some()
        || !alignment.is_empty()
        || keys_shifted.is_some()
        || largest.is_some();
    changed.then(|| TrackDiff {
        status: Status::Changed,
        name: new.name.clone(),
        renamed_from: renamed.then(|| old.name.clone()),
        index: Change {
            old: Some(a),
            new: Some(b),
        },
        kind: TrackKindName(new.kind),
        kind_change,
        measure,
        unit: measure.unit().map(str::to_string),
        keys: Change {
            old: old.len(),
            new: new.len(),
        },
        range: Change {
            old: range(old),
            new: range(new),
        },
        interpolation,
        value_size,
        keys_added: alignment.added,
        keys_removed: alignment.removed,
        keys_moved: alignment.moved,
        keys_shifted,
        largest,
    })
}

/// The same keys, values, interpolation and handles, bit for bit (the common case, decided
/// without sampling).
fn exactly_equal(a: &Track, b: &Track) -> bool {
    a.kind == b.kind
        && a.interpolation == b.interpolation
        && a.times.len() == b.times.len()
        && a.times
            .iter()
            .zip(&b.times)
            .all(|(x, y)| x.to_bits() == y.to_bits())
        && a.tangents == b.tangents
        && match (&a.values, &b.values) {
            (Values::Numbers(x), Values::Numbers(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
            }
            (x, y) => x == y,
        }
}

/// How far every key moved, when there are at least two keys, as many in both versions, and
/// all moved by the same time (within `tolerance`) beyond `tolerance`.
fn shift(old: &[f32], new: &[f32], tolerance: f64) -> Option<f64> {
    if old.len() != new.len() || old.len() < 2 {
        return None;
    }
    let by = new[0] as f64 - old[0] as f64;
    let together = old.iter().zip(new).all(|(a, b)| {
        ((*b as f64 - *a as f64) - by).abs() <= tolerance.max(1e-6 * (1.0 + b.abs() as f64))
    });
    (together && by.abs() > tolerance.max(1e-6)).then_some(by)
}

/// The first and last key time.
fn range(track: &Track) -> Option<(f32, f32)> {
    Some((*track.times.first()?, *track.times.last()?))
}

/// The times both versions are compared at: every key time of either, and between each two
/// neighbours the midpoint (and the quarter points when a curve is not straight between keys).
fn sample_times(a: &Track, b: &Track) -> Vec<f64> {
    let sorted = |t: &[f32]| -> Vec<f64> {
        let mut v: Vec<f64> = t
            .iter()
            .map(|&x| x as f64)
            .filter(|x| x.is_finite())
            .collect();
        if !v.is_sorted() {
            v.sort_by(f64::total_cmp);
        }
        v
    };
    let (x, y) = (sorted(&a.times), sorted(&b.times));
    let mut keys = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        let next = match (x.get(i), y.get(j)) {
            (Some(&p), Some(&q)) if p <= q => {
                i += 1;
                j += usize::from(p == q);
                p
            }
            (_, Some(&q)) => {
                j += 1;
                q
            }
            (Some(&p), None) => {
                i += 1;
                p
            }
            (None, None) => break,
        };
        if keys.last() != Some(&next) {
            keys.push(next);
        }
    }
    let curved = |t: &Track| {
        matches!(
            t.interpolation,
            Interpolation::Smooth | Interpolation::Bezier
        )
    };
    let steps: &[f64] = if curved(a) || curved(b) {
        &[0.25, 0.5, 0.75]
    } else {
        &[0.5]
    };
    let mut out = Vec::with_capacity(keys.len() * (steps.len() + 1));
    for (k, &t) in keys.iter().enumerate() {
        if k > 0 {
            let t0 = keys[k - 1];
            out.extend(steps.iter().map(|s| t0 + (t - t0) * s));
        }
        out.push(t);
    }
    out
}

/// The largest change between the curves `old` and `new` play (same kind and value size), in
/// `measure`'s unit, with its time and both values; `None` when they play the same.
fn largest_change(old: &Track, new: &Track, measure: Measure) -> Option<ValueChange> {
    if old.is_empty() || new.is_empty() {
        return None;
    }
    let times = sample_times(old, new);
    match (&old.values, &new.values) {
        (Values::Numbers(_), Values::Numbers(_)) => numeric_change(old, new, measure, &times),
        _ => discrete_change(old, new, &times),
    }
}

/// [`largest_change`] for numeric tracks: both sampled with the model's interpolants (three.js's
/// own), rounded to `f32` as a player's result buffer holds them.
fn numeric_change(
    old: &Track,
    new: &Track,
    measure: Measure,
    times: &[f64],
) -> Option<ValueChange> {
    let size = old.value_size().min(MAX_VALUES);
    if size == 0 || old.value_size() != new.value_size() {
        return None;
    }
    let (mut sa, mut sb) = (Sampler::new(old), Sampler::new(new));
    let mut va = vec![0.0; old.value_size()];
    let mut vb = vec![0.0; new.value_size()];
    let mut best: Option<(f64, f64, Vec<f64>, Vec<f64>)> = None;
    for &t in times {
        sa.evaluate_f64(t, &mut va);
        sb.evaluate_f64(t, &mut vb);
        for v in va.iter_mut().chain(vb.iter_mut()) {
            *v = *v as f32 as f64;
        }
        let amount = measure.amount(&va[..size], &vb[..size]);
        if amount > best.as_ref().map_or(0.0, |b| b.0) {
            best = Some((amount, t, va.clone(), vb.clone()));
        }
    }
    best.map(|(amount, time, a, b)| ValueChange {
        amount,
        time: time as f32,
        old: SampledValue::Numbers(a.iter().map(|&v| v as f32).collect()),
        new: SampledValue::Numbers(b.iter().map(|&v| v as f32).collect()),
    })
}

/// [`largest_change`] for bool and string tracks: the value of the last key at or before each
/// time; the amount is how many of the times differ, the time the first of them.
fn discrete_change(old: &Track, new: &Track, times: &[f64]) -> Option<ValueChange> {
    let (mut ka, mut kb) = (0usize, 0usize);
    let mut first: Option<(f64, SampledValue, SampledValue)> = None;
    let mut count = 0usize;
    for &t in times {
        ka = held_key(&old.times, ka, t);
        kb = held_key(&new.times, kb, t);
        let (x, y) = (value_at(&old.values, ka), value_at(&new.values, kb));
        if x != y {
            count += 1;
            if first.is_none() {
                first = Some((t, x, y));
            }
        }
    }
    first.map(|(time, old, new)| ValueChange {
        amount: count as f64,
        time: time as f32,
        old,
        new,
    })
}

/// The key held at `t` (the last at or before it, else the first), searching on from `from`.
fn held_key(times: &[f32], from: usize, t: f64) -> usize {
    let mut k = from;
    while k + 1 < times.len() && times[k + 1] as f64 <= t {
        k += 1;
    }
    k
}

/// Value `k` of a one-value-per-key bool or string array.
fn value_at(values: &Values, k: usize) -> SampledValue {
    match values {
        Values::Bools(v) => SampledValue::Bool(v.get(k).copied().unwrap_or_default()),
        Values::Strings(v) => SampledValue::Text(v.get(k).cloned().unwrap_or_default()),
        Values::Numbers(v) => SampledValue::Numbers(v.get(k).copied().into_iter().collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    fn options() -> DiffOptions {
        DiffOptions::default()
    }

    fn turn(deg: f32) -> [f32; 4] {
        let h = deg.to_radians() / 2.0;
        [0.0, h.sin(), 0.0, h.cos()]
    }

    fn spin(name: &str, degrees: &[f32]) -> Track {
        let times = (0..degrees.len()).map(|k| k as f32 * 0.5).collect();
        let values = degrees.iter().flat_map(|&d| turn(d)).collect();
        Track::numeric(name, TrackKind::Quaternion, times, values)
    }

    #[test]
    fn an_identical_track_is_no_change() {
        let t = spin("hip.quaternion", &[0.0, 30.0, 0.0]);
        assert!(diff_pair((0, &t), (0, &t.clone()), &options()).is_none());
    }

    #[test]
    fn a_rotation_change_is_reported_in_degrees_at_its_time() {
        let a = spin("hip.quaternion", &[0.0, 30.0, 0.0]);
        let b = spin("hip.quaternion", &[0.0, 45.0, 0.0]);
        let d = diff_pair((0, &a), (0, &b), &options()).expect("changed");
        assert_eq!(d.measure, Measure::Rotation);
        let largest = d.largest.expect("values changed");
        assert!((largest.amount - 15.0).abs() < 1e-3, "{}", largest.amount);
        assert_eq!(largest.time, 0.5);
        assert!(d.keys_added.is_empty() && d.keys_removed.is_empty());
        // Within the tolerance it is noise.
        let loose = DiffOptions {
            tolerance: 20.0,
            ..options()
        };
        assert!(diff_pair((0, &a), (0, &b), &loose).is_none());
    }

    #[test]
    fn the_other_hemisphere_is_the_same_rotation() {
        let a = spin("hip.quaternion", &[0.0, 30.0]);
        let mut b = a.clone();
        for v in b.values.as_numbers_mut().expect("numbers")[4..].iter_mut() {
            *v = -*v;
        }
        assert!(diff_pair((0, &a), (0, &b), &options()).is_none());
    }

    #[test]
    fn keys_removed_on_a_straight_line_change_keys_not_motion() {
        let a = Track::numeric(
            "box.position",
            TrackKind::Vector,
            vec![0.0, 0.5, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        );
        let b = Track::numeric(
            "box.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        );
        let d = diff_pair((0, &a), (0, &b), &options()).expect("changed");
        assert_eq!(d.keys_removed, [0.5]);
        assert!(d.largest.is_none(), "{:?}", d.largest);
    }

    #[test]
    fn a_track_moved_in_time_is_one_shift() {
        let a = spin("hip.quaternion", &[0.0, 30.0, 0.0]);
        let mut b = a.clone();
        for t in &mut b.times {
            *t += 0.1;
        }
        let d = diff_pair((0, &a), (0, &b), &options()).expect("changed");
        let by = d.keys_shifted.expect("shifted");
        assert!((by - 0.1).abs() < 1e-6, "{by}");
        assert!(d.keys_moved.is_empty() && d.keys_added.is_empty() && d.keys_removed.is_empty());
    }

    #[test]
    fn interpolation_and_kind_changes_are_named() {
        let a = spin("hip.quaternion", &[0.0, 30.0]);
        let mut b = a.clone();
        b.interpolation = Interpolation::Discrete;
        let d = diff_pair((0, &a), (0, &b), &options()).expect("changed");
        let i = d.interpolation.expect("interpolation");
        assert_eq!(
            (i.old.0, i.new.0),
            (Interpolation::Linear, Interpolation::Discrete)
        );
        // Held, the second half of the first segment differs by up to 30°.
        assert!(d.largest.expect("values").amount > 10.0);
    }

    #[test]
    fn string_tracks_count_the_times_that_differ() {
        let a = Track::new(
            "face.map",
            TrackKind::String,
            vec![0.0, 1.0],
            Values::Strings(vec!["a".into(), "b".into()]),
        );
        let mut b = a.clone();
        b.values = Values::Strings(vec!["a".into(), "c".into()]);
        let d = diff_pair((0, &a), (0, &b), &options()).expect("changed");
        let largest = d.largest.expect("values");
        assert_eq!(largest.time, 1.0);
        assert_eq!(largest.new, SampledValue::Text("c".into()));
        assert_eq!(d.measure, Measure::Discrete);
    }

    #[test]
    fn sample_times_merge_both_versions_keys_with_midpoints() {
        let a = Track::numeric(
            "x.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0; 6],
        );
        let b = Track::numeric(
            "x.position",
            TrackKind::Vector,
            vec![0.0, 0.5, 1.0],
            vec![0.0; 9],
        );
        assert_eq!(sample_times(&a, &b), [0.0, 0.25, 0.5, 0.75, 1.0]);
    }
}
