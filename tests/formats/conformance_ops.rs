//! Conformance of the library operations with three.js r187: `subclip`, `make_clip_additive`,
//! `Clip::duplicate` (three.js `clone`), `Track::shift`, `Track::scale` and
//! `create_clips_from_morph_target_sequences` must give what three.js gave on the same input.
//!
//! The expectations are `tests/fixtures/conformance/ops.json`, written by
//! `tests/conformance/generate.mjs` with three.js 0.187.0 (its shape is in
//! `tests/conformance/README.md`). Every operation starts from a fresh read of the case's clip
//! JSON through `clipscope_core::formats::read_bytes`, and its result is compared with three.js's
//! `AnimationClip.toJSON` / `KeyframeTrack.toJSON`:
//! * names, blend mode and user data as three.js writes them; the duration as an exact f64;
//! * per track: name, canonical type, interpolation (absent means the kind's default), and
//!   times, values and bezier tangents bit for bit as f32 (the fixture's numbers are f32 values
//!   widened to f64; `-0` keeps its sign; `"NaN"`, `"Infinity"` and `"-Infinity"` are
//!   non-finite markers);
//! * the uuid: kept by `make_clip_additive` (it changes the clip in place), fresh (different from
//!   the source's) for `subclip` and `duplicate`.
//!
//! Every mismatch is collected (case, operation, parameters, track, index) and the test fails
//! once at the end with the whole list.

use crate::common;
use clipscope_core::model::ops::{
    create_clips_from_morph_target_sequences, make_clip_additive, subclip,
};
use clipscope_core::model::{Clip, Tangents, Track, Values};

use common::{Report, as_f32, as_f64, canonical_type, short, user_data_of};
use serde_json::Value;
use std::path::Path;

/// The generated expectations.
const OPS_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/conformance/ops.json"
);

// ------------------------------------------------------------------------------------------------
// Value comparison

/// Compares two f32 values bit for bit, the sign of zero included (any NaN equals any NaN).
fn same_f32(a: f32, b: f32) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    a.to_bits() == b.to_bits()
}

/// Compares two f64 values bit for bit (any NaN equals any NaN).
fn same_f64(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    a.to_bits() == b.to_bits()
}

/// Short text of a list of f32 values for reports.
fn short_f32(xs: &[f32]) -> String {
    let s = format!("{xs:?}");
    if s.len() > 200 {
        format!("{}…", &s[..s.floor_char_boundary(200)])
    } else {
        s
    }
}

/// Pushes one line per differing element (at most 5, then a count), or one line for a length
/// difference.
fn report_diffs<T: std::fmt::Debug>(
    report: &mut Report,
    ctx: &str,
    key: &str,
    expected: &[Value],
    actual: &[T],
    same: impl Fn(&Value, &T) -> bool,
    actual_text: impl Fn(&[T]) -> String,
) {
    if expected.len() != actual.len() {
        report.push(
            ctx,
            key,
            format!(
                "length {} expected, got {}: expected {}, got {}",
                expected.len(),
                actual.len(),
                short(&Value::Array(expected.to_vec())),
                actual_text(actual)
            ),
        );
        return;
    }
    let bad: Vec<usize> = (0..expected.len())
        .filter(|&i| !same(&expected[i], &actual[i]))
        .collect();
    for &i in bad.iter().take(5) {
        report.push(
            ctx,
            &format!("{key}[{i}]"),
            format!("expected {}, got {:?}", expected[i], actual[i]),
        );
    }
    if bad.len() > 5 {
        report.push(
            ctx,
            key,
            format!("{} more differing elements", bad.len() - 5),
        );
    }
}

/// Compares a JSON array of numbers with f32 values.
fn compare_f32s(report: &mut Report, ctx: &str, key: &str, expected: &Value, actual: &[f32]) {
    let Some(e) = expected.as_array() else {
        report.push(
            ctx,
            key,
            format!("fixture is not an array: {}", short(expected)),
        );
        return;
    };
    report_diffs(
        report,
        ctx,
        key,
        e,
        actual,
        |e, &a| as_f32(e).is_some_and(|e| same_f32(e, a)),
        short_f32,
    );
}

