//! glTF 2.0 (`.gltf` and `.glb`) against the shared Khronos sample files: channels read as
//! tracks with the accessor data, skeletons and morph meshes, write-back round trips that keep
//! the rest of the file, conversion to and from three.js checked by sampling, refused buffer
//! URIs and corrupt files (errors with JSON paths, never panics), the `convert` command, and
//! the Khronos glTF-Validator on every export (when `tests/conformance/node_modules` has it).
//!
//! Expected values are the accessor contents, decoded by hand from the files' base64 buffers.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::test_support::{sample_data, sample_data_root};
use clipscope_core::formats::{
    self, Document, Format, WriteOptions, check_writable, conversion_losses, read_bytes, read_file,
    write_bytes,
};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Clip, HandleSide, Interpolation, Track, TrackKind, Values};
use serde_json::{Value, json};

fn data(name: &str) -> PathBuf {
    sample_data_root().join("gltf").join(name)
}

fn read(name: &str) -> Document {
    read_file(&data(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn nums(track: &Track) -> &[f32] {
    track.values.as_numbers().unwrap()
}

fn compact() -> WriteOptions {
    WriteOptions::default()
}

/// The f64 values of `track` at `t`, as three.js's interpolant computes them.
fn at(track: &Track, t: f64) -> Vec<f64> {
    let mut out = vec![0.0; track.value_size()];
    Sampler::new(track).evaluate_f64(t, &mut out);
    out
}

/// Writes `doc` as `format` and reads it back.
fn through(doc: &Document, format: Format) -> (Vec<u8>, Document) {
    let doc = doc.clone().converted_to(format);
    let bytes = write_bytes(&doc, &compact());
    let name = if format == Format::Glb {
        "x.glb"
    } else {
        "x.gltf"
    };
    let back = read_bytes(&bytes, Path::new(name)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.format, format);
    (bytes, back)
}

/// The JSON of a `.gltf` file, or of a `.glb` file's JSON chunk.
fn json_of(bytes: &[u8]) -> Value {
    if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        serde_json::from_slice(&bytes[20..20 + len]).unwrap()
    } else {
        serde_json::from_slice(bytes).unwrap()
    }
}

fn read_err(text: &str) -> String {
    match read_bytes(text.as_bytes(), Path::new("dir/bad.gltf")) {
        Ok(_) => panic!("read without error: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn animated_triangle_rotation_channel() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("AnimatedTriangle.gltf");
    assert_eq!(doc.format, Format::Gltf);
    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "animation_0");
    assert_eq!(clip.duration, 1.0);
    assert_eq!(clip.uuid, None);
    assert_eq!(clip.tracks.len(), 1);
    let track = &clip.tracks[0];
    assert_eq!(track.name, "node_0.quaternion");
    assert_eq!(track.kind, TrackKind::Quaternion);
    assert_eq!(track.interpolation, Interpolation::Linear);
    assert_eq!(track.times, [0.0, 0.25, 0.5, 0.75, 1.0]);
    let s = 0.707f32;
    assert_eq!(
        nums(track),
        [
            0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, s, -s, 0.0, 0.0, 0.0,
            1.0
        ]
    );
    // At the key times the sampler gives the accessor data; between, a slerp.
    for (k, &t) in track.times.iter().enumerate() {
        let want: Vec<f64> = nums(track)[k * 4..k * 4 + 4]
            .iter()
            .map(|&v| v as f64)
            .collect();
        assert_eq!(at(track, t as f64), want, "t = {t}");
    }
    let mid = at(track, 0.375);
    assert!(mid[2] > s as f64 && mid[2] < 1.0 && mid[3] > 0.0 && mid[3] < s as f64);
    // The rotated node is the skeleton's only bone.
    let skeleton = doc.skeleton.as_ref().unwrap();
    assert_eq!(skeleton.hierarchy(), [("node_0".to_string(), None)]);
    assert!(doc.mesh.is_none(), "no morph targets");
}

#[test]
fn box_animated_rotation_and_translation_clips() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("BoxAnimated.gltf");
    assert_eq!(doc.clips.len(), 2);
    let rotation = &doc.clips[0].tracks[0];
    assert_eq!(rotation.name, "node_2.quaternion");
    assert_eq!(rotation.times, [1.25, 2.5]);
    assert_eq!(
        nums(rotation),
        [-0.0, -0.0, -0.0, -1.0, 1.0, 0.0, 0.0, 4.4896593e-11]
    );
    assert_eq!(doc.clips[0].duration, 2.5);
    let translation = &doc.clips[1].tracks[0];
    assert_eq!(translation.name, "node_0.position");
    assert_eq!(translation.kind, TrackKind::Vector);
    assert_eq!(translation.times, [0.0, 1.25, 2.5, 3.70833]);
    assert_eq!(
        nums(translation),
        [0.0, 0.0, 0.0, 0.0, 2.52, 0.0, 0.0, 2.52, 0.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(doc.clips[1].duration, 3.70833f32 as f64);
    // Halfway up: linear between the first two keys (f32 values, f64 arithmetic).
    assert_eq!(at(translation, 0.625)[1], 2.52f32 as f64 * 0.5);
    // Before the first key the rotation holds its first value.
    assert_eq!(at(rotation, 0.0), [-0.0, -0.0, -0.0, -1.0]);
    // Node 2 is moved and hangs under node 1 under node 0 (which is moved too).
    let skeleton = doc.skeleton.as_ref().unwrap();
    assert_eq!(
        skeleton.hierarchy(),
        [
            ("node_0".to_string(), None),
            ("node_1".to_string(), Some("node_0".to_string())),
            ("node_2".to_string(), Some("node_1".to_string())),
        ]
    );
    assert_eq!(skeleton.bones[0].rotation, [-0.0, -0.0, -0.0, -1.0]);
    assert_eq!(skeleton.bones[1].position, [0.0; 3]);
}

#[test]
fn simple_morph_weights_and_mesh() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("SimpleMorph.gltf");
    let clip = &doc.clips[0];
    let names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "node_0.morphTargetInfluences[0]",
            "node_0.morphTargetInfluences[1]"
        ]
    );
    for t in &clip.tracks {
        assert_eq!(t.kind, TrackKind::Number);
        assert_eq!(t.times, [0.0, 1.0, 2.0, 3.0, 4.0]);
    }
    assert_eq!(nums(&clip.tracks[0]), [0.0, 0.0, 1.0, 1.0, 0.0]);
    assert_eq!(nums(&clip.tracks[1]), [0.0, 1.0, 1.0, 0.0, 0.0]);
    assert_eq!(at(&clip.tracks[0], 1.5), [0.5]);
    assert_eq!(at(&clip.tracks[1], 3.25), [0.0]);
    assert_eq!(at(&clip.tracks[1], 2.75), [0.25]);
    let mesh = doc.mesh.as_ref().unwrap();
    assert_eq!(mesh.name, "node_0");
    assert_eq!(
        mesh.vertices,
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    );
    assert_eq!(mesh.triangles, [[0, 1, 2]]);
    assert_eq!(mesh.target_names(), ["0", "1"]);
    // Targets are stored absolute: base + the file's offsets.
    // Offsets (0,0,0), (0,0,0), (-1,1,0) and (0,0,0), (0,0,0), (1,1,0).
    assert_eq!(
        mesh.targets[0].vertices,
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [-0.5, 1.5, 0.0]]
    );
    assert_eq!(
        mesh.targets[1].vertices,
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.5, 1.5, 0.0]]
    );
    assert!(doc.skeleton.is_none(), "weights alone move no node");
}

#[test]
fn simple_skin_skeleton_from_joints() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("SimpleSkin.gltf");
    let track = &doc.clips[0].tracks[0];
    assert_eq!(track.name, "node_2.quaternion");
    assert_eq!(track.times.len(), 12);
    assert_eq!(track.times[11], 5.5);
    assert_eq!(nums(track)[4..8], [0.0, 0.0, 0.383, 0.924]);
    assert_eq!(nums(track)[36..40], [0.0, 0.0, -0.707, 0.707]);
    let skeleton = doc.skeleton.as_ref().unwrap();
    assert_eq!(
        skeleton.hierarchy(),
        [
            ("node_1".to_string(), None),
            ("node_2".to_string(), Some("node_1".to_string())),
        ]
    );
    assert_eq!(skeleton.bones[0].position, [0.0, 1.0, 0.0]);
}

