//! One node's key times and values for the engine's `Skeleton`, which interpolates linearly
//! (position and scale lerp, rotation `Quat.slerp`), holds every channel on every key, and
//! writes a node only between its first and last key (see
//! [`Player::PlayCanvasSkeleton`](crate::formats::fidelity::Player)).
//!
//! * Each channel's keys become linear keys the skeleton plays as the model plays the track: a
//!   discrete key holds its value until one `f32` step before the next key; a repeated key time
//!   (a jump) becomes the same step; smooth and bezier curves start from their keys.
//! * The node's times are the union of its channels' (every key holds every channel), each
//!   channel sampled there (a key's own value where it has one).
//! * A document converted from another format also gets keys at 0 and at the clip's end where its
//!   keys start later or end earlier (the skeleton would leave the node alone there; a node with
//!   keys at one time only holds that key throughout), and its
//!   channels are fitted together: keys added where the skeleton's playback strays from the
//!   source by more than the tolerance (the engine's slerp averages keys closer than about
//!   0.1°, and linear keys cannot hold a curve). A document read from a PlayCanvas file keeps
//!   its keys as they are, unless a channel is not linear.

use std::borrow::Cow;

use super::nodes::{NodeKeys, PROPERTIES, rest_value, sample_at};
use crate::formats::fidelity::fit::{Channel, Encode, fit_group, linear_times};
use crate::formats::fidelity::{Player, Quantity, Tolerance};
use crate::formats::sampler_keys::{Keys, Sampling};
use crate::model::{Interpolation, Skeleton, Track};

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
