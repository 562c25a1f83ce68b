//! Converting a PlayCanvas animation file into a [`Document`] with the engine's parser rules
//! (`_parseAnimationV3` / `_parseAnimationV4`, spec B1–B3).
//!
//! Each node with keys gives three linear tracks, `NODE.position` (vector), `NODE.quaternion`
//! and `NODE.scale` (vector), all with the node's key times, so a node keeps every key. A
//! channel in the node's `defaults` is constant: like the engine, every key takes the default
//! and ignores any per-key value (which is kept for writing back). A channel that is neither in
//! `defaults` nor on a key makes the engine's parser throw (`p[0]` of `undefined`); it is an
//! error here, at the key's path. Rotations are Euler degrees turned into quaternions by
//! [`quaternion_from_euler`] once, at load, like the engine.
//!
//! Shapes the engine's parser reads leniently are read the same way and listed in
//! [`Document::accepted`] (`validate` notes them, `playcanvas-lenient-shape`): a `version`
//! written as text (`"4"`: the parser is picked by `_parseAnimationV${version}`), a value with
//! more than 3 numbers (`new Vec3(p[0], p[1], p[2])` and `setFromEulerAngles(r[0], r[1], r[2])`
//! read the first 3), a position or scale with fewer (`Vec3`'s missing arguments are 0). A
//! rotation with fewer than 3 angles stays an error: the engine's quaternion would be NaN.
//!
//! Where the engine would throw, or store `undefined`/`NaN`, the reader stops with a
//! [`ReadError`] naming the JSON path instead. A missing `duration` (the engine would never
//! loop) becomes the end of the last key.

use std::collections::HashMap;

use super::layout::{KeyFields, NodeLayout, Numbers, PlayCanvasLayout, Slot, time_key, value_key};
use super::schema::{Located, Node, Numbers as _, Obj, parse_top};
use crate::formats::codec::Input;
use crate::formats::document::Source;
use crate::formats::euler::quaternion_from_euler;
use crate::formats::json::path::field;
use crate::formats::json::top_object;
use crate::formats::{Accepted, Document, Format, ReadError};
use crate::model::{BlendMode, Clip, Extras, Track, TrackKind};

/// The channels of a key: version 4 field, version 3 field, track property and kind.
pub(crate) const CHANNELS: [(&str, &str, &str, TrackKind); 3] = [
    ("p", "pos", "position", TrackKind::Vector),
    ("r", "rot", "quaternion", TrackKind::Quaternion),
    ("s", "scale", "scale", TrackKind::Vector),
];

/// Reads PlayCanvas animation JSON (`input.bytes`, the contents of `input.file`); progress
/// advances node by node.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    let (bytes, file) = (input.bytes, input.file);
    let fail = |l: Located| l.in_file(file);
    let (body, top) = top_object(
        bytes,
        file,
        "a PlayCanvas animation object ({\"animation\": {…}})",
        parse_top,
    )?;
    input.check_cancelled()?;
    let mut accepted = Vec::new();
    let (clip, mut layout) = read_animation(&top, input, &mut accepted).map_err(fail)?;
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    let end = body
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(body.len(), |i| i + 1);
    let bom = if body.len() < bytes.len() {
        "\u{feff}"
    } else {
        ""
    };
    layout.lead = format!("{bom}{}", String::from_utf8_lossy(&body[..start]));
    layout.trail = String::from_utf8_lossy(&body[end..]).into_owned();
    Ok(Document {
        path: Some(file.to_path_buf()),
        format: Format::PlayCanvas,
        clips: vec![clip],
        skeleton: None,
        mesh: None,
        model: None,
        unread: Vec::new(),
        accepted,
        source: Source::new(layout),
    })
}

