//! Step interpolation (three.js `DiscreteInterpolant`): between two keys the earlier key's value
//! is held until the next key is reached.

use super::Segment;

/// Writes key `seg.i1 - 1`, the key at or before `seg.t`, into `out`
/// (`copySampleValue_(i1 - 1)`); only `seg.i1` is read.
pub(crate) fn interpolate(
    sample: impl Fn(usize) -> f64,
    stride: usize,
    seg: Segment,
    out: &mut [f64],
) {
    super::copy_sample(sample, stride, seg.i1 - 1, out);
}

#[cfg(test)]
mod tests {
    use crate::model::interpolant::Sampler;
    use crate::model::{Interpolation, Track, TrackKind, Values};

    #[test]
    fn holds_the_key_at_or_before_t() {
        let mut tr = Track::numeric(
            ".x",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0],
            vec![1.0, 10.0, 2.0, 20.0, 3.0, 30.0],
        );
        tr.interpolation = Interpolation::Discrete;
        let mut s = Sampler::new(&tr);
        let cases: [(f64, [f32; 2]); 8] = [
            (-1.0, [1.0, 10.0]),
            (0.0, [1.0, 10.0]),
            (0.999, [1.0, 10.0]),
            (1.0, [2.0, 20.0]),
            (1.5, [2.0, 20.0]),
            (2.0, [3.0, 30.0]),
            (5.0, [3.0, 30.0]),
            (f64::NAN, [3.0, 30.0]),
        ];
        for (t, want) in cases {
            assert_eq!(s.evaluate(t), Values::Numbers(want.to_vec()), "t = {t}");
        }
    }

    #[test]
    fn bool_and_string_tracks_pick_a_key() {
        let tr = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0, 2.0],
            Values::Bools(vec![true, false, true]),
        );
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(-1.0), Values::Bools(vec![true]));
        assert_eq!(s.evaluate(0.5), Values::Bools(vec![true]));
        assert_eq!(s.evaluate(1.0), Values::Bools(vec![false]));
        assert_eq!(s.evaluate(1.9), Values::Bools(vec![false]));
        assert_eq!(s.evaluate(2.0), Values::Bools(vec![true]));
        let mut out = [0.0];
        s.evaluate_f64(1.5, &mut out);
        assert_eq!(out, [0.0]);
        s.evaluate_f64(0.5, &mut out);
        assert_eq!(out, [1.0]);

        let names = vec!["a".to_string(), "b".to_string()];
        let tr = Track::new(
            ".name",
            TrackKind::String,
            vec![0.0, 1.0],
            Values::Strings(names),
        );
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.5), Values::Strings(vec!["a".into()]));
        assert_eq!(s.evaluate(1.0), Values::Strings(vec!["b".into()]));
        s.evaluate_f64(0.5, &mut out);
        assert!(out[0].is_nan());
    }

    #[test]
    fn bool_track_with_linear_falls_back_to_discrete() {
        let mut tr = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        tr.interpolation = Interpolation::Linear; // unsupported: three.js keeps Discrete
        let mut s = Sampler::new(&tr);
        assert_eq!(s.evaluate(0.9), Values::Bools(vec![true]));
    }
}
