//! `validate`: find what three.js would reject (errors) and what is merely suspicious (warnings).
//!
//! Errors follow three.js r187's `KeyframeTrack.validate()` rule for rule:
//!
//! * `invalid-value-size`: the value count is not a whole multiple of the key count;
//! * `empty-track`: no keys (three.js also flags the value size of an empty track, since
//!   `n / 0` is not an integer; we report only the clearer `empty-track`);
//! * `time-not-a-number`: a NaN key time (the first one; three.js stops its time scan there);
//! * `unsorted-times`: a key earlier than the key before it (the first such key; equal times
//!   are fine);
//! * `value-not-a-number`: a NaN value in a numeric track (the first one).
//!
//! Infinity is accepted. Where three.js's `AnimationClip.validate()` stops after the first
//! invalid track, we report every track; a clip is rejected iff any error exists.
//!
//! Warnings are clipscope's own advice and never make a clip invalid: `duplicate-times`,
//! `bezier-without-tangents`, `tangent-length`, `negative-time`, `non-unit-quaternion`,
//! `unsupported-interpolation` (a mode three.js would replace by the kind's default),
//! `duration-shorter-than-keys`, `empty-clip` and `duplicate-track`.

use std::collections::HashMap;

use crate::model::{Clip, Interpolation, Problem, Track, TrackKind, Values};

/// How far a quaternion's length may stray from 1 before `non-unit-quaternion` is reported.
pub const QUATERNION_LENGTH_TOLERANCE: f64 = 1e-3;

impl Track {
    /// All problems of this track, errors first, then warnings. Track and clip indices are left
    /// `None`; [`Clip::validate`] fills in the track index.
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        self.check_errors(&mut problems);
        self.check_warnings(&mut problems);
        problems
    }

    /// Whether three.js's `validate()` accepts this track (no error-severity problem).
    pub fn is_valid(&self) -> bool {
        let mut problems = Vec::new();
        self.check_errors(&mut problems);
        problems.is_empty()
    }

    fn check_errors(&self, problems: &mut Vec<Problem>) {
        let n = self.times.len();
        let nv = self.values.len();
        if n == 0 {
            problems.push(Problem::error("empty-track", "the track has no keys"));
        } else if !nv.is_multiple_of(n) {
            problems.push(Problem::error(
                "invalid-value-size",
                format!("{nv} values do not divide evenly over {n} keys"),
            ));
        }
        for i in 0..n {
            let time = self.times[i];
            if time.is_nan() {
                problems.push(
                    Problem::error(
                        "time-not-a-number",
                        format!("key {i} has a time that is not a number"),
                    )
                    .at_key(i),
                );
                break;
            }
            if i > 0 && self.times[i - 1] > time {
                problems.push(
                    Problem::error(
                        "unsorted-times",
                        format!(
                            "key {i} at {time} s comes before key {} at {} s",
                            i - 1,
                            self.times[i - 1]
                        ),
                    )
                    .at_key(i),
                );
                break;
            }
        }
        if let Values::Numbers(values) = &self.values
            && let Some(index) = values.iter().position(|v| v.is_nan())
        {
            let mut p = Problem::error(
                "value-not-a-number",
                format!("value {index} is not a number"),
            );
            if let Some(size) = whole_value_size(self).filter(|&size| size > 0) {
                let key = index / size;
                p.message = format!(
                    "key {key} has a value that is not a number (component {})",
                    index % size
                );
                p = p.at_key(key);
            }
            problems.push(p);
        }
    }

    fn check_warnings(&self, problems: &mut Vec<Problem>) {
        let n = self.times.len();
        if !self.kind.supports(self.interpolation) {
            problems.push(Problem::warning(
                "unsupported-interpolation",
                format!(
                    "{} interpolation is not available for {} tracks; three.js would use {}",
                    self.interpolation,
                    self.kind,
                    self.kind.default_interpolation()
                ),
            ));
        }
        let duplicates: Vec<usize> = (1..n)
            .filter(|&i| self.times[i] == self.times[i - 1])
            .collect();
        if let Some(&first) = duplicates.first() {
            problems.push(
                Problem::warning(
                    "duplicate-times",
                    format!(
                        "key {first} has the same time ({} s) as key {}{}",
                        self.times[first],
                        first - 1,
                        others(duplicates.len(), "more keys repeat the time before them")
                    ),
                )
                .at_key(first),
            );
        }
        let negative: Vec<usize> = (0..n).filter(|&i| self.times[i] < 0.0).collect();
        if let Some(&first) = negative.first() {
            problems.push(
                Problem::warning(
                    "negative-time",
                    format!(
                        "key {first} is at a negative time ({} s){}",
                        self.times[first],
                        others(negative.len(), "more keys are at negative times")
                    ),
                )
                .at_key(first),
            );
        }
        let value_size = whole_value_size(self).unwrap_or(0);
        if self.interpolation == Interpolation::Bezier && self.tangents.is_none() {
            problems.push(Problem::warning(
                "bezier-without-tangents",
                "the track is bezier but has no tangents; three.js interpolates it linearly",
            ));
        }
        if let Some(tangents) = &self.tangents
            && value_size > 0
        {
            let expected = n * value_size * 2;
            for (side, arr) in [
                ("in", &tangents.in_tangents),
                ("out", &tangents.out_tangents),
            ] {
                if arr.len() != expected {
                    problems.push(Problem::warning(
                        "tangent-length",
                        format!(
                            "the {side} tangents hold {} numbers but {n} keys of size {value_size} need {expected}",
                            arr.len()
                        ),
                    ));
                }
            }
        }
        if let Some(p) = non_unit_quaternions(self, QUATERNION_LENGTH_TOLERANCE) {
            problems.push(p);
        }
    }
}

