//! The benchmark clip: 23 joints × 6214 frames at 30 fps, a position, a quaternion and a scale
//! track per joint, like a long motion-capture take exported from Blender (~13 MB of JSON).
//!
//! The values are made deterministically: the root walks forward and bobs, every joint rotates
//! with a smooth swing plus a little capture noise, limb positions hold still for long stretches
//! (so `optimize` has constant runs to drop), and scales stay at 1.

use std::fmt::Write as _;

/// Joints in the take.
pub const JOINTS: usize = 23;
/// Frames in the take.
pub const FRAMES: usize = 6214;
/// Frames per second.
pub const FPS: f64 = 30.0;

/// A tiny deterministic generator (64-bit LCG) for the capture noise.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) - 0.5
    }
}

/// Shortest text of an f32 (what a compact exporter writes).
fn num(out: &mut String, x: f64) {
    let v = x as f32;
    if v == v.trunc() && v.abs() < 1e9 {
        let _ = write!(out, "{}", v as i64);
    } else {
        let mut b = ryu::Buffer::new();
        out.push_str(b.format(v));
    }
}

fn array(out: &mut String, values: impl Iterator<Item = f64>) {
    out.push('[');
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(',');
        }
        num(out, v);
    }
    out.push(']');
}

/// The clip as three.js JSON text (one `AnimationClip.toJSON` object).
pub fn json() -> String {
    let mut noise = Noise(0x5eed);
    let mut out = String::with_capacity(14 << 20);
    out.push_str(r#"{"name":"mocap_take_01","duration":"#);
    num(&mut out, (FRAMES - 1) as f64 / FPS);
    out.push_str(r#","tracks":["#);
    let times: Vec<f64> = (0..FRAMES).map(|f| f as f64 / FPS).collect();
    for j in 0..JOINTS {
        let bone = format!("joint_{j:02}");
        if j > 0 {
            out.push(',');
        }
        // Position: the root travels; limbs hold still with an occasional nudge.
        let _ = write!(out, r#"{{"name":".bones[{bone}].position","times":"#);
        array(&mut out, times.iter().copied());
        out.push_str(r#","values":"#);
        let mut pos = Vec::with_capacity(FRAMES * 3);
        for (f, &t) in times.iter().enumerate() {
            if j == 0 {
                pos.extend([
                    0.02 * (t * 0.7).sin(),
                    0.95 + 0.03 * (t * 11.0).sin().abs(),
                    1.2 * t,
                ]);
            } else {
                let step = (f / 240) as f64; // holds for 8 s, then moves a little
                pos.extend([0.1 * j as f64, 0.25 + 0.001 * step, 0.05 * ((j % 3) as f64)]);
            }
        }
        array(&mut out, pos.into_iter());
        out.push_str(r#","type":"vector"},"#);
        // Quaternion: a swing about a joint-specific axis, normalised, with capture noise.
        let _ = write!(out, r#"{{"name":".bones[{bone}].quaternion","times":"#);
        array(&mut out, times.iter().copied());
        out.push_str(r#","values":"#);
        let mut rot = Vec::with_capacity(FRAMES * 4);
        let axis = [(j as f64 * 0.7).sin(), (j as f64 * 1.3).cos(), 0.4];
        let len = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
        for &t in &times {
            let angle = 0.6 * (t * 5.8 + j as f64).sin() + 0.002 * noise.next();
            let (s, c) = (angle * 0.5).sin_cos();
            rot.extend([axis[0] / len * s, axis[1] / len * s, axis[2] / len * s, c]);
        }
        array(&mut out, rot.into_iter());
        out.push_str(r#","type":"quaternion"},"#);
        // Scale: constant, as exporters write it for every bone.
        let _ = write!(out, r#"{{"name":".bones[{bone}].scale","times":"#);
        array(&mut out, times.iter().copied());
        out.push_str(r#","values":"#);
        array(&mut out, std::iter::repeat_n(1.0, FRAMES * 3));
        out.push_str(r#","type":"vector"}"#);
    }
    out.push_str(
        r#"],"uuid":"0f6b8a52-9c3d-4e1f-a7b2-6d4c8e9f1a03","blendMode":2500,"userData":"{}"}"#,
    );
    out
}
