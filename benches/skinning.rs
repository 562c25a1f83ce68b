//! Cost of a skinned character per frame (issue 25): a generated glTF character
//! (`support/character.rs`, `bench_spec`) of 49,920 vertices on 60 joints, four influences per
//! vertex, playing its take on its own model ([`Figure::Model`]). The whole editor's frame with
//! this character playing is `editor/skinned_character_playing` in `benches/ui_frame.rs`.
//!
//! * `skinning/cpu_frame` — what the CPU does per frame: the mixer's update, forward kinematics
//!   of the 60 joints, the joint palettes (`jointWorld · inverseBind`) and the posed bounds
//!   (`Player::frame_at` then `Frame::of(…).bounds()`). Nothing per vertex.
//! * `skinning/cpu_reference` — for comparison, skinning every vertex on the CPU
//!   (`Model::posed`, the reference the tests use), which the GPU does instead.
//! * `skinning/gpu_frame` (`gui`) — one whole frame on the GPU device the machine has (Mesa's
//!   lavapipe software renderer here): palettes uploaded, shadow and main passes with every
//!   vertex skinned in the vertex shader, 960×540 with 4× multisampling, waited for.
//! * `skinning/gpu_frame_bones` (`gui`) — the same frame drawn as bones only (the skeleton
//!   rig), the cost the viewport had before meshes were drawn.
//!
//! Run with `cargo bench --bench skinning` (the GPU part needs an adapter, or lavapipe; without
//! one it is skipped with a note), or without it `cargo bench --no-default-features --bench
//! skinning`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

#[path = "support/character.rs"]
mod character;

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats;
use clipscope_core::model::Model;
use clipscope_scene::{Figure, FigureFrame, FigureSource, Player};

/// The frame step.
const DT: f64 = 1.0 / 60.0;

/// The character read as clipscope reads a file: its model and the player of its take.
fn character() -> (Arc<Model>, Player, f64) {
    let bytes = character::gltf(&character::bench_spec());
    let doc = formats::read_bytes(&bytes, Path::new("character.gltf")).unwrap();
    let model = doc.model.clone().unwrap();
    let source = FigureSource {
        model: doc.model.as_ref(),
        skeleton: doc.skeleton.as_ref(),
        file_name: Some("character.gltf"),
        ..FigureSource::default()
    };
    let clip = Arc::new(doc.clips[0].clone());
    let figure = Figure::for_clip(&clip, source, None).unwrap();
    assert!(matches!(figure, Figure::Model(_)));
    eprintln!(
        "character: {} vertices, {} triangles, {} joints",
        model.vertex_count(),
        model.triangle_count(),
        model.skins.iter().map(|s| s.joints.len()).sum::<usize>()
    );
    let duration = clip.duration;
    (model, Player::on(clip, figure), duration)
}

fn bench(c: &mut Criterion) {
    let (model, mut player, duration) = character();
    let mut group = c.benchmark_group("skinning");
    let mut frame = FigureFrame::default();
    let mut t = 0.0;
    group.bench_function("cpu_frame", |b| {
        b.iter(|| {
            t = (t + DT) % duration;
            player.frame_at(t, &mut frame);
            let bounds = frame_bounds(player.figure(), &frame);
            black_box((&frame, bounds));
        });
    });
    let world = model.rest_world();
    group.sample_size(20);
    group.bench_function("cpu_reference", |b| {
        b.iter(|| black_box(model.posed(&world, |_| &[])));
    });
    #[cfg(feature = "gui")]
    gpu::bench(&mut group, &mut player, duration);
    group.finish();
}

/// The bounds the viewport frames and follows each frame.
fn frame_bounds(figure: &Figure, frame: &FigureFrame) -> Option<(glam::Vec3, glam::Vec3)> {
    match figure {
        Figure::Model(m) => m.bounds(frame),
        _ => None,
    }
}

#[cfg(feature = "gui")]
mod gpu {
    use super::*;
    use clipscope_render::{Bounds, Camera, Frame, Headless};
    use criterion::measurement::WallTime;

    /// The GPU cases, skipped with a note without an adapter.
    pub fn bench(
        group: &mut criterion::BenchmarkGroup<'_, WallTime>,
        player: &mut Player,
        duration: f64,
    ) {
        let mut headless = match Headless::new() {
            Ok(h) => h,
            Err(e) => {
                eprintln!("skinning/gpu_frame skipped: {e}");
                return;
            }
        };
        let (device, queue) = (headless.device().clone(), headless.queue().clone());
        let mut camera = Camera::default();
        let mut frame = FigureFrame::default();
        player.frame_at(0.0, &mut frame);
        if let Some(b) = Frame::of(player.figure(), &frame).bounds() {
            camera.frame_aspect(b, 960.0 / 540.0);
        }
        let mut t = 0.0;
        group.bench_function("gpu_frame", |b| {
            b.iter(|| {
                t = (t + DT) % duration;
                player.frame_at(t, &mut frame);
                let renderer = headless.renderer(960, 540);
                renderer.render(
                    &device,
                    &queue,
                    &camera,
                    &Frame::of(player.figure(), &frame),
                );
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
            });
        });
        let bones = player.rig().cloned().unwrap();
        let mut boxes = Vec::new();
        group.bench_function("gpu_frame_bones", |b| {
            b.iter(|| {
                t = (t + DT) % duration;
                player.frame_at(t, &mut frame);
                boxes.clear();
                bones.instances(player.pose_at(t), &mut boxes);
                let bounds = Bounds::of_instances(&boxes);
                let renderer = headless.renderer(960, 540);
                renderer.render(&device, &queue, &camera, &Frame::boxes(&boxes));
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                black_box(bounds);
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
