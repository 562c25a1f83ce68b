//! Converting the [`schema`](super::schema) of a three.js file into model clips, exactly like
//! `AnimationClip.parse` / `KeyframeTrack` parsing in three.js r187 (spec §3, §5).
//!
//! Numbers are parsed from the raw text with `fast_float2` as `f64` and then rounded to `f32`,
//! the same `text -> f64 -> f32` path as `JSON.parse` followed by a `Float32Array`. Tracks are
//! converted in parallel for large files. In strict mode the first problem stops the read; in
//! lenient mode (for `validate`) problems are collected and the document is kept when possible.

use std::path::Path;

use std::collections::HashMap;
use std::sync::Mutex;

use serde::de::DeserializeSeed;
use serde_json::value::RawValue;

use super::schema::{
    ClipSchema, Field, FileSchema, FileSeed, Layout, SeedCtx, Sink, TrackJob, clip_raw, clip_tracks,
};
use crate::formats::document::Source;
use crate::formats::json::path::{field, index, syntax_error};
use crate::formats::json::{JsonKind, Key, RawFields, Shaped};
use crate::formats::{Document, Format, LoadProgress, ReadError, ReadErrorKind};
use crate::model::{
    BlendMode, Clip, Extras, Interpolation, Layers, Problem, Severity, Tangents, Track, TrackKind,
    Values,
};

/// Files larger than this convert their tracks on other threads while the scan goes on.
const PARALLEL_BYTES: usize = 256 * 1024;

/// One finding while converting, with where it is.
#[derive(Debug, Clone)]
pub(crate) struct Issue {
    /// The problem code (`parse`, `time-not-a-number`, …).
    code: &'static str,
    /// The JSON path of the culprit.
    path: String,
    /// What is wrong.
    reason: String,
    /// Index of the key the culprit belongs to, when known.
    key: Option<usize>,
}

impl Issue {
    /// A `parse` issue (three.js's parse would throw, or the value cannot be modelled).
    fn parse(path: impl Into<String>, reason: impl Into<String>) -> Issue {
        Issue::coded("parse", path, reason)
    }

    /// An issue with its own code.
    fn coded(code: &'static str, path: impl Into<String>, reason: impl Into<String>) -> Issue {
        Issue {
            code,
            path: path.into(),
            reason: reason.into(),
            key: None,
        }
    }

    /// The same issue located at `key`.
    fn at_key(mut self, key: usize) -> Issue {
        self.key = Some(key);
        self
    }

    /// As a `validate` problem (the message carries the JSON path).
    fn problem(&self, clip: usize, track: Option<usize>) -> Problem {
        let message = if self.path.is_empty() {
            self.reason.clone()
        } else {
            format!("{}: {}", self.path, self.reason)
        };
        let mut p = Problem::new(Severity::Error, self.code, message).in_clip(clip);
        p.track = track;
        p.key = self.key;
        p
    }
}

/// Strict (`read`) or lenient (`lint`) conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The first problem is an error.
    Strict,
    /// Problems are collected; what three.js would read is kept.
    Lenient,
}

/// Where converting one value leaves its non-fatal findings.
struct Ctx {
    /// Strict or lenient.
    mode: Mode,
    /// Non-fatal issues found so far (lenient mode only).
    issues: Vec<Issue>,
}

impl Ctx {
    /// Records a problem three.js lives with: an error in strict mode, a note in lenient mode.
    fn soft(&mut self, issue: Issue) -> Result<(), Issue> {
        match self.mode {
            Mode::Strict => Err(issue),
            Mode::Lenient => {
                self.issues.push(issue);
                Ok(())
            }
        }
    }
}

/// The converted track (or why not) and the findings, for the track `track` of the `tracks`
/// array at field position `array` of clip object `uid`.
struct TrackResult {
    /// Unique id of the clip object.
    uid: usize,
    /// Position of the `tracks` key among the clip's fields.
    array: usize,
    /// Index of the track in its clip.
    track: usize,
    /// The earlier track whose parsed times this one takes (its own were not parsed).
    shares_times_with: Option<usize>,
    /// The track, or the issue that stopped it.
    result: Result<Track, Issue>,
    /// Non-fatal issues (lenient mode).
    issues: Vec<Issue>,
}

/// Converts one scanned track.
fn run_job(job: TrackJob, mode: Mode) -> TrackResult {
    let mut ctx = Ctx {
        mode,
        issues: Vec::new(),
    };
    // Lenient reads parse every array, so each track gets its own findings.
    let shared = mode == Mode::Strict && job.shares_times_with.is_some();
    let result = match &job.fields {
        Shaped::Ok(fields) => convert_track(fields, &job.path, shared, &mut ctx),
        Shaped::Wrong(kind) => Err(Issue::parse(
            &job.path,
            format!("expected a track object, found {}", kind.describe()),
        )),
    };
    TrackResult {
        uid: job.uid,
        array: job.array,
        track: job.track,
        shares_times_with: job.shares_times_with.filter(|_| shared),
        result,
        issues: ctx.issues,
    }
}

/// Adds a result to the shared list.
fn push(results: &Mutex<Vec<TrackResult>>, result: TrackResult) {
    results
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(result);
}

/// Scans `bytes`, handing every track to `sink`.
fn scan<'de>(bytes: &'de [u8], sink: Sink<'_, 'de>) -> Result<FileSchema<'de>, serde_json::Error> {
    let ctx = SeedCtx::new(sink);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let schema = FileSeed { ctx: &ctx }.deserialize(&mut de)?;
    de.end()?;
    Ok(schema)
}

/// Scans `bytes` on one rayon worker while other workers convert the tracks already scanned.
fn scan_parallel<'de>(
    bytes: &'de [u8],
    mode: Mode,
    results: &Mutex<Vec<TrackResult>>,
    progress: Option<&LoadProgress>,
) -> Result<FileSchema<'de>, serde_json::Error> {
    rayon::scope(|scope| {
        let sink = |job: TrackJob<'de>| {
            if report(bytes, &job, progress) {
                scope.spawn(move |_| push(results, run_job(job, mode)))
            }
        };
        scan(bytes, &sink)
    })
}

/// Tells `progress` how far the scan got (the track's position in `bytes`); false when the
/// read was cancelled, so the track is not converted.
fn report(bytes: &[u8], job: &TrackJob, progress: Option<&LoadProgress>) -> bool {
    let Some(progress) = progress else {
        return true;
    };
    if let Shaped::Ok(fields) = &job.fields
        && let Some((_, raw)) = fields.0.last()
    {
        let offset = (raw.get().as_ptr() as usize).saturating_sub(bytes.as_ptr() as usize);
        progress.advance_to(offset);
    }
    !progress.is_cancelled()
}

