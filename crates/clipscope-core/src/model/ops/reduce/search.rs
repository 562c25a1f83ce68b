//! The world search: the loosest tolerance for each node channel that keeps the whole pose
//! within the budget.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::channel::Channel;
use super::cost::packed_bits;
use super::fit::{CurveFit, KeyCap, Sampling};
use super::grid_keys::GridKeys;
use super::layer::{heading, heading_times};
use super::mesh::{MeshError, MeshProbe};
use super::outcome::{Outcome, fails_of_use_on_prefix, fit_of_use, lossless_of};
use super::plan::Role;
use super::property::Property;
use super::tree::{Local, Tree};
use super::world::{CHUNK, Chunk, NodeInput, PerNode, WorldError};
use super::{ReduceOptions, Stored};
use crate::model::interpolant::Sampler;
use crate::model::{Clip, Interpolation, Track};

mod grids;
mod mend;
mod original;
mod played;
mod polish;
mod release;
mod schedule;
mod shares;
mod variants;

use grids::{Fits, Grid, Grids, Hint};
use mend::{Limits, Pieces};
use played::Played;
use polish::MEND_REACH;
use schedule::Costs;
use shares::shares;
use variants::Variants;

/// The search for the loosest tolerance of each skeleton channel that keeps the whole pose
/// within the budget.
pub(crate) struct WorldSearch<'c> {
    /// The nodes.
    pub tree: Tree,
    /// The clip's track index of each joint channel.
    pub tracks: Vec<usize>,
    /// Each joint track's channel, in the order of `tracks`.
    channels: Vec<Channel>,
    /// Each channel's variants a full try may need, made on first use: on a key grid
    /// ([`ReduceOptions::key_grid`]) the channel on a grid [`FINE_GRID`] times finer (where the
    /// grid cannot follow the track within its tolerance) and on one [`COARSE_GRID`] times
    /// coarser (where the grid's keys lie far apart, whose times then take fewer bits), and
    /// the kept track as the file stores it.
    variants: Vec<Variants<'c>>,
    /// The key grid's step in seconds ([`ReduceOptions::key_grid`]).
    key_grid: Option<f64>,
    /// Each joint track after the lossless optimize.
    kept: Vec<Cow<'c, Track>>,
    /// Whether each joint track is fitted (else kept as it is: steps, one key).
    fitted: Vec<bool>,
    /// Each joint track's joint and property.
    targets: Vec<(usize, Property)>,
    /// Each joint track's first tolerance (in its metric).
    base: Vec<f64>,
    /// The auto-oriented layers and the channels their heading follows.
    headings: Vec<Heading>,
    /// The sample times every pose is measured at.
    times: Arc<Vec<f64>>,
    /// The original's heading of each auto-oriented layer at every sample.
    original_headings: Vec<Vec<f64>>,
    /// The curves the format holds.
    curves: CurveFit,
    /// How the file stores a fitted track ([`ReduceOptions::stored`]).
    stored: Option<Stored>,
    /// The try the last search chose, with its comparison chunk by chunk: measuring a
    /// reduction that plays exactly as tried reuses it ([`WorldSearch::measure`]).
    tried: Mutex<Option<Arc<Tried>>>,
    /// What each channel's fit took in the last try, to fit the longest first in the next.
    costs: Costs,
}

/// A joint track prepared for the search: its index in the clip, its joint and property, its
/// channel and variants, its lossless optimize and whether it is fitted.
type Prepared<'c> = (
    usize,
    usize,
    Property,
    (Channel, Variants<'c>),
    Cow<'c, Track>,
    bool,
);

/// A try the search chose: each channel's track and values at every sample, and the
/// comparison of the pose they drive (angles included), chunk by chunk.
struct Tried {
    /// Each channel's track.
    tracks: Vec<Track>,
    /// Each channel's values at every sample as posed: the player's (`sample_numbers`) for a
    /// fitted track, `None` for a kept one (posed with the channel's own samples).
    sampled: Vec<Option<Vec<f32>>>,
    /// The comparison, chunk by chunk.
    chunks: Vec<Chunk>,
}

