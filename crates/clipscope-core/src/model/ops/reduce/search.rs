//! The world search: the loosest tolerance for each skeleton channel that keeps the whole pose
//! within the budget.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use super::ReduceOptions;
use super::channel::{Channel, sample_numbers};
use super::fit::CurveFit;
use super::outcome::{Outcome, fit_channel, lossless};
use super::plan::{Property, Role};
use super::world::{self, Hierarchy, JointInput, WorldError, WorldFrames};
use crate::model::{Clip, Track};

/// The search for the loosest tolerance of each skeleton channel that keeps the whole pose
/// within the budget.
pub(crate) struct WorldSearch {
    /// The joints.
    pub hierarchy: Hierarchy,
    /// The clip's track index of each joint channel.
    pub tracks: Vec<usize>,
    /// Each joint track's channel, in the order of `tracks`.
    channels: Vec<Channel>,
    /// Each joint track after the lossless optimize.
    kept: Vec<Track>,
    /// Whether each joint track is fitted (else kept as it is: steps, one key).
    fitted: Vec<bool>,
    /// Each joint track's joint and property.
    targets: Vec<(usize, Property)>,
    /// Each joint track's first tolerance (in its metric).
    base: Vec<f64>,
    /// The original clip's world frames.
    original: WorldFrames,
    /// The curves the format holds.
    curves: CurveFit,
}

impl WorldSearch {
    /// Prepares the search for the joint tracks `tracks` of `clip`.
    pub fn new(
        clip: &Clip,
        hierarchy: Hierarchy,
        roles: &[Role],
        tracks: &[usize],
        sample_times: &Arc<Vec<f64>>,
        options: &ReduceOptions,
    ) -> WorldSearch {
        let prepared: Vec<(usize, usize, Property, Channel, Track, bool)> = tracks
            .par_iter()
            .filter_map(|&i| {
                let Role::Joint {
                    joint,
                    property,
                    fit,
                } = roles[i]
                else {
                    return None;
                };
                let track = &clip.tracks[i];
                let channel = Channel::new(track, property.metric(), sample_times.clone())?;
                Some((i, joint, property, channel, lossless(track), fit))
            })
            .collect();
        let mut used = Vec::with_capacity(prepared.len());
        let mut targets = Vec::with_capacity(prepared.len());
        let mut channels = Vec::with_capacity(prepared.len());
        let mut kept = Vec::with_capacity(prepared.len());
        let mut fitted = Vec::with_capacity(prepared.len());
        for (i, joint, property, channel, k, fit) in prepared {
            used.push(i);
            targets.push((joint, property));
            channels.push(channel);
            kept.push(k);
            fitted.push(fit);
        }
        let samples = sample_times.len();
        let sampled: Vec<&[f64]> = channels.iter().map(|c| c.samples.as_slice()).collect();
        let original = world::evaluate(
            &hierarchy,
            &inputs(&hierarchy, &targets, &sampled),
            samples,
            options.axis_length,
        );
        let base = shares(&hierarchy, &targets, &original, options);
        WorldSearch {
            hierarchy,
            tracks: used,
            channels,
            kept,
            fitted,
            targets,
            base,
            original,
            curves: options.curves,
        }
    }

    /// Fits every channel with its tolerance and measures the whole pose.
    fn attempt(&self, tolerances: &[f64], axis: f64, angles: bool) -> Attempt {
        self.attempt_on(&self.channels, usize::MAX, tolerances, axis, angles)
    }

    /// Fits `channels` (the search's own, or a pilot's prefixes of them; `None` where a pilot
    /// keeps the original) and measures the pose over the first `samples` samples.
    fn attempt_on(
        &self,
        channels: &[Channel],
        samples: usize,
        tolerances: &[f64],
        axis: f64,
        angles: bool,
    ) -> Attempt {
        let outcomes: Vec<Outcome> = (0..channels.len())
            .into_par_iter()
            .map(|i| {
                if self.fitted[i] {
                    fit_channel(
                        &channels[i],
                        &self.kept[i],
                        tolerances[i],
                        self.curves,
                        false,
                    )
                } else {
                    Outcome {
                        track: self.kept[i].clone(),
                        error: 0.0,
                        lossy: false,
                        sampled: None,
                    }
                }
            })
            .collect();
        let slices: Vec<&[f64]> = outcomes
            .iter()
            .zip(channels)
            .map(|(o, c)| o.sampled.as_deref().unwrap_or(&c.samples))
            .collect();
        let (error, per_joint) = self.original.compare_first(
            samples,
            &self.hierarchy,
            &inputs(&self.hierarchy, &self.targets, &slices),
            axis,
            angles,
        );
        Attempt {
            tolerances: tolerances.to_vec(),
            outcomes,
            error,
            per_joint,
        }
    }

