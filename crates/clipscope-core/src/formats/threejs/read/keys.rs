//! Legacy `keys` lists: a track written as `keys: [{time, value}, …]` instead of `times` and
//! `values`, flattened like three.js's `AnimationUtils.flattenJSON(keys, times, values,
//! 'value')`. The first key with a value decides the layout (arrays spread into the values,
//! `{x, y, z, w}` objects taken in that order, or single values); keys without a value are
//! skipped with their time.

use serde_json::value::RawValue;

use super::issue::{Ctx, Issue};
use super::leaves::{elements, string_of, wrong};
use super::numbers::number_elem;
use crate::formats::json::path::{field, index};
use crate::formats::json::{JsonKind, RawFields, Shaped};
use crate::model::{TrackKind, Values};

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
pub(super) fn flatten_keys(
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
    use crate::formats::threejs::read::testing::{nums, read};
    use crate::model::{BlendMode, TrackKind, Values};

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
}
