//! The node tree of a three.js object/scene file (`object` with its `children`) as the
//! document's skeleton: every named object (bones, meshes, groups) with its parent and its rest
//! transform from `matrix` (column-major, as `Object3D.toJSON` writes it), so the file's clips
//! play on the objects they move. Lights and cameras are left out; an unnamed object passes its
//! transform on to its children. Read leniently: a malformed node ends the tree there.

use glam::Mat4;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::model::{Bone, Skeleton};

/// One object as the tree needs it.
#[derive(Deserialize)]
struct Node {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    matrix: Option<Vec<f32>>,
    #[serde(default)]
    children: Vec<Node>,
}

/// The skeleton of the object tree in `object`, or `None` when it has no named objects.
pub(crate) fn skeleton(object: Option<&RawValue>) -> Option<Skeleton> {
    let root: Node = serde_json::from_str(object?.get()).ok()?;
    let mut bones = Vec::new();
    add(&root, None, Mat4::IDENTITY, &mut bones, 0);
    (!bones.is_empty()).then_some(Skeleton { bones })
}

/// How deep a tree is followed.
const MAX_DEPTH: usize = 256;

/// Adds `node` (under bone `parent`, after the unnamed objects' transform `carried`) and its
/// children.
fn add(node: &Node, parent: Option<usize>, carried: Mat4, bones: &mut Vec<Bone>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let kind = node.kind.as_deref().unwrap_or("");
    if kind.contains("Light") || kind.contains("Camera") {
        return;
    }
    let local = match node.matrix.as_deref() {
        Some(m) if m.len() == 16 && m.iter().all(|v| v.is_finite()) => {
            let mut a = [0.0f32; 16];
            a.copy_from_slice(m);
            Mat4::from_cols_array(&a)
        }
        _ => Mat4::IDENTITY,
    };
    let transform = carried * local;
    let named = node.name.as_deref().filter(|n| !n.is_empty());
    let (me, passed) = match named {
        Some(name) => {
            let (scale, rotation, position) = transform.to_scale_rotation_translation();
            bones.push(Bone {
                name: name.to_string(),
                parent,
                position: position.into(),
                rotation: rotation.into(),
                scale: scale.into(),
            });
            (Some(bones.len() - 1), Mat4::IDENTITY)
        }
        None => (parent, transform),
    };
    for child in &node.children {
        add(child, me, passed, bones, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_objects_with_their_parents_and_matrices() {
        let json = r#"{"type": "Scene", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,2,0,1], "children": [
            {"type": "Object3D", "name": "arm", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1,0,0,1],
             "children": [{"type": "Mesh", "name": "hand", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,3,0,1]}]},
            {"type": "PointLight", "name": "lamp"}]}"#;
        let raw: Box<RawValue> = serde_json::from_str(json).unwrap();
        let s = skeleton(Some(&raw)).unwrap();
        let names: Vec<&str> = s.bones.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["arm", "hand"]);
        // The unnamed scene's lift is carried into its named child.
        assert_eq!(s.bones[0].position, [1.0, 2.0, 0.0]);
        assert_eq!(s.bones[1].parent, Some(0));
        assert_eq!(s.bones[1].position, [0.0, 3.0, 0.0]);
        assert_eq!(s.bones[1].scale, [2.0, 2.0, 2.0]);
        let bad: Box<RawValue> = serde_json::from_str(r#"{"children": 3}"#).unwrap();
        assert!(skeleton(Some(&bad)).is_none());
        assert!(skeleton(None).is_none());
    }

    #[test]
    fn the_scene_animation_sample_has_its_cylinders() {
        let Some(path) = clipscope_test_support::sample_data("threejs/scene-animation.json") else {
            return;
        };
        let doc = crate::formats::read_file(&path).unwrap();
        let s = doc.skeleton.expect("the scene's object tree");
        let cylinder = s.bones.iter().find(|b| b.name == "cylinder001").unwrap();
        let parent = &s.bones[cylinder.parent.unwrap()];
        assert_eq!(parent.name, "lighthaus-test-trnsfrm01");
    }
}
