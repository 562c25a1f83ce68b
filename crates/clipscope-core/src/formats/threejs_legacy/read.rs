//! Converting a legacy three.js file into a [`Document`]: `bones` into a [`Skeleton`], each
//! `animation(s)` entry into a clip exactly like three.js r184's `AnimationClip.parseAnimation`
//! (spec §5), a morph-target model into a [`MorphMesh`](crate::model::MorphMesh) (see
//! [`legacy_geometry`](crate::formats::legacy_geometry)) plus the clips its numbered targets imply,
//! and a skinned model (`skinIndices`, `skinWeights`) into a [`Model`].
//!
//! Where three.js would throw, store NaN or build a track named after `undefined`, the reader
//! stops with a [`ReadError`] naming the JSON path instead.

use super::LegacyLayout;
use super::schema::{AnimationJson, BoneJson, FileJson, KeyJson, Located, Node, Numbers as _};
use crate::formats::codec::Input;
use crate::formats::document::Source;
use crate::formats::json::JsonKind;
use crate::formats::json::path::{field, syntax_error};
use crate::formats::legacy_geometry::{read_mesh, read_skinned};
use crate::formats::{Document, Format, ReadError, ReadErrorKind};
use crate::model::ops::create_clips_from_morph_target_sequences;
use crate::model::{BlendMode, Bone, Clip, Extras, Model, Skeleton, Track, TrackKind};

/// The three tracks a hierarchy entry can give, in parseAnimation's order: the key field, the
/// property the track animates, its kind and the numbers per key.
const CHANNELS: [(&str, &str, TrackKind, usize); 3] = [
    ("pos", "position", TrackKind::Vector, 3),
    ("rot", "quaternion", TrackKind::Quaternion, 4),
    ("scl", "scale", TrackKind::Vector, 3),
];

/// Reads legacy three.js JSON (`input.bytes`, the contents of `input.file`), making the clips a
/// morph model implies at `input.options.morph_fps`; progress advances animation by animation.
pub(crate) fn read(input: &Input<'_>) -> Result<Document, ReadError> {
    let (file, opts) = (input.file, input.options);
    let bytes = input.bytes;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let fail = |l: Located| l.in_file(file);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::syntax(file, "", "file is empty"));
    }
    if !(opts.morph_fps > 0.0 && opts.morph_fps.is_finite()) {
        return Err(ReadError::new(
            ReadErrorKind::Unsupported,
            file,
            "",
            format!(
                "the morph-target frame rate must be a positive number, not {}",
                opts.morph_fps
            ),
        ));
    }
    let json = match FileJson::parse(bytes) {
        Ok(Ok(json)) => json,
        Ok(Err(kind)) => {
            return Err(ReadError::schema(
                file,
                "",
                format!(
                    "expected a legacy three.js model object, found {}",
                    kind.describe()
                ),
            ));
        }
        Err(e) => {
            let (path, reason) = syntax_error(bytes, &e);
            return Err(ReadError::syntax(file, path, reason));
        }
    };
    input.check_cancelled()?;

    let skeleton = match json.bones().map_err(fail)? {
        Some(bones) => Some(skeleton(&bones).map_err(fail)?),
        None => None,
    };
    let (animations, shape) = json.animations().map_err(fail)?;
    let mut clips = Vec::with_capacity(animations.len());
    let mut skipped = Vec::new();
    let mut serialized = false;
    for (i, animation) in animations.iter().enumerate() {
        input.step(i, animations.len()).map_err(fail)?;
        match parse_animation(animation, skeleton.as_ref()).map_err(fail)? {
            Some((clip, flat)) => {
                serialized |= flat;
                clips.push(clip);
            }
            None => skipped.push(animation.node.raw.to_owned()),
        }
    }
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mesh = read_mesh(&json.model(), &name).map_err(fail)?;
    if let Some(mesh) = &mesh {
        // LegacyJSONLoader's parseAnimations: the morph clips come after the bone animations.
        let morph =
            create_clips_from_morph_target_sequences(&mesh.target_names(), opts.morph_fps, false);
        clips.extend(morph.into_iter().map(|mut c| {
            c.uuid = None;
            c
        }));
    }
    // A skinned model that cannot be built never stops the clips: it is described instead.
    let model = read_skinned(&json.model(), skeleton.as_ref(), &name).unwrap_or_else(|e| {
        Some(Model {
            notes: vec![format!("{}: {} (not drawn)", e.path, e.reason)],
            ..Model::default()
        })
    });
    let layout = LegacyLayout::new(
        &json.top.fields.0,
        shape,
        skipped,
        serialized,
        opts.morph_fps,
    );
    Ok(Document {
        path: Some(file.to_path_buf()),
        format: Format::ThreeJsLegacy,
        clips,
        skeleton,
        mesh: mesh.map(std::sync::Arc::new),
        model: model.map(std::sync::Arc::new),
        unread: Vec::new(),
        accepted: Vec::new(),
        source: Source::new(layout),
    })
}

