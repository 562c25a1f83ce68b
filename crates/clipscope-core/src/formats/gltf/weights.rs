//! Joining one-target morph tracks into the single `weights` channel glTF has per node.
//!
//! A glTF `weights` sampler gives every morph target's weight at every key, while three.js
//! clips have one `.morphTargetInfluences[T]` track per target. Tracks of one node in one clip
//! are joined:
//!
//! * the same interpolation and the same key times: their values side by side, exactly;
//! * all LINEAR or all STEP but different times: each track resampled at the union of the
//!   times with its own interpolation, which is exact too (a line sampled at extra points, or
//!   a step sampled where it holds, draws the same curve; ends clamp like three.js);
//! * anything else (mixed interpolations, CUBICSPLINE at different times): every track baked
//!   to LINEAR at 30 fps over the union ([`span_times`](crate::model::ops::bake::span_times)), and reported.
//!
//! Targets no track animates hold their default weight (the node's or mesh's `weights`, else
//! 0, which is where three.js leaves an unanimated influence).

use std::fmt;

use crate::formats::sampler_keys::{Keys, Sampling};
use crate::model::ops::bake::{DEFAULT_BAKE_FPS, sample_numbers, span_times};
use crate::model::{Track, TrackKind};

/// A morph track to join: which target it animates (`None`: all, `width` per key), the model
/// track and its glTF keys.
pub(crate) struct Input<'a> {
    /// The target index, or `None` for an all-targets track.
    pub target: Option<usize>,
    /// The model track (for baking).
    pub track: &'a Track,
    /// Its converted keys.
    pub keys: Keys,
}

/// Why morph tracks cannot share one `weights` channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeError {
    /// Two of the tracks animate this morph target.
    SharedTarget(usize),
    /// There were no tracks to join.
    NoTracks,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::SharedTarget(j) => {
                write!(f, "more than one track animates morph target {j}")
            }
            MergeError::NoTracks => f.write_str("no morph tracks"),
        }
    }
}

impl std::error::Error for MergeError {}

/// The keys of one `weights` channel over `defaults.len()` targets, plus notes, or why the
/// tracks cannot share one (two of them animate the same target).
pub(crate) fn merge(
    inputs: Vec<Input<'_>>,
    defaults: &[f32],
) -> Result<(Keys, Vec<String>), MergeError> {
    let n = defaults.len();
    let mut taken = vec![false; n];
    for input in &inputs {
        let range = match input.target {
            Some(j) => j..j + 1,
            None => 0..n,
        };
        for j in range {
            if std::mem::replace(&mut taken[j], true) {
                return Err(MergeError::SharedTarget(j));
            }
        }
    }
    if let [single] = inputs.as_slice()
        && single.target.is_none()
    {
        return Ok((single.keys.clone(), Vec::new()));
    }
    let Some(first) = inputs.first() else {
        return Err(MergeError::NoTracks);
    };
    let sampling = first.keys.sampling;
    let same_sampling = inputs.iter().all(|i| i.keys.sampling == sampling);
    let same_times = inputs.iter().all(|i| i.keys.times == first.keys.times);
    if same_sampling && same_times {
        return Ok((
            side_by_side(&inputs, defaults, &first.keys.times, sampling),
            Vec::new(),
        ));
    }
    let mut union: Vec<f32> = inputs
        .iter()
        .flat_map(|i| i.keys.times.iter().copied())
        .collect();
    union.sort_by(f32::total_cmp);
    union.dedup();
    if same_sampling && sampling != Sampling::CubicSpline {
        let resampled: Vec<Input> = inputs
            .iter()
            .map(|i| Input {
                target: i.target,
                track: i.track,
                keys: Keys {
                    sampling,
                    values: sample_numbers(
                        &i.keys.as_track(TrackKind::Number),
                        union.iter().copied(),
                    ),
                    times: union.clone(),
                    tangents: None,
                    width: 1,
                },
            })
            .collect();
        return Ok((
            side_by_side(&resampled, defaults, &union, sampling),
            Vec::new(),
        ));
    }
    let first_time = union.first().copied().unwrap_or(0.0);
    let last_time = union.last().copied().unwrap_or(0.0);
    let times = span_times(&union, first_time, last_time);
    let baked: Vec<Input> = inputs
        .iter()
        .map(|i| Input {
            target: i.target,
            track: i.track,
            keys: Keys {
                sampling: Sampling::Linear,
                values: sample_numbers(i.track, times.iter().copied()),
                times: times.clone(),
                tangents: None,
                width: 1,
            },
        })
        .collect();
    let note = format!(
        "the exact curves of its morph tracks (one glTF weights channel cannot mix their \
         interpolations or CUBICSPLINE key times; baked to LINEAR at {DEFAULT_BAKE_FPS} fps, {} keys)",
        times.len()
    );
    Ok((
        side_by_side(&baked, defaults, &times, Sampling::Linear),
        vec![note],
    ))
}

