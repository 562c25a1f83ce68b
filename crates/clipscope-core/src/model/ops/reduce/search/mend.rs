//! Mending a try that strays past the budget at a few places: rather than tightening every
//! tolerance (a whole new try, keys added everywhere), a key goes where the pose strays, on the
//! fitted track that strays most there, until the pose is within the budget again.
//!
//! The world error is the largest over every sample and node, so a try with slightly looser
//! tolerances than the budget allows usually overshoots at a handful of samples only; keying
//! those costs a few keys where a tighter try costs hundreds.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::{Attempt, CHUNK, Chunk, FINE_GRID, WorldSearch, inputs, within};
use crate::model::ops::reduce::channel::{Metric, sample_numbers};
use crate::model::ops::reduce::world::{NodeInput, Overshoot};
use crate::model::{Interpolation, Track, Values};

/// Rounds of keys a mend adds at most before it gives up.
const MEND_ROUNDS: usize = 8;

/// A key to add: the channel and the key time.
type NewKey = (usize, f32);

impl WorldSearch {
    /// `attempt` with keys added where its pose overshoots `budget` (or `angle_budget`) until
    /// it does not, for [`MEND_ROUNDS`] rounds at most; `None` when it still overshoots then,
    /// or where no key can be added. Only straight (slerped) tracks on a key grid are mended,
    /// and only in trees without auto-oriented layers.
    pub(super) fn mend(
        &self,
        mut attempt: Attempt,
        budget: f64,
        angle_budget: Option<f64>,
    ) -> Option<Attempt> {
        let step = self.key_grid?;
        if !self.headings.is_empty() {
            return None;
        }
        // Each chunk's overshoots, once known.
        let mut found: Vec<Option<Vec<Overshoot>>> = vec![None; attempt.chunks.len()];
        for _ in 0..MEND_ROUNDS {
            if within(&attempt.error, budget, angle_budget) {
                return Some(attempt);
            }
            let keys = self.keys_to_mend(&attempt, &mut found, (budget, angle_budget), step);
            if keys.is_empty() {
                return None;
            }
            let mut by_channel: HashMap<usize, Vec<f32>> = HashMap::new();
            for (i, t) in keys {
                by_channel.entry(i).or_default().push(t);
            }
            let mut before: HashMap<usize, Vec<f64>> = HashMap::new();
            for (i, times) in by_channel {
                let outcome = &mut attempt.outcomes[i];
                let channel = &self.channels[i];
                let mut track = outcome.track.clone();
                add_keys(&mut track, &self.kept[i], times, channel.metric);
                if let Some(stored) = &self.stored {
                    stored.apply(&mut track);
                }
                let sampled = sample_numbers(&track, &channel.sample_times, channel.value_size);
                let old = outcome.sampled.replace(sampled);
                before.insert(i, old.unwrap_or_else(|| channel.samples.clone()));
                outcome.track = track;
            }
            self.measure_again(&mut attempt, &before, &mut found, (budget, angle_budget));
        }
        within(&attempt.error, budget, angle_budget).then_some(attempt)
    }

