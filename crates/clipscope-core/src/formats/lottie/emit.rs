//! Keyframe text that both the write-back and a new composition emit: which model keys become
//! Lottie keyframes (holds collapsed), easing handles recovered from Bezier tangents, number
//! arrays, and smooth tracks resampled at every frame (Lottie cannot hold them).

use crate::formats::WriteOptions;
use crate::formats::json::number::write_f32;
use crate::model::interpolant::Sampler;
use crate::model::{HandleSide, Interpolation, Track};

/// `[a,b,…]`.
pub(crate) fn numbers(out: &mut Vec<u8>, values: &[f32], opts: &WriteOptions) {
    out.push(b'[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_f32(out, *v, opts.precision);
    }
    out.push(b']');
}

/// The values of key `k`.
pub(crate) fn key_values(track: &Track, k: usize) -> &[f32] {
    let vs = track.value_size();
    track
        .values
        .as_numbers()
        .map_or(&[][..], |v| &v[k * vs..(k + 1) * vs])
}

/// The most frames one track is sampled at (over nine hours at 30 fps): a longer span is sampled
/// at every n-th frame instead, rather than exhausting memory on a clip hours or years long.
const MAX_FRAMES: f64 = 1e6;

/// The times of every whole frame (at `fr` frames per second) from the first key of `times` up
/// to (not including) its last, merged with the key times themselves, sorted and without
/// repeats: where a track Lottie cannot hold is sampled. Spans longer than [`MAX_FRAMES`]
/// frames are sampled at every n-th frame.
pub(crate) fn frame_times(times: &[f32], fr: f64) -> Vec<f32> {
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return Vec::new();
    };
    let (first, last) = (first as f64, last as f64);
    let mut out: Vec<f32> = Vec::new();
    if first.is_finite() && last.is_finite() && fr.is_finite() && fr > 0.0 && last > first {
        let start = (first * fr).ceil();
        let span = last * fr - start;
        let step = (span / MAX_FRAMES).ceil().max(1.0);
        let count = (span / step).ceil().clamp(0.0, MAX_FRAMES + 1.0) as usize;
        out.extend(
            (0..count)
                .map(|i| (start + i as f64 * step) / fr)
                .take_while(|&t| t < last)
                .map(|t| t as f32),
        );
    }
    out.extend_from_slice(times);
    out.sort_by(f32::total_cmp);
    out.dedup();
    out
}

/// A smooth track sampled at every frame (and at its keys) into a linear one.
pub(crate) fn resampled(track: &Track, fr: f64) -> Track {
    if track.times.is_empty() {
        return track.clone();
    }
    let times = frame_times(&track.times, fr);
    let mut sampler = Sampler::new(track);
    let mut values = Vec::new();
    for &t in &times {
        if let crate::model::Values::Numbers(v) = sampler.evaluate(t as f64) {
            values.extend(v);
        }
    }
    let mut out = Track::numeric(track.name.clone(), track.kind, times, values);
    out.interpolation = Interpolation::Linear;
    out
}

/// One Lottie keyframe to write: the model key it comes from and whether it holds.
pub(crate) struct OutKey {
    /// Index of the model key.
    pub key: usize,
    /// Hold until the next key.
    pub hold: bool,
}

/// The keys of `track` as Lottie keyframes, holds collapsed.
pub(crate) fn lottie_keys(track: &Track) -> Vec<OutKey> {
    let n = track.len();
    let mut keys = Vec::with_capacity(n);
    let mut j = 0;
    while j < n {
        if track.interpolation == Interpolation::Discrete {
            keys.push(OutKey {
                key: j,
                hold: j + 1 < n,
            });
            j += 1;
            continue;
        }
        let hold = j + 2 < n
            && track.times[j] < track.times[j + 1]
            && track.times[j + 1] == track.times[j + 2]
            && key_values(track, j) == key_values(track, j + 1)
            && is_flat(track, j);
        keys.push(OutKey { key: j, hold });
        j += if hold { 2 } else { 1 };
    }
    keys
}