    /// The fitted joint tracks (in `tracks` order) with the loosest tolerances found that keep
    /// the whole pose within the budget, and their measured world error.
    ///
    /// The first try gives every channel its share of the budget as if errors down a chain
    /// added like independent ones (the budget over the square root of the chain's channels);
    /// after each try every channel's tolerance is scaled by how much room its subtree has (or
    /// by how far it overshot), so the chains that meet the budget stay and the others loosen.
    /// The best try within the budget wins; if none is, tolerances halve until one is.
    pub fn search(&self, options: &ReduceOptions) -> (Vec<Outcome>, WorldError, Vec<(f64, f64)>) {
        // A little margin, so an independent evaluation (another float path) agrees.
        let budget = options.max_error * (1.0 - 1e-4);
        let angle_budget = options.max_angle.map(|a| a * (1.0 - 1e-4));
        let axis = options.axis_length;
        let angles = angle_budget.is_some();
        let feasible =
            |e: &WorldError| e.distance <= budget && angle_budget.is_none_or(|a| e.angle <= a);
        let keys = |a: &Attempt| a.outcomes.iter().map(|o| o.track.len()).sum::<usize>();
        let mut tolerances = self.base.clone();
        if let Some((channels, samples)) = self.pilot() {
            // Tune the first shares on the take's beginning, a fraction of the cost of a try.
            for _ in 0..PILOT_ROUNDS {
                let t0 = std::time::Instant::now();
                let pilot = self.attempt_on(&channels, samples, &tolerances, axis, angles);
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
            let attempt = self.attempt(&tolerances, axis, angles);
            options.trace.line(format_args!(
                "attempt {:?}: error {:.5}, keys {}",
                t0.elapsed(),
                attempt.error.distance,
                keys(&attempt)
            ));
            let next = self.rescale(&attempt, budget, angle_budget);
            let mut settled = false;
            if feasible(&attempt.error) {
                // Close to the budget already: little left to gain.
                settled = attempt.error.distance >= CLOSE * budget
                    || angle_budget.is_some_and(|a| attempt.error.angle >= CLOSE * a);
                match &best {
                    Some(b) => {
                        let (k, kb) = (keys(&attempt), keys(b));
                        settled |= (k as f64) > (kb as f64) * (1.0 - SETTLED);
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
        if let Some(b) = best {
            return (b.outcomes, b.error, b.per_joint);
        }
        // Nothing within the budget: halve every share until something is.
        let mut scale = 0.5;
        for _ in 0..12 {
            let tolerances: Vec<f64> = self.base.iter().map(|b| b * scale).collect();
            let attempt = self.attempt(&tolerances, axis, angles);
            if feasible(&attempt.error) {
                return (attempt.outcomes, attempt.error, attempt.per_joint);
            }
            scale /= 2.0;
        }
        // Every joint track losslessly.
        let kept: Vec<Outcome> = self
            .kept
            .iter()
            .map(|t| Outcome {
                track: t.clone(),
                error: 0.0,
                lossy: false,
                sampled: None,
            })
            .collect();
        let (error, per_joint) = self.measure(&kept, axis);
        (kept, error, per_joint)
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
                    && matches!(property, Property::Quaternion | Property::Euler)
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
        for &j in self.hierarchy.order.iter().rev() {
            if let Some(p) = self.hierarchy.parent[j] {
                out[p].0 = out[p].0.max(out[j].0);
                out[p].1 = out[p].1.max(out[j].1);
            }
        }
        out
    }

    /// The world error of `outcomes` (one per channel), overall and per joint, with the new
    /// tracks sampled by the model's own interpolants (what a player shows).
    pub fn measure(&self, outcomes: &[Outcome], axis: f64) -> (WorldError, Vec<(f64, f64)>) {
        let sampled: Vec<Vec<f64>> = outcomes
            .par_iter()
            .zip(self.channels.par_iter())
            .map(|(o, c)| sample_numbers(&o.track, &c.sample_times, c.value_size))
            .collect();
        let slices: Vec<&[f64]> = sampled.iter().map(Vec::as_slice).collect();
        self.original.compare(
            &self.hierarchy,
            &inputs(&self.hierarchy, &self.targets, &slices),
            axis,
            true,
        )
    }
}

/// How many samples (evenly spread) the first shares of the budget are worked out from.
const SHARE_SAMPLES: usize = 2048;

/// Samples a pilot try measures (the take's first ones).
const PILOT_SAMPLES: usize = 4096;

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

/// A try within the budget whose error is at least this share of it ends the search.
const CLOSE: f64 = 0.88;

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
    /// The whole pose's error.
    error: WorldError,
    /// Each joint's (distance, angle) error.
    per_joint: Vec<(f64, f64)>,
}

/// `track` evaluated at every sample time (`value_size` numbers each).
/// The joint inputs for sampled values of the joint tracks (`targets[i]` drives with
/// `sampled[i]`).
fn inputs<'s>(
    hierarchy: &Hierarchy,
    targets: &[(usize, Property)],
    sampled: &[&'s [f64]],
) -> Vec<JointInput<'s>> {
    let mut out = vec![JointInput::default(); hierarchy.len()];
    for (&(joint, property), &values) in targets.iter().zip(sampled) {
        let input = &mut out[joint];
        match property {
            Property::Position => input.position = Some(values),
            Property::Quaternion => input.quaternion = Some(values),
            Property::Euler => input.euler = Some(values),
            Property::Scale => input.scale = Some(values),
        }
    }
    out
}

/// Each joint track's share of the budget at scale 1, in its own metric (see the module docs).
fn shares(
    hierarchy: &Hierarchy,
    targets: &[(usize, Property)],
    original: &WorldFrames,
    options: &ReduceOptions,
) -> Vec<f64> {
    let n = hierarchy.len();
    let samples = original.origins.len().checked_div(n).unwrap_or(0);
    // How far the points at and below each joint reach from its origin, and how much each
    // joint's world transform stretches space (its axis points' distance over the axis
    // length), over up to a few thousand samples: enough for a first share.
    let mut reach = vec![options.axis_length; n];
    let mut stretch = vec![0.0f64; n];
    let axis = options.axis_length.max(f64::MIN_POSITIVE);
    for s in (0..samples).step_by((samples / SHARE_SAMPLES).max(1)) {
        for (j, stretch) in stretch.iter_mut().enumerate() {
            let o = original.point(s, j, 0);
            for p in 1..4 {
                let q = original.point(s, j, p);
                let d =
                    ((q[0] - o[0]).powi(2) + (q[1] - o[1]).powi(2) + (q[2] - o[2]).powi(2)).sqrt();
                *stretch = stretch.max(d / axis);
            }
            for a in hierarchy.chain(j) {
                let origin = original.point(s, a, 0);
                for p in 0..4 {
                    let q = original.point(s, j, p);
                    let d = ((q[0] - origin[0]).powi(2)
                        + (q[1] - origin[1]).powi(2)
                        + (q[2] - origin[2]).powi(2))
                    .sqrt();
                    if d > reach[a] {
                        reach[a] = d;
                    }
                }
            }
        }
    }
    // How many animated channels sit on the longest chain (and rotations, for the angle).
    let mut animated: HashMap<usize, (usize, usize)> = HashMap::new();
    for &(joint, property) in targets {
        let e = animated.entry(joint).or_default();
        e.0 += 1;
        if matches!(property, Property::Quaternion | Property::Euler) {
            e.1 += 1;
        }
    }
    let (mut chain_channels, mut chain_rotations) = (1usize, 1usize);
    for j in 0..n {
        let (c, r) = hierarchy
            .chain(j)
            .map(|a| animated.get(&a).copied().unwrap_or_default())
            .fold((0, 0), |acc, x| (acc.0 + x.0, acc.1 + x.1));
        chain_channels = chain_channels.max(c);
        chain_rotations = chain_rotations.max(r);
    }
    // Errors down a chain rarely line up: share as if they added like independent ones.
    let share = options.max_error / (chain_channels as f64).sqrt();
    let angle_share = options
        .max_angle
        .map(|a| a / (chain_rotations as f64).sqrt())
        .unwrap_or(f64::INFINITY);
    targets
        .iter()
        .map(|&(joint, property)| {
            let lever = reach[joint].max(f64::MIN_POSITIVE);
            let parent_stretch = hierarchy.parent[joint]
                .map_or(1.0, |p| stretch[p])
                .max(f64::MIN_POSITIVE);
            match property {
                Property::Position => share / parent_stretch,
                Property::Quaternion => (share / lever).min(angle_share),
                // An error of e per Euler angle turns by at most √3·e.
                Property::Euler => (share / lever).min(angle_share) / 3f64.sqrt(),
                Property::Scale => share / lever,
            }
        })
        .collect()
}
