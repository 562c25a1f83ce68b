//! Comparing what a written file plays with the source: for every numeric source track, the
//! destination's playback ([`Curve`]) is sampled at the key times of both, and at points inside
//! every interval between them, and the largest deviation is kept ([`Fidelity`]).
//!
//! Check times are `f32` values, as key times are: a step written for a player that only
//! interpolates (a key one `f32` step before the next) jumps between two neighbouring `f32`
//! times, where no time is checked.

use super::{Fidelity, Player, Quantity, TrackFidelity};
use crate::formats::Document;
use crate::formats::keys::Keys;
use crate::model::interpolant::Sampler;
use crate::model::{Clip, Track};
use rayon::prelude::*;

/// Points checked inside each interval between key times.
const INSIDE: usize = 8;

/// How the destination plays one source track.
#[derive(Debug, Clone)]
pub(crate) enum Curve {
    /// Keys the destination plays its own way.
    Keys {
        /// The keys as written (values as the player receives them).
        keys: Keys,
        /// How it plays them.
        player: Player,
    },
    /// A track that plays as the model plays it (a file read back by a reader that reads it
    /// as its player does).
    Model(Track),
    /// A track that plays as the model plays it, in the destination's units: its values mapped
    /// back into the source's.
    Mapped {
        /// The track as read back.
        track: Track,
        /// How its values map back.
        unmap: Unmap,
    },
}

/// How a destination's values map back into the source's units (a composed Lottie layer's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Unmap {
    /// Pixels, y down, from `center`: `(x − cx) / per_unit`, `−(y − cy) / per_unit`, z = 0.
    Position {
        /// Pixels per source unit.
        per_unit: f64,
        /// Where the source's origin is, in pixels.
        center: [f64; 2],
    },
    /// Degrees clockwise on screen: a rotation about z by the negated angle.
    TwistDegrees,
    /// Percent: divided by 100 (a missing z scale is 1).
    Percent,
}

impl Unmap {
    /// `played` (the destination's values) in the source's units, into `out` (the source's
    /// width).
    pub(crate) fn apply(self, played: &[f64], out: &mut [f64]) {
        let at = |i: usize| played.get(i).copied().unwrap_or(f64::NAN);
        match self {
            Unmap::Position { per_unit, center } => {
                for (c, o) in out.iter_mut().enumerate() {
                    *o = match c {
                        0 => (at(0) - center[0]) / per_unit,
                        1 => -(at(1) - center[1]) / per_unit,
                        _ => 0.0,
                    };
                }
            }
            Unmap::TwistDegrees => {
                let h = (-at(0)).to_radians() / 2.0;
                let q = [0.0, 0.0, h.sin(), h.cos()];
                for (o, v) in out.iter_mut().zip(q) {
                    *o = v;
                }
            }
            Unmap::Percent => {
                for (c, o) in out.iter_mut().enumerate() {
                    *o = if c < played.len() { at(c) / 100.0 } else { 1.0 };
                }
            }
        }
    }
}

/// Where a writer put one source track, and how the destination plays it.
#[derive(Debug, Clone)]
pub(crate) struct Played {
    /// The source clip's index.
    pub clip: usize,
    /// The source track's index in its clip.
    pub track: usize,
    /// Where the written file puts it, in the destination's terms.
    pub target: String,
    /// The destination's playback.
    pub curve: Curve,
    /// Keys added so it plays the source.
    pub added: usize,
    /// What the measurement cannot see of how the destination plays it (a Lottie property
    /// driven by an expression), for the report.
    pub note: Option<String>,
}