#[test]
fn unchanged_round_trips_keep_the_file() {
    if sample_data("gltf").is_none() {
        return;
    }
    for name in [
        "AnimatedTriangle.gltf",
        "BoxAnimated.gltf",
        "SimpleMorph.gltf",
        "SimpleSkin.gltf",
    ] {
        let doc = read(name);
        let original: Value = serde_json::from_slice(&std::fs::read(data(name)).unwrap()).unwrap();
        for format in [Format::Gltf, Format::Glb] {
            let (bytes, back) = through(&doc, format);
            assert_eq!(back.clips, doc.clips, "{name} as {format}");
            assert_eq!(back.skeleton, doc.skeleton, "{name} as {format}");
            assert_eq!(back.mesh, doc.mesh, "{name} as {format}");
            let json = json_of(&bytes);
            // Everything but the buffers (embedded again, or packed into the BIN chunk) is
            // value for value the original.
            for (k, v) in original.as_object().unwrap() {
                if !matches!(k.as_str(), "buffers" | "bufferViews" | "accessors") {
                    assert_eq!(&json[k], v, "{name} as {format}: {k}");
                }
            }
            if format == Format::Gltf {
                assert_eq!(json["accessors"], original["accessors"], "{name}");
                assert_eq!(json["bufferViews"], original["bufferViews"], "{name}");
            }
            // Twice through gives the same bytes.
            let (again, _) = through(&back, format);
            assert_eq!(again, bytes, "{name} as {format}");
        }
    }
}

#[test]
fn an_edited_value_with_the_same_keys_is_written_not_the_file_s() {
    if sample_data("gltf").is_none() {
        return;
    }
    // Same clips, tracks and key counts as read: only the comparison with the file's decoded
    // animations tells the edit apart.
    let doc = read("BoxAnimated.gltf");
    let mut edited = doc.clone();
    // A translation (a rotation's value would be scaled back to unit length).
    edited.clips[1].tracks[0].values.as_numbers_mut().unwrap()[4] = 3.0;
    for format in [Format::Gltf, Format::Glb] {
        let (_, back) = through(&edited, format);
        assert_eq!(back.clips, edited.clips, "{format}");
        assert_ne!(back.clips, doc.clips, "{format}");
        let (_, unchanged) = through(&doc, format);
        assert_eq!(unchanged.clips, doc.clips, "{format}");
    }
}

#[test]
fn edited_clips_replace_only_the_animations() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("BoxAnimated.gltf");
    let original: Value =
        serde_json::from_slice(&std::fs::read(data("BoxAnimated.gltf")).unwrap()).unwrap();
    let mut edited = doc.clone();
    edited.clips.remove(0);
    edited.clips[0].name = "lift".into();
    edited.clips[0].tracks[0].values.as_numbers_mut().unwrap()[4] = 3.0;
    for format in [Format::Gltf, Format::Glb] {
        let (bytes, back) = through(&edited, format);
        assert_eq!(back.clips.len(), 1);
        assert_eq!(back.clips[0].name, "lift");
        assert_eq!(back.clips[0].tracks, edited.clips[0].tracks);
        let json = json_of(&bytes);
        for k in ["nodes", "meshes", "materials", "scenes", "scene", "asset"] {
            assert_eq!(json[k], original[k], "{k}");
        }
        // The 6 mesh accessors stay; the 4 animation accessors give way to 2 new ones.
        assert_eq!(json["accessors"].as_array().unwrap().len(), 8);
        assert_eq!(
            json["accessors"].as_array().unwrap()[..6],
            original["accessors"].as_array().unwrap()[..6]
        );
        assert_eq!(json["buffers"].as_array().unwrap().len(), 1);
        // Keys stay where the file had them.
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        let want: Vec<&String> = original.as_object().unwrap().keys().collect();
        assert_eq!(keys, want);
        // The mesh data survived the repacking: the animated node and the two below it,
        // which move with it (every node under an animated one is part of the hierarchy).
        assert_eq!(back.skeleton.as_ref().unwrap().bones.len(), 3);
    }
    // With an extension that may point into buffers nothing is dropped or moved: the new
    // data is appended to the first buffer and the old accessors stay. (Meshopt-compressed
    // views are decoded when read, so `EXT_meshopt_compression` no longer counts.)
    let mut text = original.clone();
    text["extensionsUsed"] = json!(["KHR_draco_mesh_compression"]);
    let doc = read_bytes(text.to_string().as_bytes(), Path::new("m.gltf")).unwrap();
    let mut edited = doc.clone();
    edited.clips.remove(0);
    let (bytes, back) = through(&edited, Format::Gltf);
    assert_eq!(back.clips, edited.clips);
    let json = json_of(&bytes);
    assert_eq!(json["accessors"].as_array().unwrap().len(), 12);
    assert_eq!(
        json["accessors"].as_array().unwrap()[..10],
        original["accessors"].as_array().unwrap()[..]
    );
    assert_eq!(
        json["bufferViews"].as_array().unwrap()[..5],
        original["bufferViews"].as_array().unwrap()[..]
    );
    // A morph edit keeps the mesh (and its default weights stand in for untracked targets).
    let mut morph = read("SimpleMorph.gltf");
    morph.clips[0].tracks.remove(1);
    let (_, back) = through(&morph, Format::Glb);
    assert_eq!(back.mesh, morph.mesh);
    assert_eq!(back.clips[0].tracks[0], morph.clips[0].tracks[0]);
    // The mesh's default weight (0.5) holds the target no track animates.
    assert_eq!(nums(&back.clips[0].tracks[1]), [0.5; 5]);
}

#[test]
fn unknown_fields_survive() {
    let text = r#"{
      "asset": {"version": "2.0", "generator": "hand", "extras": {"a": 1}},
      "extensionsUsed": ["KHR_materials_unlit"],
      "extras": {"note": "keep me"},
      "nodes": [{"name": "Cube Arm.L", "extras": {"x": [1, 2]}}],
      "scenes": [{"nodes": [0], "name": "s"}],
      "scene": 0,
      "materials": [{"extensions": {"KHR_materials_unlit": {}}}],
      "animations": [{"name": "spin", "extras": {"take": 3}, "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
        "samplers": [{"input": 0, "output": 1, "interpolation": "STEP"}]}],
      "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
      "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
      "buffers": [{"byteLength": 32, "name": "data", "uri": "data:application/octet-stream;base64,AAAAAAAAgD8AAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA="}]
    }"#;
    let doc = read_bytes(text.as_bytes(), Path::new("x.gltf")).unwrap();
    let track = &doc.clips[0].tracks[0];
    assert_eq!(track.name, "Cube_ArmL.position");
    assert_eq!(track.interpolation, Interpolation::Discrete);
    assert_eq!(nums(track), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(doc.clips[0].user_data, json!({"take": 3}));
    let mut edited = doc.clone();
    edited.clips[0].tracks[0].times[1] = 2.0;
    edited.clips[0].reset_duration();
    let (bytes, back) = through(&edited, Format::Gltf);
    assert_eq!(back.clips, edited.clips);
    let json = json_of(&bytes);
    let original: Value = serde_json::from_str(text).unwrap();
    for k in [
        "asset",
        "extensionsUsed",
        "extras",
        "nodes",
        "scenes",
        "materials",
    ] {
        assert_eq!(json[k], original[k], "{k}");
    }
    assert_eq!(json["animations"][0]["extras"], json!({"take": 3}));
    assert_eq!(json["buffers"][0]["name"], "data");
}

