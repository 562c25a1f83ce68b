//! The glTF model reader on hand-made files (every attribute, strips, two influence sets,
//! textures from buffer views and missing files, broken parts noted) and on SimpleSkin.

use std::path::Path;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::formats::read_bytes;
use crate::model::{AlphaMode, Model, Wrap};

/// A glTF file under construction: one buffer of little-endian data and its accessors.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    /// An accessor of `kind` (`VEC3`) over `values` stored as `component` (5126 float,
    /// 5123 u16, 5121 u8), optionally normalized.
    fn accessor(&mut self, kind: &str, component: u32, normalized: bool, values: &[f64]) -> usize {
        let per = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 16,
        };
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let start = self.bin.len();
        for &v in values {
            match component {
                5126 => self.bin.extend((v as f32).to_le_bytes()),
                5123 => self.bin.extend((v as u16).to_le_bytes()),
                5125 => self.bin.extend((v as u32).to_le_bytes()),
                _ => self.bin.push(v as u8),
            }
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": start, "byteLength": self.bin.len() - start}));
        self.accessors.push(json!({
            "bufferView": self.views.len() - 1, "componentType": component,
            "normalized": normalized, "count": values.len() / per, "type": kind
        }));
        self.accessors.len() - 1
    }

    /// A view of raw `bytes` (an image).
    fn view(&mut self, bytes: &[u8]) -> usize {
        let start = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views
            .push(json!({"buffer": 0, "byteOffset": start, "byteLength": bytes.len()}));
        self.views.len() - 1
    }

    /// The file: `rest` (nodes, meshes, …) plus the buffer, views and accessors.
    fn file(self, mut rest: Value) -> Vec<u8> {
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&self.bin)
        );
        rest["asset"] = json!({"version": "2.0"});
        rest["buffers"] = json!([{"uri": uri, "byteLength": self.bin.len()}]);
        rest["bufferViews"] = Value::Array(self.views);
        rest["accessors"] = Value::Array(self.accessors);
        serde_json::to_vec(&rest).unwrap()
    }
}

fn model_of(bytes: &[u8], name: &str) -> Model {
    let doc = read_bytes(bytes, Path::new(name)).unwrap();
    (*doc.model.expect("a model")).clone()
}

/// A 1×1 red PNG.
fn red_png() -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
        .unwrap()
}

#[test]
fn every_attribute_reads_and_influences_normalize() {
    let mut b = Builder::default();
    let pos = b.accessor(
        "VEC3",
        5126,
        false,
        &[0., 0., 0., 1., 0., 0., 0., 1., 0., 1., 1., 0.],
    );
    let nor = b.accessor("VEC3", 5126, false, &[0., 0., 1.].repeat(4));
    let col = b.accessor("VEC3", 5121, true, &[255., 0., 0.].repeat(4));
    let uv = b.accessor("VEC2", 5126, false, &[0., 0., 1., 0., 0., 1., 1., 1.]);
    let j0 = b.accessor("VEC4", 5121, false, &[0., 1., 0., 0.].repeat(4));
    let w0 = b.accessor("VEC4", 5121, true, &[102., 51., 0., 0.].repeat(4));
    let j1 = b.accessor("VEC4", 5123, false, &[2., 0., 0., 0.].repeat(4));
    let w1 = b.accessor("VEC4", 5126, false, &[0.2, 0., 0., 0.].repeat(4));
    let idx = b.accessor("SCALAR", 5123, false, &[0., 1., 2., 3.]);
    let morph = b.accessor("VEC3", 5126, false, &[0., 0., 1.].repeat(4));
    let ibm = b.accessor(
        "MAT4",
        5126,
        false,
        &[[
            1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., -1., 0., 1.,
        ]; 3]
            .concat(),
    );
    let image = b.view(&red_png());
    let file = b.file(json!({
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "skinned", "mesh": 0, "skin": 0, "weights": [0.5]},
            {"name": "root", "children": [2, 3], "translation": [0, 2, 0]},
            {"name": "a"}, {"name": "b", "scale": [2, 2, 2]},
            {"name": "unshown", "mesh": 0}
        ],
        "skins": [{"joints": [1, 2, 3], "inverseBindMatrices": ibm, "name": "body"}],
        "meshes": [{"primitives": [{
            "attributes": {"POSITION": pos, "NORMAL": nor, "COLOR_0": col, "TEXCOORD_1": uv,
                "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1},
            "indices": idx, "mode": 5, "material": 0, "targets": [{"POSITION": morph}]
        }], "extras": {"targetNames": ["lift"]}}],
        "materials": [{"name": "skin", "pbrMetallicRoughness": {
            "baseColorFactor": [0.5, 0.5, 0.5, 1],
            "baseColorTexture": {"index": 0, "texCoord": 1}},
            "alphaMode": "MASK", "doubleSided": true}],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"wrapS": 33071, "magFilter": 9728}],
        "images": [{"bufferView": image, "mimeType": "image/png"}]
    }));
    let model = model_of(&file, "all.gltf");
    assert!(model.notes.is_empty(), "{:?}", model.notes);
    assert_eq!(model.nodes.len(), 5);
    assert_eq!(model.nodes[2].parent, Some(1));
    assert_eq!(model.nodes[0].weights, [0.5]);
    assert_eq!(model.nodes[4].mesh, None, "outside the scene: not drawn");
    assert_eq!(model.instances().count(), 1);
    let p = &model.meshes[0].primitives[0];
    assert_eq!(model.meshes[0].target_names, ["lift"]);
    assert_eq!(p.triangles, [[0, 1, 2], [3, 2, 1]]);
    assert_eq!(p.normals[3], [0.0, 0.0, 1.0]);
    assert_eq!(p.colours[0], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(p.uvs.len(), 2);
    assert!(p.uvs[0].is_empty());
    assert_eq!(p.uvs[1][3], [1.0, 1.0]);
    assert_eq!(p.joints[0][..5], [0, 1, 0, 0, 2]);
    // 0.4 + 0.2 + 0.2 (two sets) normalized over all eight.
    let w = p.weights[0];
    assert!(
        (w[0] - 0.5).abs() < 1e-3 && (w[1] - 0.25).abs() < 1e-3,
        "{w:?}"
    );
    assert!((w[4] - 0.25).abs() < 1e-3, "{w:?}");
    assert_eq!(p.targets[0].positions[1], [0.0, 0.0, 1.0]);
    let skin = &model.skins[0];
    assert_eq!(
        (skin.name.as_str(), skin.joints.clone()),
        ("body", vec![1, 2, 3])
    );
    assert_eq!(skin.inverse_bind_matrices[2].w_axis.y, -1.0);
    let m = &model.materials[p.material.unwrap()];
    assert_eq!(m.base_colour, [0.5, 0.5, 0.5, 1.0]);
    assert_eq!(m.alpha_mode, AlphaMode::Mask(0.5));
    assert!(m.double_sided);
    let t = m.texture.unwrap();
    assert_eq!((t.image, t.tex_coord), (0, 1));
    assert_eq!(
        (t.sampler.wrap_u, t.sampler.wrap_v),
        (Wrap::Clamp, Wrap::Repeat)
    );
    assert!(t.sampler.nearest);
    assert_eq!(model.images[0].mime.as_deref(), Some("image/png"));
    assert_eq!(model.texture_count(), 1);
    assert!(model.is_skinned());
    assert_eq!((model.vertex_count(), model.triangle_count()), (4, 2));
}

