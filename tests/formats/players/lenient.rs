//! Files in shapes the engines accept though clipscope's writers never make them (the survey of
//! issue 24 item 2, `docs/formats.md`), for the players harness: each is written back unedited
//! (byte for byte) and played by its own engine against clipscope's reading of it, and converted
//! to every other format like any source.
//!
//! * a PlayCanvas anim clip with numbers written as text where the engine's JavaScript reads
//!   them as numbers (key times, `duration`, `components`, curve indices);
//! * a PlayCanvas animation (version 4) with its version written as text, positions of 2
//!   numbers (the engine's `Vec3` takes the missing one as 0) and rotations and scales of 4 (the
//!   parser reads the first 3);
//! * a Lottie composition with a layer whose `ty` is text (lottie-web makes it a null layer),
//!   `ind`/`parent` written as text (lottie-web matches them loosely), and a layer's `ip`/`op`
//!   and a keyframe time `t` written as text (lottie-web compares and subtracts them as numbers).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::test_support::rng::Rng;

/// A number in `[lo, hi)`.
fn range(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.unit_f32()
}

/// Writes `value` to `dir/name` and adds the path to `out`.
fn write(dir: &Path, name: &str, value: &Value, out: &mut Vec<PathBuf>) {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    out.push(path);
}

/// Writes the lenient files into `dir` and adds their paths to `out`.
pub fn write_sources(dir: &Path, rng: &mut Rng, out: &mut Vec<PathBuf>) {
    // Anim clip: times, duration, components and indices as text.
    let times = ["0", "0.25", "0.6", "1"];
    let mut angles = Vec::new();
    let mut positions = Vec::new();
    for _ in 0..times.len() {
        angles.extend([range(rng, -50.0, 50.0), range(rng, -70.0, 70.0)]);
        angles.push(range(rng, -120.0, 120.0));
        positions.extend([range(rng, -1.0, 1.0), range(rng, 0.0, 2.0), 0.0]);
    }
    let anim = json!({
        "name": "text-numbers",
        "duration": "1",
        "inputs": [times],
        "outputs": [{"components": "3", "data": angles}, {"components": 3, "data": positions}],
        "curves": [
            {"path": {"entityPath": ["root", "arm"], "component": "entity",
                      "propertyPath": ["localEulerAngles"]},
             "inputIndex": "0", "outputIndex": "0", "interpolation": 1},
            {"path": {"entityPath": ["root", "arm"], "component": "entity",
                      "propertyPath": ["localPosition"]},
             "inputIndex": 0, "outputIndex": "1", "interpolation": 1}
        ]
    });
    write(dir, "lenient.text-numbers.anim.json", &anim, out);

    // PlayCanvas animation: version as text, 2-number positions, 4-number rotations and scales.
    let keys: Vec<Value> = [0.0, 0.3, 0.7, 1.2]
        .iter()
        .map(|&t| {
            json!({"t": t,
                   "p": [range(rng, -1.0, 1.0), range(rng, 0.0, 1.0)],
                   "r": [range(rng, -40.0, 40.0), range(rng, -90.0, 90.0), range(rng, -30.0, 30.0), 7.0]})
        })
        .collect();
    let legacy = json!({"animation": {
        "version": "4", "name": "lenient", "duration": 1.2,
        "nodes": [{"name": "hip", "defaults": {"s": [1.5, 1.5, 1.5, 9.0]}, "keys": keys}]
    }});
    write(dir, "lenient.playcanvas.json", &legacy, out);

    // Lottie: a layer type as text (a null layer for lottie-web), ind and parent as text.
    let ease = json!({"o": {"x": [0.3], "y": [0.0]}, "i": {"x": [0.7], "y": [1.0]}});
    let key = |t: f32, s: Value| {
        let mut k = ease.clone();
        k["t"] = json!(t);
        k["s"] = s;
        k
    };
    let lottie = json!({
        "v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 200, "h": 200, "nm": "lenient",
        "layers": [
            {"ty": "4", "ind": "1", "nm": "base", "ip": 0, "op": 30, "st": 0, "ks": {
                "p": {"a": 1, "k": [key(0.0, json!([20, 30, 0])),
                                    {"t": 30, "s": [range(rng, 60.0, 180.0), 120, 0]}]}}},
            {"ty": 3, "ind": 2, "parent": "1", "nm": "child", "ip": "0", "op": "30", "st": 0,
             "ks": {
                "p": {"a": 0, "k": [10, 0, 0]},
                "r": {"a": 1, "k": [key(0.0, json!([0])),
                                    {"t": "30", "s": [range(rng, 30.0, 160.0)]}]}}}
        ]
    });
    write(dir, "lenient.lottie.json", &lottie, out);
}
