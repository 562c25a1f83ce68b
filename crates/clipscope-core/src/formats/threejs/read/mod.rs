//! Converting the [`schema`](super::schema) of a three.js file into model clips, exactly like
//! `AnimationClip.parse` / `KeyframeTrack` parsing in three.js r187 (spec §3, §5).
//!
//! Numbers are parsed from the raw text with `fast_float2` as `f64` and then rounded to `f32`,
//! the same `text -> f64 -> f32` path as `JSON.parse` followed by a `Float32Array`. Tracks are
//! converted in parallel for large files. In strict mode the first problem stops the read; in
//! lenient mode (for `validate`) problems are collected and the document is kept when possible.
//!
//! This module is the driver: it has the file [`scan`]ned (tracks are converted as the scan
//! passes them), finds where the clips are (a clip object, an array of clips, an object file's
//! `animations`, or an io_three object file's geometries and objects) and has each clip
//! converted by [`clip`]. A clip's tracks are converted by [`track`] (legacy `keys` lists by
//! [`keys`]), their leaves by [`numbers`] and [`leaves`]; [`issue`] is what a finding is and
//! what strict and lenient reads do with it. [`read_clip`] converts one clip object found
//! elsewhere in a file (a per-object clip) with the same converter.

mod clip;
mod issue;
mod keys;
mod leaves;
mod numbers;
mod object_clips;
mod scan;
mod track;

use std::path::Path;

use serde_json::value::RawValue;

use self::clip::{ClipRef, convert_clips};
use self::scan::scan_file;
use super::schema::{ClipSchema, Field, FileSchema, Layout, clip_raw};
use crate::formats::document::{Accepted, Source, Unread};
use crate::formats::json::path::{index, syntax_error};
use crate::formats::json::{Key, Shaped};
use crate::formats::{Document, Format, LoadProgress, ReadError, ReadErrorKind};
use crate::model::{MorphMesh, Problem, Skeleton};

/// Strict (`read`) or lenient (`lint`) conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The first problem is an error.
    Strict,
    /// Problems are collected; what three.js would read is kept.
    Lenient,
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
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::syntax(file, "", "file is empty"));
    }
    let (scanned, tracks) = scan_file(bytes, mode, progress);
    let schema = scanned.map_err(|e| {
        let (path, reason) = syntax_error(bytes, &e);
        ReadError::syntax(file, path, reason)
    })?;
    if progress.is_some_and(LoadProgress::is_cancelled) {
        return Err(ReadError::cancelled(file));
    }
    let found = find_clips(&schema, file, mode)?;
    let (mut clips, mut problems) = convert_clips(&found.clips, tracks, mode, file)?;
    if let Layout::Scene {
        geometry_clips,
        object_clips,
        ..
    } = &found.layout
    {
        let first = clips.len();
        clips.extend(geometry_clips.iter().cloned());
        clips.extend(object_clips.iter().cloned());
        problems.extend(found.embedded_problems.into_iter().map(|mut p| {
            p.clip = p.clip.map(|c| c + first);
            p
        }));
    }
    // Shapes three.js reads that its writers do not make, kept by either mode's read.
    let accepted = problems
        .iter()
        .filter(|p| p.code == issue::NUMBER_AS_STRING)
        .map(|p| {
            let (path, what) = p.message.split_once(": ").unwrap_or(("", &p.message));
            let clip = p.clip.map(|c| format!("clip {c} ")).unwrap_or_default();
            Accepted::new(format!("{clip}{path}"), what)
        })
        .collect();
    let doc = Document {
        path: Some(file.to_path_buf()),
        format: Format::ThreeJs,
        clips,
        skeleton: found.skeleton,
        mesh: found.mesh.map(std::sync::Arc::new),
        model: None,
        unread: found.unread,
        accepted,
        source: Source::new(found.layout),
    };
    Ok((doc, problems))
}

/// Where the clips of a file are, and what else the file holds for the document.
struct Found<'a, 'de> {
    /// How the file is laid out; an io_three object file's layout carries the clips read from
    /// its geometries and objects.
    layout: Layout,
    /// The clip objects whose tracks the scan converted, in file order.
    clips: Vec<ClipRef<'a, 'de>>,
    /// The morph mesh of an object file.
    mesh: Option<MorphMesh>,
    /// The skeleton of an object file's bones.
    skeleton: Option<Skeleton>,
    /// What the file holds that was not read.
    unread: Vec<Unread>,
    /// The lenient findings of an io_three object file's per-object clips, their clip indices
    /// counted from the first clip read from its geometries.
    embedded_problems: Vec<Problem>,
}

