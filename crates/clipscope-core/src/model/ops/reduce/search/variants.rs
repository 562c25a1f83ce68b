//! What a full try may need of a joint track besides its channel, made the first time a try
//! asks for it: the channel on the finer and on the coarser key grid, and the kept track as
//! the file stores it with its values at every sample. Most tries ask for few of them, and on
//! a long take each costs a pass over every sample.

use std::sync::{Arc, OnceLock};

use super::grids::Grid;
use super::{COARSE_GRID, FINE_GRID};
use crate::model::Track;
use crate::model::ops::reduce::Stored;
use crate::model::ops::reduce::channel::{Channel, sample_numbers};
use crate::model::ops::reduce::grid_keys::GridKeys;

/// One joint track's variants, each made on first use.
pub(super) struct Variants<'c> {
    /// The track as the clip has it, which the other grids sample (only on a key grid).
    source: Option<&'c Track>,
    /// The channel on the grid [`FINE_GRID`] times finer than the key grid.
    fine: OnceLock<Option<Channel>>,
    /// The channel on the grid [`COARSE_GRID`] times coarser than the key grid.
    coarse: OnceLock<Option<Channel>>,
    /// The kept track as the file stores it and its values at every sample.
    stored_kept: OnceLock<Option<(Track, Vec<f32>)>>,
    /// The grids' keys, shared with the other tracks of the search.
    grids: Arc<GridKeys>,
}

impl<'c> Variants<'c> {
    /// The variants of `track`; the other grids only when there is a key grid, their keys
    /// from `grids`.
    pub fn new(track: &'c Track, key_grid: Option<f64>, grids: Arc<GridKeys>) -> Variants<'c> {
        Variants {
            source: key_grid.map(|_| track),
            fine: OnceLock::new(),
            coarse: OnceLock::new(),
            stored_kept: OnceLock::new(),
            grids,
        }
    }

    /// Lets go of the channels on the finer and coarser grids (made again on first use).
    pub fn release_grids(&mut self) {
        self.fine = OnceLock::new();
        self.coarse = OnceLock::new();
    }

    /// `channel` on `grid` when it is the finer grid ([`FINE_GRID`] times finer than
    /// `key_grid`: what a full try fits where the key grid cannot follow the track) or the
    /// coarser one ([`COARSE_GRID`] times coarser: also fitted where the key grid's keys lie
    /// far apart) and has other key times there.
    pub fn on(&self, grid: Grid, channel: &Channel, key_grid: Option<f64>) -> Option<&Channel> {
        let slot = match grid {
            Grid::Key => return None,
            Grid::Fine => &self.fine,
            Grid::Coarse => &self.coarse,
        };
        slot.get_or_init(|| self.regrid(channel, grid_step(grid, key_grid)))
            .as_ref()
    }

    /// [`Variants::on`] over the samples of `prefix` only (a pilot's prefix of the channel),
    /// made afresh: a pilot's one look costs a fraction of the whole take's variant.
    pub fn over(&self, grid: Grid, prefix: &Channel, key_grid: Option<f64>) -> Option<Channel> {
        let step = grid_step(grid, key_grid)?;
        prefix
            .regrid_within(self.source?, step)
            .filter(|c| c.times != prefix.times)
    }

    /// [`Variants::on`] with only the grid's keys up to `end` seconds (and all of
    /// `channel`'s samples), made afresh: enough to show on the take's beginning that a fit
    /// fails ([`fails_of_use_on_prefix`](super::super::outcome::fails_of_use_on_prefix)).
    pub fn until(
        &self,
        grid: Grid,
        channel: &Channel,
        key_grid: Option<f64>,
        end: f64,
    ) -> Option<Channel> {
        let step = grid_step(grid, key_grid)?;
        channel.regrid_until(self.source?, step, end)
    }

    /// `kept` (the track's lossless optimize) as `stored` rounds it and its values at every
    /// sample of `channel`, when the file rounds what it stores.
    pub fn stored_kept(
        &self,
        kept: &Track,
        channel: &Channel,
        stored: Option<&Stored>,
    ) -> Option<&(Track, Vec<f32>)> {
        self.stored_kept
            .get_or_init(|| stored_kept(kept, channel, stored))
            .as_ref()
    }

    /// `channel` with its keys on a grid of `step` seconds, if that changes its key times.
    fn regrid(&self, channel: &Channel, step: Option<f64>) -> Option<Channel> {
        let (source, step) = (self.source?, step?);
        channel
            .regrid(source, step, &self.grids)
            .filter(|c| c.times != channel.times)
    }
}

/// `kept` as `stored` rounds it and its values at every sample of `channel`, when the file
/// rounds what it stores (see [`Variants::stored_kept`], which keeps it).
pub(super) fn stored_kept(
    kept: &Track,
    channel: &Channel,
    stored: Option<&Stored>,
) -> Option<(Track, Vec<f32>)> {
    let stored = stored?;
    let mut track = kept.clone();
    stored.apply(&mut track);
    let sampled = sample_numbers(&track, &channel.sample_times, channel.value_size);
    Some((track, sampled))
}

/// The step in seconds of `grid`, given the key grid's; `None` for the key grid itself (and
/// without a key grid).
fn grid_step(grid: Grid, key_grid: Option<f64>) -> Option<f64> {
    match grid {
        Grid::Key => None,
        Grid::Fine => key_grid.map(|step| step / FINE_GRID),
        Grid::Coarse => key_grid.map(|step| step * COARSE_GRID),
    }
}
