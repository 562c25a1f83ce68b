//! A track's keys as a sampler holds them ([`Keys`]): glTF's interpolations ([`Sampling`]),
//! times, values and Hermite tangents. What writers produce ([`sampler_keys`](super::sampler_keys))
//! and what [`fidelity`](super::fidelity) plays as each destination does.

use crate::model::{Interpolation, Track, TrackKind};

/// A sampler interpolation (glTF's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sampling {
    /// `LINEAR`.
    Linear,
    /// `STEP`.
    Step,
    /// `CUBICSPLINE`.
    CubicSpline,
}

impl Sampling {
    /// The model interpolation that evaluates the same way.
    pub(crate) fn interpolation(self) -> Interpolation {
        match self {
            Sampling::Linear => Interpolation::Linear,
            Sampling::Step => Interpolation::Discrete,
            Sampling::CubicSpline => Interpolation::Bezier,
        }
    }
}

/// A track's keys as a sampler will hold them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Keys {
    /// The interpolation.
    pub sampling: Sampling,
    /// Key times.
    pub times: Vec<f32>,
    /// `times × width` values.
    pub values: Vec<f32>,
    /// CUBICSPLINE in- and out-tangents (derivatives), `times × width` each.
    pub tangents: Option<(Vec<f32>, Vec<f32>)>,
    /// Values per key.
    pub width: usize,
}

impl Keys {
    /// The sampler output: the values (borrowed), or for CUBICSPLINE in-tangents, value and
    /// out-tangents key by key.
    pub(crate) fn output(&self) -> std::borrow::Cow<'_, [f32]> {
        match &self.tangents {
            None => self.values.as_slice().into(),
            Some((a, b)) => {
                let w = self.width;
                let mut out = Vec::with_capacity(self.values.len() * 3);
                for k in 0..self.times.len() {
                    out.extend_from_slice(&a[k * w..(k + 1) * w]);
                    out.extend_from_slice(&self.values[k * w..(k + 1) * w]);
                    out.extend_from_slice(&b[k * w..(k + 1) * w]);
                }
                out.into()
            }
        }
    }

    /// The values and CUBICSPLINE (in-, out-) tangents of a sampler output that holds, key by
    /// key, an in-tangent, the value and an out-tangent of `width` numbers each: the inverse of
    /// [`Keys::output`].
    pub(crate) fn split_cubic(output: &[f32], width: usize) -> (Vec<f32>, (Vec<f32>, Vec<f32>)) {
        let n = output.len() / 3;
        let (mut a, mut v, mut b) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for key in output.chunks_exact(3 * width.max(1)) {
            a.extend_from_slice(&key[..width]);
            v.extend_from_slice(&key[width..2 * width]);
            b.extend_from_slice(&key[2 * width..]);
        }
        (v, (a, b))
    }

    /// A model track of `kind` that evaluates like these keys (for resampling).
    pub(crate) fn as_track(&self, kind: TrackKind) -> Track {
        let mut track = Track::numeric("", kind, self.times.clone(), self.values.clone());
        track.interpolation = self.sampling.interpolation();
        if let Some((a, b)) = &self.tangents {
            track.tangents = Some(crate::model::Tangents::from_hermite(
                &self.times,
                &self.values,
                a,
                b,
                self.width,
            ));
        }
        track
    }
}