/// An auto-oriented layer: its node and the channel of its position (or of its split x and
/// y positions).
#[derive(Debug, Clone, Copy)]
struct Heading {
    /// The layer's node.
    node: usize,
    /// The position channel, or the x channel of a split position.
    x: usize,
    /// The y channel of a split position.
    y: Option<usize>,
}

impl<'c> WorldSearch<'c> {
    /// Prepares the search for the joint tracks `tracks` of `clip`.
    pub fn new(
        clip: &'c Clip,
        tree: Tree,
        roles: &[Role],
        tracks: &[usize],
        sample_times: &Arc<Vec<f64>>,
        options: &ReduceOptions,
    ) -> WorldSearch<'c> {
        // Every joint track over the same keys shares its grid's (the full take's and its
        // finer and coarser variants').
        let grids = Arc::new(GridKeys::default());
        let prepared: Vec<Prepared> = tracks
            .par_iter()
            .filter_map(|&i| {
                let Role::Joint {
                    joint,
                    property,
                    fit,
                    exact,
                } = roles[i]
                else {
                    return None;
                };
                let track = &clip.tracks[i];
                let metric = property.metric();
                let channel =
                    Channel::keys_for(track, metric, sample_times.clone(), options, &grids)?;
                let variants = Variants::new(track, options.key_grid, grids.clone());
                let kept = if exact {
                    Cow::Borrowed(track)
                } else {
                    lossless_of(track)
                };
                Some((i, joint, property, (channel, variants), kept, fit))
            })
            .collect();
        let mut used = Vec::with_capacity(prepared.len());
        let mut targets = Vec::with_capacity(prepared.len());
        let mut channels = Vec::with_capacity(prepared.len());
        let mut kept = Vec::with_capacity(prepared.len());
        let mut fitted = Vec::with_capacity(prepared.len());
        let mut variants = Vec::with_capacity(prepared.len());
        for (i, joint, property, (channel, v), k, fit) in prepared {
            used.push(i);
            targets.push((joint, property));
            channels.push(channel);
            variants.push(v);
            kept.push(k);
            fitted.push(fit);
        }
        options.trace.line(format_args!("  channels sampled"));
        let headings = headings(&tree, &targets);
        let sampled: Vec<&[f32]> = channels.iter().map(|c| c.samples.as_slice()).collect();
        let kept_tracks: Vec<&Track> = kept.iter().map(|k| &**k).collect();
        let heading_samples = heading_samples(&tree, &headings, &kept_tracks, sample_times);
        let inputs = inputs(
            &tree,
            &targets,
            &channels,
            &sampled,
            &interpolations(&kept_tracks),
            &headings,
            &heading_samples,
        );
        let base = shares(&tree, &targets, &inputs, sample_times.len(), options);
        WorldSearch {
            tree,
            tracks: used,
            channels,
            variants,
            key_grid: options.key_grid,
            kept,
            fitted,
            targets,
            base,
            headings,
            times: sample_times.clone(),
            original_headings: heading_samples,
            curves: options.curves,
            stored: options.stored.clone(),
            tried: Mutex::new(None),
            costs: Costs::default(),
        }
    }

    /// Fits every channel with its tolerance and measures the whole pose, angles included
    /// (what the final measure reports, which then reuses this comparison), and where a mend
    /// may follow, where it strays past `limits`.
    fn attempt(&self, tolerances: &[f64], limits: Limits) -> Attempt {
        let grids = Grids::Cheapest(&[]);
        self.attempt_on(
            &self.channels,
            usize::MAX,
            tolerances,
            true,
            Some(limits),
            grids,
        )
    }

    /// Fits `channels` (the search's own, or a pilot's prefixes of them; `None` where a pilot
    /// keeps the original) and measures the pose over the first `samples` samples (angles
    /// when `angles`; in pieces with `limits` for a full try: see [`WorldSearch::attempt`]).
    fn attempt_on(
        &self,
        channels: &[Channel],
        samples: usize,
        tolerances: &[f64],
        angles: bool,
        limits: Option<Limits>,
        grids: Grids,
    ) -> Attempt {
        let (outcomes, chosen): (Vec<Outcome>, Vec<Option<Hint>>) = self
            .costs
            .run(channels.len(), |i| {
                let (outcome, grid) = self.fit_one(i, &channels[i], tolerances[i], grids);
                (outcome.played(&channels[i]), grid)
            })
            .into_iter()
            .unzip();
        let slices: Vec<&[f32]> = outcomes
            .iter()
            .zip(channels)
            .map(|(o, c)| o.sampled.as_deref().unwrap_or(&c.samples))
            .collect();
        let tracks: Vec<&Track> = outcomes.iter().map(|o| &o.track).collect();
        let times = channels.first().map(|c| c.sample_times.clone());
        let heading_samples = times.map_or_else(Vec::new, |times| {
            heading_samples(&self.tree, &self.headings, &tracks, &times)
        });
        let inputs = inputs(
            &self.tree,
            &self.targets,
            channels,
            &slices,
            &interpolations(&tracks),
            &self.headings,
            &heading_samples,
        );
        // A full try a mend may follow is measured in pieces, with where it strays.
        let mendable = self.key_grid.is_some() && self.headings.is_empty();
        let original = self.original_inputs();
        let reference = self.reference(&original);
        let (chunks, pieces) = match limits.filter(|_| mendable && samples == usize::MAX) {
            Some(limits) => {
                let (chunks, pieces) = self.measure_in_pieces(&reference, &inputs, limits);
                (chunks, Some((pieces, limits)))
            }
            None => {
                let chunks = reference.chunks(samples, &inputs, angles, |_| None);
                (chunks, None)
            }
        };
        let (error, per_joint) = reference.merge(&chunks);
        // Beyond a mend's reach its overshoots are not worth keeping.
        let reach = |limit: f64| limit * MEND_REACH;
        let pieces = pieces.filter(|(_, (d, a))| within(&error, reach(*d), a.map(reach)));
        Attempt {
            tolerances: tolerances.to_vec(),
            outcomes,
            error,
            per_joint,
            chunks,
            pieces,
            grids: chosen,
        }
    }

    /// Channel `i` (`channel`: the search's own, or a pilot's prefix of it) fitted within
    /// `tolerance` for a try, on the grids `grids` says ([`Grids`]): a pilot's curve as drawn;
    /// a full try's as the file stores it (its values at every sample still to be played:
    /// [`Outcome::played`]). With it, what a later try should start from, where the try
    /// worked that out.
    fn fit_one(
        &self,
        i: usize,
        channel: &Channel,
        tolerance: f64,
        grids: Grids,
    ) -> (Outcome, Option<Hint>) {
        if !self.fitted[i] {
            return (self.kept_outcome(i), None);
        }
        // A pilot measures the curves as fitted; a full try as played.
        let sampling = match grids {
            Grids::Cheapest(_) => Sampling::Later,
            Grids::Key | Grids::Choose => Sampling::Drawn,
        };
        // A fit of use, or none (the track kept whole only where no grid fits).
        let fit = |c: &Channel, cap: KeyCap| {
            fit_of_use(
                c,
                &self.kept[i],
                tolerance,
                self.curves,
                false,
                (sampling, self.stored.as_ref()),
                cap,
            )
        };
        let whole_track = || Outcome::exact(&self.kept[i]);
        let (variants, whole, step) = (&self.variants[i], &self.channels[i], self.key_grid);
        match grids {
            Grids::Key => (
                fit(channel, KeyCap::most(usize::MAX)).unwrap_or_else(whole_track),
                None,
            ),
            Grids::Choose => {
                // The other grids over the pilot's samples, and the kept keys among them.
                let last = channel.sample_times.last().copied();
                let kept = &self.kept[i].times;
                let fits = Fits {
                    channel,
                    variant: |g| variants.over(g, channel, step).map(Cow::Owned),
                    kept_keys: kept.partition_point(|&t| last.is_some_and(|l| f64::from(t) <= l)),
                    step,
                    fit,
                    fine_fails: |_| false,
                };
                let outcome = (fits.fit)(channel, KeyCap::most(usize::MAX));
                let (cheapest, grid) = fits.cheapest(None, Some(outcome.clone()));
                // Kept whole on this stretch: by its end, as many keys as it kept whole.
                let whole_by = cheapest
                    .is_none()
                    .then(|| last.map(|l| (l as f32, fits.kept_keys)))
                    .flatten();
                let hint = Hint { grid, whole_by };
                (outcome.unwrap_or_else(whole_track), Some(hint))
            }
            Grids::Cheapest(hints) => {
                let fits = Fits {
                    channel,
                    variant: |g| variants.on(g, whole, step).map(Cow::Borrowed),
                    kept_keys: self.kept[i].len(),
                    step,
                    fit,
                    fine_fails: |cap| self.fine_fails_early(i, tolerance, cap),
                };
                let (outcome, grid) = fits.cheapest(hints.get(i).copied().flatten(), None);
                let hint = Hint::grid(grid);
                (outcome.unwrap_or_else(|| self.kept_outcome(i)), Some(hint))
            }
        }
    }

    /// The fitted joint tracks (in `tracks` order) with the loosest tolerances found that keep
    /// the whole pose within the budget, and their measured world error.
    ///
    /// The first try gives every channel its share of the budget as if errors down a chain
    /// added like independent ones (the budget over the square root of the chain's channels);
    /// after each try every channel's tolerance is scaled by how much room its subtree has (or
    /// by how far it overshot), so the chains that meet the budget stay and the others loosen.
    /// On a key grid a try a little past the budget is mended ([`WorldSearch::mend`]: keys
    /// where it strays) and counts as within it; the best try within the budget is then
    /// polished on a short take ([`WorldSearch::polish`]). The best try wins; if none is
    /// within the budget, tolerances halve until one is.
    pub fn search(&self, options: &ReduceOptions) -> (Vec<Outcome>, WorldError, PerNode) {
        // A little margin, so an independent evaluation (another float path) agrees.
        let budget = options.max_error * (1.0 - 1e-4);
        let angle_budget = options.max_angle.map(|a| a * (1.0 - 1e-4));
        let angles = angle_budget.is_some();
        let feasible = |e: &WorldError| within(e, budget, angle_budget);
        let mut tolerances = self.base.clone();
        // The grid each channel's full fit starts from, as the last pilot found.
        let mut hints = Vec::new();
        if let Some((channels, samples)) = self.pilot() {
            // Tune the first shares on the take's beginning, a fraction of the cost of a try.
            for round in 1..=PILOT_ROUNDS {
                let t0 = std::time::Instant::now();
                let grids = match round == PILOT_ROUNDS && self.key_grid.is_some() {
                    true => Grids::Choose,
                    false => Grids::Key,
                };
                let pilot = self.attempt_on(&channels, samples, &tolerances, angles, None, grids);
                hints = pilot.grids.clone();
                options.trace.line(format_args!(
                    "pilot {:?} over {samples} samples: error {:.5}",
                    t0.elapsed(),
                    pilot.error.distance
                ));
                tolerances = self.rescale(
                    &pilot,
                    budget * PILOT_AIM,
                    angle_budget.map(|a| a * PILOT_AIM),
                );
            }
        }
        let mut best: Option<Attempt> = None;
        for _ in 0..SEARCH_ROUNDS {
            let t0 = std::time::Instant::now();
            let limits = Some((budget, angle_budget));
            let grids = Grids::Cheapest(&hints);
            let attempt =
                self.attempt_on(&self.channels, usize::MAX, &tolerances, true, limits, grids);
            options.trace.line(format_args!(
                "attempt {:?}: error {:.5}, keys {}",
                t0.elapsed(),
                attempt.error.distance,
                attempt.keys()
            ));
            let next = self.rescale(&attempt, budget, angle_budget);
            let mut settled = false;
            if let Some(attempt) = self.within_or_mended(attempt, budget, angle_budget, options) {
                // Close to the budget already: little left to gain.
                settled = attempt.error.distance >= CLOSE * budget
                    || angle_budget.is_some_and(|a| attempt.error.angle >= CLOSE * a);
                match &best {
                    Some(b) => {
                        let (k, kb) = (self.cost(&attempt), self.cost(b));
                        settled |= k > kb * (1.0 - SETTLED);
                        if k < kb {
                            best = Some(attempt);
                        }
                    }
                    None => best = Some(attempt),
                }
            }
            if settled {
                break;
            }
            tolerances = next;
        }
        if let Some(mut b) = best {
            // A long take's tries cost as much as a short take's whole search each.
            let long = self
                .channels
                .first()
                .is_some_and(|c| c.sample_times.len() >= PILOT_MIN_SAMPLES);
            if self.key_grid.is_some() && !long {
                b = self.polish(b, options, budget, angle_budget);
            }
            return self.chosen(b);
        }
        // Nothing within the budget: halve every share until something is.
        let mut scale = 0.5;
        for _ in 0..12 {
            let tolerances: Vec<f64> = self.base.iter().map(|b| b * scale).collect();
            let attempt = self.attempt(&tolerances, (budget, angle_budget));
            if feasible(&attempt.error) {
                return self.chosen(attempt);
            }
            scale /= 2.0;
        }
        // Every joint track losslessly.
        let kept: Vec<Outcome> = self
            .kept
            .iter()
            .map(|t| Outcome {
                track: Track::clone(t),
                error: 0.0,
                lossy: false,
                sampled: None,
            })
            .collect();
        let (error, per_joint) = self.measure(&kept.iter().map(|o| &o.track).collect::<Vec<_>>());
        (kept, error, per_joint)
    }

    /// The keys of each joint track's kept track by its index in the clip: its lossless
    /// optimize (the track itself where it is kept exactly), so a measure need not optimize it
    /// again.
    pub fn lossless_keys(&self) -> HashMap<usize, usize> {
        self.tracks
            .iter()
            .zip(&self.kept)
            .map(|(&i, kept)| (i, kept.len()))
            .collect()
    }

    /// What `attempt` costs: its keys, or on a key grid about the bits a compressed file
    /// spends on them ([`packed_bits`], a fitted track's own key times included).
    fn cost(&self, attempt: &Attempt) -> f64 {
        match self.key_grid {
            Some(_) => attempt.outcomes.iter().map(packed_bits).sum(),
            None => attempt.keys() as f64,
        }
    }

    /// Whether joint track `i`'s fit on the finer grid within `cap`, which stops at a time
    /// (a track the last pilot kept whole), is known to be of no use from the take's
    /// beginning: decided on the finer grid's keys up to twice that time (room for the segment
    /// that crosses it), so the whole take's finer channel is made only where that does not
    /// settle it.
    fn fine_fails_early(&self, i: usize, tolerance: f64, cap: KeyCap) -> bool {
        let Some((time, _)) = cap.by else {
            return false;
        };
        let end = 2.0 * f64::from(time);
        self.variants[i]
            .until(Grid::Fine, &self.channels[i], self.key_grid, end)
            .is_some_and(|prefix| {
                fails_of_use_on_prefix(&prefix, &self.kept[i], tolerance, self.curves, cap)
            })
    }

    /// Joint track `i` kept (its lossless optimize), as the file stores it. A track that is
    /// not fitted is kept in every try, made once; a fitted one only where no fit is of use
    /// (once a full try), made afresh rather than copied from a kept one.
    fn kept_outcome(&self, i: usize) -> Outcome {
        let (kept, channel, stored) = (&self.kept[i], &self.channels[i], self.stored.as_ref());
        let made = match self.fitted[i] {
            true => variants::stored_kept(kept, channel, stored),
            false => self.variants[i]
                .stored_kept(kept, channel, stored)
                .map(|(track, sampled)| (track.clone(), sampled.clone())),
        };
        let (track, sampled) = match made {
            Some((track, sampled)) => (track, Some(sampled)),
            None => (Track::clone(kept), None),
        };
        Outcome {
            track,
            error: 0.0,
            lossy: false,
            sampled,
        }
    }

    /// The outcome of the try `chosen`, which is kept for [`WorldSearch::measure`].
    fn chosen(&self, mut chosen: Attempt) -> (Vec<Outcome>, WorldError, PerNode) {
        // The values move to the try kept (nothing after the search reads them).
        let tried = Tried {
            tracks: chosen
                .outcomes
                .par_iter()
                .map(|o| o.track.clone())
                .collect(),
            sampled: chosen
                .outcomes
                .iter_mut()
                .map(|o| o.sampled.take())
                .collect(),
            chunks: chosen.chunks,
        };
        if let Ok(mut slot) = self.tried.lock() {
            *slot = Some(Arc::new(tried));
        }
        (chosen.outcomes, chosen.error, chosen.per_joint)
    }

    /// The channels cut to the take's first [`PILOT_SAMPLES`] samples and the samples every
    /// one of them covers, when the take is long enough for a pilot to pay.
    fn pilot(&self) -> Option<(Vec<Channel>, usize)> {
        let all = self.channels.first()?.sample_times.clone();
        if all.len() < PILOT_MIN_SAMPLES {
            return None;
        }
        let times = Arc::new(all[..PILOT_SAMPLES].to_vec());
        let mut end = PILOT_SAMPLES;
        let mut channels = Vec::with_capacity(self.channels.len());
        for (c, &fitted) in self.channels.iter().zip(&self.fitted) {
            match c.prefix(&times) {
                Some(p) => {
                    if fitted {
                        end = end.min(p.end_sample());
                    }
                    channels.push(p);
                }
                // Too few keys in the window to tell anything.
                None if fitted => return None,
                None => channels.push(c.clone()),
            }
        }
        (end > PILOT_SAMPLES / 2).then_some((channels, end))
    }

    /// The tolerances for the next try: each channel's scaled by the room its subtree had in
    /// `attempt` (more than 1 where it stayed within the budget, less where it overshot).
    fn rescale(&self, attempt: &Attempt, budget: f64, angle_budget: Option<f64>) -> Vec<f64> {
        let subtree = self.subtree_errors(&attempt.per_joint);
        attempt
            .tolerances
            .iter()
            .zip(&self.targets)
            .map(|(&t, &(joint, property))| {
                let (d, a) = subtree[joint];
                let mut room = if d > 0.0 {
                    AIM * budget / d
                } else {
                    RESCALE_MAX
                };
                if let Some(ab) = angle_budget
                    && property.turns()
                {
                    room = room.min(if a > 0.0 { AIM * ab / a } else { RESCALE_MAX });
                }
                t * room
                    .powf(RESCALE_POWER)
                    .clamp(1.0 / RESCALE_MAX, RESCALE_MAX)
            })
            .collect()
    }

    /// For each joint, the largest (distance, angle) error of it and every joint below it.
    fn subtree_errors(&self, per_joint: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let mut out = per_joint.to_vec();
        // Children after parents in `order`: walk it backwards to push errors up.
        for &j in self.tree.order.iter().rev() {
            if let Some(p) = self.tree.parent[j] {
                out[p].0 = out[p].0.max(out[j].0);
                out[p].1 = out[p].1.max(out[j].1);
            }
        }
        out
    }

    /// The world error of `tracks` (one per channel), overall and per node, sampled by the
    /// model's own interpolants (what a player shows).
    ///
    /// Where a track is the one the last search chose, its values are that try's (the
    /// player's, bit for bit), and every chunk of samples where all values are the try's keeps
    /// the try's comparison: only what plays differently is posed again.
    pub fn measure(&self, tracks: &[&Track]) -> (WorldError, PerNode) {
        let tried = self.tried.lock().ok().and_then(|t| t.clone());
        // Headings follow the position tracks through times of their own: posed afresh.
        let tried = tried.filter(|t| self.headings.is_empty() && t.tracks.len() == tracks.len());
        let played = Played::new(self, tracks, tried.as_deref());
        let inputs = played.inputs(self);
        let original = self.original_inputs();
        let reference = self.reference(&original);
        let Some(tried) = tried.as_deref() else {
            return reference.compare(&inputs, true);
        };
        let vs = |i: usize| self.channels[i].value_size;
        let same = |chunk: usize| {
            (0..tracks.len()).all(|i| {
                if played.reused[i] {
                    return true;
                }
                let range = chunk * CHUNK * vs(i)..((chunk + 1) * CHUNK * vs(i));
                let was = tried.sampled[i]
                    .as_deref()
                    .unwrap_or(&self.channels[i].samples);
                let now = played.values(i, was);
                let end = range.end.min(now.len()).min(was.len());
                let range = range.start.min(end)..end;
                now[range.clone()]
                    .iter()
                    .zip(&was[range])
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            })
        };
        let chunks = reference.chunks(usize::MAX, &inputs, true, |c| {
            same(c).then(|| tried.chunks.get(c).cloned()).flatten()
        });
        reference.merge(&chunks)
    }

    /// Every node origin and vertex of `probe` posed by the original and by `tracks` (one per
    /// channel) with the morph weights of `candidate`.
    pub fn compare_mesh(
        &self,
        probe: &MeshProbe,
        tracks: &[&Track],
        candidate: &Clip,
    ) -> (MeshError, PerNode) {
        if self.channels.is_empty() {
            return (MeshError::default(), Vec::new());
        }
        let original = self.original_inputs();
        let played = Played::new(self, tracks, None);
        probe.compare(
            &self.tree,
            &original,
            &played.inputs(self),
            candidate,
            &self.times,
        )
    }
}

