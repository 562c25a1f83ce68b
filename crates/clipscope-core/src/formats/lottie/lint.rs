//! Lottie lint rules that need the raw file, run by `validate` after the strict read:
//!
//! * `lottie-empty-range`: the composition or a layer has `ip >= op` (nothing is ever shown), or
//!   a layer has no `ip` or `op` (lottie-web's range check fails: it is never drawn);
//! * `lottie-key-outside-layer`: an animated transform keyframe (`ks.*.k[i].t`) that can never be
//!   seen: it lies before its layer's in point and so does the next keyframe (or after the out
//!   point, and so does the one before). A keyframe outside `[ip, op]` whose neighbour lies
//!   inside still shapes what is seen, and the first or last keyframe holds its value beyond
//!   it, so neither is reported. Keyframe times and in/out points count the same frames
//!   (lottie-web subtracts `st` from both); time-stretched layers are not checked;
//! * `lottie-missing-parent`: a layer's `parent` names no layer `ind` of its composition
//!   (compared as lottie-web compares them, loosely: `"2"` names layer 2);
//! * `lottie-lenient-layer`: a layer field the reader accepted as lottie-web reads it (a `ty`
//!   that is no number, `ind`, `parent`, `ip`, `op` or a keyframe time written as text;
//!   [`Document::accepted`]);
//! * `lottie-unplayable-keyframe`: a transform keyframe lottie-web cannot evaluate, which
//!   clipscope reads as meant (an easing keyframe without `o`/`i`: linear; a bare-number `s`:
//!   `[s]`).
//!
//! Findings belong to clip 0 (the composition) and name the JSON path. The file is looked at as
//! plain JSON, so a shape this module does not expect is skipped, never an error.

use std::collections::HashSet;

use serde_json::Value;

use crate::formats::Document;
use crate::formats::json::js_number;
use crate::model::Problem;

/// `lottie-lenient-layer` findings: what the reader of `doc` accepted.
pub(crate) fn lenient(doc: &Document) -> Vec<Problem> {
    doc.accepted
        .iter()
        .map(|a| Problem::warning("lottie-lenient-layer", a.describe()).in_clip(0))
        .collect()
}

/// A layer index as lottie-web's loose `ind == parent` compares it: a number, or a decimal
/// written as text.
fn loose(v: &Value, k: &str) -> Option<f64> {
    let x = v.get(k)?;
    x.as_f64().or_else(|| x.as_str().and_then(js_number))
}

