//! Which grid a joint track's keys sit on in a full try: the key grid, a finer one where the
//! key grid cannot follow the track, or a coarser one where its keys lie far apart (their
//! times then take fewer bits).
//!
//! Finding out costs a second fit of the track on a long take (a third of a full try's fits on
//! the benchmark's 10-minute take). So the last pilot try also works out each track's grid on
//! the take's beginning, and the full try fits that grid first: when it holds, the others are
//! not fitted. A track whose hinted grid fails is fitted as without a hint. A track no grid
//! drew on the pilot's stretch with few enough keys is most likely kept whole: its full fit
//! stops where that stretch ends unless it is on pace to be of use there ([`KeyCap::by`]).

use std::borrow::Cow;

use super::super::channel::Channel;
use super::super::cost::{mean_gap, packed_bits};
use super::super::fit::KeyCap;
use super::super::outcome::Outcome;
use super::{KEEP_SHARE, SPARSE};

/// The grid a joint track's keys sit on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Grid {
    /// The key grid ([`ReduceOptions::key_grid`](super::super::ReduceOptions::key_grid)).
    Key,
    /// The grid [`FINE_GRID`](super::FINE_GRID) times finer.
    Fine,
    /// The grid [`COARSE_GRID`](super::COARSE_GRID) times coarser.
    Coarse,
}

/// What the last pilot try found for a joint track, for the full try to start from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Hint {
    /// The grid that cost least on the pilot's stretch of the take.
    pub grid: Grid,
    /// Where no grid was of use there (the track best kept whole): the time the stretch ends
    /// and the keys kept whole up to it.
    pub whole_by: Option<(f32, usize)>,
}

impl Hint {
    /// The hint to start from `grid`.
    pub fn grid(grid: Grid) -> Hint {
        Hint {
            grid,
            whole_by: None,
        }
    }
}

/// What a try fits each joint track on.
#[derive(Debug, Clone, Copy)]
pub(super) enum Grids<'h> {
    /// The key grid only (a pilot try).
    Key,
    /// The key grid, and which grid costs least on this stretch of the take (the last pilot
    /// try, for the full try to start from).
    Choose,
    /// Whichever grid costs least, each track starting from the grid it is hinted (a full try;
    /// a track past the end of the hints, or hinted `None`, starts from the key grid).
    Cheapest(&'h [Option<Hint>]),
}

/// One joint track's fits on the grids, and how it is kept whole.
pub(super) struct Fits<'c, V, F, P> {
    /// The track's channel on the key grid.
    pub channel: &'c Channel,
    /// The channel on another grid, when that grid has other key times.
    pub variant: V,
    /// The track's keys kept whole (its lossless optimize) over the channel's samples.
    pub kept_keys: usize,
    /// The key grid's step in seconds.
    pub step: Option<f64>,
    /// The fit of a channel within the track's tolerance, `None` when it is of no use (it
    /// would take more keys than the cap given, or than the track kept whole).
    pub fit: F,
    /// Whether the fit on the finer grid within a cap that stops at a time is already known
    /// to be of no use from the take's beginning (its whole channel then need not be made).
    pub fine_fails: P,
}