    /// Where `attempt` overshoots, one key per stretch of a track: for each sample and node
    /// past the budget, on the fitted track of the node or above it whose own value strays the
    /// most there for its tolerance, at the time on the finest grid a search fits on
    /// ([`FINE_GRID`]) nearest the sample.
    fn keys_to_mend(
        &self,
        attempt: &Attempt,
        found: &mut [Option<Vec<Overshoot>>],
        (budget, angle_budget): (f64, Option<f64>),
        step: f64,
    ) -> Vec<NewKey> {
        let slices = self.played_values(attempt);
        let inputs = self.played_inputs(attempt);
        let rounding = self.original.rounding;
        let past = |(e, _): &Chunk| {
            e.distance + rounding > budget || angle_budget.is_some_and(|a| e.angle > a)
        };
        let scanned: Vec<(usize, Vec<Overshoot>)> = (0..attempt.chunks.len())
            .into_par_iter()
            .filter(|&c| found[c].is_none() && past(&attempt.chunks[c]))
            .map(|c| {
                let (_, over) =
                    self.original
                        .chunk_overshoots(&self.tree, &inputs, c, budget, angle_budget);
                (c, over)
            })
            .collect();
        for (c, over) in scanned {
            found[c] = Some(over);
        }
        let mut overshoots: Vec<Overshoot> = found.iter().flatten().flatten().copied().collect();
        // The furthest first: it picks the stretch a key goes into.
        overshoots.sort_by(|a, b| {
            let excess =
                |(d, a): (f64, f64)| (d / budget).max(angle_budget.map_or(0.0, |limit| a / limit));
            excess(b.2).total_cmp(&excess(a.2))
        });
        let mut by_joint: Vec<Vec<usize>> = vec![Vec::new(); self.tree.len()];
        for (i, &(joint, _)) in self.targets.iter().enumerate() {
            by_joint[joint].push(i);
        }
        // The stretches (channel, key after) keyed this round.
        let mut taken: HashSet<(usize, usize)> = HashSet::new();
        let mut keys = Vec::new();
        for (s, j, _) in overshoots {
            let mut candidates: Vec<(f64, usize)> = self
                .tree
                .chain(j)
                .flat_map(|a| by_joint[a].iter().copied())
                .filter(|&i| {
                    let o = &attempt.outcomes[i];
                    o.lossy
                        && o.track.interpolation == Interpolation::Linear
                        && o.track.times.len() >= 2
                })
                .map(|i| {
                    let c = &self.channels[i];
                    let vs = c.value_size;
                    let played = &slices[i][s * vs..(s + 1) * vs];
                    let strays = c.metric.error(played, c.sample(s));
                    (strays / attempt.tolerances[i].max(f64::MIN_POSITIVE), i)
                })
                .collect();
            candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
            let time = self.channels.first().map_or(0.0, |c| c.sample_times[s]);
            for (_, i) in candidates {
                let times = &attempt.outcomes[i].track.times;
                let k = times.partition_point(|&t| f64::from(t) <= time);
                if k == 0 || k == times.len() {
                    continue;
                }
                if taken.contains(&(i, k)) {
                    break;
                }
                if let Some(t) = grid_time(times[k - 1], times[k], time, step / FINE_GRID) {
                    taken.insert((i, k));
                    keys.push((i, t));
                    break;
                }
            }
        }
        keys
    }

    /// Each channel's values at every sample as `attempt` plays them.
    fn played_values<'a>(&'a self, attempt: &'a Attempt) -> Vec<&'a [f64]> {
        attempt
            .outcomes
            .iter()
            .zip(&self.channels)
            .map(|(o, c)| o.sampled.as_deref().unwrap_or(&c.samples))
            .collect()
    }

    /// What drives each node as `attempt` plays.
    fn played_inputs<'a>(&'a self, attempt: &'a Attempt) -> Vec<NodeInput<'a>> {
        let tracks: Vec<Track> = attempt.outcomes.iter().map(|o| o.track.clone()).collect();
        inputs(
            &self.tree,
            &self.targets,
            &self.channels,
            &self.played_values(attempt),
            &tracks,
            &self.headings,
            &[],
        )
    }

    /// Measures `attempt` again after its channels in `before` (their values before) changed,
    /// reusing every chunk where none of them plays differently, and finds the overshoots of
    /// the chunks measured again.
    fn measure_again(
        &self,
        attempt: &mut Attempt,
        before: &HashMap<usize, Vec<f64>>,
        found: &mut [Option<Vec<Overshoot>>],
        (budget, angle_budget): (f64, Option<f64>),
    ) {
        let slices = self.played_values(attempt);
        let inputs = self.played_inputs(attempt);
        let same = |c: usize| {
            before.iter().all(|(&i, was)| {
                let vs = self.channels[i].value_size;
                let now = slices[i];
                let end = ((c + 1) * CHUNK * vs).min(now.len()).min(was.len());
                let start = (c * CHUNK * vs).min(end);
                now[start..end]
                    .iter()
                    .zip(&was[start..end])
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            })
        };
        let old = &attempt.chunks;
        let measured: Vec<(Chunk, Option<Vec<Overshoot>>)> = (0..old.len())
            .into_par_iter()
            .map(|c| match same(c) {
                true => (old[c].clone(), None),
                false => {
                    let (chunk, over) = self.original.chunk_overshoots(
                        &self.tree,
                        &inputs,
                        c,
                        budget,
                        angle_budget,
                    );
                    (chunk, Some(over))
                }
            })
            .collect();
        let mut chunks = Vec::with_capacity(measured.len());
        for (c, (chunk, over)) in measured.into_iter().enumerate() {
            if over.is_some() {
                found[c] = over;
            }
            chunks.push(chunk);
        }
        let (error, per_joint) = self.original.merge(&chunks);
        attempt.chunks = chunks;
        attempt.error = error;
        attempt.per_joint = per_joint;
    }
}

