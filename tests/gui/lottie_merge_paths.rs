//! Merge paths (`mm`) drawn as the reference player draws them. lottie-web skips the item in
//! every renderer (its shape schema: "THIS FEATURE IS NOT SUPPORTED"), and rlottie does too:
//! the paths before it are filled and stroked as they are, whatever the mode. clipscope does
//! the same, compared with rlottie for each mode, and says so (`info`'s `notDrawn`) with what
//! After Effects would have done.

use serde_json::{Value, json};

use crate::lottie_images::ours;
use crate::test_support::rlottie::{self, REQUIRE_PYTHON};
use crate::test_support::skip::skip;

/// Two overlapping rectangles, merged with `mode`, filled red, in a 200 × 200 composition.
fn merged(mode: u32) -> Value {
    let rect =
        |x: f64| json!({"ty": "rc", "p": {"k": [x, 0]}, "s": {"k": [80, 80]}, "r": {"k": 0}});
    json!({"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 200, "h": 200, "layers": [
    {"ddd": 0, "ty": 4, "ind": 1, "ip": 0, "op": 60, "st": 0,
     "ks": {"a": {"k": [0, 0]}, "p": {"k": [0, 0]}, "s": {"k": [100, 100]}, "r": {"k": 0}, "o": {"k": 100}},
     "shapes": [{"ty": "gr", "it": [
        rect(-20.0), rect(20.0),
        {"ty": "mm", "mm": mode},
        {"ty": "fl", "c": {"k": [0.9, 0.1, 0.1, 1]}, "o": {"k": 100}, "r": 1},
        {"ty": "tr", "p": {"k": [100, 100]}, "a": {"k": [0, 0]}, "s": {"k": [100, 100]}, "r": {"k": 0}, "o": {"k": 100}}
     ]}]}]})
}

#[test]
fn merge_paths_are_drawn_as_lottie_web_and_rlottie_draw_them() {
    let dir = tempfile::tempdir().unwrap();
    for mode in 1..=5 {
        let path = dir.path().join(format!("mm{mode}.json"));
        std::fs::write(&path, serde_json::to_vec(&merged(mode)).unwrap()).unwrap();
        let reference = match rlottie::rlottie_frame(&path, 0, 200, 200) {
            Ok(r) => r,
            Err(why) => {
                skip(REQUIRE_PYTHON, &why);
                return;
            }
        };
        let mine = ours(&path, 0);
        let c = rlottie::compare(&mine, &reference);
        assert!(c.iou >= 0.95 && c.rgb <= 0.05, "mode {mode}: {c}");
        // Both rectangles, their overlap included, whatever the mode.
        let alpha = |x: usize, y: usize| mine[(y * 200 + x) * 4 + 3];
        assert_eq!(
            (alpha(50, 100), alpha(100, 100), alpha(150, 100)),
            (255, 255, 255)
        );
    }
}