/// Reads three.js JSON `bytes`. Strict mode returns an error for the first problem; lenient mode
/// returns the problems next to the document (and an error only when nothing is readable).
pub(crate) fn read(
    bytes: &[u8],
    file: &Path,
    mode: Mode,
    progress: Option<&LoadProgress>,
) -> Result<(Document, Vec<Problem>), ReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let err = |path: String, reason: String| ReadError::schema(file, path, reason);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::syntax(file, "", "file is empty"));
    }
    let results = Mutex::new(Vec::new());
    let scanned = if bytes.len() >= PARALLEL_BYTES {
        scan_parallel(bytes, mode, &results, progress)
    } else {
        scan(bytes, &|job| {
            if report(bytes, &job, progress) {
                push(&results, run_job(job, mode))
            }
        })
    };
    let schema = scanned.map_err(|e| {
        let (path, reason) = syntax_error(bytes, &e);
        ReadError::syntax(file, path, reason)
    })?;
    if progress.is_some_and(LoadProgress::is_cancelled) {
        return Err(ReadError::cancelled(file));
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());

    let no_clips = "no three.js animation clips found: expected a clip object with \"tracks\", \
                    an array of clips, or an object file with \"animations\"";
    let clip_list = |list, prefix| clip_list(list, prefix).map_err(|(p, r)| err(p, r));
    let mut mesh = None;
    let mut skeleton = None;
    let mut unread = Vec::new();
    let mut embedded_problems = Vec::new();
    let (layout, clips) = match &schema {
        FileSchema::Array(list) => (Layout::Array, clip_list(list, "")?),
        FileSchema::Other(kind) => {
            return Err(ReadError::new(
                ReadErrorKind::Unsupported,
                file,
                "",
                format!("{no_clips}, found {}", kind.describe()),
            ));
        }
        FileSchema::Object(fields) => {
            let animations = fields.iter().rev().find_map(|(_, v)| match v {
                Field::Animations(a) => Some(a),
                _ => None,
            });
            let has_tracks = fields.iter().any(|(_, v)| matches!(v, Field::Tracks(_)));
            let has = |name: &str| fields.iter().any(|(k, _)| k.0 == name);
            if let Some(animations) = animations {
                if has_tracks {
                    return Err(err(
                        String::new(),
                        "the top-level object has both \"tracks\" and \"animations\"; expected one clip or an object file"
                            .into(),
                    ));
                }
                // The morph mesh of an object file that had its geometry-level clips written
                // as `animations` (a problem in the geometries only costs the mesh here).
                mesh = super::geometry_clips::read(
                    clip_raw(fields, "geometries"),
                    clip_raw(fields, "object"),
                )
                .ok()
                .and_then(|found| found.mesh);
                skeleton = super::object_tree::skeleton(clip_raw(fields, "object"));
                unread = super::object_clips::beside_animations(clip_raw(fields, "object"));
                match animations {
                    Shaped::Ok(list) => (scene_layout(fields), clip_list(list, "animations")?),
                    Shaped::Wrong(kind) => {
                        return Err(err(
                            "animations".into(),
                            format!("expected an array of clips, found {}", kind.describe()),
                        ));
                    }
                }
            } else if has_tracks {
                (Layout::Clip, vec![(String::new(), 0, fields.as_slice())])
            } else if has("object") && has("metadata") {
                let found = super::geometry_clips::read(
                    clip_raw(fields, "geometries"),
                    clip_raw(fields, "object"),
                )
                .map_err(|l| l.in_file(file))?;
                mesh = found.mesh;
                skeleton = super::object_tree::skeleton(clip_raw(fields, "object"));
                let objects =
                    super::object_clips::read_object(clip_raw(fields, "object"), file, mode)?;
                let offset = found.clips.len();
                embedded_problems = objects.problems;
                for p in &mut embedded_problems {
                    p.clip = p.clip.map(|c| c + offset);
                }
                unread = objects.unread;
                let mut layout = scene_layout(fields);
                if let Layout::Scene {
                    geometry_clips,
                    object_clips,
                    ..
                } = &mut layout
                {
                    *geometry_clips = found.clips;
                    *object_clips = objects.clips;
                }
                (layout, Vec::new())
            } else {
                return Err(ReadError::new(
                    ReadErrorKind::Unsupported,
                    file,
                    "",
                    no_clips,
                ));
            }
        }
    };

    convert_clips(&clips, results, mode, file).map(|(mut clips, mut problems)| {
        if let Layout::Scene {
            geometry_clips,
            object_clips,
            ..
        } = &layout
        {
            let first = clips.len();
            clips.extend(geometry_clips.iter().cloned());
            clips.extend(object_clips.iter().cloned());
            problems.extend(embedded_problems.into_iter().map(|mut p| {
                p.clip = p.clip.map(|c| c + first);
                p
            }));
        }
        let doc = Document {
            path: Some(file.to_path_buf()),
            format: Format::ThreeJs,
            clips,
            skeleton,
            mesh: mesh.map(std::sync::Arc::new),
            unread,
            source: Source::new(layout),
        };
        (doc, problems)
    })
}

/// The clips of an array as `(path, uid, fields)`, or the path and reason of a non-object.
type ClipRef<'a, 'de> = (String, usize, &'a [(Key<'de>, Field<'de>)]);

/// Lists the clip objects of `list`, whose paths start with `prefix`.
fn clip_list<'a, 'de>(
    list: &'a [Shaped<ClipSchema<'de>>],
    prefix: &str,
) -> Result<Vec<ClipRef<'a, 'de>>, (String, String)> {
    let mut clips = Vec::with_capacity(list.len());
    for (i, clip) in list.iter().enumerate() {
        match clip {
            Shaped::Ok(c) => clips.push((index(prefix, i), c.uid, c.fields.as_slice())),
            Shaped::Wrong(kind) => {
                return Err((
                    index(prefix, i),
                    format!("expected a clip object, found {}", kind.describe()),
                ));
            }
        }
    }
    Ok(clips)
}

/// The layout of an object file: every field but `animations`, and where `animations` was.
fn scene_layout(fields: &[(Key, Field)]) -> Layout {
    let mut kept: Vec<(String, Box<RawValue>)> = Vec::new();
    let mut animations_at = None;
    for (k, v) in fields {
        match v {
            Field::Raw(raw) => {
                let key = k.0.to_string();
                if let Some(slot) = kept.iter_mut().find(|(name, _)| *name == key) {
                    slot.1 = (*raw).to_owned();
                } else {
                    kept.push((key, (*raw).to_owned()));
                }
            }
            Field::Animations(_) => {
                if animations_at.is_none() {
                    animations_at = Some(kept.len());
                }
            }
            Field::Tracks(_) => {}
        }
    }
    Layout::Scene {
        fields: kept,
        animations_at,
        geometry_clips: Vec::new(),
        object_clips: Vec::new(),
    }
}

/// The clip-level fields of one clip, before its tracks are converted.
struct ClipHead {
    /// The clip being built (tracks still empty).
    clip: Clip,
    /// Whether `duration` was missing or negative (recomputed from the tracks).
    reset: bool,
    /// `1 / (fps || 1)`.
    frame_time: f64,
}