#[test]
fn external_buffers_inside_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bin: Vec<u8> = [0.0f32, 1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    std::fs::create_dir(dir.path().join("bin")).unwrap();
    std::fs::write(dir.path().join("bin/key frames.bin"), &bin).unwrap();
    let text = r#"{"asset":{"version":"2.0"},"nodes":[{"name":"n"}],
      "animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                     "samplers":[{"input":0,"output":1}]}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                   {"bufferView":0,"byteOffset":8,"componentType":5126,"count":2,"type":"VEC3"}],
      "bufferViews":[{"buffer":0,"byteLength":32}],
      "buffers":[{"byteLength":32,"uri":"bin/key%20frames.bin"}]}"#;
    let path = dir.path().join("m.gltf");
    std::fs::write(&path, text).unwrap();
    let doc = read_file(&path).unwrap();
    assert_eq!(doc.clips[0].tracks[0].name, "n.position");
    assert_eq!(
        nums(&doc.clips[0].tracks[0]),
        [0.0, 0.0, 0.0, 1.0, 2.0, 3.0]
    );
    // Written elsewhere, the buffer is embedded: the output stands on its own.
    let out = tempfile::tempdir().unwrap();
    let copy = out.path().join("copy.gltf");
    formats::write_file(&doc, &copy, &compact()).unwrap();
    let json: Value = serde_json::from_slice(&std::fs::read(&copy).unwrap()).unwrap();
    assert!(
        json["buffers"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("data:")
    );
    assert_eq!(read_file(&copy).unwrap().clips, doc.clips);
}

#[test]
fn normalized_short_rotations_and_byte_weights() {
    // Rotation keys as normalized SHORT (VEC4), weights as normalized UNSIGNED_BYTE.
    let mut bytes: Vec<u8> = [0.0f32, 1.0].iter().flat_map(|t| t.to_le_bytes()).collect();
    for q in [[0i16, 0, 0, 32767], [0, 0, -32768, 0]] {
        bytes.extend(q.iter().flat_map(|c| c.to_le_bytes()));
    }
    bytes.extend([0u8, 255, 51, 0]);
    let uri = base64_encode(&bytes);
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},
          "nodes":[{{"name":"a"}},{{"name":"b","mesh":0}}],
          "meshes":[{{"primitives":[{{"attributes":{{"POSITION":3}},"targets":[{{"POSITION":3}},{{"POSITION":3}}]}}],
                     "extras":{{"targetNames":["open","shut"]}}}}],
          "animations":[{{"name":"q","channels":[
              {{"sampler":0,"target":{{"node":0,"path":"rotation"}}}},
              {{"sampler":1,"target":{{"node":1,"path":"weights"}}}}],
            "samplers":[{{"input":0,"output":1}},{{"input":0,"output":2,"interpolation":"STEP"}}]}}],
          "accessors":[{{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"}},
                       {{"bufferView":0,"byteOffset":8,"componentType":5122,"normalized":true,"count":2,"type":"VEC4"}},
                       {{"bufferView":0,"byteOffset":24,"componentType":5121,"normalized":true,"count":4,"type":"SCALAR"}},
                       {{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}}],
          "bufferViews":[{{"buffer":0,"byteLength":28}}],
          "buffers":[{{"byteLength":28,"uri":"data:application/gltf-buffer;base64,{uri}"}}]}}"#
    );
    let doc = read_bytes(text.as_bytes(), Path::new("n.gltf")).unwrap();
    let tracks = &doc.clips[0].tracks;
    assert_eq!(tracks[0].name, "a.quaternion");
    // max(c / 32767, -1): -32768 reads as -1.
    assert_eq!(nums(&tracks[0]), [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0]);
    assert_eq!(tracks[1].name, "b.morphTargetInfluences[open]");
    assert_eq!(tracks[1].interpolation, Interpolation::Discrete);
    assert_eq!(nums(&tracks[1]), [0.0, 0.2]);
    assert_eq!(tracks[2].name, "b.morphTargetInfluences[shut]");
    assert_eq!(nums(&tracks[2]), [1.0, 0.0]);
    // Written as floats, read back the same (the mesh keeps its target names).
    let mut edited = doc.clone();
    edited.clips[0].name = "r".into();
    let (_, back) = through(&edited, Format::Glb);
    assert_eq!(back.clips[0].tracks, edited.clips[0].tracks);
}

#[test]
fn refused_uris_name_the_buffer() {
    for uri in [
        "../secret.bin",
        "/etc/passwd",
        "https://example.com/a.bin",
        "file:///etc/passwd",
        "sub/../../secret.bin",
    ] {
        let text = format!(
            r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":4,"uri":"{uri}"}}]}}"#
        );
        let e = read_err(&text);
        assert!(
            e.starts_with("dir/bad.gltf: buffers[0].uri: refused"),
            "{e}"
        );
        assert!(e.contains(uri), "{e}");
    }
    let e = read_err(
        r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":4},{"byteLength":4,"uri":"http://x/y.bin"}]}"#,
    );
    assert!(e.contains("buffers[0].uri: the buffer has no uri"), "{e}");
    let e = read_err(
        r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":40,"uri":"data:;base64,AAAA"}]}"#,
    );
    assert!(
        e.contains("buffers[0].byteLength: byteLength is 40 but the data has 3 bytes"),
        "{e}"
    );
}

/// A valid one-channel document around `accessors`, `channel` and `sampler` JSON.
fn doc_text(accessors: &str, channel: &str, sampler: &str, nodes: &str) -> String {
    format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":{nodes},
          "animations":[{{"channels":[{channel}],"samplers":[{sampler}]}}],
          "accessors":{accessors},
          "bufferViews":[{{"buffer":0,"byteLength":48}}],
          "buffers":[{{"byteLength":48,"uri":"data:;base64,{}"}}]}}"#,
        "A".repeat(64)
    )
}

