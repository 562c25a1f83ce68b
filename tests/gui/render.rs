//! Headless rendering: known scenes drawn at 320×240 and compared with committed reference
//! PNGs (tests/snapshots/render_*.png) within a tolerance (a box scene, the Hero walking at
//! several times, a morph mesh), frames of a moving clip at two times that must differ, GPU
//! morph blending against the CPU reference, and the `render` subcommand's output.
//!
//! These need a GPU adapter (Mesa's lavapipe in CI). Where none exists each test prints
//! `SKIPPED` and passes, unless `CLIPSCOPE_REQUIRE_GPU=1` makes that a failure. References are
//! regenerated with `UPDATE_SNAPSHOTS=1`; on a mismatch the new frame is written next to the
//! reference as `render_*.new.png`.
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};
use std::process::Command;

use clipscope_render::{Bounds, Camera, Frame, Headless, render_rgba};
use clipscope_scene::BoxInstance;
use clipscope_scene::colour::srgb;
use glam::{Mat4, Quat, Vec3};
use image::RgbaImage;

use crate::common::gpu::require_gpu;
use crate::common::snapshot::check_snapshot;
use crate::test_support::sample_data;

fn part(size: [f32; 3], at: [f32; 3], turn_y_degrees: f32, colour: u32) -> BoxInstance {
    BoxInstance {
        transform: Mat4::from_scale_rotation_translation(
            Vec3::from(size),
            Quat::from_rotation_y(turn_y_degrees.to_radians()),
            Vec3::from(at),
        ),
        colour: srgb(colour),
        taper: 0.0,
    }
}

/// A small cube character mid-stride beside two crates.
fn scene() -> Vec<BoxInstance> {
    let stride = |deg: f32, at: [f32; 3], size: [f32; 3], colour| {
        let pivot = Vec3::new(at[0], at[1] + size[1] * 0.5, at[2]);
        let swing = Mat4::from_translation(pivot)
            * Mat4::from_rotation_x(deg.to_radians())
            * Mat4::from_translation(-pivot);
        BoxInstance {
            transform: swing
                * Mat4::from_scale_rotation_translation(
                    Vec3::from(size),
                    Quat::IDENTITY,
                    Vec3::from(at),
                ),
            colour: srgb(colour),
            taper: 0.0,
        }
    };
    vec![
        // Legs, swinging.
        stride(22.0, [-0.14, 0.36, 0.0], [0.2, 0.72, 0.24], 0x4F_7CAC),
        stride(-22.0, [0.14, 0.36, 0.0], [0.2, 0.72, 0.24], 0x4F_7CAC),
        // Torso, head, hands.
        part([0.56, 0.62, 0.32], [0.0, 1.05, 0.0], 0.0, 0xF2_8C6B),
        part([0.4, 0.4, 0.4], [0.0, 1.6, 0.0], 0.0, 0xF5_CBA7),
        stride(-30.0, [-0.38, 1.02, 0.0], [0.16, 0.5, 0.16], 0xF5_CBA7),
        stride(30.0, [0.38, 1.02, 0.0], [0.16, 0.5, 0.16], 0xF5_CBA7),
        // Two crates.
        part([0.6, 0.6, 0.6], [1.1, 0.3, -0.5], 20.0, 0xF6_C85F),
        part([0.36, 0.36, 0.36], [1.0, 0.78, -0.45], -10.0, 0x5D_BCB0),
    ]
}

fn framed(yaw: f32, pitch: f32, instances: &[BoxInstance], aspect: f32) -> Camera {
    let mut camera = Camera {
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        ..Camera::default()
    };
    camera.frame_aspect(Bounds::of_instances(instances).unwrap(), aspect);
    camera
}

#[test]
fn character_three_quarter_view_matches_reference() {
    if require_gpu().is_none() {
        return;
    }
    let scene = scene();
    let camera = framed(35.0, 16.0, &scene, 320.0 / 240.0);
    let image = render_rgba(&Frame::boxes(&scene), &camera, 320, 240).unwrap();
    assert_eq!(image.dimensions(), (320, 240));
    check_snapshot("render_character", &image);
}

#[test]
fn high_view_with_shadows_matches_reference() {
    if require_gpu().is_none() {
        return;
    }
    let scene = scene();
    let mut camera = framed(75.0, 50.0, &scene, 320.0 / 240.0);
    camera.zoom(1.25);
    let image = render_rgba(&Frame::boxes(&scene), &camera, 320, 240).unwrap();
    check_snapshot("render_high", &image);
}

