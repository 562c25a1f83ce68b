//! `makeClipAdditive`: turn a clip into an additive one by removing a reference pose.
//!
//! For every numeric track of the reference clip, the reference value is the track's value at
//! `reference_frame / fps` seconds: the first key's value before (or at) the first key, the last
//! key's value after (or at) the last key, and otherwise the f32 result of sampling the track.
//! The matching target track (the first one with the same name AND kind) then has the reference
//! subtracted from every key: component-wise for numbers, vectors and colors, and by
//! multiplying the conjugate of the normalized reference onto the key from the left for
//! quaternions (`q_ref⁻¹ ⊗ q_key`, not renormalized: three.js calls
//! `multiplyQuaternionsFlat(values, o, ref, 0, values, o)`, i.e. `dst = ref ⊗ values`). Every result is stored as f32, as in three.js.
//!
//! three.js also honours the GLTF cubic-spline interpolant factory (values stored as
//! in-tangent/value/out-tangent triples). clipscope tracks never carry that custom factory, so
//! the offsets are always 0 here.

use std::collections::HashMap;

use crate::model::interpolant::{Sampler, multiply_quaternions_flat};
use crate::model::{BlendMode, Clip, Track, TrackKind, Values};

/// Makes `target` additive relative to its pose at `reference_frame` (three.js
/// `AnimationUtils.makeClipAdditive`). `reference_clip` supplies the reference pose; `None`
/// means the target itself (three.js's default). An `fps` of 0 or less means 30. Bool and
/// string tracks, reference tracks with no keys and tracks with no match are skipped. Sets the
/// blend mode to [`BlendMode::Additive`].
pub fn make_clip_additive(
    target: &mut Clip,
    reference_frame: f64,
    reference_clip: Option<&Clip>,
    fps: f64,
) {
    let fps = if fps <= 0.0 { 30.0 } else { fps };
    let reference_time = reference_frame / fps;
    let count = match reference_clip {
        Some(clip) => clip.tracks.len(),
        None => target.tracks.len(),
    };
    // The first target track of each name and kind (names and kinds do not change below): a
    // map, not a search of the target's tracks per reference track.
    let mut first: HashMap<(String, TrackKind), usize> =
        HashMap::with_capacity(target.tracks.len());
    for (i, t) in target.tracks.iter().enumerate() {
        first.entry((t.name.clone(), t.kind)).or_insert(i);
    }
    for i in 0..count {
        // With the target as its own reference, three.js reads reference track i as it is at
        // this point of the loop (earlier iterations may already have changed it), so the copy
        // is taken here, not up front.
        let reference_track = match reference_clip {
            Some(clip) => clip.tracks[i].clone(),
            None => target.tracks[i].clone(),
        };
        let kind = reference_track.kind;
        if !kind.is_numeric() || reference_track.is_empty() {
            continue;
        }
        let Some(target_track) = first
            .get(&(reference_track.name.clone(), kind))
            .and_then(|&j| target.tracks.get_mut(j))
        else {
            continue;
        };
        let mut reference = reference_value(&reference_track, reference_time);
        if kind == TrackKind::Quaternion {
            conjugate_normalized(&mut reference);
        }
        subtract(target_track, &reference);
    }
    target.blend_mode = BlendMode::Additive;
}

/// The reference value of a non-empty numeric track at `time`, as f32 like three.js's slices.
fn reference_value(track: &Track, time: f64) -> Vec<f32> {
    let values = track.values.as_numbers().unwrap_or(&[]);
    let size = track.value_size();
    let last = track.times.len() - 1;
    if time <= track.times[0] as f64 {
        values[..size.min(values.len())].to_vec()
    } else if time >= track.times[last] as f64 {
        let start = (last * size).min(values.len());
        values[start..(start + size).min(values.len())].to_vec()
    } else {
        match Sampler::new(track).evaluate(time) {
            Values::Numbers(v) => v,
            _ => Vec::new(),
        }
    }
}

/// Component `k` of `v` read like a JS typed array: missing entries are `undefined`, i.e. NaN in
/// arithmetic.
fn at(v: &[f32], k: usize) -> f64 {
    v.get(k).map_or(f64::NAN, |&x| x as f64)
}

/// `new Quaternion().fromArray(ref).normalize().conjugate().toArray(ref)`: computed in f64,
/// written back as f32 (a zero quaternion normalizes to the identity).
fn conjugate_normalized(reference: &mut [f32]) {
    let [x, y, z, w] = [
        at(reference, 0),
        at(reference, 1),
        at(reference, 2),
        at(reference, 3),
    ];
    let len = (x * x + y * y + z * z + w * w).sqrt();
    let q = if len == 0.0 {
        [0.0, 0.0, 0.0, 1.0]
    } else {
        let inv = 1.0 / len;
        [x * inv, y * inv, z * inv, w * inv]
    };
    let conj = [-q[0], -q[1], -q[2], q[3]];
    for (slot, value) in reference.iter_mut().zip(conj) {
        *slot = value as f32;
    }
}

