//! How one track's keys become a sampler's: LINEAR, STEP or CUBICSPLINE, as glTF samplers and
//! PlayCanvas anim curves (which interpolate the same way) store them. Shared by those formats'
//! writers, so neither writes through the other's module.
//!
//! * discrete → `STEP` and linear → `LINEAR` (quaternions slerp in both three.js and glTF);
//! * bezier → `CUBICSPLINE` when every handle sits at a third of its interval
//!   ([`hermite::from_tangents`](crate::model::hermite::from_tangents)), exactly; a bezier track
//!   without usable handles is drawn linearly by three.js, so it is written `LINEAR`; any other
//!   bezier track becomes `CUBICSPLINE` keys fitted to its curve ([`convert_with`]: the keys
//!   with the curve's slopes, and keys added until the destination's Hermite segments follow it
//!   within the tolerance), and is reported;
//! * smooth (three.js's cubic spline) → `CUBICSPLINE`: each interval of it is a cubic
//!   polynomial of time, so its fitted handles sit at the thirds and the curve is kept exactly
//!   (up to `f32` rounding); reported, since it reads back as bezier;
//! * CUBICSPLINE needs two keys: a one-key curve is written `LINEAR` (a constant either way).
//!
//! Rotation values are normalized (glTF requires unit quaternions, and anim clips get them too);
//! a key more than 0.001 off unit length is reported.

use crate::formats::fidelity::fit::{Channel, Encode, fit_one};
use crate::formats::fidelity::{Player, Quantity, Tolerance};
use crate::model::hermite::from_tangents;
use crate::model::interpolant::Sampler;
use crate::model::ops::bake::{DEFAULT_BAKE_FPS, sample_numbers, span_times};
use crate::model::{Interpolation, Track};

pub(crate) use super::keys::{Keys, Sampling};

/// The keys of `track` (numeric, with sorted finite times: what the writers check first) as a
/// glTF sampler holds them for three.js, plus a note when the curve was changed or
/// reinterpreted. `rotation` normalizes the values.
pub(crate) fn convert(track: &Track, rotation: bool) -> (Keys, Vec<String>) {
    convert_with(
        track,
        rotation,
        Some((&Tolerance::default(), Player::ThreeJs)),
    )
}

/// [`convert`] for a destination that plays Hermite segments as `fit`'s player does: a bezier
/// curve no Hermite key reproduces becomes Hermite keys fitted to it within `fit`'s tolerance
/// (without `fit`, it is baked to LINEAR at 30 fps).
pub(crate) fn convert_with(
    track: &Track,
    rotation: bool,
    fit: Option<(&Tolerance, Player)>,
) -> (Keys, Vec<String>) {
    let vs = track.value_size();
    let values = track.values.as_numbers().unwrap_or_default().to_vec();
    let mut notes = Vec::new();
    // The keys as they are, taking `values` (each path below makes its keys once).
    let plain = |sampling, values| Keys {
        sampling,
        times: track.times.clone(),
        values,
        tangents: None,
        width: vs,
    };
    let mut keys = match Track::resolve_interpolation(track.kind, Some(track.interpolation)) {
        Interpolation::Discrete => plain(Sampling::Step, values),
        Interpolation::Linear => plain(Sampling::Linear, values),
        _ if track.len() < 2 => plain(Sampling::Linear, values),
        Interpolation::Smooth => {
            let tangents = track.fitted_tangents();
            match from_tangents(&track.times, &values, &tangents, vs) {
                Ok(t) => {
                    notes.push(
                        "its smooth interpolation (written as CUBICSPLINE, the same curve; it \
                         reads back as bezier)"
                            .to_string(),
                    );
                    Keys {
                        tangents: Some(t),
                        ..plain(Sampling::CubicSpline, values)
                    }
                }
                Err(_) => baked(track, &mut notes, "smooth interpolation"),
            }
        }
        Interpolation::Bezier => {
            let needed = track.len() * vs * 2;
            match &track.tangents {
                Some(t) if t.in_tangents.len() >= needed && t.out_tangents.len() >= needed => {
                    match from_tangents(&track.times, &values, t, vs) {
                        Ok(t) => Keys {
                            tangents: Some(t),
                            ..plain(Sampling::CubicSpline, values)
                        },
                        Err(k) => {
                            let why = format!(
                                "the bezier handles of key {k} are not at a third of their \
                                 interval"
                            );
                            match fit {
                                Some((tolerance, player)) => {
                                    fitted(track, rotation, tolerance, player, &mut notes, &why)
                                }
                                None => baked(track, &mut notes, &why),
                            }
                        }
                    }
                }
                // three.js draws a bezier track without (enough) handles linearly.
                _ => plain(Sampling::Linear, values),
            }
        }
    };
    if rotation {
        let worst = normalize_quaternions(&mut keys.values);
        if worst > 1e-3 {
            notes.push(format!(
                "its quaternions' lengths (up to {worst:.3} off 1; normalized)"
            ));
        }
    }
    (keys, notes)
}

