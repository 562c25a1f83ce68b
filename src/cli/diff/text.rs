//! The diff as people read it, in a terminal or in `git diff`: one block per changed clip,
//! one line per changed track saying what changed and by how much, never the raw numbers.
//!
//! ```text
//! clipscope diff a/walk.gltf b/walk.gltf
//! ~ clip "walk": 1 of 52 tracks changed (51 unchanged)
//!     ~ .bones[hip].quaternion: up to 15.0° at 0.5 s; 1 key added (0.75 s)
//!     joints in world space: hand moved 0.12 m at 0.5 s, turned 15.0° at 0.5 s; …
//! ```

use std::fmt::Write as _;

use super::Version;
use clipscope_core::model::ops::diff::{
    ClipDiff, Diff, JointChange, Measure, SampledValue, Status, TrackDiff,
};
use clipscope_core::text::thousands;

/// How many key times a line lists before `…`.
const LISTED_TIMES: usize = 4;

/// How many joints a clip's joint line names.
const LISTED_JOINTS: usize = 6;

/// The text report of `diff` from `old` to `new`, ending with a newline.
pub fn report(old: &Version, new: &Version, diff: &Diff) -> String {
    let mut out = format!("clipscope diff {} {}\n", old.label, new.label);
    let length = super::length_symbol(old, new);
    match (&old.doc, &new.doc) {
        (None, Some(d)) => {
            let _ = writeln!(out, "new file: {} ({})", new.label, d.format.spec().name);
        }
        (Some(d), None) => {
            let _ = writeln!(
                out,
                "deleted file: {} ({})",
                old.label,
                d.format.spec().name
            );
        }
        (Some(a), Some(b)) if a.format != b.format => {
            let _ = writeln!(
                out,
                "formats: {} → {}",
                a.format.spec().name,
                b.format.spec().name
            );
        }
        _ => {}
    }
    for clip in &diff.clips {
        clip_block(&mut out, old, new, clip, length);
    }
    if diff.is_identical() {
        let clips = new.clips();
        let tracks: usize = clips.iter().map(|c| c.tracks.len()).sum();
        let _ = writeln!(
            out,
            "no changes: the same {} clip(s), {} track(s) (the bytes may differ: layout, number \
             formatting or data clipscope does not compare)",
            clips.len(),
            thousands(tracks)
        );
    } else if diff.unchanged_clips > 0 {
        let _ = writeln!(out, "{} clip(s) unchanged", diff.unchanged_clips);
    }
    out
}

/// One clip's lines.
fn clip_block(out: &mut String, old: &Version, new: &Version, clip: &ClipDiff, length: &str) {
    let name = quoted(&clip.name);
    match clip.status {
        Status::Added | Status::Removed => {
            let (sign, what, version, index) = match clip.status {
                Status::Added => ('+', "added", new, clip.index.new),
                _ => ('-', "removed", old, clip.index.old),
            };
            let duration = index
                .and_then(|i| version.clips().get(i))
                .map_or(String::new(), |c| format!("{} s, ", seconds(c.duration)));
            let counts = if clip.status == Status::Added {
                clip.counts.new
            } else {
                clip.counts.old
            };
            let _ = writeln!(
                out,
                "{sign} clip {name} {what}: {duration}{} track(s), {} key(s)",
                thousands(counts.tracks),
                thousands(counts.keys)
            );
            return;
        }
        Status::Changed => {}
    }
    let renamed = clip
        .renamed_from
        .as_ref()
        .map_or(String::new(), |r| format!(" (renamed from {})", quoted(r)));
    let changed = clip.tracks.len();
    let _ = writeln!(
        out,
        "~ clip {name}{renamed}: {}",
        if changed == 0 {
            format!("no track changed ({} unchanged)", clip.unchanged_tracks)
        } else {
            format!(
                "{changed} track(s) changed, {} unchanged",
                clip.unchanged_tracks
            )
        }
    );
    if let Some(d) = clip.duration {
        let _ = writeln!(
            out,
            "    duration {} s → {} s",
            seconds(d.old),
            seconds(d.new)
        );
    }
    if let Some(m) = clip.blend_mode {
        let _ = writeln!(
            out,
            "    blend mode {} → {}",
            m.old.0.name(),
            m.new.0.name()
        );
    }
    for m in &clip.markers {
        let line = match (m.status, m.old_time, m.new_time) {
            (Status::Added, _, Some(t)) => {
                format!("+ marker {} at {} s", quoted(&m.name), seconds(t))
            }
            (Status::Removed, Some(t), _) => {
                format!("- marker {} at {} s", quoted(&m.name), seconds(t))
            }
            (_, Some(a), Some(b)) => format!(
                "~ marker {} moved {} s → {} s",
                quoted(&m.name),
                seconds(a),
                seconds(b)
            ),
            _ => continue,
        };
        let _ = writeln!(out, "    {line}");
    }
    if clip.user_data {
        let _ = writeln!(out, "    user data changed");
    }
    for track in &clip.tracks {
        let _ = writeln!(out, "    {}", track_line(track));
    }
    if !clip.joints.is_empty() {
        joint_lines(out, &clip.joints, length);
    }
}

