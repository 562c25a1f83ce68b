//! Waste: keys that three.js's lossless `optimize` would remove (`redundant-keys`, measured by
//! optimizing a copy) and tracks whose every key holds the same value (`constant-track`, which
//! replaces `redundant-keys` for that track). Tracks with bezier handles are skipped: three.js's
//! `optimize` does not compact handles, so it would not be lossless there.

use super::LintSettings;
use crate::model::{Problem, Track};

/// Adds the waste findings of `track` (track index not set); `redundant-keys` is not measured
/// when it is off (it optimizes a copy of the track).
pub(super) fn check(track: &Track, settings: &LintSettings, out: &mut Vec<Problem>) {
    let n = track.times.len();
    if n < 2 || !track.values.len().is_multiple_of(n) {
        return;
    }
    let size = track.values.len() / n;
    if size > 0
        && track.tangents.is_none()
        && (1..n).all(|k| (0..size).all(|c| !track.values.differs(c, k * size + c)))
    {
        out.push(Problem::warning(
            "constant-track",
            format!(
                "all {n} keys hold the same value; {} key(s) could go (or the whole track)",
                n - 1
            ),
        ));
        return;
    }
    if track.tangents.is_some() || !settings.checks("redundant-keys") {
        // three.js's optimize does not compact bezier handles, so it is not lossless here.
        return;
    }
    let mut copy = track.clone();
    copy.optimize();
    let removed = n - copy.len();
    if removed > 0 {
        out.push(Problem::warning(
            "redundant-keys",
            format!("{removed} of {n} keys add nothing; optimize would remove them losslessly"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    fn found(values: Vec<f32>) -> Vec<Problem> {
        let times = (0..values.len()).map(|i| i as f32).collect();
        let mut out = Vec::new();
        check(
            &Track::numeric(".p", TrackKind::Number, times, values),
            &LintSettings::default(),
            &mut out,
        );
        out
    }

    #[test]
    fn redundant_keys_are_counted() {
        let p = found(vec![0.0, 1.0, 1.0, 1.0, 2.0]);
        assert_eq!(p[0].code, "redundant-keys");
        assert!(p[0].message.starts_with("1 of 5 keys"), "{}", p[0].message);
        assert!(found(vec![0.0, 1.0, 2.0]).is_empty());
    }

    #[test]
    fn redundant_keys_are_not_measured_when_off() {
        let mut settings = LintSettings::default();
        settings.off.insert("redundant-keys".into());
        let times = (0..5).map(|i| i as f32).collect();
        let track = Track::numeric(
            ".p",
            TrackKind::Number,
            times,
            vec![0.0, 1.0, 1.0, 1.0, 2.0],
        );
        let mut out = Vec::new();
        check(&track, &settings, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn constant_track_replaces_redundant_keys() {
        let p = found(vec![3.0; 4]);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].code, "constant-track");
        assert!(p[0].message.contains("3 key(s) could go"));
    }
}
