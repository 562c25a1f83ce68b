//! Small glTF files: quantized animation samplers and `EXT_meshopt_compression`.
//!
//! Reading is exact: a compressed file reads the same numbers as its uncompressed fallback,
//! and normalized 16-bit outputs read as glTF defines them. Writing keeps the error small and
//! counted: `reduce --quantize --meshopt` outputs load in three.js r187 (GLTFLoader with its
//! MeshoptDecoder, `measure_error.mjs`) within the budget, and pass the Khronos glTF-Validator.
//! Broken compressed data is a one-line error at its JSON path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use clipscope_core::formats::{self, Document, Format, Packing, WriteOptions};
use clipscope_core::model::ops::reduce::Stored;
use clipscope_core::model::{Clip, Interpolation, Tangents, Track};
use serde_json::Value;

use crate::mocap;
use crate::reduce_players::{measure, reduce};

/// Writer options with `packing`.
fn packed(quantize: bool, meshopt: bool, fallback: bool) -> WriteOptions {
    WriteOptions {
        packing: Packing {
            quantize,
            meshopt,
            fallback,
            float_error: 0.0005,
            rotation_bits: 0,
            rotation_error: 0.0,
            time_error: 0.0,
        },
        ..WriteOptions::default()
    }
}

/// The JSON chunk and BIN chunk of a GLB file.
fn glb_parts(bytes: &[u8]) -> (Value, Vec<u8>) {
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_start = 20 + json_len + 8;
    (json, bytes[bin_start..].to_vec())
}

/// A GLB file of `json` and `bin`.
fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// The track of `read` named like `original`, checked to hold exactly what `stored` says the
/// file stores for it (times, values, tangents).
fn read_back_as_stored<'r>(read: &'r Clip, original: &Track, stored: &Stored) -> &'r Track {
    let mut expected = original.clone();
    stored.apply(&mut expected);
    let written = read
        .tracks
        .iter()
        .find(|t| t.name == original.name)
        .unwrap();
    assert_eq!(written.times, expected.times, "{}", original.name);
    assert_eq!(written.values, expected.values, "{}", original.name);
    assert_eq!(written.tangents, expected.tangents, "{}", original.name);
    written
}

/// The clips of `bytes` read as a GLB file.
fn clips(bytes: &[u8]) -> Vec<Clip> {
    formats::read_bytes(bytes, Path::new("packed.glb"))
        .unwrap()
        .clips
}

#[test]
fn compressed_files_read_exactly_what_their_fallback_holds() {
    let doc = mocap::document(4.0, 3, Format::Glb);
    let plain = formats::write_bytes(&doc, &WriteOptions::default());
    for quantize in [false, true] {
        let bytes = formats::write_bytes(&doc, &packed(quantize, true, true));
        let (json, bin) = glb_parts(&bytes);
        assert_eq!(json["extensionsUsed"][0], "EXT_meshopt_compression");
        assert!(
            json.get("extensionsRequired").is_none(),
            "a fallback needs no extension"
        );
        let compressed = clips(&bytes);
        // The same file with the extension taken off the views reads the fallback buffer.
        let mut fallback = json.clone();
        for view in fallback["bufferViews"].as_array_mut().unwrap() {
            if let Some(map) = view.as_object_mut() {
                map.remove("extensions");
            }
        }
        fallback.as_object_mut().unwrap().remove("extensionsUsed");
        assert_eq!(
            compressed,
            clips(&glb(&fallback, &bin)),
            "quantize {quantize}"
        );
        // Without the fallback the numbers are the same, and the extension is required.
        let required = formats::write_bytes(&doc, &packed(quantize, true, false));
        assert!(
            required.len() < plain.len(),
            "{} ≥ {}",
            required.len(),
            plain.len()
        );
        assert!(required.len() < bytes.len());
        let (json, _) = glb_parts(&required);
        assert_eq!(json["extensionsRequired"][0], "EXT_meshopt_compression");
        assert_eq!(clips(&required), compressed);
        // Written back without packing: a plain file with the same numbers.
        let back = formats::read_bytes(&required, Path::new("packed.glb")).unwrap();
        let rewritten = formats::write_bytes(&back, &WriteOptions::default());
        assert!(!String::from_utf8_lossy(&rewritten).contains("EXT_meshopt_compression"));
        assert_eq!(clips(&rewritten), compressed);
    }
}