/// How much finer than the key grid the grid is that a track the key grid cannot follow is
/// fitted on (1/64 s for 1/32 s: half a 30 fps frame off the original keys at most). On the
/// benchmark's 60 s take 1/128 s made 72.4 / 47.0 KB at 1 / 2 cm and 1/64 s 66.3 / 50.3 KB:
/// its steps between keys mostly fit the codec's 4 bits, 1/128 s ones mostly took a byte.
const FINE_GRID: f64 = 2.0;

/// How much coarser than the key grid the grid is that a track whose keys lie far apart is
/// also fitted on (1/16 s for 1/32 s).
const COARSE_GRID: f64 = 2.0;

/// The mean gap between keys, in steps of the key grid, from which a track is also fitted on
/// the coarser grid.
const SPARSE: f64 = 6.0;

/// With a key grid, a track fitted on the finer grid keeps at most this share of its own keys,
/// or it is kept whole: a compressed file stores a quaternion key in about 2.3 bytes and a key
/// time off the coarse grid in up to 1.6 more, while a kept track's times are the ones every
/// kept track shares (one input accessor), so keeping all N keys costs about 2.3 N against
/// 3.9 n for n fitted ones. (On the benchmark's 60 s take 0.68, for the finer grid's cheaper
/// times, made the file larger.)
const KEEP_SHARE: f64 = 0.59;