/// Compares a JSON `values` array with a track's values (numbers, bools or strings).
fn compare_values(report: &mut Report, ctx: &str, key: &str, expected: &Value, actual: &Values) {
    let Some(e) = expected.as_array() else {
        report.push(
            ctx,
            key,
            format!("fixture is not an array: {}", short(expected)),
        );
        return;
    };
    match actual {
        Values::Numbers(a) => compare_f32s(report, ctx, key, expected, a),
        Values::Bools(a) => report_diffs(
            report,
            ctx,
            key,
            e,
            a,
            |e, &a| e.as_bool() == Some(a),
            |a| format!("{a:?}"),
        ),
        Values::Strings(a) => report_diffs(
            report,
            ctx,
            key,
            e,
            a,
            |e, a| e.as_str() == Some(a.as_str()),
            |a| format!("{a:?}"),
        ),
    }
}

// ------------------------------------------------------------------------------------------------
// three.js reading rules for the expected JSON

/// Reads a three.js clip JSON object into a [`Clip`] (a single clip object is a one-clip
/// document).
fn read_clip(json: &Value) -> Result<Clip, String> {
    let bytes = serde_json::to_vec(json).map_err(|e| e.to_string())?;
    let doc = clipscope_core::formats::read_bytes(&bytes, Path::new("ops.json"))
        .map_err(|e| e.to_string())?;
    match <[Clip; 1]>::try_from(doc.clips) {
        Ok([clip]) => Ok(clip),
        Err(clips) => Err(format!("expected one clip, read {}", clips.len())),
    }
}

// ------------------------------------------------------------------------------------------------
// Comparing results

/// Compares a track with three.js's `KeyframeTrack.toJSON` of the same track.
fn compare_track(report: &mut Report, ctx: &str, key: &str, expected: &Value, actual: &Track) {
    let name = expected.get("name").and_then(Value::as_str).unwrap_or("");
    let key = format!("{key} {name:?}");
    if actual.name != name {
        report.push(
            ctx,
            &key,
            format!("name {name:?} expected, got {:?}", actual.name),
        );
    }
    let ty = expected
        .get("type")
        .and_then(Value::as_str)
        .and_then(canonical_type);
    if ty != Some(actual.kind.type_name()) {
        report.push(
            ctx,
            &key,
            format!(
                "type {:?} expected, got {:?}",
                expected.get("type"),
                actual.kind.type_name()
            ),
        );
    }
    let interpolation = match expected.get("interpolation") {
        Some(v) => v.as_f64().map(|c| c as u32),
        None => Some(actual.kind.default_interpolation().code()),
    };
    if interpolation != Some(actual.interpolation.code()) {
        report.push(
            ctx,
            &key,
            format!(
                "interpolation {:?} expected (absent: the default), got {}",
                expected.get("interpolation"),
                actual.interpolation.code()
            ),
        );
    }
    compare_f32s(
        report,
        ctx,
        &format!("{key}.times"),
        expected.get("times").unwrap_or(&Value::Null),
        &actual.times,
    );
    compare_values(
        report,
        ctx,
        &format!("{key}.values"),
        expected.get("values").unwrap_or(&Value::Null),
        &actual.values,
    );
    match (expected.get("settings"), &actual.tangents) {
        (None, None) => {}
        (
            Some(settings),
            Some(Tangents {
                in_tangents,
                out_tangents,
                ..
            }),
        ) => {
            let empty = Value::Null;
            compare_f32s(
                report,
                ctx,
                &format!("{key}.inTangents"),
                settings.get("inTangents").unwrap_or(&empty),
                in_tangents,
            );
            compare_f32s(
                report,
                ctx,
                &format!("{key}.outTangents"),
                settings.get("outTangents").unwrap_or(&empty),
                out_tangents,
            );
        }
        (Some(settings), None) => report.push(
            ctx,
            &key,
            format!("settings {} expected, got no tangents", short(settings)),
        ),
        (None, Some(t)) => report.push(
            ctx,
            &key,
            format!(
                "no settings expected, got tangents in {} out {}",
                short_f32(&t.in_tangents),
                short_f32(&t.out_tangents)
            ),
        ),
    }
}