/// Assembles every clip from its head fields and its converted tracks, in file order.
fn convert_clips(
    clips: &[ClipRef],
    results: Vec<TrackResult>,
    mode: Mode,
    file: &Path,
) -> Result<(Vec<Clip>, Vec<Problem>), ReadError> {
    let mut by_array: HashMap<(usize, usize), Vec<TrackResult>> = HashMap::new();
    for r in results {
        by_array.entry((r.uid, r.array)).or_default().push(r);
    }
    let mut problems = Vec::new();
    let mut out = Vec::with_capacity(clips.len());
    let fail = |issue: Issue| ReadError::schema(file, issue.path, issue.reason);
    for (c, (path, uid, schema)) in clips.iter().enumerate() {
        let mut ctx = Ctx {
            mode,
            issues: Vec::new(),
        };
        let mut head = convert_head(schema, path, &mut ctx).map_err(fail)?;
        problems.extend(ctx.issues.iter().map(|i| i.problem(c, None)));
        let mut tracks = Vec::new();
        match clip_tracks(schema) {
            Some((array, Shaped::Ok(_))) => {
                tracks = by_array.remove(&(*uid, array)).unwrap_or_default()
            }
            Some((_, Shaped::Wrong(kind))) => {
                let issue = Issue::parse(
                    field(path, "tracks"),
                    format!("expected an array of tracks, found {}", kind.describe()),
                );
                clip_failure(mode, issue, c, &mut problems).map_err(fail)?;
            }
            None => {
                let reason = if clip_raw(schema, "hierarchy").is_some() {
                    "legacy animation with \"hierarchy\" among clips with \"tracks\" (a file holds \
                     one kind or the other); expected \"tracks\""
                } else {
                    "missing \"tracks\""
                };
                clip_failure(mode, Issue::parse(path, reason), c, &mut problems).map_err(fail)?;
            }
        }
        tracks.sort_by_key(|r| r.track);
        share_times(&mut tracks);
        let in_file = tracks.len();
        // Position in the file of each track that made it into the clip.
        let mut file_index = Vec::with_capacity(in_file);
        for r in tracks {
            problems.extend(r.issues.iter().map(|i| i.problem(c, Some(r.track))));
            match r.result {
                Ok(mut track) => {
                    scale_times(&mut track, head.frame_time);
                    head.clip.tracks.push(track);
                    file_index.push(r.track);
                }
                Err(issue) => match mode {
                    Mode::Strict => return Err(fail(issue)),
                    Mode::Lenient => problems.push(issue.problem(c, Some(r.track))),
                },
            }
        }
        if head.reset {
            head.clip.reset_duration();
        }
        if mode == Mode::Lenient {
            validate_clip(&head.clip, c, &file_index, in_file, &mut problems);
        }
        out.push(head.clip);
    }
    Ok((out, problems))
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

/// The number of elements of a JSON array of numbers (commas plus one), without parsing them.
fn count_elements(raw: &RawValue) -> usize {
    let text = raw.get().as_bytes();
    let inner = text
        .iter()
        .filter(|b| !matches!(b, b'[' | b']' | b' ' | b'\n' | b'\r' | b'\t'))
        .take(1)
        .count();
    if inner == 0 {
        0
    } else {
        text.iter().filter(|&&b| b == b',').count() + 1
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
    let mut user_data = match clip_raw(schema, "userData") {
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
    };
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
            layers,
            extras,
        },
        reset,
        frame_time,
    })
}

/// `{}`.
fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

/// Adds `key: raw` to `extras`; a repeated key keeps its first position and its last value.
fn push_extra(extras: &mut Extras, key: &str, raw: &RawValue) {
    if let Some(slot) = extras.0.iter_mut().find(|(k, _)| k == key) {
        slot.1 = raw.to_owned();
    } else {
        extras.0.push((key.to_string(), raw.to_owned()));
    }
}

/// "expected X, found Y" at `path`.
fn wrong(path: &str, expected: &str, raw: &RawValue) -> Issue {
    Issue::parse(
        path,
        format!(
            "expected {expected}, found {}",
            JsonKind::of(raw).describe()
        ),
    )
}

/// "number T is out of range for a N-bit float" at `path`.
fn out_of_range(path: &str, text: &str, bits: &str) -> Issue {
    Issue::coded(
        "number-out-of-range",
        path,
        format!("number {} is out of range for {bits} float", text.trim()),
    )
}