/// One track's line: its sign, name and what changed.
pub fn track_line(t: &TrackDiff) -> String {
    let span = |r: Option<(f32, f32)>| {
        r.map_or(String::new(), |(a, b)| {
            format!(", {}–{} s", seconds(a), seconds(b))
        })
    };
    match t.status {
        Status::Added => format!(
            "+ {}: {}, {} key(s){}",
            t.name,
            t.kind.0,
            thousands(t.keys.new),
            span(t.range.new)
        ),
        Status::Removed => format!(
            "- {}: {}, {} key(s){}",
            t.name,
            t.kind.0,
            thousands(t.keys.old),
            span(t.range.old)
        ),
        Status::Changed => format!("~ {}: {}", t.name, changes(t).join("; ")),
    }
}

/// The phrases describing a changed track.
fn changes(t: &TrackDiff) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = &t.renamed_from {
        out.push(format!("renamed from {r}"));
    }
    if let Some(k) = t.kind_change {
        out.push(format!("type {} → {}", k.old.0, k.new.0));
    }
    if let Some(v) = t.value_size {
        out.push(format!("values per key {} → {}", v.old, v.new));
    }
    if let Some(i) = t.interpolation {
        out.push(format!("interpolation {} → {}", i.old.0, i.new.0));
    }
    if let Some(c) = &t.largest {
        out.push(match (t.measure, &c.old, &c.new) {
            (Measure::Discrete, a, b) => format!(
                "{} at {} s (differs at {} sampled time(s))",
                values(a, b),
                seconds(c.time),
                c.amount
            ),
            _ => format!(
                "up to {}{} at {} s",
                amount(c.amount),
                suffix(t.unit.as_deref()),
                seconds(c.time)
            ),
        });
    }
    if let Some(by) = t.keys_shifted {
        let sign = if by > 0.0 { "+" } else { "" };
        let (by, _) = seconds_apart(by, 0.0);
        out.push(format!("every key moved {sign}{by} s"));
    }
    let keys_changed = t.keys.old != t.keys.new;
    if !t.keys_added.is_empty() {
        out.push(format!(
            "{} added ({})",
            key_count(t.keys_added.len()),
            times(&t.keys_added)
        ));
    }
    if !t.keys_removed.is_empty() {
        out.push(format!(
            "{} removed ({})",
            key_count(t.keys_removed.len()),
            times(&t.keys_removed)
        ));
    }
    if !t.keys_moved.is_empty() {
        let moves: Vec<String> = t
            .keys_moved
            .iter()
            .take(LISTED_TIMES)
            .map(|(a, b)| {
                let (a, b) = seconds_apart(*a as f64, *b as f64);
                format!("{a} → {b} s")
            })
            .collect();
        let more = if t.keys_moved.len() > LISTED_TIMES {
            ", …"
        } else {
            ""
        };
        out.push(format!(
            "{} moved ({}{more})",
            key_count(t.keys_moved.len()),
            moves.join(", ")
        ));
    }
    if keys_changed {
        out.push(format!(
            "{} → {} keys",
            thousands(t.keys.old),
            thousands(t.keys.new)
        ));
    }
    if t.largest.is_none() && t.kind_change.is_none() && t.value_size.is_none() {
        out.push("same motion".into());
    }
    out
}