impl<'c, V, F, P> Fits<'c, V, F, P>
where
    V: Fn(Grid) -> Option<Cow<'c, Channel>>,
    F: Fn(&Channel, KeyCap) -> Option<Outcome>,
    P: Fn(KeyCap) -> bool,
{
    /// The fit on whichever grid costs least, starting from the grid `hint` names, and the
    /// grid a later try should start from; `None` for the fit when the track is best kept
    /// whole (no grid follows it, or the finer grid keeps more than [`KEEP_SHARE`] of its
    /// keys). `key` is the fit on the key grid, when already made (`Some(None)`: made, of no
    /// use).
    pub fn cheapest(
        &self,
        hint: Option<Hint>,
        key: Option<Option<Outcome>>,
    ) -> (Option<Outcome>, Grid) {
        let whole_by = hint.and_then(|h| h.whole_by);
        let hint = hint.map(|h| h.grid);
        match hint {
            Some(Grid::Fine) => {
                if let Some(fine) = self.fine(whole_by) {
                    return (Some(fine), Grid::Fine);
                }
            }
            Some(Grid::Coarse) => {
                if let Some(coarse) = self.variant(Grid::Coarse, KeyCap::most(usize::MAX)) {
                    return (Some(coarse), Grid::Coarse);
                }
            }
            _ => {}
        }
        let outcome = key.unwrap_or_else(|| (self.fit)(self.channel, KeyCap::most(usize::MAX)));
        // The grid cannot follow the track: a finer grid, unless its keys cost more than
        // every key on the times other kept tracks share.
        let (outcome, grid) = match outcome {
            Some(outcome) => (outcome, Grid::Key),
            // The hinted finer grid failed already.
            None if hint == Some(Grid::Fine) => return (None, Grid::Fine),
            None => match self.fine(None) {
                Some(fine) => (fine, Grid::Fine),
                None => return (None, Grid::Fine),
            },
        };
        if hint.is_some() {
            return (Some(outcome), grid);
        }
        // Keys far apart on the grid: their times take a byte each, which the coarser grid
        // may halve for a few more keys.
        let sparse = self
            .step
            .is_some_and(|step| mean_gap(&outcome.track) >= SPARSE * step);
        match sparse
            .then(|| self.variant(Grid::Coarse, KeyCap::most(usize::MAX)))
            .flatten()
        {
            Some(coarse) if packed_bits(&coarse) < packed_bits(&outcome) => {
                (Some(coarse), Grid::Coarse)
            }
            _ => (Some(outcome), grid),
        }
    }

    /// The fit on the finer grid, when it draws the track with at most [`KEEP_SHARE`] of the
    /// keys kept whole, and with `whole_by` (a time, and the keys kept whole up to it) at most
    /// that share of those up to that time.
    fn fine(&self, whole_by: Option<(f32, usize)>) -> Option<Outcome> {
        let share = |keys: usize| (keys as f64 * KEEP_SHARE).floor() as usize;
        let cap = KeyCap {
            most: share(self.kept_keys),
            by: whole_by.map(|(time, keys)| (time, share(keys))),
        };
        if cap.by.is_some() && (self.fine_fails)(cap) {
            return None;
        }
        self.variant(Grid::Fine, cap)
    }

    /// The fit on `grid` within `cap`, when the channel has keys of its own there.
    fn variant(&self, grid: Grid, cap: KeyCap) -> Option<Outcome> {
        (self.variant)(grid).and_then(|c| (self.fit)(&c, cap))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::sync::Arc;

    use super::*;
    use crate::model::ops::reduce::channel::Metric;
    use crate::model::ops::reduce::grid_keys::GridKeys;
    use crate::model::ops::reduce::plan::sample_times;
    use crate::model::{Clip, Track, TrackKind, Values};

    /// What the fake fit makes on a grid: `Some(keys)` a fit that many keys apart by a quarter
    /// second, `None` one that cannot follow the track.
    #[derive(Clone, Copy)]
    struct Plan {
        key: Option<usize>,
        fine: Option<usize>,
        coarse: Option<usize>,
    }

    /// The grids `hint` leads [`Fits::cheapest`] to fit, in order, and what it chose, for a
    /// ten-second track on a 1/32 s key grid whose fits make what `plan` says.
    fn run(plan: Plan, hint: Option<Grid>, key_given: bool) -> (Vec<Grid>, Option<usize>, Grid) {
        let (grids, keys, grid, _) = run_hinted(plan, hint.map(Hint::grid), key_given, false);
        (grids, keys, grid)
    }

    /// [`run`] with a whole hint, and the caps the fits were given too; `fine_fails`: the
    /// finer grid's fit is known to fail from the take's beginning.
    fn run_hinted(
        plan: Plan,
        hint: Option<Hint>,
        key_given: bool,
        fine_fails: bool,
    ) -> (Vec<Grid>, Option<usize>, Grid, Vec<KeyCap>) {
        let times: Vec<f32> = (0..301).map(|i| i as f32 / 30.0).collect();
        let values = times.iter().flat_map(|&t| [t.sin(), t, 0.0]).collect();
        let track = Track::new(
            "a.position",
            TrackKind::Vector,
            times,
            Values::Numbers(values),
        );
        let clip = Clip::new("c", -1.0, vec![track.clone()]);
        let all = Arc::new(sample_times(&clip));
        let step = 1.0 / 32.0;
        let key =
            Channel::on_grid(&track, Metric::Translation, all, step, &GridKeys::default()).unwrap();
        let fine = key
            .regrid(&track, step / 2.0, &GridKeys::default())
            .unwrap();
        let coarse = key
            .regrid(&track, step * 2.0, &GridKeys::default())
            .unwrap();
        let calls = RefCell::new(Vec::new());
        let fit = |c: &Channel, cap: KeyCap| {
            let grid = match c.times.len() {
                n if n == key.times.len() => Grid::Key,
                n if n == fine.times.len() => Grid::Fine,
                _ => Grid::Coarse,
            };
            calls.borrow_mut().push((grid, cap));
            let keys = match grid {
                Grid::Key => plan.key,
                Grid::Fine => plan.fine,
                Grid::Coarse => plan.coarse,
            };
            let lossy = keys.is_some_and(|k| k <= cap.most);
            let times: Vec<f32> = (0..keys.unwrap_or(301)).map(|k| k as f32 / 4.0).collect();
            let values = Values::Numbers(vec![0.0; times.len()]);
            lossy.then(|| Outcome {
                track: Track::new("a.x", TrackKind::Number, times, values),
                error: 0.0,
                lossy,
                sampled: None,
            })
        };
        let fits = Fits {
            channel: &key,
            variant: |g| match g {
                Grid::Key => None,
                Grid::Fine => Some(Cow::Borrowed(&fine)),
                Grid::Coarse => Some(Cow::Borrowed(&coarse)),
            },
            kept_keys: 301,
            step: Some(step),
            fit,
            fine_fails: |_| fine_fails,
        };
        let given = key_given.then(|| (fits.fit)(&key, KeyCap::most(usize::MAX)));
        calls.borrow_mut().clear();
        let (outcome, grid) = fits.cheapest(hint, given);
        let keys = outcome.map(|o| o.track.len());
        let (grids, caps) = calls.into_inner().into_iter().unzip();
        (grids, keys, grid, caps)
    }

    const KEY: Grid = Grid::Key;
    const FINE: Grid = Grid::Fine;
    const COARSE: Grid = Grid::Coarse;

    #[test]
    fn without_a_hint_every_grid_that_may_cost_less_is_fitted() {
        // Sparse keys (a quarter second apart): the coarser grid, when it costs less.
        let sparse = Plan {
            key: Some(40),
            fine: Some(60),
            coarse: Some(30),
        };
        assert_eq!(
            run(sparse, None, false),
            (vec![KEY, COARSE], Some(30), COARSE)
        );
        let dearer = Plan {
            coarse: Some(50),
            ..sparse
        };
        assert_eq!(run(dearer, None, false), (vec![KEY, COARSE], Some(40), KEY));
        // The key grid cannot follow: the finer one, or kept whole past its share of keys.
        let stuck = Plan {
            key: None,
            coarse: None,
            ..sparse
        };
        assert_eq!(
            run(stuck, None, false),
            (vec![KEY, FINE, COARSE], Some(60), FINE)
        );
        let too_many = Plan {
            fine: Some(200),
            ..stuck
        };
        assert_eq!(run(too_many, None, false), (vec![KEY, FINE], None, FINE));
        // A key grid fit already made is not made again.
        assert_eq!(run(sparse, None, true), (vec![COARSE], Some(30), COARSE));
    }

    #[test]
    fn a_hinted_grid_that_holds_is_the_only_one_fitted() {
        let plan = Plan {
            key: Some(40),
            fine: Some(60),
            coarse: Some(30),
        };
        assert_eq!(run(plan, Some(FINE), false), (vec![FINE], Some(60), FINE));
        assert_eq!(
            run(plan, Some(COARSE), false),
            (vec![COARSE], Some(30), COARSE)
        );
        // The key grid hinted: the coarser one is not tried, however sparse the keys.
        assert_eq!(run(plan, Some(KEY), false), (vec![KEY], Some(40), KEY));
    }

    #[test]
    fn a_track_kept_whole_on_the_pilots_stretch_is_capped_there_or_known_to_fail() {
        let plan = Plan {
            key: None,
            fine: Some(60),
            coarse: None,
        };
        // 100 of the 301 keys kept whole fall within the pilot's first 3.3 s.
        let whole = Hint {
            grid: FINE,
            whole_by: Some((3.3, 100)),
        };
        let (grids, keys, grid, caps) = run_hinted(plan, Some(whole), false, false);
        assert_eq!((grids, keys, grid), (vec![FINE], Some(60), FINE));
        // The share of the keys kept whole, in all and by the stretch's end.
        let by = Some((3.3, (100.0 * KEEP_SHARE) as usize));
        let most = (301.0 * KEEP_SHARE) as usize;
        assert_eq!(caps, vec![KeyCap { most, by }]);
        // Without a whole hint, and on the key grid, only the cap in all.
        let (_, _, _, caps) = run_hinted(plan, Some(Hint::grid(FINE)), false, false);
        assert_eq!(caps, vec![KeyCap { most, by: None }]);
        let (_, _, _, caps) = run_hinted(plan, None, false, false);
        assert_eq!(caps[0], KeyCap::most(usize::MAX));
        // The finer grid known to fail on the stretch: only the key grid is fitted, and the
        // track is kept whole.
        let (grids, keys, grid, _) = run_hinted(plan, Some(whole), false, true);
        assert_eq!((grids, keys, grid), (vec![KEY], None, FINE));
        // Without a time to stop at, nothing is known early: the finer grid is fitted.
        let (grids, keys, grid, _) = run_hinted(plan, Some(Hint::grid(FINE)), false, true);
        assert_eq!((grids, keys, grid), (vec![FINE], Some(60), FINE));
    }

    #[test]
    fn a_hinted_grid_that_fails_falls_back_without_fitting_it_twice() {
        let plan = Plan {
            key: Some(40),
            fine: Some(200),
            coarse: None,
        };
        assert_eq!(
            run(plan, Some(FINE), false),
            (vec![FINE, KEY], Some(40), KEY)
        );
        assert_eq!(
            run(plan, Some(COARSE), false),
            (vec![COARSE, KEY], Some(40), KEY)
        );
        // Neither the finer grid nor the key grid: kept whole.
        let stuck = Plan { key: None, ..plan };
        assert_eq!(run(stuck, Some(FINE), false), (vec![FINE, KEY], None, FINE));
        // The key grid hinted but stuck: the finer grid, as without a hint.
        let fine = Plan {
            fine: Some(60),
            ..stuck
        };
        assert_eq!(
            run(fine, Some(KEY), false),
            (vec![KEY, FINE], Some(60), FINE)
        );
    }
}