/// The string in `raw`, or `None` when it is not a string.
fn string_of(raw: &RawValue) -> Option<String> {
    if JsonKind::of(raw) != JsonKind::String {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// The number in `raw` (which holds a JSON number) as an `f64`; overflow gives ±Infinity.
fn number_f64(raw: &RawValue) -> f64 {
    let text = raw.get().trim().as_bytes();
    match parse_json_number(text) {
        Ok((v, n)) if n == text.len() => v,
        _ => f64::NAN,
    }
}

/// Converts one track (`parseKeyframeTrack` followed by `scale(frameTime)`).
fn convert_track(
    fields: &RawFields,
    path: &str,
    shares_times: bool,
    ctx: &mut Ctx,
) -> Result<Track, Issue> {
    let name = match fields.get("name") {
        None => return Err(Issue::parse(path, "track name is undefined")),
        Some(raw) => string_of(raw).ok_or_else(|| wrong(&field(path, "name"), "a string", raw))?,
    };
    let kind = match fields.get("type") {
        None => return Err(Issue::parse(path, "track type undefined, can not parse")),
        Some(raw) => {
            let type_name =
                string_of(raw).ok_or_else(|| wrong(&field(path, "type"), "a string", raw))?;
            TrackKind::from_type_name(&type_name).ok_or_else(|| {
                Issue::parse(
                    field(path, "type"),
                    format!("unsupported track type '{type_name}'"),
                )
            })?
        }
    };

    let times_raw = fields.get("times");
    let (times, values, used_keys) = match times_raw {
        Some(raw) => {
            let times = if shares_times {
                // Filled in from the earlier track with the same text once both are converted.
                vec![0.0; count_elements(raw)]
            } else {
                numbers(raw, &field(path, "times"), ctx, "time-not-a-number")?
            };
            let values_path = field(path, "values");
            let first_value_issue = ctx.issues.len();
            let values = match fields.get("values") {
                None => {
                    return Err(Issue::parse(
                        path,
                        format!("missing \"values\" in track named {name}"),
                    ));
                }
                Some(raw) => match kind {
                    TrackKind::Bool => Values::Bools(bools(raw, &values_path)?),
                    TrackKind::String => Values::Strings(strings(raw, &values_path)?),
                    _ => Values::Numbers(numbers(raw, &values_path, ctx, "value-not-a-number")?),
                },
            };
            // Element indices of value issues become key indices.
            if !times.is_empty() && values.len() % times.len() == 0 {
                let value_size = (values.len() / times.len()).max(1);
                for issue in &mut ctx.issues[first_value_issue..] {
                    issue.key = issue.key.map(|elem| elem / value_size);
                }
            }
            (times, values, false)
        }
        None => match fields.get("keys") {
            None => {
                return Err(Issue::parse(
                    path,
                    format!("track named {name} has neither \"times\" nor \"keys\""),
                ));
            }
            Some(raw) => {
                let (t, v) = flatten_keys(raw, &field(path, "keys"), kind, ctx)?;
                (t, v, true)
            }
        },
    };
    if times.is_empty() {
        let at = if used_keys { "keys" } else { "times" };
        return Err(Issue::parse(
            field(path, at),
            format!("no keyframes in track named {name}"),
        ));
    }
    if values.len() % times.len() != 0 {
        let at = if used_keys { "keys" } else { "values" };
        return Err(Issue::coded(
            "invalid-value-size",
            field(path, at),
            format!(
                "{} values for {} keys is not a whole number per key",
                values.len(),
                times.len()
            ),
        ));
    }
    let value_size = values.len() / times.len();

    let interpolation = if kind.is_numeric() {
        match fields.get("interpolation") {
            None => kind.default_interpolation(),
            Some(raw) => match JsonKind::of(raw) {
                JsonKind::Number => {
                    Track::resolve_interpolation(kind, Interpolation::from_code(number_f64(raw)))
                }
                JsonKind::Null => kind.default_interpolation(),
                _ => {
                    ctx.soft(wrong(&field(path, "interpolation"), "a number", raw))?;
                    kind.default_interpolation()
                }
            },
        }
    } else {
        // Boolean and string track constructors take no interpolation argument.
        kind.default_interpolation()
    };

    let mut tangents = None;
    if let Some(raw) = fields.get("settings") {
        let settings_path = field(path, "settings");
        let settings: Shaped<RawFields> = serde_json::from_str(raw.get())
            .map_err(|e| Issue::parse(&settings_path, format!("invalid JSON: {e}")))?;
        let settings = match settings {
            Shaped::Ok(s) => s,
            Shaped::Wrong(kind) => {
                return Err(Issue::parse(
                    settings_path,
                    format!("expected an object, found {}", kind.describe()),
                ));
            }
        };
        if let (Some(i), Some(o)) = (settings.get("inTangents"), settings.get("outTangents")) {
            let expected = values.len() * 2;
            let mut arrays = [Vec::new(), Vec::new()];
            for (slot, (name, raw)) in arrays
                .iter_mut()
                .zip([("inTangents", i), ("outTangents", o)])
            {
                let p = field(&settings_path, name);
                let first_issue = ctx.issues.len();
                let v = numbers(raw, &p, ctx, "tangent-not-a-number")?;
                for issue in &mut ctx.issues[first_issue..] {
                    issue.key = issue.key.map(|elem| elem / (2 * value_size).max(1));
                }
                if v.len() != expected {
                    return Err(Issue::coded(
                        "invalid-tangent-size",
                        p,
                        format!(
                            "{} numbers for {} values; expected 2 per value (a time and a value), {expected} in all",
                            v.len(),
                            values.len()
                        ),
                    ));
                }
                *slot = v;
            }
            let [in_tangents, out_tangents] = arrays;
            tangents = Some(Tangents {
                in_tangents,
                out_tangents,
                modes: Vec::new(),
            });
        }
    }

    let mut extras = Extras::default();
    for (k, raw) in &fields.0 {
        let known = match &*k.0 {
            "name" | "type" | "times" | "values" | "interpolation" => true,
            "keys" => used_keys,
            "settings" => tangents.is_some(),
            _ => false,
        };
        if !known {
            push_extra(&mut extras, &k.0, raw);
        }
    }

    Ok(Track {
        name,
        kind,
        times,
        values,
        interpolation,
        tangents,
        extras,
        muted: false,
    })
}

/// Skips JSON whitespace from `i`.
#[inline]
fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = s.get(i) {
        i += 1;
    }
    i
}

/// Parses a JSON array of numbers (`text -> f64 -> f32`). Non-numbers are errors in strict mode
/// and three.js's `Float32Array` coercion (usually NaN) plus a `nan_code` issue in lenient mode.
fn numbers(
    raw: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
) -> Result<Vec<f32>, Issue> {
    let s = raw.get().as_bytes();
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'[') {
        return Err(wrong(path, "an array of numbers", raw));
    }
    let mut out = Vec::with_capacity(s.len() / 6 + 1);
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b']') {
        return Ok(out);
    }
    loop {
        match s.get(i) {
            Some(b'-' | b'0'..=b'9') => match parse_json_number(&s[i..]) {
                Ok((v, n)) => {
                    let f = v as f32;
                    if f.is_infinite() {
                        let text = String::from_utf8_lossy(&s[i..i + n]);
                        let issue = out_of_range(&index(path, out.len()), &text, "a 32-bit");
                        ctx.soft(issue.at_key(out.len()))?;
                    }
                    out.push(f);
                    i += n;
                }
                Err(_) => return numbers_slow(raw, path, ctx, nan_code),
            },
            _ => return numbers_slow(raw, path, ctx, nan_code),
        }
        i = skip_ws(s, i);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b']') => return Ok(out),
            _ => return numbers_slow(raw, path, ctx, nan_code),
        }
    }
}

/// Exact powers of ten for the fast path (all representable in an `f64`).
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Parses the JSON number at the start of `s` (which must start with `-` or a digit) as a
/// correctly rounded `f64`, returning it and its length. Plain decimals with at most 15
/// significant digits and no exponent take a fast path: the digits form an exact integer and
/// one correctly rounded division by an exact power of ten gives the correctly rounded result
/// (Clinger's fast path). Everything else goes to `fast_float2`.
#[inline(always)]
fn parse_json_number(s: &[u8]) -> Result<(f64, usize), fast_float2::Error> {
    let negative = s.first() == Some(&b'-');
    let mut i = usize::from(negative);
    let mut mantissa = 0u64;
    let mut digits = 0usize;
    while let Some(&d @ b'0'..=b'9') = s.get(i) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
        digits += 1;
        i += 1;
    }
    let mut frac = 0usize;
    if s.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&d @ b'0'..=b'9') = s.get(i) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add((d - b'0') as u64);
            frac += 1;
            i += 1;
        }
    }
    if digits == 0
        || digits + frac > 15
        || frac == 0 && s.get(i - 1) == Some(&b'.')
        || matches!(s.get(i), Some(b'e' | b'E'))
    {
        return parse_json_number_slow(s);
    }
    let v = mantissa as f64 / POW10[frac];
    Ok((if negative { -v } else { v }, i))
}

/// Numbers off the fast path (exponents, more than 15 digits): `fast_float2`. Kept out of line
/// so the fast path inlines into the array loop.
#[cold]
#[inline(never)]
fn parse_json_number_slow(s: &[u8]) -> Result<(f64, usize), fast_float2::Error> {
    fast_float2::parse_partial::<f64, _>(s)
}