/// Samples a pilot try measures (the take's first ones). On the benchmark's 10-minute take
/// 2,048 rather than 4,096 made the pilots half as long and the files 4% larger at 1 cm, 8%
/// smaller at 2 cm and as large at 5 cm (a shorter stretch says less about the rest: a try
/// that overshoots more is mended or tried again, within the budget either way).
const PILOT_SAMPLES: usize = 2048;

/// Takes shorter than this many samples go straight to full tries.
const PILOT_MIN_SAMPLES: usize = 4 * PILOT_SAMPLES;

/// Pilot tries before the first full one.
const PILOT_ROUNDS: usize = 3;

/// The share of the budget a pilot aims at: the take's beginning shows less than all of it.
const PILOT_AIM: f64 = 0.85;

/// Tries of the world search at most.
const SEARCH_ROUNDS: usize = 6;

/// A try that saves less than this share of the best try's keys ends the search.
const SETTLED: f64 = 0.01;

/// A try within the budget whose error is at least this share of it ends the search (another
/// full try on a long take costs as much as the first and gains a few percent of keys).
const CLOSE: f64 = 0.8;

/// The share of the budget the rescaling aims at (a little under it: the largest error over
/// many samples does not move exactly as the tolerances do).
const AIM: f64 = 0.92;

/// How strongly a channel follows its subtree's room (1 would jump straight to where a linear
/// error model says the budget is met; less keeps the steps safe).
const RESCALE_POWER: f64 = 0.8;