/// The skeleton of `bones`: names, parents (-1 or `null` for a root) and rest transforms
/// (missing ones are the identity).
fn skeleton(bones: &[BoneJson]) -> Result<Skeleton, Located> {
    let mut out = Vec::with_capacity(bones.len());
    for b in bones {
        let name = match &b.name {
            Some(n) => n.string()?,
            None => return Err(Located::new(&b.path, "bone has no \"name\"")),
        };
        let parent = match &b.parent {
            None => None,
            Some(p) if p.kind() == JsonKind::Null => None,
            Some(p) => {
                let v = p.f64()?;
                if v == -1.0 {
                    None
                } else if v >= 0.0 && v.fract() == 0.0 && (v as usize) < bones.len() {
                    Some(v as usize)
                } else {
                    return Err(Located::new(
                        &p.path,
                        format!(
                            "parent {} is not -1 or a bone index (the file has {} bones)",
                            p.raw.get().trim(),
                            bones.len()
                        ),
                    ));
                }
            }
        };
        let mut bone = Bone::new(name, parent);
        if let Some(n) = &b.pos {
            bone.position = fixed(n)?;
        }
        if let Some(n) = &b.rotq {
            bone.rotation = fixed(n)?;
        }
        if let Some(n) = &b.scl {
            bone.scale = fixed(n)?;
        }
        out.push(bone);
    }
    Ok(Skeleton { bones: out })
}

/// An array of exactly `N` numbers.
fn fixed<const N: usize>(node: &Node) -> Result<[f32; N], Located> {
    let v = node.f32s()?;
    v.as_slice().try_into().map_err(|_| {
        Located::new(
            &node.path,
            format!("expected {N} numbers, found {}", v.len()),
        )
    })
}

/// JavaScript truthiness of a JSON value (`if (keys[0].morphTargets)`).
fn truthy(node: &Node) -> bool {
    match node.kind() {
        JsonKind::Null => false,
        JsonKind::Bool => node.raw.get().trim() == "true",
        JsonKind::Number => node.f64().is_ok_and(|v| v != 0.0 && !v.is_nan()),
        JsonKind::String => node.raw.get().trim() != "\"\"",
        JsonKind::Array | JsonKind::Object => true,
    }
}