/// The joints' lines, the largest moves first.
fn joint_lines(out: &mut String, joints: &[JointChange], length: &str) {
    let _ = writeln!(out, "    joints in world space:");
    for j in joints.iter().take(LISTED_JOINTS) {
        let _ = writeln!(out, "      {}: {}", j.name, joint_change(j, length));
    }
    if joints.len() > LISTED_JOINTS {
        let _ = writeln!(out, "      … {} more", joints.len() - LISTED_JOINTS);
    }
}

/// How far a joint moved and turned in world space, `length` the unit of the move.
pub fn joint_change(j: &JointChange, length: &str) -> String {
    let mut parts = Vec::new();
    if j.distance > 0.0 {
        parts.push(format!(
            "moved {} {length} at {} s",
            amount(j.distance),
            seconds(j.distance_time)
        ));
    }
    if j.angle > 0.0 {
        parts.push(format!(
            "turned {}° at {} s",
            amount(j.angle),
            seconds(j.angle_time)
        ));
    }
    parts.join(", ")
}

/// The unit after an amount: `°` directly, others after a space, nothing for plain numbers.
pub fn suffix(unit: Option<&str>) -> String {
    match unit {
        Some("°") => "°".into(),
        Some(u) => format!(" {u}"),
        None => String::new(),
    }
}

/// `1 key` or `N keys`.
fn key_count(n: usize) -> String {
    if n == 1 {
        "1 key".into()
    } else {
        format!("{} keys", thousands(n))
    }
}

/// The first few times of a list, in seconds.
fn times(list: &[f32]) -> String {
    let mut shown: Vec<String> = list
        .iter()
        .take(LISTED_TIMES)
        .map(|&t| format!("{} s", seconds(t)))
        .collect();
    if list.len() > LISTED_TIMES {
        shown.push("…".into());
    }
    shown.join(", ")
}

/// Two discrete values: `"a" → "b"`, `true → false`.
fn values(a: &SampledValue, b: &SampledValue) -> String {
    let one = |v: &SampledValue| match v {
        SampledValue::Text(s) => quoted(s),
        SampledValue::Bool(b) => b.to_string(),
        SampledValue::Numbers(n) => n
            .iter()
            .map(|x| amount(*x as f64))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!("{} → {}", one(a), one(b))
}

/// A name in quotes, on one line.
fn quoted(s: &str) -> String {
    clipscope_core::text::one_line(format!("{s:?}"))
}

/// Seconds to the millisecond, without trailing zeros (`0.5`, `1.234`, `2`).
pub fn seconds(t: impl Into<f64>) -> String {
    let t: f64 = t.into();
    if !t.is_finite() {
        return t.to_string();
    }
    let text = format!("{t:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Two times written so they read as different: to the millisecond, or with all the digits
/// of their `f32` when that would make them look the same.
fn seconds_apart(a: f64, b: f64) -> (String, String) {
    let (x, y) = (seconds(a), seconds(b));
    if x == y && a != b {
        ((a as f32).to_string(), (b as f32).to_string())
    } else {
        (x, y)
    }
}

/// An amount to three significant digits (`15.0`, `0.0123`, `1.20e-7`).
pub fn amount(x: f64) -> String {
    if x.is_infinite() {
        return "∞".into();
    }
    if x == 0.0 || !x.is_finite() {
        return "0".into();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if magnitude >= 3 {
        format!("{x:.0}")
    } else if magnitude >= -4 {
        format!("{x:.*}", (2 - magnitude).max(0) as usize)
    } else {
        format!("{x:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(seconds(0.5), "0.5");
        assert_eq!(seconds(2.0), "2");
        assert_eq!(seconds(1.23456), "1.235");
        assert_eq!(amount(15.0), "15.0");
        assert_eq!(amount(0.012345), "0.0123");
        assert_eq!(amount(123.4), "123");
        assert_eq!(amount(2.5e-7), "2.50e-7");
        assert_eq!(amount(f64::INFINITY), "∞");
    }
}