/// The [`Fidelity`] of `doc`'s clips as `played` says they play; `losses` are the conversion's
/// lines (a track not written gets the line that names it).
pub(crate) fn measure(doc: &Document, played: Vec<Played>, losses: &[String]) -> Fidelity {
    let mut by_track: std::collections::HashMap<(usize, usize), Played> =
        std::collections::HashMap::with_capacity(played.len());
    for p in played {
        by_track.entry((p.clip, p.track)).or_insert(p);
    }
    // Each written track is measured once, on its own: in parallel.
    let mut jobs: Vec<(&Clip, &Track, TrackFidelity, Option<Curve>)> = Vec::new();
    for (c, clip) in doc.clips.iter().enumerate() {
        for (j, track) in clip.tracks.iter().enumerate() {
            if track.is_empty() || track.values.as_numbers().is_none() {
                continue;
            }
            let quantity = Quantity::of(track);
            let mut entry = TrackFidelity {
                clip: clip.name.clone(),
                track: track.name.clone(),
                quantity,
                target: None,
                deviation: 0.0,
                at: 0.0,
                keys_added: 0,
                note: None,
            };
            let curve = match by_track.remove(&(c, j)) {
                None => {
                    let quoted = format!("'{}'", track.name);
                    entry.note = Some(
                        losses
                            .iter()
                            .find(|l| l.contains(&quoted))
                            .cloned()
                            .unwrap_or_else(|| "not written".to_string()),
                    );
                    None
                }
                Some(p) => {
                    entry.target = Some(p.target);
                    entry.keys_added = p.added;
                    entry.note = p.note;
                    Some(p.curve)
                }
            };
            jobs.push((clip, track, entry, curve));
        }
    }
    let tracks: Vec<TrackFidelity> = jobs
        .into_par_iter()
        .map(|(clip, track, mut entry, curve)| {
            if let Some(curve) = curve {
                (entry.deviation, entry.at) = deviation(clip, track, entry.quantity, &curve);
            }
            entry
        })
        .collect();
    let seams = seams(doc, &tracks);
    Fidelity { tracks, seams }
}

/// The largest jump at the loop seam per quantity among the written numeric tracks of `doc`
/// (`written`, in clip and track order), beyond the default tolerance.
fn seams(doc: &Document, written: &[TrackFidelity]) -> Vec<super::Seam> {
    let tolerance = super::Tolerance::default();
    let mut best: Vec<super::Seam> = Vec::new();
    let mut next = written.iter();
    for clip in &doc.clips {
        if !(clip.duration.is_finite() && clip.duration > 0.0) {
            continue;
        }
        for track in &clip.tracks {
            if track.is_empty() || track.values.as_numbers().is_none() {
                continue;
            }
            let Some(entry) = next.next() else { break };
            if entry.target.is_none() {
                continue;
            }
            let quantity = entry.quantity;
            let mut sampler = Sampler::new(track);
            let mut start = vec![0.0; track.value_size()];
            let mut end = vec![0.0; track.value_size()];
            sampler.evaluate_f64(0.0, &mut start);
            sampler.evaluate_f64(clip.duration, &mut end);
            let jump = quantity.deviation(&end, &start);
            if !(jump.is_finite() && quantity.error(&end, &start) > tolerance.of(quantity)) {
                continue;
            }
            let seam = super::Seam {
                clip: clip.name.clone(),
                track: track.name.clone(),
                quantity,
                jump,
            };
            match best.iter_mut().find(|s| s.quantity == quantity) {
                Some(s) if s.jump < jump => *s = seam,
                Some(_) => {}
                None => best.push(seam),
            }
        }
    }
    best.sort_by_key(|s| s.quantity);
    best
}

