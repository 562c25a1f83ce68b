//! What clips play on, from the command line: `info --json`'s `figure` object, `--rig FILE`
//! binding a clip against another file's skeleton, companion models next to a clip file, and
//! humanoids built from the names of the PlayCanvas samples.

use std::process::{Command, Output};

use serde_json::Value;

use crate::test_support::sample_data;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

/// `info FILE --json [extra…]`'s clips' `figure` objects.
fn figures(file: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["info", file, "--json"];
    args.extend_from_slice(extra);
    let o = clipscope(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["figure"].clone())
        .collect()
}

#[test]
fn the_demo_reports_the_hero_and_every_track_bound() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let f = figures(demo, &[]);
    assert_eq!(f[0]["name"], "Hero");
    assert_eq!(f[0]["source"], "built-in");
    assert_eq!(f[0]["bound"], f[0]["tracks"]);
    assert_eq!(f[0]["unbound"], serde_json::json!([]));
    // Against the Dog most of the walk binds to nothing, and the report names those tracks.
    let dog = figures(demo, &["--rig", "dog"]);
    assert_eq!(dog[0]["name"], "Dog");
    let unbound = dog[0]["unbound"].as_array().unwrap();
    assert!(!unbound.is_empty());
    assert_eq!(
        dog[0]["bound"].as_u64().unwrap() + unbound.len() as u64,
        dog[0]["tracks"].as_u64().unwrap()
    );
    let text = String::from_utf8_lossy(&clipscope(&["info", demo]).stdout).into_owned();
    assert!(text.contains("plays on Hero (built-in): "), "{text}");
}

#[test]
fn playcanvas_samples_play_on_humanoids_from_their_names() {
    for file in [
        "playcanvas/playbot-run.json",
        "playcanvas/playbot-idle.json",
        "playcanvas/playbot-jump.json",
        "playcanvas/playbot-die.json",
        "playcanvas/Playbot_animation.json",
        "playcanvas/walkcycle_animation.json",
    ] {
        let Some(path) = sample_data(file) else {
            return;
        };
        let f = &figures(path.to_str().unwrap(), &[])[0];
        assert_eq!(f["source"], "names", "{file}: {f}");
        let (bound, tracks) = (f["bound"].as_f64().unwrap(), f["tracks"].as_f64().unwrap());
        assert!(bound >= 0.9 * tracks, "{file}: {f}");
    }
}

#[test]
fn a_clip_made_from_a_gltf_take_binds_to_it_with_rig_and_as_a_companion() {
    let Some(gltf) = sample_data("gltf/SimpleSkin.gltf") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("take.json");
    let o = clipscope(&[
        "convert",
        gltf.to_str().unwrap(),
        "--to",
        "threejs",
        "-o",
        clip.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let clip = clip.to_str().unwrap();
    // Alone, the clip has no skeleton: a proxy.
    assert_eq!(figures(clip, &[])[0]["source"], "proxy");
    let f = &figures(clip, &["--rig", gltf.to_str().unwrap()])[0];
    assert_eq!(f["source"], "file");
    assert_eq!(f["file"], "SimpleSkin.gltf");
    assert_eq!(f["bound"], f["tracks"]);
    // With the model next to it, it is used without asking.
    std::fs::copy(&gltf, dir.path().join("SimpleSkin.gltf")).unwrap();
    let f = &figures(clip, &[])[0];
    assert_eq!(f["file"], "SimpleSkin.gltf", "{f}");
    assert_eq!(f["unbound"], serde_json::json!([]));
    // Played on that model, the clip shows the model's mesh.
    assert_eq!(f["mesh"]["vertices"], 10, "{f}");
    assert_eq!(f["mesh"]["skinned"], true, "{f}");
}

#[test]
fn info_reports_the_mesh_each_clip_plays_on() {
    // No mesh: no mesh object.
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    assert!(figures(demo, &[])[0].get("mesh").is_none());
    let (Some(gltf), Some(legacy)) = (
        sample_data("gltf/SimpleSkin.gltf"),
        sample_data("threejs/simple-skinned.json"),
    ) else {
        return;
    };
    // SimpleSkin.gltf: a strip of 10 vertices and 8 triangles on a two-joint skin, untextured.
    let f = &figures(gltf.to_str().unwrap(), &[])[0];
    assert_eq!(
        f["mesh"],
        serde_json::json!({"vertices": 10, "triangles": 8, "skinned": true, "textures": 0,
            "notes": []}),
        "{f}"
    );
    // The legacy model: its faces expanded to corners, skinned by its two bones.
    let f = &figures(legacy.to_str().unwrap(), &[])[0];
    assert_eq!(f["mesh"]["skinned"], true, "{f}");
    let (v, t) = (
        f["mesh"]["vertices"].as_u64().unwrap(),
        f["mesh"]["triangles"].as_u64().unwrap(),
    );
    assert!(t > 0 && v >= t, "{f}");
    // The bones alone draw no mesh.
    let bones = &figures(gltf.to_str().unwrap(), &["--rig", "skeleton"])[0];
    assert!(bones.get("mesh").is_none(), "{bones}");
    // The text report says it too.
    let text =
        String::from_utf8_lossy(&clipscope(&["info", gltf.to_str().unwrap()]).stdout).into_owned();
    assert!(
        text.contains("mesh: 10 vertices, 8 triangles, skinned, 0 texture(s)"),
        "{text}"
    );
}

/// A bad `--camera` names what is wrong with it (`render` needs the `gui` feature).
#[cfg(feature = "gui")]
#[test]
fn render_camera_errors_are_one_line() {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    for (camera, why) in [
        ("eye=0,1,target=0,0,0", "eye takes three numbers"),
        ("eye=0,1,2,target=0,0,0,fov=200", "fov must be between"),
        ("eye=0,3,0,target=0,0,0", "straight up or down"),
        ("eye=1,1,1,target=1,1,1", "must differ from the target"),
    ] {
        let o = clipscope(&[
            "render",
            demo,
            "--camera",
            camera,
            "-o",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let err: Vec<&str> = err
            .lines()
            .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
            .collect();
        assert_eq!(o.status.code(), Some(2), "{camera}: {err:?}");
        // The reason is on the first line (clap adds its `--help` hint below a bad value).
        assert!(err[0].contains(why), "{camera}: {err:?}");
        assert!(!out.exists(), "nothing written");
    }
}

#[test]
fn rig_files_and_bad_rig_files() {
    let dir = tempfile::tempdir().unwrap();
    let rig = dir.path().join("robot.json");
    std::fs::write(
        &rig,
        r##"{"name": "Robot", "parts": [{"name": "hips", "size": [1, 1, 1], "colour": "#ffffff"}]}"##,
    )
    .unwrap();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let f = &figures(demo, &["--rig", rig.to_str().unwrap()])[0];
    assert_eq!(f["name"], "Robot");
    assert_eq!(f["file"], "robot.json");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"name": "R", "parts": []}"#).unwrap();
    let o = clipscope(&["info", demo, "--rig", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.json: parts: the rig has no parts"),
        "{err}"
    );
    let o = clipscope(&["info", demo, "--rig", "cat"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no rig named \"cat\""));
}
