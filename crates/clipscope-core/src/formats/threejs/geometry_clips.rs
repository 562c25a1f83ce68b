//! Geometry-level morph animations of io_three's object format 4.3, a short-lived variant
//! (three.js's `examples/models/json/blend-animation.json`):
//!
//! ```json
//! "geometries": [{"uuid": "…", "type": "Geometry", "data": {
//!     "vertices": […], "faces": […], "morphTargets": [{"name": "T", "vertices": [[x, y, z], …]}],
//!     "animations": {"morphTargets[T]": [{"time": 0, "value": 0}, {"time": 10, "value": 0}, …]}
//! }}]
//! ```
//!
//! Each geometry whose `data.animations` is such an object becomes one clip named after the
//! geometry (`name`, else its `uuid`, else `default`), with one number track
//! `.morphTargetInfluences[T]` per `morphTargets[T]` key. The tracks use the root form: the
//! animation belongs to the geometry, so it plays on the mesh that uses it (and that is the
//! root in the viewport); no three.js loader bound these keys (JSONLoader handed the object to
//! `AnimationClip.parseAnimation`, which found no `hierarchy` and made an empty clip), so there
//! is no binding to copy. Times are taken as written, in seconds, like `AnimationClip.parse`
//! with no `fps`; the file has no frame rate anywhere (its times 0–150 look like Blender
//! frames, which a user can rescale). Clips have no uuid, so reading twice gives equal clips.
//!
//! The first geometry with morph targets also gives the document its [`MorphMesh`] (vertices,
//! bit-encoded faces and targets read like the legacy JSONLoader model, see
//! [`legacy_geometry`](crate::formats::legacy_geometry); targets may list each vertex as a
//! `[x, y, z]` array as this variant does). Object transforms are not applied.
//!
//! Writing back: an unedited document writes the file's fields verbatim (the animations stay
//! in the geometries); edited clips go to a top-level `animations` array like any object file,
//! and [`strip`] removes the geometry-level `animations` so they are not read twice.

use serde_json::value::RawValue;

use crate::formats::json::path::field;
use crate::formats::json::{Located, Node};
use crate::formats::legacy_geometry::{ModelJson, Numbers as _, read_mesh};
use crate::model::{Clip, MorphMesh, Track, TrackKind};

use crate::formats::json::JsonKind;

/// What the geometries of an object file hold: their clips and the first morph mesh.
#[derive(Debug, Default)]
pub(crate) struct GeometryClips {
    /// One clip per geometry with a geometry-level `animations` object, in file order.
    pub clips: Vec<Clip>,
    /// The first geometry with morph targets, as a mesh.
    pub mesh: Option<MorphMesh>,
}

/// Reads the geometry-level animations (and morph mesh) of an object file whose `geometries`
/// and `object` are `geometries` and `object` (raw, when present).
pub(crate) fn read(
    geometries: Option<&RawValue>,
    object: Option<&RawValue>,
) -> Result<GeometryClips, Located> {
    let mut out = GeometryClips::default();
    let Some(geometries) = geometries else {
        return Ok(out);
    };
    let list = Node::new(geometries, "geometries");
    if list.kind() != JsonKind::Array {
        return Ok(out);
    }
    for g in list.array("an array of geometries")? {
        if g.kind() != JsonKind::Object {
            continue;
        }
        let geometry = g.object()?;
        let Some(data) = geometry.get_some("data") else {
            continue;
        };
        if data.kind() != JsonKind::Object {
            continue;
        }
        let data = data.object()?;
        let uuid = match geometry.get_some("uuid") {
            Some(u) if u.kind() == JsonKind::String => Some(u.string()?),
            _ => None,
        };
        if let Some(animations) = data.get_some("animations")
            && animations.kind() == JsonKind::Object
        {
            let name = [data.get_some("name"), geometry.get_some("name")]
                .into_iter()
                .flatten()
                .find(|n| n.kind() == JsonKind::String)
                .map(|n| n.string())
                .transpose()?
                .or_else(|| uuid.clone())
                .unwrap_or_else(|| "default".to_string());
            out.clips.push(clip(&animations, name)?);
        }
        if out.mesh.is_none()
            && let Some(targets) = data.get_some("morphTargets")
            && targets.len() > 0
        {
            let model = ModelJson {
                morph_targets: Some(targets),
                ..ModelJson::of(&data)
            };
            let fallback = match data.get_some("name") {
                Some(n) if n.kind() == JsonKind::String => n.string()?,
                _ => "mesh".to_string(),
            };
            let name = uuid
                .as_deref()
                .and_then(|u| object.and_then(|o| mesh_name(o, u)))
                .unwrap_or(fallback);
            out.mesh = read_mesh(&model, &name)?;
        }
    }
    Ok(out)
}

/// The clip of one geometry's `animations` object.
fn clip(animations: &Node, name: String) -> Result<Clip, Located> {
    let obj = animations.object()?;
    let mut tracks = Vec::with_capacity(obj.fields.0.len());
    for (key, raw) in &obj.fields.0 {
        let path = format!("{}[{}]", animations.path, serde_json::json!(key.0));
        let target = key
            .0
            .strip_prefix("morphTargets[")
            .and_then(|k| k.strip_suffix(']'))
            .filter(|k| !k.is_empty())
            .ok_or_else(|| {
                Located::new(
                    &path,
                    format!(
                        "unsupported geometry animation {:?}; expected \"morphTargets[NAME]\"",
                        key.0
                    ),
                )
            })?;
        let keys = Node::new(raw, path.clone()).array("an array of {time, value} keys")?;
        let mut times = Vec::with_capacity(keys.len());
        let mut values = Vec::with_capacity(keys.len());
        for k in &keys {
            if k.kind() != JsonKind::Object {
                return Err(k.wrong("a {time, value} key"));
            }
            let o = k.object()?;
            let get = |name: &str| {
                o.get(name).ok_or_else(|| {
                    Located::new(field(&k.path, name), format!("missing \"{name}\""))
                })
            };
            let time = get("time")?.f32()?;
            if let Some(&last) = times.last()
                && time < last
            {
                return Err(Located::new(
                    field(&k.path, "time"),
                    format!("time {time} is before the previous key's {last}"),
                ));
            }
            times.push(time);
            values.push(get("value")?.f32()?);
        }
        if times.is_empty() {
            return Err(Located::new(&path, "no keys"));
        }
        tracks.push(Track::numeric(
            format!(".morphTargetInfluences[{target}]"),
            TrackKind::Number,
            times,
            values,
        ));
    }
    let mut clip = Clip::new(name, -1.0, tracks);
    clip.uuid = None;
    Ok(clip)
}