#[test]
fn one_device_renders_frames_of_different_sizes_and_counts() {
    let Some(mut headless) = require_gpu() else {
        return;
    };
    let camera = Camera::default();
    let empty = headless
        .render(&Frame::boxes(&[]), &camera, 64, 48)
        .unwrap();
    assert_eq!(empty.dimensions(), (64, 48));
    // Many more boxes than the instance buffer first holds: it grows.
    let many: Vec<BoxInstance> = (0..500)
        .map(|i| {
            let (x, z) = ((i % 25) as f32 - 12.0, (i / 25) as f32 - 10.0);
            part([0.3, 0.3, 0.3], [x * 0.4, 0.15, z * 0.4], 0.0, 0xF2_8C6B)
        })
        .collect();
    let crowd = headless
        .render(&Frame::boxes(&many), &camera, 96, 80)
        .unwrap();
    assert_eq!(crowd.dimensions(), (96, 80));
    let again = headless
        .render(&Frame::boxes(&[]), &camera, 64, 48)
        .unwrap();
    assert_eq!(
        empty.as_raw(),
        again.as_raw(),
        "a frame depends only on its input"
    );
}

/// A clip file whose one box slides and turns over a second.
fn moving_clip(dir: &Path) -> PathBuf {
    let path = dir.join("slide.json");
    std::fs::write(
        &path,
        r#"{"name":"slide","duration":1,"tracks":[
            {"name":"crate.position","type":"vector","times":[0,1],"values":[0,0,0, 1.5,0,0]},
            {"name":"crate.quaternion","type":"quaternion","times":[0,1],
             "values":[0,0,0,1, 0,0.7071068,0,0.7071068]},
            {"name":"other.position","type":"vector","times":[0],"values":[0,0,0]}
        ]}"#,
    )
    .unwrap();
    path
}

fn clipscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

#[test]
fn frames_at_different_times_of_a_moving_clip_differ() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = moving_clip(dir.path());
    let out = dir.path().join("frame.png");
    let o = clipscope(&[
        "render",
        clip.to_str().unwrap(),
        "--times",
        "0,0.5,0.5",
        "--size",
        "160x120",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let frame = |i: usize| {
        image::open(dir.path().join(format!("frame_{i:03}.png")))
            .unwrap()
            .to_rgba8()
    };
    let (a, b, c) = (frame(0), frame(1), frame(2));
    assert_eq!(a.dimensions(), (160, 120));
    let changed = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    assert!(
        changed > 200,
        "only {changed} pixels changed between t=0 and t=0.5"
    );
    assert_eq!(b.as_raw(), c.as_raw(), "the same time gives the same frame");
    assert!(!out.exists(), "a sequence writes only numbered files");
}

#[test]
fn cli_writes_a_png_of_the_requested_size() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let out = dir.path().join("walk.png");
    let o = clipscope(&[
        "render",
        demo,
        "--clip",
        "walk",
        "--time",
        "0.25",
        "--size",
        "200x100",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("walk.png"));
    let image = image::open(&out).unwrap();
    assert_eq!((image.width(), image.height()), (200, 100));
    // Nothing but the PNG was left in the folder (the write is atomic via a temp file).
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn cli_errors_are_one_line_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    for args in [
        vec!["render", demo, "--clip", "nope", "-o", out],
        vec!["render", demo, "--size", "0x10", "-o", out],
        vec!["render", "/no/such/file.json", "-o", out],
    ] {
        let o = clipscope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.trim().is_empty(), "{args:?}");
    }
    let o = clipscope(&["render", demo, "--clip", "nope", "-o", out]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no clip named \"nope\""));
    assert!(!Path::new(out).exists());
}

/// Share of pixels that differ by more than 24 in some channel.
pub(crate) fn changed_share(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let changed = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    changed as f64 / (a.width() * a.height()) as f64
}

/// `player`'s figure at each of `times`, drawn 320×240 by one camera (turned `yaw` and tilted
/// `pitch` degrees) framed on every moment together, so the frames line up.
fn play_frames(
    player: &mut clipscope_scene::Player,
    times: &[f64],
    yaw: f32,
    pitch: f32,
) -> Vec<RgbaImage> {
    use clipscope_scene::FigureFrame;
    let frames: Vec<FigureFrame> = times
        .iter()
        .map(|&t| {
            let mut f = FigureFrame::default();
            player.frame_at(t, &mut f);
            f
        })
        .collect();
    let bounds = frames
        .iter()
        .filter_map(|f| Bounds::of_instances(&f.boxes))
        .reduce(Bounds::union)
        .unwrap();
    let mut camera = Camera {
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        ..Camera::default()
    };
    camera.frame_aspect(bounds, 320.0 / 240.0);
    let mut headless = Headless::new().unwrap();
    frames
        .iter()
        .map(|f| {
            headless
                .render(&Frame::boxes(&f.boxes), &camera, 320, 240)
                .unwrap()
        })
        .collect()
}

