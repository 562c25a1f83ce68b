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
    let mut out = Vec::new();
    for (c, curve) in curves.iter().enumerate() {
        let transform = curve
            .get("path")
            .and_then(|p| Locator::parse(p).ok())
            .and_then(|l| l.transform_of());
        let components = curve
            .get("outputIndex")
            .and_then(Value::as_u64)
            .and_then(|o| outputs.get(o as usize))
            .and_then(|o| o.get("components"))
            .and_then(Value::as_u64);
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
        let Some(data) = curve
            .get("outputIndex")
            .and_then(Value::as_u64)
            .and_then(|o| outputs.get(o as usize))
            .and_then(|o| o.get("data"))
            .and_then(Value::as_array)
        else {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(second: &str, interpolation: u8) -> String {
        format!(
            r#"{{"inputs":[[0,1]],"outputs":[{{"components":4,"data":[0,0,0,1,{second}]}}],
               "curves":[{{"path":"a/entity/localRotation","inputIndex":0,"outputIndex":0,"interpolation":{interpolation}}}]}}"#
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
            "curves":[{"path":{"entityPath":["a"],"component":"entity","propertyPath":["localEulerAngles"]},"inputIndex":0,"outputIndex":0}]}"#;
        let found = lint(text.as_bytes());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "playcanvas-extra-components");
        assert_eq!(
            found[0].message,
            "curves[0]: the output has 4 components where localEulerAngles takes 3; the engine uses the first 3 of each key and ignores the rest"
        );
        assert!(lint(clip("0,0,0,1", 1).as_bytes()).is_empty());
    }
}