/// Compares a list of tracks with three.js's `KeyframeTrack.toJSON` of each.
fn compare_tracks(report: &mut Report, ctx: &str, key: &str, expected: &Value, actual: &[Track]) {
    let Some(e) = expected.as_array() else {
        report.push(
            ctx,
            key,
            format!("fixture tracks are not an array: {}", short(expected)),
        );
        return;
    };
    if e.len() != actual.len() {
        let names: Vec<&str> = actual.iter().map(|t| t.name.as_str()).collect();
        let expected_names: Vec<&str> = e
            .iter()
            .map(|t| t.get("name").and_then(Value::as_str).unwrap_or(""))
            .collect();
        report.push(
            ctx,
            key,
            format!(
                "{} tracks expected {expected_names:?}, got {} {names:?}",
                e.len(),
                actual.len()
            ),
        );
        return;
    }
    for (i, (e, a)) in e.iter().zip(actual).enumerate() {
        compare_track(report, ctx, &format!("{key}[{i}]"), e, a);
    }
}

/// How to check a result clip's uuid.
enum Uuid<'a> {
    /// The fixture's `uuid` field must equal the clip's.
    Kept,
    /// The fixture has none; the clip must have a fresh uuid, not this one (the source's).
    FreshUnlike(Option<&'a str>),
}

/// Compares a clip with three.js's `AnimationClip.toJSON` of the same clip.
fn compare_clip(report: &mut Report, ctx: &str, expected: &Value, actual: &Clip, uuid: Uuid) {
    let name = expected.get("name").and_then(Value::as_str);
    if name != Some(actual.name.as_str()) {
        report.push(
            ctx,
            "name",
            format!("{name:?} expected, got {:?}", actual.name),
        );
    }
    match expected.get("duration").and_then(as_f64) {
        Some(d) if same_f64(d, actual.duration) => {}
        d => report.push(
            ctx,
            "duration",
            format!("{d:?} expected, got {:?}", actual.duration),
        ),
    }
    let blend = expected
        .get("blendMode")
        .and_then(Value::as_f64)
        .unwrap_or(2500.0);
    if blend != actual.blend_mode.code() as f64 {
        report.push(
            ctx,
            "blendMode",
            format!("{blend} expected, got {}", actual.blend_mode.code()),
        );
    }
    match user_data_of(expected) {
        Ok(u) if u == actual.user_data => {}
        Ok(u) => report.push(
            ctx,
            "userData",
            format!("{} expected, got {}", short(&u), short(&actual.user_data)),
        ),
        Err(e) => report.push(ctx, "userData", format!("fixture: {e}")),
    }
    match uuid {
        Uuid::Kept => {
            let e = expected.get("uuid").and_then(Value::as_str);
            if e != actual.uuid.as_deref() {
                report.push(
                    ctx,
                    "uuid",
                    format!("{e:?} expected, got {:?}", actual.uuid),
                );
            }
        }
        Uuid::FreshUnlike(source) => {
            if actual.uuid.is_none() || actual.uuid.as_deref() == source {
                report.push(
                    ctx,
                    "uuid",
                    format!("a fresh uuid expected, got {:?}", actual.uuid),
                );
            }
        }
    }
    compare_tracks(
        report,
        ctx,
        "tracks",
        expected.get("tracks").unwrap_or(&Value::Null),
        &actual.tracks,
    );
}

// ------------------------------------------------------------------------------------------------
// The operations

/// A number parameter of a fixture entry (`null`/absent is NaN, which no entry uses).
fn param(entry: &Value, key: &str) -> f64 {
    entry.get(key).and_then(as_f64).unwrap_or(f64::NAN)
}