/// The raw-file findings of the Lottie text `bytes`.
pub(crate) fn lint(bytes: &[u8]) -> Vec<Problem> {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    if let (Some(ip), Some(op)) = (num(&root, "ip"), num(&root, "op"))
        && ip >= op
    {
        out.push(Problem::warning(
            "lottie-empty-range",
            format!("the composition's ip ({ip}) is not before its op ({op}): nothing is shown"),
        ));
    }
    let mut layer_lists = vec![("layers".to_string(), root.get("layers"))];
    if let Some(assets) = root.get("assets").and_then(Value::as_array) {
        for (a, asset) in assets.iter().enumerate() {
            layer_lists.push((format!("assets[{a}].layers"), asset.get("layers")));
        }
    }
    for (path, layers) in layer_lists {
        let Some(layers) = layers.and_then(Value::as_array) else {
            continue;
        };
        let indices: HashSet<u64> = layers
            .iter()
            .filter_map(|l| loose(l, "ind"))
            .map(|ind| (ind + 0.0).to_bits())
            .collect();
        for (i, layer) in layers.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let (ip, op) = (loose(layer, "ip"), loose(layer, "op"));
            match (ip, op) {
                (Some(ip), Some(op)) if ip >= op => out.push(Problem::warning(
                    "lottie-empty-range",
                    format!("{at}: the layer's ip ({ip}) is not before its op ({op})"),
                )),
                (Some(_), Some(_)) => {}
                (ip, _) => out.push(Problem::warning(
                    "lottie-empty-range",
                    format!(
                        "{at}: the layer has no {}: lottie-web never draws it",
                        if ip.is_none() { "ip" } else { "op" }
                    ),
                )),
            }
            if let Some(parent) = loose(layer, "parent")
                && !indices.contains(&(parent + 0.0).to_bits())
            {
                out.push(Problem::warning(
                    "lottie-missing-parent",
                    format!("{at}.parent: no layer has ind {parent}"),
                ));
            }
            if let Some(ks) = layer.get("ks").and_then(Value::as_object) {
                out.extend(unplayable_keys(&at, ks));
            }
            // Keyframe times and in/out points both count the composition's frames
            // (lottie-web subtracts the layer's `st` from the frame and from every keyframe
            // time alike); a time-stretched layer (`sr` ≠ 1) is not checked.
            let stretched = num(layer, "sr").is_some_and(|sr| sr != 1.0);
            let (Some(ip), Some(op)) = (ip, op) else {
                continue;
            };
            let Some(ks) = layer
                .get("ks")
                .and_then(Value::as_object)
                .filter(|_| !stretched)
            else {
                continue;
            };
            for (prop, value) in ks {
                let Some(keys) = value.get("k").and_then(Value::as_array) else {
                    continue;
                };
                let times: Vec<Option<f64>> = keys.iter().map(|k| num(k, "t")).collect();
                if let Some((k, t, other)) = dead_key(&times, ip, op) {
                    let (side, point) = if t < ip {
                        ("before the layer's in point", ip)
                    } else {
                        ("after the layer's out point", op)
                    };

                    out.push(Problem::warning(
                        "lottie-key-outside-layer",
                        format!(
                            "{at}.ks.{prop}.k[{k}].t: the keyframe at frame {t} is never seen: it and its neighbour at frame {other} both lie {side} ({point})"
                        ),
                    ));
                }
            }
        }
    }
    for p in &mut out {
        p.clip = Some(0);
    }
    out
}

/// `lottie-unplayable-keyframe` findings for the transform `ks` of the layer at `at`: per
/// property, the first keyframe lottie-web cannot evaluate (and how many more), a keyframe
/// that eases towards the next one without its `o`/`i` handles (lottie-web reads
/// `keyData.o.x` of nothing, and shows -999999 or NaN), or one whose value `s` is a bare
/// number instead of an array (lottie-web reads `s[0]` of a number).
fn unplayable_keys(at: &str, ks: &serde_json::Map<String, Value>) -> Vec<Problem> {
    let mut out = Vec::new();
    for (prop, value) in ks {
        let Some(keys) = value.get("k").and_then(Value::as_array) else {
            continue;
        };
        if !keys.first().is_some_and(Value::is_object) {
            continue;
        }
        let bad: Vec<(usize, &str)> = keys
            .iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let hold = k.get("h").and_then(Value::as_f64) == Some(1.0);
                let eases = i + 1 < keys.len() && !hold;
                if k.get("s").is_some_and(Value::is_number) {
                    Some((i, "its value s is a bare number, which lottie-web reads as s[0] of a number (write [v])"))
                } else if eases && (k.get("o").is_none() || k.get("i").is_none()) {
                    Some((i, "it eases towards the next keyframe without its o/i handles, so lottie-web cannot evaluate the segment (write o and i, or h: 1)"))
                } else {
                    None
                }
            })
            .collect();
        if let Some(&(k, why)) = bad.first() {
            let more = match bad.len() {
                1 => String::new(),
                n => format!(" ({} more)", n - 1),
            };
            out.push(Problem::warning(
                "lottie-unplayable-keyframe",
                format!("{at}.ks.{prop}.k[{k}]: {why}; clipscope reads it as meant{more}"),
            ));
        }
    }
    out
}

