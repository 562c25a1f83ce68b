//! Adapting tracks for a target format that cannot hold them as they are, instead of refusing
//! the conversion: baking a curve to linear keys at the source frame rate (with the model's
//! [`bake_linear`]), cropping keys before
//! time 0 (with an exact sample at 0), padding 2-component vectors to 3, and summarizing the
//! tracks a format has no place for in a few compact lines for `convert`'s summary.
//!
//! Writers call these while preparing their output and report what they did through
//! [`conversion_losses`](super::conversion_losses), so nothing is dropped silently.

use crate::model::interpolant::Sampler;
use crate::model::ops::bake::{DEFAULT_BAKE_FPS, bake_linear};
use crate::model::{Clip, Interpolation, Track, TrackKind};

/// The frame rate of `clip`'s source: its `fps` field (three.js, legacy, PlayCanvas) or the
/// Lottie composition's `fr`, when positive; else 30.
pub(crate) fn source_fps(clip: &Clip) -> f64 {
    stated_fps(clip).unwrap_or(DEFAULT_BAKE_FPS)
}

/// The frame rate `clip`'s file states (see [`source_fps`]), if it states a positive one.
pub(crate) fn stated_fps(clip: &Clip) -> Option<f64> {
    let fps = clip
        .extras
        .get("fps")
        .and_then(|raw| serde_json::from_str::<f64>(raw.get()).ok())
        .or_else(|| clip.layers.as_ref().map(|layers| layers.fps));
    fps.filter(|f| *f > 0.0 && f.is_finite())
}

/// Whether `track` plays back exactly from linear keys (linear interpolation, no handles).
pub(crate) fn is_linear(track: &Track) -> bool {
    Track::resolve_interpolation(track.kind, Some(track.interpolation)) == Interpolation::Linear
        && track.tangents.is_none()
}

/// What a format that writes neither empty tracks nor unmodelled track fields loses of `track`:
/// `clip 'c' track 't': it has no keys`, or `…: its fields a, b`; `None` when nothing.
pub(crate) fn keys_or_fields_lost(clip: &Clip, track: &Track) -> Option<String> {
    if track.is_empty() {
        Some(format!(
            "clip '{}' track '{}': it has no keys",
            clip.name, track.name
        ))
    } else if !track.extras.is_empty() {
        let names: Vec<&str> = track.extras.0.iter().map(|(k, _)| k.as_str()).collect();
        Some(format!(
            "clip '{}' track '{}': its fields {}",
            clip.name,
            track.name,
            names.join(", ")
        ))
    } else {
        None
    }
}

/// `track` without its keys before time 0, when it has any: an exact sample at 0 is inserted
/// first (a curve that is not linear or stepped is baked at `fps` first, so cutting a segment
/// keeps its shape). `None` when no key is before 0.
pub(crate) fn crop_negative(track: &Track, fps: f64) -> Option<Track> {
    if !track.times.iter().any(|&t| t < 0.0) {
        return None;
    }
    let stepped = Track::resolve_interpolation(track.kind, Some(track.interpolation))
        == Interpolation::Discrete;
    let source = if is_linear(track) || stepped || track.values.as_numbers().is_none() {
        std::borrow::Cow::Borrowed(track)
    } else {
        std::borrow::Cow::Owned(bake_linear(track, fps))
    };
    let at_zero = Sampler::new(&source).evaluate(0.0);
    let vs = source.value_size();
    let mut out = source.into_owned();
    let keep: Vec<usize> = (0..out.times.len())
        .filter(|&k| out.times[k] >= 0.0)
        .collect();
    let has_zero = keep.first().is_some_and(|&k| out.times[k] == 0.0);
    let mut times = Vec::with_capacity(keep.len() + 1);
    let mut values = out.values.empty_like();
    if !has_zero && at_zero.len() == vs {
        times.push(0.0);
        values.extend_from(&at_zero, 0..vs);
    }
    for &k in &keep {
        times.push(out.times[k]);
        values.extend_from(&out.values, k * vs..(k + 1) * vs);
    }
    out.times = times;
    out.values = values;
    out.tangents = None;
    Some(out)
}

