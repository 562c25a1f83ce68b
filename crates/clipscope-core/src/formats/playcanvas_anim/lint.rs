//! The anim clip's raw-file rule, run by `validate` after the strict read:
//!
//! * `playcanvas-quaternion-flip`: a `localRotation` curve the engine interpolates component by
//!   component (linear or cubic) has neighbouring keys in opposite hemispheres (dot < 0), so the
//!   node spins the long way round between them (three.js's slerp, which clipscope plays, takes
//!   the short way, so the preview does not show it).
//!
//! * `playcanvas-extra-components`: a transform curve's output has more components than the
//!   property takes (4 for `localEulerAngles`, as the engine's `alarm-on-clip`); the binder uses
//!   the first ones, and so does clipscope's reader.
//!
//! * `playcanvas-number-as-string`: key times, the duration, an output's `components` or a
//!   curve's index written as text (`"0.5"`); the engine's JavaScript reads them as numbers,
//!   and so does clipscope's reader.
//!
//! * `playcanvas-missing-interpolation`: a curve without `interpolation`; the engine's
//!   `AnimCache` evaluates nothing for it (the property is held at 0), while clipscope reads it
//!   as linear, as the curve was surely meant.
//!
//! * `playcanvas-string-path`: a curve whose `path` is a string (`"Root/Hips/graph/localPosition"`,
//!   older engines' form); engine 2.x's anim component binder reads `path.entityPath` and throws
//!   on it, while clipscope reads the path it spells.
//!
//! Findings belong to the clip and name the curve's JSON path.

use super::path::{Locator, Transform};
use crate::model::Problem;
use serde_json::Value;

/// How far below 0 the dot product must be to count (rounding near 180° apart).
const FLIP_EPSILON: f64 = 1e-4;

/// The raw-file findings of the anim clip text `bytes`.
pub(crate) fn lint(bytes: &[u8]) -> Vec<Problem> {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let (Some(curves), Some(outputs)) = (
        root.get("curves").and_then(Value::as_array),
        root.get("outputs").and_then(Value::as_array),
    ) else {
        return Vec::new();
    };
    let mut out = number_texts(&root);
    for (c, curve) in curves.iter().enumerate() {
        if curve.get("path").is_some_and(Value::is_string) {
            out.push(
                Problem::warning(
                    "playcanvas-string-path",
                    format!(
                        "curves[{c}]: the path is a string; engine 2.x's anim component cannot \
                         bind it (its binder throws) (write {{\"entityPath\", \"component\", \
                         \"propertyPath\"}})"
                    ),
                )
                .in_clip(0),
            );
        }
        if curve.get("interpolation").is_none() {
            out.push(
                Problem::warning(
                    "playcanvas-missing-interpolation",
                    format!(
                        "curves[{c}]: no interpolation; the engine evaluates nothing for such a \
                         curve and holds the property at 0 (clipscope reads it as linear: write \
                         \"interpolation\": 1)"
                    ),
                )
                .in_clip(0),
            );
        }
        let transform = curve
            .get("path")
            .and_then(|p| Locator::parse(p).ok())
            .and_then(|l| l.transform_of());
        let output = curve
            .get("outputIndex")
            .and_then(index_value)
            .and_then(|o| outputs.get(o as usize));
        let components = output
            .and_then(|o| o.get("components"))
            .and_then(index_value);
        if let (Some(t), Some(n)) = (transform, components)
            && n as usize > t.components()
        {
            out.push(
                Problem::warning(
                    "playcanvas-extra-components",
                    format!(
                        "curves[{c}]: the output has {n} components where {} takes {}; the \
                         engine uses the first {} of each key and ignores the rest",
                        t.property(),
                        t.components(),
                        t.components()
                    ),
                )
                .in_clip(0),
            );
        }
        let rotation = transform == Some(Transform::Rotation);
        let interpolation = curve
            .get("interpolation")
            .and_then(Value::as_u64)
            .unwrap_or(1);
        if !rotation || interpolation == 0 {
            continue;
        }
        let Some(data) = output.and_then(|o| o.get("data")).and_then(Value::as_array) else {
            continue;
        };
        let numbers: Vec<f64> = data.iter().filter_map(Value::as_f64).collect();
        let per_key = if interpolation == 2 { 3 } else { 1 };
        let keys: Vec<&[f64]> = numbers
            .chunks_exact(4 * per_key)
            .map(|k| &k[4 * (per_key / 2)..4 * (per_key / 2) + 4])
            .collect();
        let flips: Vec<usize> = (1..keys.len())
            .filter(|&k| {
                keys[k]
                    .iter()
                    .zip(keys[k - 1])
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
                    < -FLIP_EPSILON
            })
            .collect();
        if let Some(&k) = flips.first() {
            let more = if flips.len() > 1 {
                format!(" ({} more)", flips.len() - 1)
            } else {
                String::new()
            };
            out.push(
                Problem::warning(
                    "playcanvas-quaternion-flip",
                    format!(
                        "curves[{c}]: key {k} lies in the opposite hemisphere of key {}; the engine interpolates components, so the node turns the long way round (negate the key){more}",
                        k - 1
                    ),
                )
                .in_clip(0),
            );
        }
    }
    out
}