/// three.js r184 `AnimationClip.parseAnimation(animation, bones)`: the clip, and whether its keys
/// were in the serialized shape; `None` when no hierarchy entry gives a track (three.js returns
/// null and the loader leaves the animation out).
fn parse_animation(
    animation: &AnimationJson,
    skeleton: Option<&Skeleton>,
) -> Result<Option<(Clip, bool)>, Located> {
    let obj = &animation.obj;
    // `animation.name || 'default'`.
    let name = match obj.get_some("name") {
        None => String::new(),
        Some(n) => n.string()?,
    };
    let name = if name.is_empty() {
        "default".to_string()
    } else {
        name
    };
    // `animation.length || -1`: 0 and NaN count as missing, and a negative duration is reset.
    let duration = match obj.get_some("length") {
        None => -1.0,
        Some(n) => match n.f64()? {
            v if v == 0.0 || v.is_nan() => -1.0,
            v => v,
        },
    };
    let blend_mode = match obj.get_some("blendMode") {
        None => BlendMode::Normal,
        Some(n) => BlendMode::from_code(n.f64()?).ok_or_else(|| {
            Located::new(
                &n.path,
                format!(
                    "unknown blendMode {} (expected 2500 or 2501)",
                    n.raw.get().trim()
                ),
            )
        })?,
    };

    let mut tracks = Vec::new();
    let mut serialized = false;
    for (h, entry) in animation.hierarchy()?.iter().enumerate() {
        let keys = entry.keys()?;
        if keys.is_empty() {
            continue;
        }
        if let Some(m) = keys[0].obj.get("morphTargets")
            && truthy(&m)
        {
            return Err(Located::new(
                m.path,
                "legacy morph-target animation keys are not supported (three.js's parseAnimation \
                 throws on them)",
            ));
        }
        let bone = match skeleton {
            None => {
                return Err(Located::new(
                    &entry.path,
                    "hierarchy entry has keys but the file has no \"bones\"",
                ));
            }
            Some(s) => match s.bones.get(h) {
                Some(b) => &b.name,
                None => {
                    return Err(Located::new(
                        &entry.path,
                        format!(
                            "no bone for hierarchy entry {h}: the file has {} bones",
                            s.bones.len()
                        ),
                    ));
                }
            },
        };
        let flat = keys[0]
            .obj
            .get("time")
            .is_some_and(|t| t.kind() == JsonKind::Array);
        serialized |= flat;
        for (prop, property, kind, size) in CHANNELS {
            let (times, values) = if flat {
                flatten_serialized(&keys, prop, size)?
            } else {
                flatten(&keys, prop)?
            };
            if times.is_empty() {
                continue;
            }
            if values.len() % times.len() != 0 {
                return Err(Located::new(
                    field(&entry.path, "keys"),
                    format!(
                        "{} {prop} values for {} keys is not a whole number per key",
                        values.len(),
                        times.len()
                    ),
                ));
            }
            tracks.push(Track::numeric(
                format!(".bones[{bone}].{property}"),
                kind,
                times,
                values,
            ));
        }
    }
    if tracks.is_empty() {
        return Ok(None);
    }

    let mut extras = Extras::default();
    for (k, raw) in &obj.fields.0 {
        if matches!(&*k.0, "name" | "length" | "blendMode" | "hierarchy") {
            continue;
        }
        match extras.0.iter_mut().find(|(name, _)| name == &*k.0) {
            Some(slot) => slot.1 = (*raw).to_owned(),
            None => extras.0.push((k.0.to_string(), (*raw).to_owned())),
        }
    }
    let mut clip = Clip {
        name,
        duration,
        tracks,
        blend_mode,
        uuid: None,
        user_data: serde_json::Value::Object(Default::default()),
        layers: None,
        extras,
    };
    if clip.duration < 0.0 {
        clip.reset_duration();
    }
    Ok(Some((clip, serialized)))
}

/// three.js `flattenJSON(keys, times, values, prop)`: keys without `prop` are skipped (their time
/// too); the first key that has it decides whether values are arrays (spread) or single
/// numbers; times and values are rounded to `f32` like the track's `Float32Array`s.
fn flatten(keys: &[KeyJson], prop: &str) -> Result<(Vec<f32>, Vec<f32>), Located> {
    let mut times = Vec::with_capacity(keys.len());
    let mut values = Vec::with_capacity(keys.len() * 4);
    let mut arrays = None;
    for key in keys {
        let Some(value) = key.obj.get(prop) else {
            continue;
        };
        let is_array = value.kind() == JsonKind::Array;
        if *arrays.get_or_insert(is_array) != is_array {
            let first = if is_array {
                "a single number"
            } else {
                "an array of numbers"
            };
            return Err(value.wrong(&format!("{first} like the first key's {prop}")));
        }
        times.push(match key.obj.get("time") {
            Some(t) => t.f32()?,
            None => return Err(Located::new(field(&key.path, "time"), "missing time")),
        });
        if is_array {
            values.extend(value.f32s()?);
        } else {
            values.push(value.f32()?);
        }
    }
    Ok((times, values))
}

