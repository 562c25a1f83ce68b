//! Test support: sampling a track densely to compare curve shapes before and after an edit.

use crate::model::Track;
use crate::model::interpolant::Sampler;

/// The track's values (f64, as the mixer sees them) at `count + 1` evenly spread times over
/// `[from, to]`.
pub(crate) fn samples(track: &Track, from: f64, to: f64, count: usize) -> Vec<Vec<f64>> {
    let mut sampler = Sampler::new(track);
    (0..=count)
        .map(|i| {
            let mut out = vec![0.0; track.value_size()];
            sampler.evaluate_f64(from + (to - from) * i as f64 / count as f64, &mut out);
            out
        })
        .collect()
}

/// Panics unless every sample of `a` is within `tolerance` of the same sample of `b`.
pub(crate) fn assert_close(a: &[Vec<f64>], b: &[Vec<f64>], tolerance: f64) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        for (p, q) in x.iter().zip(y) {
            assert!((p - q).abs() <= tolerance, "sample {i}: {p} vs {q}");
        }
    }
}