/// The time on a grid of `step` seconds strictly between the keys at `from` and `to` nearest
/// `time`, if any.
fn grid_time(from: f32, to: f32, time: f64, step: f64) -> Option<f32> {
    let below = (time / step).floor() * step;
    [below, below + step, below - step, below + 2.0 * step]
        .into_iter()
        .filter(|&t| (t as f32) > from && (t as f32) < to)
        .min_by(|a, b| (a - time).abs().total_cmp(&(b - time).abs()))
        .map(|t| t as f32)
}

/// `track` (straight segments) with a key at each of `times` valued as `original` plays there
/// (a rotation on the hemisphere of the key before it, which slerps alike either way).
fn add_keys(track: &mut Track, original: &Track, mut times: Vec<f32>, metric: Metric) {
    times.sort_by(f32::total_cmp);
    times.dedup();
    let vs = track.value_size();
    let Values::Numbers(values) = &mut track.values else {
        return;
    };
    if vs == 0 {
        return;
    }
    let at: Vec<f64> = times.iter().map(|&t| f64::from(t)).collect();
    let new_values = sample_numbers(original, &at, vs);
    let mut out_times = Vec::with_capacity(track.times.len() + times.len());
    let mut out_values = Vec::with_capacity(values.len() + times.len() * vs);
    let mut next = times.iter().zip(new_values.chunks_exact(vs)).peekable();
    for (k, &t) in track.times.iter().enumerate() {
        while let Some(&(&nt, v)) = next.peek() {
            if nt >= t {
                break;
            }
            let mut v: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            if metric == Metric::Rotation
                && let Some(prev) = out_values.len().checked_sub(vs).map(|p| &out_values[p..])
            {
                let dot: f32 = prev.iter().zip(&v).map(|(a, b)| a * b).sum();
                if dot < 0.0 {
                    v.iter_mut().for_each(|x| *x = -*x);
                }
            }
            out_times.push(nt);
            out_values.extend_from_slice(&v);
            next.next();
        }
        out_times.push(t);
        out_values.extend_from_slice(&values[k * vs..(k + 1) * vs]);
    }
    track.times = out_times;
    *values = out_values;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ops::reduce::{ReduceOptions, Reducer};
    use crate::model::{Bone, Clip, Skeleton, TrackKind};

    #[test]
    fn a_new_key_is_the_nearest_grid_time_strictly_between_the_keys() {
        let step = 1.0 / 64.0;
        assert_eq!(grid_time(0.0, 1.0, 0.51, step), Some(33.0 / 64.0));
        assert_eq!(grid_time(0.0, 1.0, 0.5, step), Some(0.5));
        // The nearest grid time is a key already: the next one inside.
        assert_eq!(grid_time(0.5, 1.0, 0.5, step), Some(33.0 / 64.0));
        assert_eq!(grid_time(0.0, 0.5, 0.5, step), Some(31.0 / 64.0));
        // Keys one grid step apart leave no room.
        assert_eq!(grid_time(0.5, 33.0 / 64.0, 0.505, step), None);
    }

    #[test]
    fn added_keys_play_the_original_in_time_order_on_one_hemisphere() {
        let q = |a: f64| [0.0, 0.0, (a / 2.0).sin() as f32, (a / 2.0).cos() as f32];
        let original = Track::new(
            "a.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0, 2.0],
            Values::Numbers([q(0.0), q(1.0), q(2.0)].concat()),
        );
        let mut fitted = Track::new(
            "a.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 2.0],
            Values::Numbers([q(0.0), q(2.0)].concat()),
        );
        // Stored on the other hemisphere: the new key turns to the key before it.
        let flipped: Vec<f32> = q(0.0).iter().map(|x| -x).collect();
        if let Values::Numbers(v) = &mut fitted.values {
            v[..4].copy_from_slice(&flipped);
        }
        add_keys(
            &mut fitted,
            &original,
            vec![1.5, 0.5, 1.5],
            Metric::Rotation,
        );
        assert_eq!(fitted.times, [0.0, 0.5, 1.5, 2.0]);
        let values = fitted.values.as_numbers().unwrap();
        let expected = sample_numbers(&original, &[0.5], 4);
        for (got, want) in values[4..8].iter().zip(&expected) {
            assert!((f64::from(*got) + want).abs() < 1e-6, "{values:?}");
        }
        assert_eq!(values[12..], q(2.0));
    }

    /// A hip and a knee whose rotations wiggle at several rates, 30 keys a second for `seconds`.
    fn leg(seconds: f64) -> (Clip, Skeleton) {
        let hip = Bone::new("hip", None);
        let mut knee = Bone::new("knee", Some(0));
        knee.position = [0.0, -0.5, 0.0];
        let mut foot = Bone::new("foot", Some(1));
        foot.position = [0.0, -0.5, 0.0];
        let n = (seconds * 30.0) as usize + 1;
        let times: Vec<f32> = (0..n).map(|i| i as f32 / 30.0).collect();
        let track = |name: &str, f: &dyn Fn(f64) -> f64| {
            let values = times
                .iter()
                .flat_map(|&t| {
                    let a = f(f64::from(t)) / 2.0;
                    [a.sin() as f32, 0.0, 0.0, a.cos() as f32]
                })
                .collect();
            Track::new(
                name,
                TrackKind::Quaternion,
                times.clone(),
                Values::Numbers(values),
            )
        };
        let clip = Clip::new(
            "walk",
            -1.0,
            vec![
                track("hip.quaternion", &|t| {
                    0.6 * (2.1 * t).sin() + 0.05 * (17.0 * t).sin()
                }),
                track("knee.quaternion", &|t| {
                    0.8 * (3.3 * t).sin().abs() + 0.03 * (23.0 * t).cos()
                }),
            ],
        );
        let skeleton = Skeleton {
            bones: vec![hip, knee, foot],
        };
        (clip, skeleton)
    }

    #[test]
    fn a_try_past_the_budget_is_mended_with_a_few_keys_where_it_strays() {
        let (clip, skeleton) = leg(8.0);
        let options = ReduceOptions {
            max_error: 0.01,
            key_grid: Some(1.0 / 32.0),
            ..ReduceOptions::default()
        };
        let reducer = Reducer::new(&clip, Some(&skeleton), &options);
        let search = reducer.world.as_ref().unwrap();
        let budget = options.max_error;
        // The first shares keep the budget; a tenth looser, they stray past it here and there.
        let first = search.attempt(&search.base);
        assert!(within(&first.error, budget, None), "{:?}", first.error);
        let loose = search.attempt(&search.base.iter().map(|t| t * 1.1).collect::<Vec<_>>());
        assert!(!within(&loose.error, budget, None), "{:?}", loose.error);
        let keys = loose.keys();
        let tolerances = loose.tolerances.clone();
        let mended = search.mend(loose, budget, None).expect("mended");
        assert!(within(&mended.error, budget, None), "{:?}", mended.error);
        // A few keys more than the loose try, far fewer than the try within the budget.
        assert!(mended.keys() > keys, "{} keys", mended.keys());
        assert!(
            mended.keys() < keys + keys / 10,
            "{keys} → {}",
            mended.keys()
        );
        assert!(mended.keys() < first.keys() * 2 / 3, "{}", first.keys());
        for (m, o) in mended.outcomes.iter().zip(&search.kept) {
            assert!(m.track.len() <= o.len());
        }
        // It measures as a fresh measure of the same tracks does, angles included.
        let (error, per_joint) = search.measure(&mended.outcomes);
        assert_eq!(error, mended.error);
        assert_eq!(per_joint, mended.per_joint);
        assert!(error.angle > 0.0);
        assert!(error.distance <= budget);
        assert_eq!(mended.tolerances, tolerances);
    }
}
