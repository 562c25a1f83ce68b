//! Resampling a track into linear keys, for curves glTF cannot hold exactly (bezier handles
//! off the thirds of their interval, mixed interpolations in one `weights` channel).
//!
//! The curve is evaluated with the model's own interpolant (three.js r187 semantics) at every
//! original key time plus a [`BAKE_FPS`] grid from the first key to the last, so the keys
//! themselves stay exact and the curve between them is followed at 30 samples per second.

use crate::model::Track;
use crate::model::interpolant::Sampler;

/// The frame rate curves are baked at (glTF has no frame rate of its own).
pub(crate) const BAKE_FPS: f64 = 30.0;

/// The most grid samples one bake takes (over 9 hours at 30 fps); a longer span is sampled
/// more coarsely rather than exhausting memory.
const MAX_FRAMES: f64 = 1e6;

/// The times a bake of tracks spanning `first..=last` with keys `keys` samples: the keys and
/// the grid, sorted, with grid points closer than a microsecond to a key left out.
pub(crate) fn bake_times(keys: &[f32], first: f32, last: f32) -> Vec<f32> {
    let mut times: Vec<f32> = keys.to_vec();
    let (first, last) = (first as f64, last as f64);
    if first.is_finite() && last.is_finite() && last > first {
        let fps = BAKE_FPS.min(MAX_FRAMES / (last - first));
        let frames = ((last - first) * fps).floor() as usize;
        times.extend((1..=frames).map(|f| (first + f as f64 / fps) as f32));
    }
    times.retain(|t| t.is_finite());
    times.sort_by(f32::total_cmp);
    let mut out: Vec<f32> = Vec::with_capacity(times.len());
    for t in times {
        match out.last() {
            Some(&prev) if (t as f64 - prev as f64).abs() < 1e-6 => {
                // Prefer an original key time over a grid point next to it.
                if keys.contains(&t) {
                    *out.last_mut().unwrap_or(&mut 0.0) = t;
                }
            }
            _ => out.push(t),
        }
    }
    out
}

/// The values of `track` at `times`, `value_size` numbers per time (f32, as stored).
pub(crate) fn sample(track: &Track, times: &[f32]) -> Vec<f32> {
    let vs = track.value_size();
    let mut sampler = Sampler::new(track);
    let mut out = Vec::with_capacity(times.len() * vs);
    let mut buf = vec![0.0f64; vs];
    for &t in times {
        sampler.evaluate_f64(t as f64, &mut buf);
        out.extend(buf.iter().map(|&v| v as f32));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    #[test]
    fn keys_plus_grid() {
        let t = bake_times(&[0.0, 0.05, 0.1], 0.0, 0.1);
        assert_eq!(t.len(), 5);
        assert_eq!(t[0], 0.0);
        assert_eq!(t[1], (1.0f64 / 30.0) as f32);
        assert_eq!(t[2], 0.05);
        assert_eq!(t[3], (2.0f64 / 30.0) as f32);
        assert_eq!(t[4], 0.1);
        // A key next to a grid point replaces it.
        let t = bake_times(&[0.0, 0.0333334, 1.0], 0.0, 1.0);
        assert!(t.contains(&0.0333334));
        assert_eq!(t.len(), 31);
    }

    #[test]
    fn samples_the_model_curve() {
        let tr = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 3.0]);
        assert_eq!(sample(&tr, &[0.0, 0.5, 2.0]), [0.0, 1.5, 3.0]);
    }
}
