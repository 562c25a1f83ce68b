//! PlayCanvas animation JSON against the shared corpus (the engine's playbot, cube and walkcycle
//! files): node, key and duration figures from SOURCES.md / spec B8, the spec's Euler and
//! interpolation test vectors (B4, B6), a version 3 file built from B2, byte-for-byte and
//! value round trips, conversion to and from three.js clip JSON (library and `convert`), and
//! bad input with exact JSON paths.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::test_support::{sample_data, sample_data_root};
use clipscope_core::formats::{
    self, Document, Format, WriteOptions, read_bytes, read_file, write_bytes,
};
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Clip, Interpolation, Track, TrackKind};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    sample_data_root().join("playcanvas").join(name)
}

fn read(name: &str) -> Document {
    read_file(&data(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn reread(doc: &Document, opts: &WriteOptions) -> Document {
    let out = write_bytes(doc, opts);
    read_bytes(&out, Path::new("out.json"))
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)))
}

fn pretty() -> WriteOptions {
    WriteOptions {
        pretty: true,
        ..Default::default()
    }
}

fn error(text: &str) -> String {
    match read_bytes(text.as_bytes(), Path::new("bad.json")) {
        Ok(_) => panic!("read {text} without error"),
        Err(e) => e.to_string(),
    }
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

fn nums(t: &Track) -> &[f32] {
    t.values.as_numbers().unwrap()
}

/// The corpus: file, animation name, nodes, keys (PlayCanvas keys, one per node key), duration.
const FILES: [(&str, &str, usize, usize, f64); 7] = [
    ("playbot-run.json", "Take 001", 35, 280, 0.633333),
    ("playbot-idle.json", "Take 001", 35, 735, 1.96667),
    ("playbot-jump.json", "Take 001", 35, 280, 0.633333),
    ("playbot-die.json", "Take 001", 35, 630, 1.63333),
    ("cube.animation.json", "Cube|CubeAction", 1, 26, 2.5),
    ("walkcycle_animation.json", "walkcycle", 24, 216, 0.8),
    ("Playbot_animation.json", "Take 001", 44, 836, 1.8),
];

/// Node names in track order (three tracks a node) and the node's key count.
fn nodes(clip: &Clip) -> Vec<(&str, usize)> {
    clip.tracks
        .chunks(3)
        .map(|t| {
            let name = t[0].name.strip_suffix(".position").unwrap();
            assert_eq!(t[1].name, format!("{name}.quaternion"));
            assert_eq!(t[2].name, format!("{name}.scale"));
            assert_eq!(t[1].times, t[0].times);
            assert_eq!(t[2].times, t[0].times);
            (name, t[0].len())
        })
        .collect()
}

#[test]
fn every_sample_reads_with_the_documented_figures() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    for (file, name, node_count, key_count, duration) in FILES {
        let doc = read(file);
        assert_eq!(doc.format, Format::PlayCanvas, "{file}");
        assert_eq!(doc.clips.len(), 1, "{file}");
        let clip = &doc.clips[0];
        assert_eq!(clip.name, name, "{file}");
        assert_eq!(clip.duration, duration, "{file}");
        assert_eq!(clip.tracks.len(), node_count * 3, "{file}");
        let n = nodes(clip);
        assert_eq!(n.len(), node_count, "{file}");
        assert_eq!(n.iter().map(|(_, k)| k).sum::<usize>(), key_count, "{file}");
        for t in &clip.tracks {
            assert_eq!(t.interpolation, Interpolation::Linear);
            assert_eq!(
                t.kind,
                if t.name.ends_with(".quaternion") {
                    TrackKind::Quaternion
                } else {
                    TrackKind::Vector
                }
            );
        }
        // Every clip is valid for three.js (sorted times, unit quaternions).
        assert!(clip.is_valid(), "{file}: {:?}", clip.validate());
    }
}