/// The `non-unit-quaternion` warning for the first quaternion of `track` whose length strays
/// from 1 by more than `tolerance` (with the count of the others), or `None`.
pub(crate) fn non_unit_quaternions(track: &Track, tolerance: f64) -> Option<Problem> {
    let value_size = whole_value_size(track).unwrap_or(0);
    if track.kind != TrackKind::Quaternion || value_size == 0 || !value_size.is_multiple_of(4) {
        return None;
    }
    let Values::Numbers(values) = &track.values else {
        return None;
    };
    let bad: Vec<(usize, f64)> = values
        .chunks_exact(4)
        .enumerate()
        .map(|(q, c)| {
            let [x, y, z, w] = [c[0] as f64, c[1] as f64, c[2] as f64, c[3] as f64];
            (q * 4 / value_size, (x * x + y * y + z * z + w * w).sqrt())
        })
        .filter(|&(_, len)| (len - 1.0).abs() > tolerance)
        .collect();
    let &(key, len) = bad.first()?;
    Some(
        Problem::warning(
            "non-unit-quaternion",
            format!(
                "the quaternion at key {key} has length {len} instead of 1{}",
                others(bad.len(), "more quaternions are not unit length")
            ),
        )
        .at_key(key)
        .at_key_time(track.times[key]),
    )
}

/// Values per key when the value count is a whole multiple of a non-zero key count.
fn whole_value_size(track: &Track) -> Option<usize> {
    let (n, nv) = (track.times.len(), track.values.len());
    (n > 0 && nv.is_multiple_of(n)).then(|| nv / n)
}

/// `" (N more ...)"` for a finding that occurred `count` times, or `""` when it occurred once.
fn others(count: usize, what: &str) -> String {
    if count > 1 {
        format!(" ({} {what})", count - 1)
    } else {
        String::new()
    }
}