/// The times checked for `track` played as `curve` in `clip`: both sets of key times from the
/// clip's start to its end (0 to the duration, widened to the keys), and points inside each
/// interval, as sorted distinct `f32` values.
fn check_times(clip: &Clip, track: &Track, curve: &Curve) -> Vec<f32> {
    let mut keys: Vec<f32> = track.times.clone();
    match curve {
        Curve::Keys { keys: k, .. } => keys.extend_from_slice(&k.times),
        Curve::Model(t) | Curve::Mapped { track: t, .. } => keys.extend_from_slice(&t.times),
    }
    keys.retain(|t| t.is_finite());
    keys.push(0.0);
    if clip.duration.is_finite() && clip.duration > 0.0 {
        keys.push(clip.duration as f32);
    }
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let lo = keys.first().copied().unwrap_or(0.0).min(0.0);
    let hi = keys.last().copied().unwrap_or(0.0);
    let mut out = Vec::with_capacity(keys.len() * (INSIDE + 1));
    for w in keys.windows(2) {
        out.push(w[0]);
        let (a, b) = (w[0] as f64, w[1] as f64);
        for i in 1..=INSIDE {
            out.push((a + (b - a) * i as f64 / (INSIDE + 1) as f64) as f32);
        }
    }
    out.extend(keys.last());
    out.retain(|&t| t >= lo && t <= hi);
    out.sort_by(f32::total_cmp);
    out.dedup();
    out
}