/// `track` (a bezier track) as CUBICSPLINE keys that `player` plays within `tolerance` of it:
/// its own keys with the curve's slopes on either side, then keys added where the Hermite
/// segments stray; with a note saying why (`why`) and how many keys it took.
fn fitted(
    track: &Track,
    rotation: bool,
    tolerance: &Tolerance,
    player: Player,
    notes: &mut Vec<String>,
    why: &str,
) -> Keys {
    let vs = track.value_size();
    let mut values = track.values.as_numbers().unwrap_or_default().to_vec();
    let n = track.len();
    let (mut ins, mut outs) = (vec![0.0f32; n * vs], vec![0.0f32; n * vs]);
    let mut sampler = Sampler::new(track);
    let (mut a, mut b) = (vec![0.0; vs], vec![0.0; vs]);
    for k in 0..n {
        let t = track.times[k] as f64;
        // One-sided slopes, measured just inside each neighbouring interval.
        let before = (k > 0).then(|| (t - track.times[k - 1] as f64) * 1e-4);
        let after = (k + 1 < n).then(|| (track.times[k + 1] as f64 - t) * 1e-4);
        let mut slope = |h: f64, side: &mut [f32]| {
            sampler.evaluate_f64(t - h.max(0.0), &mut a);
            sampler.evaluate_f64(t + (-h).max(0.0), &mut b);
            for c in 0..vs {
                side[k * vs + c] = ((b[c] - a[c]) / h.abs()) as f32;
            }
        };
        if let Some(h) = before.filter(|h| *h > 0.0) {
            slope(h, &mut ins);
        }
        if let Some(h) = after.filter(|h| *h > 0.0) {
            slope(-h, &mut outs);
        }
    }
    if rotation {
        // Unit values, the slopes scaled alike: the same rotations once normalized.
        for k in 0..n {
            let q = &mut values[k * vs..(k + 1) * vs];
            let len = q.iter().map(|&c| c as f64 * c as f64).sum::<f64>().sqrt();
            if len > 0.0 && len.is_finite() {
                for c in 0..vs {
                    let i = k * vs + c;
                    values[i] = (values[i] as f64 / len) as f32;
                    ins[i] = (ins[i] as f64 / len) as f32;
                    outs[i] = (outs[i] as f64 / len) as f32;
                }
            }
        }
    }
    let keys = Keys {
        sampling: Sampling::CubicSpline,
        times: track.times.clone(),
        values,
        tangents: Some((ins, outs)),
        width: vs,
    };
    let quantity = if rotation {
        Quantity::Rotation
    } else {
        Quantity::of(track)
    };
    let (keys, added) = fit_one(
        Channel {
            source: track,
            quantity,
            player,
            encode: Encode::Plain,
            keys,
        },
        tolerance,
    );
    notes.push(format!(
        "its exact curve ({why}; written as CUBICSPLINE keys that follow it, {} keys added)",
        added
    ));
    keys
}

/// `track` baked to LINEAR keys, with a note saying why (`why`) and how many keys it took.
fn baked(track: &Track, notes: &mut Vec<String>, why: &str) -> Keys {
    let first = track.times.first().copied().unwrap_or(0.0);
    let last = track.times.last().copied().unwrap_or(0.0);
    let times = span_times(&track.times, first, last);
    let values = sample_numbers(track, times.iter().copied());
    notes.push(format!(
        "its exact curve ({why}; baked to LINEAR at {DEFAULT_BAKE_FPS} fps, {} keys)",
        times.len()
    ));
    Keys {
        sampling: Sampling::Linear,
        width: track.value_size(),
        times,
        values,
        tangents: None,
    }
}

