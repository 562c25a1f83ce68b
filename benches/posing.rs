//! 1,000 Hero characters (issue 4), each playing the demo walk with its own mixer, action and
//! phase. Per frame: every mixer updates by 1/60 s, every pose becomes boxes by forward
//! kinematics (`Rig::instances`, all into one reused buffer), and (with the `gui` feature) the
//! boxes are uploaded to the GPU (`InstanceBuffer::upload` on a headless device's queue, then an
//! empty submit that flushes the write). The budget is 1 ms of CPU per frame for all 1,000.
//!
//! * `posing/1000_heroes_instances` — `instances()` alone, from 1,000 poses made once (the
//!   demo walk at 1,000 phases);
//! * `posing/1000_heroes_mixer_update` — `Mixer::update(1/60)` on each of the 1,000 mixers;
//! * `posing/1000_heroes_frame` — both: update every mixer, then pose every character;
//! * `posing/1000_heroes_upload` (`gui`) — the 17,000 boxes through `InstanceBuffer::upload`
//!   and `Queue::submit`;
//! * `posing/1000_heroes_frame_with_upload` (`gui`) — the whole CPU frame.
//!
//! Everything runs on one thread. After criterion's figures (wall time), the frame is split once
//! more, as the mean of 1,000 frames, in wall time and in this thread's CPU time
//! (`/proc/thread-self/schedstat`), which a busy machine does not inflate. Run with
//! `cargo bench --bench posing` (the upload needs a GPU adapter, or Mesa's lavapipe; without
//! one it is skipped with a note), or without the GPU part
//! `cargo bench --no-default-features --bench posing`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::model::Clip;
use clipscope_core::playback::{Mixer, Pose};
use clipscope_core::{assets, formats};
use clipscope_scene::{BoxInstance, Rig};

/// How many characters are posed per frame.
const CHARACTERS: usize = 1_000;

/// The frame step.
const DT: f64 = 1.0 / 60.0;

/// The demo walk.
fn walk() -> Arc<Clip> {
    let demo = formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME))
        .expect("the demo clips");
    Arc::new(demo.clips.into_iter().next().expect("the walk clip"))
}

/// One mixer per character, each playing its own action of the walk (repeating) at its own
/// phase. The poses are clones of one rest pose, so they share its layout (names, slots, rest
/// values) and each holds only its own values.
fn crowd(hero: &Rig, walk: &Arc<Clip>) -> Vec<Mixer> {
    let rest = hero.rest_pose();
    (0..CHARACTERS)
        .map(|i| {
            let mut mixer = Mixer::new(rest.clone());
            let id = mixer.clip_action(walk);
            mixer.action_mut(id).play();
            mixer.set_time(i as f64 * walk.duration / CHARACTERS as f64);
            mixer
        })
        .collect()
}

/// The Hero's pose at `CHARACTERS` phases of the demo walk.
fn poses(hero: &Rig, walk: &Arc<Clip>) -> Vec<Pose> {
    let mut mixer = Mixer::new(hero.rest_pose());
    let id = mixer.clip_action(walk);
    mixer.action_mut(id).play();
    (0..CHARACTERS)
        .map(|i| {
            mixer.set_time(i as f64 * walk.duration / CHARACTERS as f64);
            mixer.pose().clone()
        })
        .collect()
}

/// Advances every character by one frame.
fn update(mixers: &mut [Mixer]) {
    for mixer in mixers {
        black_box(mixer.update(DT));
    }
}

/// Poses every character into `out` (cleared first).
fn pose_all(hero: &Rig, mixers: &[Mixer], out: &mut Vec<BoxInstance>) {
    out.clear();
    for mixer in mixers {
        hero.instances(mixer.pose(), out);
    }
}

fn posing(c: &mut Criterion) {
    let hero = Rig::builtin("hero").expect("the Hero rig");
    let walk = walk();
    let poses = poses(hero, &walk);
    let mut out: Vec<BoxInstance> = Vec::with_capacity(CHARACTERS * hero.parts.len());
    let mut group = c.benchmark_group("posing");
    group.bench_function("1000_heroes_instances", |b| {
        b.iter(|| {
            out.clear();
            for pose in &poses {
                hero.instances(black_box(pose), &mut out);
            }
            black_box(out.len())
        })
    });

    let mut mixers = crowd(hero, &walk);
    group.bench_function("1000_heroes_mixer_update", |b| {
        b.iter(|| update(&mut mixers))
    });
    group.bench_function("1000_heroes_frame", |b| {
        b.iter(|| {
            update(&mut mixers);
            pose_all(hero, &mixers, &mut out);
            black_box(out.len())
        })
    });
    pose_all(hero, &mixers, &mut out);
    assert_eq!(out.len(), CHARACTERS * hero.parts.len());

    let mut gpu = Gpu::new();
    if let Some(gpu) = gpu.as_mut() {
        group.bench_function("1000_heroes_upload", |b| b.iter(|| gpu.upload(&out)));
        group.bench_function("1000_heroes_frame_with_upload", |b| {
            b.iter(|| {
                update(&mut mixers);
                pose_all(hero, &mixers, &mut out);
                gpu.upload(&out)
            })
        });
    }
    group.finish();
    cpu_report(hero, &mut mixers, &mut out, gpu.as_mut());
}

