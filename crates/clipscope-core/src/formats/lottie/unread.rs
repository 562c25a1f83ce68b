//! What of a Lottie file clipscope does not read, when it matters: clipscope reads layer
//! transforms (`ks`), so a composition whose motion is all elsewhere (animated shapes, masks,
//! effects, text or time remapping, with transforms that never change) would come out as a
//! clip that stands still. Such a composition is listed as
//! [`unread`](crate::formats::Document::unread) with the JSON path of its first animated
//! property outside the transforms and how many there are. A composition whose transforms move
//! is read for what clipscope shows (layer motion); its other animated properties are not
//! listed, as they are not keyframe data of the kind clipscope reads.

use serde_json::Value;

use crate::formats::document::Unread;
use crate::formats::json::path::{field, index};
use crate::model::Clip;

/// Whether `v` is an animated Lottie property: `{"a": 1, "k": [keyframe, …]}`.
fn animated(v: &Value) -> bool {
    v.get("a").and_then(Value::as_f64) == Some(1.0)
        && v.get("k")
            .and_then(Value::as_array)
            .is_some_and(|k| k.first().is_some_and(|f| f.get("t").is_some()))
}

/// The JSON paths of the animated properties below `v` (at `path`), skipping layer transforms
/// (`ks`) and nested layers.
fn collect(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if animated(v) {
                out.push(path.to_string());
                return;
            }
            for (k, child) in o {
                if k != "ks" && k != "layers" {
                    collect(child, &field(path, k), out);
                }
            }
        }
        Value::Array(list) => {
            for (i, child) in list.iter().enumerate() {
                collect(child, &index(path, i), out);
            }
        }
        _ => {}
    }
}

/// The compositions of the Lottie text `bytes` whose clip in `clips` (the root composition,
/// then each precomposition with layers, in asset order) does not move although the
/// composition animates other properties.
pub(crate) fn unread(bytes: &[u8], clips: &[Clip]) -> Vec<Unread> {
    let still = |c: usize| {
        clips
            .get(c)
            .is_some_and(|clip| clip.tracks.iter().all(|t| t.len() < 2))
    };
    if !(0..clips.len()).any(still) {
        return Vec::new();
    }
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let mut comps = vec![("layers".to_string(), root.get("layers"))];
    if let Some(assets) = root.get("assets").and_then(Value::as_array) {
        for (a, asset) in assets.iter().enumerate() {
            if let Some(layers) = asset.get("layers") {
                comps.push((field(&index("assets", a), "layers"), Some(layers)));
            }
        }
    }
    let mut out = Vec::new();
    for (c, (path, layers)) in comps.into_iter().enumerate() {
        let Some(layers) = layers.and_then(Value::as_array) else {
            continue;
        };
        if !still(c) {
            continue;
        }
        let mut found = Vec::new();
        for (l, layer) in layers.iter().enumerate() {
            collect(layer, &index(&path, l), &mut found);
        }
        if let Some(first) = found.first() {
            out.push(
                Unread::new(
                    first.clone(),
                    format!(
                        "{} animated propert{} outside layer transforms (shapes, masks, effects, text or time remapping) while the composition's transforms stand still",
                        found.len(),
                        if found.len() == 1 { "y" } else { "ies" }
                    ),
                )
                .in_clip(c),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    const FILE: &str = r#"{"layers":[{"ks":{"o":{"a":0,"k":100}},"shapes":[{"ty":"gr","it":[
        {"ty":"tm","e":{"a":1,"k":[{"t":0,"s":[0]},{"t":30,"s":[100]}]}}]}]}]}"#;

    fn clip(keys: usize) -> Clip {
        let times: Vec<f32> = (0..keys).map(|k| k as f32).collect();
        let values = vec![1.0; keys];
        Clip::new(
            "c",
            1.0,
            vec![Track::numeric(
                "l.opacity",
                TrackKind::Number,
                times,
                values,
            )],
        )
    }

    #[test]
    fn still_compositions_with_other_animation_are_listed() {
        let u = unread(FILE.as_bytes(), &[clip(1)]);
        assert_eq!(u.len(), 1);
        assert_eq!(u[0].path, "layers[0].shapes[0].it[0].e");
        assert_eq!(u[0].clip, Some(0));
        assert!(
            u[0].what
                .starts_with("1 animated property outside layer transforms")
        );
        assert!(unread(FILE.as_bytes(), &[clip(2)]).is_empty());
    }
}
