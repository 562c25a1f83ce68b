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
use crate::model::ops::reduce::world::{NodeInput, Overshoot, Reference, join};
use crate::model::{Interpolation, Track, Values};

/// Rounds of keys a mend adds at most before it gives up.
const MEND_ROUNDS: usize = 8;

/// Samples per piece a mend measures again: a new key changes the pose between the keys on
/// either side of it only, a few dozen samples on a long take's chunk of [`CHUNK`].
const PIECE: usize = 32;

/// A key to add: the channel and the key time.
type NewKey = (usize, f32);

/// Each piece's comparison and overshoots, once measured: a chunk is either measured in
/// pieces throughout or not at all.
pub(super) type Pieces = Vec<Option<Piece>>;

/// One piece's comparison and overshoots.
type Piece = (Chunk, Vec<Overshoot>);

/// The distance and the angle (if any) a pose must keep.
pub(super) type Limits = (f64, Option<f64>);

impl WorldSearch<'_> {
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
        // The try's own pieces when it was measured in them with these limits.
        let mut found: Pieces = match attempt.pieces.take() {
            Some((pieces, limits)) if limits == (budget, angle_budget) => pieces,
            _ => vec![None; self.times.len().div_ceil(PIECE)],
        };
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
            // Each keyed channel's new track and values, and the pieces where it plays
            // differently (its values move out of the try meanwhile, and back).
            let taken: Vec<(usize, Vec<f32>, Option<Vec<f32>>)> = by_channel
                .into_iter()
                .map(|(i, times)| (i, times, attempt.outcomes[i].sampled.take()))
                .collect();
            let outcomes = &attempt.outcomes;
            let keyed: Vec<(usize, Track, Vec<f32>, Vec<usize>)> = taken
                .into_par_iter()
                .map(|(i, times, sampled)| {
                    let old = &outcomes[i].track;
                    let channel = &self.channels[i];
                    let mut track = old.clone();
                    let new = add_keys(&mut track, &self.kept[i], times, channel.metric);
                    if let Some(stored) = &self.stored {
                        stored.apply_to_new(&mut track, &new);
                    }
                    let mut sampled = sampled.unwrap_or_else(|| channel.samples.to_vec());
                    let changed = replay(
                        old,
                        &track,
                        &mut sampled,
                        &channel.sample_times,
                        channel.value_size,
                    );
                    (i, track, sampled, changed)
                })
                .collect();
            let mut changed = HashSet::new();
            for (i, track, sampled, pieces) in keyed {
                let outcome = &mut attempt.outcomes[i];
                outcome.track = track;
                outcome.sampled = Some(sampled);
                changed.extend(pieces);
            }
            self.measure_again(&mut attempt, &changed, &mut found, (budget, angle_budget));
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
        found: &mut Pieces,
        (budget, angle_budget): Limits,
        step: f64,
    ) -> Vec<NewKey> {
        let slices = self.played_values(attempt);
        let inputs = self.played_inputs(attempt);
        let past =
            |(e, _): &Chunk| e.distance > budget || angle_budget.is_some_and(|a| e.angle > a);
        let pieces: Vec<usize> = (0..attempt.chunks.len())
            .filter(|&c| found.get(c * CHUNK / PIECE).is_some_and(Option::is_none))
            .filter(|&c| past(&attempt.chunks[c]))
            .flat_map(pieces_of)
            .filter(|&p| p < found.len())
            .collect();
        self.measure_pieces(&inputs, &pieces, found, (budget, angle_budget));
        let mut overshoots: Vec<Overshoot> = found
            .iter()
            .flatten()
            .flat_map(|(_, over)| over.iter().copied())
            .collect();
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
    fn played_values<'a>(&'a self, attempt: &'a Attempt) -> Vec<&'a [f32]> {
        attempt
            .outcomes
            .iter()
            .zip(&self.channels)
            .map(|(o, c)| o.sampled.as_deref().unwrap_or(&c.samples))
            .collect()
    }

    /// What drives each node as `attempt` plays.
    fn played_inputs<'a>(&'a self, attempt: &'a Attempt) -> Vec<NodeInput<'a>> {
        let interpolations: Vec<Interpolation> = attempt
            .outcomes
            .iter()
            .map(|o| o.track.interpolation)
            .collect();
        inputs(
            &self.tree,
            &self.targets,
            &self.channels,
            &self.played_values(attempt),
            &interpolations,
            &self.headings,
            &[],
        )
    }

    /// The comparison against `reference` of the pose `inputs` drive, chunk by chunk as
    /// [`Reference::chunks`] gives it
    /// (angles included), measured in pieces with each piece's overshoots of `limits`: what a
    /// full try that a mend may follow measures, so the mend finds where it strays without
    /// posing it again.
    pub(super) fn measure_in_pieces(
        &self,
        reference: &Reference,
        inputs: &[NodeInput],
        (budget, angle_budget): Limits,
    ) -> (Vec<Chunk>, Pieces) {
        let samples = reference.samples();
        let pieces = samples.div_ceil(PIECE);
        let measured: Vec<(Chunk, Vec<Piece>)> = (0..samples.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                // One pose for the chunk's pieces.
                let mut poses = reference.poses();
                let measured: Vec<Piece> = pieces_of(c)
                    .filter(|&p| p < pieces)
                    .map(|p| {
                        let samples = p * PIECE..(p + 1) * PIECE;
                        reference.overshoots(&mut poses, inputs, samples, budget, angle_budget)
                    })
                    .collect();
                (
                    join(measured.iter().map(|m| &m.0), self.tree.len()),
                    measured,
                )
            })
            .collect();
        let mut chunks = Vec::with_capacity(measured.len());
        let mut found = Vec::with_capacity(pieces);
        for (chunk, measured) in measured {
            chunks.push(chunk);
            found.extend(measured.into_iter().map(Some));
        }
        (chunks, found)
    }

    /// Measures the pieces `pieces` of the pose `inputs` drive into `found`.
    fn measure_pieces(
        &self,
        inputs: &[NodeInput],
        pieces: &[usize],
        found: &mut Pieces,
        (budget, angle_budget): Limits,
    ) {
        let original = self.original_inputs();
        let reference = self.reference(&original);
        let measured: Vec<(usize, Piece)> = pieces
            .par_iter()
            .map_init(
                || reference.poses(),
                |poses, &p| {
                    let samples = p * PIECE..(p + 1) * PIECE;
                    let over = reference.overshoots(poses, inputs, samples, budget, angle_budget);
                    (p, over)
                },
            )
            .collect();
        for (p, over) in measured {
            found[p] = Some(over);
        }
    }

    /// Measures `attempt` again where its pose changed (the pieces `changed`), reusing every
    /// other piece and chunk, and finds the overshoots of the pieces measured again.
    fn measure_again(
        &self,
        attempt: &mut Attempt,
        changed: &HashSet<usize>,
        found: &mut Pieces,
        limits: Limits,
    ) {
        let inputs = self.played_inputs(attempt);
        let mut chunks: Vec<usize> = changed.iter().map(|&p| p * PIECE / CHUNK).collect();
        chunks.sort_unstable();
        chunks.dedup();
        // A chunk first measured in pieces is measured in all of them.
        let pieces: Vec<usize> = chunks
            .iter()
            .flat_map(|&c| pieces_of(c))
            .filter(|&p| p < found.len() && (changed.contains(&p) || found[p].is_none()))
            .collect();
        self.measure_pieces(&inputs, &pieces, found, limits);
        for c in chunks {
            let pieces = pieces_of(c).filter_map(|p| found.get(p)?.as_ref().map(|f| &f.0));
            attempt.chunks[c] = join(pieces, self.tree.len());
        }
        let (error, per_joint) = join(attempt.chunks.iter(), self.tree.len());
        attempt.error = error;
        attempt.per_joint = per_joint;
    }
}

