//! Adding keys until a destination plays the source: each interval of the written keys is
//! checked at its ends and at points inside it against the source, and split at the worst point (a key with the
//! source's value there, and for Hermite curves its slope) until every check is within the
//! [`Tolerance`], or the interval is as short as `f32` times allow.
//!
//! Channels that share key times (a PlayCanvas animation node's position, rotation and scale,
//! which every key holds together) are fitted as one group: an interval splits when any of them
//! strays, and the new key holds every channel. Keys are made continuous as the destination
//! needs them ([`Encode`]): quaternions on the side of the previous key (a player that lerps
//! components takes the long way round otherwise), Euler angles as the triple nearest the
//! previous key's.
//!
//! The work is linear in the keys written: intervals are refined depth first and keys come out
//! in order.

use super::{Player, Quantity, Tolerance};
use crate::formats::euler::euler_for_quaternion;
use crate::formats::keys::{Keys, Sampling};
use crate::model::Track;
use crate::model::interpolant::Sampler;

/// Points checked inside each interval.
const CHECKS: usize = 8;

/// Deepest split of one interval.
const MAX_DEPTH: usize = 40;

/// The share of the tolerance the checked points must keep to: the playback between them
/// (unchecked) may stray a little further than at them, and must still be within the tolerance.
const MARGIN: f64 = 0.9;

/// How a source value becomes a written key value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encode {
    /// As it is (rotations normalized).
    Plain,
    /// A unit quaternion on the same side as the previous key (`dot ≥ 0`).
    Hemisphere,
    /// Euler degrees (PlayCanvas), the equivalent triple nearest the previous key's.
    Euler,
}

/// One channel of a group of keys that share their times.
pub(crate) struct Channel<'a> {
    /// The track whose playback the keys must follow.
    pub source: &'a Track,
    /// What it measures (which tolerance applies).
    pub quantity: Quantity,
    /// How the destination plays the keys.
    pub player: Player,
    /// How a source value becomes a key.
    pub encode: Encode,
    /// The keys so far (their times are the group's).
    pub keys: Keys,
}

impl Channel<'_> {
    /// Whether the source's values are quaternions.
    fn rotation(&self) -> bool {
        self.quantity == Quantity::Rotation
    }
}

/// `channel`'s keys with keys added where the destination strays, and how many were added.
pub(crate) fn fit_one(channel: Channel<'_>, tolerance: &Tolerance) -> (Keys, usize) {
    let (mut keys, added) = fit_group(vec![channel], tolerance);
    (keys.pop().unwrap_or_else(empty), added)
}

fn empty() -> Keys {
    Keys {
        sampling: Sampling::Linear,
        times: Vec::new(),
        values: Vec::new(),
        tangents: None,
        width: 0,
    }
}

/// One key of a group: its time and, per channel, its values and Hermite slopes.
#[derive(Clone)]
struct Key {
    t: f32,
    values: Vec<Vec<f32>>,
    ins: Vec<Vec<f32>>,
    outs: Vec<Vec<f32>>,
}

/// The group's keys with keys added where any channel's playback strays from its source, and how
/// many keys were added. Every channel's `keys.times` must be the same.
pub(crate) fn fit_group(channels: Vec<Channel<'_>>, tolerance: &Tolerance) -> (Vec<Keys>, usize) {
    let Some(first) = channels.first() else {
        return (Vec::new(), 0);
    };
    let times = first.keys.times.clone();
    let key_at = |k: usize| Key {
        t: times[k],
        values: channels
            .iter()
            .map(|c| c.keys.values[k * c.keys.width..(k + 1) * c.keys.width].to_vec())
            .collect(),
        ins: channels.iter().map(|c| slopes(&c.keys, k, 0)).collect(),
        outs: channels.iter().map(|c| slopes(&c.keys, k, 1)).collect(),
    };
    let mut fitter = Fitter {
        channels: &channels,
        samplers: channels.iter().map(|c| Sampler::new(c.source)).collect(),
        tolerance,
        out: Vec::with_capacity(times.len()),
        added: 0,
    };
    if !times.is_empty() {
        let mut left = key_at(0);
        fitter.out.push(left.clone());
        for k in 1..times.len() {
            let right = key_at(k);
            fitter.refine(&left, &right, 0);
            fitter.out.push(right.clone());
            left = right;
        }
    }
    let added = fitter.added;
    let out = fitter.out;
    let keys = channels
        .iter()
        .enumerate()
        .map(|(c, ch)| Keys {
            sampling: ch.keys.sampling,
            times: out.iter().map(|k| k.t).collect(),
            values: out
                .iter()
                .flat_map(|k| k.values[c].iter().copied())
                .collect(),
            tangents: ch.keys.tangents.as_ref().map(|_| {
                (
                    out.iter().flat_map(|k| k.ins[c].iter().copied()).collect(),
                    out.iter().flat_map(|k| k.outs[c].iter().copied()).collect(),
                )
            }),
            width: ch.keys.width,
        })
        .collect();
    (keys, added)
}

