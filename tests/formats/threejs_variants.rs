//! Less common three.js JSON variants: io_three's object format 4.3 with morph animations in
//! the geometries (`geometries[i].data.animations: {"morphTargets[T]": [{time, value}]}`,
//! three.js's `examples/models/json/blend-animation.json`), and with clips on the objects they
//! move (`object.children[i].clips: [{name, fps, tracks: [{name, type, keys}]}]`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::test_support::{sample_data, sample_data_root};
use clipscope_core::formats::{Format, WriteOptions, read_bytes, read_file, write_bytes};
use clipscope_core::model::{Clip, TrackKind};

fn blend() -> PathBuf {
    sample_data_root().join("threejs/blend-animation.json")
}

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn value(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn blend_animation_reads_its_geometry_clip() {
    if sample_data("threejs").is_none() {
        return;
    }
    let doc = read_file(&blend()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::ThreeJs);
    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "test-objGeometry");
    assert_eq!(clip.uuid, None);
    assert_eq!(clip.tracks.len(), 1);
    let t = &clip.tracks[0];
    assert_eq!(t.name, ".morphTargetInfluences[T]");
    assert_eq!(t.kind, TrackKind::Number);
    assert_eq!(t.len(), 7);
    // Times as written (no fps in the file): 0, 10, 50, 95, 110, 140, 150.
    assert_eq!(t.times, [0.0, 10.0, 50.0, 95.0, 110.0, 140.0, 150.0]);
    assert_eq!(
        t.values.as_numbers().unwrap(),
        [0.0, 0.0, 0.5, 1.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(clip.duration, 150.0);

    let mesh = doc.mesh.as_ref().expect("morph mesh");
    assert_eq!(mesh.name, "test-obj");
    assert_eq!(mesh.vertices.len(), 36);
    assert_eq!(mesh.vertices[4], [-2.34599, -89.0885, -2.34599]);
    // 68 triangle faces (type 42: triangle, material, face-vertex UVs and normals).
    assert_eq!(mesh.triangles.len(), 68);
    assert_eq!(mesh.triangles[0], [0, 2, 3]);
    assert_eq!(mesh.targets.len(), 1);
    assert_eq!(mesh.targets[0].name, "T");
    assert_eq!(mesh.targets[0].vertices.len(), 36);
    assert_eq!(mesh.targets[0].vertices[4], [-2.34599, -60.3799, -2.34599]);
    assert_eq!(mesh.target_index("T"), Some(0));
}

#[test]
fn unedited_write_back_keeps_the_file() {
    if sample_data("threejs").is_none() {
        return;
    }
    let original = std::fs::read(blend()).unwrap();
    let doc = read_file(&blend()).unwrap();
    for opts in [
        WriteOptions::default(),
        WriteOptions {
            pretty: true,
            precision: None,
            serialized: false,
            ..Default::default()
        },
    ] {
        let out = write_bytes(&doc, &opts);
        // No top-level `animations` is added; the geometry keeps its own; values identical.
        assert_eq!(value(&out), value(&original));
        let back = read_bytes(&out, &blend()).unwrap();
        assert_eq!(back.clips, doc.clips);
        assert_eq!(back.mesh, doc.mesh);
    }
}

#[test]
fn edited_clips_move_to_a_top_level_animations_array() {
    if sample_data("threejs").is_none() {
        return;
    }
    let mut doc = read_file(&blend()).unwrap();
    let clip: &mut Clip = &mut doc.clips[0];
    clip.name = "grow".into();
    clip.tracks[0].values = clipscope_core::model::Values::Numbers(vec![0.0; 7]);
    let out = write_bytes(&doc, &WriteOptions::default());
    let v = value(&out);
    assert_eq!(v["animations"][0]["name"], "grow");
    assert_eq!(
        v["animations"][0]["tracks"][0]["name"],
        ".morphTargetInfluences[T]"
    );
    let data = &v["geometries"][0]["data"];
    assert!(data.get("animations").is_none(), "geometry animations left");
    assert_eq!(data["morphTargets"][0]["name"], "T");
    // Everything else is as in the file.
    let original = value(&std::fs::read(blend()).unwrap());
    for key in ["metadata", "materials", "object", "textures", "images"] {
        assert_eq!(v[key], original[key], "{key}");
    }
    let back = read_bytes(&out, Path::new("edited.json")).unwrap();
    assert_eq!(back.clips, doc.clips);
    assert_eq!(
        back.mesh, doc.mesh,
        "the mesh is still read from the geometries"
    );
    // Written again unedited, the new shape stays.
    assert_eq!(value(&write_bytes(&back, &WriteOptions::default())), v);
}

#[test]
fn bad_geometry_animations_name_the_json_path() {
    if sample_data("threejs").is_none() {
        return;
    }
    let original = String::from_utf8(std::fs::read(blend()).unwrap()).unwrap();
    let cases = [
        (
            r#""value": 0.5"#,
            r#""value": "half""#,
            r#"geometries[0].data.animations["morphTargets[T]"][2].value"#,
        ),
        (
            r#""morphTargets[T]": ["#,
            r#""position": ["#,
            r#"geometries[0].data.animations["position"]"#,
        ),
        (
            r#""time": 95"#,
            r#""time": 9"#,
            r#"geometries[0].data.animations["morphTargets[T]"][3].time"#,
        ),
    ];
    for (from, to, path) in cases {
        assert!(original.contains(from), "{from}");
        let text = original.replacen(from, to, 1);
        let e = read_bytes(text.as_bytes(), Path::new("b.json"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&format!("b.json: {path}: ")), "{e}");
    }
    // Truncated: a syntax error, no panic.
    for cut in [100, 4000, original.len() - 3] {
        assert!(read_bytes(&original.as_bytes()[..cut], Path::new("b.json")).is_err());
    }
}

#[test]
fn cli_info_lists_the_clip_and_convert_round_trips() {
    if sample_data("threejs").is_none() {
        return;
    }
    let o = clipscope(&["info", blend().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("1 clip(s)"), "{text}");
    assert!(text.contains("\"test-objGeometry\": 150.000 s"), "{text}");
    assert!(text.contains(".morphTargetInfluences[T]"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let o = clipscope(&[
        "convert",
        blend().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        value(&std::fs::read(&out).unwrap()),
        value(&std::fs::read(blend()).unwrap())
    );
}

/// `clipscope render` draws the morph clip at rest (t = 0) and fully morphed (t = 100), each
/// matching its reference picture (`tests/snapshots/render_blend_animation_*.png`, compared like
/// the render tests'). Needs a GPU adapter: skipped without one, unless
/// `CLIPSCOPE_REQUIRE_GPU=1` makes that a failure.
#[cfg(feature = "gui")]
#[test]
fn cli_render_draws_the_clip() {
    if sample_data("threejs").is_none() {
        return;
    }
    if crate::common::gpu::require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("blend.png");
    let o = clipscope(&[
        "render",
        blend().to_str().unwrap(),
        "--times",
        "0,100",
        "--size",
        "320x240",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (frame, time) in [(0, "000"), (1, "100")] {
        let image = image::open(dir.path().join(format!("blend_{frame:03}.png")))
            .unwrap()
            .to_rgba8();
        crate::common::snapshot::check_snapshot(&format!("render_blend_animation_{time}"), &image);
    }
}

/// An io_three 4.3 object file whose clips sit on the objects (times in frames at `fps`).
const PER_OBJECT: &str = r#"{"metadata":{"formatVersion":4.3,"type":"Object","generator":"io_three"},
"geometries":[],"materials":[],
"object":{"type":"Scene","uuid":"S","matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"children":[
  {"name":"Cube","uuid":"C","type":"Mesh","matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],
   "clips":[{"name":"CubeAction","fps":24,"tracks":[
     {"name":"position","type":"vector3","keys":[{"time":0,"value":[0,0,0]},{"time":12,"value":[0,2,0]},{"time":24,"value":[0,0,0]}]},
     {"name":"quaternion","type":"quaternion","keys":[{"time":0,"value":[0,0,0,1]},{"time":24,"value":[0,0.7071068,0,0.7071068]}]},
     {"name":"scale","type":"vector3","keys":[{"time":0,"value":[1,1,1]},{"time":24,"value":[2,2,2]}]}]}]},
  {"name":"Lamp","uuid":"L","type":"PointLight"}]}}"#;

#[test]
fn per_object_clips_read_play_write_back_and_convert() {
    use clipscope_core::model::interpolant::Sampler;
    let path = Path::new("cube.json");
    let doc = read_bytes(PER_OBJECT.as_bytes(), path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::ThreeJs);
    assert!(doc.unread.is_empty(), "{:?}", doc.unread);
    assert_eq!(doc.clips.len(), 1);
    let clip = &doc.clips[0];
    assert_eq!(clip.name, "CubeAction");
    assert_eq!(clip.duration, 1.0);
    let names: Vec<&str> = clip.tracks.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Cube.position", "Cube.quaternion", "Cube.scale"]);
    assert_eq!(clip.tracks[0].times, [0.0, 0.5, 1.0]);
    assert_eq!(clip.tracks[1].kind, TrackKind::Quaternion);
    // It plays: halfway up at a quarter second.
    let mut out = [0.0; 3];
    Sampler::new(&clip.tracks[0]).evaluate_f64(0.25, &mut out);
    assert!((out[1] - 1.0).abs() < 1e-6, "{out:?}");

    // Unedited: the file as it was.
    let out = write_bytes(&doc, &WriteOptions::default());
    assert_eq!(value(&out), value(PER_OBJECT.as_bytes()));
    // Edited: a top-level animations array, the object's clips taken out.
    let mut edited = doc.clone();
    edited.clips[0].name = "Bounce".into();
    let out = write_bytes(&edited, &WriteOptions::default());
    let v = value(&out);
    assert_eq!(v["animations"][0]["name"], "Bounce");
    assert_eq!(v["animations"][0]["tracks"][0]["name"], "Cube.position");
    assert!(v["object"]["children"][0].get("clips").is_none());
    assert_eq!(v["object"]["children"][0]["name"], "Cube");
    assert_eq!(read_bytes(&out, path).unwrap().clips, edited.clips);

    // Every format takes it.
    for &format in Format::ALL {
        let converted = doc.clone().converted_to(format);
        clipscope_core::formats::check_writable(&converted)
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        let bytes = write_bytes(&converted, &WriteOptions::default());
        let name = format!("out.{}", format.extension());
        let back = read_bytes(&bytes, Path::new(&name)).unwrap_or_else(|e| panic!("{format}: {e}"));
        let position = back.clips[0]
            .tracks
            .iter()
            .find(|t| t.name.ends_with("position"))
            .unwrap_or_else(|| panic!("{format}: {:?}", back.clips[0].tracks));
        if format == Format::Lottie {
            // Lottie places layers in pixels on its canvas: the track is there, not the units.
            continue;
        }
        let mut out = [0.0; 3];
        Sampler::new(position).evaluate_f64(0.25, &mut out);
        assert!((out[1] - 1.0).abs() < 1e-3, "{format}: {out:?}");
    }
}

#[test]
fn per_object_clips_beside_top_level_animations_are_reported_not_read() {
    let both = PER_OBJECT.replace(
        r#""geometries":[]"#,
        r#""animations":[{"name":"top","tracks":[{"name":"Cube.scale","type":"vector","times":[0,1],"values":[1,1,1,2,2,2]}]}],"geometries":[]"#,
    );
    let path = Path::new("both.json");
    let doc = read_bytes(both.as_bytes(), path).unwrap();
    assert_eq!(doc.clips.len(), 1);
    assert_eq!(doc.clips[0].name, "top");
    assert_eq!(doc.unread.len(), 1);
    assert_eq!(doc.unread[0].path, "object.children[0].clips");
    let linted = clipscope_core::formats::lint_bytes(both.as_bytes(), path, &Default::default());
    let p = linted
        .problems
        .iter()
        .find(|p| p.code == "unsupported-content")
        .expect("reported");
    assert!(
        p.message
            .starts_with("object.children[0].clips: per-object clips beside"),
        "{}",
        p.message
    );
    // A clip whose keys are not numbers names its path inside the object tree.
    let bad = PER_OBJECT.replace(
        r#"{"time":12,"value":[0,2,0]}"#,
        r#"{"time":12,"value":"up"}"#,
    );
    let e = read_bytes(bad.as_bytes(), path).unwrap_err().to_string();
    assert!(
        e.contains("object.children[0].clips[0].tracks[0].keys[1].value"),
        "{e}"
    );
}

/// A clip whose numbers are written as text (`"0.5"`, `" -1.5 "`, `"fps": "2"`): three.js r187's
/// `AnimationClip.parse` plays it (its `Float32Array`s and `1 / fps` coerce the text), and
/// `clipscope sample` gives what three.js samples; `info` lists the accepted shape and
/// `validate` warns about it.
#[test]
fn numbers_written_as_text_play_as_in_three_js() {
    let Some(conformance) = crate::common::node_package("three") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("text-numbers.json");
    std::fs::write(
        &file,
        r#"{"name":"c","fps":"2","duration":" 1.5 ","tracks":[
            {"name":"a.position","type":"vector","times":["0","1e0",2],
             "values":["0"," -1.5 ",0,1,2,"3",4,5,6]},
            {"name":"a.quaternion","type":"quaternion","keys":[
             {"time":"0","value":[0,0,0,1]},{"time":"2","value":["0","0.7071068","0","0.7071068"]}]}]}"#,
    )
    .unwrap();
    let file_arg = file.to_str().unwrap();
    let times = "0,0.1,0.25,0.5,0.75,1,1.2";
    let three = Command::new("node")
        .arg(conformance.join("sample_one.mjs"))
        .arg(&file)
        .arg(times)
        .output()
        .expect("run node");
    assert!(
        three.status.success(),
        "{}",
        String::from_utf8_lossy(&three.stderr)
    );
    let ours = clipscope(&["sample", file_arg, "--times", times]);
    assert!(
        ours.status.success(),
        "{}",
        String::from_utf8_lossy(&ours.stderr)
    );
    let (three, ours) = (value(&three.stdout), value(&ours.stdout));
    let three = three.as_object().unwrap();
    assert_eq!(three.len(), 2, "{three:?}");
    for (name, rows) in three {
        let mine = &ours[name];
        let flat = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()))
                .collect()
        };
        let (a, b) = (flat(rows), flat(mine));
        assert_eq!(a.len(), b.len(), "{name}");
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() <= 1e-6,
                "{name}: three.js {rows} vs clipscope {mine}"
            );
        }
    }
    let info = clipscope(&["info", file_arg]);
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("numbers written as text"), "{text}");
    let validate = clipscope(&["validate", file_arg]);
    let text = String::from_utf8_lossy(&validate.stdout);
    assert!(text.contains("warning number-as-string"), "{text}");
}

/// A three.js file written back to its own format keeps what it had: `convert` lists nothing as
/// not written for any shared three.js file (an object file keeps its object tree and geometries
/// verbatim, so neither the skeleton nor the morph mesh read from them is lost), and the written
/// object file still holds them.
#[test]
fn written_back_three_js_files_report_no_losses() {
    let Some(dir) = sample_data("threejs") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    for file in &files {
        let doc = read_file(file).unwrap_or_else(|e| panic!("{e}"));
        let lost = clipscope_core::formats::conversion_losses(&doc, doc.format);
        assert!(lost.is_empty(), "{}: {lost:?}", file.display());
    }
    let tmp = tempfile::tempdir().unwrap();
    for name in ["blend-animation.json", "scene-animation.json"] {
        let src = sample_data_root().join("threejs").join(name);
        let out = tmp.path().join(name);
        let o = clipscope(&[
            "convert",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(said.contains("wrote"), "{name}: {said}");
        assert!(!said.contains("not written"), "{name}: {said}");
        let (a, b) = (
            value(&std::fs::read(&src).unwrap()),
            value(&std::fs::read(&out).unwrap()),
        );
        for key in ["object", "geometries"] {
            assert_eq!(a[key], b[key], "{name}: {key}");
        }
    }
}
