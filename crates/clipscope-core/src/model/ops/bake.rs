//! Baking: a track sampled with the model's own interpolant (three.js r187 semantics) at its key
//! times plus the frames of a grid, so the keys stay exact and the curve between them is followed
//! frame by frame. The one implementation behind [`Clip::resample`](crate::model::Clip::resample)
//! and every writer that bakes what its format cannot hold: legacy three.js and PlayCanvas
//! animation files ([`bake_linear`]: whole frames of the source frame rate), glTF and PlayCanvas
//! anim clips ([`span_times`]: 30 fps from the first key).
//!
//! The pieces are a [`FrameGrid`] (frame `k` at `origin + k / fps`), [`key_and_frame_times`]
//! (key times and grid frames merged, with a [`Snap`] rule for frames next to keys), [`sample`]
//! / [`sample_numbers`] (the track evaluated at those times, rounded to `f32` as stored) and
//! [`with_keys`] (the baked track, carrying the original's name, kind and extras).

use crate::model::interpolant::Sampler;
use crate::model::{Interpolation, Track, Values};

/// The most frames one grid bake takes after its first (over 9 hours at 30 fps); a longer span
/// is cut there rather than exhausting memory.
pub const MAX_BAKED_FRAMES: i64 = 1 << 20;

/// The frame rate curves are baked at where the format has none of its own (glTF, PlayCanvas
/// anim clips) or the clip does not say.
pub const DEFAULT_BAKE_FPS: f64 = 30.0;

/// The most grid frames a bake over a span ([`span_times`]) takes; a longer span is sampled more
/// coarsely rather than exhausting memory.
const MAX_SPAN_FRAMES: f64 = 1e6;

/// Grid frames closer than this (seconds) to a key are left out by [`span_times`].
const SPAN_SNAP: f64 = 1e-6;

/// A frame grid: frame `k` at `origin + k / fps` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameGrid {
    /// Frames per second.
    pub fps: f64,
    /// The time of frame 0, in seconds.
    pub origin: f64,
}

impl FrameGrid {
    /// The grid of `fps` frames per second with frame 0 at `origin`.
    pub fn new(fps: f64, origin: f64) -> FrameGrid {
        FrameGrid { fps, origin }
    }

    /// The grid from `start` of at most `fps` frames per second that puts at most `max_frames`
    /// frames between `start` and `end` (a coarser one for a very long span).
    pub fn covering(fps: f64, start: f64, end: f64, max_frames: f64) -> FrameGrid {
        FrameGrid::new(fps.min(max_frames / (end - start)), start)
    }

    /// The time of frame `k`.
    pub fn time(&self, k: i64) -> f64 {
        self.origin + k as f64 / self.fps
    }

    /// The times of the frames from `start` to `end`, both included, at most
    /// [`MAX_BAKED_FRAMES`] after the first.
    pub fn frames(&self, start: f64, end: f64) -> impl Iterator<Item = f64> + use<> {
        let first = ((start - self.origin) * self.fps).ceil() as i64;
        let last = (((end - self.origin) * self.fps).floor() as i64)
            .min(first.saturating_add(MAX_BAKED_FRAMES));
        let grid = *self;
        (first..=last).map(move |k| grid.time(k))
    }

    /// The last frame (0 at least) that lies before `end` by more than a billionth of a frame:
    /// a frame that close to the end is the end itself.
    pub fn last_frame_before(&self, end: f64) -> f64 {
        ((end - self.origin) * self.fps - 1e-9).floor().max(0.0)
    }
}

/// How grid frames next to a key time merge with it in [`key_and_frame_times`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Snap {
    /// Only equal times merge (the first of them stays).
    Exact,
    /// A time closer than this many seconds to the one kept before it merges with it; a key
    /// time replaces what it merges with.
    Within(f64),
}