/// Key `k`'s in- (`side` 0) or out-slopes (1), empty without tangents.
fn slopes(keys: &Keys, k: usize, side: usize) -> Vec<f32> {
    let w = keys.width;
    match &keys.tangents {
        Some((a, b)) => [a, b][side][k * w..(k + 1) * w].to_vec(),
        None => Vec::new(),
    }
}

/// The refinement's state.
struct Fitter<'c, 'a> {
    channels: &'c [Channel<'a>],
    samplers: Vec<Sampler<'a>>,
    tolerance: &'c Tolerance,
    out: Vec<Key>,
    added: usize,
}

impl Fitter<'_, '_> {
    /// The source value of channel `c` at `t` (rotations normalized).
    fn source(&mut self, c: usize, t: f64) -> Vec<f64> {
        let ch = &self.channels[c];
        let mut v = vec![0.0; ch.source.value_size()];
        self.samplers[c].evaluate_f64(t, &mut v);
        if ch.rotation()
            && let Some(q) = super::unit(&v)
        {
            v.copy_from_slice(&q);
        }
        v
    }

    /// How far (in tolerances) the interval `l`–`r` strays at its worst checked point, and
    /// that point's time.
    fn worst(&mut self, l: &Key, r: &Key) -> (f64, f64) {
        let (t0, t1) = (l.t as f64, r.t as f64);
        let mut worst = (0.0f64, (t0 + t1) / 2.0);
        for c in 0..self.channels.len() {
            let ch = &self.channels[c];
            let keys = Keys {
                sampling: ch.keys.sampling,
                times: vec![l.t, r.t],
                values: [&l.values[c][..], &r.values[c][..]].concat(),
                tangents: ch.keys.tangents.as_ref().map(|_| {
                    (
                        [&l.ins[c][..], &r.ins[c][..]].concat(),
                        [&l.outs[c][..], &r.outs[c][..]].concat(),
                    )
                }),
                width: ch.keys.width,
            };
            let (player, rotation, quantity) = (ch.player, ch.rotation(), ch.quantity);
            let tol = self.tolerance.of(quantity).max(1e-12);
            let mut played = vec![0.0; player.output_width(keys.width)];
            // The ends too: the legacy skeleton's slerp plays the average of two keys closer
            // than 0.1146° even at the keys themselves.
            for j in 0..=CHECKS + 1 {
                let t = t0 + (t1 - t0) * j as f64 / (CHECKS + 1) as f64;
                let want = self.source(c, t);
                player.play(&keys, rotation, t, &mut played);
                let e = quantity.error(&want, &played) / tol;
                if e > worst.0 || e.is_nan() {
                    worst = (if e.is_nan() { f64::INFINITY } else { e }, t);
                }
            }
        }
        worst
    }

    /// Adds keys between `l` and `r` (exclusive) until the interval plays its source.
    fn refine(&mut self, l: &Key, r: &Key, depth: usize) {
        if depth >= MAX_DEPTH || r.t <= l.t.next_up() {
            return;
        }
        let (error, at) = self.worst(l, r);
        if error <= MARGIN {
            return;
        }
        let mut t = at as f32;
        if !(t > l.t && t < r.t) {
            t = ((l.t as f64 + r.t as f64) / 2.0) as f32;
            if !(t > l.t && t < r.t) {
                return;
            }
        }
        let mid = self.key(t, l, r);
        self.refine(l, &mid, depth + 1);
        self.out.push(mid.clone());
        self.added += 1;
        self.refine(&mid, r, depth + 1);
    }

