//! Generated Lottie compositions for the reduction tests, built as JSON here (nothing of
//! clipscope builds them) and played by lottie-web: a chain of parented layers (a null at the
//! root, solids and shape layers below it, each child offset from its parent), with keys at
//! every frame from smooth random motion plus a little jitter, as an exported, baked animation
//! has them. Some layers auto-orient along their position path (`ao: 1`), some have split
//! positions (`p.s`), some are 3D layers (`ddd: 1`, rotations about x, y and z), and parents
//! scale and rotate, so an error in a parent grows in composition space.

use serde_json::{Value, json};

use crate::test_support::Rng;

/// The composition's size (px) and frame rate.
const SIZE: f64 = 512.0;
const FPS: f64 = 30.0;

/// A smooth random curve: a sum of three sines with random frequencies and phases.
struct Wave([(f64, f64, f64); 3]);

impl Wave {
    fn new(rng: &mut Rng, amplitude: f64) -> Wave {
        Wave(std::array::from_fn(|k| {
            let a = amplitude * (0.3 + 0.7 * rng.unit_f32() as f64) / (k + 1) as f64;
            let f = 0.1 + 0.6 * rng.unit_f32() as f64 * (k + 1) as f64;
            let p = std::f64::consts::TAU * rng.unit_f32() as f64;
            (a, f, p)
        }))
    }

    /// The curve at second `t`, with jitter of `jitter` at frame `f`.
    fn at(&self, t: f64, jitter: f64, f: usize) -> f64 {
        let smooth: f64 = self
            .0
            .iter()
            .map(|(a, fr, p)| a * (std::f64::consts::TAU * fr * t + p).sin())
            .sum();
        smooth + jitter * ((f as f64 * 12.9898).sin() * 43758.547).fract()
    }
}

/// A property keyed at every frame with `value(frame)` (linear easing).
fn keyed(frames: usize, value: impl Fn(usize) -> Vec<f64>) -> Value {
    let keys: Vec<Value> = (0..frames)
        .map(|f| {
            json!({
                "t": f,
                "s": value(f),
                "i": {"x": [1.0], "y": [1.0]},
                "o": {"x": [0.0], "y": [0.0]},
            })
        })
        .collect();
    json!({"a": 1, "k": keys})
}

/// A static property.
fn fixed(value: Value) -> Value {
    json!({"a": 0, "k": value})
}

/// A composition of `layers` layers (at least 2) and `seconds` of animation from `seed`.
pub fn composition(layers: usize, seconds: f64, seed: u64) -> Value {
    let mut rng = Rng::new(seed);
    let frames = (seconds * FPS).round() as usize + 1;
    let mut out = Vec::new();
    for k in 0..layers {
        let ind = k + 1;
        // The root is a null in the middle; every other layer hangs below an earlier one.
        let parent = (k > 0).then(|| 1 + (rng.next_u64() % k as u64) as usize);
        let kind = match k {
            0 => 3,
            _ if k % 3 == 1 => 1,
            _ => 4,
        };
        let ddd = k > 0 && k % 4 == 3;
        let auto_orient = !ddd && k > 0 && k % 5 == 2;
        let split = !ddd && !auto_orient && k % 4 == 1 && k > 1;
        let reach = if k == 0 { 60.0 } else { 40.0 };
        let px = Wave::new(&mut rng, reach);
        let py = Wave::new(&mut rng, reach);
        let rot = Wave::new(&mut rng, 40.0);
        let sc = Wave::new(&mut rng, 15.0);
        let (w, h) = (
            30.0 + 60.0 * rng.unit_f32() as f64,
            20.0 + 40.0 * rng.unit_f32() as f64,
        );
        let (ox, oy) = if k == 0 {
            (SIZE / 2.0, SIZE / 2.0)
        } else {
            (
                40.0 * (rng.unit_f32() as f64 - 0.5),
                40.0 + 30.0 * rng.unit_f32() as f64,
            )
        };
        let t = |f: usize| f as f64 / FPS;
        let position = |f: usize| {
            let mut v = vec![ox + px.at(t(f), 0.3, f), oy + py.at(t(f), 0.3, f + 7)];
            if ddd {
                v.push(20.0 * (t(f) * 1.3).sin());
            }
            v
        };
        let mut ks = serde_json::Map::new();
        ks.insert("o".into(), fixed(json!(100)));
        ks.insert(
            "a".into(),
            fixed(if ddd {
                json!([w / 2.0, h / 2.0, 0])
            } else {
                json!([w / 2.0, h / 2.0])
            }),
        );
        if split {
            ks.insert(
                "p".into(),
                json!({
                    "s": true,
                    "x": keyed(frames, |f| vec![position(f)[0]]),
                    "y": keyed(frames, |f| vec![position(f)[1]]),
                }),
            );
        } else {
            ks.insert("p".into(), keyed(frames, position));
        }
        ks.insert(
            "s".into(),
            keyed(frames, |f| {
                let s = 100.0 + sc.at(t(f), 0.2, f);
                if ddd {
                    vec![s, s, 100.0]
                } else {
                    vec![s, 100.0 - 0.5 * sc.at(t(f), 0.0, f)]
                }
            }),
        );
        let angle = keyed(frames, |f| vec![rot.at(t(f), 0.15, f + 3)]);
        if ddd {
            ks.insert("rz".into(), angle);
            ks.insert(
                "rx".into(),
                keyed(frames, |f| vec![25.0 * (t(f) * 0.9).sin()]),
            );
            ks.insert(
                "ry".into(),
                keyed(frames, |f| vec![30.0 * (t(f) * 0.7 + 1.0).cos()]),
            );
            ks.insert("or".into(), fixed(json!([0, 0, 0])));
        } else {
            ks.insert("r".into(), angle);
        }
        let mut layer = json!({
            "ddd": if ddd { 1 } else { 0 },
            "ind": ind,
            "ty": kind,
            "nm": format!("layer {ind}"),
            "sr": 1,
            "ks": Value::Object(ks),
            "ao": if auto_orient { 1 } else { 0 },
            "ip": 0,
            "op": frames,
            "st": 0,
            "bm": 0,
        });
        if let Some(p) = parent {
            layer["parent"] = json!(p);
        }
        match kind {
            1 => {
                layer["sw"] = json!(w);
                layer["sh"] = json!(h);
                layer["sc"] = json!("#3080e0");
            }
            4 => {
                layer["shapes"] = json!([{
                    "ty": "gr",
                    "nm": "box",
                    "it": [
                        {"ty": "rc", "d": 1, "p": fixed(json!([w / 2.0, h / 2.0])),
                         "s": fixed(json!([w, h])), "r": fixed(json!(0))},
                        {"ty": "fl", "c": fixed(json!([0.9, 0.4, 0.2, 1])), "o": fixed(json!(100)), "r": 1},
                        {"ty": "tr", "p": fixed(json!([0, 0])), "a": fixed(json!([0, 0])),
                         "s": fixed(json!([100, 100])), "r": fixed(json!(0)),
                         "o": fixed(json!(100)), "sk": fixed(json!(0)), "sa": fixed(json!(0))},
                    ],
                }]);
            }
            _ => {}
        }
        out.push(layer);
    }
    json!({
        "v": "5.7.4",
        "fr": FPS,
        "ip": 0,
        "op": frames,
        "w": SIZE,
        "h": SIZE,
        "nm": "generated rig",
        "ddd": if layers > 3 { 1 } else { 0 },
        "assets": [],
        "layers": out,
    })
}
