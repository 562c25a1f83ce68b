//! Reading the per-object clips of an io_three object tree (see
//! [`object_clips`](crate::formats::threejs::object_clips) for where they sit and what their
//! tracks aim at): each clip goes through the same clip converter as every other clip, with its
//! JSON path in the tree, so its findings and errors name where it is.

use std::path::Path;

use serde_json::value::RawValue;

use super::Mode;
use super::clip::read_clip;
use crate::formats::ReadError;
use crate::formats::document::Unread;
use crate::formats::json::path::{field, index};
use crate::formats::threejs::object_clips::{elements, holders, on_object};
use crate::model::{Clip, Problem};

/// What the object tree holds: its clips, what the lenient read found in them, and what was
/// not read.
#[derive(Debug, Default)]
pub(crate) struct ObjectClips {
    /// One clip per per-object clip, in tree order.
    pub clips: Vec<Clip>,
    /// The lenient read's findings, with the clip index counted from the first object clip.
    pub problems: Vec<Problem>,
    /// Per-object clips in a shape this module does not read.
    pub unread: Vec<Unread>,
}

/// Reads the per-object clips of the object tree `object` of `file` (see the module docs);
/// `mode` is the reader's. Each clip goes through the reader's clip converter with its path in
/// the tree, so findings name it. In strict mode the first problem is the error; in lenient
/// mode it is one of the findings.
pub(crate) fn read_object(
    object: Option<&RawValue>,
    file: &Path,
    mode: Mode,
) -> Result<ObjectClips, ReadError> {
    let mut out = ObjectClips::default();
    let Some(object) = object else {
        return Ok(out);
    };
    for holder in holders(object) {
        let at = field(&holder.path, "clips");
        let list = match elements(holder.clips) {
            Some(list) => list,
            None => {
                out.unread.push(Unread::new(
                    at,
                    "per-object clips in an unknown layout (expected an array of clip objects)",
                ));
                continue;
            }
        };
        for (j, raw) in list.into_iter().enumerate() {
            let clip_path = index(&at, j);
            let c = out.clips.len();
            let Some(mut clip) = read_clip(raw, &clip_path, file, c, mode, &mut out.problems)?
            else {
                out.unread.push(Unread::new(
                    clip_path,
                    "a per-object clip in an unknown layout (expected a clip object with tracks)",
                ));
                continue;
            };
            for track in &mut clip.tracks {
                track.name = on_object(&holder.name, &track.name);
            }
            clip.uuid = None;
            out.clips.push(clip);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).unwrap()
    }

    const TREE: &str = r#"{"type":"Scene","children":[
        {"name":"Cube Main","type":"Mesh","clips":[{"name":"Spin","fps":10,"tracks":[
            {"name":"position","type":"vector3","keys":[{"time":0,"value":[0,0,0]},{"time":10,"value":[1,2,3]}]},
            {"name":"quaternion","type":"quaternion","keys":[{"time":0,"value":[0,0,0,1]},{"time":5,"value":[0,0,1,0]}]}]}],
         "children":[{"uuid":"U-1","clips":[{"name":"Grow","tracks":[
            {"name":"scale","type":"vector3","keys":[{"time":0,"value":[1,1,1]},{"time":2,"value":[2,2,2]}]}]}]}]}]}"#;

    #[test]
    fn clips_aim_at_their_object_with_times_in_frames() {
        let read = read_object(Some(&raw(TREE)), Path::new("s.json"), Mode::Strict).unwrap();
        assert!(read.unread.is_empty());
        let names: Vec<&str> = read.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Spin", "Grow"]);
        let spin = &read.clips[0];
        assert_eq!(spin.tracks[0].name, "Cube_Main.position");
        assert_eq!(spin.tracks[0].times, [0.0, 1.0]);
        assert_eq!(spin.tracks[1].name, "Cube_Main.quaternion");
        assert_eq!(spin.tracks[1].times, [0.0, 0.5]);
        assert_eq!(spin.duration, 1.0);
        assert_eq!(read.clips[1].tracks[0].name, "U-1.scale");
        assert_eq!(read.clips[1].tracks[0].times, [0.0, 2.0]);
    }

    #[test]
    fn errors_name_the_path_in_the_object_tree() {
        let bad = TREE.replace(
            r#"{"time":10,"value":[1,2,3]}"#,
            r#"{"time":10,"value":"x"}"#,
        );
        let e = read_object(Some(&raw(&bad)), Path::new("s.json"), Mode::Strict).unwrap_err();
        assert!(
            e.json_path
                .starts_with("object.children[0].clips[0].tracks[0].keys[1].value"),
            "{}",
            e.json_path
        );
        let lenient = read_object(Some(&raw(&bad)), Path::new("s.json"), Mode::Lenient).unwrap();
        assert!(!lenient.problems.is_empty());
        assert!(
            lenient.problems[0]
                .message
                .starts_with("object.children[0].clips[0].tracks[0]"),
            "{}",
            lenient.problems[0].message
        );
    }

    #[test]
    fn findings_carry_their_own_paths() {
        // The model's own findings have no JSON path and get none; a number too large for an
        // f64 is read (and found) like anywhere else in a three.js file.
        let tree = r#"{"children":[{"name":"a","clips":[{"name":"E","tracks":[]},
            {"name":"F","tracks":[{"name":"position","type":"vector3","times":[1e400],"values":[0,0,0]}]}]}]}"#;
        let read = read_object(Some(&raw(tree)), Path::new("s.json"), Mode::Lenient).unwrap();
        let found: Vec<(&str, Option<usize>, &str)> = read
            .problems
            .iter()
            .map(|p| (p.code.as_str(), p.clip, p.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("empty-clip", Some(0), "the clip has no tracks"),
                (
                    "number-out-of-range",
                    Some(1),
                    "object.children[0].clips[1].tracks[0].times[0]: number 1e400 is out of range for a 32-bit float"
                ),
            ]
        );
        assert_eq!(read.clips[1].tracks[0].name, "a.position");
    }

    #[test]
    fn other_shapes_are_listed() {
        let odd = raw(r#"{"children":[{"name":"a","clips":{"walk":1}},{"name":"b","clips":[3]}]}"#);
        let read = read_object(Some(&odd), Path::new("s.json"), Mode::Strict).unwrap();
        assert!(read.clips.is_empty());
        let paths: Vec<&str> = read.unread.iter().map(|u| u.path.as_str()).collect();
        assert_eq!(
            paths,
            ["object.children[0].clips", "object.children[1].clips[0]"]
        );
    }
}