#[test]
fn sample_values_read_off_the_files() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    // Cube: r = [-90, 0, 0] → (−sin 45°, 0, 0, cos 45°); scale 100 on every key.
    let cube = read("cube.animation.json");
    let t = &cube.clips[0].tracks;
    assert_eq!(t[0].name, "Cube.position");
    let h = 0.5f64.sqrt();
    let q = &nums(&t[1])[..4];
    assert!(
        (q[0] as f64 + h).abs() < 1e-7
            && q[1] == 0.0
            && q[2] == 0.0
            && (q[3] as f64 - h).abs() < 1e-7,
        "{q:?}"
    );
    assert!(nums(&t[2]).iter().all(|&s| s == 100.0));
    assert_eq!(t[0].times[25], 2.5);

    // Old Playbot: every value from `defaults`; the root is scaled by 0.01.
    let old = read("Playbot_animation.json");
    let t = &old.clips[0].tracks;
    assert_eq!(t[0].name, "PB.position");
    assert_eq!(t[0].len(), 19);
    assert_eq!(&nums(&t[0])[..3], [0.0, 0.2575, -0.01459]);
    assert!(nums(&t[2]).iter().all(|&s| s == 0.01));
    assert!(nums(&t[1]).chunks(4).all(|q| q == &nums(&t[1])[..4]));

    // Run: 'PB Pelvis' has p and s in defaults, its rotation on every key.
    let run = read("playbot-run.json");
    let clip = &run.clips[0];
    let pelvis = clip
        .tracks
        .iter()
        .position(|t| t.name == "PB Pelvis.position")
        .unwrap();
    assert_eq!(nums(&clip.tracks[pelvis]), [0.0; 24]);
    assert_eq!(
        clip.tracks[pelvis].times,
        [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.633333]
    );
    assert_eq!(
        &nums(&clip.tracks[0])[3..6],
        [0.0905241, 23.4792, -0.0523927]
    );
}

#[test]
fn spec_b6_interpolation_vector() {
    let doc = read_bytes(
        br#"{"animation":{"version":4,"name":"b6","duration":1,"nodes":[{"name":"n","defaults":{"p":[0,0,0],"s":[1,1,1]},"keys":[{"t":0,"r":[0,0,0]},{"t":1,"r":[0,90,0]}]}]}}"#,
        Path::new("b6.json"),
    )
    .unwrap();
    let mut s = Sampler::new(&doc.clips[0].tracks[1]);
    let v = s.evaluate(0.5);
    let expected = [0.0, 0.382683, 0.0, 0.923880];
    for (a, b) in v.as_numbers().unwrap().iter().zip(expected) {
        assert!((*a as f64 - b).abs() < 5e-7, "{v:?}");
    }
    // And B4's check vector through the public Euler helpers.
    let q = formats::euler::quaternion_from_euler([30.0, 50.0, 70.0]);
    for (a, b) in q.iter().zip([-0.041996, 0.468936, 0.412524, 0.779846]) {
        assert!((a - b).abs() < 5e-7, "{q:?}");
    }
}

#[test]
fn unmodified_samples_write_back_byte_for_byte() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    for (file, ..) in FILES {
        let bytes = std::fs::read(data(file)).unwrap();
        let doc = read_bytes(&bytes, Path::new(file)).unwrap();
        let out = write_bytes(&doc, &WriteOptions::default());
        assert!(
            out == bytes,
            "{file}: {}",
            String::from_utf8_lossy(&out[..out.len().min(400)])
        );
    }
}