/// The most one try loosens or tightens a channel by.
const RESCALE_MAX: f64 = 4.0;

/// One try of tolerances: the fits and their measured error.
struct Attempt {
    /// Each channel's tolerance.
    tolerances: Vec<f64>,
    /// Each channel's fit.
    outcomes: Vec<Outcome>,
    /// The comparison chunk by chunk (see [`Reference::chunks`](super::world::Reference::chunks)).
    chunks: Vec<Chunk>,
    /// The whole pose's error.
    error: WorldError,
    /// Each joint's (distance, angle) error.
    per_joint: Vec<(f64, f64)>,
    /// The comparison piece by piece with where it strays past the limits given, when
    /// measured so for a mend ([`WorldSearch::measure_in_pieces`]).
    pieces: Option<(Pieces, Limits)>,
    /// The grid each channel's fit sits on, or (the last pilot's) what it found on its
    /// stretch of the take ([`Hint`]), where the try worked that out.
    grids: Vec<Option<Hint>>,
}

impl Attempt {
    /// The keys of every track tried.
    fn keys(&self) -> usize {
        self.outcomes.iter().map(|o| o.track.len()).sum()
    }
}

/// Whether `error` keeps the distance `budget` and the `angle_budget`, if any.
fn within(error: &WorldError, budget: f64, angle_budget: Option<f64>) -> bool {
    error.distance <= budget && angle_budget.is_none_or(|a| error.angle <= a)
}

