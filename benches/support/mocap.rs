//! A synthetic motion-capture take for the reduction benchmark and tests: a 22-joint humanoid
//! with real proportions in metres (Y up, facing +Z) laid out like a Mixamo export, with five
//! static end bones (`HeadTop_End` 18 cm above the head, the hands' and toes' ends), walking
//! with a realistic gait at 30 fps, plus what capture adds: jitter of 0.2–0.5° at 3–12 Hz on
//! every joint and a slow drift. One quaternion track per joint and the hips' position, a key on
//! every frame; the end bones have no tracks.
//!
//! Deterministic: the same seconds and seed give the same take.

use clipscope_core::formats::{Document, Format};
use clipscope_core::model::{Bone, Clip, Skeleton, Track, TrackKind};

/// The joints: name, parent, rest offset from the parent in metres.
pub const JOINTS: [(&str, Option<usize>, [f32; 3]); 22] = [
    ("Hips", None, [0.0, 0.95, 0.0]),
    ("Spine", Some(0), [0.0, 0.10, 0.0]),
    ("Spine1", Some(1), [0.0, 0.12, 0.0]),
    ("Spine2", Some(2), [0.0, 0.12, 0.0]),
    ("Neck", Some(3), [0.0, 0.15, 0.0]),
    ("Head", Some(4), [0.0, 0.10, 0.0]),
    ("LeftShoulder", Some(3), [0.05, 0.10, 0.0]),
    ("LeftArm", Some(6), [0.12, 0.0, 0.0]),
    ("LeftForeArm", Some(7), [0.28, 0.0, 0.0]),
    ("LeftHand", Some(8), [0.25, 0.0, 0.0]),
    ("RightShoulder", Some(3), [-0.05, 0.10, 0.0]),
    ("RightArm", Some(10), [-0.12, 0.0, 0.0]),
    ("RightForeArm", Some(11), [-0.28, 0.0, 0.0]),
    ("RightHand", Some(12), [-0.25, 0.0, 0.0]),
    ("LeftUpLeg", Some(0), [0.09, -0.05, 0.0]),
    ("LeftLeg", Some(14), [0.0, -0.42, 0.0]),
    ("LeftFoot", Some(15), [0.0, -0.42, 0.0]),
    ("LeftToeBase", Some(16), [0.0, -0.06, 0.12]),
    ("RightUpLeg", Some(0), [-0.09, -0.05, 0.0]),
    ("RightLeg", Some(18), [0.0, -0.42, 0.0]),
    ("RightFoot", Some(19), [0.0, -0.42, 0.0]),
    ("RightToeBase", Some(20), [0.0, -0.06, 0.12]),
];

/// The static end bones: name, parent joint, offset from it in metres.
pub const END_BONES: [(&str, usize, [f32; 3]); 5] = [
    ("HeadTop_End", 5, [0.0, 0.18, 0.0]),
    ("LeftHand_End", 9, [0.18, 0.0, 0.0]),
    ("RightHand_End", 13, [-0.18, 0.0, 0.0]),
    ("LeftToe_End", 17, [0.0, 0.0, 0.08]),
    ("RightToe_End", 21, [0.0, 0.0, 0.08]),
];

/// Frames per second of the take.
pub const FPS: f64 = 30.0;

/// Walk cycles per second (a stride of about 1.1 s).
const CYCLES_PER_SECOND: f64 = 0.9;

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// Capture noise on one axis: a few sines of 3–12 Hz whose amplitudes add up to 0.2–0.5°, plus
/// a drift of under 2° below 0.2 Hz.
struct Wobble {
    waves: Vec<(f64, f64, f64)>,
}

impl Wobble {
    fn new(rng: &mut Lcg) -> Wobble {
        let total = rng.range(0.2, 0.5).to_radians();
        let mut waves = Vec::new();
        for i in 0..3 {
            let share = [0.5, 0.3, 0.2][i];
            waves.push((
                total * share,
                rng.range(3.0, 12.0),
                rng.range(0.0, std::f64::consts::TAU),
            ));
        }
        waves.push((
            rng.range(0.5, 2.0).to_radians(),
            rng.range(0.03, 0.2),
            rng.range(0.0, std::f64::consts::TAU),
        ));
        Wobble { waves }
    }

    fn at(&self, t: f64) -> f64 {
        self.waves
            .iter()
            .map(|(a, f, p)| a * (std::f64::consts::TAU * f * t + p).sin())
            .sum()
    }
}