#[test]
fn round_trips_keep_every_node_and_key() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    for (file, ..) in FILES {
        let doc = read(file);
        // Pretty output of the same document: equal tracks, bit for bit.
        let back = reread(&doc, &pretty());
        assert_eq!(back.clips, doc.clips, "{file}");

        // Through three.js clip JSON and back, as a new document: the engine's inverse gives
        // other Euler triples for |ey| > 90°, so rotations match up to f32 rounding (and sign).
        let threejs = reread(
            &doc.clone().converted_to(Format::ThreeJs),
            &WriteOptions::default(),
        );
        assert_eq!(threejs.format, Format::ThreeJs);
        assert_eq!(threejs.clips[0].tracks, doc.clips[0].tracks, "{file}");
        let pc = threejs.converted_to(Format::PlayCanvas);
        assert_eq!(formats::check_writable(&pc), Ok(()));
        assert!(
            formats::conversion_losses(&pc, Format::PlayCanvas).is_empty(),
            "{file}"
        );
        // Keys kept as they are: with the default 0.05° the writer adds a key where the
        // skeleton's slerp averages two keys closer than 0.1146° (up to 0.057° off, see
        // `cli_converts_playcanvas_to_threejs_and_back`); 0.1° leaves them.
        let loose = WriteOptions {
            tolerance: formats::Tolerance {
                rotation_deg: 0.1,
                ..formats::Tolerance::default()
            },
            ..WriteOptions::default()
        };
        let again = reread(&pc, &loose);
        assert_eq!(again.format, Format::PlayCanvas);
        let (a, b) = (&doc.clips[0], &again.clips[0]);
        assert_eq!(nodes(a), nodes(b), "{file}");
        assert_eq!(a.name, b.name);
        assert_eq!(a.duration, b.duration);
        let mut worst = 0.0f64;
        for (ta, tb) in a.tracks.iter().zip(&b.tracks) {
            assert_eq!(ta.name, tb.name);
            assert_eq!(ta.times, tb.times, "{file} {}", ta.name);
            if ta.kind == TrackKind::Quaternion {
                for (qa, qb) in nums(ta).chunks(4).zip(nums(tb).chunks(4)) {
                    let dot: f64 = qa.iter().zip(qb).map(|(x, y)| *x as f64 * *y as f64).sum();
                    let sign = dot.signum();
                    for (x, y) in qa.iter().zip(qb) {
                        worst = worst.max((*x as f64 - sign * *y as f64).abs());
                    }
                }
            } else {
                assert_eq!(nums(ta), nums(tb), "{file} {}", ta.name);
            }
        }
        // Measured: at most 1.04e-7 (walkcycle), about one f32 step of a unit quaternion.
        assert!(worst < 2e-7, "{file}: quaternions differ by {worst}");
    }
}

#[test]
fn version_3_file_reads_and_writes_as_version_4() {
    let v3 = r#"{"animation":{"version":3,"name":"v3","duration":1,"nodes":[
{"name":"root","keys":[{"time":0,"pos":[0,1,0],"rot":[0,0,0],"scale":[1,1,1]},{"time":0.5,"pos":[0,1.5,0],"rot":[0,45,0],"scale":[1,1,1]},{"time":1,"pos":[0,2,0],"rot":[0,90,0],"scale":[1,1,1]}]},
{"name":"child","keys":[{"time":0,"pos":[1,0,0],"rot":[10,20,30],"scale":[2,2,2]}]}]}}"#;
    let doc = read_bytes(v3.as_bytes(), Path::new("v3.json")).unwrap();
    assert_eq!(doc.format, Format::PlayCanvas);
    let clip = &doc.clips[0];
    assert_eq!(nodes(clip), [("root", 3), ("child", 1)]);
    assert_eq!(
        nums(&clip.tracks[0]),
        [0.0, 1.0, 0.0, 0.0, 1.5, 0.0, 0.0, 2.0, 0.0]
    );
    let out = write_bytes(&doc, &WriteOptions::default());
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["animation"]["version"], 4);
    assert_eq!(
        v["animation"]["nodes"][0]["keys"][1],
        serde_json::json!({"t": 0.5, "p": [0, 1.5, 0], "r": [0, 45, 0], "s": [1, 1, 1]})
    );
    assert_eq!(
        v["animation"]["nodes"][0]["defaults"],
        serde_json::json!({})
    );
    let back = read_bytes(&out, Path::new("v4.json")).unwrap();
    assert_eq!(back.clips, doc.clips);
}