/// How each of `tracks` interpolates.
fn interpolations(tracks: &[&Track]) -> Vec<Interpolation> {
    tracks.iter().map(|t| t.interpolation).collect()
}

/// The node inputs for sampled values of the node tracks (`targets[i]` drives with
/// `sampled[i]`, `channels[i]` saying how many values each sample has) and the headings of the
/// auto-oriented layers.
fn inputs<'s>(
    tree: &Tree,
    targets: &[(usize, Property)],
    channels: &[Channel],
    sampled: &[&'s [f32]],
    interpolations: &[Interpolation],
    headings: &[Heading],
    heading_samples: &'s [Vec<f64>],
) -> Vec<NodeInput<'s>> {
    let mut out = vec![NodeInput::default(); tree.len()];
    for (((&(joint, property), &values), channel), &interpolation) in targets
        .iter()
        .zip(sampled)
        .zip(channels)
        .zip(interpolations)
    {
        out[joint].values[property as usize] = Some((values, channel.value_size));
        // three.js's CUBICSPLINE quaternion interpolant normalizes; slerp and steps play the
        // keys as they are, unit or not.
        if property == Property::Quaternion {
            out[joint].unit_rotation =
                tree.unit_rotations && interpolation == Interpolation::Bezier;
        }
    }
    for (h, samples) in headings.iter().zip(heading_samples) {
        out[h.node].heading = Some(samples);
    }
    out
}