#[test]
fn bad_indices_and_counts_are_located() {
    let acc = r#"[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},
                  {"bufferView":0,"componentType":5126,"count":2,"type":"VEC3"},
                  {"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":0,"componentType":5126,"count":13,"type":"SCALAR"},
                  {"bufferView":0,"componentType":5126,"count":2,"type":"VEC4"},
                  {"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR"}]"#;
    let ok_channel = r#"{"sampler":0,"target":{"node":0,"path":"translation"}}"#;
    let ok_sampler = r#"{"input":0,"output":1}"#;
    let nodes = "[{}]";
    assert!(
        read_bytes(
            doc_text(acc, ok_channel, ok_sampler, nodes).as_bytes(),
            Path::new("a.gltf")
        )
        .is_ok()
    );
    let cases = [
        (
            r#"{"sampler":0,"target":{"node":5,"path":"translation"}}"#,
            ok_sampler,
            "animations[0].channels[0].target.node: node 5 does not exist (the file has 1)",
        ),
        (
            r#"{"sampler":3,"target":{"node":0,"path":"translation"}}"#,
            ok_sampler,
            "animations[0].channels[0].sampler: sampler 3 does not exist",
        ),
        (
            ok_channel,
            r#"{"input":0,"output":9}"#,
            "animations[0].samplers[0].output: accessor 9 does not exist (the file has 6)",
        ),
        (
            ok_channel,
            r#"{"input":0,"output":2}"#,
            "animations[0].samplers[0].output: the output has 3 elements, expected 2 keys = 2",
        ),
        (
            ok_channel,
            r#"{"input":0,"output":1,"interpolation":"CUBICSPLINE"}"#,
            "the output has 2 elements, expected 3 × 2 keys = 6",
        ),
        (
            ok_channel,
            r#"{"input":0,"output":4}"#,
            "accessors[4].type: a translation output must be VEC3, not VEC4",
        ),
        (
            ok_channel,
            r#"{"input":1,"output":1}"#,
            "accessors[1].type: key times must be SCALAR, not VEC3",
        ),
        (
            ok_channel,
            r#"{"input":3,"output":1}"#,
            "accessors[3].count: 13 SCALAR elements (stride 4) from byte 0 do not fit in bufferViews[0], which has 48 bytes",
        ),
        (
            ok_channel,
            r#"{"input":0,"output":1,"interpolation":"SMOOTH"}"#,
            "animations[0].samplers[0].interpolation: unknown interpolation \"SMOOTH\"",
        ),
        (
            r#"{"sampler":0,"target":{"node":0,"path":"weights"}}"#,
            r#"{"input":0,"output":5}"#,
            "animations[0].channels[0].target.node: a weights channel on node 0, which has no mesh, with 3 outputs for 2 keys",
        ),
        (
            r#"{"sampler":0,"target":{"node":0,"path":"weights"}}"#,
            r#"{"input":0,"output":2}"#,
            "accessors[2].type: a weights output must be SCALAR, not VEC3",
        ),
    ];
    for (channel, sampler, want) in cases {
        let e = read_err(&doc_text(acc, channel, sampler, nodes));
        assert!(e.contains(want), "want {want}\n got {e}");
    }
    // Samplers are decoded together, after every channel is looked at: the problem reported is
    // still the first in channel order, whether found in a channel or in its sampler.
    let bad_node = r#"{"sampler":1,"target":{"node":5,"path":"translation"}}"#;
    let bad_output = r#"{"input":0,"output":9}"#;
    let e = read_err(&doc_text(
        acc,
        &format!("{ok_channel},{bad_node}"),
        &format!("{bad_output},{ok_sampler}"),
        nodes,
    ));
    assert!(
        e.contains("animations[0].samplers[0].output: accessor 9 does not exist"),
        "{e}"
    );
    let e = read_err(&doc_text(
        acc,
        &format!(r#"{bad_node},{{"sampler":0,"target":{{"node":0,"path":"translation"}}}}"#),
        &format!("{bad_output},{ok_sampler}"),
        nodes,
    ));
    assert!(
        e.contains("animations[0].channels[0].target.node: node 5 does not exist"),
        "{e}"
    );
    let e = read_err(&doc_text(
        acc,
        ok_channel,
        ok_sampler,
        r#"[{"children":[7]}]"#,
    ));
    assert!(
        e.contains("nodes[0].children[0]: node 7 does not exist"),
        "{e}"
    );
    let weights = r#"{"sampler":0,"target":{"node":0,"path":"weights"}}"#;
    let e = read_err(&doc_text(
        acc,
        weights,
        r#"{"input":0,"output":5}"#,
        r#"[{"mesh":2}]"#,
    ));
    assert!(e.contains("nodes[0].mesh: mesh 2 does not exist"), "{e}");
    let e = read_err(r#"{"asset":{"version":"2.0"},"nodes":[{"name":3}]}"#);
    assert!(
        e.contains("nodes[0].name: invalid type: integer `3`, expected a string"),
        "{e}"
    );
    // A pointer channel (KHR_animation_pointer) to a node's translation is that node's track;
    // one to anything else is a track named by its pointer; a path glTF does not define is not
    // read, and the document says so.
    let pointer = |p: &str| {
        format!(
            r#"{{"sampler":0,"target":{{"path":"pointer","extensions":{{"KHR_animation_pointer":{{"pointer":"{p}"}}}}}}}}"#
        )
    };
    let read_channel = |channel: &str| {
        read_bytes(
            doc_text(acc, channel, ok_sampler, nodes).as_bytes(),
            Path::new("p.gltf"),
        )
        .unwrap()
    };
    let doc = read_channel(&pointer("/nodes/0/translation"));
    assert_eq!(doc.clips[0].tracks[0].name, "node_0.position");
    let doc = read_channel(&pointer("/cameras/0/perspective/yfov"));
    assert_eq!(doc.clips[0].tracks[0].name, "/cameras/0/perspective/yfov");
    let doc = read_channel(r#"{"sampler":0,"target":{"node":0,"path":"shear"}}"#);
    assert!(doc.clips[0].tracks.is_empty());
    assert_eq!(
        doc.unread[0].describe(),
        "animations[0].channels[0]: a channel aimed at path \"shear\", which glTF does not define (not read)"
    );
    let e = read_err(&doc_text(acc, &pointer("nodes/0"), ok_sampler, nodes));
    assert!(
        e.contains("KHR_animation_pointer.pointer: \"nodes/0\" is not a JSON pointer"),
        "{e}"
    );
}

#[test]
fn truncated_and_corrupt_files_never_panic() {
    if sample_data("gltf").is_none() {
        return;
    }
    let gltf = std::fs::read(data("SimpleMorph.gltf")).unwrap();
    let doc = read("SimpleMorph.gltf");
    let (glb, _) = through(&doc, Format::Glb);
    // Every prefix of the GLB is an error (the header's length no longer matches).
    for n in 0..glb.len() {
        let e = read_bytes(&glb[..n], Path::new("t.glb"));
        if n >= 4 {
            let e = e.unwrap_err().to_string();
            assert!(e.contains("GLB"), "{n}: {e}");
        }
    }
    let e = read_bytes(&glb[..40], Path::new("t.glb"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("truncated GLB: the header says"), "{e}");
    // Truncated JSON names where it broke off.
    for n in [gltf.len() / 3, gltf.len() / 2, gltf.len() - 3] {
        let e = read_bytes(&gltf[..n], Path::new("t.gltf")).unwrap_err();
        assert!(e.reason.starts_with("truncated JSON"), "{n}: {e}");
    }
    // Random corruption of either container: errors or documents, never a panic.
    let mut rng = crate::test_support::Rng::new(0x9e37_79b9);
    let mut next = || rng.next_u64();
    for source in [&glb, &gltf] {
        for _ in 0..1500 {
            let mut bytes = source.clone();
            for _ in 0..(next() % 4 + 1) {
                let at = next() as usize % bytes.len();
                bytes[at] = match next() % 3 {
                    0 => next() as u8,
                    1 => b"0123456789"[next() as usize % 10],
                    _ => b'9',
                };
            }
            if let Ok(doc) = read_bytes(&bytes, Path::new("f.glb")) {
                let _ = check_writable(&doc);
                let _ = write_bytes(&doc, &compact());
            }
        }
    }
}

/// A clip with every interpolation glTF can hold or must bake.
fn all_interpolations() -> Clip {
    let times = vec![0.0, 0.5, 1.25, 2.0];
    let vec3 = |name: &str, interpolation| {
        let values = vec![0.0, 1.0, 2.0, 1.0, -1.0, 0.5, 3.0, 0.0, 2.0, -2.0, 1.0, 1.0];
        let mut t = Track::numeric(name, TrackKind::Vector, times.clone(), values);
        t.interpolation = interpolation;
        t
    };
    let mut bezier = vec3("thirds.position", Interpolation::Linear);
    bezier.convert_interpolation(Interpolation::Bezier).unwrap();
    // Reshape the curve but keep every handle at a third of its interval.
    if let Some(t) = &mut bezier.tangents {
        for k in 0..4 {
            for c in 0..3 {
                let (time, value) = t.point(HandleSide::Out, k, c, 3).unwrap();
                t.set_point(
                    HandleSide::Out,
                    k,
                    c,
                    3,
                    (time, value + 0.75 * (c as f64 - 1.0)),
                );
            }
        }
    }
    let mut off = bezier.clone();
    off.name = "off.position".into();
    if let Some(t) = &mut off.tangents {
        let (time, value) = t.point(HandleSide::Out, 1, 0, 3).unwrap();
        t.set_point(HandleSide::Out, 1, 0, 3, (time + 0.1, value));
    }
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let quats = vec![
        0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, h, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0,
    ];
    let mut q = Track::numeric(
        "spin.quaternion",
        TrackKind::Quaternion,
        times.clone(),
        quats,
    );
    q.interpolation = Interpolation::Linear;
    let mut q_step = q.clone();
    q_step.name = "step.quaternion".into();
    q_step.interpolation = Interpolation::Discrete;
    let w = |name: &str, values: Vec<f32>, times: Vec<f32>| {
        Track::numeric(name, TrackKind::Number, times, values)
    };
    Clip::new(
        "all",
        -1.0,
        vec![
            vec3("lin.position", Interpolation::Linear),
            vec3("step.scale", Interpolation::Discrete),
            vec3("smooth.position", Interpolation::Smooth),
            bezier,
            off,
            q,
            q_step,
            w(
                "face.morphTargetInfluences[smile]",
                vec![0.0, 1.0, 0.25, 0.0],
                times.clone(),
            ),
            w(
                "face.morphTargetInfluences[1]",
                vec![1.0, 0.0, 0.5],
                vec![0.0, 1.0, 2.0],
            ),
        ],
    )
}

/// Checks that `b` (read back from glTF) samples like `a` at many times, tracks matched by
/// `rename`; `tolerance` per track name of `a`.
fn same_by_sampling(
    a: &Clip,
    b: &Clip,
    rename: impl Fn(&str) -> String,
    tolerance: impl Fn(&str) -> f64,
) {
    for ta in &a.tracks {
        let name = rename(&ta.name);
        let Some(tb) = b.tracks.iter().find(|t| t.name == name) else {
            panic!(
                "no track {name} in {:?}",
                b.tracks.iter().map(|t| &t.name).collect::<Vec<_>>()
            );
        };
        let tol = tolerance(&ta.name);
        let (mut sa, mut sb) = (Sampler::new(ta), Sampler::new(tb));
        let (mut va, mut vb) = (vec![0.0; ta.value_size()], vec![0.0; tb.value_size()]);
        for i in 0..=240 {
            let t = i as f64 / 100.0;
            sa.evaluate_f64(t, &mut va);
            sb.evaluate_f64(t, &mut vb);
            let mut wb = vb.clone();
            if ta.kind == TrackKind::Quaternion && ta.interpolation == Interpolation::Bezier {
                // glTF normalizes a CUBICSPLINE rotation; compare directions.
                let n = wb.iter().map(|x| x * x).sum::<f64>().sqrt();
                wb.iter_mut().for_each(|x| *x /= n);
            }
            for (x, y) in va.iter().zip(&wb) {
                assert!((x - y).abs() <= tol, "{} at {t}: {va:?} vs {wb:?}", ta.name);
            }
        }
    }
}

#[test]
fn every_interpolation_through_gltf() {
    let clip = all_interpolations();
    let doc = Document::new(Format::Gltf, vec![clip.clone()]);
    assert_eq!(check_writable(&doc), Ok(()));
    let notes = conversion_losses(&doc, Format::Gltf);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("'smooth.position': its smooth interpolation")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("'off.position': its exact curve (the bezier handles of key 1")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("a mesh for node 'face'")),
        "{notes:?}"
    );
    for format in [Format::Gltf, Format::Glb] {
        let (bytes, back) = through(&doc, format);
        let json = json_of(&bytes);
        let interpolations: Vec<&str> = json["animations"][0]["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["interpolation"].as_str().unwrap())
            .collect();
        assert_eq!(
            interpolations,
            [
                "LINEAR",
                "STEP",
                "CUBICSPLINE",
                "CUBICSPLINE",
                "CUBICSPLINE",
                "LINEAR",
                "STEP",
                "LINEAR"
            ]
        );
        let got = &back.clips[0];
        assert_eq!(got.name, "all");
        assert_eq!(
            got.tracks
                .iter()
                .find(|t| t.name == "thirds.position")
                .unwrap()
                .interpolation,
            Interpolation::Bezier
        );
        same_by_sampling(
            &clip,
            got,
            |n| n.to_string(),
            |n| match n {
                "off.position" => 0.05,
                "smooth.position" | "thirds.position" => 1e-5,
                _ => 1e-6,
            },
        );
        // The placeholder mesh carries the morph target names.
        let mesh = back.mesh.as_ref().unwrap();
        assert_eq!(mesh.name, "face");
        assert_eq!(mesh.target_names(), ["smile", "1"]);
    }
}

#[test]
fn cubic_spline_keys_convert_exactly_both_ways() {
    // Three CUBICSPLINE keys of a translation: in-tangent, value, out-tangent each.
    let output: [[f32; 3]; 9] = [
        [9.0, 9.0, 9.0],
        [0.0, 0.0, 0.0],
        [3.0, 0.0, -1.0],
        [1.0, 2.0, 0.0],
        [1.0, 1.0, 1.0],
        [-2.0, 0.5, 4.0],
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 1.0],
        [7.0, 7.0, 7.0],
    ];
    let times = [0.0f32, 0.6, 2.0];
    let mut bytes: Vec<u8> = times.iter().flat_map(|t| t.to_le_bytes()).collect();
    bytes.extend(output.iter().flatten().flat_map(|v| v.to_le_bytes()));
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{{"name":"n"}}],
          "animations":[{{"channels":[{{"sampler":0,"target":{{"node":0,"path":"translation"}}}}],
            "samplers":[{{"input":0,"output":1,"interpolation":"CUBICSPLINE"}}]}}],
          "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR"}},
                       {{"bufferView":0,"byteOffset":12,"componentType":5126,"count":9,"type":"VEC3"}}],
          "bufferViews":[{{"buffer":0,"byteLength":{len}}}],
          "buffers":[{{"byteLength":{len},"uri":"data:;base64,{uri}"}}]}}"#,
        len = bytes.len(),
        uri = base64_encode(&bytes),
    );
    let doc = read_bytes(text.as_bytes(), Path::new("c.gltf")).unwrap();
    let track = &doc.clips[0].tracks[0];
    assert_eq!(track.interpolation, Interpolation::Bezier);
    assert_eq!(nums(track), [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 0.0, 1.0]);
    // The Hermite curve of glTF Appendix C, against the bezier sampler.
    let hermite = |t: f64, c: usize| {
        let (k, t0, t1) = if t < 0.6 {
            (0, 0.0, 0.6f32 as f64)
        } else {
            (1, 0.6f32 as f64, 2.0)
        };
        let dt = t1 - t0;
        let s = (t - t0) / dt;
        let v0 = output[k * 3 + 1][c] as f64;
        let b0 = output[k * 3 + 2][c] as f64;
        let v1 = output[k * 3 + 4][c] as f64;
        let a1 = output[k * 3 + 3][c] as f64;
        (2.0 * s.powi(3) - 3.0 * s * s + 1.0) * v0
            + dt * (s.powi(3) - 2.0 * s * s + s) * b0
            + (-2.0 * s.powi(3) + 3.0 * s * s) * v1
            + dt * (s.powi(3) - s * s) * a1
    };
    for i in 0..=200 {
        let t = i as f64 * 0.01;
        let got = at(track, t);
        for (c, g) in got.iter().enumerate() {
            assert!((g - hermite(t, c)).abs() < 1e-6, "t = {t}, c = {c}");
        }
    }
    // Written back (edited, so the animation is rebuilt): the same tangents.
    let mut edited = doc.clone();
    edited.clips[0].name = "renamed".into();
    let (bytes, back) = through(&edited, Format::Glb);
    assert_eq!(back.clips[0].tracks[0].values, track.values);
    let json = json_of(&bytes);
    assert_eq!(
        json["animations"][0]["samplers"][0]["interpolation"],
        "CUBICSPLINE"
    );
    for i in 0..=20 {
        let t = i as f64 * 0.1;
        let (x, y) = (at(track, t), at(&back.clips[0].tracks[0], t));
        for (a, b) in x.iter().zip(&y) {
            assert!((a - b).abs() < 1e-5, "t = {t}");
        }
    }
}

