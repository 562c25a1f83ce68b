//! Pictures of skinned models through `clipscope render`: a generated character with a
//! `baseColorTexture` (an orange and cream checker), one with vertex colours (`COLOR_0`
//! multiplying the base colour) and the bones drawn over the mesh (`--bones`), each compared with
//! its committed reference (`tests/snapshots/render_skin_*.png`) and checked for what the feature
//! means: the checker shows as two colours on the body, the vertex colours tint it, the bones
//! show through it. Where the character is, three.js agrees ([`crate::skinning`]).
//!
//! Needs a GPU adapter; prints `SKIPPED` without one (fails under `CLIPSCOPE_REQUIRE_GPU=1`).

use std::path::Path;
use std::process::Command;

use image::RgbaImage;

use crate::character::{self, Spec};
use crate::common::gpu::require_gpu;
use crate::common::snapshot::check_snapshot;
use crate::render::changed_share;

/// The fixed review camera all these pictures use.
const CAMERA: &str = "eye=4.2,2.6,6.4,target=0,1.1,0,fov=40";

/// Renders the character `spec` at 0.5 s through [`CAMERA`] at 320×240, with `extra` options.
fn render(spec: &Spec, extra: &[&str]) -> RgbaImage {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("character.gltf");
    std::fs::write(&file, character::gltf(spec)).unwrap();
    render_file(&file, extra)
}

/// Renders `file` at 0.5 s through [`CAMERA`] at 320×240, with `extra` options.
fn render_file(file: &Path, extra: &[&str]) -> RgbaImage {
    let out = file.with_file_name("frame.png");
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("render")
        .arg(file)
        .args(["--time", "0.5", "--size", "320x240", "--camera", CAMERA])
        .args(extra)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    image::open(&out).unwrap().to_rgba8()
}

/// The colours of the fully covered pixels of a `--transparent` picture, as 0–1 floats.
fn covered(image: &RgbaImage) -> Vec<[f32; 3]> {
    image
        .pixels()
        .filter(|p| p[3] == 255)
        .map(|p| [0, 1, 2].map(|c| f32::from(p[c]) / 255.0))
        .collect()
}

/// The mean difference between horizontally neighbouring, fully covered pixels of a
/// `--transparent` picture (0–1, all channels): how busy the surface is.
fn contrast(image: &RgbaImage) -> f32 {
    let (mut sum, mut n) = (0.0f32, 0u32);
    for y in 0..image.height() {
        for x in 1..image.width() {
            let (a, b) = (image.get_pixel(x - 1, y), image.get_pixel(x, y));
            if a[3] == 255 && b[3] == 255 {
                sum += (0..3).map(|c| f32::from(a[c].abs_diff(b[c]))).sum::<f32>() / 765.0;
                n += 1;
            }
        }
    }
    assert!(n > 1000, "the body covers {n} pixel pairs");
    sum / n as f32
}

/// The mean and the standard deviation of channel `c` over `pixels`.
fn spread(pixels: &[[f32; 3]], c: usize) -> (f32, f32) {
    let n = pixels.len().max(1) as f32;
    let mean = pixels.iter().map(|p| p[c]).sum::<f32>() / n;
    let var = pixels.iter().map(|p| (p[c] - mean).powi(2)).sum::<f32>() / n;
    (mean, var.sqrt())
}

#[test]
fn a_textured_character_shows_its_checker_like_the_reference() {
    if require_gpu().is_none() {
        return;
    }
    let textured = Spec {
        texture: true,
        ..Spec::default()
    };
    let image = render(&textured, &[]);
    check_snapshot("render_skin_textured", &image);
    // The checker's two colours show on the body: seen alone (transparent), neighbouring pixels
    // of the textured body differ far more than those of the same body untextured, which only
    // the light shades smoothly.
    let with = contrast(&render(&textured, &["--transparent"]));
    let without = contrast(&render(&Spec::default(), &["--transparent"]));
    eprintln!("contrast: {with:.4} textured, {without:.4} plain");
    assert!(
        with > without * 2.0 && with > 0.05,
        "the checker shows: contrast {with:.4} textured, {without:.4} plain"
    );
}

#[test]
fn vertex_colours_tint_the_character_like_the_reference() {
    if require_gpu().is_none() {
        return;
    }
    let coloured = Spec {
        colours: true,
        ..Spec::default()
    };
    let image = render(&coloured, &[]);
    check_snapshot("render_skin_vertex_colours", &image);
    // COLOR_0 multiplies the base colour: its green is 0.8 everywhere, its red and blue 0.25 to 1
    // (red around each ring, blue along each limb), so the body is darker, and its blue against
    // its red varies where the plain body's does not.
    let with = covered(&render(&coloured, &["--transparent"]));
    let without = covered(&render(&Spec::default(), &["--transparent"]));
    let (green_with, green_without) = (spread(&with, 1).0, spread(&without, 1).0);
    let hue_spread = |px: &[[f32; 3]]| {
        let blue_over_red: Vec<[f32; 3]> = px
            .iter()
            .map(|p| [p[2] / p[0].max(1e-3), 0.0, 0.0])
            .collect();
        spread(&blue_over_red, 0).1
    };
    let (hue_with, hue_without) = (hue_spread(&with), hue_spread(&without));
    eprintln!(
        "green {green_with:.3}/{green_without:.3}, hue spread {hue_with:.4}/{hue_without:.4}"
    );
    assert!(
        green_with < green_without * 0.95,
        "green: {green_with:.3} with colours, {green_without:.3} without"
    );
    assert!(
        hue_with > hue_without * 2.0,
        "blue against red varies: {hue_with:.4} with colours, {hue_without:.4} without"
    );
}

#[test]
fn bones_show_through_the_mesh_on_request() {
    if require_gpu().is_none() {
        return;
    }
    let spec = Spec::default();
    let plain = render(&spec, &[]);
    let bones = render(&spec, &["--bones"]);
    check_snapshot("render_skin_bones", &bones);
    // The bones are drawn over the body (x-ray): some pixels change, most stay.
    let share = changed_share(&plain, &bones);
    assert!(
        (0.002..0.15).contains(&share),
        "the bones change {:.2}% of the picture",
        share * 100.0
    );
    // Without --bones the same picture every time: review renders repeat exactly.
    assert_eq!(plain, render(&spec, &[]));
}