/// Normalizes every quaternion (4 numbers) of `values` in place; returns the largest
/// deviation from unit length found.
pub(crate) fn normalize_quaternions(values: &mut [f32]) -> f64 {
    let mut worst = 0.0f64;
    for q in values.chunks_exact_mut(4) {
        let len = q.iter().map(|&c| c as f64 * c as f64).sum::<f64>().sqrt();
        if len > 0.0 && len.is_finite() {
            worst = worst.max((len - 1.0).abs());
            if (len - 1.0).abs() > 1e-7 {
                for c in q.iter_mut() {
                    *c = (*c as f64 / len) as f32;
                }
            }
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::DEFAULT_RELATIVE;
    use crate::model::TrackKind;
    use crate::model::{HandleSide, Tangents};

    fn number(interpolation: Interpolation) -> Track {
        let mut t = Track::numeric(
            ".x",
            TrackKind::Number,
            vec![0.0, 1.0, 3.0],
            vec![0.0, 2.0, -1.0],
        );
        t.interpolation = interpolation;
        t
    }

    #[test]
    fn modes_map_directly() {
        assert_eq!(
            convert(&number(Interpolation::Discrete), false).0.sampling,
            Sampling::Step
        );
        assert_eq!(
            convert(&number(Interpolation::Linear), false).0.sampling,
            Sampling::Linear
        );
        // Bezier without handles is linear in three.js.
        let (keys, notes) = convert(&number(Interpolation::Bezier), false);
        assert_eq!((keys.sampling, notes.len()), (Sampling::Linear, 0));
    }

    #[test]
    fn smooth_becomes_the_same_cubic_spline() {
        let smooth = number(Interpolation::Smooth);
        let (keys, notes) = convert(&smooth, false);
        assert_eq!(keys.sampling, Sampling::CubicSpline);
        assert_eq!(notes.len(), 1);
        let back = keys.as_track(TrackKind::Number);
        let (mut a, mut b) = (Sampler::new(&smooth), Sampler::new(&back));
        let (mut x, mut y) = ([0.0], [0.0]);
        for i in 0..=60 {
            let t = i as f64 * 0.05;
            a.evaluate_f64(t, &mut x);
            b.evaluate_f64(t, &mut y);
            assert!((x[0] - y[0]).abs() < 1e-5, "t = {t}: {} vs {}", x[0], y[0]);
        }
    }

    #[test]
    fn bezier_off_thirds_is_fitted_or_baked() {
        let mut t = number(Interpolation::Bezier);
        let mut tangents = t.fitted_tangents();
        assert!(
            convert(
                &Track {
                    tangents: Some(tangents.clone()),
                    ..t.clone()
                },
                false
            )
            .1
            .is_empty()
        );
        tangents.set_point(HandleSide::Out, 0, 0, 1, (0.1, 5.0));
        t.tangents = Some(tangents);
        // For three.js: Hermite keys that follow the curve within the tolerance.
        let (keys, notes) = convert(&t, false);
        assert_eq!(keys.sampling, Sampling::CubicSpline);
        assert!(notes[0].contains("key 0"), "{notes:?}");
        assert!(
            notes[0].contains("CUBICSPLINE keys that follow it"),
            "{notes:?}"
        );
        assert!(
            keys.times.len() > t.len() && keys.times.len() < 91,
            "{}",
            keys.times.len()
        );
        let mut s = Sampler::new(&t);
        let (mut want, mut got) = ([0.0], [0.0]);
        let end = *t.times.last().unwrap() as f64;
        for i in 0..=2000 {
            let time = end * i as f64 / 2000.0;
            s.evaluate_f64(time, &mut want);
            Player::ThreeJs.play(&keys, false, time, &mut got);
            let d = (want[0] - got[0]).abs() / want[0].abs().max(1.0);
            assert!(d <= DEFAULT_RELATIVE, "at {time}: {want:?} {got:?}");
        }
        // Without a player to fit for: baked to linear keys on the curve.
        let (keys, notes) = convert_with(&t, false, None);
        assert_eq!(keys.sampling, Sampling::Linear);
        assert!(
            notes[0].contains("baked to LINEAR at 30 fps, 91 keys"),
            "{notes:?}"
        );
        for (k, &time) in keys.times.iter().enumerate() {
            s.evaluate_f64(time as f64, &mut want);
            assert_eq!(keys.values[k], want[0] as f32);
        }
        let _ = Tangents::default();
    }

    #[test]
    fn rotations_are_normalized() {
        let mut q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0],
            vec![0.0, 0.0, 0.0, 2.0],
        );
        q.interpolation = Interpolation::Linear;
        let (keys, notes) = convert(&q, true);
        assert_eq!(keys.values, [0.0, 0.0, 0.0, 1.0]);
        assert!(notes[0].contains("up to 1.000 off 1"));
    }

    #[test]
    fn cubic_output_interleaves_and_splits_back() {
        let keys = Keys {
            sampling: Sampling::CubicSpline,
            times: vec![0.0, 1.0],
            values: vec![1.0, 2.0, 3.0, 4.0],
            tangents: Some((vec![5.0, 6.0, 7.0, 8.0], vec![9.0, 10.0, 11.0, 12.0])),
            width: 2,
        };
        assert_eq!(
            *keys.output(),
            [
                5.0, 6.0, 1.0, 2.0, 9.0, 10.0, 7.0, 8.0, 3.0, 4.0, 11.0, 12.0
            ]
        );
        let (values, tangents) = Keys::split_cubic(&keys.output(), 2);
        assert_eq!(values, keys.values);
        assert_eq!(Some(tangents), keys.tangents);
    }
}