impl<'a, 'de> Found<'a, 'de> {
    /// A file laid out as `layout` whose clips are `clips`, and nothing else.
    fn clips(layout: Layout, clips: Vec<ClipRef<'a, 'de>>) -> Found<'a, 'de> {
        Found {
            layout,
            clips,
            mesh: None,
            skeleton: None,
            unread: Vec::new(),
            embedded_problems: Vec::new(),
        }
    }
}

/// What a file that is no three.js clip file gets told.
const NO_CLIPS: &str = "no three.js animation clips found: expected a clip object with \"tracks\", \
                        an array of clips, or an object file with \"animations\"";

/// Where the clips of the scanned file `schema` are (see [`Found`]).
fn find_clips<'a, 'de>(
    schema: &'a FileSchema<'de>,
    file: &Path,
    mode: Mode,
) -> Result<Found<'a, 'de>, ReadError> {
    match schema {
        FileSchema::Array(list) => Ok(Found::clips(Layout::Array, clip_list(list, "", file)?)),
        FileSchema::Other(kind) => Err(ReadError::new(
            ReadErrorKind::Unsupported,
            file,
            "",
            format!("{NO_CLIPS}, found {}", kind.describe()),
        )),
        FileSchema::Object(fields) => {
            let animations = fields.iter().rev().find_map(|(_, v)| match v {
                Field::Animations(a) => Some(a),
                _ => None,
            });
            let has_tracks = fields.iter().any(|(_, v)| matches!(v, Field::Tracks(_)));
            let has = |name: &str| fields.iter().any(|(k, _)| k.0 == name);
            if let Some(animations) = animations {
                if has_tracks {
                    return Err(ReadError::schema(
                        file,
                        "",
                        "the top-level object has both \"tracks\" and \"animations\"; expected one clip or an object file",
                    ));
                }
                object_file(fields, animations, file)
            } else if has_tracks {
                let clip = (String::new(), 0, fields.as_slice());
                Ok(Found::clips(Layout::Clip, vec![clip]))
            } else if has("object") && has("metadata") {
                io_three_object_file(fields, file, mode)
            } else {
                Err(ReadError::new(
                    ReadErrorKind::Unsupported,
                    file,
                    "",
                    NO_CLIPS,
                ))
            }
        }
    }
}

/// An object file with a top-level `animations` array (`fields` its top-level fields): its
/// clips are in the array.
fn object_file<'a, 'de>(
    fields: &'a [(Key<'de>, Field<'de>)],
    animations: &'a Shaped<Vec<Shaped<ClipSchema<'de>>>>,
    file: &Path,
) -> Result<Found<'a, 'de>, ReadError> {
    let list = match animations {
        Shaped::Ok(list) => list,
        Shaped::Wrong(kind) => {
            return Err(ReadError::schema(
                file,
                "animations",
                format!("expected an array of clips, found {}", kind.describe()),
            ));
        }
    };
    let object = clip_raw(fields, "object");
    // The morph mesh of an object file that had its geometry-level clips written as
    // `animations` (a problem in the geometries only costs the mesh here).
    let mesh = super::geometry_clips::read(clip_raw(fields, "geometries"), object)
        .ok()
        .and_then(|found| found.mesh);
    Ok(Found {
        layout: scene_layout(fields),
        clips: clip_list(list, "animations", file)?,
        mesh,
        skeleton: super::object_tree::skeleton(object),
        unread: super::object_clips::beside_animations(object),
        embedded_problems: Vec::new(),
    })
}

/// An io_three 4.3 object file without `animations`: its clips sit in its geometries and on
/// its objects, and are read into the layout.
fn io_three_object_file<'a, 'de>(
    fields: &'a [(Key<'de>, Field<'de>)],
    file: &Path,
    mode: Mode,
) -> Result<Found<'a, 'de>, ReadError> {
    let object = clip_raw(fields, "object");
    let found = super::geometry_clips::read(clip_raw(fields, "geometries"), object)
        .map_err(|l| l.in_file(file))?;
    let skeleton = super::object_tree::skeleton(object);
    let objects = object_clips::read_object(object, file, mode)?;
    let offset = found.clips.len();
    let mut embedded_problems = objects.problems;
    for p in &mut embedded_problems {
        p.clip = p.clip.map(|c| c + offset);
    }
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
    Ok(Found {
        layout,
        clips: Vec::new(),
        mesh: found.mesh,
        skeleton,
        unread: objects.unread,
        embedded_problems,
    })
}