/// The envelope and the animation object: the clip and the layout (without the text around the
/// top-level object); lenient shapes go to `accepted`.
fn read_animation(
    top: &Obj,
    input: &Input<'_>,
    accepted: &mut Vec<Accepted>,
) -> Result<(Clip, PlayCanvasLayout), Located> {
    let Some(animation) = top.get_some("animation") else {
        let reason = if top.get("nodes").is_some() {
            "missing \"animation\": PlayCanvas animation JSON wraps the animation as \
             {\"animation\": {\"version\", \"name\", \"duration\", \"nodes\"}}"
        } else {
            "missing \"animation\" (PlayCanvas animation JSON is {\"animation\": {…}})"
        };
        return Err(Located::new("animation", reason));
    };
    let anim = animation.object_as("an animation object")?;
    let version_node = anim.require("version")?;
    // `_parseAnimationV${version}`: the text "3" or "4" picks the same parser as the number.
    let text = version_node.string().ok();
    let version = match text.as_deref().map_or_else(
        || version_node.f64(),
        |t| match t {
            "3" => Ok(3.0),
            "4" => Ok(4.0),
            _ => Err(version_node.wrong("version 3 or 4")),
        },
    ) {
        Ok(v) if v == 3.0 || v == 4.0 => {
            if text.is_some() {
                accepted.push(Accepted::new(
                    &version_node.path,
                    "the version written as text; the engine's loader picks its parser by \
                     `_parseAnimationV${version}`, the same as for the number",
                ));
            }
            v as u8
        }
        Ok(_) => {
            return Err(Located::new(
                &version_node.path,
                format!(
                    "unsupported version {} (the engine reads versions 3 and 4)",
                    version_node.raw.get().trim()
                ),
            ));
        }
        Err(_) => return Err(version_node.wrong("version 3 or 4")),
    };
    let name = match anim.get_some("name") {
        Some(n) => n.string()?,
        None => String::new(),
    };
    let duration = match anim.get_some("duration") {
        Some(d) => Some((d.f64()?, d.raw.get().trim().into())),
        None => None,
    };
    let nodes = anim.require("nodes")?.array("an array of nodes")?;

    let mut tracks = Vec::with_capacity(nodes.len() * 3);
    let mut node_layouts = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        input.step(i, nodes.len())?;
        let (node_tracks, layout) = read_node(node, version, accepted)?;
        tracks.extend(node_tracks);
        node_layouts.push(layout);
    }

    let mut extras = Extras::default();
    for key in anim.names() {
        if !matches!(key, "version" | "name" | "duration" | "nodes")
            && let Some(raw) = anim.fields.get(key)
        {
            extras.0.push((key.to_string(), raw.to_owned()));
        }
    }
    let mut clip = Clip {
        name,
        duration: duration.as_ref().map_or(-1.0, |d| d.0),
        tracks,
        blend_mode: BlendMode::Normal,
        uuid: None,
        user_data: serde_json::Value::Object(Default::default()),
        layers: None,
        extras,
    };
    if duration.is_none() {
        clip.reset_duration();
    }
    let layout = PlayCanvasLayout {
        top: slots(top, &["animation"]),
        animation: anim.names().into_iter().map(str::to_string).collect(),
        duration,
        nodes: node_layouts,
        lead: String::new(),
        trail: String::new(),
    };
    Ok((clip, layout))
}

