//! Legacy three.js JSON (model format 3) against the shared corpus: the Blender-exported skinned
//! model, the ro.me morph-target animals, round trips in both key shapes, conversion to and from
//! three.js clip JSON, and the `convert` command. Expected values are read off the files by hand
//! (three.js r185+ no longer has `parseAnimation`, so there is no golden to run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::test_support::{sample_data, sample_data_root};
use clipscope_core::formats::{
    self, Document, Format, ReadOptions, WriteOptions, read_bytes, read_file, read_file_with,
    write_bytes,
};
use clipscope_core::model::TrackKind;
use serde_json::Value;
use serde_json::value::RawValue;

fn data(name: &str) -> PathBuf {
    sample_data_root().join("threejs").join(name)
}

fn read(name: &str) -> Document {
    read_file(&data(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn nums(doc: &Document, clip: usize, track: usize) -> &[f32] {
    doc.clips[clip].tracks[track].values.as_numbers().unwrap()
}

fn opts(pretty: bool, serialized: bool) -> WriteOptions {
    WriteOptions {
        precision: None,
        pretty,
        serialized,
        ..Default::default()
    }
}

fn error(text: &str) -> String {
    match read_bytes(text.as_bytes(), Path::new("bad.json")) {
        Ok(_) => panic!("read {text} without error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn simple_skinned_reads_like_parse_animation() {
    if sample_data("threejs").is_none() {
        return;
    }
    let doc = read("simple-skinned.json");
    assert_eq!(doc.format, Format::ThreeJsLegacy);
    assert!(doc.mesh.is_none(), "no morph targets: no mesh");
    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "ArmatureAction");
    // `animation.length` is a plain JS number: the file's 0.416667, not scaled by fps.
    assert_eq!(clip.duration, 0.416667);
    let summary: Vec<_> = clip
        .tracks
        .iter()
        .map(|t| (t.name.as_str(), t.kind, t.len()))
        .collect();
    assert_eq!(
        summary,
        [
            (".bones[leg.R].position", TrackKind::Vector, 11),
            (".bones[leg.R].quaternion", TrackKind::Quaternion, 11),
            (".bones[leg.R].scale", TrackKind::Vector, 11),
            (".bones[leg.L].position", TrackKind::Vector, 11),
            (".bones[leg.L].quaternion", TrackKind::Quaternion, 11),
            (".bones[leg.L].scale", TrackKind::Vector, 11),
        ]
    );
    let t = &clip.tracks[0].times;
    assert_eq!(t[0], 0.0);
    assert_eq!(t[1], 0.0416667f32);
    assert_eq!(t[10], 0.416667f32);
    // First keys of leg.R, last keys of leg.L, straight from the file.
    assert_eq!(nums(&doc, 0, 0)[..3], [-1.24994, 0.43791, 0.191651]);
    assert_eq!(
        nums(&doc, 0, 1)[..4],
        [-0.00643926, -0.522937, -0.852335, -0.0044168]
    );
    assert_eq!(nums(&doc, 0, 2)[..3], [1.0, 1.0, 1.0]);
    assert_eq!(nums(&doc, 0, 3)[30..], [2.49995, 0.280193, 0.066556]);
    assert_eq!(
        nums(&doc, 0, 4)[40..],
        [0.0033329, 0.881416, 0.472275, 0.00706144]
    );
    assert_eq!(
        nums(&doc, 0, 4)[20..24],
        [-0.00104832, -0.522977, -0.852295, -0.009288]
    );

    let skeleton = doc.skeleton.as_ref().unwrap();
    let bones: Vec<_> = skeleton
        .bones
        .iter()
        .map(|b| (b.name.as_str(), b.parent))
        .collect();
    assert_eq!(bones, [("leg.R", None), ("leg.L", None)]);
    assert_eq!(skeleton.bones[0].position, [-1.24994, 0.43791, 0.191651]);
    assert_eq!(
        skeleton.bones[1].rotation,
        [-0.00523507, -0.706875, -0.707296, -0.00579363]
    );
    assert_eq!(skeleton.bones[1].scale, [1.0; 3]);
}

#[test]
fn plain_and_serialized_round_trips_give_identical_clips() {
    if sample_data("threejs").is_none() {
        return;
    }
    let doc = read("simple-skinned.json");
    let original = std::fs::read(data("simple-skinned.json")).unwrap();
    for pretty in [false, true] {
        let plain = write_bytes(&doc, &opts(pretty, false));
        let back = read_bytes(&plain, Path::new("plain.json")).unwrap();
        assert_eq!(back.clips, doc.clips);
        assert_eq!(back.skeleton, doc.skeleton);

        let flat = write_bytes(&doc, &opts(pretty, true));
        let text = String::from_utf8(flat.clone()).unwrap();
        assert!(
            text.contains(r#""time": [0, 0.0416667"#) || text.contains(r#""time":[0,0.0416667"#)
        );
        let back = read_bytes(&flat, Path::new("flat.json")).unwrap();
        assert_eq!(back.clips, doc.clips);
        // Serialized back to plain: the same clips again.
        let plain_again = write_bytes(
            &back.clone().converted_to(Format::ThreeJs),
            &opts(false, false),
        );
        let as_clips = read_bytes(&plain_again, Path::new("c.json")).unwrap();
        assert_eq!(as_clips.clips[0].tracks, doc.clips[0].tracks);

        // Every top-level field but `animations` is copied byte for byte, in order.
        for out in [&plain, &flat] {
            let a: Vec<(String, &RawValue)> = fields(&original);
            let b: Vec<(String, &RawValue)> = fields(out);
            assert_eq!(
                a.iter().map(|(k, _)| k).collect::<Vec<_>>(),
                b.iter().map(|(k, _)| k).collect::<Vec<_>>()
            );
            for ((k, x), (_, y)) in a.iter().zip(&b) {
                if k != "animations" {
                    assert_eq!(x.get(), y.get(), "{k}");
                }
            }
        }
    }
}

/// The top-level fields of a JSON object, raw and in order.
fn fields(bytes: &[u8]) -> Vec<(String, &RawValue)> {
    let map: serde_json::Map<String, Value> = serde_json::from_slice(bytes).unwrap();
    let raw: std::collections::HashMap<String, &RawValue> = serde_json::from_slice(bytes).unwrap();
    map.keys().map(|k| (k.clone(), raw[k])).collect()
}

#[test]
fn horse_mesh_colours_and_morph_clip() {
    if sample_data("threejs").is_none() {
        return;
    }
    let doc = read("horse.json");
    assert_eq!(doc.format, Format::ThreeJsLegacy);
    assert!(doc.skeleton.is_none());
    let mesh = doc.mesh.as_ref().unwrap();
    assert_eq!(mesh.name, "horse");
    assert_eq!(mesh.vertices.len(), 494);
    assert_eq!(mesh.targets.len(), 16);
    // 984 triangle faces of type 10 (material + one layer of face-vertex UVs).
    assert_eq!(mesh.triangles.len(), 984);
    assert_eq!(mesh.triangles[0], [53, 51, 49]);
    // `scale: 10`: vertices are multiplied by 1 / 10, in doubles, then stored as f32.
    let v = |x: f64| (x * (1.0 / 10.0)) as f32;
    assert_eq!(mesh.vertices[0], [v(0.0), v(1389.0), v(54.0)]);
    assert_eq!(mesh.targets[0].vertices[0], mesh.vertices[0]);
    assert_eq!(mesh.targets[15].name, "horse_A_016");
    // One colour per face from morphColors[0].
    assert_eq!(mesh.triangle_colours.len(), 984);
    assert_eq!(mesh.triangle_colours[0], [0.65, 0.36, 0.22]);

    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "horse_A_");
    assert_eq!(clip.tracks.len(), 16);
    assert_eq!(clip.tracks[0].name, ".morphTargetInfluences[horse_A_001]");
    // 16 frames at 10 fps: f32(16 * 0.1).
    assert_eq!(clip.duration, 1.6f32 as f64);
    assert_eq!(clip.duration, 1.600000023841858);
    assert_eq!(mesh.target_index("horse_A_003"), Some(2));

    let opts = ReadOptions {
        morph_fps: 30.0,
        ..Default::default()
    };
    let doc = read_file_with(&data("horse.json"), &opts).unwrap();
    assert_eq!(
        doc.clips[0].duration,
        (16.0f64 * (1.0 / 30.0)) as f32 as f64
    );
}

#[test]
fn flamingo_parrot_and_stork_load() {
    if sample_data("threejs").is_none() {
        return;
    }
    for (name, vertices, targets, clip, triangles) in [
        ("flamingo.json", 273, 14, "flamingo_flyA_", 542),
        ("parrot.json", 315, 12, "parrot_A_", 626),
        ("stork.json", 273, 13, "storkFly_B_", 542),
    ] {
        let doc = read(name);
        let mesh = doc.mesh.as_ref().unwrap();
        assert_eq!(mesh.vertices.len(), vertices, "{name}");
        assert_eq!(mesh.targets.len(), targets, "{name}");
        assert_eq!(mesh.triangles.len(), triangles, "{name}");
        assert_eq!(mesh.triangle_colours.len(), triangles, "{name}");
        assert_eq!(doc.clips.len(), 1, "{name}");
        assert_eq!(doc.clips[0].name, clip, "{name}");
        assert_eq!(doc.clips[0].tracks.len(), targets, "{name}");
        assert_eq!(
            doc.clips[0].duration,
            (targets as f64 * 0.1) as f32 as f64,
            "{name}"
        );
    }
}

#[test]
fn every_legacy_file_writes_back_equal() {
    if sample_data("threejs").is_none() {
        return;
    }
    for name in [
        "simple-skinned.json",
        "horse.json",
        "flamingo.json",
        "parrot.json",
        "stork.json",
    ] {
        let doc = read(name);
        assert_eq!(formats::check_writable(&doc), Ok(()), "{name}");
        for (pretty, serialized) in [(false, false), (true, false), (false, true)] {
            let out = write_bytes(&doc, &opts(pretty, serialized));
            let back = read_bytes(&out, &data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(back.format, Format::ThreeJsLegacy, "{name}");
            assert_eq!(back.clips, doc.clips, "{name}");
            assert_eq!(back.skeleton, doc.skeleton, "{name}");
            assert_eq!(back.mesh, doc.mesh, "{name}");
        }
    }
    // Written to a file atomically, like every format.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("horse.json");
    let doc = read("horse.json");
    formats::write_file(&doc, &out, &WriteOptions::default()).unwrap();
    assert_eq!(read_file(&out).unwrap().mesh, doc.mesh);
}

#[test]
fn bad_input_errors_name_the_json_path() {
    let bones = r#""bones":[{"parent":-1,"name":"a"},{"parent":0,"name":"b"}]"#;
    let hierarchy = |entries: &str| {
        format!(r#"{{{bones},"animation":{{"name":"x","length":1,"hierarchy":[{entries}]}}}}"#)
    };
    let faces = |faces: &str| {
        format!(
            r#"{{"metadata":{{"formatVersion":3}},"vertices":[0,0,0,1,0,0,0,1,0],"faces":[{faces}],"morphTargets":[{{"name":"m_1","vertices":[0,0,0,1,0,0,0,1,0]}}]}}"#
        )
    };
    let key = r#"{"keys":[{"time":0,"pos":[0,0,0]}]}"#;
    let cases = [
        (
            hierarchy(&format!("{key},{key},{key},{key}")),
            "bad.json: animation.hierarchy[2]: no bone for hierarchy entry 2: the file has 2 bones",
        ),
        (
            hierarchy(
                r#"{"keys":[]},{"keys":[{"time":0,"rot":[0,0,0,1]},{"time":0.5,"rot":[0,0,0,1]},{"time":1,"rot":[0,0,true,1]}]}"#,
            ),
            "bad.json: animation.hierarchy[1].keys[2].rot[2]: a boolean is not a number",
        ),
        (
            faces("0,0,1,2, 0,2,1,3"),
            "bad.json: faces[7]: vertex index 3 is out of range (3 vertices)",
        ),
        (
            faces("0,0,1,2, 32,0,1,2,0,0"),
            "bad.json: faces[4]: truncated face: type 32 needs 6 more numbers, 5 left",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(error(&text), expected, "for {text}");
    }
}

#[test]
fn converting_between_threejs_and_legacy() {
    if sample_data("threejs").is_none() {
        return;
    }
    let doc = read("simple-skinned.json");
    let lost = formats::conversion_losses(&doc, Format::ThreeJs);
    assert_eq!(
        lost,
        [
            "the other top-level fields of the threejs-legacy file (metadata, scale, materials, vertices, morphTargets, normals, colors, uvs, faces, bones, skinIndices, skinWeights)",
            "the skeleton (2 bones; three.js clip JSON has no bone hierarchy)",
        ]
    );
    let clips = doc.clone().converted_to(Format::ThreeJs);
    let out = write_bytes(&clips, &WriteOptions::default());
    let back = read_bytes(&out, Path::new("clip.json")).unwrap();
    assert_eq!(back.format, Format::ThreeJs);
    assert_eq!(back.clips[0].tracks, doc.clips[0].tracks);
    assert_eq!(back.clips[0].duration, doc.clips[0].duration);

    // And back to legacy: bones come from the track names.
    let legacy = back.converted_to(Format::ThreeJsLegacy);
    assert_eq!(formats::check_writable(&legacy), Ok(()));
    let out = write_bytes(&legacy, &WriteOptions::default());
    let again = read_bytes(&out, Path::new("legacy.json")).unwrap();
    assert_eq!(again.format, Format::ThreeJsLegacy);
    assert_eq!(again.clips[0].tracks, doc.clips[0].tracks);
    let names: Vec<_> = again
        .skeleton
        .unwrap()
        .bones
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(names, ["leg.R", "leg.L"]);

    // Morph influence tracks have no place in legacy animations: left out and reported.
    let horse = read("horse.json").converted_to(Format::ThreeJs);
    let horse = read_bytes(
        &write_bytes(&horse, &WriteOptions::default()),
        Path::new("h.json"),
    )
    .unwrap();
    assert_eq!(
        formats::check_writable(&horse.clone().converted_to(Format::ThreeJsLegacy)),
        Ok(())
    );
    let lost = formats::conversion_losses(&horse, Format::ThreeJsLegacy);
    assert!(
        lost.iter().any(|l| l.starts_with(
            "16 track(s) left out: legacy three.js JSON animates bone position, quaternion and \
             scale only (.morphTargetInfluences[horse_A_001], "
        )),
        "{lost:?}"
    );
}

#[test]
fn node_tracks_become_bones_and_curves_are_baked() {
    let text = r#"{"name":"n","tracks":[
        {"name":"Hip.position","type":"vector","times":[0,1],"values":[0,0,0,1,2,3]},
        {"name":"Hip.quaternion","type":"quaternion","times":[0,1],"values":[0,0,0,1,0,0,0,1]},
        {"name":"Arm.scale","type":"vector","times":[0,1],"values":[1,1,1,2,2,2],"interpolation":2302},
        {"name":"Arm.visible","type":"bool","times":[0],"values":[true]}]}"#;
    let doc = read_bytes(text.as_bytes(), Path::new("n.json")).unwrap();
    let lost = formats::conversion_losses(&doc, Format::ThreeJsLegacy);
    assert!(
        lost.iter()
            .any(|l| l.starts_with("3 node track(s) written as bones")),
        "{lost:?}"
    );
    assert!(
        lost.iter()
            .any(|l| l.starts_with("1 track(s) left out:") && l.contains("Arm.visible")),
        "{lost:?}"
    );
    assert!(
        lost.iter().any(
            |l| l.contains("written as linear keys that play as the curve")
                && l.contains("'Arm.scale' (")
        ),
        "{lost:?}"
    );
    let legacy = doc.converted_to(Format::ThreeJsLegacy);
    assert_eq!(formats::check_writable(&legacy), Ok(()));
    let back = read_bytes(
        &write_bytes(&legacy, &WriteOptions::default()),
        Path::new("l.json"),
    )
    .unwrap();
    let names: Vec<&str> = back.clips[0]
        .tracks
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            ".bones[Hip].position",
            ".bones[Hip].quaternion",
            ".bones[Arm].scale"
        ]
    );
    let bones: Vec<_> = back
        .skeleton
        .unwrap()
        .bones
        .into_iter()
        .map(|b| (b.name, b.parent))
        .collect();
    assert_eq!(
        bones,
        [("Hip".to_string(), None), ("Arm".to_string(), None)]
    );
    // Smooth between two keys (no neighbours) is a straight line: no keys needed.
    assert_eq!(back.clips[0].tracks[2].len(), 2);

    // Broken times are still refused.
    let bad = r#"{"name":"b","tracks":[{"name":"Hip.position","type":"vector","times":[1,0],"values":[0,0,0,1,1,1]}]}"#;
    let doc = read_bytes(bad.as_bytes(), Path::new("b.json"))
        .unwrap()
        .converted_to(Format::ThreeJsLegacy);
    let e = formats::check_writable(&doc).unwrap_err();
    assert!(e.reason.contains("key times out of order"), "{e}");
}

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn cli_convert_to_threejs_and_to_serialized_legacy() {
    if sample_data("threejs").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = data("simple-skinned.json");
    let input = input.to_str().unwrap();

    let out = dir.path().join("clips.json");
    let o = clipscope(&[
        "convert",
        input,
        "-o",
        out.to_str().unwrap(),
        "--to",
        "threejs",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let size = std::fs::metadata(&out).unwrap().len() as usize;
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!(
            "convert: 1 clip(s), 66 keys; 5,714 → {} bytes (threejs-legacy → threejs); wrote ",
            clipscope_core::text::thousands(size)
        )),
        "{text}"
    );
    assert!(
        text.contains("convert: not written: the skeleton (2 bones;"),
        "{text}"
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["name"], "ArmatureAction");
    assert_eq!(v["tracks"][0]["name"], ".bones[leg.R].position");

    let flat = dir.path().join("flat.json");
    let o = clipscope(&[
        "convert",
        input,
        "-o",
        flat.to_str().unwrap(),
        "--to",
        "threejs-legacy",
        "--serialized",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains(" bytes (threejs-legacy); wrote "), "{text}");
    assert!(!text.contains("not written"), "{text}");
    let v: Value = serde_json::from_slice(&std::fs::read(&flat).unwrap()).unwrap();
    let key = &v["animations"][0]["hierarchy"][0]["keys"][0];
    assert_eq!(key["time"].as_array().unwrap().len(), 11);
    assert_eq!(key["pos"].as_array().unwrap().len(), 33);
    assert_eq!(key["rot"].as_array().unwrap().len(), 44);
    assert_eq!(v["bones"][1]["name"], "leg.L");
    assert_eq!(
        read_file(&flat).unwrap().clips,
        read("simple-skinned.json").clips
    );

    // From the three.js clip file back to legacy, indented.
    let back = dir.path().join("back.json");
    let o = clipscope(&[
        "convert",
        out.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
        "--to",
        "threejs-legacy",
        "--indent",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).contains("(threejs → threejs-legacy)"),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&back).unwrap();
    assert!(text.starts_with("{\n  \"metadata\": {"), "{text}");

    // Morph tracks cannot become legacy animations: exit 2 and no file.
    let horse_clips = dir.path().join("horse-clips.json");
    let o = clipscope(&[
        "convert",
        data("horse.json").to_str().unwrap(),
        "-o",
        horse_clips.to_str().unwrap(),
        "--to",
        "threejs",
    ]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains(
            "not written: the morph mesh (494 vertices, 984 triangles, 16 morph targets)"
        )
    );
    let bad = dir.path().join("bad.json");
    let o = clipscope(&[
        "convert",
        horse_clips.to_str().unwrap(),
        "-o",
        bad.to_str().unwrap(),
        "--to",
        "threejs-legacy",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).contains("convert: not written: 16 track(s) left out: legacy three.js JSON animates bone position, quaternion and scale only"),
        "{}",
        stdout(&o)
    );
    assert!(bad.exists());

    let o = clipscope(&["convert", input, "-o", bad.to_str().unwrap(), "--to", "fbx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("unknown format 'fbx' (expected threejs or threejs-legacy")
    );
}