/// Keys whose values (and tangents) put every input's column side by side; every input has
/// the keys `times` and one value per key.
fn side_by_side(inputs: &[Input<'_>], defaults: &[f32], times: &[f32], sampling: Sampling) -> Keys {
    let n = defaults.len();
    let keys = times.len();
    let mut values: Vec<f32> = (0..keys).flat_map(|_| defaults.iter().copied()).collect();
    let cubic = sampling == Sampling::CubicSpline;
    let mut a = vec![0.0f32; if cubic { keys * n } else { 0 }];
    let mut b = a.clone();
    for input in inputs {
        let Some(j) = input.target else { continue };
        for k in 0..keys {
            values[k * n + j] = input.keys.values[k];
            if let (true, Some((ia, ib))) = (cubic, &input.keys.tangents) {
                a[k * n + j] = ia[k];
                b[k * n + j] = ib[k];
            }
        }
    }
    Keys {
        sampling,
        times: times.to_vec(),
        values,
        tangents: cubic.then_some((a, b)),
        width: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sampler_keys::convert;
    use crate::model::Interpolation;

    fn track(times: Vec<f32>, values: Vec<f32>, interpolation: Interpolation) -> Track {
        let mut t = Track::numeric(
            "m.morphTargetInfluences[0]",
            TrackKind::Number,
            times,
            values,
        );
        t.interpolation = interpolation;
        t
    }

    fn input(target: usize, t: &Track) -> Input<'_> {
        Input {
            target: Some(target),
            track: t,
            keys: convert(t, false).0,
        }
    }

    #[test]
    fn same_times_side_by_side_with_defaults() {
        let a = track(vec![0.0, 1.0], vec![0.0, 1.0], Interpolation::Linear);
        let b = track(vec![0.0, 1.0], vec![1.0, 0.0], Interpolation::Linear);
        let (keys, notes) = merge(vec![input(2, &a), input(0, &b)], &[0.5, 0.25, 0.0]).unwrap();
        assert!(notes.is_empty());
        assert_eq!(keys.values, [1.0, 0.25, 0.0, 0.0, 0.25, 1.0]);
        assert_eq!(keys.width, 3);
    }

    #[test]
    fn linear_union_is_exact() {
        let a = track(vec![0.0, 1.0], vec![0.0, 1.0], Interpolation::Linear);
        let b = track(
            vec![0.0, 0.5, 2.0],
            vec![1.0, 0.0, 1.0],
            Interpolation::Linear,
        );
        let (keys, notes) = merge(vec![input(0, &a), input(1, &b)], &[0.0, 0.0]).unwrap();
        assert!(notes.is_empty());
        assert_eq!(keys.times, [0.0, 0.5, 1.0, 2.0]);
        assert_eq!(keys.values, [0.0, 1.0, 0.5, 0.0, 1.0, 1.0 / 3.0, 1.0, 1.0]);
    }

    #[test]
    fn mixed_modes_are_baked_and_reported() {
        let a = track(vec![0.0, 1.0], vec![0.0, 1.0], Interpolation::Linear);
        let b = track(vec![0.0, 1.0], vec![1.0, 0.0], Interpolation::Discrete);
        let (keys, notes) = merge(vec![input(0, &a), input(1, &b)], &[0.0, 0.0]).unwrap();
        assert_eq!(keys.times.len(), 31);
        assert_eq!(keys.sampling, Sampling::Linear);
        assert!(notes[0].contains("baked to LINEAR at 30 fps, 31 keys"));
        // Two tracks on one target cannot share a channel.
        let e = merge(vec![input(0, &a), input(0, &b)], &[0.0]).unwrap_err();
        assert_eq!(e, MergeError::SharedTarget(0));
        assert_eq!(e.to_string(), "more than one track animates morph target 0");
        assert_eq!(merge(Vec::new(), &[]).unwrap_err(), MergeError::NoTracks);
    }
}
