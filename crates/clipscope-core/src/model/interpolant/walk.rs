//! Sampling a track at many sorted times in one walk along its keys: the interval search the
//! player's seek does per time ([`Sampler`](super::Sampler)), done once for all of them. Each
//! interpolation supplies what it plays inside a key interval; the walk copies the first key
//! before it and the last key from it on, as the player does.

/// `value_size` values per time at each of `times` (sorted), f32: the first key's values
/// before it, the last key's from it on, and `inside(i1, t0, t1, t, slot)` for a time in the
/// interval `keys[i1 − 1] = t0 <= t < t1 = keys[i1]`, as the player's seek finds it. `None`
/// (the caller seeks) when the key times do not strictly increase, the times are not sorted
/// or are NaN, or keys lack values.
pub(crate) fn walk_sorted(
    keys: &[f32],
    values: &[f32],
    times: &[f64],
    value_size: usize,
    mut inside: impl FnMut(usize, f64, f64, f64, &mut [f32]),
) -> Option<Vec<f32>> {
    let (n, vs) = (keys.len(), value_size);
    if n == 0
        || vs == 0
        || values.len() < n * vs
        || keys.windows(2).any(|w| w[0] >= w[1] || w[0].is_nan())
        || times.windows(2).any(|w| w[0] > w[1])
        || times.iter().any(|t| t.is_nan())
    {
        return None;
    }
    let (first, last) = (keys[0] as f64, keys[n - 1] as f64);
    let mut i1 = 1;
    let mut at = |t: f64, slot: &mut [f32]| {
        if t < first || t >= last {
            let k = if t < first { 0 } else { n - 1 };
            slot.copy_from_slice(&values[k * vs..(k + 1) * vs]);
            return;
        }
        while keys[i1] as f64 <= t {
            i1 += 1;
        }
        inside(i1, keys[i1 - 1] as f64, keys[i1] as f64, t, slot);
    };
    if vs > SMALL {
        let mut out = vec![0.0f32; times.len() * vs];
        for (slot, &t) in out.chunks_exact_mut(vs).zip(times) {
            at(t, slot);
        }
        return Some(out);
    }
    // Values a few at a time through a slot of their own, so the output is written once
    // rather than first filled with zeros (a long take's tracks are megabytes of it).
    let mut out = Vec::with_capacity(times.len() * vs);
    let mut slot = [0.0f32; SMALL];
    let slot = &mut slot[..vs];
    for &t in times {
        at(t, slot);
        out.extend_from_slice(slot);
    }
    Some(out)
}

/// The most values per time written through a slot of their own ([`walk_sorted`]); wider
/// values (many morph targets) are written in place.
const SMALL: usize = 4;