    /// A new key at `t` between `l` and `r`: each channel's source value there, made
    /// continuous with `l`, and for Hermite channels its slope.
    fn key(&mut self, t: f32, l: &Key, r: &Key) -> Key {
        let n = self.channels.len();
        let mut key = Key {
            t,
            values: Vec::with_capacity(n),
            ins: Vec::with_capacity(n),
            outs: Vec::with_capacity(n),
        };
        let time = t as f64;
        for c in 0..n {
            let ch = &self.channels[c];
            let hermite = ch.keys.tangents.is_some();
            let (encode, rotation) = (ch.encode, ch.rotation());
            let mut raw = vec![0.0; ch.source.value_size()];
            self.samplers[c].evaluate_f64(time, &mut raw);
            let values = match encode {
                Encode::Plain if rotation => {
                    let len = raw.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if len > 0.0 {
                        raw.iter().map(|x| x / len).collect()
                    } else {
                        raw.clone()
                    }
                }
                Encode::Plain => raw.clone(),
                Encode::Hemisphere => {
                    let q = super::unit(&raw).map_or(raw.clone(), |q| q.to_vec());
                    let dot: f64 = q.iter().zip(&l.values[c]).map(|(a, &b)| a * b as f64).sum();
                    if dot < 0.0 {
                        q.iter().map(|x| -x).collect()
                    } else {
                        q
                    }
                }
                Encode::Euler => {
                    let q = super::unit(&raw).unwrap_or([0.0, 0.0, 0.0, 1.0]);
                    let prev = &l.values[c];
                    nearest_euler(
                        euler_for_quaternion(q),
                        [prev[0], prev[1], prev[2]].map(f64::from),
                    )
                    .to_vec()
                }
            };
            key.values.push(values.iter().map(|&v| v as f32).collect());
            if hermite {
                // The source's slope at t, scaled as the value was (a normalized rotation).
                let h = ((r.t - l.t) as f64 * 1e-3).max(1e-7);
                let (mut a, mut b) = (vec![0.0; raw.len()], vec![0.0; raw.len()]);
                self.samplers[c].evaluate_f64(time - h, &mut a);
                self.samplers[c].evaluate_f64(time + h, &mut b);
                let scale = if rotation {
                    let len = raw.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if len > 0.0 { 1.0 / len } else { 1.0 }
                } else {
                    1.0
                };
                let slope: Vec<f32> = a
                    .iter()
                    .zip(&b)
                    .map(|(a, b)| ((b - a) / (2.0 * h) * scale) as f32)
                    .collect();
                key.ins.push(slope.clone());
                key.outs.push(slope);
            } else {
                key.ins.push(Vec::new());
                key.outs.push(Vec::new());
            }
        }
        key
    }
}

/// Of the Euler triples that make the rotation of `e` (the triple itself and
/// `(x + 180, 180 − y, z + 180)`, each component shifted by whole turns), the one nearest
/// `prev`, so that interpolating degrees from `prev` takes the short way.
pub(crate) fn nearest_euler(e: [f64; 3], prev: [f64; 3]) -> [f64; 3] {
    let unwrap = |v: f64, near: f64| v + 360.0 * ((near - v) / 360.0).round();
    let candidates = [e, [e[0] + 180.0, 180.0 - e[1], e[2] + 180.0]];
    candidates
        .iter()
        .map(|c| std::array::from_fn(|i| unwrap(c[i], prev[i])))
        .min_by(|a: &[f64; 3], b: &[f64; 3]| {
            let d = |x: &[f64; 3]| (0..3).map(|i| (x[i] - prev[i]).powi(2)).sum::<f64>();
            d(a).total_cmp(&d(b))
        })
        .unwrap_or(e)
}

/// The key times `track` needs as linear keys: its own (each once, ascending), with a key one
/// `f32` step before each key that follows a discrete key or repeats a time (a jump).
pub(crate) fn linear_times(track: &Track) -> Vec<f32> {
    let step = Track::resolve_interpolation(track.kind, Some(track.interpolation))
        == crate::model::Interpolation::Discrete;
    let mut out = Vec::with_capacity(track.times.len() * if step { 2 } else { 1 });
    for (k, &t) in track.times.iter().enumerate() {
        let last = out.last().copied();
        if k > 0 && (step || track.times[k - 1] == t) && last.is_some_and(|l| l < t.next_down()) {
            out.push(t.next_down());
        }
        // A time repeated (a jump) is one key: the later value, reached one step after the
        // earlier one.
        if last != Some(t) {
            out.push(t);
        }
    }
    out
}