/// The largest deviation of `curve` from `track` and when.
fn deviation(clip: &Clip, track: &Track, quantity: Quantity, curve: &Curve) -> (f64, f64) {
    let times = check_times(clip, track, curve);
    let mut source = Sampler::new(track);
    let mut want = vec![0.0; track.value_size()];
    let (mut model, mut got) = match curve {
        Curve::Model(t) => (Some(Sampler::new(t)), vec![0.0; t.value_size()]),
        Curve::Mapped { track: t, .. } => (Some(Sampler::new(t)), vec![0.0; t.value_size()]),
        Curve::Keys { keys, player } => (None, vec![0.0; player.output_width(keys.width)]),
    };
    let mut unmapped = vec![0.0; track.value_size()];
    let rotation = quantity == Quantity::Rotation;
    let mut worst = (0.0f64, 0.0f64);
    // The largest angle order ([`super::angle_order`]) of the rotations measured exactly.
    let mut largest_key = f64::NEG_INFINITY;
    for t in times {
        let t = t as f64;
        source.evaluate_f64(t, &mut want);
        match (curve, &mut model) {
            (Curve::Keys { keys, player }, _) => player.play(keys, rotation, t, &mut got),
            (_, Some(m)) => m.evaluate_f64(t, &mut got),
            _ => {}
        }
        let got = match curve {
            Curve::Mapped { unmap, .. } => {
                unmap.apply(&got, &mut unmapped);
                &unmapped
            }
            _ => &got,
        };
        // A rotation whose angle is surely below the largest so far needs no exact angle.
        if rotation && let Some(key) = super::angle_order(&want, got) {
            if key + super::ANGLE_ORDER_SLACK < largest_key {
                continue;
            }
            largest_key = largest_key.max(key);
        }
        let d = quantity.deviation(&want, got);
        if d > worst.0 || (d.is_nan() && !worst.0.is_nan()) {
            worst = (if d.is_nan() { f64::INFINITY } else { d }, t);
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::formats::keys::Sampling;
    use crate::model::{Interpolation, TrackKind};

    /// A track whose end differs from its start jumps at the loop seam; one that comes back
    /// does not; the largest per quantity is listed.
    #[test]
    fn loop_seams() {
        let track = |name: &str, end: f32| {
            Track::numeric(
                name,
                TrackKind::Vector,
                vec![0.0, 0.5, 1.0],
                vec![0.0, 0.0, 0.0, 5.0, 0.0, 0.0, end, 0.0, 0.0],
            )
        };
        let tracks = vec![
            track("a.position", 0.0),
            track("b.position", 2.0),
            track("c.position", 3.0),
        ];
        let doc = Document::new(Format::ThreeJs, vec![Clip::new("c", 2.0, tracks)]);
        let f = crate::formats::fidelity(&doc, &crate::formats::WriteOptions::default(), &[]);
        assert_eq!(f.seams.len(), 1, "{:?}", f.seams);
        assert_eq!(
            (f.seams[0].track.as_str(), f.seams[0].jump),
            ("c.position", 3.0)
        );
        assert_eq!(f.seams[0].quantity, Quantity::Position);
    }

    #[test]
    fn the_worst_rotation_is_the_one_every_angle_measured_finds() {
        // A wobbling source and a copy off by a little, more at some keys than others: the
        // largest angle and its time are those of measuring every checked time exactly.
        let keys = 400;
        let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
        let quaternion = |k: usize, off: f64| {
            let (a, b) = (k as f64 * 0.37, k as f64 * 0.11 + off);
            let q = [a.sin() * 0.3, b.cos() * 0.2, (a + b).sin() * 0.1, 1.0];
            let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            q.map(|x| (x / len) as f32)
        };
        let wobble = |k: usize| ((k * 7919) % 13) as f64 * 1e-4;
        let source: Vec<f32> = (0..keys).flat_map(|k| quaternion(k, 0.0)).collect();
        let copy: Vec<f32> = (0..keys).flat_map(|k| quaternion(k, wobble(k))).collect();
        let track = |values| {
            let mut t =
                Track::numeric("a.quaternion", TrackKind::Quaternion, times.clone(), values);
            t.interpolation = Interpolation::Linear;
            t
        };
        let (source, copy) = (track(source), track(copy));
        let clip = Clip::new("c", -1.0, vec![source.clone()]);
        let curve = Curve::Model(copy.clone());
        let found = deviation(&clip, &source, Quantity::Rotation, &curve);
        let (mut a, mut b) = (Sampler::new(&source), Sampler::new(&copy));
        let (mut want, mut got) = ([0.0; 4], [0.0; 4]);
        let mut every = (0.0f64, 0.0f64);
        for t in check_times(&clip, &source, &curve) {
            a.evaluate_f64(t as f64, &mut want);
            b.evaluate_f64(t as f64, &mut got);
            let d = super::super::angle_deg(&want, &got);
            if d > every.0 {
                every = (d, t as f64);
            }
        }
        assert!(every.0 > 0.01, "{every:?}");
        assert_eq!(found, every);
    }

    #[test]
    fn deviations_per_track() {
        let mut pos = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        );
        pos.interpolation = Interpolation::Linear;
        let spin = Track::numeric(
            "a.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0],
        );
        let doc = Document::new(
            Format::ThreeJs,
            vec![Clip::new(
                "c",
                1.0,
                vec![pos.clone(), spin.clone(), pos.clone()],
            )],
        );
        let played = vec![
            Played {
                clip: 0,
                track: 0,
                target: "a position".into(),
                curve: Curve::Keys {
                    keys: Keys {
                        sampling: Sampling::Step,
                        times: vec![0.0, 1.0],
                        values: vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
                        tangents: None,
                        width: 3,
                    },
                    player: Player::PlayCanvasAnim,
                },
                added: 0,
                note: None,
            },
            Played {
                clip: 0,
                track: 1,
                target: "a rotation".into(),
                curve: Curve::Model(spin),
                added: 3,
                note: None,
            },
        ];
        let f = measure(
            &doc,
            played,
            &["clip 'c' track 'a.position': gone".to_string()],
        );
        assert_eq!(f.tracks.len(), 3);
        // A step where the source lerps: 2 units short just before the end.
        assert!(
            f.tracks[0].deviation > 1.7 && f.tracks[0].deviation < 2.0,
            "{:?}",
            f.tracks[0]
        );
        assert!(f.tracks[0].at > 0.85);
        assert_eq!((f.tracks[1].deviation, f.tracks[1].keys_added), (0.0, 3));
        assert_eq!(f.tracks[2].target, None);
        assert_eq!(
            f.tracks[2].note.as_deref(),
            Some("clip 'c' track 'a.position': gone")
        );
        assert_eq!(f.largest(Quantity::Position).unwrap().track, "a.position");
        assert_eq!(f.keys_added(), 3);
    }
}