#[test]
fn the_hero_walking_matches_references_at_several_times() {
    if require_gpu().is_none() {
        return;
    }
    use clipscope_scene::Player;
    use std::sync::Arc;
    let demo = clipscope_core::formats::read_bytes(
        clipscope_core::assets::DEMO_CLIPS,
        Path::new(clipscope_core::assets::DEMO_NAME),
    )
    .unwrap();
    let walk = Arc::new(demo.clips[0].clone());
    let mut player = Player::for_clip(walk);
    assert_eq!(player.figure().name(), "Hero");
    let times = [0.0, 0.25, 0.5, 0.75];
    let images = play_frames(&mut player, &times, 30.0, 12.0);
    for (image, t) in images.iter().zip(times) {
        check_snapshot(&format!("render_hero_{:03}", (t * 100.0) as u32), image);
    }
    // The walk moves the legs and arms: every pair of the frames differs where the limbs are.
    for i in 0..images.len() {
        for j in i + 1..images.len() {
            let share = changed_share(&images[i], &images[j]);
            assert!(
                share > 0.004,
                "t={} and t={} differ in only {:.2}% of pixels",
                times[i],
                times[j],
                share * 100.0
            );
        }
    }
}

/// A small "bird": a diamond body with two wings, plus `extra` targets that each nudge one
/// vertex, and two named targets that raise and lower the wings.
fn bird(extra: usize) -> clipscope_core::model::MorphMesh {
    use clipscope_core::model::{MorphMesh, MorphTarget};
    let base: Vec<[f32; 3]> = vec![
        [0.0, 0.5, 0.8],    // 0 beak
        [0.0, 0.5, -0.8],   // 1 tail
        [0.0, 0.8, 0.0],    // 2 back
        [0.0, 0.25, 0.0],   // 3 belly
        [-0.25, 0.5, 0.0],  // 4 left side
        [0.25, 0.5, 0.0],   // 5 right side
        [-1.2, 0.55, -0.1], // 6 left wing tip
        [1.2, 0.55, -0.1],  // 7 right wing tip
    ];
    let triangles = vec![
        [0, 5, 2],
        [0, 2, 4],
        [0, 3, 5],
        [0, 4, 3],
        [1, 2, 5],
        [1, 4, 2],
        [1, 5, 3],
        [1, 3, 4],
        [4, 6, 2],
        [5, 2, 7],
    ];
    let colours = vec![
        [0.95, 0.55, 0.42],
        [0.93, 0.5, 0.4],
        [0.96, 0.8, 0.65],
        [0.96, 0.78, 0.62],
        [0.95, 0.55, 0.42],
        [0.93, 0.5, 0.4],
        [0.96, 0.8, 0.65],
        [0.96, 0.78, 0.62],
        [0.37, 0.74, 0.69],
        [0.37, 0.74, 0.69],
    ];
    let wings = |dy: f32| {
        let mut v = base.clone();
        v[6][1] += dy;
        v[7][1] += dy;
        v[6][0] *= 0.8;
        v[7][0] *= 0.8;
        v
    };
    let mut targets = vec![
        MorphTarget {
            name: "up".into(),
            vertices: wings(0.9),
        },
        MorphTarget {
            name: "down".into(),
            vertices: wings(-0.5),
        },
    ];
    for k in 0..extra {
        let mut v = base.clone();
        let i = k % base.len();
        v[i][0] += 0.3 * ((k as f32) * 0.7).sin();
        v[i][1] += 0.3 * ((k as f32) * 1.3).cos();
        targets.push(MorphTarget {
            name: format!("nudge_{k:03}"),
            vertices: v,
        });
    }
    MorphMesh {
        name: "bird".into(),
        vertices: base,
        triangles,
        triangle_colours: colours,
        targets,
    }
}

/// The frame of `mesh` with `weights`, drawn the way the viewport draws a morph mesh.
fn render_mesh(
    headless: &mut Headless,
    mesh: clipscope_core::model::MorphMesh,
    weights: &[f32],
    camera: &Camera,
) -> RgbaImage {
    use clipscope_scene::{Figure, FigureFrame, MorphFigure};
    use std::sync::Arc;
    let figure = Figure::Mesh(MorphFigure::new(Arc::new(mesh)));
    let posed = FigureFrame {
        weights: weights.to_vec(),
        ..FigureFrame::default()
    };
    headless
        .render(&Frame::of(&figure, &posed), camera, 320, 240)
        .unwrap()
}