/// Runs every operation of one `cases[]` entry and compares; returns how many results it checked.
fn check_case(report: &mut Report, case: &Value) -> usize {
    let id = case.get("id").and_then(Value::as_str).unwrap_or("ops???");
    let clip_json = case.get("clip").unwrap_or(&Value::Null);
    let source = match read_clip(clip_json) {
        Ok(c) => c,
        Err(e) => {
            report.push(id, "read", format!("clipscope cannot read the clip: {e}"));
            return 1;
        }
    };
    let source_uuid = source.uuid.as_deref();
    let mut checked = 0;
    let empty = Vec::new();
    let list = |key: &str| case.get(key).and_then(Value::as_array).unwrap_or(&empty);

    for (k, entry) in list("subclip").iter().enumerate() {
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("sub");
        let (start, end, fps) = (
            param(entry, "startFrame"),
            param(entry, "endFrame"),
            param(entry, "fps"),
        );
        let ctx = format!("{id} subclip#{k} (name {name:?}, start {start}, end {end}, fps {fps})");
        let original = source.clone();
        let result = subclip(&source, name, start, end, fps);
        if source != original {
            report.push(&ctx, "", "the source clip was changed");
        }
        let expected = entry.get("result").unwrap_or(&Value::Null);
        compare_clip(
            report,
            &ctx,
            expected,
            &result,
            Uuid::FreshUnlike(source_uuid),
        );
        checked += 1;
    }

    for (k, entry) in list("makeClipAdditive").iter().enumerate() {
        let (frame, fps) = (param(entry, "referenceFrame"), param(entry, "fps"));
        let reference_json = entry.get("referenceClip").unwrap_or(&Value::Null);
        let ctx = format!(
            "{id} makeClipAdditive#{k} (referenceFrame {frame}, referenceClip {}, fps {fps})",
            if reference_json.is_null() {
                "none"
            } else {
                "given"
            }
        );
        let reference = if reference_json.is_null() {
            None
        } else {
            match read_clip(reference_json) {
                Ok(c) => Some(c),
                Err(e) => {
                    report.push(&ctx, "referenceClip", format!("cannot read: {e}"));
                    continue;
                }
            }
        };
        let mut target = source.clone();
        make_clip_additive(&mut target, frame, reference.as_ref(), fps);
        let expected = entry.get("result").unwrap_or(&Value::Null);
        compare_clip(report, &ctx, expected, &target, Uuid::Kept);
        checked += 1;
    }

    if let Some(expected) = case.get("clone") {
        let ctx = format!("{id} duplicate");
        let copy = source.duplicate();
        compare_clip(
            report,
            &ctx,
            expected,
            &copy,
            Uuid::FreshUnlike(source_uuid),
        );
        checked += 1;
    }

    for (k, entry) in list("shift").iter().enumerate() {
        let dt = param(entry, "dt");
        let ctx = format!("{id} shift#{k} (dt {dt})");
        let tracks: Vec<Track> = source
            .tracks
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.shift(dt);
                t
            })
            .collect();
        let expected = entry.get("result").unwrap_or(&Value::Null);
        compare_tracks(report, &ctx, "tracks", expected, &tracks);
        checked += 1;
    }

    for (k, entry) in list("scale").iter().enumerate() {
        let s = param(entry, "s");
        let ctx = format!("{id} scale#{k} (s {s})");
        let tracks: Vec<Track> = source
            .tracks
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.scale(s);
                t
            })
            .collect();
        let expected = entry.get("result").unwrap_or(&Value::Null);
        compare_tracks(report, &ctx, "tracks", expected, &tracks);
        checked += 1;
    }
    checked
}

/// Runs one `morphTargetSequences[]` entry and compares; returns how many results it checked.
fn check_morph(report: &mut Report, k: usize, entry: &Value) -> usize {
    let names: Vec<String> = entry
        .get("names")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|n| n.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let fps = param(entry, "fps");
    let no_loop = entry
        .get("noLoop")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let ctx = format!("morphTargetSequences#{k} (names {names:?}, fps {fps}, noLoop {no_loop})");
    let clips = create_clips_from_morph_target_sequences(&names, fps, no_loop);
    let empty = Vec::new();
    let expected = entry
        .get("result")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    if expected.len() != clips.len() {
        let got: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
        let want: Vec<&str> = expected
            .iter()
            .map(|c| c.get("name").and_then(Value::as_str).unwrap_or(""))
            .collect();
        report.push(
            &ctx,
            "clips",
            format!(
                "{} clips expected {want:?}, got {} {got:?}",
                expected.len(),
                clips.len()
            ),
        );
        return 1;
    }
    for (i, (e, clip)) in expected.iter().zip(&clips).enumerate() {
        compare_clip(
            report,
            &format!("{ctx} clip[{i}]"),
            e,
            clip,
            Uuid::FreshUnlike(None),
        );
    }
    1
}

