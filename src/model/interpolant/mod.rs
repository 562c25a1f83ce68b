//! Sampling a track at any time, exactly like three.js's `track.createInterpolant().evaluate(t)`.
//!
//! PUBLIC API CONTRACT (the interpolant helper fills in the bodies; other code relies on these
//! signatures):
//!
//! * `Sampler::new(&Track) -> Sampler` — one per track, holds the cached interval index
//!   (three.js `_cachedIndex`) so sequential playback is O(1) per evaluation.
//! * `Sampler::with_endings(&Track, CubicEnding, CubicEnding)` — smooth tracks with explicit
//!   start/end endings (three.js `endingStart`/`endingEnd`).
//! * `Sampler::evaluate_f64(&mut self, t: f64, out: &mut [f64])` — numeric tracks, result left
//!   in f64 (what three.js's mixer sees); `out.len() == value_size`.
//! * `Sampler::evaluate(&mut self, t: f64) -> Values` — the f32-rounded result that
//!   `track.createInterpolant().evaluate(t)` returns (bool/string tracks give their values).

use super::{Track, Values};

/// What a smooth (cubic) interpolant assumes beyond the first/last key (three.js `*Ending`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CubicEnding {
    /// `ZeroCurvatureEnding` (2400), the default.
    #[default]
    ZeroCurvature,
    /// `ZeroSlopeEnding` (2401).
    ZeroSlope,
    /// `WrapAroundEnding` (2402): the track loops.
    WrapAround,
}

/// Evaluates one track at arbitrary times, caching the current key interval.
pub struct Sampler<'a> {
    track: &'a Track,
}

impl<'a> Sampler<'a> {
    /// A sampler for `track` with the default (zero-curvature) endings.
    pub fn new(track: &'a Track) -> Sampler<'a> {
        Sampler { track }
    }

    /// A sampler for `track` with explicit cubic endings.
    pub fn with_endings(track: &'a Track, _start: CubicEnding, _end: CubicEnding) -> Sampler<'a> {
        Sampler { track }
    }

    /// Numeric evaluation into `out` (length `value_size`), unrounded f64 like the mixer's buffer.
    pub fn evaluate_f64(&mut self, _t: f64, _out: &mut [f64]) {
        unimplemented!("interpolant helper")
    }

    /// The f32-rounded result of `track.createInterpolant().evaluate(t)`.
    pub fn evaluate(&mut self, _t: f64) -> Values {
        let _ = self.track;
        unimplemented!("interpolant helper")
    }
}