/// The pieces ([`PIECE`] samples each) of chunk `c`.
fn pieces_of(c: usize) -> std::ops::Range<usize> {
    c * CHUNK / PIECE..(c + 1) * CHUNK / PIECE
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

/// Plays `new` (`old` with keys added) into `sampled` (the values `old` plays at `times`,
/// `value_size` each) and returns the pieces of samples ([`PIECE`]) whose values changed. Only
/// the samples between the keys on either side of a new key are played again, when every key
/// of `old` is in `new` unchanged (the storage rounded no other key differently); otherwise
/// every sample is.
fn replay(
    old: &Track,
    new: &Track,
    sampled: &mut [f32],
    times: &[f64],
    value_size: usize,
) -> Vec<usize> {
    let vs = value_size;
    let mut spans: Vec<(f64, f64)> = Vec::new();
    let kept_all = match (old.values.as_numbers(), new.values.as_numbers()) {
        (Some(ov), Some(nv)) if vs > 0 => {
            let mut k = 0;
            let mut kept = true;
            for (n, &t) in new.times.iter().enumerate() {
                let same = k < old.times.len()
                    && old.times[k].to_bits() == t.to_bits()
                    && ov[k * vs..(k + 1) * vs]
                        .iter()
                        .zip(&nv[n * vs..(n + 1) * vs])
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                if same {
                    k += 1;
                    continue;
                }
                // A new key: what it plays reaches from the key before it to the key after.
                let from = new.times[n.saturating_sub(1)];
                let to = new.times[(n + 1).min(new.times.len() - 1)];
                if n == 0 || n + 1 == new.times.len() {
                    kept = false;
                    break;
                }
                match spans.last_mut() {
                    Some(last) if f64::from(from) <= last.1 => last.1 = f64::from(to),
                    _ => spans.push((f64::from(from), f64::from(to))),
                }
            }
            kept && k == old.times.len()
        }
        _ => false,
    };
    let ranges: Vec<std::ops::Range<usize>> = if kept_all {
        spans
            .iter()
            .map(|&(from, to)| {
                times.partition_point(|&t| t < from)..times.partition_point(|&t| t <= to)
            })
            .collect()
    } else {
        std::iter::once(0..times.len()).collect()
    };
    let mut changed = Vec::new();
    for range in ranges {
        if range.is_empty() {
            continue;
        }
        let played = sample_numbers(new, &times[range.clone()], vs);
        let slots = &mut sampled[range.start * vs..range.end * vs];
        for (k, (slot, value)) in slots
            .chunks_exact_mut(vs)
            .zip(played.chunks_exact(vs))
            .enumerate()
        {
            if slot
                .iter()
                .zip(value)
                .any(|(a, b)| a.to_bits() != b.to_bits())
            {
                slot.copy_from_slice(value);
                let piece = (range.start + k) / PIECE;
                if changed.last() != Some(&piece) {
                    changed.push(piece);
                }
            }
        }
    }
    changed
}

/// `track` (straight segments) with a key at each of `times` valued as `original` plays there
/// (a rotation on the hemisphere of the key before it, which slerps alike either way); returns
/// where the new keys are, in order.
fn add_keys(
    track: &mut Track,
    original: &Track,
    mut times: Vec<f32>,
    metric: Metric,
) -> Vec<usize> {
    times.sort_by(f32::total_cmp);
    times.dedup();
    let vs = track.value_size();
    let Values::Numbers(values) = &mut track.values else {
        return Vec::new();
    };
    if vs == 0 {
        return Vec::new();
    }
    let mut added = Vec::with_capacity(times.len());
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
            let mut v: Vec<f32> = v.to_vec();
            if metric == Metric::Rotation
                && let Some(prev) = out_values.len().checked_sub(vs).map(|p| &out_values[p..])
            {
                let dot: f32 = prev.iter().zip(&v).map(|(a, b)| a * b).sum();
                if dot < 0.0 {
                    v.iter_mut().for_each(|x| *x = -*x);
                }
            }
            added.push(out_times.len());
            out_times.push(nt);
            out_values.extend_from_slice(&v);
            next.next();
        }
        out_times.push(t);
        out_values.extend_from_slice(&values[k * vs..(k + 1) * vs]);
    }
    track.times = out_times;
    *values = out_values;
    added
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
            assert!(
                (f64::from(*got) + f64::from(*want)).abs() < 1e-6,
                "{values:?}"
            );
        }
        assert_eq!(values[12..], q(2.0));
    }

    #[test]
    fn replaying_plays_again_only_around_new_keys_and_matches_a_full_play() {
        let q = |a: f64| [0.0, (a / 2.0).sin() as f32, 0.0, (a / 2.0).cos() as f32];
        let keys = |times: &[f32]| {
            Track::new(
                "a.quaternion",
                TrackKind::Quaternion,
                times.to_vec(),
                Values::Numbers(times.iter().flat_map(|&t| q(f64::from(t).sin())).collect()),
            )
        };
        let old = keys(&[0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let times: Vec<f64> = (0..=600).map(|k| f64::from(k) / 60.0).collect();
        let full = |t: &Track| sample_numbers(t, &times, 4);
        let was = full(&old);
        // One key between 4 and 6 s: only the samples between 4 and 6 s play differently.
        let new = keys(&[0.0, 2.0, 4.0, 5.0, 6.0, 8.0, 10.0]);
        let mut sampled = was.clone();
        let pieces = replay(&old, &new, &mut sampled, &times, 4);
        assert_eq!(sampled, full(&new));
        assert_eq!(pieces, (241 / PIECE..=359 / PIECE).collect::<Vec<_>>());
        // An old key the storage rounded differently: everything plays again.
        let mut moved = new.clone();
        if let Values::Numbers(v) = &mut moved.values {
            v[1] += 0.01;
        }
        let mut sampled = was.clone();
        let pieces = replay(&old, &moved, &mut sampled, &times, 4);
        assert_eq!(sampled, full(&moved));
        assert_eq!(pieces.first(), Some(&0));
    }

    #[test]
    fn a_try_measured_in_pieces_measures_as_in_chunks_and_finds_every_overshoot() {
        on_leg(20.0, |search| {
            // A budget the try strays past by a fifth.
            let looser: Vec<f64> = search.base.iter().map(|t| t * 1.3).collect();
            let budget = search.attempt(&looser, (1.0, None)).error.distance / 1.2;
            let attempt = search.attempt(&looser, (budget, None));
            let inputs = search.played_inputs(&attempt);
            let original = search.original_inputs();
            let reference = search.reference(&original);
            let chunks = reference.chunks(usize::MAX, &inputs, true, |_| None);
            assert_eq!(attempt.chunks, chunks);
            let (pieces, limits) = attempt.pieces.as_ref().expect("measured in pieces");
            assert_eq!(*limits, (budget, None));
            assert_eq!(pieces.len(), reference.samples().div_ceil(PIECE));
            // Every sample and node past the budget, as far as one pass over the whole take finds
            // them (the angles of a distance overshoot are only bounds, without an angle budget).
            let strays = |over: &[Overshoot]| -> Vec<(usize, usize, f64)> {
                over.iter().map(|&(s, j, (d, _))| (s, j, d)).collect()
            };
            let found: Vec<Overshoot> = pieces
                .iter()
                .flat_map(|p| p.as_ref().unwrap().1.iter().copied())
                .collect();
            let samples = 0..reference.samples();
            let mut poses = reference.poses();
            let (_, all) = reference.overshoots(&mut poses, &inputs, samples, budget, None);
            assert!(!all.is_empty());
            assert_eq!(strays(&found), strays(&all));
        });
    }

    #[test]
    fn a_reducer_that_let_go_of_its_fits_measures_and_reduces_as_before() {
        let (clip, skeleton) = leg(4.0);
        let options = ReduceOptions {
            max_error: 0.01,
            key_grid: Some(1.0 / 32.0),
            ..ReduceOptions::default()
        };
        let mut reducer = Reducer::new(&clip, Some(&skeleton), &options);
        let first = reducer.reduce(1.0);
        let measured = reducer.measure(&first.clip);
        reducer.release_fits();
        let world = reducer.world.as_ref().unwrap();
        assert!(world.channels.iter().all(|c| c.values.is_empty()));
        assert_eq!(reducer.measure(&first.clip), measured);
        // A try at a smaller budget after letting go is the fresh reducer's, key for key.
        let again = reducer.reduce(0.9);
        let fresh = Reducer::new(&clip, Some(&skeleton), &options).reduce(0.9);
        assert_eq!(again.clip, fresh.clip);
        assert_ne!(again.clip, first.clip);
        let world = reducer.world.as_ref().unwrap();
        let made = Reducer::new(&clip, Some(&skeleton), &options);
        for (c, m) in world
            .channels
            .iter()
            .zip(&made.world.as_ref().unwrap().channels)
        {
            assert_eq!(c.values, m.values);
        }
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

    /// Runs `check` on the search of a [`leg`] take of `seconds` on a 1/32 s key grid within
    /// 1 cm.
    fn on_leg(seconds: f64, check: impl FnOnce(&WorldSearch)) {
        let (clip, skeleton) = leg(seconds);
        let options = ReduceOptions {
            max_error: 0.01,
            key_grid: Some(1.0 / 32.0),
            ..ReduceOptions::default()
        };
        let reducer = Reducer::new(&clip, Some(&skeleton), &options);
        check(reducer.world.as_ref().unwrap());
    }

    #[test]
    fn a_try_past_the_budget_is_mended_with_a_few_keys_where_it_strays() {
        on_leg(8.0, |search| {
            let budget = 0.01;
            // The first shares keep the budget; a tenth looser, they stray past it here and there.
            let limits = (budget, None);
            let first = search.attempt(&search.base, limits);
            assert!(within(&first.error, budget, None), "{:?}", first.error);
            let looser: Vec<f64> = search.base.iter().map(|t| t * 1.1).collect();
            let loose = search.attempt(&looser, limits);
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
            // Its values are what its tracks play, and it measures as a fresh measure of the same
            // tracks does, angles included.
            for (o, c) in mended.outcomes.iter().zip(&search.channels) {
                if let Some(played) = &o.sampled {
                    assert_eq!(
                        played,
                        &sample_numbers(&o.track, &c.sample_times, c.value_size)
                    );
                }
            }
            let tracks: Vec<&Track> = mended.outcomes.iter().map(|o| &o.track).collect();
            let (error, per_joint) = search.measure(&tracks);
            assert_eq!(error, mended.error);
            assert_eq!(per_joint, mended.per_joint);
            assert!(error.angle > 0.0);
            assert!(error.distance <= budget);
            assert_eq!(mended.tolerances, tolerances);
        });
    }
}
