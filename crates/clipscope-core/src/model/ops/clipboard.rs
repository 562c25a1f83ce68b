//! Copying and pasting keys: [`KeyClipboard`] holds keys taken from some tracks of a clip,
//! [`paste_keys`] puts them into the same or another clip (of the same or another document).
//!
//! Pasting moves the keys so the earliest copied key lands at the paste time, keeping their
//! spacing. Values are pasted as they were copied ([`PasteValues::Absolute`]) or offset so each
//! track's first pasted key continues the curve it lands on ([`PasteValues::Relative`]: the
//! difference for numbers, vectors and colours; the rotation from the copied to the existing
//! pose, multiplied on from the left, for quaternions). A pasted key replaces a key at the same
//! time; bezier handles come along when both tracks have them. Each track is pasted by one
//! merge of the two sorted key lists, so pasting is linear in the keys.
//!
//! Which track receives which copied track is [`KeyClipboard::targets`]'s choice (by name, or
//! into the one shown track when one track was copied), so the editor and tests agree.

use glam::DQuat;

use crate::model::interpolant::Sampler;
use crate::model::{Clip, HandleSide, TangentMode, Tangents, Track, TrackKind, Values};

/// Keys copied from one track: the track reduced to the copied keys (values, handles, modes).
#[derive(Debug, Clone, PartialEq)]
pub struct CopiedTrack {
    /// The track's index in the clip it was copied from.
    pub source: usize,
    /// The copied keys, at their original times, as a track of the source's name and kind.
    pub keys: Track,
}

/// Keys copied from a clip, ready to paste anywhere.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeyClipboard {
    /// One entry per track keys were copied from, in track order.
    pub tracks: Vec<CopiedTrack>,
}

/// How [`paste_keys`] treats the copied values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasteValues {
    /// The values as copied.
    Absolute,
    /// Offset so each track's first pasted key sits on the curve it lands on.
    Relative,
}

/// What [`paste_keys`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PasteReport {
    /// The pasted keys as `(track, key)` in the clip after pasting.
    pub pasted: Vec<(usize, usize)>,
    /// Copied tracks that had nowhere to go, with why.
    pub skipped: Vec<String>,
}

impl KeyClipboard {
    /// Copies keys of `clip`: `keys` lists `(track, key)` pairs (any order, repeats allowed;
    /// pairs out of range are ignored).
    pub fn copy(clip: &Clip, keys: impl IntoIterator<Item = (usize, usize)>) -> KeyClipboard {
        let mut by_track: std::collections::BTreeMap<usize, Vec<bool>> = Default::default();
        for (t, k) in keys {
            let Some(track) = clip.tracks.get(t) else {
                continue;
            };
            if k < track.len() {
                by_track
                    .entry(t)
                    .or_insert_with(|| vec![false; track.len()])[k] = true;
            }
        }
        let tracks = by_track
            .into_iter()
            .map(|(t, wanted)| {
                let mut keys = clip.tracks[t].clone();
                let gone: Vec<usize> = (0..wanted.len()).filter(|&k| !wanted[k]).collect();
                keys.delete_keys(&gone);
                CopiedTrack { source: t, keys }
            })
            .collect();
        KeyClipboard { tracks }
    }

    /// True when nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    /// How many keys were copied.
    pub fn key_count(&self) -> usize {
        self.tracks.iter().map(|t| t.keys.len()).sum()
    }

    /// The time of the earliest copied key (0 when nothing was copied).
    pub fn start(&self) -> f64 {
        self.tracks
            .iter()
            .filter_map(|t| t.keys.times.first())
            .map(|&t| t as f64)
            .reduce(f64::min)
            .unwrap_or(0.0)
    }

    /// Where each copied track goes in `clip`, given the tracks the user shows there (`shown`,
    /// in order): a shown track of the same name; else, when one track was copied, the one shown
    /// track of the same kind and value size; else any track of the same name; else nowhere.
    pub fn targets(&self, clip: &Clip, shown: &[usize]) -> Vec<Option<usize>> {
        let fits =
            |c: &CopiedTrack, t: usize| clip.tracks.get(t).is_some_and(|t| compatible(&c.keys, t));
        self.tracks
            .iter()
            .map(|c| {
                let by_name =
                    |t: &usize| clip.tracks.get(*t).is_some_and(|t| t.name == c.keys.name);
                if let Some(&t) = shown.iter().find(|t| by_name(t) && fits(c, **t)) {
                    return Some(t);
                }
                if self.tracks.len() == 1 {
                    let same: Vec<usize> = shown.iter().copied().filter(|&t| fits(c, t)).collect();
                    if let [one] = same[..] {
                        return Some(one);
                    }
                }
                (0..clip.tracks.len()).find(|t| by_name(t) && fits(c, *t))
            })
            .collect()
    }
}