/// The auto-oriented layers of `tree` whose position is among `targets`.
fn headings(tree: &Tree, targets: &[(usize, Property)]) -> Vec<Heading> {
    let mut found: HashMap<usize, Heading> = HashMap::new();
    for (i, &(node, property)) in targets.iter().enumerate() {
        if !matches!(
            tree.local[node],
            Local::Layer {
                auto_orient: true,
                ..
            }
        ) {
            continue;
        }
        let entry = found.entry(node).or_insert(Heading {
            node,
            x: usize::MAX,
            y: None,
        });
        match property {
            Property::LayerPosition | Property::PositionX => entry.x = i,
            Property::PositionY => entry.y = Some(i),
            _ => {}
        }
    }
    let mut out: Vec<Heading> = found.into_values().filter(|h| h.x != usize::MAX).collect();
    out.sort_by_key(|h| h.node);
    out
}

/// Each heading's angle (degrees) at every one of `times`, from the position tracks in
/// `tracks` (one per channel): lottie-web's direction of motion ([`heading_times`]).
fn heading_samples(
    tree: &Tree,
    headings: &[Heading],
    tracks: &[&Track],
    times: &[f64],
) -> Vec<Vec<f64>> {
    headings
        .iter()
        .map(|h| {
            let x = tracks[h.x];
            let y = h.y.map(|y| tracks[y]);
            let (Some(&first), Some(&last)) = (x.times.first(), x.times.last()) else {
                return vec![0.0; times.len()];
            };
            let mut sx = Sampler::new(x);
            let mut sy = y.map(Sampler::new);
            let mut at = |t: f64| -> [f64; 2] {
                let mut v = [0.0; 4];
                let n = x.value_size().clamp(1, 4);
                sx.evaluate_f64(t, &mut v[..n]);
                if let Some(sy) = &mut sy {
                    let mut w = [0.0];
                    sy.evaluate_f64(t, &mut w);
                    v[1] = w[0];
                }
                [v[0], v[1]]
            };
            times
                .iter()
                .map(|&t| {
                    let (t1, t2) = heading_times(t, first as f64, last as f64, tree.fps);
                    heading(at(t1), at(t2))
                })
                .collect()
        })
        .collect()
}