/// The finite times of `keys` and `frames` (as `f32`, where keys are stored), sorted, with times
/// next to each other merged by `snap`.
pub fn key_and_frame_times(
    keys: &[f32],
    frames: impl IntoIterator<Item = f64>,
    snap: Snap,
) -> Vec<f32> {
    let mut times: Vec<f32> = keys.to_vec();
    times.extend(frames.into_iter().map(|t| t as f32));
    times.retain(|t| t.is_finite());
    times.sort_by(f32::total_cmp);
    match snap {
        Snap::Exact => {
            times.dedup();
            times
        }
        Snap::Within(tolerance) => {
            let mut sorted_keys: Vec<f32> =
                keys.iter().copied().filter(|t| t.is_finite()).collect();
            sorted_keys.sort_by(f32::total_cmp);
            let is_key = |t: f32| {
                sorted_keys
                    .binary_search_by(|k| k.partial_cmp(&t).unwrap_or(std::cmp::Ordering::Less))
                    .is_ok()
            };
            let mut out: Vec<f32> = Vec::with_capacity(times.len());
            for t in times {
                match out.last_mut() {
                    Some(prev) if (t as f64 - *prev as f64).abs() < tolerance => {
                        // Prefer an original key time over a grid point next to it.
                        if is_key(t) {
                            *prev = t;
                        }
                    }
                    _ => out.push(t),
                }
            }
            out
        }
    }
}

/// The times a bake of keys `keys` spanning `first..=last` samples where the format has no frame
/// rate of its own (glTF, PlayCanvas anim clips): the keys plus a [`DEFAULT_BAKE_FPS`] grid from
/// the first key (coarser for a span of over 9 hours), with grid frames within a microsecond of a
/// key left out.
pub fn span_times(keys: &[f32], first: f32, last: f32) -> Vec<f32> {
    let (start, end) = (first as f64, last as f64);
    // Frame 0 is the first key itself.
    let frames = (start.is_finite() && end.is_finite() && end > start).then(|| {
        FrameGrid::covering(DEFAULT_BAKE_FPS, start, end, MAX_SPAN_FRAMES)
            .frames(start, end)
            .skip(1)
    });
    key_and_frame_times(keys, frames.into_iter().flatten(), Snap::Within(SPAN_SNAP))
}

/// The values of `track` at `times` (seconds) as numbers, `value_size` per time, evaluated like
/// three.js (bool tracks give 1 or 0) and rounded to `f32` as stored.
pub fn sample_numbers<T: Into<f64>>(track: &Track, times: impl IntoIterator<Item = T>) -> Vec<f32> {
    let vs = track.value_size();
    let mut sampler = Sampler::new(track);
    let times = times.into_iter();
    let mut out = Vec::with_capacity(times.size_hint().0 * vs);
    let mut buf = vec![0.0f64; vs];
    for t in times {
        sampler.evaluate_f64(t.into(), &mut buf);
        out.extend(buf.iter().map(|&v| v as f32));
    }
    out
}

/// The values of `track` at `times` (seconds), of the track's own type: what three.js's
/// interpolant gives there ([`Sampler::evaluate`]), numbers rounded to `f32` as stored.
pub fn sample<T: Into<f64>>(track: &Track, times: impl IntoIterator<Item = T>) -> Values {
    if matches!(track.values, Values::Numbers(_)) {
        return Values::Numbers(sample_numbers(track, times));
    }
    let mut sampler = Sampler::new(track);
    let mut values = track.values.empty_like();
    for t in times {
        let v = sampler.evaluate(t.into());
        let len = v.len();
        values.extend_from(&v, 0..len);
    }
    values
}

/// A track like `track` (its name, kind and extras) with the baked keys `times` and `values`,
/// interpolated by `interpolation`, without handles.
pub fn with_keys(
    track: &Track,
    times: Vec<f32>,
    values: Values,
    interpolation: Interpolation,
) -> Track {
    let mut out = Track::new(track.name.clone(), track.kind, times, values);
    out.interpolation = interpolation;
    out.extras = track.extras.clone();
    out
}

