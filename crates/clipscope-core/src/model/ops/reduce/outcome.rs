//! What a reduction made of one track.

use std::borrow::Cow;

use super::Stored;
use super::channel::{Channel, sample_numbers};
use super::fit::{self, CurveFit, KeyCap, Sampling};
use crate::model::{Interpolation, Track};

/// The track without the keys that change nothing: three.js's optimize for linear and step
/// tracks. A smooth or bezier track is kept as it is: three.js's optimize judges keys by
/// straight lines (and leaves bezier handles where they were), which would change such curves;
/// so is a track with two keys at one time (a jump, as Lottie's hold keys become): optimize
/// drops the first of the two, which turns the hold before it into a ramp.
pub(crate) fn lossless(track: &Track) -> Track {
    lossless_of(track).into_owned()
}

/// [`lossless`], borrowing `track` where the optimize would leave it as it is (a long take's
/// keys are megabytes, which a copy would touch for nothing).
pub(crate) fn lossless_of(track: &Track) -> Cow<'_, Track> {
    let optimized = matches!(
        track.interpolation,
        Interpolation::Linear | Interpolation::Discrete
    ) && track.times.windows(2).all(|w| w[0] != w[1]);
    if !optimized || !track.optimize_changes() {
        return Cow::Borrowed(track);
    }
    let mut t = track.clone();
    t.optimize();
    Cow::Owned(t)
}

/// A track's reduction: the new track, its error and whether it is lossy.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// The reduced track.
    pub track: Track,
    /// Its largest error at the sample times, in its channel's metric.
    pub error: f64,
    /// False when it is the lossless optimize of the original.
    pub lossy: bool,
    /// The fit's curve at every sample time (`None`: the original curve).
    pub sampled: Option<Vec<f32>>,
}

impl Outcome {
    /// `track` exactly as it is, every key.
    pub fn exact(track: &Track) -> Outcome {
        Outcome {
            track: track.clone(),
            error: 0.0,
            lossy: false,
            sampled: None,
        }
    }

    /// This outcome with its fitted track's values at every sample of `channel` as the player
    /// plays them, where the fit left them for later ([`Sampling::Later`]).
    pub fn played(mut self, channel: &Channel) -> Outcome {
        if let Some(sampled) = &mut self.sampled
            && sampled.is_empty()
            && !channel.sample_times.is_empty()
        {
            *sampled = sample_numbers(&self.track, &channel.sample_times, channel.value_size);
        }
        self
    }

    /// `track` after three.js's lossless optimize.
    pub fn lossless(track: &Track) -> Outcome {
        Outcome {
            track: lossless(track),
            error: 0.0,
            lossy: false,
            sampled: None,
        }
    }
}

/// `channel` fitted within `tolerance`, or `kept` (its lossless optimize) when that has no more
/// keys or the curves cannot draw the channel within the tolerance. The fit's own error is
/// measured when `measure` (a joint's channel is measured through the world instead, and its
/// outcome's error is 0 until then). A fitted track is rounded as `stored` says first.
pub(crate) fn fit_channel(
    channel: &Channel,
    kept: &Track,
    tolerance: f64,
    curves: CurveFit,
    measure: bool,
    stored: Option<&Stored>,
) -> Outcome {
    let played = (Sampling::Played, stored);
    fit_of_use(
        channel,
        kept,
        tolerance,
        curves,
        measure,
        played,
        KeyCap::most(usize::MAX),
    )
    .unwrap_or_else(|| Outcome::exact(kept))
}

/// The fit [`fit_channel`] makes, its curve sampled as `sampling` says, when it is of use
/// (fewer keys than `kept` and than `cap` allows, where it stops; within the tolerance), else
/// `None`, without copying `kept`: what a caller that tries several grids and keeps the track
/// whole only when none fits needs.
pub(crate) fn fit_of_use(
    channel: &Channel,
    kept: &Track,
    tolerance: f64,
    curves: CurveFit,
    measure: bool,
    played: (Sampling, Option<&Stored>),
    cap: KeyCap,
) -> Option<Outcome> {
    match fit::fit_sampled(
        channel,
        tolerance,
        curves,
        measure,
        played,
        of_use(cap, kept),
    ) {
        Some(f) if f.track.len() < kept.len() && f.error.is_none_or(|e| e <= tolerance) => {
            Some(Outcome {
                track: f.track,
                error: f.error.unwrap_or(0.0),
                lossy: true,
                sampled: Some(f.sampled),
            })
        }
        _ => None,
    }
}

/// Whether [`fit_of_use`] of the whole channel within `cap` is `None`, decided on `prefix`
/// (the channel with only its first keys): `false` when the prefix does not settle it
/// ([`fit::fails_on_prefix`]).
pub(crate) fn fails_of_use_on_prefix(
    prefix: &Channel,
    kept: &Track,
    tolerance: f64,
    curves: CurveFit,
    cap: KeyCap,
) -> bool {
    fit::fails_on_prefix(prefix, tolerance, curves, of_use(cap, kept))
}

/// `cap` lowered to fewer keys than `kept` has: a fit with as many is of no use.
fn of_use(cap: KeyCap, kept: &Track) -> KeyCap {
    KeyCap {
        most: cap.most.min(kept.len().saturating_sub(1)),
        ..cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    #[test]
    fn a_track_the_optimize_leaves_alone_is_borrowed_not_copied() {
        let track = |values: Vec<f32>| {
            let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0, 2.0, 3.0], values);
            t.interpolation = Interpolation::Linear;
            t
        };
        let moving = track(vec![0.0, 1.0, 0.0, 1.0]);
        assert!(matches!(lossless_of(&moving), Cow::Borrowed(_)));
        let resting = track(vec![0.0, 0.0, 0.0, 1.0]);
        let Cow::Owned(optimized) = lossless_of(&resting) else {
            panic!("a key to remove: a new track");
        };
        assert_eq!(optimized.times, vec![0.0, 2.0, 3.0]);
        assert_eq!(lossless(&resting).times, optimized.times);
        // Smooth tracks are never optimized.
        let mut smooth = resting.clone();
        smooth.interpolation = Interpolation::Smooth;
        assert!(matches!(lossless_of(&smooth), Cow::Borrowed(_)));
    }
}
