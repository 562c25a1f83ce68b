//! The clip diff (issue 27): `formats::diff_documents` between two versions of a synthetic
//! motion-capture take (`support/mocap.rs`: a 22-joint humanoid at 30 fps, a key on every frame)
//! whose second version turns one joint (the left forearm) by 5° over its second half, the way a
//! reviewer's pull request does: with the skeleton (each joint's world-space move, every joint
//! sampled at every key time and midpoint) and without it; and a re-export that changes nothing
//! (every track compared, none listed). Each step is linear in the keys, so the 10-minute take
//! (20× the keys of the 30-second one) should take about 20× as long.
#![allow(clippy::unwrap_used)] // bench code: a panic is the failure message

use clipscope_core::formats::{self, Document, Format};
use clipscope_core::model::Values;
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "support/mocap.rs"]
#[allow(dead_code)]
mod mocap;

/// The take of `seconds` and a version whose left forearm turns 5° further about x over the
/// second half.
fn versions(seconds: f64) -> (Document, Document) {
    let old = mocap::document(seconds, 7, Format::Glb);
    let mut new = old.clone();
    let clip = &mut new.clips[0];
    let track = clip
        .tracks
        .iter_mut()
        .find(|t| t.name.contains("LeftForeArm") && t.name.ends_with("quaternion"))
        .unwrap();
    let half = (seconds / 2.0) as f32;
    let (s, c) = (2.5f32.to_radians().sin(), 2.5f32.to_radians().cos());
    let times = track.times.clone();
    if let Values::Numbers(v) = &mut track.values {
        for (q, t) in v.chunks_exact_mut(4).zip(times) {
            if t >= half {
                let [x, y, z, w] = [q[0], q[1], q[2], q[3]];
                q.copy_from_slice(&[c * x + s * w, c * y - s * z, c * z + s * y, c * w - s * x]);
            }
        }
    }
    (old, new)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    for seconds in [30.0, 600.0] {
        let (old, new) = versions(seconds);
        let keys = old.clips[0].key_count();
        let skeleton = old.skeleton.clone();
        let diff = formats::diff_documents(&old, &new, None, 0.0);
        assert_eq!(diff.clips[0].tracks.len(), 1, "one track changed");
        eprintln!("diff: {seconds} s take, {keys} keys per version");
        group.bench_function(format!("{seconds}s take, skeleton"), |b| {
            b.iter(|| formats::diff_documents(&old, &new, skeleton.as_ref(), 0.0))
        });
        let mut bare = (old.clone(), new.clone());
        bare.0.skeleton = None;
        bare.1.skeleton = None;
        group.bench_function(format!("{seconds}s take, tracks only"), |b| {
            b.iter(|| formats::diff_documents(&bare.0, &bare.1, None, 0.0))
        });
        group.bench_function(format!("{seconds}s take, unchanged"), |b| {
            b.iter(|| formats::diff_documents(&bare.0, &bare.0, None, 0.0))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