/// Removes `reference` from every key of `track` (quaternion product or component subtraction).
fn subtract(track: &mut Track, reference: &[f32]) {
    let size = track.value_size();
    let keys = track.times.len();
    let quaternion = track.kind == TrackKind::Quaternion;
    let Some(values) = track.values.as_numbers_mut() else {
        return;
    };
    for j in 0..keys {
        let o = j * size;
        if quaternion {
            if o + 4 > values.len() {
                continue;
            }
            let key = [
                values[o] as f64,
                values[o + 1] as f64,
                values[o + 2] as f64,
                values[o + 3] as f64,
            ];
            let reference_conjugate = [
                at(reference, 0),
                at(reference, 1),
                at(reference, 2),
                at(reference, 3),
            ];
            // three.js: multiplyQuaternionsFlat(dst = values, src0 = ref, src1 = values).
            let r = multiply_quaternions_flat(reference_conjugate, key);
            for (k, value) in r.into_iter().enumerate() {
                values[o + k] = value as f32;
            }
        } else {
            for k in 0..size {
                values[o + k] = (values[o + k] as f64 - at(reference, k)) as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::make_clip_additive;
    use crate::model::{BlendMode, Clip, Track, TrackKind, Values};

    fn numeric_clip() -> Clip {
        Clip::new(
            "c",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0, 2.0],
                vec![1.0, 3.0, 6.0],
            )],
        )
    }

    fn additive(frame: f64, fps: f64) -> Vec<f32> {
        let mut clip = numeric_clip();
        make_clip_additive(&mut clip, frame, None, fps);
        clip.tracks[0].values.as_numbers().unwrap().to_vec()
    }

    #[test]
    fn additive_numeric_default_frame() {
        let mut clip = numeric_clip();
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        assert_eq!(
            clip.tracks[0].values.as_numbers().unwrap(),
            &[0.0, 2.0, 5.0]
        );
        assert_eq!(clip.blend_mode, BlendMode::Additive);
    }

    #[test]
    fn additive_reference_frame_outside_the_keys() {
        assert_eq!(additive(10.0, 1.0), vec![-5.0, -3.0, 0.0]);
        assert_eq!(additive(-5.0, 1.0), vec![0.0, 2.0, 5.0]);
        assert_eq!(additive(2.0, 1.0), vec![-5.0, -3.0, 0.0]);
    }

    #[test]
    fn needs_interp_additive_reference_frame_between_keys() {
        assert_eq!(additive(1.0, 1.0), vec![-2.0, 0.0, 3.0]);
        assert_eq!(additive(0.5, 1.0), vec![-1.0, 1.0, 4.0]);
    }

    #[test]
    fn needs_interp_additive_fps_zero_means_30() {
        assert_eq!(additive(30.0, 0.0), vec![-2.0, 0.0, 3.0]);
        assert_eq!(additive(30.0, -1.0), vec![-2.0, 0.0, 3.0]);
    }

    #[test]
    fn additive_fps_zero_outside_the_keys() {
        // 90 frames at the fallback 30 fps is 3 s, after the last key.
        assert_eq!(additive(90.0, 0.0), vec![-5.0, -3.0, 0.0]);
    }

    #[test]
    fn additive_vector() {
        let t = Track::numeric(
            ".position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![1.0, 2.0, 3.0, 4.0, 6.0, 8.0],
        );
        let mut clip = Clip::new("c", -1.0, vec![t]);
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        assert_eq!(
            clip.tracks[0].values.as_numbers().unwrap(),
            &[0.0, 0.0, 0.0, 3.0, 4.0, 5.0]
        );
    }

    #[test]
    fn additive_subtraction_rounds_to_f32() {
        let t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.1, 0.3]);
        let mut clip = Clip::new("c", -1.0, vec![t]);
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        let expected = (0.3f32 as f64 - 0.1f32 as f64) as f32;
        assert_eq!(
            clip.tracks[0].values.as_numbers().unwrap()[1].to_bits(),
            expected.to_bits()
        );
    }

    #[test]
    fn additive_quaternion() {
        let h = (std::f64::consts::FRAC_PI_4).sin() as f32;
        let c = (std::f64::consts::FRAC_PI_4).cos() as f32;
        let q90y = [0.0, h, 0.0, c];
        let q180y = [0.0, 1.0, 0.0, 0.0];
        let values: Vec<f32> = q90y.iter().chain(q180y.iter()).copied().collect();
        let t = Track::numeric(".quaternion", TrackKind::Quaternion, vec![0.0, 1.0], values);
        let mut clip = Clip::new("c", -1.0, vec![t]);
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        let v = clip.tracks[0].values.as_numbers().unwrap();
        let expected = [0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, c];
        for (a, b) in v.iter().zip(expected) {
            assert!((a - b).abs() < 1e-6, "{v:?}");
        }
        assert_eq!(v[3], 0.99999994);
    }

    fn quaternion_against_reference(key: Vec<f32>, reference: Vec<f32>) -> Vec<f32> {
        let track = |v| Track::numeric(".quaternion", TrackKind::Quaternion, vec![0.0], v);
        let mut target = Clip::new("t", -1.0, vec![track(key)]);
        let reference = Clip::new("r", -1.0, vec![track(reference)]);
        make_clip_additive(&mut target, 0.0, Some(&reference), 30.0);
        target.tracks[0].values.as_numbers().unwrap().to_vec()
    }

    #[test]
    fn additive_quaternion_multiplies_the_reference_from_the_left() {
        // three.js r187: key i, reference j gives j⁻¹ ⊗ i = k (the right product would be -k).
        assert_eq!(
            quaternion_against_reference(vec![1.0, 0.0, 0.0, 0.0], vec![0.0, 1.0, 0.0, 0.0]),
            vec![0.0, 0.0, 1.0, 0.0]
        );
        // Golden values from three.js r187 (non-unit quaternions, f32 results).
        let got = quaternion_against_reference(vec![0.1, 0.2, 0.3, 0.4], vec![0.5, -0.1, 0.7, 0.2]);
        let expected = [
            -0.011250865645706654f64 as f32,
            0.18001407384872437f64 as f32,
            -0.3712790012359619f64 as f32,
            0.36002814769744873f64 as f32,
        ];
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            expected.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "{got:?}"
        );
    }

    #[test]
    fn additive_zero_quaternion_reference_is_identity() {
        let t = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 0.0, 0.1, 0.2, 0.3, 0.4],
        );
        let mut clip = Clip::new("c", -1.0, vec![t]);
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        assert_eq!(
            clip.tracks[0].values.as_numbers().unwrap(),
            &[0.0, 0.0, 0.0, 0.0, 0.1, 0.2, 0.3, 0.4]
        );
    }

    #[test]
    fn additive_reference_clip() {
        let mut target = Clip::new(
            "t",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0],
                vec![12.0, 14.0],
            )],
        );
        let reference = Clip::new(
            "r",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0],
                vec![10.0, 11.0],
            )],
        );
        let before = reference.clone();
        make_clip_additive(&mut target, 0.0, Some(&reference), 30.0);
        assert_eq!(target.tracks[0].values.as_numbers().unwrap(), &[2.0, 4.0]);
        assert_eq!(reference, before);
        assert_eq!(reference.blend_mode, BlendMode::Normal);
    }

    #[test]
    fn additive_skips_bool_string_and_other_kinds() {
        let b = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        let s = Track::new(
            ".name",
            TrackKind::String,
            vec![0.0, 1.0],
            Values::Strings(vec!["a".into(), "b".into()]),
        );
        let x = Track::numeric(".x", TrackKind::Vector, vec![0.0, 1.0], vec![1.0, 2.0]);
        let mut target = Clip::new("t", -1.0, vec![b.clone(), s.clone(), x.clone()]);
        let reference = Clip::new(
            "r",
            -1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 1.0],
                vec![10.0, 11.0],
            )],
        );
        make_clip_additive(&mut target, 0.0, Some(&reference), 30.0);
        assert_eq!(target.tracks, vec![b, s, x]);
        assert_eq!(target.blend_mode, BlendMode::Additive);
    }

    #[test]
    fn additive_self_reference_with_duplicate_names_hits_the_first_track_twice() {
        let a = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![1.0, 5.0]);
        let b = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![2.0, 7.0]);
        let mut clip = Clip::new("c", -1.0, vec![a, b]);
        make_clip_additive(&mut clip, 0.0, None, 30.0);
        // Reference track 0 gives 1 ([0, 4]); reference track 1 (still [2, 7]) gives 2 ([-2, 2]).
        assert_eq!(clip.tracks[0].values.as_numbers().unwrap(), &[-2.0, 2.0]);
        assert_eq!(clip.tracks[1].values.as_numbers().unwrap(), &[2.0, 7.0]);
    }
}