#[test]
fn a_long_stream_is_compressed_in_two_views_that_read_back_as_one() {
    // 110 s of 22 joints: over half a megabyte of quaternion words, compressed as two views
    // (on two threads) that a reader decodes as it decodes one.
    let doc = mocap::document(110.0, 5, Format::Glb);
    let bytes = formats::write_bytes(&doc, &packed(true, true, true));
    let (json, bin) = glb_parts(&bytes);
    let quaternion_views = json["bufferViews"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["extensions"]["EXT_meshopt_compression"]["filter"] == "QUATERNION")
        .count();
    assert_eq!(quaternion_views, 2);
    let mut fallback = json.clone();
    for view in fallback["bufferViews"].as_array_mut().unwrap() {
        if let Some(map) = view.as_object_mut() {
            map.remove("extensions");
        }
    }
    fallback.as_object_mut().unwrap().remove("extensionsUsed");
    assert_eq!(clips(&bytes), clips(&glb(&fallback, &bin)));
    // A short take's quaternions stay in one view.
    let short = formats::write_bytes(
        &mocap::document(4.0, 5, Format::Glb),
        &packed(true, true, true),
    );
    let (json, _) = glb_parts(&short);
    let views = json["bufferViews"].as_array().unwrap();
    let quaternion =
        |v: &&Value| v["extensions"]["EXT_meshopt_compression"]["filter"] == "QUATERNION";
    assert_eq!(views.iter().filter(quaternion).count(), 1);
}

#[test]
fn quantized_rotations_read_as_normalized_shorts() {
    let doc = mocap::document(2.0, 5, Format::Glb);
    let bytes = formats::write_bytes(&doc, &packed(true, false, false));
    let (json, _) = glb_parts(&bytes);
    assert!(json.get("extensionsUsed").is_none());
    let read = clips(&bytes);
    let originals: HashMap<&str, &[f32]> = doc.clips[0]
        .tracks
        .iter()
        .map(|t| (t.name.as_str(), t.values.as_numbers().unwrap()))
        .collect();
    let mut rotations = 0;
    for track in &read[0].tracks {
        let values = track.values.as_numbers().unwrap();
        let want = originals[track.name.as_str()];
        if track.name.ends_with(".quaternion") {
            rotations += 1;
            for (&v, &w) in values.iter().zip(want) {
                // Exactly glTF's decoding of a normalized SHORT.
                let c = (w as f64 * 32767.0).round();
                assert_eq!(v, (c / 32767.0).max(-1.0) as f32, "{}", track.name);
            }
        } else {
            assert_eq!(values, want, "{} stays in floats", track.name);
        }
    }
    assert_eq!(rotations, mocap::JOINTS.len());
    let storage = formats::track_storage(&bytes);
    let hips = storage
        .iter()
        .find(|s| s.track == "Hips.quaternion")
        .unwrap();
    assert_eq!(hips.components, "i16 normalized");
    assert_eq!(hips.meshopt, None);
    // Every track has the take's key times, in one shared accessor of 61 floats.
    assert_eq!(hips.times.1, 61 * 4);
    assert!(storage.iter().all(|s| s.times == hips.times));
}

#[test]
fn rotation_bits_follow_each_node_s_reach_and_the_reducer_sees_what_the_file_holds() {
    let doc = mocap::document(4.0, 3, Format::Glb);
    let mut write = packed(true, true, false);
    write.packing.rotation_bits = 10;
    write.packing.rotation_error = 0.003;
    let bytes = formats::write_bytes(&doc, &write);
    let read = clips(&bytes);
    // What the reducer fits with: the same rounding, node by node.
    let stored =
        formats::packed_storage(Format::Glb, &write.packing, doc.skeleton.as_ref()).unwrap();
    let mut steps: HashMap<String, f64> = HashMap::new();
    for original in &doc.clips[0].tracks {
        let written = read_back_as_stored(&read[0], original, &stored);
        if original.name.ends_with(".quaternion") {
            // The coarsest rounding seen: the quaternion filter's step for the node's bits.
            let (a, b) = (
                original.values.as_numbers().unwrap(),
                written.values.as_numbers().unwrap(),
            );
            let off = a
                .iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs() as f64)
                .fold(0.0, f64::max);
            steps.insert(original.name.clone(), off);
        }
    }
    // The hips carry the whole body (about a metre): 10 bits for 3 mm. A hand carries its
    // 18 cm end bone: 7 bits, rounded about eight times coarser.
    assert!(
        steps["LeftHand.quaternion"] > 4.0 * steps["Hips.quaternion"],
        "{steps:?}"
    );
    // Without the skeleton the reducer would assume the packing's bits for every node.
    let flat = formats::packed_storage(Format::Glb, &write.packing, None).unwrap();
    let hand = doc.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == "LeftHand.quaternion")
        .unwrap();
    let (mut with, mut without) = (hand.clone(), hand.clone());
    stored.apply(&mut with);
    flat.apply(&mut without);
    assert_ne!(with.values, without.values);
}