/// True when keys of `a` can be pasted into `b`: same kind and value size.
fn compatible(a: &Track, b: &Track) -> bool {
    a.kind == b.kind
        && a.value_size() == b.value_size()
        && std::mem::discriminant(&a.values) == std::mem::discriminant(&b.values)
}

/// Pastes `clipboard` into `clip` so its earliest key lands at `time`; copied track `i` goes
/// into track `targets[i]` (see [`KeyClipboard::targets`]); `None`, a missing target or one of
/// another kind skips it (reported). Automatic handles are recomputed.
pub fn paste_keys(
    clip: &mut Clip,
    clipboard: &KeyClipboard,
    targets: &[Option<usize>],
    time: f64,
    mode: PasteValues,
) -> PasteReport {
    let dt = time - clipboard.start();
    let mut report = PasteReport::default();
    for (i, copied) in clipboard.tracks.iter().enumerate() {
        let target = targets.get(i).copied().flatten();
        let Some(t) = target.filter(|&t| t < clip.tracks.len()) else {
            report
                .skipped
                .push(format!("{}: no matching track", copied.keys.name));
            continue;
        };
        if !compatible(&copied.keys, &clip.tracks[t]) || copied.keys.is_empty() {
            report.skipped.push(format!(
                "{}: cannot go into {} (another kind of track)",
                copied.keys.name, clip.tracks[t].name
            ));
            continue;
        }
        let mut keys = copied.keys.clone();
        keys.shift(dt);
        if mode == PasteValues::Relative {
            offset_to_curve(&mut keys, &clip.tracks[t]);
        }
        for k in merge(&mut clip.tracks[t], &keys) {
            report.pasted.push((t, k));
        }
        clip.tracks[t].refresh_auto_handles();
    }
    report
}

/// Offsets the values (and handle values) of `keys` so its first key sits on `onto`'s curve.
fn offset_to_curve(keys: &mut Track, onto: &Track) {
    let vs = keys.value_size();
    let (Some(first), Values::Numbers(at)) = (
        keys.values.as_numbers().map(|v| v[..vs].to_vec()),
        Sampler::new(onto).evaluate(keys.times[0] as f64),
    ) else {
        return;
    };
    let before = keys.values.clone();
    let Some(values) = keys.values.as_numbers_mut() else {
        return;
    };
    if keys.kind == TrackKind::Quaternion && vs == 4 {
        let q = |v: &[f32]| DQuat::from_xyzw(v[0] as f64, v[1] as f64, v[2] as f64, v[3] as f64);
        let delta = q(&at) * q(&first).inverse();
        for v in values.chunks_exact_mut(4) {
            let r = delta * q(v);
            v.copy_from_slice(&[r.x as f32, r.y as f32, r.z as f32, r.w as f32]);
        }
    } else {
        for v in values.chunks_exact_mut(vs) {
            for c in 0..vs {
                v[c] = (v[c] as f64 + at[c] as f64 - first[c] as f64) as f32;
            }
        }
    }
    // Handles move with their key's component.
    let (Some(old), Some(new)) = (before.as_numbers(), keys.values.as_numbers()) else {
        return;
    };
    let moved: Vec<f64> = old
        .iter()
        .zip(new)
        .map(|(&a, &b)| b as f64 - a as f64)
        .collect();
    if let Some(tangents) = &mut keys.tangents {
        for (i, d) in moved.iter().enumerate() {
            let (k, c) = (i / vs, i % vs);
            for side in [HandleSide::In, HandleSide::Out] {
                if let Some((t, v)) = tangents.point(side, k, c, vs) {
                    tangents.set_point(side, k, c, vs, (t, v + d));
                }
            }
        }
    }
}