/// Standard base64, for building test files.
fn base64_encode(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The demo walk, through GLB and back to three.js: every track it can hold samples the same.
#[test]
fn threejs_to_glb_to_threejs_by_sampling() {
    let walk = read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap();
    assert_eq!(
        check_writable(&walk.clone().converted_to(Format::Glb)),
        Ok(())
    );
    let lost = conversion_losses(&walk, Format::Glb);
    assert!(
        lost.iter()
            .any(|l| l.contains("'.visible': glTF cannot animate 'visible'")),
        "{lost:?}"
    );
    let (_, glb) = through(&walk, Format::Glb);
    let json = write_bytes(&glb.clone().converted_to(Format::ThreeJs), &compact());
    let back = read_bytes(&json, Path::new("back.json")).unwrap();
    assert_eq!(back.format, Format::ThreeJs);
    assert_eq!(back.clips.len(), 2);
    let rename = |name: &str| {
        let mut n = name.to_string();
        if let Some(rest) = n.strip_prefix(".bones[") {
            let (bone, prop) = rest.split_once(']').unwrap();
            n = format!("{}{prop}", bone.replace('.', ""));
        } else if n.starts_with(".morph") {
            n = format!("root{n}");
        }
        n
    };
    for (a, b) in walk.clips.iter().zip(&back.clips) {
        assert_eq!(a.name, b.name);
        let mut a = a.clone();
        a.tracks
            .retain(|t| t.name != ".visible" && !t.name.contains("blink"));
        // Rotation keys are written normalized (idle's head keys are 5e-5 off unit length).
        same_by_sampling(&a, b, rename, |n| {
            if n.ends_with("quaternion") {
                1e-4
            } else {
                1e-5
            }
        });
    }
    // The blink's bezier handles sit near, not at, the thirds (0.1333 for 0.4 / 3): it is
    // written as Hermite keys fitted to the curve, which read back as bezier and play it.
    let blink = walk.clips[0]
        .tracks
        .iter()
        .find(|t| t.name.contains("blink"))
        .unwrap();
    let baked = back.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == "root.morphTargetInfluences[blink]")
        .unwrap();
    assert_eq!(baked.interpolation, Interpolation::Bezier);
    assert!(baked.times.len() < 31, "{}", baked.times.len());
    for f in 0..=300 {
        let t = (f as f64 / 300.0) as f32 as f64;
        assert!((at(blink, t)[0] - at(baked, t)[0]).abs() < 2e-5, "at {t}");
    }
}