/// This thread's CPU time in nanoseconds (`/proc/thread-self/schedstat`; Linux only).
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Mean wall-clock and thread-CPU milliseconds of `runs` calls of `f`.
fn timed(runs: usize, mut f: impl FnMut()) -> (f64, Option<f64>) {
    let cpu = thread_cpu_ns();
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let wall = start.elapsed().as_secs_f64() * 1e3 / runs as f64;
    let cpu = cpu
        .zip(thread_cpu_ns())
        .map(|(a, b)| (b - a) as f64 / 1e6 / runs as f64);
    (wall, cpu)
}

/// Prints the frame split as wall time and as this thread's CPU time (criterion measures wall
/// time, which on a busy machine also counts the time other processes had the core).
fn cpu_report(hero: &Rig, mixers: &mut [Mixer], out: &mut Vec<BoxInstance>, gpu: Option<&mut Gpu>) {
    const RUNS: usize = 1_000;
    eprintln!("1,000 Heroes per frame, mean of {RUNS} frames on one thread (wall / thread CPU):");
    let line = |what: &str, (wall, cpu): (f64, Option<f64>)| {
        let cpu = cpu.map_or("n/a".to_string(), |c| format!("{c:.3} ms"));
        eprintln!("  {what:<30} {wall:.3} ms / {cpu}");
    };
    line("mixer update", timed(RUNS, || update(mixers)));
    line("instances", timed(RUNS, || pose_all(hero, mixers, out)));
    match gpu {
        Some(gpu) => {
            line(
                "upload",
                timed(RUNS, || {
                    gpu.upload(out);
                }),
            );
            line(
                "whole frame",
                timed(RUNS, || {
                    update(mixers);
                    pose_all(hero, mixers, out);
                    gpu.upload(out);
                }),
            );
        }
        None => line(
            "whole frame (without upload)",
            timed(RUNS, || {
                update(mixers);
                pose_all(hero, mixers, out);
            }),
        ),
    }
}

/// The GPU side: a headless device and the instance buffer the boxes go to.
#[cfg(feature = "gui")]
struct Gpu {
    headless: clipscope_render::Headless,
    buffer: clipscope_render::InstanceBuffer,
}

#[cfg(feature = "gui")]
impl Gpu {
    /// A headless device, or `None` (with a note) without a GPU adapter.
    fn new() -> Option<Gpu> {
        use clipscope_render::{Headless, check_adapter};
        match Headless::new() {
            Ok(headless) => {
                eprintln!("upload to {}", check_adapter().unwrap_or_default());
                let buffer = clipscope_render::InstanceBuffer::new(headless.device());
                Some(Gpu { headless, buffer })
            }
            Err(e) => {
                eprintln!("posing/1000_heroes_upload skipped: {e}");
                None
            }
        }
    }

    /// Uploads the boxes and submits, which starts the transfer (as a frame's submit does); then
    /// lets finished submissions hand their staging memory back.
    fn upload(&mut self, out: &[BoxInstance]) -> u32 {
        let (device, queue) = (self.headless.device(), self.headless.queue());
        let n = self.buffer.upload(device, queue, out);
        queue.submit([]);
        let _ = device.poll(wgpu::PollType::Poll);
        black_box(n)
    }
}

#[cfg(feature = "gui")]
impl Drop for Gpu {
    fn drop(&mut self) {
        let _ = self
            .headless
            .device()
            .poll(wgpu::PollType::wait_indefinitely());
    }
}

/// Without the `gui` feature there is no GPU side.
#[cfg(not(feature = "gui"))]
struct Gpu;

#[cfg(not(feature = "gui"))]
impl Gpu {
    fn new() -> Option<Gpu> {
        eprintln!("posing/1000_heroes_upload skipped: needs the gui feature");
        None
    }

    fn upload(&mut self, _: &[BoxInstance]) -> u32 {
        0
    }
}

criterion_group!(benches, posing);
criterion_main!(benches);
