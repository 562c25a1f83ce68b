//! Conformance of `playback::Mixer` with three.js r187's `AnimationMixer` on a multi-action run.
//!
//! `tests/fixtures/mixer.json` was recorded by `tests/conformance/mixer.mjs` with three.js
//! 0.187.0: a walk clip plays, an additive ping-pong sway is layered on at weight 0.6, and at
//! frame 12 a run clip cross-fades in from the walk with warping. Every frame's root position
//! and quaternion must match bit for bit (f64), as must every action's effective weight,
//! effective time scale, local time and running state, and the frame's `loop` / `finished`
//! events.

use std::collections::HashMap;
use std::sync::Arc;

use clipscope_core::model::{BlendMode, Clip, Interpolation, Track, TrackKind};
use clipscope_core::playback::{ActionId, LoopMode, Mixer, MixerEvent, Pose};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mixer.json");

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn clip(v: &Value) -> Arc<Clip> {
    let tracks = v["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let kind = TrackKind::from_type_name(t["type"].as_str().unwrap()).unwrap();
            let times = numbers(&t["times"]).iter().map(|&x| x as f32).collect();
            let values = numbers(&t["values"]).iter().map(|&x| x as f32).collect();
            let mut track = Track::numeric(t["name"].as_str().unwrap(), kind, times, values);
            track.interpolation = match t["interpolation"].as_u64().unwrap() {
                2300 => Interpolation::Discrete,
                2302 => Interpolation::Smooth,
                _ => Interpolation::Linear,
            };
            track
        })
        .collect();
    let mut clip = Clip::new(
        v["name"].as_str().unwrap(),
        v["duration"].as_f64().unwrap(),
        tracks,
    );
    clip.blend_mode = BlendMode::from_code(v["blendMode"].as_f64().unwrap()).unwrap();
    Arc::new(clip)
}

fn bits(a: &[f64]) -> Vec<u64> {
    a.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn cross_fade_additive_and_ping_pong_match_three_js_frame_by_frame() {
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let clips: Vec<Arc<Clip>> = fixture["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(clip)
        .collect();

    let mut pose = Pose::new("root");
    pose.define("root", "position", &[0.0, 0.0, 0.0]).define(
        "root",
        "quaternion",
        &[0.0, 0.0, 0.0, 1.0],
    );
    let mut mixer = Mixer::new(pose);
    let ids: Vec<ActionId> = clips.iter().map(|c| mixer.clip_action(c)).collect();
    let names: HashMap<ActionId, &str> = ids
        .iter()
        .zip(&clips)
        .map(|(id, c)| (*id, c.name.as_str()))
        .collect();
    let [walk, run, sway] = [ids[0], ids[1], ids[2]];
    assert!(mixer.unbound_tracks().is_empty());

    mixer.action_mut(walk).play();
    mixer
        .action_mut(sway)
        .set_loop(LoopMode::PingPong, 3.0)
        .set_effective_weight(0.6)
        .play();

    let dt = fixture["dt"].as_f64().unwrap();
    let cross_fade_frame = fixture["crossFadeFrame"].as_u64().unwrap() as usize;
    let mut mismatches = Vec::new();
    for (i, frame) in fixture["frames"].as_array().unwrap().iter().enumerate() {
        if i == cross_fade_frame {
            mixer
                .action_mut(run)
                .play()
                .cross_fade_from(walk, 0.5, true);
        }
        let events = mixer.update(dt);
        let mut check = |what: String, got: Vec<f64>, want: Vec<f64>| {
            if bits(&got) != bits(&want) {
                mismatches.push(format!("frame {i} {what}: got {got:?}, three.js {want:?}"));
            }
        };
        check(
            "time".into(),
            vec![mixer.time],
            vec![frame["time"].as_f64().unwrap()],
        );
        for property in ["position", "quaternion"] {
            check(
                property.into(),
                mixer.pose().value("root", property).unwrap().to_vec(),
                numbers(&frame[property]),
            );
        }
        for &id in &ids {
            let state = &frame["actions"][names[&id]];
            let running = mixer.action_mut(id).is_running();
            let a = mixer.action(id);
            check(
                format!("{} weight/timeScale/time/running", names[&id]),
                vec![
                    a.effective_weight(),
                    a.effective_time_scale(),
                    a.time,
                    f64::from(u8::from(running)),
                ],
                vec![
                    state["weight"].as_f64().unwrap(),
                    state["timeScale"].as_f64().unwrap(),
                    state["time"].as_f64().unwrap(),
                    f64::from(u8::from(state["running"].as_bool().unwrap())),
                ],
            );
        }
        let got: Vec<String> = events
            .iter()
            .map(|e| match e {
                MixerEvent::Loop { action, loop_delta } => {
                    format!("loop {} {loop_delta}", names[action])
                }
                MixerEvent::Finished { action, direction } => {
                    format!("finished {} {direction}", names[action])
                }
            })
            .collect();
        let want: Vec<String> = frame["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| match e["type"].as_str().unwrap() {
                "loop" => format!("loop {} {}", e["action"].as_str().unwrap(), e["loopDelta"]),
                _ => format!(
                    "finished {} {}",
                    e["action"].as_str().unwrap(),
                    e["direction"]
                ),
            })
            .collect();
        if got != want {
            mismatches.push(format!("frame {i} events: got {got:?}, three.js {want:?}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