#[test]
fn unknown_fields_survive_round_trips_and_edits() {
    let text = concat!(
        r#"{"meta":{"tool":"x"},"animation":{"name":"u","version":4,"loop":true,"duration":1,"nodes":["#,
        r#"{"name":"a","extra":[1,2],"defaults":{"s":[1,1,1],"note":"k"},"keys":[{"t":0,"p":[0,0,0],"r":[0,0,0],"e":1},"#,
        r#"{"t":1,"p":[1,0,0],"r":[0,180,0],"s":[5,5,5]}]},"#,
        r#"{"name":"empty","defaults":{},"keys":[]}]},"after":null}"#,
        "\n"
    );
    let doc = read_bytes(text.as_bytes(), Path::new("u.json")).unwrap();
    assert_eq!(write_bytes(&doc, &WriteOptions::default()), text.as_bytes());
    assert_eq!(
        formats::conversion_losses(&doc, Format::ThreeJs),
        [
            "the other top-level fields of the playcanvas file (meta, after)",
            "4 unknown field(s) of PlayCanvas nodes, defaults and keys",
            "1 PlayCanvas node(s) without keys (empty)",
        ]
    );
    // Edit one position: that key is written fresh, everything else as it was.
    let mut edited = doc.clone();
    edited.clips[0].tracks[0].values.as_numbers_mut().unwrap()[3] = 2.0;
    let out = String::from_utf8(write_bytes(&edited, &WriteOptions::default())).unwrap();
    assert_eq!(out, text.replace(r#""p":[1,0,0]"#, r#""p":[2,0,0]"#));
    // Pretty output keeps the values and the unknown fields.
    let a: Value = serde_json::from_str(text).unwrap();
    let b: Value = serde_json::from_slice(&write_bytes(&doc, &pretty())).unwrap();
    assert_eq!(a, b);
}

#[test]
fn threejs_clips_become_nodes_and_non_linear_tracks_are_baked() {
    let text = r#"{"name":"mix","duration":1,"tracks":[
{"name":"Hips.position","type":"vector","times":[0,1],"values":[0,0,0,0,1,0]},
{"name":"Hips.quaternion","type":"quaternion","times":[0,0.5],"values":[0,0,0,1,0,0.7071068,0,0.7071068]},
{"name":"Arm.scale","type":"vector","times":[0,1],"values":[1,1,1,2,2,2],"interpolation":2300}]}"#;
    let doc = read_bytes(text.as_bytes(), Path::new("mix.json")).unwrap();
    let pc = doc.converted_to(Format::PlayCanvas);
    assert_eq!(formats::check_writable(&pc), Ok(()));
    let lost = formats::conversion_losses(&pc, Format::PlayCanvas);
    assert_eq!(
        lost,
        [
            "clip 'mix' node 'Hips': no scale track(s); PlayCanvas keys set every channel, so they are written as constant defaults from the identity",
            "clip 'mix' node 'Arm': discrete interpolation, written as linear keys the engine plays as the curve (2 keys → 3, channel scale)",
            "clip 'mix' node 'Arm': no position, quaternion track(s); PlayCanvas keys set every channel, so they are written as constant defaults from the identity",
        ]
    );
    let v: Value = serde_json::from_slice(&write_bytes(&pc, &WriteOptions::default())).unwrap();
    let hips = &v["animation"]["nodes"][0];
    assert_eq!(hips["name"], "Hips");
    assert_eq!(hips["defaults"], serde_json::json!({"s": [1, 1, 1]}));
    // Position keys at 0 and 1, rotation keys at 0 and 0.5: keys at 0, 0.5, 1 with both.
    let keys = hips["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[1]["p"], serde_json::json!([0, 0.5, 0]));
    assert_eq!(keys[2]["r"], keys[1]["r"]);
    let r = keys[1]["r"].as_array().unwrap();
    assert!((r[1].as_f64().unwrap() - 90.0).abs() < 1e-4, "{r:?}");
    let arm = &v["animation"]["nodes"][1];
    // The step: its first value until one f32 step before 1 s, then the second.
    let arm_keys = arm["keys"].as_array().unwrap();
    assert_eq!(arm_keys.len(), 3);
    assert_eq!(arm_keys[1]["s"], serde_json::json!([1, 1, 1]));
    assert_eq!(arm_keys[1]["t"].as_f64().unwrap() as f32, 1f32.next_down());
    assert_eq!(arm_keys[2]["s"], serde_json::json!([2, 2, 2]));
    assert_eq!(
        arm["defaults"],
        serde_json::json!({"p": [0, 0, 0], "r": [0, 0, 0]})
    );

    // What PlayCanvas cannot hold is left out and reported, never refused.
    let morph = r#"{"name":"m","tracks":[{"name":".morphTargetInfluences[0]","type":"number","times":[0],"values":[1]}]}"#;
    let doc = read_bytes(morph.as_bytes(), Path::new("m.json")).unwrap();
    let lost = formats::conversion_losses(&doc, Format::PlayCanvas);
    assert!(
        lost.contains(&"1 track(s) left out: not a NODE.position, .quaternion or .scale track (.morphTargetInfluences[0])".to_string()),
        "{lost:?}"
    );
    assert_eq!(
        formats::check_writable(&doc.converted_to(Format::PlayCanvas)),
        Ok(())
    );
    let two = format!("[{morph},{morph}]");
    let doc = read_bytes(two.as_bytes(), Path::new("m.json")).unwrap();
    let lost = formats::conversion_losses(&doc, Format::PlayCanvas);
    assert!(
        lost.iter()
            .any(|l| l.starts_with("1 clip(s) after the first ('m')")),
        "{lost:?}"
    );
    assert_eq!(
        formats::check_writable(&doc.converted_to(Format::PlayCanvas)),
        Ok(())
    );

    // A 2-component position (a Lottie layer) is padded with z = 0.
    let flat = r#"{"name":"f","tracks":[{"name":"L.position","type":"vector","times":[0,1],"values":[1,2,3,4]}]}"#;
    let doc = read_bytes(flat.as_bytes(), Path::new("f.json")).unwrap();
    let lost = formats::conversion_losses(&doc, Format::PlayCanvas);
    assert!(
        lost.iter()
            .any(|l| l.contains("1 2-component position/scale track(s), padded")),
        "{lost:?}"
    );
    let out = write_bytes(
        &doc.converted_to(Format::PlayCanvas),
        &WriteOptions::default(),
    );
    let back = read_bytes(&out, Path::new("f.json")).unwrap();
    let p = back.clips[0]
        .tracks
        .iter()
        .find(|t| t.name == "L.position")
        .unwrap();
    assert_eq!(
        p.values.as_numbers().unwrap(),
        [1.0, 2.0, 0.0, 3.0, 4.0, 0.0]
    );
}

#[test]
fn convert_writes_one_file_per_clip() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.json");
    std::fs::write(
        &input,
        r#"[{"name":"Walk 1","tracks":[{"name":"a.position","type":"vector","times":[0,1],"values":[0,0,0,1,1,1]}]},
            {"name":"run","tracks":[{"name":"a.scale","type":"vector","times":[0],"values":[2,2,2]}]}]"#,
    )
    .unwrap();
    let out = dir.path().join("pc.json");
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args([
            "convert",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--to",
            "playcanvas",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
    for (file, clip) in [("pc_Walk_1.json", "Walk 1"), ("pc_run.json", "run")] {
        let path = dir.path().join(file);
        assert!(
            text.contains(&format!("wrote {}", path.display())),
            "{text}"
        );
        let back = read_file(&path).unwrap();
        assert_eq!(back.clips.len(), 1);
        assert_eq!(back.clips[0].name, clip);
    }
}

#[test]
fn bad_input_names_the_json_path() {
    let key = r#"{"t":0,"p":[0,0,0],"r":[0,0,0]}"#;
    let cases: Vec<(String, &str)> = vec![
        (
            r#"{"nodes":[],"duration":1,"version":4}"#.into(),
            "bad.json: animation: missing \"animation\": PlayCanvas animation JSON wraps the animation as {\"animation\": {\"version\", \"name\", \"duration\", \"nodes\"}}",
        ),
        (
            r#"{"animation":{"version":4,"duration":1,"nodes":{"name":"a"}}}"#.into(),
            "bad.json: animation.nodes: expected an array of nodes, found an object",
        ),
        (
            format!(r#"{{"animation":{{"version":4,"duration":1,"nodes":[{{"name":"a","defaults":{{"s":[1,1,1]}},"keys":[{key},{key},{key},{{"t":"0.3","p":[0,0,0],"r":[0,0,0]}}]}}]}}}}"#),
            "bad.json: animation.nodes[0].keys[3].t: a string is not a number",
        ),
        (
            r#"{"animation":{"version":4,"duration":1,"nodes":[{"name":"a","defaults":{},"keys":[{"t":0,"p":[0,0,0],"r":[0,0,0],"s":[1,1"#.into(),
            "bad.json: animation.nodes[0].keys[0].s[1]: truncated JSON: EOF while parsing a list at line 1 column 121",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(error(&text), expected, "for {text}");
    }
}

#[test]
fn mutated_samples_never_panic() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    let seed = std::fs::read(data("cube.animation.json")).unwrap();
    let alphabet = b"{}[],:\"0123456789.-+eEtrufalsnp \\";
    let mut rng = crate::test_support::Rng::new(0x2545_F491_4F6C_DD1D);
    let mut next = || rng.next_u64();
    for _ in 0..2000 {
        let mut bytes = seed.clone();
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
        let _ = formats::lint_bytes(&bytes, Path::new("f.json"), &Default::default());
        if let Ok(doc) = read_bytes(&bytes, Path::new("f.json"))
            && doc.format == Format::PlayCanvas
        {
            for opts in [WriteOptions::default(), pretty()] {
                let out = write_bytes(&doc, &opts);
                let back = read_bytes(&out, Path::new("f.json"))
                    .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)));
                assert_eq!(back.clips[0].tracks.len(), doc.clips[0].tracks.len());
            }
        }
    }
}