impl Clip {
    /// Problems of every track (with the track index set) plus clip-level warnings. The clip
    /// index is left `None` for the caller to set. The clip is rejected by three.js iff any
    /// problem is an error.
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.tracks.is_empty() {
            problems.push(Problem::warning("empty-clip", "the clip has no tracks"));
        }
        // The first track of each name, so duplicates are found in one pass (not by comparing
        // every track with every earlier one: 100,000 tracks would take minutes).
        let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(self.tracks.len());
        for (j, track) in self.tracks.iter().enumerate() {
            problems.extend(track.validate().into_iter().map(|p| p.in_track(j)));
            // Compared as the keys are stored (f32): a duration written as the last key's time
            // (0.416667) is not shorter than that key (0.416667 as f32 is 0.41666701…).
            let duration = self.duration as f32;
            if let Some(key) = track.times.iter().position(|&t| t > duration) {
                problems.push(
                    Problem::warning(
                        "duration-shorter-than-keys",
                        format!(
                            "key {key} at {} s is after the clip's duration of {} s (trim would cut it)",
                            track.times[key],
                            self.duration as f32
                        ),
                    )
                    .in_track(j)
                    .at_key(key),
                );
            }
            let first = *first_of.entry(track.name.as_str()).or_insert(j);
            if first != j {
                problems.push(
                    Problem::warning(
                        "duplicate-track",
                        format!("track {j} animates \"{}\" like track {first}", track.name),
                    )
                    .in_track(j),
                );
            }
        }
        problems
    }

    /// Whether three.js's `AnimationClip.validate()` accepts this clip (no track has an error).
    pub fn is_valid(&self) -> bool {
        self.tracks.iter().all(Track::is_valid)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{
        Clip, Interpolation, Problem, Severity, Tangents, Track, TrackKind, Values,
    };

    fn codes(problems: &[Problem]) -> Vec<&str> {
        problems.iter().map(|p| p.code.as_str()).collect()
    }

    fn number(times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(".material.opacity", TrackKind::Number, times, values)
    }

    #[test]
    fn spec_examples() {
        assert!(number(vec![0.0, 1.0], vec![0.0, 0.5]).validate().is_empty());
        let p = number(vec![0.0, 1.0], vec![0.0, f32::NAN]).validate();
        assert_eq!(codes(&p), ["value-not-a-number"]);
        assert_eq!(p[0].key, Some(1));
        assert_eq!(p[0].severity, Severity::Error);
    }

    #[test]
    fn invalid_value_size() {
        let t = Track::numeric(
            ".material.diffuse",
            TrackKind::Color,
            vec![0.0, 1.0],
            vec![0.0, 0.5, 1.0],
        );
        assert_eq!(codes(&t.validate()), ["invalid-value-size"]);
        assert!(!t.is_valid());
    }

    #[test]
    fn empty_track() {
        let t = number(vec![], vec![]);
        assert_eq!(codes(&t.validate()), ["empty-track"]);
    }

    #[test]
    fn nan_time_stops_the_time_scan() {
        let t = number(vec![0.0, f32::NAN, 2.0, 1.0], vec![0.0; 4]);
        let p = t.validate();
        assert_eq!(codes(&p), ["time-not-a-number"]);
        assert_eq!(p[0].key, Some(1));
    }

    #[test]
    fn unsorted_times_message_names_the_keys() {
        let mut times: Vec<f32> = (0..8).map(|i| i as f32 * 0.1).collect();
        times[6] = 0.6;
        times[7] = 0.5;
        let p = number(times, vec![0.0; 8]).validate();
        assert_eq!(codes(&p), ["unsorted-times"]);
        assert_eq!(p[0].key, Some(7));
        assert_eq!(p[0].message, "key 7 at 0.5 s comes before key 6 at 0.6 s");
    }

    #[test]
    fn infinity_is_accepted_and_equal_times_only_warn() {
        let t = number(
            vec![0.0, 1.0, 1.0, f32::INFINITY],
            vec![f32::INFINITY, 0.0, 1.0, f32::NEG_INFINITY],
        );
        let p = t.validate();
        assert_eq!(codes(&p), ["duplicate-times"]);
        assert_eq!(p[0].severity, Severity::Warning);
        assert_eq!(p[0].key, Some(2));
        assert!(t.is_valid());
    }

    #[test]
    fn nan_in_bool_or_string_tracks_is_impossible_and_strings_pass() {
        let t = Track::new(
            ".name",
            TrackKind::String,
            vec![0.0, 1.0],
            Values::Strings(vec!["foo".into(), "bar".into()]),
        );
        assert!(t.validate().is_empty());
    }

    #[test]
    fn value_nan_in_vector_names_key_and_component() {
        let t = Track::numeric(
            ".p",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 0.0, f32::NAN, 0.0],
        );
        let p = t.validate();
        assert_eq!(p[0].key, Some(1));
        assert_eq!(
            p[0].message,
            "key 1 has a value that is not a number (component 1)"
        );
    }

    #[test]
    fn warnings() {
        let mut t = number(vec![-1.0, 0.0], vec![0.0, 1.0]);
        t.interpolation = Interpolation::Bezier;
        assert_eq!(
            codes(&t.validate()),
            ["negative-time", "bezier-without-tangents"]
        );
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0; 4],
            out_tangents: vec![0.0; 3],
            modes: Vec::new(),
        });
        let p = t.validate();
        assert_eq!(codes(&p), ["negative-time", "tangent-length"]);
        assert!(p.iter().all(|p| p.severity == Severity::Warning));

        let mut q = Track::numeric(
            ".quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0],
        );
        q.interpolation = Interpolation::Smooth;
        let p = q.validate();
        assert_eq!(
            codes(&p),
            ["unsupported-interpolation", "non-unit-quaternion"]
        );
        assert_eq!(p[1].key, Some(1));
        q.values = Values::Numbers(vec![
            0.0, 0.0, 0.0, 1.0005, 0.0, 0.70710677, 0.0, 0.70710677,
        ]);
        q.interpolation = Interpolation::Linear;
        assert!(q.validate().is_empty());
    }

    #[test]
    fn clip_reports_every_track_and_clip_warnings() {
        let bad1 = number(vec![1.0, 0.0], vec![0.0, 0.0]);
        let bad2 = number(vec![0.0, 1.0], vec![f32::NAN, 0.0]);
        let late = Track::numeric(".p", TrackKind::Vector, vec![0.0, 3.0], vec![0.0; 6]);
        let mut clip = Clip::new("c", 2.0, vec![bad1, bad2, late]);
        let p = clip.validate();
        assert_eq!(
            codes(&p),
            [
                "unsorted-times",
                "value-not-a-number",
                "duplicate-track",
                "duration-shorter-than-keys"
            ]
        );
        assert_eq!(
            p.iter().map(|p| p.track).collect::<Vec<_>>(),
            [Some(0), Some(1), Some(1), Some(2)]
        );
        assert_eq!(p[3].key, Some(1));
        assert!(p.iter().all(|p| p.clip.is_none()));
        assert!(!clip.is_valid());
        clip.tracks.clear();
        assert_eq!(codes(&clip.validate()), ["empty-clip"]);
        assert!(clip.is_valid());
    }

    #[test]
    fn a_duration_written_as_the_last_key_is_not_shorter() {
        // 0.416667 as an f32 key is 0.41666701…, above the f64 duration 0.416667.
        let t = number(vec![0.0, 0.416667], vec![0.0, 1.0]);
        assert!(codes(&Clip::new("c", 0.416667, vec![t.clone()]).validate()).is_empty());
        assert_eq!(
            codes(&Clip::new("c", 0.4166, vec![t]).validate()),
            ["duration-shorter-than-keys"]
        );
    }
}