fn load_fixture() -> Value {
    let text = std::fs::read_to_string(OPS_FIXTURE)
        .unwrap_or_else(|e| panic!("{OPS_FIXTURE}: {e} (see tests/conformance/README.md)"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{OPS_FIXTURE}: {e}"))
}

#[test]
fn library_operations_match_threejs() {
    let fixture = load_fixture();
    let empty = Vec::new();
    let cases = fixture
        .get("cases")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let morphs = fixture
        .get("morphTargetSequences")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    assert!(!cases.is_empty(), "ops.json has no cases");
    assert!(!morphs.is_empty(), "ops.json has no morphTargetSequences");
    let mut report = Report::default();
    let mut checked = 0;
    for case in cases {
        checked += check_case(&mut report, case);
    }
    for (k, entry) in morphs.iter().enumerate() {
        checked += check_morph(&mut report, k, entry);
    }
    report.finish("clipscope library operations", checked);
}

// ------------------------------------------------------------------------------------------------
// Unit tests of the comparison helpers

#[cfg(test)]
mod helper_tests {
    use super::*;
    use clipscope_core::model::TrackKind;
    use serde_json::json;

    #[test]
    fn fixture_has_the_documented_shape() {
        let fixture = load_fixture();
        assert_eq!(fixture["threeRevision"], json!("187"));
        let cases = fixture["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 15);
        for c in cases {
            for key in ["subclip", "makeClipAdditive", "shift", "scale"] {
                assert!(!c[key].as_array().unwrap().is_empty(), "{} {key}", c["id"]);
            }
            assert!(c["clone"].is_object(), "{}", c["id"]);
        }
        assert_eq!(
            fixture["morphTargetSequences"].as_array().unwrap().len(),
            12
        );
    }

    #[test]
    fn numbers_compare_as_f32_bits_with_the_sign_of_zero() {
        let e: Value =
            serde_json::from_str("[0.10000000149011612, -0, \"NaN\", \"-Infinity\"]").unwrap();
        let mut r = Report::default();
        compare_f32s(
            &mut r,
            "c",
            "k",
            &e,
            &[0.1, -0.0, f32::NAN, f32::NEG_INFINITY],
        );
        assert!(r.lines.is_empty(), "{:?}", r.lines);
        compare_f32s(&mut r, "c", "k", &e, &[0.1, 0.0, 1.0, f32::NEG_INFINITY]);
        assert_eq!(r.lines.len(), 2, "{:?}", r.lines);
        assert!(
            r.lines[0].starts_with("c: k[1]: expected -0"),
            "{:?}",
            r.lines
        );
        let next = f32::from_bits(0.1f32.to_bits() + 1);
        let mut r = Report::default();
        compare_f32s(&mut r, "c", "k", &e, &[next, -0.0, f32::NAN]);
        assert!(
            r.lines[0].contains("length 4 expected, got 3"),
            "{:?}",
            r.lines
        );
    }

    #[test]
    fn track_differences_name_the_track_and_index() {
        let expected = json!({"name": ".x", "times": [0, 0.5], "values": [1, 2],
            "interpolation": 2300, "type": "double"});
        let mut track = Track::numeric(".x", TrackKind::Number, vec![0.0, 0.5], vec![1.0, 2.0]);
        let mut r = Report::default();
        compare_track(
            &mut r,
            "ops001 shift#0 (dt 0)",
            "tracks[3]",
            &expected,
            &track,
        );
        assert_eq!(r.lines.len(), 1, "{:?}", r.lines);
        assert!(r.lines[0].contains("interpolation"), "{:?}", r.lines);
        track.interpolation = clipscope_core::model::Interpolation::Discrete;
        track.values = Values::Numbers(vec![1.0, 2.5]);
        let mut r = Report::default();
        compare_track(
            &mut r,
            "ops001 shift#0 (dt 0)",
            "tracks[3]",
            &expected,
            &track,
        );
        assert_eq!(
            r.lines,
            vec!["ops001 shift#0 (dt 0): tracks[3] \".x\".values[1]: expected 2, got 2.5"]
        );
    }

    #[test]
    fn a_clip_object_reads_as_one_clip() {
        let clip = read_clip(&json!({"name": "walk", "tracks": [
            {"name": ".x", "times": [0, 2], "values": [1, -0.0], "type": "number"}]}))
        .unwrap();
        assert_eq!(clip.name, "walk");
        assert_eq!(clip.duration, 2.0);
        assert_eq!(
            clip.tracks[0].values.as_numbers().unwrap()[1].to_bits(),
            (-0.0f32).to_bits()
        );
    }
}