#[test]
fn broken_parts_are_noted_and_the_rest_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::default();
    let pos = b.accessor("VEC3", 5126, false, &[0., 0., 0., 1., 0., 0., 0., 1., 0.]);
    let short = b.accessor("VEC3", 5126, false, &[0., 0., 1.]);
    let bad_index = b.accessor("SCALAR", 5123, false, &[0., 1., 7.]);
    let file = b.file(json!({
        "nodes": [{"mesh": 0, "skin": 0}, {"mesh": 1}],
        "skins": [{"joints": [0], "inverseBindMatrices": 99}],
        "meshes": [
            {"primitives": [
                {"attributes": {"POSITION": pos}},
                {"attributes": {"POSITION": pos, "NORMAL": short}},
                {"attributes": {"POSITION": pos}, "indices": bad_index},
                {"attributes": {"POSITION": pos}, "mode": 1},
                {"attributes": {"POSITION": pos},
                 "extensions": {"KHR_draco_mesh_compression": {}}}
            ]},
            {"primitives": [{"attributes": {"POSITION": pos}, "material": 0}]}
        ],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "textures": [{"source": 0}],
        "images": [{"uri": "missing.png"}]
    }));
    let path = dir.path().join("broken.gltf");
    std::fs::write(&path, &file).unwrap();
    let doc = crate::formats::read_file(&path).unwrap();
    let model = doc.model.unwrap();
    let notes = model.notes.join("\n");
    for expected in [
        "skins[0].inverseBindMatrices: accessor 99 does not exist",
        "accessors[1].count: NORMAL has 1 elements for 3 vertices (not drawn)",
        "accessors[2]: index 2 (7) is not one of the primitive's 3 vertices",
        "meshes[0].primitives[3].mode: points and lines are not drawn",
        "meshes[0].primitives[4].extensions.KHR_draco_mesh_compression: the primitive is compressed",
        "images[0].uri: ",
        "materials[0].pbrMetallicRoughness.baseColorTexture: images[0] could not be read",
    ] {
        assert!(notes.contains(expected), "{expected:?} not in\n{notes}");
    }
    assert_eq!(model.nodes[0].skin, None, "a broken skin is not used");
    assert_eq!(model.meshes[0].primitives.len(), 1);
    assert_eq!(model.meshes[1].primitives[0].material, Some(0));
    assert_eq!(model.materials[0].texture, None);
    assert_eq!(model.vertex_count(), 6);
}

#[test]
fn files_without_meshes_have_no_model() {
    let file = Builder::default().file(json!({"nodes": [{"name": "a"}]}));
    let doc = read_bytes(&file, Path::new("empty.gltf")).unwrap();
    assert!(doc.model.is_none());
}

#[test]
fn simple_skin_is_a_skinned_strip() {
    let Some(path) = clipscope_test_support::sample_data("gltf/SimpleSkin.gltf") else {
        return;
    };
    let doc = crate::formats::read_file(&path).unwrap();
    let model = doc.model.unwrap();
    assert!(model.notes.is_empty(), "{:?}", model.notes);
    assert!(model.is_skinned());
    assert_eq!(model.vertex_count(), 10);
    assert_eq!(model.triangle_count(), 8);
    assert_eq!(model.skins[0].joints, [1, 2]);
    // Every joint name is a bone of the document's skeleton, so clips drive both.
    let skeleton = doc.skeleton.unwrap();
    for &j in &model.skins[0].joints {
        let name = &model.nodes[j].name;
        assert!(skeleton.bones.iter().any(|b| &b.name == name), "{name}");
    }
    // At rest the strip stands where it was bound: x from -0.5 to 0.5, y from 0 to 2.
    let posed = model.posed(&model.rest_world(), |_| &[]);
    let ys: Vec<f32> = posed[0].positions.iter().map(|p| p[1]).collect();
    assert_eq!(ys.iter().cloned().fold(f32::MAX, f32::min), 0.0);
    assert_eq!(ys.iter().cloned().fold(f32::MIN, f32::max), 2.0);
}