/// The name of the first mesh in the object tree `object` whose `geometry` is `uuid`.
fn mesh_name(object: &RawValue, uuid: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(object.get()).ok()?;
    let mut stack = vec![&value];
    while let Some(node) = stack.pop() {
        if node.get("geometry").and_then(|g| g.as_str()) == Some(uuid) {
            return node
                .get("name")
                .and_then(|n| n.as_str())
                .filter(|n| !n.is_empty())
                .map(str::to_string);
        }
        if let Some(children) = node.get("children").and_then(|c| c.as_array()) {
            stack.extend(children.iter().rev());
        }
    }
    None
}

/// `geometries` without the geometry-level `animations` objects (for writing edited clips to a
/// top-level `animations` array instead); `None` when there is nothing to remove.
pub(crate) fn strip(geometries: &RawValue) -> Option<Box<RawValue>> {
    let mut value: serde_json::Value = serde_json::from_str(geometries.get()).ok()?;
    let mut removed = false;
    for g in value.as_array_mut()? {
        if let Some(data) = g.get_mut("data").and_then(|d| d.as_object_mut())
            && data.get("animations").is_some_and(|a| a.is_object())
        {
            data.shift_remove("animations");
            removed = true;
        }
    }
    if !removed {
        return None;
    }
    RawValue::from_string(serde_json::to_string(&value).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    fn geometries(animations: &str) -> Box<RawValue> {
        raw(&format!(
            r#"[{{"uuid":"G","type":"Geometry","data":{{"name":"g","animations":{animations}}}}}]"#
        ))
    }

    #[test]
    fn keys_become_root_morph_tracks() {
        let g = geometries(
            r#"{"morphTargets[a]":[{"time":0,"value":0},{"time":2,"value":0.5}],"morphTargets[1]":[{"time":1,"value":1}]}"#,
        );
        let read = read(Some(&g), None).unwrap();
        assert_eq!(read.clips.len(), 1);
        let c = &read.clips[0];
        assert_eq!(c.name, "g");
        assert_eq!(c.uuid, None);
        assert_eq!(c.duration, 2.0);
        assert_eq!(c.tracks[0].name, ".morphTargetInfluences[a]");
        assert_eq!(c.tracks[0].times, [0.0, 2.0]);
        assert_eq!(c.tracks[0].values.as_numbers().unwrap(), [0.0, 0.5]);
        assert_eq!(c.tracks[1].name, ".morphTargetInfluences[1]");
        assert!(read.mesh.is_none());
    }

    #[test]
    fn errors_name_the_key() {
        let e = |a: &str| read(Some(&geometries(a)), None).unwrap_err();
        let x = e(r#"{"position":[]}"#);
        assert_eq!(x.path, r#"geometries[0].data.animations["position"]"#);
        let x = e(r#"{"morphTargets[a]":[{"time":0,"value":"x"}]}"#);
        assert_eq!(
            x.path,
            r#"geometries[0].data.animations["morphTargets[a]"][0].value"#
        );
        let x = e(r#"{"morphTargets[a]":[{"time":1,"value":0},{"time":0,"value":0}]}"#);
        assert_eq!(
            x.path,
            r#"geometries[0].data.animations["morphTargets[a]"][1].time"#
        );
        let x = e(r#"{"morphTargets[a]":[{"value":0}]}"#);
        assert_eq!(x.reason, "missing \"time\"");
        let x = e(r#"{"morphTargets[a]":{}}"#);
        assert!(x.reason.starts_with("expected an array"), "{}", x.reason);
        let x = e(r#"{"morphTargets[a]":[]}"#);
        assert_eq!(x.reason, "no keys");
    }

    #[test]
    fn other_shapes_are_ignored_and_strip_removes_only_objects() {
        for g in [
            r#"{}"#,
            r#"[1,null,{"data":3},{"data":{"animations":[]}}]"#,
            r#"[{"data":{"animations":null}}]"#,
        ] {
            assert!(read(Some(&raw(g)), None).unwrap().clips.is_empty(), "{g}");
        }
        assert!(strip(&raw(r#"[{"data":{"animations":[]}}]"#)).is_none());
        let s = strip(&geometries(r#"{"morphTargets[a]":[]}"#)).unwrap();
        assert_eq!(
            s.get(),
            r#"[{"uuid":"G","type":"Geometry","data":{"name":"g"}}]"#
        );
    }

    #[test]
    fn mesh_is_named_after_the_object_using_the_geometry() {
        let object = raw(
            r#"{"type":"Scene","children":[{"name":"a","children":[{"name":"m","geometry":"G"}]}]}"#,
        );
        assert_eq!(mesh_name(&object, "G").as_deref(), Some("m"));
        assert_eq!(mesh_name(&object, "H"), None);
    }
}
