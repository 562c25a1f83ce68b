//! Comparing what a player shows with the source, track by track, against `convert`'s report.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use clipscope_core::formats::{Document, Format};
use clipscope_core::model::binding::sanitize_node_name;
use clipscope_core::model::interpolant::Sampler;
use clipscope_core::model::{Track, TrackKind};

/// Rotations: the largest angle allowed, degrees.
const ROTATION_DEG: f64 = 0.05;

/// Everything else: the largest `|a − b| / max(|a|, 1)` allowed, per component, and for
/// positions with `|a|` the length of the position (a component near 0 of a position hundreds
/// of pixels from the origin is as precise as the others, not ten thousand times more).
const RELATIVE: f64 = 1e-4;

/// Counts over the whole run.
#[derive(Default)]
pub struct Tally {
    /// Files played.
    pub files: usize,
    /// Tracks the player showed as the source plays.
    pub faithful: usize,
    /// Tracks `convert` reports as not written.
    pub not_written: usize,
    /// Tracks `convert` reports on (playing beyond the tolerance, and the player agrees; played
    /// through an expression; kept where no player reads them), per target format and reason.
    pub reported: HashMap<String, usize>,
    /// Tracks also checked looping, across the seam.
    pub looped: usize,
    /// Tracks written where this harness cannot look (no mapping to the player's output), per
    /// reason.
    pub unchecked: HashMap<String, usize>,
}

impl Tally {
    /// One paragraph for the test log.
    pub fn summary(&self) -> String {
        let mut lines = vec![format!(
            "players: {} files; {} tracks played as the source plays, {} reported not written",
            self.files, self.faithful, self.not_written
        )];
        if self.looped > 0 {
            lines.push(format!(
                "  also played looping across the seam: {} tracks",
                self.looped
            ));
        }
        let mut reported: Vec<_> = self.reported.iter().collect();
        reported.sort();
        for (what, n) in reported {
            lines.push(format!("  reported by convert: {what}: {n}"));
        }
        let mut unchecked: Vec<_> = self.unchecked.iter().collect();
        unchecked.sort();
        for (why, n) in unchecked {
            lines.push(format!("  not checked: {why}: {n}"));
        }
        lines.join("\n")
    }
}

/// One written file to check.
pub struct Check<'a> {
    pub source: &'a Path,
    pub doc: &'a Document,
    pub format: Format,
    pub player: &'a str,
    pub report: &'a Value,
    pub file: &'a Path,
    pub times: &'a HashMap<String, Vec<f64>>,
}

/// A player's number (non-finite ones come as strings).
fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => s.parse().unwrap_or(f64::NAN),
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => f64::NAN,
    }
}

/// The node a track animates and its transform property, from its name.
fn node_property(name: &str) -> Option<(String, &str)> {
    if let Some(rest) = name.strip_prefix(".bones[") {
        let (bone, prop) = rest.rsplit_once("].")?;
        return Some((bone.to_string(), prop));
    }
    let (node, prop) = name.rsplit_once('.')?;
    (!node.contains(['[', ']'])).then(|| (node.to_string(), prop))
}

/// The names a track may have in three.js after a conversion.
fn aliases(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    if let Some((node, prop)) = node_property(name) {
        for n in [node.clone(), sanitize_node_name(&node)] {
            out.push(format!("{n}.{prop}"));
            out.push(format!(".bones[{n}].{prop}"));
        }
    }
    out
}

