//! Lottie image layers (`ty` 2) drawn as rlottie draws them: generated compositions with an
//! embedded base64 PNG and with a PNG file beside the JSON (`u` + `p`), moved, turned, scaled
//! and faded, compared at several frames within issue 26's tolerance (alpha IoU ≥ 0.95, mean
//! RGB difference ≤ 0.05 over covered pixels); and images that cannot be had (a path out of the
//! file's folder, a missing or broken file) listed by `info` with the layer, not drawn, and no
//! failure of `render`. Without python and rlottie-python the comparisons print SKIPPED (they
//! fail under `CLIPSCOPE_REQUIRE_PYTHON=1`).

use std::path::Path;
use std::process::Command;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::test_support::rlottie::{self, REQUIRE_PYTHON};
use crate::test_support::skip::skip;

/// The issue's tolerance: alpha IoU at least this.
const MIN_IOU: f64 = 0.95;
/// The issue's tolerance: mean RGB difference over covered pixels at most this.
const MAX_RGB: f64 = 0.05;

/// A 64 × 48 PNG: a red-to-green ramp with a blue disc, its top-left corner transparent and a
/// half-transparent band along the bottom.
fn png() -> Vec<u8> {
    let img = image::RgbaImage::from_fn(64, 48, |x, y| {
        let (fx, fy) = (f64::from(x), f64::from(y));
        if x < 12 && y < 12 {
            return image::Rgba([0, 0, 0, 0]);
        }
        let a = if y >= 40 { 128 } else { 255 };
        if (fx - 40.0).hypot(fy - 22.0) < 12.0 {
            return image::Rgba([30, 60, 220, a]);
        }
        let t = fx / 63.0;
        image::Rgba([(230.0 * (1.0 - t)) as u8, (200.0 * t) as u8, 40, a])
    });
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// Keyframes of `from` → `to` over frames 0–59, eased.
fn eased(from: Value, to: Value) -> Value {
    json!({"a": 1, "k": [
        {"t": 0, "s": from, "o": {"x": [0.4], "y": [0]}, "i": {"x": [0.2], "y": [1]}},
        {"t": 59, "s": to}
    ]})
}

/// A 200 × 200, 30 fps, 60-frame composition of two layers showing image asset `asset`: one
/// moving, turning, growing and fading, one still and scaled under a solid.
fn composition(asset: Value) -> Value {
    let image_layer = |ind: u32, ks: Value| json!({"ddd": 0, "ty": 2, "ind": ind, "refId": "image_0", "ip": 0, "op": 60, "st": 0, "ks": ks});
    json!({"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 200, "h": 200, "assets": [asset],
    "layers": [
        image_layer(1, json!({"a": {"k": [32, 24]}, "p": eased(json!([60, 60]), json!([130, 120])),
            "s": eased(json!([100, 100]), json!([160, 130])), "r": eased(json!([0]), json!([60])),
            "o": eased(json!([100]), json!([50]))})),
        image_layer(2, json!({"a": {"k": [0, 0]}, "p": {"k": [10, 130]}, "s": {"k": [150, 100]},
            "r": {"k": 0}, "o": {"k": 100}})),
        {"ddd": 0, "ty": 1, "ind": 3, "ip": 0, "op": 60, "st": 0, "sc": "#dddddd", "sw": 200, "sh": 40,
         "ks": {"a": {"k": [0, 0]}, "p": {"k": [0, 0]}, "s": {"k": [100, 100]}, "r": {"k": 0}, "o": {"k": 100}}}
    ]})
}

/// clipscope's render of frame `frame` of `file` (200 × 200 at 30 fps), straight RGBA8.
pub(crate) fn ours(file: &Path, frame: u32) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("frame.png");
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .arg("render")
        .arg(file)
        .args(["--view", "front", "--transparent", "--size", "200x200"])
        .args(["--time", &(f64::from(frame) / 30.0).to_string(), "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    image::open(&out).unwrap().to_rgba8().into_raw()
}

/// `info --json`'s `notDrawn` entries of `file`, as `path: what`.
fn not_drawn(file: &Path) -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(["info", "--json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["notDrawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{}: {}",
                n["path"].as_str().unwrap(),
                n["what"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn embedded_and_beside_the_file_images_match_rlottie() {
    let dir = tempfile::tempdir().unwrap();
    let png = png();
    std::fs::create_dir(dir.path().join("images")).unwrap();
    std::fs::write(dir.path().join("images/img_0.png"), &png).unwrap();
    let data = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let files = [
        (
            "embedded",
            json!({"id": "image_0", "w": 64, "h": 48, "u": "", "p": data, "e": 1}),
        ),
        (
            "beside",
            json!({"id": "image_0", "w": 64, "h": 48, "u": "images/", "p": "img_0.png", "e": 0}),
        ),
    ];
    let mut failures = Vec::new();
    for (name, asset) in files {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, serde_json::to_vec(&composition(asset)).unwrap()).unwrap();
        assert_eq!(not_drawn(&path), Vec::<String>::new(), "{name}");
        for frame in [0, 15, 30, 42] {
            let reference = match rlottie::rlottie_frame(&path, frame, 200, 200) {
                Ok(r) => r,
                Err(why) => {
                    skip(REQUIRE_PYTHON, &why);
                    return;
                }
            };
            let mine = ours(&path, frame);
            let c = rlottie::compare(&mine, &reference);
            eprintln!("{name} frame {frame}: {c}");
            if c.iou < MIN_IOU || c.rgb > MAX_RGB {
                failures.push(format!("{name} frame {frame}: {c}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "out of tolerance:\n{}",
        failures.join("\n")
    );
}

#[test]
fn images_that_cannot_be_had_are_listed_with_their_layer_and_not_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("inner");
    std::fs::create_dir(&inner).unwrap();
    std::fs::write(dir.path().join("secret.png"), png()).unwrap();
    std::fs::write(inner.join("broken.png"), b"not a png").unwrap();
    let cases = [
        (
            json!({"id": "image_0", "w": 64, "h": 48, "u": "../", "p": "secret.png"}),
            "layers[0].refId: image layer not drawn: assets[0].p: refused \"../secret.png\": \"..\" leads outside the file's folder",
        ),
        (
            json!({"id": "image_0", "w": 64, "h": 48, "u": "", "p": "missing.png"}),
            "layers[0].refId: image layer not drawn: assets[0].p: cannot read \"missing.png\"",
        ),
        (
            json!({"id": "image_0", "w": 64, "h": 48, "u": "", "p": "broken.png"}),
            "layers[0].refId: image layer not drawn: assets[0].p: image \"broken.png\" not decoded",
        ),
    ];
    for (asset, why) in cases {
        let path = inner.join("a.json");
        std::fs::write(&path, serde_json::to_vec(&composition(asset)).unwrap()).unwrap();
        let notes = not_drawn(&path);
        assert!(
            notes.len() == 1 && notes[0].starts_with(why),
            "{notes:?}\nwanted {why}"
        );
        // The rest is drawn: the solid along the top, nothing where the images were.
        let img = ours(&path, 0);
        let alpha = |x: usize, y: usize| img[(y * 200 + x) * 4 + 3];
        assert_eq!(alpha(100, 20), 255, "the solid");
        assert_eq!(alpha(60, 60), 0, "no image");
    }
}