#[test]
fn cli_converts_playcanvas_to_threejs_and_back() {
    if sample_data("playcanvas").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = data("playbot-run.json");
    let clips = dir.path().join("run.clips.json");
    let o = clipscope(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        clips.to_str().unwrap(),
        "--to",
        "threejs",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(
        text.starts_with("convert: 1 clip(s), 840 keys; 23,867 → "),
        "{text}"
    );
    assert!(text.contains("(playcanvas → threejs); wrote "), "{text}");
    assert!(!text.contains("not written"), "{text}");
    let v: Value = serde_json::from_slice(&std::fs::read(&clips).unwrap()).unwrap();
    assert_eq!(v["name"], "Take 001");
    assert_eq!(v["tracks"][0]["name"], "PB.position");
    assert_eq!(v["tracks"].as_array().unwrap().len(), 105);

    let back = dir.path().join("run.pc.json");
    let o = clipscope(&[
        "convert",
        clips.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
        "--to",
        "playcanvas",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains("(threejs → playcanvas); wrote "), "{text}");
    assert!(!text.contains("not written"), "{text}");
    // One key time added (its position, rotation and scale keys): two keys of 'PB R UpperArm'
    // lie 0.11° apart, which the engine's `Quat.slerp` plays as their average at every time
    // between them (0.056° off).
    assert!(
        text.contains("; 3 key(s) added so it plays the source"),
        "{text}"
    );
    let original = read("playbot-run.json");
    let again = read_file(&back).unwrap();
    assert_eq!(again.format, Format::PlayCanvas);
    let mut want = nodes(&original.clips[0]);
    for (node, keys) in &mut want {
        if *node == "PB R UpperArm" {
            *keys += 1;
        }
    }
    assert_eq!(nodes(&again.clips[0]), want);
    let v: Value = serde_json::from_slice(&std::fs::read(&back).unwrap()).unwrap();
    assert_eq!(v["animation"]["version"], 4);
    assert_eq!(v["animation"]["nodes"][1]["name"], "PB Pelvis");
    assert_eq!(
        v["animation"]["nodes"][1]["defaults"],
        serde_json::json!({"p": [0, 0, 0], "s": [1, 1, 1]})
    );

    // Legacy three.js bones become nodes; the skeleton is reported.
    let legacy = sample_data_root()
        .join("threejs/simple-skinned.json")
        .to_string_lossy()
        .into_owned();
    let out = dir.path().join("skinned.pc.json");
    let o = clipscope(&[
        "convert",
        &legacy,
        "-o",
        out.to_str().unwrap(),
        "--to",
        "playcanvas",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(
        text.contains("convert: not written: the skeleton (2 bones; PlayCanvas animation JSON has no bone hierarchy, only node names)"),
        "{text}"
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["animation"]["nodes"][0]["name"], "leg.R");

    // A track PlayCanvas cannot hold: left out and reported, the file still written.
    let morph = dir.path().join("morph.json");
    std::fs::write(
        &morph,
        r#"{"name":"m","tracks":[{"name":".morphTargetInfluences[0]","type":"number","times":[0],"values":[1]}]}"#,
    )
    .unwrap();
    let target = dir.path().join("keep.json");
    let o = clipscope(&[
        "convert",
        morph.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
        "--to",
        "playcanvas",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).contains("convert: not written: 1 track(s) left out: not a NODE.position"),
        "{}",
        stdout(&o)
    );
    assert!(target.exists());
}