impl Check<'_> {
    /// What the player shows for `track` of clip `clip`: one row per time, or why there is
    /// nothing to look at.
    #[allow(clippy::too_many_arguments)]
    fn lookup<'v>(
        &self,
        values: &'v serde_json::Map<String, Value>,
        clip: &str,
        index: Option<usize>,
        track: &Track,
        target: Option<&str>,
    ) -> Result<Option<&'v Value>, String> {
        match self.player {
            "threejs" | "gltf" | "threejs-legacy" => {
                let clip = if self.player == "threejs-legacy" && clip.is_empty() {
                    "default"
                } else {
                    clip
                };
                let mut names = aliases(&track.name);
                names.extend(target.map(aliases).unwrap_or_default());
                // By the clip's name, else by its place in the file (three.js names unnamed
                // glTF animations itself).
                let keys = [Some(clip.to_string()), index.map(|i| format!("#{i}"))];
                Ok(keys
                    .iter()
                    .flatten()
                    .find_map(|c| names.iter().find_map(|n| values.get(&format!("{c}|{n}")))))
            }
            "pc-animation" => {
                let Some((node, prop)) = node_property(&track.name) else {
                    return Err("not a node transform".into());
                };
                let prop = if prop == "quaternion" {
                    "rotation"
                } else {
                    prop
                };
                Ok(values.get(&format!("{node}|{prop}")))
            }
            "pc-anim" => {
                let Some((node, prop)) = node_property(&track.name) else {
                    return Err("a component property (not a node transform)".into());
                };
                let prop = match prop {
                    "position" => "localPosition",
                    "quaternion" => "localRotation",
                    "scale" => "localScale",
                    _ => return Err("not a node transform".into()),
                };
                let names = [node.clone(), sanitize_node_name(&node)];
                Ok(values.iter().find_map(|(k, v)| {
                    let (path, p) = k.rsplit_once('|')?;
                    let last = path.rsplit('/').next()?;
                    (p == prop && names.iter().any(|n| n == last)).then_some(v)
                }))
            }
            "lottie" => {
                let _ = target;
                // The main composition's layers (the file's first clip) by their own keys; a
                // precomposition's as they play inside their first precomp layer (`#<clip>/`).
                let prefix = match index {
                    Some(0) => String::new(),
                    Some(i) => format!("#{i}/"),
                    None => return Err("lottie: a clip that is not in the written file".into()),
                };
                // A Lottie track names its layer; a composed layer is named after the node
                // (`X.position`, `.bones[X].quaternion`).
                let mut names: Vec<(String, &str)> = Vec::new();
                if let Some((layer, prop)) = track.name.rsplit_once('.') {
                    names.push((layer.to_string(), prop));
                }
                if let Some((node, prop)) = node_property(&track.name) {
                    names.push((sanitize_node_name(&node), prop));
                    names.push((node, prop));
                }
                let mut unknown = None;
                for (layer, prop) in names {
                    let Some(key) = lottie_key(prop) else {
                        unknown = Some(prop.to_string());
                        continue;
                    };
                    if let Some(rows) = values.get(&format!("{prefix}{layer}|{key}")) {
                        return Ok(Some(rows));
                    }
                }
                match unknown {
                    Some(p) => Err(format!(
                        "lottie: layer property '{p}' (not a transform lottie-web reports here)"
                    )),
                    None => Ok(None),
                }
            }
            _ => Err(format!("{} (no mapping in this harness)", self.player)),
        }
    }

    /// How the player's looping playback of `track` (`looped`, at the clip times it wrapped
    /// each loop time to) strays from the source, and when (a time in the second cycle); `None`
    /// when the player did not play it looping; an error when the engine's clip time is not the
    /// loop time wrapped by the clip's duration.
    fn looped(
        &self,
        result: &Value,
        clip: &str,
        index: Option<usize>,
        track: &Track,
        target: Option<&str>,
    ) -> Option<Result<(f64, f64), String>> {
        let looped = result.get("looped").and_then(Value::as_object)?;
        let wrapped = result.get("loopTimes").and_then(Value::as_array)?;
        let rows = self.lookup(looped, clip, index, track, target).ok()??;
        let duration = self.doc.clips.iter().find(|c| c.name == clip)?.duration;
        let times: Vec<f64> = wrapped.iter().map(number).collect();
        for (&t, &w) in loop_times(duration).iter().zip(&times) {
            if (t - duration - w).abs() > 1e-5 {
                return Some(Err(format!(
                    "at {t} s the engine's clip time is {w} s, not {} s",
                    t - duration
                )));
            }
        }
        let (d, at) = deviation(track, &times, rows, 0.0);
        Some(Ok((d, at + duration)))
    }

    /// The times the player's rows of clip `clip` (at `index` in the written file) are at: the
    /// job's, or for a Lottie precomposition its own time at each check, as lottie-web played it
    /// inside its first precomp layer (NaN where that layer is not shown).
    fn check_times(
        &self,
        values: &serde_json::Map<String, Value>,
        clip: &str,
        index: Option<usize>,
    ) -> Result<Vec<f64>, String> {
        match index {
            Some(i) if i > 0 && self.player == "lottie" => {
                let Some(rows) = values.get(&format!("#{i}|time")).and_then(Value::as_array) else {
                    return Err("lottie: a precomposition no precomp layer plays".into());
                };
                Ok(rows.iter().map(|r| number(&r[0])).collect())
            }
            _ => Ok(self.times[clip].clone()),
        }
    }

    /// Checks the player's `result` for this file against the source and `convert`'s report.
    pub fn run(&self, result: &Value, tally: &mut Tally, failures: &mut Vec<String>) {
        let what = format!(
            "{} → {} ({})",
            self.source.file_name().unwrap().to_string_lossy(),
            self.format,
            self.file.file_name().unwrap().to_string_lossy()
        );
        tally.files += 1;
        if let Some(e) = result.get("error").and_then(Value::as_str) {
            // A file written back unchanged that the player refuses as it refuses the source
            // (lottie-web and a precomposition whose asset is missing, say) is the source's
            // problem, not the writer's.
            let unchanged = std::fs::read(self.file).ok() == std::fs::read(self.source).ok();
            if unchanged {
                *tally
                    .unchecked
                    .entry(format!(
                        "{}: refuses the source itself, written back unchanged",
                        self.player
                    ))
                    .or_default() += 1;
            } else {
                failures.push(format!("{what}: the player refused it: {e}"));
            }
            return;
        }
        if let Some(v) = result.get("validator") {
            let errors = v["numErrors"].as_u64().unwrap_or(1);
            let warnings = v["numWarnings"].as_u64().unwrap_or(1);
            if errors + warnings > 0 {
                failures.push(format!(
                    "{what}: glTF-Validator: {errors} error(s), {warnings} warning(s): {}",
                    v["messages"]
                ));
            }
        }
        if result["patched"].is_string() {
            *tally
                .reported
                .entry(format!(
                    "{}: files played with their precomp layers without an asset empty \
                     (lottie-web fails on them)",
                    self.player
                ))
                .or_default() += 1;
        }
        let empty = serde_json::Map::new();
        let values = result["values"].as_object().unwrap_or(&empty);
        let file = self.file.to_string_lossy();
        let Some(entry) = self.report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["path"].as_str() == Some(&*file))
        else {
            failures.push(format!("{what}: not in convert's report"));
            return;
        };
        for t in entry["tracks"].as_array().into_iter().flatten() {
            let clip_name = t["clip"].as_str().unwrap_or_default();
            let track_name = t["track"].as_str().unwrap_or_default();
            let Some(clip) = self.doc.clips.iter().find(|c| c.name == clip_name) else {
                continue;
            };
            let Some(track) = clip.tracks.iter().find(|x| x.name == track_name) else {
                continue;
            };
            if t["target"].is_null() {
                tally.not_written += 1;
                if t["note"].as_str().is_none_or(str::is_empty) {
                    failures.push(format!(
                        "{what}: '{track_name}' not written, no reason given"
                    ));
                }
                continue;
            }
            let index = entry["clips"]
                .as_array()
                .and_then(|c| c.iter().position(|n| n.as_str() == Some(clip_name)));
            if values.is_empty()
                && let Some(e) = result.get("objectLoader").and_then(Value::as_str)
                && e != "ok"
            {
                // An object file no three.js r187 loader reads (format 4.3 geometry-embedded
                // clips, say), written back as it was read: convert must say so.
                if t["note"].as_str().is_none_or(str::is_empty) {
                    failures.push(format!(
                        "{what}: three.js r187 reads no clips from it ({e}), and convert does \
                         not say so for '{track_name}'"
                    ));
                } else {
                    *tally
                        .reported
                        .entry(format!(
                            "{}: plays in no three.js (convert says why; r187: {e})",
                            self.format
                        ))
                        .or_default() += 1;
                }
                continue;
            }
            // lottie-web plays a property driven by an expression through the expression,
            // which clipscope does not evaluate (convert's note says so): its keys are checked in
            // the same file played without its expressions.
            let driven = t["note"].as_str().is_some_and(|n| n.contains("expression"));
            let values = match (driven, result.get("keysOnly").and_then(Value::as_object)) {
                (true, Some(keys_only)) => keys_only,
                _ => values,
            };
            let times = match self.check_times(values, clip_name, index) {
                Ok(times) => times,
                Err(why) => {
                    *tally.unchecked.entry(why).or_default() += 1;
                    continue;
                }
            };
            let rows = match self.lookup(values, clip_name, index, track, t["target"].as_str()) {
                Err(why) => {
                    *tally.unchecked.entry(why).or_default() += 1;
                    continue;
                }
                Ok(None) => {
                    failures.push(format!(
                        "{what}: convert wrote '{track_name}' to {}, but the player shows nothing \
                         for it (it has {:?})",
                        t["target"],
                        values.keys().take(12).collect::<Vec<_>>()
                    ));
                    continue;
                }
                Ok(Some(rows)) => rows,
            };
            // A composed Lottie file: lottie-web's pixels, degrees and percent mapped back into
            // the source's units (the documented mapping, formats.md).
            let composed;
            let rows = if self.player == "lottie" && self.doc.format != Format::Lottie {
                composed = unmap_lottie(rows, track, values, result);
                &composed
            } else {
                rows
            };
            if rows
                .as_array()
                .is_some_and(|r| r.iter().all(Value::is_null))
            {
                *tally
                    .unchecked
                    .entry(format!(
                        "{}: never shown in the composition's time (out of its in/out range at \
                         every check)",
                        self.player
                    ))
                    .or_default() += 1;
                continue;
            }
            let deadband = if self.player == "lottie" {
                lottie_deadband(track, self.doc.format != Format::Lottie)
            } else {
                0.0
            };
            let (mut played, mut at) = deviation(track, &times, rows, deadband);
            // The anim state loops by default: across the seam the engine must play the source
            // looped (its clip time wrapped as three.js's LoopRepeat wraps it).
            match self.looped(result, clip_name, index, track, t["target"].as_str()) {
                Some(Ok((d, when))) => {
                    tally.looped += 1;
                    if d > played {
                        (played, at) = (d, when);
                    }
                }
                Some(Err(e)) => failures.push(format!("{what}: '{track_name}' looped: {e}")),
                None => {}
            }
            let reported = t["deviation"].as_f64().unwrap_or(f64::INFINITY);
            let tolerance = if track.kind == TrackKind::Quaternion {
                ROTATION_DEG
            } else {
                RELATIVE
            };
            if played <= tolerance && driven {
                *tally
                    .reported
                    .entry(format!(
                        "{}: driven by an expression (its keys play as the source's)",
                        self.format
                    ))
                    .or_default() += 1;
            } else if played <= tolerance {
                tally.faithful += 1;
            } else if reported > tolerance {
                *tally
                    .reported
                    .entry(format!(
                        "{} {} beyond the tolerance",
                        self.format,
                        t["quantity"].as_str().unwrap_or("")
                    ))
                    .or_default() += 1;
            } else {
                failures.push(format!(
                    "{what}: '{track_name}' plays {played:.3e} from the source at {at} s in the \
                     player, but convert reports {reported:.3e}"
                ));
            }
        }
    }
}

