//! Posing 1,000 Hero characters (issue 4): forward kinematics from each character's own pose to
//! the boxes the renderer uploads, `Rig::instances` for all of them into one reused buffer.
//!
//! The poses are the demo walk sampled at 1,000 different phases (made once, outside the
//! measurement); the budget is 1 ms per frame of CPU. Run with `cargo bench --bench posing`
//! (no `gui` feature needed: `cargo bench --no-default-features --bench posing`).

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope::playback::{Mixer, Pose};
use clipscope::scene::{BoxInstance, Rig};
use clipscope::{assets, formats};

/// How many characters are posed per frame.
const CHARACTERS: usize = 1_000;

/// The Hero's pose at `CHARACTERS` phases of the demo walk.
fn poses(hero: &Rig) -> Vec<Pose> {
    let demo = formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME))
        .expect("the demo clips");
    let walk = Arc::new(demo.clips.into_iter().next().expect("the walk clip"));
    let mut mixer = Mixer::new(hero.rest_pose());
    let id = mixer.clip_action(&walk);
    mixer.action_mut(id).play();
    (0..CHARACTERS)
        .map(|i| {
            mixer.set_time(i as f64 * walk.duration / CHARACTERS as f64);
            mixer.pose().clone()
        })
        .collect()
}

/// `instances()` for 1,000 Heroes per iteration.
fn posing(c: &mut Criterion) {
    let hero = Rig::builtin("hero").expect("the Hero rig");
    let poses = poses(hero);
    let mut out: Vec<BoxInstance> = Vec::with_capacity(CHARACTERS * hero.parts.len());
    c.bench_function("posing/1000_heroes_instances", |b| {
        b.iter(|| {
            out.clear();
            for pose in &poses {
                hero.instances(black_box(pose), &mut out);
            }
            black_box(out.len())
        })
    });
}

criterion_group!(benches, posing);
criterion_main!(benches);