/// Element-by-element version of [`numbers`] for arrays that hold something other than numbers.
fn numbers_slow(
    raw: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
) -> Result<Vec<f32>, Issue> {
    let elems: Vec<&RawValue> =
        serde_json::from_str(raw.get()).map_err(|_| wrong(path, "an array of numbers", raw))?;
    let mut out = Vec::with_capacity(elems.len());
    for (k, elem) in elems.iter().enumerate() {
        let p = index(path, k);
        out.push(number_elem(elem, &p, ctx, nan_code, k)?);
    }
    Ok(out)
}

/// One element that should be a number: the `f32`, or (lenient) three.js's coercion of it.
/// `key` is the element index, later turned into a key index by the caller.
fn number_elem(
    elem: &RawValue,
    path: &str,
    ctx: &mut Ctx,
    nan_code: &'static str,
    key: usize,
) -> Result<f32, Issue> {
    let kind = JsonKind::of(elem);
    if kind == JsonKind::Number {
        let f = number_f64(elem) as f32;
        if f.is_infinite() {
            ctx.soft(out_of_range(path, elem.get(), "a 32-bit").at_key(key))?;
        }
        return Ok(f);
    }
    // What `new Float32Array([x])` stores for a non-number x.
    let (coerced, note) = match kind {
        JsonKind::Null => (0.0, " (three.js stores 0)"),
        JsonKind::Bool => (
            if elem.get().trim() == "true" {
                1.0
            } else {
                0.0
            },
            "",
        ),
        JsonKind::String => {
            let s = string_of(elem).unwrap_or_default();
            let t = s.trim();
            let v = if t.is_empty() {
                0.0
            } else {
                fast_float2::parse::<f64, _>(t).unwrap_or(f64::NAN)
            };
            (v as f32, "")
        }
        _ => (f32::NAN, ""),
    };
    let reason = format!("{} is not a number{note}", kind.describe());
    ctx.soft(Issue::coded(nan_code, path, reason).at_key(key))?;
    Ok(coerced)
}

/// A JSON array of booleans (a `BooleanKeyframeTrack`'s values).
fn bools(raw: &RawValue, path: &str) -> Result<Vec<bool>, Issue> {
    let elems: Vec<&RawValue> = elements(raw, path, "an array of booleans")?;
    elems
        .iter()
        .enumerate()
        .map(|(k, e)| match e.get().trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(wrong(&index(path, k), "true or false", e)),
        })
        .collect()
}

/// A JSON array of strings (a `StringKeyframeTrack`'s values).
fn strings(raw: &RawValue, path: &str) -> Result<Vec<String>, Issue> {
    let elems: Vec<&RawValue> = elements(raw, path, "an array of strings")?;
    elems
        .iter()
        .enumerate()
        .map(|(k, e)| string_of(e).ok_or_else(|| wrong(&index(path, k), "a string", e)))
        .collect()
}

/// The elements of a JSON array, or "expected {what}" at `path`.
fn elements<'a>(raw: &'a RawValue, path: &str, what: &str) -> Result<Vec<&'a RawValue>, Issue> {
    if JsonKind::of(raw) != JsonKind::Array {
        return Err(wrong(path, what, raw));
    }
    serde_json::from_str(raw.get()).map_err(|_| wrong(path, what, raw))
}

/// How the first defined key value of a legacy `keys` list is laid out (three.js `flattenJSON`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum KeyMode {
    /// Arrays, spread into the values.
    Array,
    /// `{x, y, z, w}` objects, taken in that order (like `Vector3.toArray`).
    Vector,
    /// Single values.
    Scalar,
}

