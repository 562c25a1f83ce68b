//! What a track reads back as once a glTF file written with a [`Packing`] stores it
//! ([`stored_track`]): the reducer fits with it, so that what it measures is what the file
//! plays and the packing's rounding is part of the error it bounds, not a surprise after.

use std::collections::HashMap;
use std::sync::Arc;

use gltf_json::accessor::ComponentType;

use super::encode::{self, Packed, Role};
use super::reach::{rotation_bits, skeleton_reaches};
use crate::formats::gltf::accessor::components_of;
use crate::formats::gltf::target::{NodeKey, Property, target};
use crate::formats::keys::Keys;
use crate::formats::sampler_keys::convert;
use crate::formats::{Format, Packing};
use crate::model::ops::reduce::Stored;
use crate::model::{Interpolation, Skeleton, Tangents, Track, Values};

/// How a file of `format` written with `packing` stores a track, for the reducer to fit with
/// ([`ReduceOptions::stored`](crate::model::ops::reduce::ReduceOptions::stored)): `None` when
/// the writer stores the tracks as they are (no packing, or a format other than glTF). The
/// `skeleton` the file's nodes are written from gives each rotation its bits when
/// [`Packing::rotation_error`] asks for them by reach.
pub fn packed_storage(
    format: Format,
    packing: &Packing,
    skeleton: Option<&Skeleton>,
) -> Option<Stored> {
    let packing = *packing;
    let reaches = Arc::new(match (packing.rotation_error > 0.0, skeleton) {
        (true, Some(s)) => skeleton_reaches(s),
        _ => HashMap::new(),
    });
    (packing.any() && matches!(format, Format::Gltf | Format::Glb)).then(|| {
        Stored::new(move |t| {
            let bits = node_bits(t, &packing, &reaches);
            stored_track_with(t, &packing, bits)
        })
        .with_key_by_key(move |t| rounds_key_by_key(t, &packing))
    })
}

/// Whether [`stored_track`] rounds `track` key by key: a straight or stepped rotation whose
/// quaternions go through meshopt's quaternion filter (each on its own) and whose times read
/// back as they are.
fn rounds_key_by_key(track: &Track, packing: &Packing) -> bool {
    packing.quantize
        && packing.meshopt
        && track.interpolation != Interpolation::Bezier
        && matches!(target(track).map(|t| t.property), Ok(Property::Rotation))
        && encode::times_read_back_exactly(&track.times)
}

/// The quaternion bits of `track`'s node from `reaches` (0: the packing's).
fn node_bits(track: &Track, packing: &Packing, reaches: &HashMap<String, f64>) -> u8 {
    if packing.rotation_error <= 0.0 {
        return 0;
    }
    match target(track).map(|t| t.node) {
        Ok(NodeKey::Named(name)) => reaches
            .get(&name)
            .map_or(0, |&r| rotation_bits(r, packing.rotation_error)),
        _ => 0,
    }
}

/// `track` as a glTF file written with `packing` stores it and a reader reads it back: key
/// times through the exponential filter (with meshopt), quantized rotations, translations and
/// scales through the exponential filter, each exactly as the writer packs the track's own
/// accessors. A curve is stored as the writer stores it: CUBICSPLINE keys (in-tangent, value,
/// out-tangent, rotations' values normalized) packed as one accessor, read back as the handles
/// a reader makes of them. Morph weights (the writer joins a node's weights into one accessor)
/// and anything without a glTF channel are left as they are; the file as written is measured
/// anyway.
pub fn stored_track(track: &mut Track, packing: &Packing) {
    stored_track_with(track, packing, 0)
}

/// [`stored_track`] with `bits` per quaternion component (0: the packing's).
fn stored_track_with(track: &mut Track, packing: &Packing, bits: u8) {
    if !packing.any() || track.times.is_empty() {
        return;
    }
    let cubic = track.interpolation == Interpolation::Bezier;
    let role = match target(track).map(|t| t.property) {
        Ok(Property::Rotation) => Role::Rotation { unit: !cubic, bits },
        Ok(Property::Translation) => Role::Vector { scale: false },
        Ok(Property::Scale) => Role::Vector { scale: true },
        _ => return,
    };
    if cubic {
        stored_curve(track, packing, role);
        return;
    }
    let Values::Numbers(values) = &mut track.values else {
        return;
    };
    let n = values.len() / track.times.len();
    if n == 0 || values.len() != n * track.times.len() {
        return;
    }
    // Times on a grid the filter keeps exact read back as they are: not packed to find out.
    if packing.meshopt && !encode::times_read_back_exactly(&track.times) {
        track.times = read_back(&encode::pack(&track.times, 1, Role::Input, packing));
    }
    *values = read_back(&encode::pack(values, n, role, packing));
}