#[test]
fn curves_read_back_from_a_packed_file_as_the_reducer_rounds_them() {
    // Every track as a CUBICSPLINE curve (tangents from neighbouring keys): the writer packs
    // in-tangents, values and out-tangents as one accessor, rotations through the
    // exponential filter at their nodes' bits; the reducer must see that rounding too.
    let mut doc = mocap::document(2.0, 9, Format::Glb);
    for track in &mut doc.clips[0].tracks {
        let n = track.times.len();
        let w = track.value_size();
        let values = track.values.as_numbers().unwrap().to_vec();
        let slopes: Vec<f32> = (0..n * w)
            .map(|i| {
                let (k, c) = (i / w, i % w);
                let (a, b) = (k.saturating_sub(1), (k + 1).min(n - 1));
                let dt = (track.times[b] - track.times[a]).max(1e-3);
                (values[b * w + c] - values[a * w + c]) / dt
            })
            .collect();
        track.tangents = Some(Tangents::from_hermite(
            &track.times,
            &values,
            &slopes,
            &slopes,
            w,
        ));
        track.interpolation = Interpolation::Bezier;
    }
    let mut write = packed(true, true, false);
    write.packing.rotation_bits = 10;
    write.packing.rotation_error = 0.01;
    write.packing.float_error = 1e-3;
    let bytes = formats::write_bytes(&doc, &write);
    let read = clips(&bytes);
    let stored =
        formats::packed_storage(Format::Glb, &write.packing, doc.skeleton.as_ref()).unwrap();
    let mut rounded = 0;
    for original in &doc.clips[0].tracks {
        let written = read_back_as_stored(&read[0], original, &stored);
        assert_eq!(
            written.interpolation,
            Interpolation::Bezier,
            "{}",
            original.name
        );
        rounded += usize::from(written.values != original.values);
    }
    assert!(rounded > 20, "the packing rounded {rounded} curves");
}

#[test]
fn accessors_that_share_a_view_are_packed_each_on_its_own() {
    // Like Khronos' AnimatedTriangle (and gltfpack's output): the key times and the rotations
    // in one buffer view, one after the other.
    let times = [0.0f32, 0.25, 0.5, 0.75, 1.0];
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let rotations = [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, half, half],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, half, -half],
        [0.0, 0.0, 0.0, 1.0f32],
    ];
    let mut bin: Vec<u8> = times.iter().flat_map(|t| t.to_le_bytes()).collect();
    bin.extend(rotations.iter().flatten().flat_map(|v| v.to_le_bytes()));
    let json = serde_json::json!({
        "asset": { "version": "2.0" },
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "spinner" }],
        "buffers": [{ "byteLength": bin.len() }],
        "bufferViews": [{ "buffer": 0, "byteLength": bin.len() }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 5, "type": "SCALAR",
              "min": [0.0], "max": [1.0] },
            { "bufferView": 0, "byteOffset": 20, "componentType": 5126, "count": 5,
              "type": "VEC4" }
        ],
        "animations": [{
            "samplers": [{ "input": 0, "output": 1 }],
            "channels": [{ "sampler": 0, "target": { "node": 0, "path": "rotation" } }]
        }]
    });
    let source = glb(&json, &bin);
    let doc = formats::read_bytes(&source, Path::new("shared.glb")).unwrap();
    let write = packed(true, true, false);
    let bytes = formats::write_bytes(&doc, &write);
    let (json, _) = glb_parts(&bytes);
    let accessors = json["accessors"].as_array().unwrap();
    let views = json["bufferViews"].as_array().unwrap();
    let view = |a: &Value| &views[a["bufferView"].as_u64().unwrap() as usize];
    // Both accessors compressed, the rotations as normalized shorts through the quaternion
    // filter, each in a view of its own kind.
    assert_eq!(accessors[1]["componentType"], 5122);
    assert_ne!(accessors[0]["bufferView"], accessors[1]["bufferView"]);
    for a in &accessors[..2] {
        assert!(
            view(a)["extensions"]["EXT_meshopt_compression"].is_object(),
            "{a} in {}",
            view(a)
        );
    }
    assert_eq!(
        view(&accessors[1])["extensions"]["EXT_meshopt_compression"]["filter"],
        "QUATERNION"
    );
    // And it reads back as the reducer's model of the packing says.
    let stored = formats::packed_storage(Format::Glb, &write.packing, None).unwrap();
    let mut expected = doc.clips[0].tracks[0].clone();
    stored.apply(&mut expected);
    assert_eq!(clips(&bytes)[0].tracks[0], expected);
}