/// `track` (numeric, sorted finite times) as linear keys that `player` plays within `tolerance`
/// of it: steps and jumps as keys one `f32` step apart, curves from their keys with keys added
/// where the lines stray; and how many keys the result has beyond the track's.
pub(crate) fn linearized(track: &Track, player: Player, tolerance: &Tolerance) -> (Track, usize) {
    let times = linear_times(track);
    let values = crate::model::ops::bake::sample_numbers(track, times.iter().copied());
    let quantity = Quantity::of(track);
    let (keys, _) = fit_one(
        Channel {
            source: track,
            quantity,
            player,
            encode: Encode::Plain,
            keys: Keys {
                sampling: Sampling::Linear,
                times,
                values,
                tangents: None,
                width: track.value_size(),
            },
        },
        tolerance,
    );
    let added = keys.times.len().saturating_sub(track.len());
    let mut out = track.without_keys();
    out.times = keys.times;
    out.values = crate::model::Values::Numbers(keys.values);
    out.interpolation = crate::model::Interpolation::Linear;
    (out, added)
}

/// `quaternions` (4 numbers each) with signs flipped so that each is on the side of the one
/// before (`dot ≥ 0`); how many were flipped.
pub(crate) fn hemisphere_continuous(quaternions: &mut [f32]) -> usize {
    let mut flipped = 0;
    for k in 1..quaternions.len() / 4 {
        let (before, now) = quaternions.split_at_mut(k * 4);
        let prev = &before[(k - 1) * 4..];
        let dot: f64 = prev
            .iter()
            .zip(&now[..4])
            .map(|(&a, &b)| a as f64 * b as f64)
            .sum();
        if dot < 0.0 {
            now[..4].iter_mut().for_each(|x| *x = -*x);
            flipped += 1;
        }
    }
    flipped
}