fn bird_camera() -> Camera {
    let mut camera = Camera {
        yaw: 25f32.to_radians(),
        pitch: 20f32.to_radians(),
        ..Camera::default()
    };
    camera.frame_aspect(
        Bounds::new(Vec3::new(-1.3, 0.0, -0.9), Vec3::new(1.3, 1.5, 0.9)),
        320.0 / 240.0,
    );
    camera
}

#[test]
fn a_morph_mesh_flaps_and_matches_references() {
    let Some(mut headless) = require_gpu() else {
        return;
    };
    let camera = bird_camera();
    let rest = render_mesh(&mut headless, bird(0), &[0.0, 0.0], &camera);
    let up = render_mesh(&mut headless, bird(0), &[1.0, 0.0], &camera);
    check_snapshot("render_morph_rest", &rest);
    check_snapshot("render_morph_up", &up);
    assert!(
        changed_share(&rest, &up) > 0.01,
        "raising the wings changes the picture"
    );
}

#[test]
fn gpu_blending_of_sixty_targets_matches_the_cpu_blend() {
    let Some(mut headless) = require_gpu() else {
        return;
    };
    let camera = bird_camera();
    let mesh = bird(60);
    assert_eq!(mesh.targets.len(), 62);
    let weights: Vec<f32> = (0..mesh.targets.len())
        .map(|i| match i {
            0 => 0.6,
            1 => 0.0,
            _ if i % 3 == 0 => 0.0,
            _ => 0.05 + 0.01 * (i % 7) as f32,
        })
        .collect();
    // The same shape blended on the CPU and drawn with no targets at all, at the same place.
    let mut baked = mesh.clone();
    baked.vertices = mesh.blend(&weights);
    baked.targets.clear();
    let draw =
        |headless: &mut Headless, mesh: clipscope_core::model::MorphMesh, weights: &[f32]| {
            let mesh = std::sync::Arc::new(mesh);
            let frame = Frame {
                boxes: &[],
                mesh: Some(clipscope_render::MeshDraw {
                    mesh: &mesh,
                    transform: Mat4::IDENTITY,
                    weights,
                    bounds: Bounds::new(Vec3::new(-1.3, 0.0, -0.9), Vec3::new(1.3, 1.5, 0.9)),
                }),
                ..Frame::default()
            };
            headless.render(&frame, &camera, 320, 240).unwrap()
        };
    let gpu = draw(&mut headless, mesh, &weights);
    let cpu = draw(&mut headless, baked, &[]);
    let share = changed_share(&gpu, &cpu);
    assert!(
        share < 0.002,
        "GPU and CPU blends differ in {:.2}% of pixels",
        share * 100.0
    );
    let rest = draw(&mut headless, bird(60), &[]);
    assert!(
        changed_share(&gpu, &rest) > 0.01,
        "the weights change the shape"
    );
}

#[test]
fn cli_rig_option_picks_what_the_clip_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    let o = clipscope(&["render", demo, "--rig", "cat", "-o", out]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no rig named \"cat\"") && err.contains("Hero") && err.contains("proxy"),
        "{err}"
    );
    if require_gpu().is_none() {
        return;
    }
    let mut images = Vec::new();
    for rig in ["hero", "dog", "proxy"] {
        let path = dir.path().join(format!("{rig}.png"));
        let o = clipscope(&[
            "render",
            demo,
            "--rig",
            rig,
            "--time",
            "0.25",
            "--size",
            "160x120",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.to_lowercase().contains(&format!("on {rig}")),
            "{stdout}"
        );
        images.push(image::open(&path).unwrap().to_rgba8());
    }
    assert!(changed_share(&images[0], &images[1]) > 0.01);
    assert!(changed_share(&images[0], &images[2]) > 0.01);
}

