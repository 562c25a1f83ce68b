//! Reference frames of Lottie files from rlottie (Samsung's renderer, pip `rlottie-python`,
//! which `.ci/run` installs), and how close another render is to one.
//!
//! [`rlottie_frame`] runs `python3` with rlottie to draw one frame of a file at a size, and
//! [`compare`] measures two straight-alpha RGBA8 images: how well their coverage agrees
//! (alpha intersection over union) and how far their colours are apart where both cover.

use std::path::Path;
use std::process::Command;

/// The environment variable that makes a missing python or rlottie a failure instead of a
/// skip (`.ci/run` sets it after installing rlottie-python).
pub const REQUIRE_PYTHON: &str = "CLIPSCOPE_REQUIRE_PYTHON";

/// Renders a frame with rlottie and writes its premultiplied BGRA bytes to stdout.
const SCRIPT: &str = r#"
import sys
from rlottie_python import LottieAnimation
path, frame, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
anim = LottieAnimation.from_file(path)
sys.stdout.buffer.write(anim.lottie_animation_render(frame_num=frame, width=w, height=h))
"#;

/// Frame `frame` (counted from the composition's `ip`, as rlottie counts) of the Lottie file
/// `file` drawn by rlottie at `width` × `height`, as straight RGBA8 rows; `Err` says why it
/// could not be drawn (no python, no rlottie, a file rlottie refuses).
pub fn rlottie_frame(file: &Path, frame: u32, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let out = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(file)
        .args([frame.to_string(), width.to_string(), height.to_string()])
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "python3 with rlottie-python failed: {}",
            err.lines().last().unwrap_or("no message")
        ));
    }
    let n = (width as usize) * (height as usize) * 4;
    if out.stdout.len() != n {
        return Err(format!("rlottie gave {} bytes, not {n}", out.stdout.len()));
    }
    // Premultiplied BGRA (Cairo's ARGB32 on a little-endian machine) to straight RGBA.
    Ok(out
        .stdout
        .chunks_exact(4)
        .flat_map(|p| {
            let a = p[3];
            let un = |c: u8| {
                if a == 0 {
                    0
                } else {
                    ((u32::from(c) * 255 + u32::from(a) / 2) / u32::from(a)).min(255) as u8
                }
            };
            [un(p[2]), un(p[1]), un(p[0]), a]
        })
        .collect())
}

/// How close two renders of one frame are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// Alpha intersection over union: `Σ min(a, b) / Σ max(a, b)` over every pixel (1 when
    /// both are empty).
    pub iou: f64,
    /// The mean absolute RGB difference (0..=1) over the pixels both cover (alpha ≥ 50 %).
    pub rgb: f64,
    /// How many pixels both cover.
    pub covered: usize,
}

impl std::fmt::Display for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "IoU {:.4}, mean RGB difference {:.4} over {} covered pixels",
            self.iou, self.rgb, self.covered
        )
    }
}

/// Compares two straight RGBA8 images of the same size.
pub fn compare(a: &[u8], b: &[u8]) -> Comparison {
    assert_eq!(a.len(), b.len(), "images of different sizes");
    let (mut inter, mut union, mut diff, mut covered) = (0u64, 0u64, 0u64, 0usize);
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        inter += u64::from(p[3].min(q[3]));
        union += u64::from(p[3].max(q[3]));
        if p[3] >= 128 && q[3] >= 128 {
            covered += 1;
            diff += (0..3).map(|k| u64::from(p[k].abs_diff(q[k]))).sum::<u64>();
        }
    }
    Comparison {
        iou: if union == 0 {
            1.0
        } else {
            inter as f64 / union as f64
        },
        rgb: if covered == 0 {
            0.0
        } else {
            diff as f64 / (covered as f64 * 3.0 * 255.0)
        },
        covered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_images_agree_and_disjoint_ones_do_not() {
        let a = [255, 0, 0, 255, 0, 0, 0, 0];
        let b = [0, 0, 0, 0, 255, 0, 0, 255];
        let same = compare(&a, &a);
        assert_eq!((same.iou, same.rgb, same.covered), (1.0, 0.0, 1));
        assert_eq!(compare(&a, &b).iou, 0.0);
        let c = [0, 0, 255, 255, 0, 0, 0, 0];
        assert!((compare(&a, &c).rgb - 2.0 / 3.0).abs() < 1e-12);
    }
}