#[test]
fn data_a_mesh_or_skin_also_reads_is_copied_for_the_sampler_and_left_as_it_was() {
    // The sampler's key times are also a mesh attribute, and its rotations share a view with
    // the skin's inverse bind matrices (a fuzz regression, written by hand).
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions/packed/shared-with-mesh-and-skin.gltf");
    let doc = formats::read_file(&path).unwrap();
    let write = packed(true, true, false);
    let mut doc = doc;
    doc.format = Format::Glb;
    let bytes = formats::write_bytes(&doc, &write);
    let (json, bin) = glb_parts(&bytes);
    let accessors = json["accessors"].as_array().unwrap();
    let views = json["bufferViews"].as_array().unwrap();
    let floats = |a: &Value| -> Vec<f32> {
        let view = &views[a["bufferView"].as_u64().unwrap() as usize];
        assert!(view.get("extensions").is_none(), "{view}");
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let n = a["count"].as_u64().unwrap() as usize
            * match a["type"].as_str().unwrap() {
                "SCALAR" => 1,
                "MAT4" => 16,
                _ => unreachable!(),
            };
        bin[start..start + 4 * n]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    let mesh_times = json["meshes"][0]["primitives"][0]["attributes"]["_KEY_TIMES"].clone();
    let input = json["animations"][0]["samplers"][0]["input"].clone();
    assert_ne!(mesh_times, input, "the sampler reads a copy");
    // What the mesh and the skin read is as it was.
    assert_eq!(
        floats(&accessors[mesh_times.as_u64().unwrap() as usize]),
        [0.0, 0.5, 1.0]
    );
    let ibm = &accessors[json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize];
    assert_eq!(floats(ibm)[13], -1.0);
    // The sampler's own data is packed.
    let output = &accessors[json["animations"][0]["samplers"][0]["output"]
        .as_u64()
        .unwrap() as usize];
    assert_eq!(output["componentType"], 5122);
    let view = &views[accessors[input.as_u64().unwrap() as usize]["bufferView"]
        .as_u64()
        .unwrap() as usize];
    assert!(
        view["extensions"]["EXT_meshopt_compression"].is_object(),
        "{view}"
    );
    // three.js (with its MeshoptDecoder) plays it as the original, skin and all, to the
    // rounding of 16-bit rotations.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("packed.glb");
    std::fs::write(&out, &bytes).unwrap();
    if let Some(measured) = measure(&path, &out, None) {
        let seen = measured["max"].as_f64().unwrap();
        assert!(seen < 1e-3, "{measured}");
    }
}

#[test]
fn packed_files_leave_out_gltf_defaults_and_long_decimals() {
    let doc = mocap::document(2.0, 5, Format::Glb);
    let plain = formats::write_bytes(&doc, &WriteOptions::default());
    let bytes = formats::write_bytes(&doc, &packed(true, true, false));
    let (json, _) = glb_parts(&bytes);
    let samplers = json["animations"][0]["samplers"].as_array().unwrap();
    assert!(samplers.iter().all(|s| s.get("interpolation").is_none()));
    // The hips stand 0.95 up: written as the shortest text of that float.
    let text = String::from_utf8_lossy(&bytes[20..]).to_string();
    assert!(
        text.contains("\"translation\":[0.0,0.95,0.0]"),
        "{}",
        &text[..400]
    );
    assert!(!text.contains("0.949999988079071"));
    // The unpacked file keeps writing what it did.
    let (plain_json, _) = glb_parts(&plain);
    assert_eq!(
        plain_json["animations"][0]["samplers"][0]["interpolation"],
        "LINEAR"
    );
    // Both read back as the same nodes, float for float.
    let (a, b) = (
        formats::read_bytes(&plain, Path::new("a.glb")).unwrap(),
        formats::read_bytes(&bytes, Path::new("b.glb")).unwrap(),
    );
    assert_eq!(a.skeleton, b.skeleton);
}

#[test]
fn broken_compressed_data_is_a_located_error() {
    let doc = mocap::document(1.0, 7, Format::Glb);
    let bytes = formats::write_bytes(&doc, &packed(true, true, false));
    let (json, mut bin) = glb_parts(&bytes);
    let view = json["bufferViews"]
        .as_array()
        .unwrap()
        .iter()
        .position(|v| v.pointer("/extensions/EXT_meshopt_compression").is_some())
        .unwrap();
    // Truncated: the compressed bytes run past the buffer.
    let mut truncated = json.clone();
    truncated["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]["byteLength"] =
        (bin.len() * 2).into();
    let err = formats::read_bytes(&glb(&truncated, &bin), Path::new("t.glb"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!(
            "bufferViews[{view}].extensions.EXT_meshopt_compression.byteLength"
        )),
        "{err}"
    );
    // An unknown mode, and garbage where the codec's data should be.
    let mut mode = json.clone();
    mode["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]["mode"] = "SPIRAL".into();
    let err = formats::read_bytes(&glb(&mode, &bin), Path::new("m.glb"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown mode \"SPIRAL\""), "{err}");
    bin.iter_mut().for_each(|b| *b = 0x5a);
    let err = formats::read_bytes(&glb(&json, &bin), Path::new("g.glb"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not decode"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

/// Runs the Khronos glTF-Validator on `files`; its reports (`None` without node).
fn validate(files: &[PathBuf]) -> Option<Vec<Value>> {
    let conformance = crate::common::node_package("gltf-validator")?;
    let output = Command::new("node")
        .arg(conformance.join("validate_gltf.mjs"))
        .args(files)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

#[test]
fn packed_reductions_play_in_three_js_within_the_budget_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("humanoid.glb");
    formats::write_file(
        &mocap::document(8.0, 11, Format::Glb),
        &input,
        &WriteOptions::default(),
    )
    .unwrap();
    let mut files = Vec::new();
    for (flags, name) in [
        (&["--quantize"][..], "q"),
        (&["--quantize", "--meshopt"][..], "qm"),
        (
            &["--quantize", "--meshopt", "--meshopt-fallback"][..],
            "qmf",
        ),
        (&["--meshopt"][..], "m"),
    ] {
        for budget in [0.01, 0.05] {
            let out = dir.path().join(format!("humanoid.{name}.{budget}.glb"));
            let report = reduce(&input, &out, budget, flags);
            let reported = report["max_error"].as_f64().unwrap();
            assert!(reported <= budget, "{name} {budget}: {report}");
            assert!(report["bytes"].as_u64() < report["bytes_before"].as_u64());
            let stored = &report["clips"][0]["tracks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == "Spine.quaternion")
                .unwrap()["stored"];
            assert!(stored["bytes"].as_u64().unwrap() > 0, "{stored}");
            if flags.contains(&"--quantize") {
                assert_eq!(stored["components"], "i16 normalized", "{stored}");
            }
            if flags.contains(&"--meshopt") {
                assert!(stored["meshopt"].is_string(), "{stored}");
            }
            files.push(out.clone());
            let Some(measured) = measure(&input, &out, Some(&report)) else {
                continue;
            };
            let seen = measured["seen"].as_f64().unwrap();
            eprintln!(
                "{name} at {budget}: {} → {} bytes, reported {reported}, three.js {seen}",
                report["bytes_before"], report["bytes"]
            );
            assert!(seen <= budget, "{name} at {budget}: three.js sees {seen}");
            assert!(
                (seen - reported).abs() <= 2e-5,
                "{name}: {reported} vs {seen}"
            );
        }
    }
    let Some(reports) = validate(&files) else {
        return;
    };
    for report in reports {
        let messages = &report["messages"];
        assert_eq!(report["numErrors"], 0, "{}: {messages:#}", report["file"]);
        assert_eq!(report["numWarnings"], 0, "{}: {messages:#}", report["file"]);
    }
}

#[test]
fn convert_packs_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("walk.glb");
    let doc: Document = mocap::document(2.0, 13, Format::Glb);
    formats::write_file(&doc, &input, &WriteOptions::default()).unwrap();
    let out = dir.path().join("walk.packed.glb");
    let result = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .args(["--quantize", "--meshopt"])
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.len() < std::fs::metadata(&input).unwrap().len() as usize);
    let (json, _) = glb_parts(&bytes);
    assert_eq!(json["extensionsRequired"][0], "EXT_meshopt_compression");
}

#[test]
fn gltfpack_outputs_read_within_their_quantization() {
    let Some(conformance) = crate::common::node_package("gltfpack") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("walk.glb");
    let doc = mocap::document(3.0, 17, Format::Glb);
    formats::write_file(&doc, &input, &WriteOptions::default()).unwrap();
    for flags in [&["-c"][..], &["-cc"][..], &["-af", "15", "-cc"][..]] {
        let out = dir.path().join(format!("gp{}.glb", flags.join("")));
        let status = Command::new("node")
            .arg(conformance.join("node_modules/gltfpack/cli.js"))
            .arg("-i")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .arg("-kn")
            .args(flags)
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        let read = formats::read_file(&out).unwrap();
        let linted = formats::lint_file(&out, &Default::default());
        let errors: Vec<_> = linted
            .problems
            .iter()
            .filter(|p| p.severity == clipscope_core::model::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{flags:?}: {errors:?}");
        let tracks: HashMap<&str, &[f32]> = read.clips[0]
            .tracks
            .iter()
            .map(|t| (t.name.as_str(), t.values.as_numbers().unwrap()))
            .collect();
        assert_eq!(tracks.len(), doc.clips[0].tracks.len(), "{flags:?}");
        if flags == ["-c"] {
            // Every key kept: the decoded numbers are the originals to the quantization.
            for t in &doc.clips[0].tracks {
                let got = tracks[t.name.as_str()];
                let want = t.values.as_numbers().unwrap();
                assert_eq!(got.len(), want.len(), "{}", t.name);
                let off = got
                    .iter()
                    .zip(want)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0f32, f32::max);
                assert!(off < 2e-3, "{flags:?} {}: {off}", t.name);
            }
        }
    }
}

#[test]
fn packed_files_validate_clean_in_clipscope() {
    let doc = mocap::document(2.0, 19, Format::Glb);
    for opts in [
        packed(true, false, false),
        packed(true, true, false),
        packed(false, true, true),
    ] {
        let bytes = formats::write_bytes(&doc, &opts);
        let linted = formats::lint_bytes(&bytes, Path::new("p.glb"), &Default::default());
        let errors: Vec<_> = linted
            .problems
            .iter()
            .filter(|p| p.severity == clipscope_core::model::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert!(linted.doc.is_some());
    }
}

#[test]
fn text_formats_get_fewer_digits_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let doc = mocap::document(8.0, 23, Format::Glb);
    let skeleton = dir.path().join("rig.glb");
    formats::write_file(&doc, &skeleton, &WriteOptions::default()).unwrap();
    let input = dir.path().join("walk.json");
    formats::write_file(
        &doc.clone().converted_to(Format::ThreeJs),
        &input,
        &WriteOptions::default(),
    )
    .unwrap();
    let skeleton = skeleton.display().to_string();
    for budget in [0.01, 0.05] {
        let out = dir.path().join(format!("walk.{budget}.json"));
        let rounded = reduce(&input, &out, budget, &["--skeleton", &skeleton]);
        let exact = reduce(
            &input,
            &dir.path().join("exact.json"),
            budget,
            &["--skeleton", &skeleton, "--precision", "9"],
        );
        assert!(
            rounded["max_error"].as_f64().unwrap() <= budget,
            "{rounded}"
        );
        assert!(
            rounded["bytes"].as_u64().unwrap() < exact["bytes"].as_u64().unwrap() * 3 / 4,
            "{} vs {}",
            rounded["bytes"],
            exact["bytes"]
        );
        // The rounding is in the file: no number has more decimals than the budget needs.
        let text = std::fs::read_to_string(&out).unwrap();
        let most = text
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|n| n.split_once('.').map(|(_, d)| d.len()))
            .max()
            .unwrap();
        assert!(most <= 4, "{most} decimals at {budget}");
    }
}