#[test]
fn legacy_skeleton_and_morph_models_to_glb() {
    if sample_data("gltf").is_none() {
        return;
    }
    let skinned = read_file(&sample_data_root().join("threejs/simple-skinned.json")).unwrap();
    let (_, glb) = through(&skinned, Format::Glb);
    let names: Vec<&str> = glb.clips[0]
        .tracks
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names[..3],
        ["legR.position", "legR.quaternion", "legR.scale"]
    );
    let bones = &glb.skeleton.as_ref().unwrap().bones;
    assert_eq!(bones[0].name, "legR");
    assert_eq!(
        bones[0].position,
        skinned.skeleton.as_ref().unwrap().bones[0].position
    );
    let horse = read_file(&sample_data_root().join("threejs/horse.json")).unwrap();
    let (_, glb) = through(&horse, Format::Glb);
    let mesh = glb.mesh.as_ref().unwrap();
    let want = horse.mesh.as_ref().unwrap();
    assert_eq!(mesh.target_names(), want.target_names());
    assert_eq!(mesh.triangles, want.triangles);
    assert_eq!(mesh.vertices, want.vertices);
    for (a, b) in mesh.targets.iter().zip(&want.targets) {
        for (p, q) in a.vertices.iter().zip(&b.vertices) {
            for k in 0..3 {
                assert!((p[k] - q[k]).abs() <= 1e-4 * q[k].abs().max(1.0));
            }
        }
    }
    assert_eq!(
        glb.clips[0].tracks[0].name,
        "horse.morphTargetInfluences[horse_A_001]"
    );
}

#[test]
fn data_problems_are_refused() {
    let bad = |track: Track| {
        let doc = Document::new(Format::Glb, vec![Clip::new("c", -1.0, vec![track])]);
        let e = check_writable(&doc).unwrap_err();
        let path = tempfile::tempdir().unwrap().path().join("x.glb");
        assert!(formats::write_file(&doc, &path, &compact()).is_err());
        e
    };
    let e = bad(Track::numeric(
        "a.position",
        TrackKind::Vector,
        vec![1.0, 0.5],
        vec![0.0; 6],
    ));
    assert!(
        e.reason
            .contains("clip 'c' track 'a.position': key 1 at time 0.5"),
        "{e}"
    );
    let e = bad(Track::numeric(
        "a.position",
        TrackKind::Vector,
        vec![0.0],
        vec![0.0, f32::NAN, 0.0],
    ));
    assert!(e.reason.contains("not finite"), "{e}");
    let e = bad(Track::numeric(
        "a.quaternion",
        TrackKind::Quaternion,
        vec![0.0],
        vec![0.0; 4],
    ));
    assert!(e.reason.contains("zero quaternion"), "{e}");
    let two = Clip::new(
        "c",
        -1.0,
        vec![
            Track::numeric("a.position", TrackKind::Vector, vec![0.0], vec![0.0; 3]),
            Track::numeric(
                ".bones[a].position",
                TrackKind::Vector,
                vec![0.0],
                vec![0.0; 3],
            ),
        ],
    );
    let e = check_writable(&Document::new(Format::Gltf, vec![two])).unwrap_err();
    assert!(
        e.reason
            .contains("a second track for the translation of node 'a'"),
        "{e}"
    );
    // Properties glTF has no channel for are left out and reported, not refused.
    let visible = Track::new(
        ".visible",
        TrackKind::Bool,
        vec![0.0],
        Values::Bools(vec![true]),
    );
    let doc = Document::new(
        Format::Gltf,
        vec![Clip::new(
            "c",
            -1.0,
            vec![
                visible,
                Track::numeric("a.scale", TrackKind::Vector, vec![0.0], vec![1.0; 3]),
            ],
        )],
    );
    assert_eq!(check_writable(&doc), Ok(()));
    let (_, back) = through(&doc, Format::Gltf);
    assert_eq!(back.clips[0].tracks.len(), 1);
    if sample_data("gltf").is_none() {
        return;
    }
    // A glTF file's node without a mesh cannot get weights.
    let mut box_doc = read("BoxAnimated.gltf");
    box_doc.clips[0].tracks.push(Track::numeric(
        "node_1.morphTargetInfluences[0]",
        TrackKind::Number,
        vec![0.0],
        vec![1.0],
    ));
    let e = check_writable(&box_doc).unwrap_err();
    assert!(
        e.reason
            .contains("node 'node_1' has no mesh with morph targets"),
        "{e}"
    );
}

#[test]
fn negative_times_are_cut_and_flat_vectors_padded() {
    // Keys before 0 (a Lottie precomp starting early): an exact sample at 0, the rest dropped.
    let early = Track::numeric(
        "a.position",
        TrackKind::Vector,
        vec![-1.0, 1.0],
        vec![0.0, 0.0, 0.0, 2.0, 4.0, 6.0],
    );
    let flat = Track::numeric(
        "b.scale",
        TrackKind::Vector,
        vec![0.0, 1.0],
        vec![1.0, 2.0, 3.0, 4.0],
    );
    let doc = Document::new(Format::Gltf, vec![Clip::new("c", -1.0, vec![early, flat])]);
    assert_eq!(check_writable(&doc), Ok(()));
    let lost = conversion_losses(&doc, Format::Gltf);
    assert!(
        lost.iter()
            .any(|l| l.starts_with("the keys before time 0 of 1 track(s) (a.position)")),
        "{lost:?}"
    );
    assert!(
        lost.iter()
            .any(|l| l.starts_with("2-component values of 1 position/scale track(s) (b.scale)")),
        "{lost:?}"
    );
    let (_, back) = through(&doc, Format::Gltf);
    let a = back.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == "a.position")
        .unwrap();
    assert_eq!(a.times, [0.0, 1.0]);
    assert_eq!(
        a.values.as_numbers().unwrap(),
        [1.0, 2.0, 3.0, 2.0, 4.0, 6.0]
    );
    let b = back.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == "b.scale")
        .unwrap();
    assert_eq!(
        b.values.as_numbers().unwrap(),
        [1.0, 2.0, 1.0, 3.0, 4.0, 1.0]
    );
}

#[test]
fn gltf_to_threejs_reports_the_model() {
    if sample_data("gltf").is_none() {
        return;
    }
    let doc = read("SimpleSkin.gltf");
    let lost = conversion_losses(&doc, Format::ThreeJs);
    assert!(
        lost.iter().any(|l| l.contains(
            "the other top-level fields of the gltf file (scene, scenes, nodes, meshes, skins"
        )),
        "{lost:?}"
    );
    assert!(
        lost.iter().any(|l| l.contains("the skeleton (2 bones")),
        "{lost:?}"
    );
    assert!(conversion_losses(&doc, Format::Glb).is_empty());
}

fn clipscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