/// Merges the keys of `src` (sorted) into `dst`, a key of `src` replacing one of `dst` at the
/// same time; returns the indices of `src`'s keys in the merged track.
fn merge(dst: &mut Track, src: &Track) -> Vec<usize> {
    let vs = dst.value_size();
    let (n, m) = (dst.len(), src.len());
    let dst_handles = complete_tangents(dst);
    let src_handles = complete_tangents(src);
    let mut times = Vec::with_capacity(n + m);
    let mut values = dst.values.empty_like();
    let mut tangents = dst_handles.map(|_| Tangents::default());
    let mut pasted = Vec::with_capacity(m);
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let take_src = j < m && (i >= n || src.times[j] <= dst.times[i]);
        if take_src && i < n && src.times[j] == dst.times[i] {
            i += 1; // replaced
        }
        let (track, k, handles) = if take_src {
            j += 1;
            pasted.push(times.len());
            (src, j - 1, src_handles)
        } else {
            i += 1;
            (&*dst, i - 1, dst_handles)
        };
        times.push(track.times[k]);
        values.extend_from(&track.values, k * vs..(k + 1) * vs);
        if let Some(out) = &mut tangents {
            let chunk = vs * 2;
            let mode = match handles {
                Some(h) => {
                    out.in_tangents
                        .extend_from_slice(&h.in_tangents[k * chunk..(k + 1) * chunk]);
                    out.out_tangents
                        .extend_from_slice(&h.out_tangents[k * chunk..(k + 1) * chunk]);
                    h.mode(k)
                }
                None => {
                    // Keys without handles get flat ones, recomputed automatically.
                    let t = track.times[k];
                    let flat = |v: &[f32]| -> Vec<f32> {
                        v[k * vs..(k + 1) * vs]
                            .iter()
                            .flat_map(|&x| [t, x])
                            .collect()
                    };
                    let Some(v) = track.values.as_numbers() else {
                        continue;
                    };
                    out.in_tangents.extend(flat(v));
                    out.out_tangents.extend(flat(v));
                    TangentMode::AutoClamped
                }
            };
            let at = times.len() - 1;
            if mode != TangentMode::Free {
                out.set_mode(at, mode);
            }
        }
    }
    dst.times = times;
    dst.values = values;
    if tangents.is_some() {
        dst.tangents = tangents;
    }
    pasted
}

