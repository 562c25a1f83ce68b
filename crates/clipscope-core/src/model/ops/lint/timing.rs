//! Timing rules on top of three.js's: a clip should not last much longer than its last key
//! (`duration-longer-than-keys`; keys after the duration and negative times are reported by
//! `validate` as `duration-shorter-than-keys` and `negative-time`).

use super::LintSettings;
use crate::model::{Clip, Problem};

/// One frame at 30 fps: the duration may always exceed the last key by this much.
const ONE_FRAME: f64 = 1.0 / 30.0;

/// Adds the clip-level timing findings of `clip`.
pub(super) fn check(clip: &Clip, settings: &LintSettings, out: &mut Vec<Problem>) {
    let end = clip
        .tracks
        .iter()
        .filter_map(|t| t.end_time())
        .map(f64::from)
        .filter(|t| t.is_finite())
        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))));
    let Some(end) = end else {
        return;
    };
    let allowed = end + end.abs() * settings.duration_slack + ONE_FRAME;
    if clip.duration.is_finite() && clip.duration > allowed {
        out.push(
            Problem::warning(
                "duration-longer-than-keys",
                format!(
                    "the clip lasts {} s but its last key is at {} s (reset the duration to match)",
                    clip.duration as f32, end as f32
                ),
            )
            .at_time(clip.duration),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    fn clip(duration: f64) -> Clip {
        let t = Track::numeric(".p", TrackKind::Number, vec![0.0, 2.0], vec![0.0, 1.0]);
        Clip::new("c", duration, vec![t])
    }

    #[test]
    fn long_duration_warns_and_slack_passes() {
        let s = LintSettings::default();
        let mut out = Vec::new();
        check(&clip(5.0), &s, &mut out);
        assert_eq!(out[0].code, "duration-longer-than-keys");
        assert!(out[0].message.contains("5 s"), "{}", out[0].message);
        out.clear();
        check(&clip(2.1), &s, &mut out);
        assert!(out.is_empty());
    }
}