#[test]
fn convert_command_to_and_from_threejs() {
    let dir = tempfile::tempdir().unwrap();
    let walk = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let glb = dir.path().join("walk.glb");
    // The extension picks the format when --to is not given.
    let o = clipscope(&["convert", walk, "-o", glb.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("(threejs → glb)"), "{out}");
    assert!(
        out.contains("not written: clip 'walk' track '.visible'"),
        "{out}"
    );
    assert!(std::fs::read(&glb).unwrap().starts_with(b"glTF"));
    let back = dir.path().join("back.json");
    let o = clipscope(&[
        "convert",
        glb.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
        "--to",
        "threejs",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("(glb → threejs)"), "{out}");
    assert_eq!(read_file(&back).unwrap().clips.len(), 2);
    if sample_data("gltf").is_none() {
        return;
    }
    // glTF to glTF keeps the file; `info` and `sample` read glTF.
    let gltf = dir.path().join("morph.gltf");
    let o = clipscope(&[
        "convert",
        data("SimpleMorph.gltf").to_str().unwrap(),
        "-o",
        gltf.to_str().unwrap(),
        "--to",
        "gltf",
    ]);
    assert!(o.status.success());
    let o = clipscope(&["sample", gltf.to_str().unwrap(), "--times", "1.5"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("node_0.morphTargetInfluences[0]"), "{out}");
    // A refused URI is a one-line error naming the buffer.
    let bad = dir.path().join("bad.gltf");
    std::fs::write(
        &bad,
        r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":1,"uri":"../secret.bin"}]}"#,
    )
    .unwrap();
    let o = clipscope(&["info", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("buffers[0].uri: refused \"../secret.bin\""),
        "{err}"
    );
}

/// Runs the Khronos glTF-Validator over exports of the shared files, the demo walk and a clip
/// with every interpolation: no errors, no warnings (besides the ones SimpleSkin's own mesh
/// data carries into its write-back), infos listed.
#[test]
fn khronos_validator_accepts_every_export() {
    if sample_data("gltf").is_none() {
        return;
    }
    let Some(conformance) = crate::common::node_package("gltf-validator") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut save = |name: String, doc: &Document| {
        let path = dir.path().join(name);
        formats::write_file(doc, &path, &compact())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        files.push(path);
    };
    let mut sources: Vec<(String, Document)> = Vec::new();
    for name in [
        "AnimatedTriangle",
        "BoxAnimated",
        "SimpleMorph",
        "SimpleSkin",
    ] {
        let doc = read(&format!("{name}.gltf"));
        let mut edited = doc.clone();
        for clip in &mut edited.clips {
            clip.name.push_str("_edited");
        }
        let fresh = Document::new(Format::Gltf, doc.clips.clone());
        sources.push((name.to_string(), doc));
        sources.push((format!("{name}-edited"), edited));
        sources.push((format!("{name}-fresh"), fresh));
    }
    // A file whose sampler data breaks glTF's rules, written unedited: re-encoded clean.
    let strided = strided_simple_skin().to_string();
    sources.push((
        "SimpleSkin-strided".into(),
        read_bytes(strided.as_bytes(), Path::new("strided.gltf")).unwrap(),
    ));
    let walk = read_file(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/walk.json"
    )))
    .unwrap();
    sources.push(("walk".into(), walk));
    sources.push((
        "all".into(),
        Document::new(Format::Gltf, vec![all_interpolations()]),
    ));
    for (name, doc) in &sources {
        save(
            format!("{name}.gltf"),
            &doc.clone().converted_to(Format::Gltf),
        );
        save(
            format!("{name}.glb"),
            &doc.clone().converted_to(Format::Glb),
        );
    }
    let mut inherited = vec![data("SimpleSkin.gltf")];
    inherited.extend(files.iter().cloned());
    let output = Command::new("node")
        .arg(conformance.join("validate_gltf.mjs"))
        .args(&inherited)
        .output()
        .expect("run node");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reports: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    // The warnings SimpleSkin.gltf itself has (zero-weight joints in its mesh data).
    let skin_warnings: Vec<Value> = reports[0]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["severity"] == 1)
        .map(|m| json!([m["code"], m["pointer"]]))
        .collect();
    assert_eq!(skin_warnings.len(), 2, "{:?}", reports[0]);
    let mut checked = 0;
    for report in &reports[1..] {
        let file = report["file"].as_str().unwrap();
        let messages = report["messages"].as_array().unwrap();
        for m in messages
            .iter()
            .filter(|m| m["severity"].as_u64() >= Some(2))
        {
            println!(
                "{file}: info {} at {}: {}",
                m["code"], m["pointer"], m["message"]
            );
        }
        assert_eq!(report["numErrors"], 0, "{file}: {messages:#?}");
        let warnings: Vec<Value> = messages
            .iter()
            .filter(|m| m["severity"] == 1)
            .map(|m| json!([m["code"], m["pointer"]]))
            .collect();
        let keeps_skin_mesh = file.contains("SimpleSkin") && !file.contains("-fresh");
        if keeps_skin_mesh {
            assert_eq!(warnings, skin_warnings, "{file}: {messages:#?}");
        } else {
            assert!(warnings.is_empty(), "{file}: {messages:#?}");
        }
        checked += 1;
    }
    assert_eq!(checked, sources.len() * 2);
    println!("glTF-Validator: {checked} exports, 0 errors, 0 warnings of their own");
}

/// SimpleSkin.gltf with its sampler accessors moved into buffer views with a `byteStride`
/// (keys 16 bytes apart, the data unchanged): a real file with the layout three.js r187 hangs
/// on, which the glTF-Validator reports.
fn strided_simple_skin() -> Value {
    let mut g: Value =
        serde_json::from_slice(&std::fs::read(data("SimpleSkin.gltf")).unwrap()).unwrap();
    let view = g["bufferViews"][4].clone();
    assert_eq!(view["byteOffset"], 0);
    let uri = g["buffers"][view["buffer"].as_u64().unwrap() as usize]["uri"]
        .as_str()
        .unwrap()
        .to_string();
    let b64 = uri.split(',').nth(1).unwrap();
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    // Accessor 5: 12 times at byte 0; accessor 6: 12 rotations at byte 48.
    let mut strided = Vec::new();
    for k in 0..12 {
        strided.extend_from_slice(&bytes[k * 4..k * 4 + 4]);
        strided.extend_from_slice(&[0u8; 12]);
    }
    strided.extend_from_slice(&bytes[48..48 + 12 * 16]);
    let encoded = base64::engine::general_purpose::STANDARD.encode(&strided);
    let buffers = g["buffers"].as_array_mut().unwrap();
    buffers.push(json!({"byteLength": strided.len(),
        "uri": format!("data:application/octet-stream;base64,{encoded}")}));
    let b = buffers.len() - 1;
    let views = g["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": b, "byteOffset": 0, "byteLength": 12 * 16, "byteStride": 16}));
    views
        .push(json!({"buffer": b, "byteOffset": 12 * 16, "byteLength": 12 * 16, "byteStride": 16}));
    let (vi, vo) = (views.len() - 2, views.len() - 1);
    g["accessors"][5]["bufferView"] = json!(vi);
    g["accessors"][5]["byteOffset"] = json!(0);
    g["accessors"][6]["bufferView"] = json!(vo);
    g["accessors"][6]["byteOffset"] = json!(0);
    g
}

#[test]
fn strided_sampler_data_is_read_and_written_re_encoded_even_unedited() {
    if sample_data("gltf").is_none() {
        return;
    }
    let original = read("SimpleSkin.gltf");
    let text = strided_simple_skin().to_string();
    let linted = formats::lint_bytes(
        text.as_bytes(),
        Path::new("strided.gltf"),
        &Default::default(),
    );
    let codes: Vec<&str> = linted.problems.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(
        codes,
        ["gltf-sampler-byte-stride", "gltf-sampler-byte-stride"],
        "{:?}",
        linted.problems
    );
    let doc = read_bytes(text.as_bytes(), Path::new("strided.gltf")).unwrap();
    assert_eq!(
        doc.clips, original.clips,
        "clipscope reads strided keys correctly"
    );
    let losses = conversion_losses(&doc, Format::Glb);
    assert!(
        losses
            .iter()
            .any(|l| l.contains("gltf-sampler-byte-stride")),
        "{losses:?}"
    );
    for format in [Format::Glb, Format::Gltf] {
        let (bytes, back) = through(&doc, format);
        // The same keys (rotations normalized, as glTF writes them).
        let (a, b) = (&back.clips[0].tracks[0], &original.clips[0].tracks[0]);
        assert_eq!((&a.name, &a.times), (&b.name, &b.times), "{format}");
        let (a, b) = (nums(a), nums(b));
        assert!(
            a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3),
            "{format}: {a:?}"
        );
        let json = json_of(&bytes);
        let animation = &json["animations"][0];
        for s in animation["samplers"].as_array().unwrap() {
            for key in ["input", "output"] {
                let a = &json["accessors"][s[key].as_u64().unwrap() as usize];
                let v = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
                assert!(v.get("byteStride").is_none(), "{format}: {v}");
            }
        }
        let name = if format == Format::Glb {
            "x.glb"
        } else {
            "x.gltf"
        };
        let again = formats::lint_bytes(&bytes, Path::new(name), &Default::default());
        let errors: Vec<_> = again
            .problems
            .iter()
            .filter(|p| p.severity == clipscope_core::model::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{format}: {errors:?}");
    }
    // A clean file unchanged is still written as it was.
    let clean = std::fs::read(data("SimpleSkin.gltf")).unwrap();
    let doc = read_bytes(&clean, Path::new("SimpleSkin.gltf")).unwrap();
    assert!(conversion_losses(&doc, Format::Gltf).is_empty());
    let written = json_of(&write_bytes(&doc, &compact()));
    let source: Value = serde_json::from_slice(&clean).unwrap();
    assert_eq!(written["accessors"], source["accessors"]);
    assert_eq!(written["animations"], source["animations"]);
}