/// The track's handles when they are complete (two per component per key), else `None`.
fn complete_tangents(track: &Track) -> Option<&Tangents> {
    let need = track.len() * track.value_size() * 2;
    track
        .tangents
        .as_ref()
        .filter(|t| t.in_tangents.len() == need && t.out_tangents.len() == need)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Interpolation;

    fn walk() -> Clip {
        let arm = Track::numeric(
            "arm.position",
            TrackKind::Vector,
            vec![0.0, 0.5, 1.0],
            vec![0., 0., 0., 1., 2., 3., 0., 0., 0.],
        );
        let leg = Track::numeric("leg.x", TrackKind::Number, vec![0.0, 1.0], vec![5.0, 6.0]);
        Clip::new("walk", 1.0, vec![arm, leg])
    }

    fn run() -> Clip {
        let leg = Track::numeric("leg.x", TrackKind::Number, vec![0.0, 2.0], vec![0.0, 2.0]);
        let arm = Track::numeric(
            "arm.position",
            TrackKind::Vector,
            vec![0.0, 2.0],
            vec![9., 9., 9., 9., 9., 9.],
        );
        Clip::new("run", 2.0, vec![leg, arm])
    }

    #[test]
    fn arm_keys_of_the_walk_paste_into_the_run_by_name_at_the_playhead() {
        let walk = walk();
        let board = KeyClipboard::copy(&walk, [(0, 1), (0, 2), (0, 1), (7, 0)]);
        assert_eq!(board.key_count(), 2);
        assert_eq!(board.start(), 0.5);
        let mut run = run();
        let targets = board.targets(&run, &[0]);
        assert_eq!(targets, vec![Some(1)]);
        let report = paste_keys(&mut run, &board, &targets, 1.0, PasteValues::Absolute);
        assert_eq!(report.pasted, vec![(1, 1), (1, 2)]);
        assert!(report.skipped.is_empty());
        let arm = &run.tracks[1];
        assert_eq!(arm.times, vec![0.0, 1.0, 1.5, 2.0]);
        assert_eq!(
            arm.values.as_numbers().unwrap(),
            &[9., 9., 9., 1., 2., 3., 0., 0., 0., 9., 9., 9.]
        );
    }

    #[test]
    fn a_pasted_key_replaces_one_at_the_same_time_and_relative_values_continue_the_curve() {
        let walk = walk();
        let board = KeyClipboard::copy(&walk, [(1, 0), (1, 1)]);
        let mut run = run();
        // One copied track and one shown track of its kind: it goes there, whatever its name.
        let targets = board.targets(&run, &[0]);
        assert_eq!(targets, vec![Some(0)]);
        paste_keys(&mut run, &board, &targets, 1.0, PasteValues::Relative);
        // The leg curve is 1.0 at t = 1; the copied keys 5, 6 become 1, 2.
        assert_eq!(run.tracks[0].times, vec![0.0, 1.0, 2.0]);
        assert_eq!(run.tracks[0].values.as_numbers().unwrap(), &[0.0, 1.0, 2.0]);
        let mut abs = walk.clone();
        let report = paste_keys(&mut abs, &board, &[Some(1)], 0.0, PasteValues::Absolute);
        assert_eq!(report.pasted, vec![(1, 0), (1, 1)]);
        assert_eq!(abs, walk, "pasting keys onto themselves changes nothing");
    }

    #[test]
    fn relative_quaternions_rotate_onto_the_existing_pose() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let src = Track::numeric(
            "b.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0., 0., 0., 1., 0., 0., h, h],
        );
        let dst = Track::numeric(
            "b.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 4.0],
            vec![h, 0., 0., h, h, 0., 0., h],
        );
        let board = KeyClipboard::copy(&Clip::new("a", 1.0, vec![src]), [(0, 0), (0, 1)]);
        let mut clip = Clip::new("b", 4.0, vec![dst]);
        paste_keys(&mut clip, &board, &[Some(0)], 2.0, PasteValues::Relative);
        let v = clip.tracks[0].values.as_numbers().unwrap();
        // Key at 2 s: the existing pose (90° about x); key at 3 s: that, then 90° about z.
        assert_eq!(&v[4..8], &[h, 0., 0., h]);
        let want = DQuat::from_xyzw(h as f64, 0., 0., h as f64)
            * DQuat::from_xyzw(0., 0., h as f64, h as f64);
        for (a, b) in v[8..12].iter().zip([want.x, want.y, want.z, want.w]) {
            assert!((*a as f64 - b).abs() < 1e-6, "{:?} vs {want:?}", &v[8..12]);
        }
    }

    #[test]
    fn bezier_handles_travel_and_mismatches_are_reported() {
        let mut src = Track::numeric(".x", TrackKind::Number, vec![1.0], vec![3.0]);
        src.interpolation = Interpolation::Bezier;
        src.tangents = Some(Tangents::new(vec![0.8, 2.0], vec![1.2, 4.0]));
        let mut dst = Track::numeric(".x", TrackKind::Number, vec![0.0, 4.0], vec![0.0, 0.0]);
        dst.interpolation = Interpolation::Bezier;
        dst.tangents = Some(Tangents::new(
            vec![-1.0, 0.0, 3.0, 0.0],
            vec![1.0, 0.0, 5.0, 0.0],
        ));
        let board = KeyClipboard::copy(&Clip::new("a", 1.0, vec![src]), [(0, 0)]);
        let mut clip = Clip::new("b", 4.0, vec![dst]);
        paste_keys(&mut clip, &board, &[Some(0)], 2.0, PasteValues::Absolute);
        let tg = clip.tracks[0].tangents.as_ref().unwrap();
        assert_eq!(tg.in_tangents, vec![-1.0, 0.0, 1.8, 2.0, 3.0, 0.0]);
        assert_eq!(tg.out_tangents, vec![1.0, 0.0, 2.2, 4.0, 5.0, 0.0]);
        let vec_track = Track::numeric(".p", TrackKind::Vector, vec![0.0], vec![0.0; 3]);
        let mut other = Clip::new("c", 1.0, vec![vec_track]);
        let report = paste_keys(&mut other, &board, &[Some(0)], 0.0, PasteValues::Absolute);
        assert!(report.pasted.is_empty());
        assert_eq!(report.skipped.len(), 1);
        let report = paste_keys(&mut other, &board, &[None], 0.0, PasteValues::Absolute);
        assert_eq!(report.skipped, vec![".x: no matching track".to_string()]);
    }
}