/// The first keyframe of `times` (frames) that is never seen in a layer shown over `[ip, op]`:
/// its index, its time and the time of the neighbour on the same side.
fn dead_key(times: &[Option<f64>], ip: f64, op: f64) -> Option<(usize, f64, f64)> {
    (0..times.len()).find_map(|k| {
        let t = times[k]?;
        let next = times.get(k + 1).copied().flatten();
        let prev = k.checked_sub(1).and_then(|p| times[p]);
        match (next, prev) {
            (Some(n), _) if t < ip && n <= ip => Some((k, t, n)),
            (_, Some(p)) if t > op && p >= op => Some((k, t, p)),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The findings of `text` but `lottie-unplayable-keyframe`: these fixtures leave the
    /// easing handles out for brevity (that rule has its own test).
    fn found(text: &str) -> Vec<Problem> {
        lint(text.as_bytes())
            .into_iter()
            .filter(|p| p.code != "lottie-unplayable-keyframe")
            .collect()
    }

    fn codes(text: &str) -> Vec<String> {
        found(text).into_iter().map(|p| p.code).collect()
    }

    #[test]
    fn good_file_passes() {
        let good = r#"{"ip":0,"op":60,"layers":[{"ind":1,"ip":0,"op":60,
            "ks":{"o":{"a":1,"k":[{"t":0,"s":[0]},{"t":60,"s":[100]}]}}},
            {"ind":2,"parent":1,"ip":0,"op":60,"ks":{}}]}"#;
        assert!(codes(good).is_empty());
    }

    #[test]
    fn a_layer_without_in_or_out_point_warns_that_lottie_web_never_draws_it() {
        let text = r#"{"ip":0,"op":60,"layers":[{"ind":1,"op":60,"ks":{}},
            {"ind":2,"ip":0,"ks":{}},{"ind":3,"ip":"0","op":"60","ks":{}}]}"#;
        let p = found(text);
        let messages: Vec<(&str, &str)> = p
            .iter()
            .map(|p| (p.code.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "lottie-empty-range",
                    "layers[0]: the layer has no ip: lottie-web never draws it"
                ),
                (
                    "lottie-empty-range",
                    "layers[1]: the layer has no op: lottie-web never draws it"
                ),
            ]
        );
    }

    #[test]
    fn bad_ranges_keys_and_parents_warn() {
        let bad = r#"{"ip":10,"op":10,"layers":[{"ind":1,"ip":0,"op":30,
            "ks":{"o":{"a":1,"k":[{"t":0,"s":[0]},{"t":20,"s":[50]},{"t":31,"s":[90]},{"t":45,"s":[100]}]}}},
            {"ind":2,"parent":7,"ip":5,"op":5,"ks":{}}]}"#;
        let p = found(bad);
        let codes: Vec<&str> = p.iter().map(|p| p.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "lottie-empty-range",
                "lottie-key-outside-layer",
                "lottie-empty-range",
                "lottie-missing-parent"
            ]
        );
        assert_eq!(
            p[1].message,
            "layers[0].ks.o.k[3].t: the keyframe at frame 45 is never seen: it and its neighbour \
             at frame 31 both lie after the layer's out point (30)"
        );
        assert!(p.iter().all(|p| p.clip == Some(0)));
    }

    #[test]
    fn keys_outside_the_layer_that_shape_what_is_seen_pass() {
        // Before the in point, but the next key is inside; after the out point, but the key
        // before is inside; the last key holds from before the in point.
        for k in [
            r#"[{"t":0,"s":[0]},{"t":15,"s":[100]}]"#,
            r#"[{"t":15,"s":[0]},{"t":45,"s":[100]}]"#,
            r#"[{"t":2,"s":[0]}]"#,
        ] {
            let text = format!(
                r#"{{"ip":0,"op":60,"layers":[{{"ind":1,"ip":10,"op":30,"ks":{{"o":{{"a":1,"k":{k}}}}}}}]}}"#
            );
            assert!(codes(&text).is_empty(), "{k}");
        }
        let dead = r#"{"ip":0,"op":60,"layers":[{"ind":1,"ip":10,"op":30,
            "ks":{"o":{"a":1,"k":[{"t":0,"s":[0]},{"t":5,"s":[5]},{"t":20,"s":[100]}]}}}]}"#;
        assert_eq!(codes(dead), ["lottie-key-outside-layer"]);
        assert!(found(dead)[0].message.starts_with("layers[0].ks.o.k[0].t"));
    }

    #[test]
    fn start_time_shifts_keys_and_in_points_alike_and_stretched_layers_pass() {
        // A layer starting at 96 whose keys and in point are both composition frames.
        let shifted = r#"{"ip":0,"op":300,"layers":[{"ind":1,"ip":116,"op":272,"st":96,
            "ks":{"s":{"a":1,"k":[{"t":85,"s":[0]},{"t":110,"s":[5]},{"t":122,"s":[9]}]}}}]}"#;
        assert_eq!(codes(shifted), ["lottie-key-outside-layer"]);
        let stretched = shifted.replace(r#""st":96"#, r#""st":96,"sr":2"#);
        assert!(codes(&stretched).is_empty());
    }

    #[test]
    fn lenient_layers_are_read_as_lottie_web_reads_them_and_noted() {
        let text = r#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
            {"ty":"4","ind":"1","ip":0,"op":30,"st":0,"ks":{"p":{"a":0,"k":[10,20,0]}}},
            {"ty":3,"ind":2,"parent":"1","ip":"0","op":30,"st":0,
             "ks":{"r":{"a":1,"k":[{"t":0,"s":[0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},
                                   {"t":"30","s":[90]}]}}}]}"#;
        let doc =
            crate::formats::read_bytes(text.as_bytes(), std::path::Path::new("l.json")).unwrap();
        let layers = doc.clips[0].layers.as_ref().unwrap();
        let records = &layers.layers;
        assert_eq!(records[0].ty, Some(3.0));
        assert_eq!(records[0].ind, Some(1.0));
        assert_eq!(records[1].parent, Some(1.0));
        let paths: Vec<&str> = doc.accepted.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "layers[0].ind",
                "layers[0].ty",
                "layers[1].parent",
                "layers[1].ip",
                "layers[1].ks.r.k[1].t"
            ]
        );
        assert_eq!(doc.clips[0].tracks.last().unwrap().times, [0.0, 1.0]);
        // The parent written as text names layer 1: no false alarm.
        assert!(codes(text).is_empty(), "{:?}", codes(text));
        assert_eq!(lenient(&doc).len(), 5);
    }

    #[test]
    fn keyframes_lottie_web_cannot_evaluate_are_warned_about() {
        let text = r#"{"ip":0,"op":30,"layers":[{"ind":1,"ip":0,"op":30,"ks":{
            "r":{"a":1,"k":[{"t":0,"s":[0]},{"t":10,"s":[5],"h":1},{"t":30,"s":[90]}]},
            "o":{"a":1,"k":[{"t":0,"s":0,"o":{"x":[0.3],"y":[0]},"i":{"x":[0.7],"y":[1]}},{"t":30,"s":[90]}]},
            "s":{"a":1,"k":[{"t":0,"s":[100,100],"o":{"x":[0.3],"y":[0]},"i":{"x":[0.7],"y":[1]}},{"t":30,"s":[50,50]}]}}}]}"#;
        let p = lint(text.as_bytes());
        let found: Vec<String> = p
            .iter()
            .map(|p| format!("{} {}", p.code, p.message.split(':').next().unwrap_or("")))
            .collect();
        assert_eq!(
            found,
            [
                "lottie-unplayable-keyframe layers[0].ks.r.k[0]",
                "lottie-unplayable-keyframe layers[0].ks.o.k[0]",
            ]
        );
    }
}