/// The fields of `obj` in order, those named in `known` as slots the writer fills.
fn slots(obj: &Obj, known: &[&'static str]) -> Vec<Slot> {
    obj.names()
        .into_iter()
        .filter_map(|name| match known.iter().find(|k| **k == name) {
            Some(k) => Some(Slot::Known(k)),
            None => Some(Slot::Extra(
                name.to_string(),
                obj.fields.get(name)?.to_owned(),
            )),
        })
        .collect()
}

/// The text of each number of an array node, with its value.
fn numbers(node: &Node, values: &[f64]) -> Numbers {
    let elems = node.array("").unwrap_or_default();
    Numbers(
        elems
            .iter()
            .zip(values)
            .map(|(e, &v)| (v, e.raw.get().trim().into()))
            .collect(),
    )
}

/// A channel value as the model stores it: `f32` position/scale, or the rotation's quaternion.
fn channel_value(channel: usize, v: [f64; 3]) -> Vec<f32> {
    if channel == 1 {
        quaternion_from_euler(v).iter().map(|&x| x as f32).collect()
    } else {
        v.iter().map(|&x| x as f32).collect()
    }
}

/// The three numbers the engine's parser takes from the value of channel `channel` (0
/// position, 1 rotation, 2 scale) at `n`: the first 3, a missing position or scale component 0
/// (`Vec3`'s default); anything but exactly 3 numbers is noted in `accepted`.
fn engine_triple(
    n: &Node,
    channel: usize,
    accepted: &mut Vec<Accepted>,
) -> Result<[f64; 3], Located> {
    let elems = n.array("an array of 3 numbers")?;
    if elems.len() == 3 || (channel == 1 && elems.len() < 3) {
        return n.triple();
    }
    let mut v = [0.0; 3];
    for (x, e) in v.iter_mut().zip(&elems) {
        *x = e.finite_f32()?;
    }
    let how = if elems.len() > 3 {
        "the engine's parser reads the first 3 and ignores the rest"
    } else {
        "the engine's Vec3 takes each missing one as 0"
    };
    accepted.push(Accepted::new(
        &n.path,
        format!(
            "{} number{} where 3 are expected; {how}",
            elems.len(),
            if elems.len() == 1 { "" } else { "s" }
        ),
    ));
    Ok(v)
}

/// One node: its three tracks (none when it has no keys) and its layout; lenient shapes go to
/// `accepted`.
fn read_node(
    node: &Node,
    version: u8,
    accepted: &mut Vec<Accepted>,
) -> Result<(Vec<Track>, NodeLayout), Located> {
    let obj = node.object_as("a node object")?;
    let name = obj.require("name")?.string()?;
    let mut texts = HashMap::new();
    let mut defaulted = [false; 3];
    let mut defaults: [Option<Vec<f32>>; 3] = [None, None, None];
    let mut default_slots = Vec::new();
    if version == 4 {
        let d = match obj.get_some("defaults") {
            Some(d) => d.object_as("a defaults object")?,
            None => {
                return Err(Located::new(
                    field(&node.path, "defaults"),
                    "missing \"defaults\" (version 4 nodes need one, even {})",
                ));
            }
        };
        for (c, (key, ..)) in CHANNELS.iter().enumerate() {
            // `defPos ? defPos : k.p`: null counts as absent.
            if let Some(n) = d.get_some(key) {
                let v = engine_triple(&n, c, accepted)?;
                let value = channel_value(c, v);
                texts
                    .entry(value_key(c, None, &value))
                    .or_insert_with(|| numbers(&n, &v));
                defaults[c] = Some(value);
                defaulted[c] = true;
            }
        }
        default_slots = slots(&d, &["p", "r", "s"])
            .into_iter()
            .filter_map(|s| match s {
                // A null channel is kept verbatim; it is not a default.
                Slot::Known(k) if d.get_some(k).is_none() => {
                    Some(Slot::Extra(k.to_string(), d.fields.get(k)?.to_owned()))
                }
                s => Some(s),
            })
            .collect();
    }
    let keys = obj.require("keys")?.array("an array of keys")?;

    let mut times = Vec::with_capacity(keys.len());
    let mut values: [Vec<f32>; 3] =
        std::array::from_fn(|c| Vec::with_capacity(keys.len() * if c == 1 { 4 } else { 3 }));
    let mut key_fields: HashMap<u32, Vec<Option<KeyFields>>> = HashMap::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for key in &keys {
        let k = key.object_as("a key object")?;
        let time_field = if version == 4 { "t" } else { "time" };
        let t_node = k.require(time_field)?;
        let t_value = t_node.finite_f32()?;
        let t = t_value as f32;
        texts
            .entry(time_key(t))
            .or_insert_with(|| Numbers(vec![(t_value, t_node.raw.get().trim().into())]));
        times.push(t);
        let mut used = vec![time_field];
        for (c, (v4, v3, ..)) in CHANNELS.iter().enumerate() {
            if let Some(value) = &defaults[c] {
                values[c].extend_from_slice(value);
                continue;
            }
            let name = if version == 4 { *v4 } else { *v3 };
            let n = k.get_some(name).ok_or_else(|| {
                let why = if version == 4 {
                    format!("missing \"{name}\" (and the node's defaults have none)")
                } else {
                    format!("missing \"{name}\" (version 3 keys need pos, rot and scale)")
                };
                Located::new(field(&key.path, name), why)
            })?;
            let v = engine_triple(&n, c, accepted)?;
            let value = channel_value(c, v);
            texts
                .entry(value_key(c, Some(t), &value))
                .or_insert_with(|| numbers(&n, &v));
            values[c].extend_from_slice(&value);
            used.push(name);
        }
        let extra: KeyFields = k
            .names()
            .into_iter()
            .filter(|n| !used.contains(n))
            .filter_map(|n| Some((n.to_string(), k.fields.get(n)?.to_owned())))
            .collect();
        let occurrence = seen.entry(t.to_bits()).or_insert(0);
        if !extra.is_empty() {
            let list = key_fields.entry(t.to_bits()).or_default();
            list.resize(*occurrence, None);
            list.push(Some(extra));
        }
        *occurrence += 1;
    }

    let fields = if version == 4 {
        slots(&obj, &["name", "defaults", "keys"])
    } else {
        let mut fields = vec![
            Slot::Known("name"),
            Slot::Known("defaults"),
            Slot::Known("keys"),
        ];
        fields.extend(
            slots(&obj, &["name", "keys"])
                .into_iter()
                .filter(|s| matches!(s, Slot::Extra(..))),
        );
        fields
    };
    let layout = NodeLayout {
        name: name.clone(),
        fields,
        defaults: default_slots,
        defaulted,
        key_fields,
        texts,
        empty: keys.is_empty().then(|| node.raw.to_owned()),
    };
    if keys.is_empty() {
        return Ok((Vec::new(), layout));
    }
    let [position, quaternion, scale] = values;
    let tracks = [position, quaternion, scale]
        .into_iter()
        .zip(CHANNELS)
        .map(|(v, (_, _, property, kind))| {
            Track::numeric(format!("{name}.{property}"), kind, times.clone(), v)
        })
        .collect();
    Ok((tracks, layout))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::codec::read_as;
    use crate::formats::{lint_bytes, read_bytes};
    use crate::model::interpolant::Sampler;

    fn read(text: &str) -> Document {
        read_bytes(text.as_bytes(), Path::new("t.json")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(text: &str) -> String {
        match read_bytes(text.as_bytes(), Path::new("t.json")) {
            Ok(_) => panic!("read {text} without error"),
            Err(e) => e.to_string(),
        }
    }

    fn nums(t: &Track) -> &[f32] {
        t.values.as_numbers().unwrap()
    }

    fn close(a: &[f32], b: &[f64], tolerance: f64) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (*x as f64 - y).abs() <= tolerance)
    }

    #[test]
    fn spec_b6_test_vector() {
        // Keys r=[0,0,0]@0 and r=[0,90,0]@1 → at t=0.5 quat (0, 0.382683, 0, 0.923880).
        let doc = read(
            r#"{"animation":{"version":4,"name":"b6","duration":1,"nodes":[{"name":"n","defaults":{"p":[0,0,0],"s":[1,1,1]},
            "keys":[{"t":0,"r":[0,0,0]},{"t":1,"r":[0,90,0]}]}]}}"#,
        );
        let clip = &doc.clips[0];
        let q = &clip.tracks[1];
        assert_eq!(q.name, "n.quaternion");
        assert_eq!(q.kind, TrackKind::Quaternion);
        let mut sampler = Sampler::new(q);
        let v = sampler.evaluate(0.5);
        assert!(
            close(
                v.as_numbers().unwrap(),
                &[0.0, 0.382683, 0.0, 0.923880],
                5e-7
            ),
            "{v:?}"
        );
        // The key itself: setFromEulerAngles(0, 90, 0) = (0, sin 45°, 0, cos 45°).
        assert!(close(
            &nums(q)[4..],
            &[0.0, 0.5f64.sqrt(), 0.0, 0.5f64.sqrt()],
            1e-7
        ));
    }

    #[test]
    fn defaults_override_every_key_like_the_engine() {
        let doc = read(
            r#"{"animation":{"version":4,"name":"d","duration":2,"nodes":[{"name":"PB Pelvis","defaults":{"p":[1,2,3],"s":[0.01,0.01,0.01]},
            "keys":[{"t":0,"r":[30,50,70],"p":[9,9,9]},{"t":0.5,"r":[0,0,0]}]}]}}"#,
        );
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "d");
        assert_eq!(clip.duration, 2.0);
        let names: Vec<_> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "PB Pelvis.position",
                "PB Pelvis.quaternion",
                "PB Pelvis.scale"
            ]
        );
        // The per-key p is ignored (the default wins), but kept for writing back.
        assert_eq!(nums(&clip.tracks[0]), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
        assert_eq!(clip.tracks[2].times, [0.0, 0.5]);
        assert!(close(
            &nums(&clip.tracks[1])[..4],
            &[-0.041996, 0.468936, 0.412524, 0.779846],
            5e-7
        ));
        let Some(layout) = doc.source::<PlayCanvasLayout>() else {
            panic!("layout")
        };
        assert_eq!(layout.nodes[0].defaulted, [true, false, true]);
        let extra = layout.nodes[0].key_fields(0.0, 0).unwrap();
        assert_eq!(extra[0].0, "p");
        assert_eq!(extra[0].1.get(), "[9,9,9]");
    }

    #[test]
    fn version_3_keys_hold_every_channel() {
        let doc = read(
            r#"{"animation":{"version":3,"name":"v3","duration":1,"nodes":[{"name":"root","keys":[
            {"time":0,"pos":[0,1,0],"rot":[0,0,0],"scale":[1,1,1]},
            {"time":1,"pos":[0,2,0],"rot":[0,90,0],"scale":[2,2,2]}]}]}}"#,
        );
        let clip = &doc.clips[0];
        assert_eq!(clip.tracks.len(), 3);
        assert_eq!(nums(&clip.tracks[0]), [0.0, 1.0, 0.0, 0.0, 2.0, 0.0]);
        assert_eq!(nums(&clip.tracks[2]), [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
        assert_eq!(clip.tracks[1].times, [0.0, 1.0]);
        let Some(layout) = doc.source::<PlayCanvasLayout>() else {
            panic!("layout")
        };
        assert_eq!(layout.nodes[0].defaulted, [false; 3]);
    }

    #[test]
    fn nodes_without_keys_give_no_tracks_and_duration_defaults_to_the_keys() {
        let doc = read(
            r#"{"animation":{"version":4,"nodes":[{"name":"a","defaults":{},"keys":[]},
            {"name":"b","defaults":{"p":[0,0,0],"r":[0,0,0],"s":[1,1,1]},"keys":[{"t":0},{"t":0.75}]}]}}"#,
        );
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "");
        assert_eq!(clip.duration, 0.75);
        assert_eq!(clip.tracks.len(), 3);
        assert_eq!(clip.tracks[1].name, "b.quaternion");
        assert_eq!(
            nums(&clip.tracks[1]),
            [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
        );
        let Some(layout) = doc.source::<PlayCanvasLayout>() else {
            panic!("layout")
        };
        assert!(layout.nodes[0].empty.is_some());
    }

    #[test]
    fn errors_name_the_json_path() {
        let node = |keys: &str| {
            format!(
                r#"{{"animation":{{"version":4,"name":"x","duration":1,"nodes":[{{"name":"n","defaults":{{"s":[1,1,1]}},"keys":[{keys}]}}]}}}}"#
            )
        };
        let k = r#"{"t":0,"p":[0,0,0],"r":[0,0,0]}"#;
        let cases: Vec<(String, &str)> = vec![
            (
                node(&format!(r#"{k},{k},{k},{{"t":"0.5","p":[0,0,0],"r":[0,0,0]}}"#)),
                "t.json: animation.nodes[0].keys[3].t: a string is not a number",
            ),
            (
                node(r#"{"t":0,"r":[0,0,0]}"#),
                "t.json: animation.nodes[0].keys[0].p: missing \"p\" (and the node's defaults have none)",
            ),
            (
                node(r#"{"p":[0,0,0],"r":[0,0,0]}"#),
                "t.json: animation.nodes[0].keys[0].t: missing \"t\"",
            ),
            (
                node(r#"{"t":0,"p":[0,0,0],"r":[0,0]}"#),
                "t.json: animation.nodes[0].keys[0].r: expected 3 numbers, found 2",
            ),
            (
                node(r#"{"t":0,"p":[0,null,0],"r":[0,0,0]}"#),
                "t.json: animation.nodes[0].keys[0].p[1]: null is not a number",
            ),
            (
                node(r#"{"t":0,"p":[0,0,0],"r":{"x":0}}"#),
                "t.json: animation.nodes[0].keys[0].r: expected an array of 3 numbers, found an object",
            ),
            (
                node(r#"{"t":0,"p":[1e39,0,0],"r":[0,0,0]}"#),
                "t.json: animation.nodes[0].keys[0].p[0]: number 1e39 is out of range for a 32-bit float",
            ),
            (
                node(r#"7"#),
                "t.json: animation.nodes[0].keys[0]: expected a key object, found a number",
            ),
            (
                r#"{"other":1}"#.into(),
                "t.json: animation: missing \"animation\" (PlayCanvas animation JSON is {\"animation\": {…}})",
            ),
            (
                r#"{"version":4,"duration":1,"nodes":[]}"#.into(),
                "t.json: animation: missing \"animation\": PlayCanvas animation JSON wraps the animation as {\"animation\": {\"version\", \"name\", \"duration\", \"nodes\"}}",
            ),
            (
                r#"{"animation":[]}"#.into(),
                "t.json: animation: expected an animation object, found an array",
            ),
            (
                r#"{"animation":{"version":4,"nodes":{}}}"#.into(),
                "t.json: animation.nodes: expected an array of nodes, found an object",
            ),
            (
                r#"{"animation":{"version":4}}"#.into(),
                "t.json: animation.nodes: missing \"nodes\"",
            ),
            (
                r#"{"animation":{"nodes":[]}}"#.into(),
                "t.json: animation.version: missing \"version\"",
            ),
            (
                r#"{"animation":{"version":5,"nodes":[]}}"#.into(),
                "t.json: animation.version: unsupported version 5 (the engine reads versions 3 and 4)",
            ),
            (
                r#"{"animation":{"version":"4.0","nodes":[]}}"#.into(),
                "t.json: animation.version: expected version 3 or 4, found a string",
            ),
            (
                r#"{"animation":{"version":4,"duration":"1","nodes":[]}}"#.into(),
                "t.json: animation.duration: a string is not a number",
            ),
            (
                r#"{"animation":{"version":4,"name":7,"nodes":[]}}"#.into(),
                "t.json: animation.name: expected a string, found a number",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[{"name":"a","keys":[]}]}}"#.into(),
                "t.json: animation.nodes[0].defaults: missing \"defaults\" (version 4 nodes need one, even {})",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[{"defaults":{},"keys":[]}]}}"#.into(),
                "t.json: animation.nodes[0].name: missing \"name\"",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[{"name":"a","defaults":{}}]}}"#.into(),
                "t.json: animation.nodes[0].keys: missing \"keys\"",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[{"name":"a","defaults":{"r":[0,0]},"keys":[]}]}}"#.into(),
                "t.json: animation.nodes[0].defaults.r: expected 3 numbers, found 2",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[null]}}"#.into(),
                "t.json: animation.nodes[0]: expected a node object, found null",
            ),
            (
                r#"{"animation":{"version":3,"nodes":[{"name":"a","keys":[{"time":0,"pos":[0,0,0],"rot":[0,0,0]}]}]}}"#.into(),
                "t.json: animation.nodes[0].keys[0].scale: missing \"scale\" (version 3 keys need pos, rot and scale)",
            ),
            (
                r#"{"animation":{"version":4,"nodes":[{"name":"a","defaults":{},"keys":[{"t":0,"p":[0,"#.into(),
                "t.json: animation.nodes[0].keys[0].p[1]: truncated JSON: EOF while parsing a value at line 1 column 83",
            ),
            (
                "[1]".into(),
                "t.json: expected a PlayCanvas animation object ({\"animation\": {…}}), found an array",
            ),
        ];
        for (text, expected) in cases {
            let got = match read_as(&super::super::CODEC, text.as_bytes(), Path::new("t.json")) {
                Ok(_) => panic!("read {text} without error"),
                Err(e) => e.to_string(),
            };
            assert_eq!(got, expected, "for {text}");
        }
        // Through detection too (the file-level entry point).
        assert_eq!(
            error(&node(r#"{"t":true,"p":[0,0,0],"r":[0,0,0]}"#)),
            "t.json: animation.nodes[0].keys[0].t: a boolean is not a number"
        );
        assert_eq!(error(" \n"), "t.json: file is empty");
    }

    #[test]
    fn lint_validates_the_clip() {
        let text = r#"{"animation":{"version":4,"name":"u","duration":1,"nodes":[{"name":"n","defaults":{"r":[0,0,0],"s":[1,1,1]},
            "keys":[{"t":1,"p":[0,0,0]},{"t":0,"p":[1,1,1]}]}]}}"#;
        let crate::formats::Linted { doc, problems, .. } =
            lint_bytes(text.as_bytes(), Path::new("t.json"), &Default::default());
        assert!(doc.is_some());
        assert!(
            problems
                .iter()
                .any(|p| p.code == "unsorted-times" && p.clip == Some(0)),
            "{problems:?}"
        );
        let crate::formats::Linted { doc, problems, .. } = lint_bytes(
            br#"{"animation":{"nodes":[]}}"#,
            Path::new("t.json"),
            &Default::default(),
        );
        assert!(doc.is_none());
        assert_eq!(
            problems[0].message,
            "animation.version: missing \"version\""
        );
    }
}