#[test]
fn the_horse_gallops_and_its_gpu_blend_matches_the_cpu() {
    let Some(mut headless) = require_gpu() else {
        return;
    };
    use clipscope_scene::{Figure, FigureFrame, FigureSource, Player};
    use std::sync::Arc;
    let Some(path) = sample_data("threejs/horse.json") else {
        return;
    };
    let doc = clipscope_core::formats::read_file(&path).unwrap();
    let source = FigureSource {
        mesh: doc.mesh.as_ref(),
        ..Default::default()
    };
    let clip = &doc.clips[0];
    let figure = Figure::for_clip(clip, source, None).unwrap();
    let Figure::Mesh(horse) = &figure else {
        panic!("the gallop plays on the horse mesh");
    };
    let mut player = Player::on(Arc::new(clip.clone()), figure.clone());
    let mut camera = Camera {
        yaw: 60f32.to_radians(),
        pitch: 10f32.to_radians(),
        ..Camera::default()
    };
    camera.frame_aspect(Bounds::new(horse.bounds.0, horse.bounds.1), 320.0 / 240.0);
    let mut render_at = |t: f64| {
        let mut posed = FigureFrame::default();
        player.frame_at(t, &mut posed);
        let image = headless
            .render(&Frame::of(&figure, &posed), &camera, 320, 240)
            .unwrap();
        (posed.weights, image)
    };
    let (_, first) = render_at(0.0);
    let (weights, between) = render_at(0.45);
    assert!(
        changed_share(&first, &between) > 0.01,
        "the horse moves between t=0 and t=0.45"
    );
    // The blend of targets 4 and 5 at t=0.45, done on the CPU and drawn with no targets.
    let mut baked = (**doc.mesh.as_ref().unwrap()).clone();
    baked.vertices = baked.blend(&weights);
    baked.targets.clear();
    let baked = Arc::new(baked);
    let cpu = headless
        .render(
            &Frame {
                boxes: &[],
                mesh: Some(clipscope_render::MeshDraw {
                    mesh: &baked,
                    transform: horse.transform,
                    weights: &[],
                    bounds: Bounds::new(horse.bounds.0, horse.bounds.1),
                }),
                ..Frame::default()
            },
            &camera,
            320,
            240,
        )
        .unwrap();
    let share = changed_share(&between, &cpu);
    assert!(
        share < 0.002,
        "GPU and CPU blends of the horse differ in {:.2}% of pixels",
        share * 100.0
    );
}

/// The baked Hero run plays on the block Hero (its zero-size `body` group draws nothing): two
/// moments of the stride against references, and the feet really move between them.
#[test]
fn the_baked_hero_run_matches_references() {
    if require_gpu().is_none() {
        return;
    }
    use clipscope_scene::Player;
    use clipscope_scene::procedural::{BakeOptions, Cycle};
    use std::sync::Arc;
    let cycle = Cycle::builtin("hero-run").unwrap();
    let clip = cycle
        .bake(&cycle.defaults(), &BakeOptions::default())
        .unwrap()
        .clip;
    let mut player = Player::for_clip(Arc::new(clip));
    assert_eq!(player.figure().name(), "BlockHero");
    let times = [0.1, 0.5];
    let images = play_frames(&mut player, &times, 70.0, 10.0);
    for (image, t) in images.iter().zip(times) {
        check_snapshot(
            &format!("render_block_hero_run_{:03}", (t * 100.0) as u32),
            image,
        );
    }
    let share = changed_share(&images[0], &images[1]);
    assert!(
        share > 0.004,
        "the stride moves {:.2}% of pixels",
        share * 100.0
    );
}

/// Renders `file` (a shared sample) at `time` through the CLI into a 320×240 picture.
fn render_sample(file: &str, time: &str, extra: &[&str]) -> Option<RgbaImage> {
    let path = sample_data(file)?;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("frame.png");
    let mut args = vec![
        "render",
        path.to_str().unwrap(),
        "--time",
        time,
        "--size",
        "320x240",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = clipscope(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(image::open(&out).unwrap().to_rgba8())
}

/// The Playbot's Biped-named idle plays on a humanoid built from its names.
#[test]
fn a_biped_named_clip_stands_as_a_humanoid_like_the_reference() {
    if require_gpu().is_none() {
        return;
    }
    let Some(image) = render_sample("playcanvas/playbot-idle.json", "0.5", &[]) else {
        return;
    };
    check_snapshot("render_playbot_idle_humanoid", &image);
}

/// A Lottie composition plays front-on and flat by default: the card, the solids in their
/// colours at their sizes; `--view 3d` looks at it from the side.
#[test]
fn a_lottie_composition_front_on_matches_the_reference() {
    if require_gpu().is_none() {
        return;
    }
    let Some(front) = render_sample("lottie/dalek.json", "1", &[]) else {
        return;
    };
    check_snapshot("render_lottie_dalek_front", &front);
    let side = render_sample("lottie/dalek.json", "1", &["--view", "3d"]).unwrap();
    assert!(
        changed_share(&front, &side) > 0.2,
        "the 3D view looks different"
    );
}
