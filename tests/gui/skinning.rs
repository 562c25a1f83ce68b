//! Skinned meshes against three.js r187 itself: three.js loads each file, poses it with an
//! `AnimationMixer` and skins every vertex on the CPU (`tests/conformance/skin_coverage.mjs`),
//! and the triangles projected through a camera give a coverage mask; `clipscope render
//! --camera … --transparent` through the same camera at the same times must cover the same
//! pixels (intersection over union at least [`MIN_IOU`]). Both count the samples of the
//! standard 4× multisample pattern a pixel's triangles cover, so edges are compared alike.
//!
//! The files: the shared SimpleSkin.gltf and legacy simple-skinned.json, and characters
//! generated here (`benches/support/character.rs`): many joints, four and eight influences,
//! morph targets plus skin, a scaled and rotated armature under a moved skinned node, several
//! skins, meshes and primitives with an unskinned prop riding a joint.
//!
//! Needs a GPU adapter and node with `tests/conformance/node_modules/three`; without them each
//! test prints `SKIPPED` (or fails under `CLIPSCOPE_REQUIRE_GPU=1` / `CLIPSCOPE_REQUIRE_NODE=1`).

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use glam::Vec3;
use serde_json::json;

use crate::character::{self, Spec};
use crate::common::gpu::require_gpu;
use crate::common::node_package;
use crate::test_support::sample_data;

/// The least intersection over union of the two coverage masks.
const MIN_IOU: f64 = 0.97;
/// Picture size.
const SIZE: (u32, u32) = (320, 240);

/// A camera for a model: looking at the centre of its rest pose from the front right, far
/// enough to hold it and its motion.
fn camera_for(file: &Path) -> (Vec3, Vec3) {
    let doc = clipscope_core::formats::read_file(file).unwrap();
    let model = doc.model.expect("the file has a model");
    let posed = model.posed(&model.rest_world(), |_| &[]);
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for p in posed.iter().flat_map(|p| &p.positions) {
        lo = lo.min(Vec3::from(*p));
        hi = hi.max(Vec3::from(*p));
    }
    let target = (lo + hi) * 0.5;
    let radius = (hi - lo).length() * 0.5;
    let eye = target + Vec3::new(1.0, 0.45, 1.3).normalize() * radius * 3.4;
    (eye, target)
}

/// three.js's coverage masks of `file` at `times` through the camera: 1 where at least two of
/// a pixel's four samples are covered.
fn three_masks(
    dir: &Path,
    file: &Path,
    kind: &str,
    times: &[f64],
    eye: Vec3,
    target: Vec3,
) -> Vec<Vec<u8>> {
    three_masks_with(dir, file, kind, times, (eye, target), false)
}

/// [`three_masks`], skinning with the first influence set alone when `first_set_only` (what
/// three.js r187 itself draws: GLTFLoader reads no `JOINTS_1`/`WEIGHTS_1`).
fn three_masks_with(
    dir: &Path,
    file: &Path,
    kind: &str,
    times: &[f64],
    (eye, target): (Vec3, Vec3),
    first_set_only: bool,
) -> Vec<Vec<u8>> {
    let job = dir.join("job.json");
    let spec = json!({
        "file": file, "kind": kind, "clip": 0, "times": times,
        "camera": {"eye": eye.to_array(), "target": target.to_array(), "fov": 45.0},
        "width": SIZE.0, "height": SIZE.1, "firstSetOnly": first_set_only,
    });
    std::fs::write(&job, spec.to_string()).unwrap();
    let conformance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let out = Command::new("node")
        .arg(conformance.join("skin_coverage.mjs"))
        .arg(&job)
        .current_dir(&conformance)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "skin_coverage.mjs failed on {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["masks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let counts = base64::engine::general_purpose::STANDARD
                .decode(m.as_str().unwrap())
                .unwrap();
            counts.iter().map(|&n| u8::from(n >= 2)).collect()
        })
        .collect()
}

