//! Reduced tracks as the model's own interpolants play them at a search's sample times: what
//! the final measure compares, reusing the values a try already sampled where a track plays
//! exactly as tried.

use rayon::prelude::*;

use super::{Tried, WorldSearch, heading_samples, inputs, interpolations};
use crate::model::ops::reduce::channel::sample_numbers;
use crate::model::ops::reduce::world::NodeInput;
use crate::model::{Interpolation, Track};

/// Reduced tracks (one per channel of a search) sampled by the model's own interpolants at
/// the channels' sample times, with the headings they give auto-oriented layers.
pub(super) struct Played<'t> {
    /// Each track's values at every sample (`None`: the tried values, `reused`).
    sampled: Vec<Option<Vec<f32>>>,
    /// Whether each track is the tried one, whose values are reused.
    pub(super) reused: Vec<bool>,
    /// The try reused.
    tried: Option<&'t Tried>,
    /// How each track interpolates.
    interpolations: Vec<Interpolation>,
    /// Each heading's angle at every sample.
    headings: Vec<Vec<f64>>,
}

impl<'t> Played<'t> {
    /// `tracks` (one per channel of `search`) played at its sample times; a track that is
    /// `tried`'s fitted one plays the values tried.
    pub(super) fn new(
        search: &WorldSearch,
        tracks: &[&Track],
        tried: Option<&'t Tried>,
    ) -> Played<'t> {
        let reused: Vec<bool> = (0..tracks.len())
            .map(|i| {
                tried
                    .is_some_and(|t| t.sampled[i].is_some() && plays_alike(&t.tracks[i], tracks[i]))
            })
            .collect();
        let sampled = tracks
            .par_iter()
            .zip(search.channels.par_iter())
            .zip(reused.par_iter())
            .map(|((track, c), &reused)| {
                (!reused).then(|| sample_numbers(track, &c.sample_times, c.value_size))
            })
            .collect();
        let headings = match search.channels.first() {
            Some(c) => heading_samples(&search.tree, &search.headings, tracks, &c.sample_times),
            None => Vec::new(),
        };
        Played {
            sampled,
            reused,
            tried,
            interpolations: interpolations(tracks),
            headings,
        }
    }

    /// Track `i`'s values at every sample (`fallback` where neither played nor tried, which
    /// does not happen).
    pub(super) fn values<'s>(&'s self, i: usize, fallback: &'s [f32]) -> &'s [f32] {
        match (&self.sampled[i], self.tried) {
            (Some(v), _) => v,
            (None, Some(t)) => t.sampled[i].as_deref().unwrap_or(fallback),
            (None, None) => fallback,
        }
    }

    /// What drives each node of `search`'s tree.
    pub(super) fn inputs<'s>(&'s self, search: &'s WorldSearch) -> Vec<NodeInput<'s>> {
        let slices: Vec<&[f32]> = (0..self.sampled.len())
            .map(|i| self.values(i, &search.channels[i].samples))
            .collect();
        inputs(
            &search.tree,
            &search.targets,
            &search.channels,
            &slices,
            &self.interpolations,
            &search.headings,
            &self.headings,
        )
    }
}

/// Whether `a` and `b` play bit for bit the same values at every time: the same kind, key
/// times and values, interpolation and the bezier handles that shape their segments (what a
/// file's reader leaves aside — tangent modes, extras, the handles outside the keys — does
/// not play).
fn plays_alike(a: &Track, b: &Track) -> bool {
    fn bits(x: &[f32], y: &[f32]) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
    }
    let (Some(va), Some(vb)) = (a.values.as_numbers(), b.values.as_numbers()) else {
        return false;
    };
    if a.kind != b.kind
        || a.interpolation != b.interpolation
        || !bits(&a.times, &b.times)
        || !bits(va, vb)
    {
        return false;
    }
    if a.interpolation != Interpolation::Bezier {
        return true;
    }
    match (&a.tangents, &b.tangents) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            // Segment k runs from key k's out handle to key k + 1's in handle.
            let width = a.value_size() * 2;
            let keys = a.times.len();
            let outs = ..keys.saturating_sub(1) * width;
            let ins = width.min(keys * width)..keys * width;
            match (
                x.out_tangents.get(outs),
                y.out_tangents.get(outs),
                x.in_tangents.get(ins.clone()),
                y.in_tangents.get(ins),
            ) {
                (Some(xo), Some(yo), Some(xi), Some(yi)) => bits(xo, yo) && bits(xi, yi),
                _ => false,
            }
        }
        _ => false,
    }
}