/// Whether the segment from key `j` stays at key `j`'s value (its handles, if any, are level).
fn is_flat(track: &Track, j: usize) -> bool {
    if track.interpolation != Interpolation::Bezier {
        return true;
    }
    let Some(tangents) = &track.tangents else {
        return true;
    };
    let vs = track.value_size();
    let v = key_values(track, j);
    (0..vs).all(|c| {
        let level = |p: Option<(f64, f64)>| p.is_none_or(|(_, y)| y as f32 == v[c]);
        level(tangents.point(HandleSide::Out, j, c, vs))
            && level(tangents.point(HandleSide::In, j + 1, c, vs))
    })
}

/// Lottie `o` and `i` handles (one `(x, y)` per component) for the segment from model key `a`
/// to `b`, recovered from the track's Bezier tangents (linear without them).
pub(crate) fn handles(track: &Track, a: usize, b: usize, vs: usize) -> (Vec<Point>, Vec<Point>) {
    let (t0, t1) = (track.times[a] as f64, track.times[b] as f64);
    let dt = t1 - t0;
    let (va, vb) = (key_values(track, a), key_values(track, b));
    let tangents = match track.interpolation {
        Interpolation::Bezier if dt > 0.0 => track.tangents.as_ref(),
        _ => None,
    };
    let mut o = Vec::with_capacity(vs);
    let mut i = Vec::with_capacity(vs);
    for c in 0..vs {
        let out_point = tangents.and_then(|t| t.point(HandleSide::Out, a, c, vs));
        let in_point = tangents.and_then(|t| t.point(HandleSide::In, b, c, vs));
        match (out_point, in_point) {
            (Some((c0t, c0v)), Some((c1t, c1v))) => {
                let (v0, v1) = (va[c] as f64, vb[c] as f64);
                let dv = v1 - v0;
                let ox = ((c0t - t0) / dt).clamp(0.0, 1.0);
                let ix = ((c1t - t0) / dt).clamp(0.0, 1.0);
                let oy = if dv != 0.0 { (c0v - v0) / dv } else { ox };
                let iy = if dv != 0.0 { (c1v - v0) / dv } else { ix };
                o.push((ox, oy));
                i.push((ix, iy));
            }
            _ => {
                o.push((0.0, 0.0));
                i.push((1.0, 1.0));
            }
        }
    }
    (o, i)
}

/// One handle `(x, y)` of one component.
pub(crate) type Point = (f64, f64);

/// `{"x":[…],"y":[…]}`, rounded to 6 decimals (or the requested precision, if coarser): the
/// handles come back from `f32` tangents with noise in the 8th digit (0.33300003).
pub(crate) fn handle_text(out: &mut Vec<u8>, h: &[Point], opts: &WriteOptions) {
    let opts = &WriteOptions {
        precision: Some(opts.precision.map_or(6, |p| p.min(6))),
        ..*opts
    };
    let xs: Vec<f32> = h.iter().map(|p| p.0 as f32).collect();
    let ys: Vec<f32> = h.iter().map(|p| p.1 as f32).collect();
    out.extend_from_slice(b"{\"x\":");
    numbers(out, &xs, opts);
    out.extend_from_slice(b",\"y\":");
    numbers(out, &ys, opts);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_are_every_frame_between_the_keys_and_the_keys() {
        let t = frame_times(&[0.05, 0.2], 30.0);
        let expected: Vec<f32> = [0.05, 2.0 / 30.0, 3.0 / 30.0, 4.0 / 30.0, 5.0 / 30.0, 0.2]
            .iter()
            .map(|&v| v as f32)
            .collect();
        assert_eq!(t, expected);
    }

    #[test]
    fn frame_times_of_a_span_years_long_stay_bounded() {
        // Found by fuzzing: a clip a billion seconds long took 24 GB to convert to Lottie.
        let t = frame_times(&[0.0, 1e9], 30.0);
        assert!(t.len() <= MAX_FRAMES as usize + 2, "{}", t.len());
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert_eq!((t[0], *t.last().unwrap_or(&0.0)), (0.0, 1e9));
        // Beyond f64's whole numbers a frame counter would never advance.
        let t = frame_times(&[1e20, 3e20], 30.0);
        assert!(t.len() <= MAX_FRAMES as usize + 2);
        assert!(frame_times(&[0.0, f32::MAX], 1e30).len() <= MAX_FRAMES as usize + 2);
    }
}