/// `track` baked to linear keys: sampled at its own key times and at every frame of `fps`
/// between its first and last key (frames at whole multiples of `1 / fps`, exact duplicates
/// merged): what formats that store only linear keys write for a curve, at the source frame
/// rate. Extras are kept; a track without numbers gets no values.
pub fn bake_linear(track: &Track, fps: f64) -> Track {
    let finite = track.times.iter().copied().filter(|t| t.is_finite());
    let span = finite.clone().reduce(f32::min).zip(finite.reduce(f32::max));
    let frames = span.map(|(lo, hi)| FrameGrid::new(fps, 0.0).frames(lo as f64, hi as f64));
    let times = key_and_frame_times(&track.times, frames.into_iter().flatten(), Snap::Exact);
    let values = match sample(track, times.iter().copied()) {
        Values::Numbers(numbers) => numbers,
        _ => Vec::new(),
    };
    with_keys(track, times, Values::Numbers(values), Interpolation::Linear)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    #[test]
    fn span_times_are_the_keys_plus_a_grid_from_the_first_key() {
        let t = span_times(&[0.0, 0.05, 0.1], 0.0, 0.1);
        assert_eq!(t.len(), 5);
        assert_eq!(t[0], 0.0);
        assert_eq!(t[1], (1.0f64 / 30.0) as f32);
        assert_eq!(t[2], 0.05);
        assert_eq!(t[3], (2.0f64 / 30.0) as f32);
        assert_eq!(t[4], 0.1);
        // A key next to a grid point replaces it.
        let t = span_times(&[0.0, 0.0333334, 1.0], 0.0, 1.0);
        assert!(t.contains(&0.0333334));
        assert_eq!(t.len(), 31);
    }

    #[test]
    fn samples_the_model_curve() {
        let tr = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 3.0]);
        assert_eq!(sample_numbers(&tr, [0.0, 0.5, 2.0]), [0.0, 1.5, 3.0]);
        assert_eq!(sample(&tr, [0.5f32]), Values::Numbers(vec![1.5]));
        let flag = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        assert_eq!(sample(&flag, [0.5, 1.0]), Values::Bools(vec![true, false]));
        assert_eq!(sample_numbers(&flag, [0.5, 1.0]), [1.0, 0.0]);
    }

    #[test]
    fn bake_linear_hits_whole_frames() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        t.interpolation = Interpolation::Discrete;
        let b = bake_linear(&t, 10.0);
        assert_eq!(b.times.len(), 11);
        assert_eq!(b.interpolation, Interpolation::Linear);
        // Frames are whole multiples of 1 / fps from time 0, whatever the first key.
        let t = Track::numeric(".x", TrackKind::Number, vec![0.05, 0.3], vec![0.0, 1.0]);
        assert_eq!(bake_linear(&t, 10.0).times, [0.05, 0.1, 0.2, 0.3]);
    }

    #[test]
    fn grids_count_frames_from_their_origin() {
        let grid = FrameGrid::new(4.0, 0.0);
        assert_eq!(
            grid.frames(0.1, 1.0).collect::<Vec<_>>(),
            [0.25, 0.5, 0.75, 1.0]
        );
        assert_eq!(grid.last_frame_before(1.0), 3.0);
        assert_eq!(grid.last_frame_before(1.1), 4.0);
        let coarse = FrameGrid::covering(30.0, 1.0, 3.0, 10.0);
        assert_eq!((coarse.fps, coarse.origin), (5.0, 1.0));
        let huge = FrameGrid::new(30.0, 0.0).frames(0.0, 1e9);
        assert_eq!(huge.count() as i64, MAX_BAKED_FRAMES + 1);
    }

    #[test]
    fn exact_snapping_keeps_the_first_of_equal_times() {
        let t = key_and_frame_times(&[-0.0, 1.0], [0.0, 0.5], Snap::Exact);
        assert_eq!(t, [0.0, 0.5, 1.0]);
        assert!(t[0].is_sign_negative());
        let t = key_and_frame_times(&[1.0, 1.0000001], [1.0000004], Snap::Within(1e-6));
        assert_eq!(t, [1.0000001]);
    }
}
