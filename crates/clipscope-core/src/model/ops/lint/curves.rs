//! Curve rules: bezier handles whose time runs backwards (`bezier-fold`: an in handle after its
//! key, an out handle before it, or a handle reaching past the neighbouring key, so the curve's
//! time is not monotonic and it folds over itself) and non-finite numbers (`non-finite-value`:
//! infinite times or values, which three.js accepts, and NaN or infinite tangents; NaN times and
//! values are `validate`'s errors).

use crate::model::{Problem, Track, Values};

/// Adds the curve findings of `track` (track index not set).
pub(super) fn check(track: &Track, out: &mut Vec<Problem>) {
    let n = track.times.len();
    if let Some(k) = track.times.iter().position(|t| t.is_infinite()) {
        out.push(
            Problem::warning("non-finite-value", format!("key {k} has an infinite time")).at_key(k),
        );
    }
    if let Values::Numbers(v) = &track.values
        && let Some(i) = v.iter().position(|x| x.is_infinite())
    {
        let mut p = Problem::warning("non-finite-value", format!("value {i} is infinite"));
        if n > 0 && v.len().is_multiple_of(n) && v.len() >= n {
            let size = v.len() / n;
            p.message = format!(
                "key {} has an infinite value (component {})",
                i / size,
                i % size
            );
            p = p.at_key(i / size);
        }
        out.push(p);
    }
    let Some(tangents) = &track.tangents else {
        return;
    };
    if let Some(i) = tangents
        .in_tangents
        .iter()
        .chain(&tangents.out_tangents)
        .position(|x| !x.is_finite())
    {
        out.push(Problem::warning(
            "non-finite-value",
            format!("tangent number {i} is not finite"),
        ));
        return;
    }
    if n == 0 || !track.values.len().is_multiple_of(n) {
        return;
    }
    let size = track.values.len() / n;
    if size == 0
        || tangents.in_tangents.len() != n * size * 2
        || tangents.out_tangents.len() != n * size * 2
    {
        return;
    }
    let mut folds = Vec::new();
    for k in 0..n {
        let t = track.times[k];
        for c in 0..size {
            let at = k * size * 2 + c * 2;
            let (tin, tout) = (tangents.in_tangents[at], tangents.out_tangents[at]);
            let backwards = tin > t
                || tout < t
                || (k + 1 < n && tout > track.times[k + 1])
                || (k > 0 && tin < track.times[k - 1]);
            if backwards {
                folds.push((k, c));
                break;
            }
        }
    }
    if let Some(&(k, c)) = folds.first() {
        let more = if folds.len() > 1 {
            format!(" ({} more keys fold)", folds.len() - 1)
        } else {
            String::new()
        };
        out.push(
            Problem::warning(
                "bezier-fold",
                format!(
                    "a handle of key {k} (component {c}) runs backwards in time or past a neighbouring key, so the curve folds over itself{more}"
                ),
            )
            .at_key(k),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Interpolation, Tangents, TrackKind};

    fn bezier(out_time_of_key0: f32) -> Track {
        let mut t = Track::numeric(".p", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        t.interpolation = Interpolation::Bezier;
        t.tangents = Some(Tangents::new(
            vec![-0.3, 0.0, 0.7, 1.0],
            vec![out_time_of_key0, 0.0, 1.3, 1.0],
        ));
        t
    }

    fn codes(track: &Track) -> Vec<String> {
        let mut out = Vec::new();
        check(track, &mut out);
        out.into_iter().map(|p| p.code).collect()
    }

    #[test]
    fn folded_handles_warn() {
        assert!(codes(&bezier(0.3)).is_empty());
        assert_eq!(codes(&bezier(-0.2)), ["bezier-fold"]);
        assert_eq!(codes(&bezier(1.5)), ["bezier-fold"]);
        assert_eq!(codes(&bezier(f32::NAN)), ["non-finite-value"]);
    }

    #[test]
    fn infinity_warns() {
        let t = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 0.0, f32::INFINITY, 0.0],
        );
        let mut out = Vec::new();
        check(&t, &mut out);
        assert_eq!(out[0].code, "non-finite-value");
        assert_eq!(out[0].key, Some(1));
        let ok = Track::numeric(".p", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        assert!(codes(&ok).is_empty());
    }
}