/// `track` with repeated key times (a jump, in three.js) made strictly increasing, when it has
/// any and its times are sorted: of a run of equal times only the first and last keys are
/// kept, and the first moves back by one `f32` step (or is dropped when that would reach the
/// key before), so the value at the time itself is still the later key's. `None` otherwise.
pub(crate) fn separate_repeated(track: &Track) -> Option<Track> {
    let times = &track.times;
    if !times.windows(2).any(|w| w[0] == w[1]) || !times.windows(2).all(|w| w[0] <= w[1]) {
        return None;
    }
    let n = times.len();
    let mut keep: Vec<(usize, f32)> = Vec::with_capacity(n);
    for k in 0..n {
        let t = times[k];
        let first_of_run = k == 0 || times[k - 1] != t;
        let last_of_run = k + 1 == n || times[k + 1] != t;
        if last_of_run {
            keep.push((k, t));
        } else if first_of_run {
            // The f32 just below `t` (none below 0: glTF times start there).
            let before = match t {
                t if t > 0.0 => f32::from_bits(t.to_bits() - 1),
                t if t < 0.0 => f32::from_bits(t.to_bits() + 1),
                _ => continue,
            };
            if keep.last().is_none_or(|&(_, p)| p < before) {
                keep.push((k, before));
            }
        }
    }
    let vs = track.value_size();
    let mut out = track.clone();
    out.times = keep.iter().map(|&(_, t)| t).collect();
    let mut values = track.values.empty_like();
    for &(k, _) in &keep {
        values.extend_from(&track.values, k * vs..(k + 1) * vs);
    }
    out.values = values;
    if let Some(t) = &track.tangents {
        let w = vs * 2;
        let pick = |side: &[f32]| -> Vec<f32> {
            keep.iter()
                .flat_map(|&(k, _)| side.get(k * w..(k + 1) * w).unwrap_or_default().to_vec())
                .collect()
        };
        out.tangents = Some(crate::model::Tangents::new(
            pick(&t.in_tangents),
            pick(&t.out_tangents),
        ));
    }
    Some(out)
}

/// `track` (a 2-component vector) padded to 3 components with `z` (0 for a position, 1 for a
/// scale).
pub(crate) fn pad_to_3(track: &Track, z: f32) -> Track {
    let values = track.values.as_numbers().unwrap_or_default();
    let padded: Vec<f32> = values
        .chunks_exact(2)
        .flat_map(|v| [v[0], v[1], z])
        .collect();
    let mut out = Track::numeric(
        track.name.clone(),
        TrackKind::Vector,
        track.times.clone(),
        padded,
    );
    out.interpolation = track.interpolation;
    out.extras = track.extras.clone();
    if let Some(t) = &track.tangents {
        // Per key, per component: in and out control points; the new component is flat.
        let pad = |points: &[f32]| -> Vec<f32> {
            points
                .chunks_exact(4)
                .enumerate()
                .flat_map(|(k, p)| {
                    let time = track.times.get(k).copied().unwrap_or(0.0);
                    [p[0], p[1], p[2], p[3], time, z]
                })
                .collect()
        };
        out.tangents = Some(crate::model::Tangents::new(
            pad(&t.in_tangents),
            pad(&t.out_tangents),
        ));
    }
    out
}

/// One line per reason for the tracks in `dropped` (`(track name, why)`), counting them and
/// naming the first few distinct names: `"12 track(s) left out: why (A.anchor, B.opacity, …)"`.
pub(crate) fn summarize(dropped: &[(String, String)]) -> Vec<String> {
    let mut reasons: Vec<(&str, Vec<&str>, usize)> = Vec::new();
    for (name, why) in dropped {
        let entry = match reasons.iter_mut().position(|r| r.0 == why) {
            Some(i) => &mut reasons[i],
            None => {
                reasons.push((why, Vec::new(), 0));
                reasons.last_mut().expect("just pushed")
            }
        };
        entry.2 += 1;
        if !entry.1.contains(&name.as_str()) {
            entry.1.push(name);
        }
    }
    reasons
        .into_iter()
        .map(|(why, names, count)| {
            let shown: Vec<&str> = names.iter().take(4).copied().collect();
            let more = if names.len() > 4 { ", …" } else { "" };
            format!(
                "{count} track(s) left out: {why} ({}{more})",
                shown.join(", ")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crop_inserts_an_exact_sample_at_zero() {
        let t = Track::numeric(".x", TrackKind::Number, vec![-1.0, 1.0], vec![0.0, 2.0]);
        let c = crop_negative(&t, 30.0).unwrap();
        assert_eq!(c.times, [0.0, 1.0]);
        assert_eq!(c.values.as_numbers().unwrap(), [1.0, 2.0]);
        assert!(crop_negative(&c, 30.0).is_none());
    }

    #[test]
    fn pad_and_summarize() {
        let t = Track::numeric("a.scale", TrackKind::Vector, vec![0.0], vec![2.0, 3.0]);
        let p = pad_to_3(&t, 1.0);
        assert_eq!(p.values.as_numbers().unwrap(), [2.0, 3.0, 1.0]);
        let lines = summarize(&[
            ("a.x".into(), "why".into()),
            ("b.x".into(), "why".into()),
            ("c".into(), "other".into()),
        ]);
        assert_eq!(
            lines,
            [
                "2 track(s) left out: why (a.x, b.x)",
                "1 track(s) left out: other (c)"
            ]
        );
    }
}