/// How far lottie-web lets a shown property lag behind its value, in the track's units:
/// `setVValue` takes a new value only when it moves more than 10⁻⁵ in the property's internal
/// unit (pixels; radians for angles; fractions for scale and opacity, which are percent × 0.01),
/// so a fade that ends 10⁻⁶ from 0 keeps showing 10⁻⁴ %. A composed layer's values are mapped
/// back into the source's units (pixels / 100, percent / 100); its rotation is a quaternion,
/// compared in degrees, where 10⁻⁵ rad is far below the tolerance.
fn lottie_deadband(track: &Track, composed: bool) -> f64 {
    const INTERNAL: f64 = 1e-5;
    let property = track.name.rsplit('.').next().unwrap_or_default();
    let per_unit = match property {
        "opacity" | "scale" => 100.0,
        "rotation" | "rotationX" | "rotationY" | "rotationZ" | "skew" | "skewAxis"
        | "orientation" => 180.0 / std::f64::consts::PI,
        "quaternion" => 0.0,
        _ => 1.0,
    };
    let composed_scale = match property {
        "position" | "opacity" | "scale" if composed => 0.01,
        _ => 1.0,
    };
    INTERNAL * per_unit * composed_scale
}

/// The key `players.mjs` reports a Lottie layer property under, by clipscope's property name.
fn lottie_key(property: &str) -> Option<&'static str> {
    Some(match property {
        "position" => "p",
        "position[x]" => "px",
        "position[y]" => "py",
        "position[z]" => "pz",
        "anchor" => "a",
        "scale" => "s",
        "rotation" | "rotationZ" | "quaternion" => "r",
        "rotationX" => "rx",
        "rotationY" => "ry",
        "orientation" => "or",
        "skew" => "sk",
        "skewAxis" => "sa",
        "opacity" => "o",
        _ => return None,
    })
}