/// The serialized shape (threejs-serialize-animation): each key holds a `time` array and flat
/// `pos` / `rot` / `scl` arrays with `size` numbers per time. Keys without `prop` are skipped.
fn flatten_serialized(
    keys: &[KeyJson],
    prop: &str,
    size: usize,
) -> Result<(Vec<f32>, Vec<f32>), Located> {
    let mut times = Vec::new();
    let mut values = Vec::new();
    for key in keys {
        let key_times = match key.obj.get("time") {
            Some(t) if t.kind() == JsonKind::Array => t.f32s()?,
            Some(t) => return Err(t.wrong("an array of times like the first key's")),
            None => return Err(Located::new(field(&key.path, "time"), "missing time")),
        };
        let Some(value) = key.obj.get(prop) else {
            continue;
        };
        let key_values = value.f32s()?;
        if key_values.len() != key_times.len() * size {
            return Err(Located::new(
                &value.path,
                format!(
                    "{} numbers for {} times; expected {size} per time",
                    key_values.len(),
                    key_times.len()
                ),
            ));
        }
        times.extend(key_times);
        values.extend(key_values);
    }
    Ok((times, values))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::{ReadOptions, lint_bytes, read_bytes, read_bytes_with};

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

    const BONES: &str = r#""bones":[{"parent":-1,"name":"hip","pos":[0,1,0],"rotq":[0,0,0,1]},{"parent":0,"name":"knee","pos":[0,-0.5,0],"rotq":[0,0,0,1],"scl":[1,1,1]}]"#;

    #[test]
    fn parse_animation_tracks_names_and_order() {
        let doc = read(&format!(
            r#"{{{BONES},"animation":{{"name":"walk","fps":24,"length":2,"hierarchy":[
                {{"parent":-1,"keys":[{{"time":0,"pos":[0,1,0],"rot":[0,0,0,1],"scl":[1,1,1]}},{{"time":1,"pos":[0,2,0],"rot":[0,1,0,0],"scl":[2,2,2]}}]}},
                {{"parent":0,"keys":[{{"time":0.5,"rot":[0,0,1,0]}}]}}]}}}}"#
        ));
        assert_eq!(doc.format, Format::ThreeJsLegacy);
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "walk");
        assert_eq!(clip.duration, 2.0);
        assert_eq!(clip.uuid, None);
        let names: Vec<_> = clip
            .tracks
            .iter()
            .map(|t| (t.name.as_str(), t.kind))
            .collect();
        assert_eq!(
            names,
            [
                (".bones[hip].position", TrackKind::Vector),
                (".bones[hip].quaternion", TrackKind::Quaternion),
                (".bones[hip].scale", TrackKind::Vector),
                (".bones[knee].quaternion", TrackKind::Quaternion),
            ]
        );
        assert_eq!(clip.tracks[0].times, [0.0, 1.0]);
        assert_eq!(nums(&clip.tracks[0]), [0.0, 1.0, 0.0, 0.0, 2.0, 0.0]);
        assert_eq!(nums(&clip.tracks[3]), [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(clip.tracks[3].times, [0.5]);
        // fps is not used to scale (times are seconds) but kept for writing back.
        assert_eq!(clip.extras.get("fps").map(|r| r.get()), Some("24"));
        let skeleton = doc.skeleton.unwrap();
        assert_eq!(skeleton.bones[1].parent, Some(0));
        assert_eq!(skeleton.bones[1].position, [0.0, -0.5, 0.0]);
        assert_eq!(skeleton.bones[0].scale, [1.0; 3]);
    }

    #[test]
    fn name_length_and_blend_mode_follow_parse_animation() {
        let h = r#""hierarchy":[{"keys":[{"time":0,"pos":[0,0,0]},{"time":0.75,"pos":[1,0,0]}]}]"#;
        for (fields, name, duration) in [
            ("", "default", 0.75),
            (r#""name":"","length":0,"#, "default", 0.75),
            (r#""name":null,"length":-3,"#, "default", 0.75),
            (r#""name":"a","length":5,"#, "a", 5.0),
        ] {
            let doc = read(&format!(r#"{{{BONES},"animations":[{{{fields}{h}}}]}}"#));
            assert_eq!(doc.clips[0].name, name, "{fields}");
            assert_eq!(doc.clips[0].duration, duration, "{fields}");
            assert_eq!(doc.clips[0].blend_mode, BlendMode::Normal);
        }
        let doc = read(&format!(
            r#"{{{BONES},"animations":{{"blendMode":2501,{h}}}}}"#
        ));
        assert_eq!(doc.clips[0].blend_mode, BlendMode::Additive);
    }

    #[test]
    fn flatten_json_skips_keys_without_a_component() {
        let doc = read(&format!(
            r#"{{{BONES},"animation":{{"hierarchy":[{{"keys":[
                {{"time":0,"rot":[0,0,0,1]}},
                {{"time":0.25,"pos":[1,2,3],"rot":[0,0,0,1]}},
                {{"time":0.5,"pos":[4,5,6]}},
                {{"time":1,"scl":[2,2,2]}}]}}]}}}}"#
        ));
        let t = &doc.clips[0].tracks;
        assert_eq!(t[0].name, ".bones[hip].position");
        assert_eq!(t[0].times, [0.25, 0.5]);
        assert_eq!(nums(&t[0]), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(t[1].times, [0.0, 0.25]);
        assert_eq!(t[2].times, [1.0]);
        assert_eq!(doc.clips[0].duration, 1.0);
    }

    #[test]
    fn animation_then_animations_and_trackless_ones_left_out() {
        let doc = read(&format!(
            r#"{{{BONES},"animations":[{{"name":"b","hierarchy":[{{"keys":[{{"time":0,"pos":[0,0,0]}}]}}]}},{{"name":"empty","hierarchy":[{{"keys":[]}},{{"parent":0}}]}}],
               "animation":{{"name":"a","hierarchy":[{{"keys":[{{"time":0,"pos":[0,0,0]}}]}}]}}}}"#
        ));
        let names: Vec<_> = doc.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let Some(layout) = doc.source::<LegacyLayout>() else {
            panic!("layout")
        };
        assert_eq!(layout.skipped.len(), 1);
        assert_eq!(layout.shape, super::super::AnimationsShape::Array);
        // Nothing to animate is not an error: no clips.
        let doc = read(r#"{"animations":[{"hierarchy":[]}]}"#);
        assert!(doc.clips.is_empty() && doc.skeleton.is_none() && doc.mesh.is_none());
    }

    #[test]
    fn serialized_keys_hold_flat_arrays() {
        let doc = read(&format!(
            r#"{{{BONES},"animations":[{{"name":"s","length":1,"hierarchy":[
                {{"keys":[{{"time":[0,0.5,1],"pos":[0,0,0,1,1,1,2,2,2],"rot":[0,0,0,1,0,0,1,0,0,1,0,0],"scl":[1,1,1,1,1,1,1,1,1]}}]}},
                {{"keys":[{{"time":[0,1],"rot":[0,0,0,1,0,0,0,1]}}]}}]}}]}}"#
        ));
        let t = &doc.clips[0].tracks;
        assert_eq!(t.len(), 4);
        assert_eq!(t[0].times, [0.0, 0.5, 1.0]);
        assert_eq!(nums(&t[0])[3..6], [1.0, 1.0, 1.0]);
        assert_eq!(t[1].value_size(), 4);
        assert_eq!(t[3].name, ".bones[knee].quaternion");
        let Some(layout) = doc.source::<LegacyLayout>() else {
            panic!("layout")
        };
        assert!(layout.serialized);
    }

    #[test]
    fn errors_name_the_json_path() {
        let anim = |hierarchy: &str| {
            format!(r#"{{{BONES},"animation":{{"name":"c","hierarchy":[{hierarchy}]}}}}"#)
        };
        let keys = |keys: &str| anim(&format!(r#"{{"keys":[{keys}]}}"#));
        let cases: Vec<(String, &str)> = vec![
            (
                keys(r#"{"time":0,"rot":[0,0,0,1]},{"time":1,"rot":[0,0,"x",1]}"#),
                "t.json: animation.hierarchy[0].keys[1].rot[2]: a string is not a number",
            ),
            (
                keys(r#"{"time":0,"rot":[0,0,0,1]},{"time":1,"rot":[0,0,null,1]}"#),
                "t.json: animation.hierarchy[0].keys[1].rot[2]: null is not a number (three.js stores 0)",
            ),
            (
                keys(r#"{"time":0,"pos":[0,0,0]},{"time":1,"pos":5}"#),
                "t.json: animation.hierarchy[0].keys[1].pos: expected an array of numbers like the first key's pos, found a number",
            ),
            (
                keys(r#"{"time":"0","pos":[0,0,0]}"#),
                "t.json: animation.hierarchy[0].keys[0].time: a string is not a number",
            ),
            (
                keys(r#"{"pos":[0,0,0]}"#),
                "t.json: animation.hierarchy[0].keys[0].time: missing time",
            ),
            (
                keys(r#"{"time":0,"pos":[0,0,0]},{"time":1,"pos":[0,0]}"#),
                "t.json: animation.hierarchy[0].keys: 5 pos values for 2 keys is not a whole number per key",
            ),
            (
                keys(r#"{"time":0,"pos":[1e39,0,0]}"#),
                "t.json: animation.hierarchy[0].keys[0].pos[0]: number 1e39 is out of range for a 32-bit float",
            ),
            (
                keys(r#"{"time":0,"morphTargets":["a"]}"#),
                "t.json: animation.hierarchy[0].keys[0].morphTargets: legacy morph-target animation keys are not supported (three.js's parseAnimation throws on them)",
            ),
            (
                keys(r#"7"#),
                "t.json: animation.hierarchy[0].keys[0]: expected a key object, found a number",
            ),
            (
                anim(r#"{"keys":[]},{"keys":[]},{"keys":[]},{"keys":[{"time":0,"pos":[0,0,0]}]}"#),
                "t.json: animation.hierarchy[3]: no bone for hierarchy entry 3: the file has 2 bones",
            ),
            (
                anim(r#"{"keys":{}}"#),
                "t.json: animation.hierarchy[0].keys: expected an array of keys, found an object",
            ),
            (
                anim(r#"null"#),
                "t.json: animation.hierarchy[0]: expected an object, found null",
            ),
            (
                keys(r#"{"time":[0,1],"pos":[0,0,0,1,1]}"#),
                "t.json: animation.hierarchy[0].keys[0].pos: 5 numbers for 2 times; expected 3 per time",
            ),
            (
                keys(r#"{"time":[0],"pos":[0,0,0]},{"time":1,"pos":[0,0,0]}"#),
                "t.json: animation.hierarchy[0].keys[1].time: expected an array of times like the first key's, found a number",
            ),
            (
                r#"{"animations":[{"hierarchy":[{"keys":[{"time":0,"pos":[0,0,0]}]}]}]}"#.into(),
                "t.json: animations[0].hierarchy[0]: hierarchy entry has keys but the file has no \"bones\"",
            ),
            (
                r#"{"bones":[],"animations":[5]}"#.into(),
                "t.json: animations[0]: expected an animation object, found a number",
            ),
            (
                format!(r#"{{{BONES},"animations":{{"blendMode":7,"hierarchy":[]}}}}"#),
                "t.json: animations.blendMode: unknown blendMode 7 (expected 2500 or 2501)",
            ),
            (
                format!(r#"{{{BONES},"animation":{{"length":"1","hierarchy":[]}}}}"#),
                "t.json: animation.length: a string is not a number",
            ),
            (
                r#"{"bones":[{"parent":-1}]}"#.into(),
                "t.json: bones[0]: bone has no \"name\"",
            ),
            (
                r#"{"bones":[{"parent":3,"name":"a"}]}"#.into(),
                "t.json: bones[0].parent: parent 3 is not -1 or a bone index (the file has 1 bones)",
            ),
            (
                r#"{"bones":[{"parent":-1,"name":"a","rotq":[0,0,1]}]}"#.into(),
                "t.json: bones[0].rotq: expected 4 numbers, found 3",
            ),
            (
                r#"{"metadata":{"formatVersion":3},"bones":[{"name":"a"}],"animation":{"hierarchy":[{"keys":[{"time":0,"pos":[0,0"#.into(),
                "t.json: animation.hierarchy[0].keys[0].pos[1]: truncated JSON: EOF while parsing a list at line 1 column 110",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "for {text}");
        }
    }

    #[test]
    fn morph_fps_is_an_option() {
        let model = r#"{"metadata":{"formatVersion":3},"vertices":[0,0,0,1,0,0,0,1,0],"faces":[0,0,1,2],
            "morphTargets":[{"name":"a_1","vertices":[0,0,0,1,0,0,0,1,0]},{"name":"a_2","vertices":[0,0,1,1,0,1,0,1,1]}]}"#;
        let doc = read(model);
        assert_eq!(doc.clips.len(), 1);
        assert_eq!(doc.clips[0].name, "a_");
        assert_eq!(doc.clips[0].duration, 0.2f32 as f64);
        assert_eq!(doc.clips[0].uuid, None);
        let opts = ReadOptions {
            morph_fps: 25.0,
            ..Default::default()
        };
        let doc = read_bytes_with(model.as_bytes(), Path::new("m.json"), &opts).unwrap();
        assert_eq!(doc.clips[0].duration, (2.0f64 * (1.0 / 25.0)) as f32 as f64);
        let Some(layout) = doc.source::<LegacyLayout>() else {
            panic!("layout")
        };
        assert_eq!(layout.morph_fps, 25.0);
        let bad = ReadOptions {
            morph_fps: 0.0,
            ..Default::default()
        };
        // `validate` reads with the same options (`--morph-fps`).
        let crate::formats::Linted { doc: linted, .. } =
            lint_bytes(model.as_bytes(), Path::new("m.json"), &opts);
        assert_eq!(linted.unwrap().clips[0].duration, doc.clips[0].duration);
        let e = read_bytes_with(model.as_bytes(), Path::new("m.json"), &bad).unwrap_err();
        assert_eq!(
            e.reason,
            "the morph-target frame rate must be a positive number, not 0"
        );
    }

    #[test]
    fn lint_validates_clips_of_legacy_files() {
        let text = format!(
            r#"{{{BONES},"animation":{{"name":"u","hierarchy":[{{"keys":[{{"time":1,"pos":[0,0,0]}},{{"time":0,"pos":[1,1,1]}}]}}]}}}}"#
        );
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
            br#"{"bones":[{}]}"#,
            Path::new("t.json"),
            &Default::default(),
        );
        assert!(doc.is_none());
        assert_eq!(problems[0].message, "bones[0]: bone has no \"name\"");
    }

    #[test]
    fn random_mutations_never_panic() {
        let seed = format!(
            r#"{{"metadata":{{"formatVersion":3.1}},{BONES},"vertices":[0,0,0,1,0,0,0,1,0,1,1,0],"faces":[1,0,1,3,2,64,0,1,2,0],"colors":[16711680],
            "morphTargets":[{{"name":"m_1","vertices":[0,0,0,1,0,0,0,1,0,1,1,0]}}],"morphColors":[{{"name":"c","colors":[1,0,0,0,1,0]}}],
            "animations":[{{"name":"w","fps":30,"length":1,"hierarchy":[{{"parent":-1,"keys":[{{"time":0,"pos":[0,0,0],"rot":[0,0,0,1],"scl":[1,1,1]}},{{"time":1,"pos":[1,0,0],"rot":[0,1,0,0],"scl":[1,1,1]}}]}},{{"keys":[{{"time":[0,1],"pos":[0,0,0,1,1,1]}}]}}]}}]}}"#
        );
        read(&seed);
        let alphabet = b"{}[],:\"0123456789.-+eEtrufalsn \\x";
        let mut rng = clipscope_test_support::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next_u64();
        for _ in 0..3000 {
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
            let strict = read_bytes(&bytes, Path::new("f.json"));
            let _ = lint_bytes(&bytes, Path::new("f.json"), &Default::default());
            if let Ok(doc) = strict
                && crate::formats::check_writable(&doc).is_ok()
            {
                for serialized in [false, true] {
                    let opts = crate::formats::WriteOptions {
                        serialized,
                        ..Default::default()
                    };
                    let out = crate::formats::write_bytes(&doc, &opts);
                    read_bytes(&out, Path::new("f.json"))
                        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)));
                }
            }
        }
    }
}