/// A count or index as the engine uses it: a JSON integer or the same written as text.
fn index_value(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok().filter(|n: &u64| n.to_string() == *s),
        v => v.as_u64(),
    }
}

/// `playcanvas-number-as-string` findings: numbers written as text where the engine reads them
/// as numbers (key times, `duration`, `components`, `inputIndex`, `outputIndex`).
fn number_texts(root: &Value) -> Vec<Problem> {
    let mut paths = Vec::new();
    if root.get("duration").is_some_and(Value::is_string) {
        paths.push("duration".to_string());
    }
    let list = |key: &str| {
        root.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for (i, input) in list("inputs").iter().enumerate() {
        if input
            .as_array()
            .is_some_and(|t| t.iter().any(Value::is_string))
        {
            paths.push(format!("inputs[{i}]"));
        }
    }
    for (o, output) in list("outputs").iter().enumerate() {
        if output.get("components").is_some_and(Value::is_string) {
            paths.push(format!("outputs[{o}].components"));
        }
    }
    for (c, curve) in list("curves").iter().enumerate() {
        for key in ["inputIndex", "outputIndex"] {
            if curve.get(key).is_some_and(Value::is_string) {
                paths.push(format!("curves[{c}].{key}"));
            }
        }
    }
    paths
        .into_iter()
        .map(|path| {
            Problem::warning(
                "playcanvas-number-as-string",
                format!(
                    "{path}: numbers written as text; the engine's JavaScript reads them as the \
                     numbers they spell (write plain JSON numbers)"
                ),
            )
            .in_clip(0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(second: &str, interpolation: u8) -> String {
        format!(
            r#"{{"inputs":[[0,1]],"outputs":[{{"components":4,"data":[0,0,0,1,{second}]}}],
               "curves":[{{"path":{{"entityPath":["a"],"component":"entity","propertyPath":["localRotation"]}},"inputIndex":0,"outputIndex":0,"interpolation":{interpolation}}}]}}"#
        )
    }

    #[test]
    fn flips_on_interpolated_rotation_curves_warn() {
        let flipped = lint(clip("0,0,0.1,-0.995", 1).as_bytes());
        assert_eq!(flipped.len(), 1);
        assert_eq!(flipped[0].code, "playcanvas-quaternion-flip");
        assert!(flipped[0].message.starts_with("curves[0]: key 1"));
        assert!(lint(clip("0,0,-0.1,0.995", 1).as_bytes()).is_empty());
        assert!(lint(clip("0,0,0.1,-0.995", 0).as_bytes()).is_empty());
    }

    #[test]
    fn extra_components_are_noted() {
        let text = r#"{"inputs":[[0,1]],"outputs":[{"components":4,"data":[0,0,0,0,0,90,0,0]}],
            "curves":[{"path":{"entityPath":["a"],"component":"entity","propertyPath":["localEulerAngles"]},"inputIndex":0,"outputIndex":0,"interpolation":1}]}"#;
        let found = lint(text.as_bytes());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "playcanvas-extra-components");
        assert_eq!(
            found[0].message,
            "curves[0]: the output has 4 components where localEulerAngles takes 3; the engine uses the first 3 of each key and ignores the rest"
        );
        assert!(lint(clip("0,0,0,1", 1).as_bytes()).is_empty());
    }

    #[test]
    fn text_numbers_and_missing_interpolation_are_noted() {
        let text = r#"{"duration":"1","inputs":[["0",1]],"outputs":[{"components":"3","data":[0,0,0,1,1,1]}],
            "curves":[{"path":"a/entity/localPosition","inputIndex":"0","outputIndex":0}]}"#;
        let found: Vec<String> = lint(text.as_bytes())
            .iter()
            .map(|p| format!("{} {}", p.code, p.message.split(':').next().unwrap_or("")))
            .collect();
        assert_eq!(
            found,
            [
                "playcanvas-number-as-string duration",
                "playcanvas-number-as-string inputs[0]",
                "playcanvas-number-as-string outputs[0].components",
                "playcanvas-number-as-string curves[0].inputIndex",
                "playcanvas-string-path curves[0]",
                "playcanvas-missing-interpolation curves[0]",
            ]
        );
    }
}