/// Lists the clip objects of `list`, whose paths start with `prefix`; a non-object is an error.
fn clip_list<'a, 'de>(
    list: &'a [Shaped<ClipSchema<'de>>],
    prefix: &str,
    file: &Path,
) -> Result<Vec<ClipRef<'a, 'de>>, ReadError> {
    let mut clips = Vec::with_capacity(list.len());
    for (i, clip) in list.iter().enumerate() {
        match clip {
            Shaped::Ok(c) => clips.push((index(prefix, i), c.uid, c.fields.as_slice())),
            Shaped::Wrong(kind) => {
                return Err(ReadError::schema(
                    file,
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

/// Helpers the tests of the converters share.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::Path;

    use crate::formats::{Document, read_bytes};
    use crate::model::Track;

    /// The document `text` reads as (strictly), or a panic with the error.
    pub(crate) fn read(text: &str) -> Document {
        read_bytes(text.as_bytes(), Path::new("t.json")).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The error reading `text` gives, as its one line.
    pub(crate) fn error(text: &str) -> String {
        match read_bytes(text.as_bytes(), Path::new("t.json")) {
            Ok(_) => panic!("read {text} without error"),
            Err(e) => e.to_string(),
        }
    }

    /// The numbers of a numeric track.
    pub(crate) fn nums(track: &Track) -> &[f32] {
        track.values.as_numbers().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::clip::read_clip;
    use super::testing::{error, nums, read};
    use super::*;
    use crate::formats::{lint_bytes, read_bytes};
    use crate::model::{Severity, TrackKind};

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
            (t(&format!(r#"{ok},{ok},{ok},{{"name":".x","type":"number","times":[0,1,2,3,4,5,6,"seven"],"values":[0,0,0,0,0,0,0,0]}}"#)), "t.json: tracks[3].times[7]: a string is not a number"),
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
            (r#"{"tracks":[],"duration":"one"}"#.into(), "t.json: duration: expected a number, found a string"),
            (r#"{"tracks":[],"duration":1e400}"#.into(), "t.json: duration: number 1e400 is out of range for a 64-bit float"),
            (r#"{"tracks":[],"fps":"thirty"}"#.into(), "t.json: fps: expected a number, found a string"),
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

    #[test]
    fn a_clip_found_elsewhere_reads_like_any_other() {
        let raw = RawValue::from_string(
            r#"{"name":"c","fps":2,"tracks":[{"name":".a","type":"number","times":[0,2],"values":[0,1]}]}"#
                .to_string(),
        )
        .unwrap();
        let mut problems = Vec::new();
        let file = Path::new("t.json");
        let clip = read_clip(
            &raw,
            "object.clips[0]",
            file,
            0,
            Mode::Strict,
            &mut problems,
        )
        .unwrap()
        .unwrap();
        assert_eq!(clip.tracks[0].times, [0.0, 1.0]);
        let not_a_clip = RawValue::from_string(r#"{"name":"c"}"#.to_string()).unwrap();
        let read = read_clip(&not_a_clip, "x", file, 0, Mode::Strict, &mut problems);
        assert!(read.unwrap().is_none());
        let bad = RawValue::from_string(r#"{"tracks":[],"fps":"x"}"#.to_string()).unwrap();
        let e = read_clip(
            &bad,
            "object.clips[3]",
            file,
            0,
            Mode::Strict,
            &mut problems,
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "t.json: object.clips[3].fps: expected a number, found a string"
        );
        let clip = read_clip(
            &bad,
            "object.clips[3]",
            file,
            4,
            Mode::Lenient,
            &mut problems,
        );
        assert!(clip.unwrap().is_some());
        assert_eq!(
            problems[0].message,
            "object.clips[3].fps: expected a number, found a string"
        );
        assert_eq!(problems[0].clip, Some(4));
    }
}