/// Euler triples (3 numbers each) unwrapped so each is the equivalent nearest the one before.
pub(crate) fn euler_continuous(degrees: &mut [f32]) {
    for k in 1..degrees.len() / 3 {
        let prev = [0, 1, 2].map(|i| degrees[(k - 1) * 3 + i] as f64);
        let now = [0, 1, 2].map(|i| degrees[k * 3 + i] as f64);
        let best = nearest_euler(now, prev);
        for i in 0..3 {
            degrees[k * 3 + i] = best[i] as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, TrackKind};

    fn rotation_track(times: Vec<f32>, degrees_about_y: &[f64]) -> Track {
        let values = degrees_about_y
            .iter()
            .flat_map(|d| {
                let h = d.to_radians() / 2.0;
                [0.0, h.sin() as f32, 0.0, h.cos() as f32]
            })
            .collect();
        let mut t = Track::numeric("n.quaternion", TrackKind::Quaternion, times, values);
        t.interpolation = Interpolation::Linear;
        t
    }

    fn keys_of(track: &Track) -> Keys {
        Keys {
            sampling: Sampling::Linear,
            times: track.times.clone(),
            values: track.values.as_numbers().unwrap().to_vec(),
            tangents: None,
            width: track.value_size(),
        }
    }

    fn worst_over(track: &Track, keys: &Keys, player: Player) -> f64 {
        let mut s = Sampler::new(track);
        let end = *track.times.last().unwrap() as f64;
        let (mut a, mut b) = (vec![0.0; 4], vec![0.0; player.output_width(keys.width)]);
        (0..=2000)
            .map(|i| {
                let t = end * i as f64 / 2000.0;
                s.evaluate_f64(t, &mut a);
                player.play(keys, true, t, &mut b);
                super::super::angle_deg(&a, &b)
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn normalized_lerp_gets_keys_until_it_follows_the_slerp() {
        let track = rotation_track(vec![0.0, 1.0], &[0.0, 170.0]);
        let keys = keys_of(&track);
        // A normalized lerp over 170° strays by almost 7° from the slerp.
        assert!(worst_over(&track, &keys, Player::PlayCanvasAnim) > 6.0);
        let tol = Tolerance::default();
        let (fitted, added) = fit_one(
            Channel {
                source: &track,
                quantity: Quantity::Rotation,
                player: Player::PlayCanvasAnim,
                encode: Encode::Hemisphere,
                keys,
            },
            &tol,
        );
        assert_eq!(fitted.times.len(), 2 + added);
        assert!(added > 2 && added < 60, "{added}");
        assert!(worst_over(&track, &fitted, Player::PlayCanvasAnim) <= 0.05);
        assert!(fitted.times.is_sorted());
    }

    #[test]
    fn hemispheres_and_euler_continuity() {
        let mut q = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.1, 0.0, 0.99];
        assert_eq!(hemisphere_continuous(&mut q), 1);
        assert_eq!(&q[4..], [-0.0, -0.0, -0.0, 1.0, 0.0, 0.1, 0.0, 0.99]);
        let mut e = vec![0.0, 0.0, 170.0, 0.0, 0.0, -170.0];
        euler_continuous(&mut e);
        assert_eq!(e, [0.0, 0.0, 170.0, 0.0, 0.0, 190.0]);
        // (180, 60, 180) is (0, 120, 0): the nearer triple to (0, 100, 0) is the second.
        let n = nearest_euler([180.0, 60.0, 180.0], [0.0, 100.0, 0.0]);
        assert!(
            (n[0] - 0.0).abs() < 1e-9 && (n[1] - 120.0).abs() < 1e-9,
            "{n:?}"
        );
    }

    #[test]
    fn euler_curves_follow_the_source_rotation() {
        let track = rotation_track(vec![0.0, 1.0], &[0.0, 90.0]);
        // Tilted about x as well, so Euler lerping is not a slerp.
        let mut track = track;
        let v = track.values.as_numbers_mut().unwrap();
        let h = (40f64).to_radians() / 2.0;
        v[4..8].copy_from_slice(&[h.sin() as f32 * 0.7, 0.5, 0.0, 0.7]);
        let q0 = [0.0, 0.0, 0.0, 1.0];
        let q1 =
            super::super::unit(&v[4..8].iter().map(|&x| x as f64).collect::<Vec<_>>()).unwrap();
        let mut degrees: Vec<f32> = [q0, q1]
            .iter()
            .flat_map(|q| euler_for_quaternion(*q).map(|x| x as f32))
            .collect();
        euler_continuous(&mut degrees);
        let keys = Keys {
            sampling: Sampling::Linear,
            times: track.times.clone(),
            values: degrees,
            tangents: None,
            width: 3,
        };
        let (fitted, added) = fit_one(
            Channel {
                source: &track,
                quantity: Quantity::Rotation,
                player: Player::PlayCanvasEuler,
                encode: Encode::Euler,
                keys,
            },
            &Tolerance::default(),
        );
        assert!(added > 0);
        let w = worst_over(&track, &fitted, Player::PlayCanvasEuler);
        assert!(w <= 0.05, "{w} {added} {:?}", fitted.values);
    }

    #[test]
    fn hermite_keys_follow_a_bezier_curve() {
        use crate::model::{HandleSide, Tangents};
        let mut track = Track::numeric(
            "n.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0],
        );
        track.interpolation = Interpolation::Bezier;
        let mut tangents = Tangents::new(vec![0.0; 12], vec![0.0; 12]);
        for c in 0..3 {
            tangents.set_point(HandleSide::Out, 0, c, 3, (0.6, 0.0));
            tangents.set_point(HandleSide::In, 1, c, 3, (0.9, c as f64 + 1.0));
            tangents.set_point(HandleSide::In, 0, c, 3, (-0.1, 0.0));
            tangents.set_point(HandleSide::Out, 1, c, 3, (1.1, c as f64 + 1.0));
        }
        track.tangents = Some(tangents);
        let keys = Keys {
            sampling: Sampling::CubicSpline,
            times: vec![0.0, 1.0],
            values: vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0],
            tangents: Some((vec![0.0; 6], vec![0.0; 6])),
            width: 3,
        };
        let (fitted, added) = fit_one(
            Channel {
                source: &track,
                quantity: Quantity::Position,
                player: Player::ThreeJs,
                encode: Encode::Plain,
                keys,
            },
            &Tolerance::default(),
        );
        assert!(added > 0 && added < 200, "{added}");
        let mut s = Sampler::new(&track);
        let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
        for i in 0..=1000 {
            let t = i as f64 / 1000.0;
            s.evaluate_f64(t, &mut a);
            Player::ThreeJs.play(&fitted, false, t, &mut b);
            assert!(super::super::relative(&a, &b) < 1e-4, "t {t}: {a:?} {b:?}");
        }
    }
}
