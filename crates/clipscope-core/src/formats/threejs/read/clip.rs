//! One clip object as three.js's `AnimationClip.parse` reads it: the head fields (`name`,
//! `duration`, `fps`, `uuid`, `blendMode`, `userData`; the rest kept as extras in file order),
//! then the clip's converted tracks in file order, their times scaled by `1 / (fps || 1)`, and
//! the duration recomputed from the tracks when it was missing or negative.
//!
//! [`convert_clip`] is the one converter of a clip object, wherever it sits: in a clip file, an
//! array of clips, an object file's `animations`, or on an object of an io_three object file.
//! The clip's JSON path comes with it, so every finding names its place in the file.

use std::path::Path;

use serde_json::value::RawValue;

use super::Mode;
use super::issue::{Ctx, Issue};
use super::leaves::{string_of, wrong};
use super::numbers::{js_number, number_f64, out_of_range};
use super::scan::{TrackResult, TrackResults, scan_clip};
use super::track::push_extra;
use crate::formats::ReadError;
use crate::formats::json::path::field;
use crate::formats::json::{JsonKind, Key, Shaped};
use crate::formats::threejs::schema::{Field, clip_raw, clip_tracks};
use crate::model::{BlendMode, Clip, Extras, Layers, Problem, Track};

/// A clip object to convert: its JSON path, its unique id from the scan and its fields.
pub(super) type ClipRef<'a, 'de> = (String, usize, &'a [(Key<'de>, Field<'de>)]);

/// The clip-level fields of one clip, before its tracks are converted.
struct ClipHead {
    /// The clip being built (tracks still empty).
    clip: Clip,
    /// Whether `duration` was missing or negative (recomputed from the tracks).
    reset: bool,
    /// `1 / (fps || 1)`.
    frame_time: f64,
}

/// Converts every clip of `clips`, in file order, taking their tracks from `tracks`: the clips
/// and, in a lenient read, the findings; in a strict read the first finding is the error.
pub(super) fn convert_clips(
    clips: &[ClipRef],
    mut tracks: TrackResults,
    mode: Mode,
    file: &Path,
) -> Result<(Vec<Clip>, Vec<Problem>), ReadError> {
    let mut problems = Vec::new();
    let mut out = Vec::with_capacity(clips.len());
    for (c, clip) in clips.iter().enumerate() {
        let clip = convert_clip(clip, &mut tracks, c, mode, &mut problems)
            .map_err(|issue| issue.in_file(file))?;
        out.push(clip);
    }
    Ok((out, problems))
}

/// Converts the clip object `clip` (`AnimationClip.parse`), the `c`-th clip of its document,
/// from its head fields and its converted tracks, taken out of `tracks`. Findings name paths
/// under the clip's own and go to `problems` (lenient mode); in strict mode the first one is
/// the error. A lenient read keeps a clip whose tracks cannot be read, empty, so clip indices
/// stay those of the file.
pub(super) fn convert_clip(
    (path, uid, schema): &ClipRef,
    tracks: &mut TrackResults,
    c: usize,
    mode: Mode,
    problems: &mut Vec<Problem>,
) -> Result<Clip, Issue> {
    let mut ctx = Ctx::new(mode);
    let mut head = convert_head(schema, path, &mut ctx)?;
    ctx.finish();
    problems.extend(ctx.issues.iter().map(|i| i.problem(c, None)));
    let mut results = Vec::new();
    match clip_tracks(schema) {
        Some((array, Shaped::Ok(_))) => results = tracks.take(*uid, array),
        Some((_, Shaped::Wrong(kind))) => {
            let issue = Issue::parse(
                field(path, "tracks"),
                format!("expected an array of tracks, found {}", kind.describe()),
            );
            clip_failure(mode, issue, c, problems)?;
        }
        None => {
            let reason = if clip_raw(schema, "hierarchy").is_some() {
                "legacy animation with \"hierarchy\" among clips with \"tracks\" (a file holds \
                 one kind or the other); expected \"tracks\""
            } else {
                "missing \"tracks\""
            };
            clip_failure(mode, Issue::parse(path, reason), c, problems)?;
        }
    }
    results.sort_by_key(|r| r.track);
    share_times(&mut results);
    let in_file = results.len();
    // Position in the file of each track that made it into the clip.
    let mut file_index = Vec::with_capacity(in_file);
    for r in results {
        problems.extend(r.issues.iter().map(|i| i.problem(c, Some(r.track))));
        match r.result {
            Ok(mut track) => {
                scale_times(&mut track, head.frame_time);
                head.clip.tracks.push(track);
                file_index.push(r.track);
            }
            Err(issue) => match mode {
                Mode::Strict => return Err(issue),
                Mode::Lenient => problems.push(issue.problem(c, Some(r.track))),
            },
        }
    }
    if head.reset {
        head.clip.reset_duration();
    }
    if mode == Mode::Lenient {
        validate_clip(&head.clip, c, &file_index, in_file, problems);
    }
    Ok(head.clip)
}

/// Gives tracks whose `times` text repeated an earlier track's (and so was not parsed again)
/// that track's parsed times. `results` are one clip's tracks, sorted by index; a source that
/// failed leaves the placeholder, and its own error is reported first anyway.
fn share_times(results: &mut [TrackResult]) {
    for j in 0..results.len() {
        let Some(source) = results[j].shares_times_with else {
            continue;
        };
        let Ok(k) = results[..j].binary_search_by_key(&source, |r| r.track) else {
            continue;
        };
        let (before, after) = results.split_at_mut(j);
        if let (Ok(from), Ok(to)) = (&before[k].result, &mut after[0].result)
            && from.times.len() == to.times.len()
        {
            to.times.clone_from(&from.times);
        }
    }
}

/// Adds the model's validation of a leniently read clip to `problems`, with track indices
/// mapped back to positions in the file. Findings the reader already reported (a non-number
/// stored as NaN, say) are not repeated, and a clip whose tracks were all unreadable is not also
/// called empty.
fn validate_clip(
    clip: &Clip,
    c: usize,
    file_index: &[usize],
    in_file: usize,
    problems: &mut Vec<Problem>,
) {
    for mut p in clip.validate() {
        let unreadable = problems
            .iter()
            .any(|q| q.code == "parse" && q.clip == Some(c));
        if p.code == "empty-clip" && (in_file > 0 || unreadable) {
            continue;
        }
        p.clip = Some(c);
        p.track = p.track.and_then(|t| file_index.get(t).copied());
        let known = problems
            .iter()
            .any(|q| q.code == p.code && q.clip == p.clip && q.track == p.track);
        if !known {
            problems.push(p);
        }
    }
}

/// `AnimationClip.parse`'s `track.scale(frameTime)`: key times and tangent times, rounded to f32.
fn scale_times(track: &mut Track, frame_time: f64) {
    if frame_time != 1.0 {
        for t in &mut track.times {
            *t = (*t as f64 * frame_time) as f32;
        }
        if let Some(tangents) = &mut track.tangents {
            tangents.map_times(|t| t * frame_time);
        }
    }
}

/// A clip that cannot be read: an error in strict mode, a problem (and an empty clip) otherwise.
fn clip_failure(
    mode: Mode,
    issue: Issue,
    clip: usize,
    problems: &mut Vec<Problem>,
) -> Result<(), Issue> {
    match mode {
        Mode::Strict => Err(issue),
        Mode::Lenient => {
            problems.push(issue.problem(clip, None));
            Ok(())
        }
    }
}

/// The clip fields other than `tracks`: name, duration, fps, uuid, blendMode, userData, extras.
fn convert_head(schema: &[(Key, Field)], path: &str, ctx: &mut Ctx) -> Result<ClipHead, Issue> {
    let name = match clip_raw(schema, "name") {
        None => String::new(),
        Some(raw) => match string_of(raw) {
            Some(s) => s,
            None => {
                ctx.soft(wrong(&field(path, "name"), "a string", raw))?;
                raw.get().to_string()
            }
        },
    };
    let mut reset = false;
    let duration = match clip_raw(schema, "duration") {
        None => {
            reset = true;
            -1.0
        }
        Some(raw) => match JsonKind::of(raw) {
            // JSON.stringify writes a NaN duration as null; read it back as NaN.
            JsonKind::Null => f64::NAN,
            JsonKind::Number => {
                let d = number_f64(raw);
                if !d.is_finite() {
                    ctx.soft(out_of_range(
                        &field(path, "duration"),
                        raw.get(),
                        "a 64-bit",
                    ))?;
                }
                d
            }
            JsonKind::String if let Some(d) = string_of(raw).as_deref().and_then(js_number) => {
                ctx.number_as_text(&field(path, "duration"), 0);
                d
            }
            _ => {
                ctx.soft(wrong(&field(path, "duration"), "a number", raw))?;
                -1.0
            }
        },
    };
    if duration < 0.0 {
        reset = true;
    }
    let fps = match clip_raw(schema, "fps") {
        None => 1.0,
        Some(raw) => match JsonKind::of(raw) {
            JsonKind::Null => 1.0,
            JsonKind::Number => number_f64(raw),
            JsonKind::String if let Some(f) = string_of(raw).as_deref().and_then(js_number) => {
                ctx.number_as_text(&field(path, "fps"), 0);
                f
            }
            _ => {
                ctx.soft(wrong(&field(path, "fps"), "a number", raw))?;
                1.0
            }
        },
    };
    // `1 / (json.fps || 1)`: 0 and NaN count as missing.
    let frame_time = 1.0 / if fps == 0.0 || fps.is_nan() { 1.0 } else { fps };
    let uuid = match clip_raw(schema, "uuid") {
        None => None,
        Some(raw) => match JsonKind::of(raw) {
            JsonKind::Null => None,
            _ => match string_of(raw) {
                Some(s) => Some(s),
                None => {
                    ctx.soft(wrong(&field(path, "uuid"), "a string", raw))?;
                    None
                }
            },
        },
    };
    let blend_mode = match clip_raw(schema, "blendMode") {
        None => BlendMode::Normal,
        Some(raw) => {
            let mode = match JsonKind::of(raw) {
                JsonKind::Number => BlendMode::from_code(number_f64(raw)),
                _ => None,
            };
            match mode {
                Some(m) => m,
                None => {
                    let issue = Issue::coded(
                        "unknown-blend-mode",
                        field(path, "blendMode"),
                        format!("unknown blendMode {} (expected 2500 or 2501)", raw.get()),
                    );
                    ctx.soft(issue)?;
                    BlendMode::Normal
                }
            }
        }
    };
    let mut user_data = user_data(clip_raw(schema, "userData"), path, ctx)?;
    let layers = Layers::take_from(&mut user_data);
    let mut extras = Extras::default();
    for (k, v) in schema {
        if let Field::Raw(raw) = v
            && !matches!(
                &*k.0,
                "name" | "duration" | "fps" | "uuid" | "blendMode" | "userData"
            )
        {
            push_extra(&mut extras, &k.0, raw);
        }
    }
    Ok(ClipHead {
        clip: Clip {
            name,
            duration,
            tracks: Vec::new(),
            blend_mode,
            uuid,
            user_data,
            extras,
            layers,
        },
        reset,
        frame_time,
    })
}

/// `{}`.
fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

/// The clip's `userData`: `toJSON` writes it as a JSON string (an object is taken too; a
/// missing, null or empty one is `{}`).
fn user_data(
    raw: Option<&RawValue>,
    path: &str,
    ctx: &mut Ctx,
) -> Result<serde_json::Value, Issue> {
    Ok(match raw {
        None => empty_object(),
        Some(raw) => match JsonKind::of(raw) {
            JsonKind::Null => empty_object(),
            JsonKind::Object => serde_json::from_str(raw.get()).unwrap_or_else(|_| empty_object()),
            JsonKind::String => {
                let text = string_of(raw).unwrap_or_default();
                if text.is_empty() {
                    empty_object()
                } else {
                    match serde_json::from_str(&text) {
                        Ok(v) => v,
                        Err(e) => {
                            ctx.soft(Issue::parse(
                                field(path, "userData"),
                                format!("userData is not valid JSON: {e}"),
                            ))?;
                            empty_object()
                        }
                    }
                }
            }
            _ => {
                ctx.soft(wrong(&field(path, "userData"), "a JSON string", raw))?;
                empty_object()
            }
        },
    })
}

/// Reads the clip object `raw`, found at JSON path `path` of `file` outside the places
/// [`read`](super::read) looks for clips (a per-object clip of an io_three object file), with the same
/// converter as every other clip: its findings and its error name paths under `path`, and
/// `c` is its index among the clips its findings count. `None` when `raw` is not a clip
/// object with `tracks`; in a lenient read the findings go to `problems`.
pub(crate) fn read_clip(
    raw: &RawValue,
    path: &str,
    file: &Path,
    c: usize,
    mode: Mode,
    problems: &mut Vec<Problem>,
) -> Result<Option<Clip>, ReadError> {
    let (schema, mut tracks) = scan_clip(raw, path, mode);
    let Some(Shaped::Ok(schema)) = schema else {
        return Ok(None);
    };
    if clip_tracks(&schema.fields).is_none() {
        return Ok(None);
    }
    let clip = (path.to_string(), schema.uid, schema.fields.as_slice());
    convert_clip(&clip, &mut tracks, c, mode, problems)
        .map(Some)
        .map_err(|issue| issue.in_file(file))
}

#[cfg(test)]
mod tests {
    use crate::formats::threejs::read::testing::{nums, read};
    use crate::formats::{Format, lint_bytes};
    use crate::model::{BlendMode, Interpolation, TrackKind};
    use std::path::Path;

    #[test]
    fn repeated_times_text_is_parsed_once_and_shared() {
        let times = "[0,0.1,0.2,0.30000001]";
        let text = format!(
            r#"{{"name":"c","fps":10,"tracks":[
            {{"name":".a","times":{times},"values":[0,1,2,3],"type":"number"}},
            {{"name":".b","times":{times},"values":[0,0,1,1,2,2,3,3],"type":"vector"}},
            {{"name":".c","times":[0,1],"values":[5,6],"type":"number"}},
            {{"name":".d","times":{times},"values":[9,9,9,9],"type":"number"}},
            {{"name":".e","times":{times},"values":[true,false,true,true],"type":"bool"}}]}}"#
        );
        let doc = read(&text);
        let tracks = &doc.clips[0].tracks;
        let expected: Vec<u32> = [0.0f64, 0.1, 0.2, 0.30000001]
            .iter()
            .map(|&t| (((t as f32) as f64 * 0.1) as f32).to_bits())
            .collect();
        for j in [0, 1, 3, 4] {
            let bits: Vec<u32> = tracks[j].times.iter().map(|t| t.to_bits()).collect();
            assert_eq!(bits, expected, "track {j}");
        }
        assert_eq!(tracks[2].times, vec![0.0, 0.1]);
        assert_eq!(tracks[1].value_size(), 2);
        // The same document read leniently (every array parsed) is identical.
        let crate::formats::Linted {
            doc: lenient,
            problems,
            ..
        } = lint_bytes(text.as_bytes(), Path::new("t.json"), &Default::default());
        assert!(
            problems
                .iter()
                .all(|p| p.severity == crate::model::Severity::Warning)
        );
        assert_eq!(lenient.unwrap().clips, doc.clips);
    }

    #[test]
    fn spec_clip_json_example() {
        let doc = read(
            r#"{"name":"c","duration":3,"tracks":[{"name":".x","times":[0,2],"values":[0,1],"type":"number"},{"name":".p","times":[0.5,3],"values":[0,0,0,1,1,1],"type":"vector"}],"uuid":"0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9","blendMode":2500,"userData":"{}"}"#,
        );
        assert_eq!(doc.format, Format::ThreeJs);
        assert_eq!(doc.clips.len(), 1);
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "c");
        assert_eq!(clip.duration, 3.0);
        assert_eq!(
            clip.uuid.as_deref(),
            Some("0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9")
        );
        assert_eq!(clip.blend_mode, BlendMode::Normal);
        assert_eq!(clip.user_data, serde_json::json!({}));
        assert!(clip.extras.is_empty());
        let (x, p) = (&clip.tracks[0], &clip.tracks[1]);
        assert_eq!(
            (x.name.as_str(), x.kind, x.times.as_slice(), nums(x)),
            (".x", TrackKind::Number, &[0.0, 2.0][..], &[0.0, 1.0][..])
        );
        assert_eq!(p.kind, TrackKind::Vector);
        assert_eq!(p.times, [0.5, 3.0]);
        assert_eq!(p.value_size(), 3);
        assert_eq!(p.interpolation, Interpolation::Linear);
    }

    #[test]
    fn fps_scales_times_and_tangents_but_not_duration() {
        let doc = read(
            r#"{"duration":10,"fps":30,"tracks":[{"name":".x","type":"number","times":[0,30,60],"values":[0,1,2]}]}"#,
        );
        assert_eq!(doc.clips[0].duration, 10.0);
        assert_eq!(doc.clips[0].tracks[0].times, [0.0, 1.0, 2.0]);
        // Missing duration: reset from the scaled times; bit-exact f32 rounding of t * (1/fps).
        let doc = read(
            r#"{"fps":29,"tracks":[{"name":".x","type":"number","times":[1,7],"values":[0,1],"interpolation":2303,
                "settings":{"inTangents":[0.5,0,6,1],"outTangents":[2,0,8,1]}}]}"#,
        );
        let ft = 1.0 / 29.0f64;
        let s = |t: f32| ((t as f64) * ft) as f32;
        let track = &doc.clips[0].tracks[0];
        assert_eq!(track.times, [s(1.0), s(7.0)]);
        assert_eq!(doc.clips[0].duration, s(7.0) as f64);
        assert_eq!(track.interpolation, Interpolation::Bezier);
        let tan = track.tangents.as_ref().unwrap();
        assert_eq!(tan.in_tangents, [s(0.5), 0.0, s(6.0), 1.0]);
        assert_eq!(tan.out_tangents, [s(2.0), 0.0, s(8.0), 1.0]);
        // fps 0 counts as missing (`json.fps || 1`).
        let doc =
            read(r#"{"fps":0,"tracks":[{"name":".x","type":"number","times":[3],"values":[0]}]}"#);
        assert_eq!(doc.clips[0].tracks[0].times, [3.0]);
        // Negative durations are reset; text -> f64 -> f32 for times (no direct f32 parse).
        let doc = read(
            r#"{"duration":-1,"tracks":[{"name":".x","type":"number","times":[0.1],"values":[0]}]}"#,
        );
        assert_eq!(doc.clips[0].duration, 0.1f32 as f64);
    }

    #[test]
    fn extras_and_user_data_are_kept() {
        let doc = read(
            r#"{"zeta":1,"name":"n","tracks":[{"name":".x","custom":{"a":[1, 2]},"times":[0],"values":[0],"type":"number","settings":{"foo":1},"alpha":"x"}],
                "userData":"{\"k\":[1,2]}","blendMode":2501,"extra":null}"#,
        );
        let clip = &doc.clips[0];
        let keys: Vec<_> = clip
            .extras
            .0
            .iter()
            .map(|(k, v)| (k.as_str(), v.get()))
            .collect();
        assert_eq!(keys, [("zeta", "1"), ("extra", "null")]);
        assert_eq!(clip.user_data, serde_json::json!({"k": [1, 2]}));
        assert_eq!(clip.blend_mode, BlendMode::Additive);
        let t = &clip.tracks[0];
        let keys: Vec<_> = t
            .extras
            .0
            .iter()
            .map(|(k, v)| (k.as_str(), v.get()))
            .collect();
        assert_eq!(
            keys,
            [
                ("custom", r#"{"a":[1, 2]}"#),
                ("settings", r#"{"foo":1}"#),
                ("alpha", r#""x""#)
            ]
        );
        assert!(t.tangents.is_none());
        // userData as an object is accepted too.
        let doc = read(r#"{"tracks":[],"userData":{"a":1}}"#);
        assert_eq!(doc.clips[0].user_data, serde_json::json!({"a": 1}));
        assert_eq!(doc.clips[0].duration, 0.0);
    }
}