/// lottie-web's rows for a composed layer in the source track's units: position
/// `((x − 256) / 100, −(y − 256) / 100)` for a layer without parent (else from 0), rotation a
/// turn about z by the negated degrees, scale and opacity percent / 100.
fn unmap_lottie(
    rows: &Value,
    track: &Track,
    values: &serde_json::Map<String, Value>,
    result: &Value,
) -> Value {
    let prop = track.name.rsplit('.').next().unwrap_or("");
    let layer = values
        .iter()
        .find(|(_, v)| std::ptr::eq(*v, rows))
        .and_then(|(k, _)| k.rsplit_once('|'))
        .map(|(l, _)| l.to_string())
        .unwrap_or_default();
    let parented = result["parents"][&layer].as_bool().unwrap_or(false);
    let center = if parented { 0.0 } else { 256.0 };
    let map = |row: &Value| -> Value {
        let Some(row) = row.as_array() else {
            return Value::Null;
        };
        let n: Vec<f64> = row.iter().map(number).collect();
        let out: Vec<f64> = match prop {
            "position" => vec![(n[0] - center) / 100.0, -(n[1] - center) / 100.0],
            "quaternion" => {
                let h = (-n[0]).to_radians() / 2.0;
                vec![0.0, 0.0, h.sin(), h.cos()]
            }
            _ => n.iter().map(|v| v / 100.0).collect(),
        };
        serde_json::json!(out)
    };
    Value::Array(
        rows.as_array()
            .map_or(Vec::new(), |r| r.iter().map(map).collect()),
    )
}

