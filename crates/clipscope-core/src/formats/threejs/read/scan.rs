//! The one pass over the text: the [`schema`](super::super::schema) scan hands every track
//! object to a sink as soon as it has passed it, and the sink converts it ([`run_job`]). Files
//! larger than [`PARALLEL_BYTES`] convert their tracks on other rayon workers while the scan
//! goes on; smaller ones convert each track on the spot. Either way the results come back as
//! [`TrackResults`], which the clip converter takes its tracks from.
//!
//! A clip object found elsewhere in a file (a per-object clip of an io_three object file) is
//! scanned on its own with [`scan_clip`].

use std::collections::HashMap;
use std::sync::Mutex;

use serde::de::DeserializeSeed;
use serde_json::value::RawValue;

use super::Mode;
use super::issue::{Ctx, Issue};
use super::track::convert_track;
use crate::formats::LoadProgress;
use crate::formats::json::Shaped;
use crate::formats::threejs::schema::{
    self, ClipSchema, FileSchema, FileSeed, SeedCtx, Sink, TrackJob,
};
use crate::model::Track;

/// Files larger than this convert their tracks on other threads while the scan goes on.
const PARALLEL_BYTES: usize = 256 * 1024;

/// The converted track (or why not) and the findings, for the track `track` of the `tracks`
/// array at field position `array` of clip object `uid`.
pub(super) struct TrackResult {
    /// Unique id of the clip object.
    uid: usize,
    /// Position of the `tracks` key among the clip's fields.
    array: usize,
    /// Index of the track in its clip.
    pub(super) track: usize,
    /// The earlier track whose parsed times this one takes (its own were not parsed).
    pub(super) shares_times_with: Option<usize>,
    /// The track, or the issue that stopped it.
    pub(super) result: Result<Track, Issue>,
    /// Non-fatal issues (lenient mode).
    pub(super) issues: Vec<Issue>,
}

/// Every converted track of a scan, by the clip object and `tracks` array it came from.
#[derive(Default)]
pub(super) struct TrackResults(HashMap<(usize, usize), Vec<TrackResult>>);

impl TrackResults {
    /// The results sorted by their clip object and `tracks` array.
    fn new(results: Vec<TrackResult>) -> TrackResults {
        let mut by_array: HashMap<(usize, usize), Vec<TrackResult>> = HashMap::new();
        for r in results {
            by_array.entry((r.uid, r.array)).or_default().push(r);
        }
        TrackResults(by_array)
    }

    /// Takes the tracks of the `tracks` array at field position `array` of clip object `uid`
    /// (in no particular order; empty when there are none).
    pub(super) fn take(&mut self, uid: usize, array: usize) -> Vec<TrackResult> {
        self.0.remove(&(uid, array)).unwrap_or_default()
    }
}

/// Converts one scanned track.
fn run_job(job: TrackJob, mode: Mode) -> TrackResult {
    let mut ctx = Ctx::new(mode);
    // Lenient reads parse every array, so each track gets its own findings.
    let shared = mode == Mode::Strict && job.shares_times_with.is_some();
    let result = match &job.fields {
        Shaped::Ok(fields) => convert_track(fields, &job.path, shared, &mut ctx),
        Shaped::Wrong(kind) => Err(Issue::parse(
            &job.path,
            format!("expected a track object, found {}", kind.describe()),
        )),
    };
    ctx.finish();
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

/// Scans the whole file `bytes`, converting every track as `mode` says (on other threads for
/// large files) and telling `progress` how far it got: the file's schema, or the error that
/// stopped the scan, and the converted tracks. A cancelled read leaves the tracks after the
/// cancel unconverted.
pub(super) fn scan_file<'de>(
    bytes: &'de [u8],
    mode: Mode,
    progress: Option<&LoadProgress>,
) -> (Result<FileSchema<'de>, serde_json::Error>, TrackResults) {
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
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    (scanned, TrackResults::new(results))
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

/// Scans the clip object `raw`, found at JSON path `path`, on its own, converting its tracks
/// on the spot (their paths start with `path`): its schema (`None` when `raw` cannot be
/// scanned, which valid JSON always can) and the converted tracks.
pub(super) fn scan_clip<'de>(
    raw: &'de RawValue,
    path: &str,
    mode: Mode,
) -> (Option<Shaped<ClipSchema<'de>>>, TrackResults) {
    let results = Mutex::new(Vec::new());
    let clip = {
        let sink = |job: TrackJob<'de>| push(&results, run_job(job, mode));
        let ctx = SeedCtx::new(&sink);
        schema::scan_clip(raw.get(), &ctx, path).ok()
    };
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    (clip, TrackResults::new(results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_are_kept_by_clip_and_array() {
        let text = r#"[{"tracks":[{"name":".a","type":"number","times":[0],"values":[1]}]},
            {"tracks":[{"name":".b","type":"number","times":[0],"values":[2]},
                       {"name":".c","type":"number","times":[0],"values":[3]}],
             "tracks":[{"name":".d","type":"number","times":[0],"values":[4]}]}]"#;
        let (schema, mut results) = scan_file(text.as_bytes(), Mode::Strict, None);
        let Ok(FileSchema::Array(clips)) = schema else {
            panic!("an array of clips");
        };
        let uid = |i: usize| match &clips[i] {
            Shaped::Ok(c) => c.uid,
            Shaped::Wrong(_) => panic!("clip {i}"),
        };
        let names = |r: Vec<TrackResult>| -> Vec<String> {
            r.into_iter().map(|r| r.result.unwrap().name).collect()
        };
        assert_eq!(names(results.take(uid(0), 0)), [".a"]);
        let mut second = names(results.take(uid(1), 0));
        second.sort();
        assert_eq!(second, [".b", ".c"]);
        assert_eq!(names(results.take(uid(1), 1)), [".d"]);
        assert!(results.take(uid(1), 1).is_empty(), "taken once");
    }

    #[test]
    fn a_clip_on_its_own_names_paths_under_its_own() {
        let raw = RawValue::from_string(
            r#"{"name":"c","tracks":[{"name":".a","type":"number","times":[0,"x"],"values":[1,2]}]}"#
                .to_string(),
        )
        .unwrap();
        let (clip, mut results) = scan_clip(&raw, "object.clips[2]", Mode::Strict);
        let Some(Shaped::Ok(clip)) = clip else {
            panic!("a clip object");
        };
        let tracks = results.take(clip.uid, 1);
        assert_eq!(tracks.len(), 1);
        let e = tracks[0].result.as_ref().unwrap_err();
        assert_eq!(
            e.problem(0, None).message,
            "object.clips[2].tracks[0].times[1]: a string is not a number"
        );
    }
}