/// [`stored_track_with`] for a bezier track: its CUBICSPLINE keys as the writer converts them
/// (a track the writer stores otherwise, as LINEAR keys, is left as it is), their output packed
/// in `role` as one accessor, read back as a reader makes handles of it.
fn stored_curve(track: &mut Track, packing: &Packing, role: Role) {
    let rotation = matches!(role, Role::Rotation { .. });
    let (keys, _) = convert(track, rotation);
    let Some((ins, _)) = keys.tangents.as_ref() else {
        return;
    };
    let w = keys.width;
    if w == 0 || keys.values.len() != keys.times.len() * w || ins.len() != keys.values.len() {
        return;
    }
    let times = match packing.meshopt {
        true => read_back(&encode::pack(&keys.times, 1, Role::Input, packing)),
        false => keys.times.clone(),
    };
    let output = read_back(&encode::pack(&keys.output(), w, role, packing));
    let (v, (a, b)) = Keys::split_cubic(&output, w);
    track.tangents = Some(Tangents::from_hermite(&times, &v, &a, &b, w));
    track.times = times;
    track.values = Values::Numbers(v);
}

/// The numbers a reader decodes from a packed view.
fn read_back(packed: &Packed) -> Vec<f32> {
    let (ct, normalized) = match packed.integers {
        Some((encode::SHORT, normalized)) => (ComponentType::I16, normalized),
        Some((encode::UNSIGNED_SHORT, normalized)) => (ComponentType::U16, normalized),
        Some((_, normalized)) => (ComponentType::I8, normalized),
        None => (ComponentType::F32, false),
    };
    components_of(&packed.bytes, ct, normalized)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    #[test]
    fn new_rotation_keys_round_alone_as_the_whole_track_rounds_them() {
        let packing = Packing {
            quantize: true,
            meshopt: true,
            rotation_bits: 12,
            rotation_error: 0.0,
            ..Packing::default()
        };
        let stored = packed_storage(Format::Glb, &packing, None).unwrap();
        let key = |k: usize| {
            let a = k as f32 * 0.07;
            [0.1 * a.cos(), a.sin(), 0.2, a.cos()]
        };
        let track = |name: &str, keys: &[usize], n: usize| {
            let times = keys.iter().map(|&k| k as f32 / 64.0).collect();
            let values = keys.iter().flat_map(|&k| key(k)[..n].to_vec()).collect();
            let kind = if n == 4 {
                TrackKind::Quaternion
            } else {
                TrackKind::Vector
            };
            Track::numeric(name, kind, times, values)
        };
        for (name, n) in [("Hips.quaternion", 4), ("Hips.position", 3)] {
            // A stored track, then keys 3 and 6 added as they come (not yet rounded).
            let mut old = track(name, &[0, 2, 4, 5, 8], n);
            stored.apply(&mut old);
            let mut added = track(name, &[0, 2, 3, 4, 5, 6, 8], n);
            if let (Values::Numbers(v), Values::Numbers(o)) = (&mut added.values, &old.values) {
                for (slot, from) in [(0, 0), (1, 1), (3, 2), (4, 3), (6, 4)] {
                    v[slot * n..(slot + 1) * n].copy_from_slice(&o[from * n..(from + 1) * n]);
                }
            }
            let mut whole = added.clone();
            stored.apply(&mut whole);
            let mut alone = added.clone();
            stored.apply_to_new(&mut alone, &[2, 5]);
            assert_eq!(alone, whole, "{name}");
            assert_eq!(rounds_key_by_key(&added, &packing), n == 4, "{name}");
        }
        // Times the filter would move, or no meshopt: the whole track.
        let mut off_grid = track("Hips.quaternion", &[0, 2, 4], 4);
        off_grid.times[1] = 1.0 / 30.0;
        assert!(!rounds_key_by_key(&off_grid, &packing));
        let plain = Packing {
            meshopt: false,
            ..packing
        };
        assert!(!rounds_key_by_key(
            &track("Hips.quaternion", &[0, 2], 4),
            &plain
        ));
    }

    #[test]
    fn rotations_and_times_read_back_as_packed() {
        let times: Vec<f32> = (0..5).map(|k| k as f32 / 32.0).collect();
        let q: Vec<f32> = (0..5)
            .flat_map(|k| {
                let a = k as f32 * 0.1;
                [a.sin(), 0.0, 0.0, a.cos()]
            })
            .collect();
        let mut track = Track::numeric("Hips.quaternion", TrackKind::Quaternion, times.clone(), q);
        let packing = Packing {
            quantize: true,
            meshopt: true,
            rotation_bits: 10,
            rotation_error: 0.0,
            ..Packing::default()
        };
        let before = track.clone();
        stored_track(&mut track, &packing);
        assert_eq!(track.times, times, "grid times are exact");
        let (a, b) = (
            before.values.as_numbers().unwrap(),
            track.values.as_numbers().unwrap(),
        );
        assert_ne!(a, b, "rounded to 10 bits");
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 2e-3));
        // Each value is a normalized short, as the reader decodes it.
        assert!(b.iter().all(|&v| {
            let s = (v as f64 * 32767.0).round();
            (s / 32767.0) as f32 == v
        }));
    }
}