/// The largest deviation between the source `track` (sampled as `clipscope sample` does) and
/// the player's `rows` at `times`, and when: degrees between rotations, else relative
/// ([`RELATIVE`]).
///
/// The source is what it plays within one `f32` step of each check time: clipscope's key and
/// check times are `f32` seconds (three.js's `Float32Array`s), while lottie-web, say, evaluates
/// its keyframes in `f64` frames, so a key sits up to half a step away from where the player has
/// it. Where a value moves fast (a fade of 100 in two frames moves 3.6·10⁻⁴ per half step at
/// 8 s), that alone exceeds the tolerance; a value the source reaches within a step of the time
/// is what it plays there.
///
/// `deadband` is how far the player may lag behind a value, in the track's units (lottie-web's).
fn deviation(track: &Track, times: &[f64], rows: &Value, deadband: f64) -> (f64, f64) {
    let rows = rows.as_array().map_or(&[][..], Vec::as_slice);
    let property = track.name.rsplit('.').next().unwrap_or_default();
    let position = track.value_size() > 1 && property.to_ascii_lowercase().contains("position");
    let mut sampler = Sampler::new(track);
    let mut worst = (0.0f64, 0.0);
    let mut sample = |t: f64| -> Vec<f64> {
        sampler
            .evaluate(t)
            .as_numbers()
            .unwrap_or_default()
            .iter()
            .map(|&v| v as f64)
            .collect()
    };
    for (i, &t) in times.iter().enumerate() {
        let Some(row) = rows.get(i).and_then(Value::as_array) else {
            // The layer is not shown at this time (lottie-web evaluates shown layers only).
            continue;
        };
        let step = t as f32;
        let around = [
            sample(step.next_down() as f64),
            sample(t),
            sample(step.next_up() as f64),
        ];
        let got: Vec<f64> = row.iter().map(number).collect();
        let d = if track.kind == TrackKind::Quaternion {
            around
                .iter()
                .map(|want| angle(want, &got))
                .fold(f64::INFINITY, f64::min)
        } else {
            let want = &around[1];
            let n = want.len().min(got.len());
            let length = want.iter().map(|v| v * v).sum::<f64>().sqrt();
            (0..n)
                .map(|c| {
                    let values = around.iter().filter_map(|w| w.get(c).copied());
                    let lo = values.clone().fold(f64::INFINITY, f64::min);
                    let hi = values.fold(f64::NEG_INFINITY, f64::max);
                    let off = if got[c] >= lo && got[c] <= hi {
                        0.0
                    } else {
                        ((got[c] - lo).abs().min((got[c] - hi).abs()) - deadband).max(0.0)
                    };
                    let scale = if position { length } else { want[c].abs() };
                    let d = off / scale.max(1.0);
                    if d.is_nan() { f64::INFINITY } else { d }
                })
                .fold(if n == 0 { f64::INFINITY } else { 0.0 }, f64::max)
        };
        if d > worst.0 {
            worst = (d, t);
        }
    }
    worst
}

/// Degrees between two rotations given as quaternions of any length and sign.
fn angle(a: &[f64], b: &[f64]) -> f64 {
    let norm = |q: &[f64]| q.iter().map(|x| x * x).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if a.len() != 4 || b.len() != 4 || !(na > 0.0 && nb > 0.0) {
        return f64::INFINITY;
    }
    let dot = (a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() / (na * nb)).abs();
    2.0 * dot.min(1.0).acos().to_degrees()
}

/// The times a looping player is checked at: 39 evenly inside the clip's second cycle.
pub fn loop_times(duration: f64) -> Vec<f64> {
    (1..40)
        .map(|i| duration + duration * i as f64 / 40.0)
        .collect()
}