/// The walk's Euler angles (x, y, z in radians, XYZ order) of joint `j` at phase `w` (radians).
fn gait(j: usize, w: f64) -> [f64; 3] {
    let d = f64::to_radians;
    let s = w.sin();
    let c = w.cos();
    match JOINTS[j].0 {
        "Hips" => [d(3.0) * (2.0 * w).sin(), d(6.0) * s, d(3.0) * c],
        "Spine" => [d(2.0), d(-3.0) * s, d(-1.5) * c],
        "Spine1" => [d(1.0), d(-2.0) * s, 0.0],
        "Spine2" => [0.0, d(-1.5) * s, 0.0],
        "Neck" => [d(-2.0) * (2.0 * w).sin(), d(2.0) * s, 0.0],
        "Head" => [d(3.0) + d(2.0) * (2.0 * w).cos(), d(3.0) * s, 0.0],
        "LeftShoulder" => [0.0, 0.0, d(-3.0) + d(2.0) * c],
        "RightShoulder" => [0.0, 0.0, d(3.0) - d(2.0) * c],
        "LeftArm" => [d(20.0) * s, 0.0, d(-70.0)],
        "RightArm" => [d(-20.0) * s, 0.0, d(70.0)],
        "LeftForeArm" => [0.0, d(-20.0) - d(12.0) * (s + 1.0), 0.0],
        "RightForeArm" => [0.0, d(20.0) + d(12.0) * (1.0 - s), 0.0],
        "LeftHand" => [d(5.0) * c, 0.0, d(5.0)],
        "RightHand" => [d(-5.0) * c, 0.0, d(-5.0)],
        "LeftUpLeg" => [d(-25.0) * s, 0.0, d(2.0)],
        "RightUpLeg" => [d(25.0) * s, 0.0, d(-2.0)],
        "LeftLeg" => [
            d(5.0) + d(55.0) * (w - 0.6).sin().max(0.0).powf(1.5),
            0.0,
            0.0,
        ],
        "RightLeg" => [
            d(5.0) + d(55.0) * (w + 2.54).sin().max(0.0).powf(1.5),
            0.0,
            0.0,
        ],
        "LeftFoot" => [d(-15.0) * (w + 0.9).sin(), 0.0, 0.0],
        "RightFoot" => [d(15.0) * (w + 0.9).sin(), 0.0, 0.0],
        "LeftToeBase" => [d(20.0) * (w + 1.8).sin().max(0.0), 0.0, 0.0],
        "RightToeBase" => [d(20.0) * (w + 4.94).sin().max(0.0), 0.0, 0.0],
        _ => [0.0; 3],
    }
}

/// three.js's `Quaternion.setFromEuler` for the XYZ order.
fn quaternion_xyz([x, y, z]: [f64; 3]) -> [f64; 4] {
    let (s1, c1) = (x / 2.0).sin_cos();
    let (s2, c2) = (y / 2.0).sin_cos();
    let (s3, c3) = (z / 2.0).sin_cos();
    [
        s1 * c2 * c3 + c1 * s2 * s3,
        c1 * s2 * c3 - s1 * c2 * s3,
        c1 * c2 * s3 + s1 * s2 * c3,
        c1 * c2 * c3 - s1 * s2 * s3,
    ]
}

/// The skeleton: every joint and end bone at its rest offset, no rest rotation.
pub fn skeleton() -> Skeleton {
    let joints = JOINTS
        .iter()
        .map(|&(name, parent, position)| (name, parent, position));
    let ends = END_BONES
        .iter()
        .map(|&(name, parent, position)| (name, Some(parent), position));
    Skeleton {
        bones: joints
            .chain(ends)
            .map(|(name, parent, position)| {
                let mut b = Bone::new(name, parent);
                b.position = position;
                b
            })
            .collect(),
    }
}

/// The take: `seconds` of walking at 30 fps, capture noise from `seed`.
pub fn take(seconds: f64, seed: u64) -> Clip {
    let frames = (seconds * FPS).round() as usize + 1;
    let times: Vec<f32> = (0..frames).map(|f| (f as f64 / FPS) as f32).collect();
    let mut rng = Lcg(seed);
    let mut tracks = Vec::with_capacity(JOINTS.len() + 1);
    // The hips travel forward and bob, with a millimetre of capture noise.
    let noise: Vec<Wobble> = (0..3).map(|_| Wobble::new(&mut rng)).collect();
    let mut position = Vec::with_capacity(frames * 3);
    for &t in &times {
        let t = t as f64;
        let w = std::f64::consts::TAU * CYCLES_PER_SECOND * t;
        position.extend([
            (0.02 * w.sin() + noise[0].at(t) * 0.1) as f32,
            (0.95 + 0.025 * (2.0 * w).cos() + noise[1].at(t) * 0.1) as f32,
            (1.3 * t + 0.03 * (2.0 * w).sin() + noise[2].at(t) * 0.1) as f32,
        ]);
    }
    tracks.push(Track::numeric(
        "Hips.position",
        TrackKind::Vector,
        times.clone(),
        position,
    ));
    for (j, &(name, _, _)) in JOINTS.iter().enumerate() {
        let wobble: Vec<Wobble> = (0..3).map(|_| Wobble::new(&mut rng)).collect();
        let mut values = Vec::with_capacity(frames * 4);
        for &t in &times {
            let t = t as f64;
            let w = std::f64::consts::TAU * CYCLES_PER_SECOND * t;
            let e = gait(j, w);
            let q = quaternion_xyz([
                e[0] + wobble[0].at(t),
                e[1] + wobble[1].at(t),
                e[2] + wobble[2].at(t),
            ]);
            values.extend(q.map(|v| v as f32));
        }
        tracks.push(Track::numeric(
            format!("{name}.quaternion"),
            TrackKind::Quaternion,
            times.clone(),
            values,
        ));
    }
    Clip::new("walk", times.last().copied().unwrap_or(0.0) as f64, tracks)
}

/// The take as a glTF document (its skeleton becomes the node tree when written).
pub fn document(seconds: f64, seed: u64, format: Format) -> Document {
    let mut doc = Document::new(format, vec![take(seconds, seed)]);
    doc.skeleton = Some(skeleton());
    doc
}