/// clipscope's coverage of `file` at `times` through the camera: 1 where alpha is at least half
/// (two of the four samples of the 4× multisampled target).
fn clipscope_masks(
    dir: &Path,
    file: &Path,
    times: &[f64],
    eye: Vec3,
    target: Vec3,
) -> Vec<Vec<u8>> {
    let out = dir.join("frame.png");
    let times_arg = times
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let camera = format!(
        "eye={},{},{},target={},{},{},fov=45",
        eye.x, eye.y, eye.z, target.x, target.y, target.z
    );
    let run = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args([
            "render",
            file.to_str().unwrap(),
            "--times",
            &times_arg,
            "--camera",
            &camera,
        ])
        .args([
            "--transparent",
            "--size",
            &format!("{}x{}", SIZE.0, SIZE.1),
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "clipscope render failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    (0..times.len())
        .map(|i| {
            let png = dir.join(format!("frame_{i:03}.png"));
            let image = image::open(&png).unwrap().to_rgba8();
            image.pixels().map(|p| u8::from(p[3] >= 128)).collect()
        })
        .collect()
}

/// Intersection over union of two masks (1 when both are empty).
fn iou(a: &[u8], b: &[u8]) -> f64 {
    let (mut both, mut either) = (0u64, 0u64);
    for (&x, &y) in a.iter().zip(b) {
        both += u64::from(x & y);
        either += u64::from(x | y);
    }
    if either == 0 {
        1.0
    } else {
        both as f64 / either as f64
    }
}

/// Compares clipscope with three.js on `file` at `times`; returns the masks' IoUs.
fn compare(name: &str, file: &Path, kind: &str, times: &[f64]) -> Option<Vec<f64>> {
    require_gpu()?;
    node_package("three")?;
    let dir = tempfile::tempdir().unwrap();
    let (eye, target) = camera_for(file);
    let three = three_masks(dir.path(), file, kind, times, eye, target);
    let ours = clipscope_masks(dir.path(), file, times, eye, target);
    let mut ious = Vec::new();
    for (i, (a, b)) in three.iter().zip(&ours).enumerate() {
        let covered = a.iter().filter(|&&x| x == 1).count();
        assert!(
            covered > 500,
            "{name} at {} s: three.js covers only {covered} pixels",
            times[i]
        );
        let score = iou(a, b);
        if score < MIN_IOU {
            let keep = std::env::temp_dir().join(format!("clipscope-skin-{name}-{i}.png"));
            let mut diff = image::RgbaImage::new(SIZE.0, SIZE.1);
            for (p, (&x, &y)) in diff.pixels_mut().zip(a.iter().zip(b)) {
                *p = image::Rgba([255 * x, 255 * y, 0, 255]);
            }
            diff.save(&keep).unwrap();
            panic!(
                "{name} at {} s: IoU {score:.4} < {MIN_IOU} (red: three.js only, green: clipscope only; {})",
                times[i],
                keep.display()
            );
        }
        ious.push(score);
    }
    // The motion is real: the picture changes over the take.
    let least = three.iter().map(|m| iou(&three[0], m)).fold(1.0, f64::min);
    assert!(least < 0.99, "{name}: the take does not move the mesh");
    eprintln!("{name}: IoU with three.js {ious:.4?}");
    Some(ious)
}

/// Writes a generated character and compares it.
fn generated(name: &str, spec: Spec) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.gltf"));
    std::fs::write(&file, character::gltf(&spec)).unwrap();
    let t = f64::from(spec.seconds);
    compare(name, &file, "gltf", &[0.0, t * 0.23, t * 0.5, t * 0.81, t]);
}

fn shared(name: &str) -> Option<PathBuf> {
    sample_data(name)
}

#[test]
fn simple_skin_bends_as_in_three_js() {
    let Some(file) = shared("gltf/SimpleSkin.gltf") else {
        return;
    };
    compare("SimpleSkin", &file, "gltf", &[0.0, 1.0, 2.0, 3.5, 4.5]);
}

#[test]
fn the_legacy_skinned_model_walks_as_in_three_js() {
    let Some(file) = shared("threejs/simple-skinned.json") else {
        return;
    };
    compare(
        "simple-skinned",
        &file,
        "legacy",
        &[0.0, 0.1, 0.2, 0.3, 0.4],
    );
}

#[test]
fn a_character_of_many_joints_matches_three_js() {
    generated(
        "many_joints",
        Spec {
            limbs: 6,
            joints_per_limb: 9,
            ..Spec::default()
        },
    );
}

#[test]
fn eight_influences_match_three_js_skinning_over_both_sets() {
    let spec = Spec {
        influences: 8,
        joints_per_limb: 6,
        seed: 8,
        ..Spec::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eight.gltf");
    std::fs::write(&file, character::gltf(&spec)).unwrap();
    let times = [0.0, 0.46, 1.0, 1.62];
    let Some(ious) = compare("eight_influences", &file, "gltf", &times) else {
        return;
    };
    // The second set matters: skinned with the first four influences alone (as three.js r187
    // draws the file, reading no JOINTS_1), the character covers clearly other pixels.
    let camera = camera_for(&file);
    let first = three_masks_with(dir.path(), &file, "gltf", &times, camera, true);
    let ours = clipscope_masks(dir.path(), &file, &times, camera.0, camera.1);
    for (i, (a, b)) in first.iter().zip(&ours).enumerate() {
        let four = iou(a, b);
        assert!(
            four < ious[i] - 0.02,
            "at {} s the first set alone covers nearly the same pixels ({four:.4} vs {:.4})",
            times[i],
            ious[i]
        );
    }
}

#[test]
fn morph_targets_under_the_skin_match_three_js() {
    generated(
        "morphs",
        Spec {
            morphs: true,
            seed: 3,
            ..Spec::default()
        },
    );
}

#[test]
fn a_scaled_and_rotated_skinned_node_matches_three_js() {
    generated(
        "transformed",
        Spec {
            transformed: true,
            seed: 4,
            ..Spec::default()
        },
    );
}

#[test]
fn several_skins_meshes_and_primitives_match_three_js() {
    generated(
        "extras",
        Spec {
            extras: true,
            morphs: true,
            influences: 8,
            colours: true,
            texture: true,
            seed: 5,
            ..Spec::default()
        },
    );
}