#[test]
fn pointer_tracks_are_written_as_pointer_channels() {
    let times = vec![0.0, 1.0];
    let colour = Track::numeric(
        "/materials/0/emissiveFactor",
        TrackKind::Vector,
        times.clone(),
        vec![0.0, 0.0, 0.0, 1.0, 0.5, 0.25],
    );
    let cutoff = Track::numeric(
        "/materials/0/alphaCutoff",
        TrackKind::Number,
        times.clone(),
        vec![0.25, 0.75],
    );
    let moved = Track::numeric(
        "lamp.position",
        TrackKind::Vector,
        times,
        vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
    );
    let doc = Document::new(
        Format::Gltf,
        vec![Clip::new("glow", 1.0, vec![colour, cutoff, moved])],
    );
    check_writable(&doc).unwrap();
    let notes = conversion_losses(&doc, Format::Gltf);
    assert!(
        notes.iter().any(|n| n.contains("/materials/0/emissiveFactor is written as a KHR_animation_pointer channel, but the file written has no such object")),
        "{notes:?}"
    );
    for format in [Format::Gltf, Format::Glb] {
        let (bytes, back) = through(&doc, format);
        let json = json_of(&bytes);
        assert_eq!(
            json["extensionsUsed"],
            json!(["KHR_animation_pointer"]),
            "{format}"
        );
        let channels = json["animations"][0]["channels"].as_array().unwrap();
        assert_eq!(
            channels[0]["target"],
            json!({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/materials/0/emissiveFactor"}}})
        );
        let names: Vec<&str> = back.clips[0]
            .tracks
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "/materials/0/emissiveFactor",
                "/materials/0/alphaCutoff",
                "lamp.position"
            ]
        );
        assert_eq!(back.clips[0].tracks[..2], doc.clips[0].tracks[..2]);
    }
    // The validator's own pointer case converts and reads back the same.
    let Some(valid) = sample_data("gltf-validator/KHR_animation_pointer/valid.gltf") else {
        return;
    };
    let source = read_file(&valid).unwrap();
    let names = |d: &Document| -> Vec<(String, usize)> {
        d.clips[0]
            .tracks
            .iter()
            .map(|t| (t.name.clone(), t.value_size()))
            .collect()
    };
    assert_eq!(names(&source).len(), 2);
    // Unchanged: written back as it was (its accessors hold implicit zeros).
    let (_, back) = through(&source, Format::Glb);
    assert_eq!(back.clips, source.clips);
    let fresh = Document::new(Format::Gltf, source.clips.clone());
    let (_, back) = through(&fresh, Format::Gltf);
    assert_eq!(names(&back), names(&source));
}

#[test]
fn structural_animation_errors_are_not_carried_forward() {
    // The validator's own cases, read and written unedited.
    let Some(root) = sample_data("gltf-validator/animation") else {
        return;
    };
    // An animated node with a matrix: written with translation, rotation and scale.
    let doc = read_file(&root.join("channel_node_matrix.gltf")).unwrap();
    let (bytes, _) = through(&doc, Format::Gltf);
    let json = json_of(&bytes);
    assert!(
        json["nodes"][0].get("matrix").is_none(),
        "{}",
        json["nodes"][0]
    );
    assert!(json["nodes"][0].get("scale").is_some());
    let linted = formats::lint_bytes(&bytes, Path::new("x.gltf"), &Default::default());
    assert!(
        !linted
            .problems
            .iter()
            .any(|p| p.code == "gltf-target-node-matrix"),
        "{:?}",
        linted.problems
    );
    // Two channels on one target: refused with what to fix, never written as they were.
    let doc = read_file(&root.join("channel_duplicate_targets.gltf")).unwrap();
    let e = check_writable(&doc).unwrap_err().to_string();
    assert!(e.contains("a second track for the scale of node"), "{e}");
}

#[test]
fn an_animated_node_s_matrix_is_written_as_finite_parts_or_refused() {
    let Some(root) = sample_data("gltf-validator/animation") else {
        return;
    };
    let file = root.join("channel_node_matrix.gltf");
    let text = std::fs::read_to_string(&file).unwrap();
    let with_matrix = |matrix: Value| {
        let mut json: Value = serde_json::from_str(&text).unwrap();
        json["nodes"][0]["matrix"] = matrix;
        let bytes = serde_json::to_vec(&json).unwrap();
        read_bytes(&bytes, &file).unwrap()
    };
    // Axes longer than f32 can square: decomposed in f64, every part finite and valid.
    let doc = with_matrix(json!([
        2e19, 2e19, 0, 0, -1e19, 1e19, 0, 0, 0, 0, 3, 0, 1, 2, 3, 1
    ]));
    let (bytes, _) = through(&doc, Format::Gltf);
    let node = &json_of(&bytes)["nodes"][0];
    assert!(node.get("matrix").is_none(), "{node}");
    for part in ["translation", "rotation", "scale"] {
        let finite = |v: &Value| v.as_f64().is_some_and(f64::is_finite);
        let values = node[part].as_array();
        assert!(
            values.is_some_and(|v| v.iter().all(finite)),
            "{part}: {node}"
        );
    }
    let scale = node["scale"][0].as_f64().unwrap();
    assert!((scale / (2e19 * 2f64.sqrt()) - 1.0).abs() < 1e-6, "{node}");
    let linted = formats::lint_bytes(&bytes, Path::new("x.gltf"), &Default::default());
    assert!(
        linted.doc.is_some() && linted.problems.is_empty(),
        "{:?}",
        linted.problems
    );
    // A scale past f32 (√2 × 3e38): refused in one line, no file with non-finite numbers.
    let doc = with_matrix(json!([
        3e38, 3e38, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1
    ]));
    let e = check_writable(&doc).unwrap_err().to_string();
    assert!(
        e.contains("node 0") && e.contains("does not decompose") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn a_long_glb_read_from_its_file_is_the_glb_read_from_its_bytes() {
    // Megabytes of keys, so the file is read with its BIN chunk apart (files of 4 MB on).
    let n = 300_000;
    let times: Vec<f32> = (0..n).map(|k| k as f32 / 30.0).collect();
    let values: Vec<f32> = (0..n)
        .flat_map(|k| {
            let a = k as f32 * 0.001;
            [0.0, a.sin(), 0.0, a.cos()]
        })
        .collect();
    let track = Track::numeric("hips.quaternion", TrackKind::Quaternion, times, values);
    let clip = Clip::new("take", -1.0, vec![track]);
    let doc = Document::new(Format::Glb, vec![clip]);
    let bytes = write_bytes(&doc, &compact());
    assert!(bytes.len() > 4 << 20, "{} bytes", bytes.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("take.glb");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = read_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let from_bytes = read_bytes(&bytes, &path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(from_file.format, Format::Glb);
    assert_eq!(from_file.clips, from_bytes.clips);
    // (glTF keeps no clip uuid.)
    assert_eq!(from_file.clips[0].tracks, doc.clips[0].tracks);
    // The buffer kept from the file writes back as the one copied from the bytes does.
    assert_eq!(
        write_bytes(&from_file, &compact()),
        write_bytes(&from_bytes, &compact())
    );
    // A BIN chunk that is not the file's last is read from the whole file, the same.
    let mut extra = bytes.clone();
    extra.extend_from_slice(&4u32.to_le_bytes());
    extra.extend_from_slice(b"XTRA");
    extra.extend_from_slice(&[0; 4]);
    let total = extra.len() as u32;
    extra[8..12].copy_from_slice(&total.to_le_bytes());
    std::fs::write(&path, &extra).unwrap();
    assert_eq!(read_file(&path).unwrap().clips, from_bytes.clips);
}
