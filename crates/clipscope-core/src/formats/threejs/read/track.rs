//! One track object as three.js's `parseKeyframeTrack` reads it: a `name` and a `type` (the
//! `KeyframeTrack` subclass), keys as `times` and `values` arrays (or a legacy `keys` list,
//! see [`keys`](super::keys)), an `interpolation` code for numeric tracks and, for bezier
//! tracks, `settings.inTangents` / `settings.outTangents`. Fields the model does not hold are
//! kept as the track's extras, in file order.
//!
//! Times are in the clip's frames here; the clip converter scales them by `1 / fps`.

use serde_json::value::RawValue;

use super::issue::{Ctx, Issue};
use super::keys::flatten_keys;
use super::leaves::{bools, string_of, strings, wrong};
use super::numbers::{number_f64, numbers};
use crate::formats::json::path::field;
use crate::formats::json::{JsonKind, RawFields, Shaped};
use crate::model::{Extras, Interpolation, Tangents, Track, TrackKind, Values};

/// Converts one track (`parseKeyframeTrack`; the caller scales the times by the frame time).
/// With `shares_times` the `times` array is not parsed: the same text came earlier in the
/// clip, and its parsed times are filled in once both tracks are converted.
pub(super) fn convert_track(
    fields: &RawFields,
    path: &str,
    shares_times: bool,
    ctx: &mut Ctx,
) -> Result<Track, Issue> {
    let (name, kind) = name_and_kind(fields, path)?;
    let (times, values, used_keys) = keys(fields, path, &name, kind, shares_times, ctx)?;
    let value_size = values.len() / times.len();
    let interpolation = interpolation(fields, path, kind, ctx)?;
    let tangents = tangents(fields, path, values.len(), value_size, ctx)?;
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

/// Adds `key: raw` to `extras`; a repeated key keeps its first position and its last value.
pub(super) fn push_extra(extras: &mut Extras, key: &str, raw: &RawValue) {
    if let Some(slot) = extras.0.iter_mut().find(|(k, _)| k == key) {
        slot.1 = raw.to_owned();
    } else {
        extras.0.push((key.to_string(), raw.to_owned()));
    }
}

/// The track's `name` and the kind its `type` names; three.js throws without either.
fn name_and_kind(fields: &RawFields, path: &str) -> Result<(String, TrackKind), Issue> {
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
    Ok((name, kind))
}

/// The key times and values of track `name` (from `times` and `values`, or else from a legacy
/// `keys` list, which the third item tells), checked to be at least one key and a whole number
/// of values per key.
fn keys(
    fields: &RawFields,
    path: &str,
    name: &str,
    kind: TrackKind,
    shares_times: bool,
    ctx: &mut Ctx,
) -> Result<(Vec<f32>, Values, bool), Issue> {
    let (times, values, used_keys) = match fields.get("times") {
        Some(raw) => {
            let (times, values) =
                times_and_values(fields, raw, path, name, kind, shares_times, ctx)?;
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
    Ok((times, values, used_keys))
}

/// The `times` array `times_raw` (or, with `shares_times`, as many placeholders) and the
/// `values` of track `name`; findings about values name their key.
fn times_and_values(
    fields: &RawFields,
    times_raw: &RawValue,
    path: &str,
    name: &str,
    kind: TrackKind,
    shares_times: bool,
    ctx: &mut Ctx,
) -> Result<(Vec<f32>, Values), Issue> {
    let times = if shares_times {
        // Filled in from the earlier track with the same text once both are converted.
        vec![0.0; count_elements(times_raw)]
    } else {
        numbers(times_raw, &field(path, "times"), ctx, "time-not-a-number")?
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
    Ok((times, values))
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

/// The track's interpolation, resolved like the `KeyframeTrack` constructors: numeric tracks
/// take their `interpolation` code (missing or null: their default), boolean and string tracks
/// are always discrete.
fn interpolation(
    fields: &RawFields,
    path: &str,
    kind: TrackKind,
    ctx: &mut Ctx,
) -> Result<Interpolation, Issue> {
    if !kind.is_numeric() {
        // Boolean and string track constructors take no interpolation argument.
        return Ok(kind.default_interpolation());
    }
    Ok(match fields.get("interpolation") {
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
    })
}

/// The bezier tangents in `settings` (`inTangents` and `outTangents`, a time and a value per
/// value, `values_len` values of `value_size` per key), when it has both; otherwise `settings`
/// stays an extra.
fn tangents(
    fields: &RawFields,
    path: &str,
    values_len: usize,
    value_size: usize,
    ctx: &mut Ctx,
) -> Result<Option<Tangents>, Issue> {
    let Some(raw) = fields.get("settings") else {
        return Ok(None);
    };
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
    let (Some(i), Some(o)) = (settings.get("inTangents"), settings.get("outTangents")) else {
        return Ok(None);
    };
    let expected = values_len * 2;
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
                    values_len
                ),
            ));
        }
        *slot = v;
    }
    let [in_tangents, out_tangents] = arrays;
    Ok(Some(Tangents {
        in_tangents,
        out_tangents,
        modes: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::threejs::read::Mode;
    use crate::formats::threejs::read::testing::read;

    fn fields(text: &str) -> RawFields<'_> {
        match serde_json::from_str::<Shaped<RawFields>>(text).unwrap() {
            Shaped::Ok(f) => f,
            Shaped::Wrong(_) => panic!("an object"),
        }
    }

    #[test]
    fn a_track_object_converts_on_its_own() {
        let text = r#"{"name":".s","type":"number","times":[0,1],"values":[2,3],"interpolation":2300,
            "settings":{"inTangents":[0,0,0,0],"outTangents":[0,0,0,0]},"x":1}"#;
        let mut ctx = Ctx::new(Mode::Strict);
        let t = convert_track(&fields(text), "tracks[0]", false, &mut ctx).unwrap();
        assert_eq!(t.name, ".s");
        assert_eq!(t.interpolation, Interpolation::Discrete);
        assert!(
            t.tangents.is_some(),
            "settings with both tangent arrays are tangents"
        );
        assert_eq!(t.extras.0.len(), 1);
        // Shared times are placeholders, counted without parsing.
        let t = convert_track(&fields(text), "tracks[0]", true, &mut ctx).unwrap();
        assert_eq!(t.times, [0.0, 0.0]);
        assert_eq!(
            count_elements(&RawValue::from_string("[ ]".into()).unwrap()),
            0
        );
        assert_eq!(
            count_elements(&RawValue::from_string("[1, 2,3]".into()).unwrap()),
            3
        );
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
}
