//! `loop-seam`: a looping clip should end in the pose it starts with, or it pops each time it
//! wraps. A clip is a loop when config says so ([`LintSettings::is_loop`]) or, by default, when
//! its name contains one of [`LintSettings::loop_names`] as a word: names are split at
//! non-letters and at lower-to-upper case changes, so `Walk_Cycle`, `runLoop` and `idle-loop`
//! are loops while `Rerun` and `Loophole` are not. Each numeric track's first and last key are
//! compared component by component; quaternions also match their negation.

use super::LintSettings;
use crate::model::{Clip, Problem, TrackKind, Values};

/// Whether `name` contains one of `words` as a word (see the module docs), ignoring case.
pub fn is_loop_name(name: &str, words: &[String]) -> bool {
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if (!c.is_alphabetic() || (c.is_uppercase() && prev_lower)) && !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
        if c.is_alphabetic() {
            current.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    tokens.push(current);
    tokens
        .iter()
        .any(|t| words.iter().any(|w| w.eq_ignore_ascii_case(t)))
}

/// Adds a `loop-seam` finding for each track of a looping `clip` whose ends differ.
pub(super) fn check(clip: &Clip, settings: &LintSettings, out: &mut Vec<Problem>) {
    let is_loop = settings
        .is_loop
        .unwrap_or_else(|| is_loop_name(&clip.name, &settings.loop_names));
    if !is_loop {
        return;
    }
    for (j, track) in clip.tracks.iter().enumerate() {
        let n = track.times.len();
        let Values::Numbers(v) = &track.values else {
            continue;
        };
        if n < 2 || !v.len().is_multiple_of(n) {
            continue;
        }
        let size = v.len() / n;
        let (first, last) = (&v[..size], &v[(n - 1) * size..]);
        let gap = |sign: f64| {
            first
                .iter()
                .zip(last)
                .map(|(&a, &b)| (a as f64 - sign * b as f64).abs())
                .fold(0.0f64, f64::max)
        };
        let mut diff = gap(1.0);
        if track.kind == TrackKind::Quaternion {
            diff = diff.min(gap(-1.0));
        }
        if diff > settings.loop_tolerance {
            out.push(
                Problem::warning(
                    "loop-seam",
                    format!(
                        "the clip loops but the last key (at {} s) differs from the first by {diff:.4} (tolerance {})",
                        track.times[n - 1],
                        settings.loop_tolerance
                    ),
                )
                .in_track(j)
                .at_key(n - 1)
                .at_key_time(track.times[n - 1]),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Track;

    fn words() -> Vec<String> {
        LintSettings::default().loop_names
    }

    #[test]
    fn loop_names_are_words() {
        for name in ["Walk_Cycle", "runLoop", "idle-loop", "Run", "walk01"] {
            assert!(is_loop_name(name, &words()), "{name}");
        }
        for name in ["Rerun", "Loophole", "jump", ""] {
            assert!(!is_loop_name(name, &words()), "{name}");
        }
    }

    fn clip(name: &str, last: f32) -> Clip {
        let t = Track::numeric(
            ".p",
            TrackKind::Number,
            vec![0.0, 1.0, 2.0],
            vec![0.0, 1.0, last],
        );
        let q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0],
        );
        Clip::new(name, 2.0, vec![t, q])
    }

    #[test]
    fn seam_is_found_in_loops_only() {
        let s = LintSettings::default();
        let mut out = Vec::new();
        check(&clip("walk", 0.5), &s, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(
            (out[0].code.as_str(), out[0].track, out[0].key),
            ("loop-seam", Some(0), Some(2))
        );
        out.clear();
        check(&clip("walk", 0.0), &s, &mut out);
        check(&clip("jump", 0.5), &s, &mut out);
        assert!(out.is_empty());
        let forced = LintSettings {
            is_loop: Some(true),
            ..LintSettings::default()
        };
        check(&clip("jump", 0.5), &forced, &mut out);
        assert_eq!(out.len(), 1);
    }
}