/// three.js `flattenJSON(keys, times, values, 'value')` on a legacy `keys: [{time, value}]` list.
fn flatten_keys(
    raw: &RawValue,
    path: &str,
    kind: TrackKind,
    ctx: &mut Ctx,
) -> Result<(Vec<f32>, Values), Issue> {
    let elems = elements(raw, path, "an array of keys")?;
    let mut keys = Vec::with_capacity(elems.len());
    for (k, elem) in elems.iter().enumerate() {
        let fields: Shaped<RawFields> = serde_json::from_str(elem.get())
            .map_err(|e| Issue::parse(index(path, k), format!("invalid JSON: {e}")))?;
        match fields {
            Shaped::Ok(f) => keys.push(f),
            Shaped::Wrong(kind) => {
                return Err(Issue::parse(
                    index(path, k),
                    format!("expected a key object, found {}", kind.describe()),
                ));
            }
        }
    }
    let mut times = Vec::with_capacity(keys.len());
    let mut values = match kind {
        TrackKind::Bool => Values::Bools(Vec::new()),
        TrackKind::String => Values::Strings(Vec::new()),
        _ => Values::Numbers(Vec::with_capacity(keys.len() * 4)),
    };
    let mut mode = None;
    for (k, key) in keys.iter().enumerate() {
        let key_path = index(path, k);
        // Keys without a value are skipped, their time too (leading ones pick no mode).
        let Some(value) = key.get("value") else {
            continue;
        };
        let value_path = field(&key_path, "value");
        let this_mode = match JsonKind::of(value) {
            JsonKind::Array => KeyMode::Array,
            JsonKind::Object => KeyMode::Vector,
            _ => KeyMode::Scalar,
        };
        let mode = *mode.get_or_insert(this_mode);
        if mode != this_mode {
            return Err(Issue::parse(
                value_path,
                format!(
                    "expected {} like the first key's value, found {}",
                    match mode {
                        KeyMode::Array => "an array",
                        KeyMode::Vector => "an {x, y, z} object",
                        KeyMode::Scalar => "a single value",
                    },
                    JsonKind::of(value).describe()
                ),
            ));
        }
        let time_path = field(&key_path, "time");
        let time = match key.get("time") {
            Some(t) => number_elem(t, &time_path, ctx, "time-not-a-number", times.len())?,
            None => {
                ctx.soft(
                    Issue::coded("time-not-a-number", &time_path, "missing time")
                        .at_key(times.len()),
                )?;
                f32::NAN
            }
        };
        times.push(time);
        let key_index = times.len() - 1;
        let parts: Vec<(String, &RawValue)> = match mode {
            KeyMode::Scalar => vec![(value_path, value)],
            KeyMode::Array => elements(value, &value_path, "an array")?
                .into_iter()
                .enumerate()
                .map(|(j, e)| (index(&value_path, j), e))
                .collect(),
            KeyMode::Vector => {
                let obj: Shaped<RawFields> = serde_json::from_str(value.get())
                    .map_err(|e| Issue::parse(&value_path, format!("invalid JSON: {e}")))?;
                let Shaped::Ok(obj) = obj else {
                    return Err(wrong(&value_path, "an object", value));
                };
                let mut parts = Vec::new();
                for axis in ["x", "y", "z", "w"] {
                    match obj.get(axis) {
                        Some(v) => parts.push((field(&value_path, axis), v)),
                        None if axis == "x" || axis == "y" => {
                            return Err(Issue::parse(
                                &value_path,
                                "expected an array or an {x, y, z} object with x and y",
                            ));
                        }
                        None => {}
                    }
                }
                parts
            }
        };
        for (p, part) in parts {
            match &mut values {
                Values::Numbers(v) => {
                    v.push(number_elem(part, &p, ctx, "value-not-a-number", key_index)?)
                }
                Values::Bools(v) => match part.get().trim() {
                    "true" => v.push(true),
                    "false" => v.push(false),
                    _ => return Err(wrong(&p, "true or false", part)),
                },
                Values::Strings(v) => {
                    v.push(string_of(part).ok_or_else(|| wrong(&p, "a string", part))?)
                }
            }
        }
    }
    Ok((times, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{lint_bytes, read_bytes};
    use crate::model::Severity;

    fn read(text: &str) -> Document {
        read_bytes(text.as_bytes(), Path::new("t.json")).unwrap_or_else(|e| panic!("{e}"))
    }

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
    fn errors_in_repeated_times_name_the_first_track_with_them() {
        let text = r#"{"name":"c","tracks":[
            {"name":".a","times":[0,"x"],"values":[0,1],"type":"number"},
            {"name":".b","times":[0,"x"],"values":[0,1],"type":"number"}]}"#;
        let e = error(text);
        assert!(e.contains("tracks[0].times[1]"), "{e}");
        let text = r#"{"name":"c","tracks":[
            {"name":".a","times":[0,1],"values":[0,1],"type":"number"},
            {"name":".b","times":[0,1],"values":[0,1,2],"type":"number"}]}"#;
        let e = error(text);
        assert!(
            e.contains("tracks[1].values") && e.contains("3 values for 2 keys"),
            "{e}"
        );
    }

    fn error(text: &str) -> String {
        match read_bytes(text.as_bytes(), Path::new("t.json")) {
            Ok(_) => panic!("read {text} without error"),
            Err(e) => e.to_string(),
        }
    }

    fn nums(track: &Track) -> &[f32] {
        track.values.as_numbers().unwrap()
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
    fn spec_keys_vector3_example() {
        let doc = read(
            r#"{"tracks":[{"type":"vector3","name":".p","keys":[{"time":0,"value":[1,2,3]},{"time":1,"value":[4,5,6]}]}]}"#,
        );
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "");
        assert_eq!(clip.duration, 1.0);
        assert_eq!(clip.uuid, None);
        assert_eq!(clip.blend_mode, BlendMode::Normal);
        let t = &clip.tracks[0];
        assert_eq!(t.kind, TrackKind::Vector);
        assert_eq!(t.times, [0.0, 1.0]);
        assert_eq!(nums(t), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert!(t.extras.is_empty(), "keys are consumed");
    }

    #[test]
    fn flatten_json_rules() {
        // Leading keys without value are skipped; scalars keep 0; later keys without value are
        // skipped together with their time; null counts as a value (three.js stores 0).
        let doc = read(
            r#"{"tracks":[{"type":"number","name":".a","keys":[{"time":0},{"time":1,"value":0},{"time":2},{"time":3,"value":5}]},
                {"type":"vector","name":".v","keys":[{"time":0,"value":{"x":1,"y":2,"z":3}},{"time":1,"value":{"x":4,"y":5,"z":6}}]},
                {"type":"bool","name":".b","keys":[{"time":0,"value":true},{"time":1,"value":false}]},
                {"type":"string","name":".s","keys":[{"time":0,"value":"a"}]}]}"#,
        );
        let t = &doc.clips[0].tracks;
        assert_eq!(t[0].times, [1.0, 3.0]);
        assert_eq!(nums(&t[0]), [0.0, 5.0]);
        assert_eq!(nums(&t[1]), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(t[2].values, Values::Bools(vec![true, false]));
        assert_eq!(t[3].values, Values::Strings(vec!["a".into()]));
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
    fn text_goes_through_f64_before_f32() {
        // 1.00000005960464477539062500001 is just above the f32 midpoint between 1 and
        // 1+2^-23; as f64 it rounds to the midpoint exactly, which then ties to even (1.0).
        let doc = read(
            r#"[{"tracks":[{"name":".x","type":"number","times":[0],"values":[1.00000005960464477539062500001]}]}]"#,
        );
        assert_eq!(nums(&doc.clips[0].tracks[0])[0].to_bits(), 1.0f32.to_bits());
        let doc = read(
            r#"[{"tracks":[{"name":".x","type":"number","times":[0],"values":[-0, 3.4028235e38]}]}]"#,
        );
        let v = nums(&doc.clips[0].tracks[0]);
        assert_eq!(v[0].to_bits(), (-0.0f32).to_bits());
        assert_eq!(v[1], f32::MAX);
    }

    #[test]
    fn interpolation_is_resolved_like_the_constructors() {
        let doc = read(
            r#"[{"tracks":[
                {"name":"a","type":"number","times":[0],"values":[0],"interpolation":2302},
                {"name":"b","type":"quaternion","times":[0],"values":[0,0,0,1],"interpolation":2302},
                {"name":"c","type":"number","times":[0],"values":[0],"interpolation":9999},
                {"name":"d","type":"bool","times":[0],"values":[true],"interpolation":2301},
                {"name":"e","type":"String","times":[0],"values":["x"],"interpolation":"weird"},
                {"name":"f","type":"scalar","times":[0],"values":[0],"interpolation":0}]}]"#,
        );
        let modes: Vec<_> = doc.clips[0]
            .tracks
            .iter()
            .map(|t| t.interpolation)
            .collect();
        use Interpolation::*;
        assert_eq!(modes, [Smooth, Linear, Linear, Discrete, Discrete, Linear]);
        assert!(doc.clips[0].tracks.iter().all(|t| t.extras.is_empty()));
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

    #[test]
    fn error_messages_name_file_path_and_reason() {
        let t = |tracks: &str| format!(r#"{{"name":"c","tracks":[{tracks}]}}"#);
        let ok = r#"{"name":".ok","type":"number","times":[0],"values":[0]}"#;
        let cases: Vec<(String, &str)> = vec![
            ("".into(), "t.json: file is empty"),
            ("  \n".into(), "t.json: file is empty"),
            (
                r#"{"tracks":[{"name":".x","type":"number","times":[0,1"#.into(),
                "t.json: tracks[0].times[1]: truncated JSON: EOF while parsing a list at line 1 column 52",
            ),
            (r#"{"tracks":[}"#.into(), "t.json: tracks[0]: invalid JSON: expected value at line 1 column 12"),
            ("42".into(), "t.json: no three.js animation clips found: expected a clip object with \"tracks\", an array of clips, or an object file with \"animations\", found a number"),
            (r#"{"metadata":{}}"#.into(), "t.json: no three.js animation clips found: expected a clip object with \"tracks\", an array of clips, or an object file with \"animations\""),
            (r#"{"tracks":5}"#.into(), "t.json: tracks: expected an array of tracks, found a number"),
            (r#"[{"tracks":[]},7]"#.into(), "t.json: [1]: expected a clip object, found a number"),
            (r#"{"animations":{}}"#.into(), "t.json: animations: expected an array of clips, found an object"),
            (r#"{"animations":[{"name":"x"}]}"#.into(), "t.json: animations[0]: missing \"tracks\""),
            (r#"{"animations":[{"tracks":[]},{"hierarchy":[]}]}"#.into(), "t.json: animations[1]: legacy animation with \"hierarchy\" among clips with \"tracks\" (a file holds one kind or the other); expected \"tracks\""),
            (t(&format!("{ok},[]")), "t.json: tracks[1]: expected a track object, found an array"),
            (t(r#"{"type":"number","times":[0],"values":[0]}"#), "t.json: tracks[0]: track name is undefined"),
            (t(r#"{"name":".x","times":[0],"values":[0]}"#), "t.json: tracks[0]: track type undefined, can not parse"),
            (t(r#"{"name":".x","type":"matrix","times":[0],"values":[0]}"#), "t.json: tracks[0].type: unsupported track type 'matrix'"),
            (t(r#"{"name":".x","type":7,"times":[0],"values":[0]}"#), "t.json: tracks[0].type: expected a string, found a number"),
            (t(r#"{"name":3,"type":"number","times":[0],"values":[0]}"#), "t.json: tracks[0].name: expected a string, found a number"),
            (t(r#"{"name":".x","type":"number","times":[],"values":[]}"#), "t.json: tracks[0].times: no keyframes in track named .x"),
            (t(r#"{"name":".x","type":"number","keys":[{"time":0}]}"#), "t.json: tracks[0].keys: no keyframes in track named .x"),
            (t(r#"{"name":".x","type":"number","values":[1]}"#), "t.json: tracks[0]: track named .x has neither \"times\" nor \"keys\""),
            (t(r#"{"name":".x","type":"number","times":[0]}"#), "t.json: tracks[0]: missing \"values\" in track named .x"),
            (t(r#"{"name":".x","type":"vector","times":[0,1,2],"values":[1,2,3,4,5,6,7]}"#), "t.json: tracks[0].values: 7 values for 3 keys is not a whole number per key"),
            (t(&format!(r#"{ok},{ok},{ok},{{"name":".x","type":"number","times":[0,1,2,3,4,5,6,"7"],"values":[0,0,0,0,0,0,0,0]}}"#)), "t.json: tracks[3].times[7]: a string is not a number"),
            (t(r#"{"name":".x","type":"number","times":[0,1],"values":[0,null]}"#), "t.json: tracks[0].values[1]: null is not a number (three.js stores 0)"),
            (t(r#"{"name":".x","type":"number","times":[0,1],"values":[0,[1]]}"#), "t.json: tracks[0].values[1]: an array is not a number"),
            (t(r#"{"name":".x","type":"number","times":{},"values":[0]}"#), "t.json: tracks[0].times: expected an array of numbers, found an object"),
            (t(r#"{"name":".x","type":"number","times":[0],"values":[1e39]}"#), "t.json: tracks[0].values[0]: number 1e39 is out of range for a 32-bit float"),
            (t(r#"{"name":".x","type":"number","times":[1e400],"values":[1]}"#), "t.json: tracks[0].times[0]: number 1e400 is out of range for a 32-bit float"),
            (t(r#"{"name":".x","type":"bool","times":[0],"values":[1]}"#), "t.json: tracks[0].values[0]: expected true or false, found a number"),
            (t(r#"{"name":".x","type":"string","times":[0],"values":[1]}"#), "t.json: tracks[0].values[0]: expected a string, found a number"),
            (t(r#"{"name":".x","type":"number","keys":[{"time":0,"value":[1]},{"time":1,"value":2}]}"#), "t.json: tracks[0].keys[1].value: expected an array like the first key's value, found a number"),
            (t(r#"{"name":".x","type":"number","keys":[{"value":1}]}"#), "t.json: tracks[0].keys[0].time: missing time"),
            (t(r#"{"name":".x","type":"number","keys":[null]}"#), "t.json: tracks[0].keys[0]: expected a key object, found null"),
            (t(r#"{"name":".x","type":"number","times":[0],"values":[0],"interpolation":"smooth"}"#), "t.json: tracks[0].interpolation: expected a number, found a string"),
            (t(r#"{"name":".x","type":"number","times":[0],"values":[0],"settings":{"inTangents":[0,0],"outTangents":[0]}}"#), "t.json: tracks[0].settings.outTangents: 1 numbers for 1 values; expected 2 per value (a time and a value), 2 in all"),
            (t(r#"{"name":".x","type":"number","times":[0],"values":[0],"settings":null}"#), "t.json: tracks[0].settings: expected an object, found null"),
            (r#"{"tracks":[],"blendMode":2502}"#.into(), "t.json: blendMode: unknown blendMode 2502 (expected 2500 or 2501)"),
            (r#"{"tracks":[],"userData":"{oops"}"#.into(), "t.json: userData: userData is not valid JSON: key must be a string at line 1 column 2"),
            (r#"{"tracks":[],"duration":"1"}"#.into(), "t.json: duration: expected a number, found a string"),
            (r#"{"tracks":[],"duration":1e400}"#.into(), "t.json: duration: number 1e400 is out of range for a 64-bit float"),
            (r#"{"tracks":[],"fps":"30"}"#.into(), "t.json: fps: expected a number, found a string"),
            (r#"{"tracks":[],"uuid":5}"#.into(), "t.json: uuid: expected a string, found a number"),
            (r#"{"tracks":[],"animations":[]}"#.into(), "t.json: the top-level object has both \"tracks\" and \"animations\"; expected one clip or an object file"),
            (r#"{"animations":[{"tracks":[{"name":".x","type":"number","times":[0,1],"values":[0,1,2,3,4]}]}]}"#.into(), "t.json: animations[0].tracks[0].values: 5 values for 2 keys is not a whole number per key"),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "for {text}");
        }
    }

    #[test]
    fn lint_reports_and_keeps_what_three_js_keeps() {
        let text = r#"{"name":"c","tracks":[
            {"name":".a","type":"number","times":[0,"x",2],"values":[0,1,null]},
            {"name":".b","type":"vector","times":[0,1,2],"values":[1,2,3,4,5,6,7]},
            {"name":".c","times":[0],"values":[0]},
            {"name":".d","type":"vector","times":[0,1],"values":[0,0,0,1,true,1]},
            {"name":".e","type":"number","times":[0],"values":[1e39]}
        ]}"#;
        let crate::formats::Linted { doc, problems, .. } =
            lint_bytes(text.as_bytes(), Path::new("t.json"), &Default::default());
        let doc = doc.unwrap();
        let summary: Vec<_> = problems
            .iter()
            .map(|p| {
                (
                    p.severity,
                    p.code.as_str(),
                    p.clip,
                    p.track,
                    p.key,
                    p.message.as_str(),
                )
            })
            .collect();
        let e = Severity::Error;
        assert_eq!(
            summary,
            [
                (
                    e,
                    "time-not-a-number",
                    Some(0),
                    Some(0),
                    Some(1),
                    "tracks[0].times[1]: a string is not a number"
                ),
                (
                    e,
                    "value-not-a-number",
                    Some(0),
                    Some(0),
                    Some(2),
                    "tracks[0].values[2]: null is not a number (three.js stores 0)"
                ),
                (
                    e,
                    "invalid-value-size",
                    Some(0),
                    Some(1),
                    None,
                    "tracks[1].values: 7 values for 3 keys is not a whole number per key"
                ),
                (
                    e,
                    "parse",
                    Some(0),
                    Some(2),
                    None,
                    "tracks[2]: track type undefined, can not parse"
                ),
                (
                    e,
                    "value-not-a-number",
                    Some(0),
                    Some(3),
                    Some(1),
                    "tracks[3].values[4]: a boolean is not a number"
                ),
                (
                    e,
                    "number-out-of-range",
                    Some(0),
                    Some(4),
                    Some(0),
                    "tracks[4].values[0]: number 1e39 is out of range for a 32-bit float"
                ),
            ]
        );
        let names: Vec<_> = doc.clips[0]
            .tracks
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(names, [".a", ".d", ".e"]);
        let a = &doc.clips[0].tracks[0];
        assert!(a.times[1].is_nan());
        assert_eq!(nums(a), [0.0, 1.0, 0.0]);
        assert_eq!(nums(&doc.clips[0].tracks[1])[4], 1.0);
        assert_eq!(nums(&doc.clips[0].tracks[2])[0], f32::INFINITY);

        let crate::formats::Linted { doc, problems, .. } =
            lint_bytes(b"{\"tracks\":[", Path::new("t.json"), &Default::default());
        assert!(doc.is_none());
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].code, "parse");
        assert_eq!(
            problems[0].message,
            "tracks[0]: truncated JSON: EOF while parsing a list at line 1 column 11"
        );

        let crate::formats::Linted { doc, problems, .. } = lint_bytes(
            br#"[{"name":"x"},{"tracks":[]}]"#,
            Path::new("t.json"),
            &Default::default(),
        );
        assert_eq!(
            doc.unwrap().clips.len(),
            2,
            "a clip without tracks stays (empty) to keep indices"
        );
        assert_eq!(problems[0].message, "[0]: missing \"tracks\"");
    }

    #[test]
    fn fast_number_path_matches_fast_float() {
        let mut rng = clipscope_test_support::Rng::new(0x853c_49e6_748f_ea9b);
        let mut next = || rng.next_u64();
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "0.5",
            "1.",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "9007199254740993",
            "-12.5e3",
            "1E-2",
            "0.1",
            "100",
            "3.4028235e38",
            "1e400",
            "-1e-400",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for _ in 0..200_000 {
            let digits = (next() % 18 + 1) as usize;
            let mut t = String::new();
            if next() % 2 == 0 {
                t.push('-');
            }
            let int = next() % (digits as u64 + 1);
            for k in 0..digits {
                if k as u64 == int && k > 0 {
                    t.push('.');
                }
                t.push((b'0' + (next() % 10) as u8) as char);
            }
            texts.push(t);
        }
        for t in texts {
            let expected = fast_float2::parse_partial::<f64, _>(t.as_bytes()).unwrap();
            let got = parse_json_number(t.as_bytes()).unwrap();
            assert_eq!(
                (got.0.to_bits(), got.1),
                (expected.0.to_bits(), expected.1),
                "{t}"
            );
        }
    }

    #[test]
    fn escaped_keys_and_duplicate_fields_follow_json_parse() {
        let doc = read(
            r#"{"tracks":[{"na\u006de":".x","type":"number","times":[0],"values":[0],"type":"vector","values":[1,2]}]}"#,
        );
        let t = &doc.clips[0].tracks[0];
        assert_eq!(t.name, ".x");
        assert_eq!(t.kind, TrackKind::Vector);
        assert_eq!(nums(t), [1.0, 2.0]);
        // A repeated `tracks` key: the last array wins, like JSON.parse.
        let doc = read(
            r#"{"tracks":[{"bad":1}],"tracks":[{"name":".y","type":"number","times":[0],"values":[0]}]}"#,
        );
        assert_eq!(doc.clips[0].tracks.len(), 1);
        assert_eq!(doc.clips[0].tracks[0].name, ".y");
        let doc = read(
            r#"{"animations":[{"tracks":[{"bad":1}]}],"object":{},"animations":[{"tracks":[]}]}"#,
        );
        assert!(doc.clips[0].tracks.is_empty());
    }

    #[test]
    fn random_mutations_never_panic() {
        let seed = r#"{"metadata":{"version":4.5},"animations":[{"name":"c","fps":24,"duration":3,"tracks":[
            {"name":".x","times":[0,2],"values":[0,1],"type":"number","interpolation":2302},
            {"name":".p","times":[0.5,3],"values":[0,0,0,1,1,1],"type":"vector","extra":{"a":[1]}},
            {"name":".b","times":[0.5],"values":[true],"type":"bool"},
            {"name":".q","keys":[{"time":0,"value":[0,0,0,1]},{"time":1,"value":{"x":0,"y":0,"z":0,"w":1}}],"type":"quaternion"},
            {"name":".z","times":[0,1],"values":[0,1],"type":"number","interpolation":2303,"settings":{"inTangents":[0,0,1,1],"outTangents":[0,0,1,1]}}
            ],"uuid":"u","blendMode":2500,"userData":"{}"}],"object":{}}"#;
        let alphabet = b"{}[],:\"0123456789.-+eEtrufalsn \\x";
        let mut rng = clipscope_test_support::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = || rng.next_u64();
        for _ in 0..4000 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..(next() % 4 + 1) {
                let pos = (next() as usize) % bytes.len();
                match next() % 3 {
                    0 => bytes[pos] = alphabet[(next() as usize) % alphabet.len()],
                    1 => {
                        bytes.remove(pos);
                    }
                    _ => bytes.insert(pos, alphabet[(next() as usize) % alphabet.len()]),
                }
            }
            if next() % 5 == 0 {
                let cut = (next() as usize) % bytes.len();
                bytes.truncate(cut);
            }
            let strict = read_bytes(&bytes, Path::new("f.json"));
            let crate::formats::Linted { .. } =
                lint_bytes(&bytes, Path::new("f.json"), &Default::default());
            if let Ok(doc) = strict {
                let out = crate::formats::write_bytes(&doc, &Default::default());
                read_bytes(&out, Path::new("f.json")).expect("written output reads back");
            }
        }
    }
}
