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
//! Everything runs on one thread. Run with `cargo bench --bench posing` (the upload needs a GPU
//! adapter, or Mesa's lavapipe; without one it is skipped with a note), or without the GPU part
//! `cargo bench --no-default-features --bench posing`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope::model::Clip;
use clipscope::playback::{Mixer, Pose};
use clipscope::scene::{BoxInstance, Rig};
use clipscope::{assets, formats};

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

    #[cfg(feature = "gui")]
    upload::bench(&mut group, hero, &mut mixers, &mut out);
    group.finish();
}

#[cfg(feature = "gui")]
mod upload {
    use super::*;
    use clipscope::render::InstanceBuffer;
    use clipscope::render::headless::Headless;
    use criterion::measurement::WallTime;

    /// The upload and the whole frame, on a headless device (skipped without a GPU adapter).
    pub fn bench(
        group: &mut criterion::BenchmarkGroup<'_, WallTime>,
        hero: &Rig,
        mixers: &mut [Mixer],
        out: &mut Vec<BoxInstance>,
    ) {
        let headless = match Headless::new() {
            Ok(h) => h,
            Err(e) => {
                eprintln!("posing/1000_heroes_upload skipped: {e}");
                return;
            }
        };
        eprintln!(
            "upload to {}",
            clipscope::render::headless::check_adapter().unwrap_or_default()
        );
        let (device, queue) = (headless.device(), headless.queue());
        let mut buffer = InstanceBuffer::new(device);
        let mut upload = |out: &[BoxInstance]| {
            let n = buffer.upload(device, queue, out);
            queue.submit([]);
            // Let finished submissions hand their staging memory back, as a frame loop does.
            let _ = device.poll(wgpu::PollType::Poll);
            black_box(n)
        };
        pose_all(hero, mixers, out);
        group.bench_function("1000_heroes_upload", |b| b.iter(|| upload(out)));
        group.bench_function("1000_heroes_frame_with_upload", |b| {
            b.iter(|| {
                update(mixers);
                pose_all(hero, mixers, out);
                upload(out)
            })
        });
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    }
}

criterion_group!(benches, posing);
criterion_main!(benches);
