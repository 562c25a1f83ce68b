//! Writing bone tracks as legacy three.js JSON: `.bones[NAME].position` / `.quaternion` /
//! `.scale` tracks grouped back into one `hierarchy` entry per bone.
//!
//! Bones are the skeleton's, in order (entry `h` animates bone `h`), followed by any bone a
//! track names that the skeleton lacks (a root with the identity rest pose). Each entry's keys
//! are the bone's track times merged in order; a plain key holds only the channels that have a
//! key at its time, which `flattenJSON` reads back exactly (keys without a channel are skipped
//! for it). The serialized shape needs every channel at every time, so a channel without a key
//! at a merged time is sampled there with its own interpolant (exact when the channels share
//! their times, which is the usual case).
//!
//! A document read from a legacy file is written back with every other top-level field
//! verbatim and only its animations replaced; the clips a morph model implies are left out (its
//! `morphTargets` already say them), and animations that gave no clip are kept as they were.

use std::collections::{HashMap, HashSet};

use serde_json::value::RawValue;

use super::{AnimationsShape, LegacyLayout};
use crate::formats::fidelity::Player;
use crate::formats::fidelity::fit::linearized;
use crate::formats::json::number::{write_f32, write_f64, write_u64};
use crate::formats::json::{Out, write_str};
use crate::formats::{Document, NotWritable, Tolerance, WriteOptions, adapt};
use crate::model::interpolant::Sampler;
use crate::model::ops::create_clips_from_morph_target_sequences;
use crate::model::{BlendMode, Clip, Skeleton, Track, TrackKind};

/// The channels of a hierarchy key: key field, track property and track kind.
const CHANNELS: [(&str, &str, TrackKind); 3] = [
    ("pos", "position", TrackKind::Vector),
    ("rot", "quaternion", TrackKind::Quaternion),
    ("scl", "scale", TrackKind::Vector),
];

/// The bone a track animates and its channel (0 position, 1 quaternion, 2 scale), when its name
/// is `.bones[NAME].position`, `.quaternion` or `.scale`.
fn bone_channel(track: &Track) -> Option<(&str, usize)> {
    let rest = track.name.strip_prefix(".bones[")?;
    let (bone, property) = rest.rsplit_once("].")?;
    let channel = CHANNELS.iter().position(|(_, p, _)| *p == property)?;
    Some((bone, channel))
}

/// The clips a legacy morph model implies (made from its numbered targets when it was read).
fn implied_clips(doc: &Document) -> Vec<Clip> {
    match (doc.source::<LegacyLayout>(), &doc.mesh) {
        (Some(layout), Some(mesh)) => {
            create_clips_from_morph_target_sequences(&mesh.target_names(), layout.morph_fps, false)
        }
        _ => Vec::new(),
    }
}

/// The clips that go into `animations`: all but those the model's morph targets imply (and
/// that are unchanged).
fn written_clips(doc: &Document) -> Vec<&Clip> {
    let implied = implied_clips(doc);
    doc.clips
        .iter()
        .filter(|c| {
            !implied.iter().any(|i| {
                i.name == c.name
                    && i.duration.to_bits() == c.duration.to_bits()
                    && i.tracks == c.tracks
                    && c.blend_mode == BlendMode::Normal
            })
        })
        .collect()
}

/// The bone and channel a node track would be written as: `.bones[X].position` as it is, and
/// `X.position` / `.quaternion` / `.scale` (a node of the scene) as bone `X`.
fn node_channel(name: &str) -> Option<(&str, usize)> {
    CHANNELS
        .iter()
        .enumerate()
        .find_map(|(c, (_, property, _))| {
            let node = name.strip_suffix(*property)?.strip_suffix('.')?;
            let node = node
                .strip_prefix(".bones[")
                .and_then(|n| n.strip_suffix(']'))
                .unwrap_or(node);
            (!node.is_empty() && !node.starts_with('.')).then_some((node, c))
        })
}

/// Why legacy hierarchy keys cannot hold `track` in any form (after renaming node tracks to
/// bones and baking curves), if they cannot.
fn unholdable(track: &Track) -> Option<&'static str> {
    let Some((_, channel)) = node_channel(&track.name) else {
        return Some("legacy three.js JSON animates bone position, quaternion and scale only");
    };
    let (kind, size) = match channel {
        1 => (TrackKind::Quaternion, 4),
        _ => (TrackKind::Vector, 3),
    };
    if track.kind != kind || track.values.as_numbers().is_none() {
        return Some("the wrong kind of track for a legacy bone channel");
    }
    if track.value_size() != size {
        return Some("the wrong number of components for a legacy bone channel");
    }
    None
}

/// The written clips as legacy keys can hold them, and what that took: node tracks renamed to
/// `.bones[X]`, steps and curves written as linear keys that three.js plays as the source (keys
/// added until within `tolerance`), and tracks legacy JSON has no place for (or a second track
/// for one bone channel) left out. One note per kind of change.
fn prepare(doc: &Document, tolerance: &Tolerance) -> (Vec<Clip>, Vec<String>) {
    let mut dropped: Vec<(String, String)> = Vec::new();
    let mut renamed = 0usize;
    let mut baked: Vec<String> = Vec::new();
    let mut clips = Vec::new();
    for clip in written_clips(doc) {
        let mut seen = HashSet::new();
        let mut tracks = Vec::with_capacity(clip.tracks.len());
        for track in &clip.tracks {
            if let Some(why) = unholdable(track) {
                dropped.push((track.name.clone(), why.to_string()));
                continue;
            }
            let Some((bone, channel)) = node_channel(&track.name) else {
                continue;
            };
            if !seen.insert((bone.to_string(), channel)) {
                dropped.push((
                    track.name.clone(),
                    "a second track for the same bone channel".to_string(),
                ));
                continue;
            }
            let name = format!(".bones[{bone}].{}", CHANNELS[channel].1);
            let mut out = if adapt::is_linear(track) || track.is_empty() {
                track.clone()
            } else {
                let (linear, added) = linearized(track, Player::ThreeJs, tolerance);
                baked.push(format!("'{}' ({} keys added)", track.name, added));
                linear
            };
            if out.name != name {
                renamed += 1;
                out.name = name;
            }
            tracks.push(out);
        }
        let mut written = clip.clone();
        written.tracks = tracks;
        clips.push(written);
    }
    let mut notes = adapt::summarize(&dropped);
    if renamed > 0 {
        notes.push(format!(
            "{renamed} node track(s) written as bones (legacy three.js JSON animates bones; \
             they read back as '.bones[NAME].…')"
        ));
    }
    if !baked.is_empty() {
        let shown: Vec<&str> = baked.iter().take(4).map(String::as_str).collect();
        notes.push(format!(
            "the interpolation of {} track(s), written as linear keys that play as the curve \
             (legacy keys are always linear): {}{}",
            baked.len(),
            shown.join(", "),
            if baked.len() > 4 { ", …" } else { "" }
        ));
    }
    (clips, notes)
}

/// `Ok` unless a written track is broken beyond writing: a key time that is not a finite
/// number, or times that go backwards. Everything else legacy JSON cannot hold is adapted or
/// left out and reported by [`field_losses`].
pub(crate) fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    let (clips, _) = prepare(doc, &Tolerance::default());
    let mut bad = Vec::new();
    for clip in &clips {
        for track in &clip.tracks {
            let why = if track.times.iter().any(|t| !t.is_finite()) {
                Some("a key time that is not a finite number")
            } else if track.times.windows(2).any(|w| w[1] < w[0]) {
                Some("key times out of order")
            } else if track
                .values
                .as_numbers()
                .is_some_and(|v| v.iter().any(|x| x.is_nan()))
            {
                Some("a value that is not a number")
            } else {
                None
            };
            if let Some(why) = why {
                bad.push(format!(
                    "clip '{}' track '{}': {why}",
                    clip.name, track.name
                ));
            }
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    let count = bad.len();
    let mut shown = bad.into_iter().take(5).collect::<Vec<_>>().join("; ");
    if count > 5 {
        shown.push_str(&format!("; and {} more", count - 5));
    }
    Err(NotWritable::new(
        doc.format,
        format!("legacy three.js JSON cannot hold {count} track(s) ({shown})"),
    ))
}

/// What legacy output changes or leaves out: tracks it has no place for, node tracks written as
/// bones, baked curves, clip `userData`, unknown track fields and tracks without keys. One line
/// each (or per kind of change).
pub(crate) fn field_losses(doc: &Document) -> Vec<String> {
    let (clips, mut lost) = prepare(doc, &Tolerance::default());
    for clip in &clips {
        if clip
            .user_data_with_layers()
            .as_object()
            .is_none_or(|o| !o.is_empty())
        {
            lost.push(format!("clip '{}': its userData", clip.name));
        }
        for track in &clip.tracks {
            lost.extend(adapt::keys_or_fields_lost(clip, track));
        }
    }
    lost
}

/// The bones hierarchy entries refer to: the skeleton's, then bones only tracks name.
struct Bones<'a> {
    /// Bone names, in hierarchy order.
    names: Vec<&'a str>,
    /// Each bone's parent index.
    parents: Vec<Option<usize>>,
    /// How many of them come from the skeleton.
    known: usize,
    /// Position of each name (the first bone of a repeated name).
    index: HashMap<&'a str, usize>,
}

impl<'a> Bones<'a> {
    /// The skeleton's bones followed by the bones `clips` name that it lacks, in order.
    fn new(skeleton: Option<&'a Skeleton>, clips: &[&'a Clip]) -> Bones<'a> {
        let mut bones = Bones {
            names: Vec::new(),
            parents: Vec::new(),
            known: 0,
            index: HashMap::new(),
        };
        for b in skeleton.map_or(&[][..], |s| s.bones.as_slice()) {
            bones.add(&b.name, b.parent);
        }
        bones.known = bones.names.len();
        for clip in clips {
            for track in &clip.tracks {
                if let Some((bone, _)) = bone_channel(track)
                    && !bones.index.contains_key(bone)
                {
                    bones.add(bone, None);
                }
            }
        }
        bones
    }

    /// Appends a bone.
    fn add(&mut self, name: &'a str, parent: Option<usize>) {
        self.index.entry(name).or_insert(self.names.len());
        self.names.push(name);
        self.parents.push(parent);
    }

    /// Each bone's tracks in `clip`: `[position, quaternion, scale]` per hierarchy entry.
    fn group(&self, clip: &'a Clip) -> Vec<[Option<&'a Track>; 3]> {
        let mut out = vec![[None; 3]; self.names.len()];
        for track in &clip.tracks {
            if track.is_empty() {
                continue;
            }
            if let Some((bone, channel)) = bone_channel(track)
                && let Some(&h) = self.index.get(bone)
            {
                out[h][channel].get_or_insert(track);
            }
        }
        out
    }
}

/// One written key: its time and, per channel, the index of that channel's key written at it.
struct Step {
    /// The key's time.
    time: f32,
    /// The channel keys at this time (`None`: the channel has no key here).
    keys: [Option<usize>; 3],
}

/// Merges the key times of a bone's channels, keeping each channel's keys in their order (so
/// repeated or unsorted times survive): each step takes the earliest next key of every channel
/// and consumes the next key of each channel that has one at exactly that time.
fn merge(tracks: &[Option<&Track>; 3]) -> Vec<Step> {
    let mut next = [0usize; 3];
    let mut steps = Vec::new();
    loop {
        let heads: [Option<f32>; 3] =
            std::array::from_fn(|c| tracks[c].and_then(|t| t.times.get(next[c]).copied()));
        let Some(time) = heads.iter().flatten().copied().min_by(f32::total_cmp) else {
            return steps;
        };
        let mut keys = [None; 3];
        for (c, key) in keys.iter_mut().enumerate() {
            if heads[c].is_some_and(|t| t.total_cmp(&time).is_eq()) {
                *key = Some(next[c]);
                next[c] += 1;
            }
        }
        steps.push(Step { time, keys });
    }
}

/// The values of key `k` of `track`.
fn key_values(track: &Track, k: usize) -> &[f32] {
    let vs = track.value_size();
    let values = track.values.as_numbers().unwrap_or_default();
    values.get(k * vs..(k + 1) * vs).unwrap_or_default()
}

/// Starts field `name` of an object written on one line.
fn inline_field(out: &mut Out, name: &str, first: bool) {
    if !first {
        out.separator();
    }
    write_str(&mut out.buf, name);
    out.buf.push(b':');
    if out.pretty {
        out.buf.push(b' ');
    }
}

/// `-1` or the parent's index.
fn write_parent(out: &mut Out, parent: Option<usize>) {
    match parent {
        Some(p) => write_u64(&mut out.buf, p as u64),
        None => out.buf.extend_from_slice(b"-1"),
    }
}

/// The whole document as legacy three.js JSON.
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    let (prepared, _) = prepare(doc, &opts.tolerance);
    let clips: Vec<&Clip> = prepared.iter().collect();
    let keys: usize = clips.iter().map(|c| c.key_count()).sum();
    let mut out = Out::new(opts, 0, keys * 48 + 1024);
    let bones = Bones::new(doc.skeleton.as_ref(), &clips);
    match doc.source::<LegacyLayout>() {
        Some(layout) => {
            let serialized = opts.serialized || layout.serialized;
            write_layout(
                &mut out,
                layout,
                &bones,
                &clips,
                serialized,
                opts,
                doc.skeleton.as_ref(),
            );
        }
        None => {
            out.open(b'{');
            out.key("metadata");
            out.open(b'{');
            out.key("formatVersion");
            out.buf.extend_from_slice(b"3.1");
            out.key("generatedBy");
            write_str(&mut out.buf, "clipscope");
            out.close(b'}');
            out.key("bones");
            out.open(b'[');
            write_bones(&mut out, &bones, 0, doc.skeleton.as_ref());
            out.close(b']');
            out.key("animations");
            out.open(b'[');
            for clip in &clips {
                out.next();
                write_animation(&mut out, clip, &bones, opts.serialized, opts);
            }
            out.close(b']');
            out.close(b'}');
        }
    }
    if opts.pretty {
        out.buf.push(b'\n');
    }
    out.finish().unwrap_or_default().concat()
}

/// A file read from disk: its fields verbatim, the animations replaced, extra bones appended.
fn write_layout(
    out: &mut Out,
    layout: &LegacyLayout,
    bones: &Bones,
    clips: &[&Clip],
    serialized: bool,
    opts: &WriteOptions,
    skeleton: Option<&Skeleton>,
) {
    let fields = &layout.fields;
    let items = clips.len() + layout.skipped.len();
    let animations = items > 0 || layout.shape != AnimationsShape::None;
    let at = layout.animations_at.or(animations.then_some(fields.len()));
    let extra_bones = bones.names.len() > bones.known;
    let has_bones = fields.iter().any(|(k, _)| k == "bones");
    out.open(b'{');
    for i in 0..=fields.len() {
        if at == Some(i) {
            if extra_bones && !has_bones {
                out.key("bones");
                out.open(b'[');
                write_bones(out, bones, 0, skeleton);
                out.close(b']');
            }
            if animations {
                let one = items == 1;
                let (key, array) = match layout.shape {
                    AnimationsShape::Single if one => ("animation", false),
                    AnimationsShape::Object if one => ("animations", false),
                    _ => ("animations", true),
                };
                out.key(key);
                if array {
                    out.open(b'[');
                }
                for clip in clips {
                    if array {
                        out.next();
                    }
                    write_animation(out, clip, bones, serialized, opts);
                }
                for raw in &layout.skipped {
                    if array {
                        out.next();
                    }
                    out.raw(raw);
                }
                if array {
                    out.close(b']');
                }
            }
        }
        let Some((k, v)) = fields.get(i) else {
            continue;
        };
        out.key(k);
        if k == "bones" && extra_bones {
            // The original bones verbatim, then the new ones.
            let original: Vec<&RawValue> = serde_json::from_str(v.get()).unwrap_or_default();
            out.open(b'[');
            for raw in &original {
                out.next();
                out.raw(raw);
            }
            write_bones(out, bones, bones.known, skeleton);
            out.close(b']');
        } else {
            out.raw(v);
        }
    }
    out.close(b'}');
}

/// Bone objects `{parent, name, pos, rotq, scl}` for bones `from..`, one per line; rest
/// transforms from the skeleton where it has the bone, the identity otherwise.
fn write_bones(out: &mut Out, bones: &Bones, from: usize, skeleton: Option<&Skeleton>) {
    for h in from..bones.names.len() {
        let rest = skeleton
            .and_then(|s| s.bones.get(h))
            .filter(|_| h < bones.known);
        let (pos, rotq, scl) = match rest {
            Some(b) => (b.position, b.rotation, b.scale),
            None => ([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
        };
        out.next();
        out.buf.push(b'{');
        inline_field(out, "parent", true);
        write_parent(out, bones.parents[h]);
        inline_field(out, "name", false);
        write_str(&mut out.buf, bones.names[h]);
        inline_field(out, "pos", false);
        out.f32_array(&pos);
        inline_field(out, "rotq", false);
        out.f32_array(&rotq);
        inline_field(out, "scl", false);
        out.f32_array(&scl);
        out.buf.push(b'}');
    }
}

/// One animation `{name, [fps], length, [blendMode], hierarchy, …extras}`.
fn write_animation(
    out: &mut Out,
    clip: &Clip,
    bones: &Bones,
    serialized: bool,
    opts: &WriteOptions,
) {
    out.open(b'{');
    out.key("name");
    write_str(&mut out.buf, &clip.name);
    if let Some(fps) = clip.extras.get("fps") {
        out.key("fps");
        out.raw(fps);
    }
    out.key("length");
    write_f64(&mut out.buf, clip.duration, opts.precision);
    if clip.blend_mode != BlendMode::Normal {
        out.key("blendMode");
        write_u64(&mut out.buf, clip.blend_mode.code() as u64);
    }
    out.key("hierarchy");
    out.open(b'[');
    for (h, tracks) in bones.group(clip).iter().enumerate() {
        out.next();
        out.open(b'{');
        out.key("parent");
        write_parent(out, bones.parents[h]);
        out.key("keys");
        out.open(b'[');
        let steps = merge(tracks);
        if serialized {
            write_serialized_key(out, tracks, &steps);
        } else {
            for step in &steps {
                out.next();
                out.buf.push(b'{');
                inline_field(out, "time", true);
                write_f32(&mut out.buf, step.time, opts.precision);
                for (c, (field, _, _)) in CHANNELS.iter().enumerate() {
                    if let (Some(track), Some(k)) = (tracks[c], step.keys[c]) {
                        inline_field(out, field, false);
                        out.f32_array(key_values(track, k));
                    }
                }
                out.buf.push(b'}');
            }
        }
        out.close(b']');
        out.close(b'}');
    }
    out.close(b']');
    for (k, v) in &clip.extras.0 {
        if !matches!(
            k.as_str(),
            "name" | "fps" | "length" | "blendMode" | "hierarchy"
        ) {
            out.key(k);
            out.raw(v);
        }
    }
    out.close(b'}');
}

/// The serialized shape: one key `{time: […], pos: […], rot: […], scl: […]}` over all merged
/// times, sampling a channel at the times it has no key.
fn write_serialized_key(out: &mut Out, tracks: &[Option<&Track>; 3], steps: &[Step]) {
    if steps.is_empty() {
        return;
    }
    out.next();
    out.buf.push(b'{');
    inline_field(out, "time", true);
    let times: Vec<f32> = steps.iter().map(|s| s.time).collect();
    out.f32_array(&times);
    for (c, (field, _, _)) in CHANNELS.iter().enumerate() {
        let Some(track) = tracks[c] else {
            continue;
        };
        let mut sampler = Sampler::new(track);
        let mut values = Vec::with_capacity(steps.len() * track.value_size());
        for step in steps {
            match step.keys[c] {
                Some(k) => values.extend_from_slice(key_values(track, k)),
                None => values.extend(
                    sampler
                        .evaluate(step.time as f64)
                        .as_numbers()
                        .unwrap_or_default(),
                ),
            }
        }
        inline_field(out, field, false);
        out.f32_array(&values);
    }
    out.buf.push(b'}');
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::{Format, read_bytes, write_bytes};
    use crate::model::{Bone, Interpolation, Values};

    fn text(doc: &Document, opts: &WriteOptions) -> String {
        String::from_utf8(write_bytes(doc, opts)).unwrap()
    }

    fn reread(doc: &Document, opts: &WriteOptions) -> Document {
        let out = write_bytes(doc, opts);
        read_bytes(&out, Path::new("out.json"))
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)))
    }

    fn serialized() -> WriteOptions {
        WriteOptions {
            serialized: true,
            ..Default::default()
        }
    }

    fn legacy(clips: Vec<Clip>) -> Document {
        Document::new(Format::ThreeJsLegacy, clips)
    }

    fn vector(name: &str, times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(name, TrackKind::Vector, times, values)
    }

    #[test]
    fn natural_file_with_bones_from_track_names() {
        let pos = vector(
            ".bones[hip].position",
            vec![0.0, 1.0],
            vec![0.0, 1.0, 0.0, 0.0, 2.0, 0.5],
        );
        let rot = Track::numeric(
            ".bones[knee].quaternion",
            TrackKind::Quaternion,
            vec![0.5],
            vec![0.0, 0.0, 0.0, 1.0],
        );
        let mut clip = Clip::new("walk", 2.0, vec![pos, rot]);
        clip.uuid = None;
        let doc = legacy(vec![clip]);
        assert_eq!(
            text(&doc, &WriteOptions::default()),
            concat!(
                r#"{"metadata":{"formatVersion":3.1,"generatedBy":"clipscope"},"bones":["#,
                r#"{"parent":-1,"name":"hip","pos":[0,0,0],"rotq":[0,0,0,1],"scl":[1,1,1]},"#,
                r#"{"parent":-1,"name":"knee","pos":[0,0,0],"rotq":[0,0,0,1],"scl":[1,1,1]}],"#,
                r#""animations":[{"name":"walk","length":2,"hierarchy":["#,
                r#"{"parent":-1,"keys":[{"time":0,"pos":[0,1,0]},{"time":1,"pos":[0,2,0.5]}]},"#,
                r#"{"parent":-1,"keys":[{"time":0.5,"rot":[0,0,0,1]}]}]}]}"#
            )
        );
        let back = reread(&doc, &WriteOptions::default());
        assert_eq!(back.clips, doc.clips);
        let names: Vec<_> = back
            .skeleton
            .unwrap()
            .bones
            .into_iter()
            .map(|b| b.name)
            .collect();
        assert_eq!(names, ["hip", "knee"]);
    }

    #[test]
    fn skeleton_order_parents_and_rest_pose() {
        let mut hip = Bone::new("hip", None);
        hip.position = [0.0, 1.0, 0.0];
        let skeleton = Skeleton {
            bones: vec![hip, Bone::new("knee", Some(0))],
        };
        let track = vector(".bones[knee].scale", vec![0.0], vec![2.0, 2.0, 2.0]);
        let mut doc = legacy(vec![Clip::new("s", -1.0, vec![track])]);
        doc.skeleton = Some(skeleton.clone());
        let out = text(&doc, &WriteOptions::default());
        assert!(
            out.contains(r#""bones":[{"parent":-1,"name":"hip","pos":[0,1,0],"rotq":[0,0,0,1],"scl":[1,1,1]},{"parent":0,"name":"knee","#),
            "{out}"
        );
        assert!(
            out.contains(r#""hierarchy":[{"parent":-1,"keys":[]},{"parent":0,"keys":[{"time":0,"scl":[2,2,2]}]}]"#),
            "{out}"
        );
        let back = reread(&doc, &WriteOptions::default());
        assert_eq!(back.skeleton, Some(skeleton));
        assert_eq!(back.clips[0].tracks, doc.clips[0].tracks);
    }

    #[test]
    fn channels_with_different_times_merge_exactly() {
        // Unsorted and repeated times survive the merge in each channel's own order.
        let pos = vector(
            ".bones[b].position",
            vec![0.0, 0.5, 0.5, 0.25],
            (0..12).map(|i| i as f32).collect(),
        );
        let rot = Track::numeric(
            ".bones[b].quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0],
        );
        let doc = legacy(vec![Clip::new("m", -1.0, vec![pos, rot])]);
        let back = reread(&doc, &WriteOptions::default());
        assert_eq!(back.clips[0].tracks, doc.clips[0].tracks);
    }

    #[test]
    fn serialized_samples_channels_without_a_key() {
        let pos = vector(
            ".bones[b].position",
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 2.0, 4.0, 6.0],
        );
        let scl = vector(".bones[b].scale", vec![0.5], vec![3.0, 3.0, 3.0]);
        let doc = legacy(vec![Clip::new("s", -1.0, vec![pos, scl])]);
        let out = text(&doc, &serialized());
        assert!(
            out.contains(
                r#""keys":[{"time":[0,0.5,1],"pos":[0,0,0,1,2,3,2,4,6],"scl":[3,3,3,3,3,3,3,3,3]}]"#
            ),
            "{out}"
        );
        // Channels that share their times are written exactly.
        let same = vector(
            ".bones[b].scale",
            vec![0.0, 1.0],
            vec![1.0, 1.0, 1.0, 0.5, 0.5, 0.5],
        );
        let mut doc = doc;
        doc.clips[0].tracks[1] = same;
        let back = reread(&doc, &serialized());
        assert_eq!(back.clips[0].tracks, doc.clips[0].tracks);
        let Some(layout) = back.source::<LegacyLayout>() else {
            panic!("layout")
        };
        assert!(layout.serialized);
        // Read in the serialized shape, written back in it without asking.
        let again = text(&back, &WriteOptions::default());
        assert!(again.contains(r#""keys":[{"time":[0,1],"#), "{again}");
    }

    #[test]
    fn what_legacy_json_cannot_hold_is_left_out_and_reported() {
        let mut smooth = vector(".bones[a].position", vec![0.0, 1.0], vec![0.0; 6]);
        smooth.interpolation = Interpolation::Smooth;
        let clip = Clip::new(
            "c",
            -1.0,
            vec![
                Track::numeric(
                    ".morphTargetInfluences[0]",
                    TrackKind::Number,
                    vec![0.0],
                    vec![1.0],
                ),
                vector(".bones[a].quaternion", vec![0.0], vec![0.0; 3]),
                smooth,
                vector(".bones[b].position", vec![0.0], vec![0.0; 3]),
                vector(".bones[b].position", vec![1.0], vec![0.0; 3]),
                Track::new(
                    ".visible",
                    TrackKind::Bool,
                    vec![0.0],
                    Values::Bools(vec![true]),
                ),
                vector("hip.position", vec![0.0], vec![0.0; 3]),
            ],
        );
        let doc = legacy(vec![clip]);
        assert_eq!(check_writable(&doc), Ok(()));
        assert_eq!(
            field_losses(&doc),
            [
                "2 track(s) left out: legacy three.js JSON animates bone position, quaternion and scale only (.morphTargetInfluences[0], .visible)",
                "1 track(s) left out: the wrong kind of track for a legacy bone channel (.bones[a].quaternion)",
                "1 track(s) left out: a second track for the same bone channel (.bones[b].position)",
                "1 node track(s) written as bones (legacy three.js JSON animates bones; they read back as '.bones[NAME].…')",
                "the interpolation of 1 track(s), written as linear keys that play as the curve (legacy keys are always linear): '.bones[a].position' (0 keys added)",
            ]
        );
        let back = reread(&doc, &WriteOptions::default());
        let names: Vec<&str> = back.clips[0]
            .tracks
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                ".bones[a].position",
                ".bones[b].position",
                ".bones[hip].position"
            ]
        );
        // Smooth between two equal keys is a straight line: no keys needed.
        assert_eq!(back.clips[0].tracks[0].len(), 2);
        // Broken times are refused, and write_file leaves the target alone.
        let doc = legacy(vec![Clip::new(
            "c",
            -1.0,
            vec![vector(".bones[a].position", vec![f32::NAN], vec![0.0; 3])],
        )]);
        assert!(
            check_writable(&doc)
                .unwrap_err()
                .reason
                .contains("not a finite number")
        );
        assert!(
            crate::formats::check_writable(&doc)
                .unwrap_err()
                .reason
                .contains("not a finite number")
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        let e = crate::formats::write_file(&doc, &path, &WriteOptions::default()).unwrap_err();
        assert!(
            matches!(e, crate::formats::WriteError::NotWritable(_)),
            "{e}"
        );
        assert!(!path.exists());
    }

    #[test]
    fn layout_keeps_fields_shape_and_trackless_animations() {
        let text_in = r#"{"metadata":{"formatVersion":3.1},"bones":[{"parent":-1,"name":"a","pos":[0,0,0],"rotq":[0,0,0,1]}],
"animation":{"name":"x","fps":25,"length":1,"hierarchy":[{"parent":-1,"keys":[{"time":0,"pos":[0,0,0]},{"time":1,"pos":[1,1,1]}]}],"extra":true},
"materials":[ {"a" : 1} ]}"#;
        let doc = read_bytes(text_in.as_bytes(), Path::new("in.json")).unwrap();
        let out = text(&doc, &WriteOptions::default());
        assert_eq!(
            out,
            concat!(
                r#"{"metadata":{"formatVersion":3.1},"bones":[{"parent":-1,"name":"a","pos":[0,0,0],"rotq":[0,0,0,1]}],"#,
                r#""animation":{"name":"x","fps":25,"length":1,"hierarchy":[{"parent":-1,"keys":[{"time":0,"pos":[0,0,0]},{"time":1,"pos":[1,1,1]}]}],"extra":true},"#,
                r#""materials":[ {"a" : 1} ]}"#
            )
        );
        // A new bone track adds a bone after the original ones; two clips make an array.
        let mut doc = doc;
        let extra = vector(".bones[new].position", vec![0.0], vec![5.0, 5.0, 5.0]);
        doc.clips.push(Clip::new("y", -1.0, vec![extra]));
        let out = text(&doc, &WriteOptions::default());
        assert!(
            out.contains(r#""bones":[{"parent":-1,"name":"a","pos":[0,0,0],"rotq":[0,0,0,1]},{"parent":-1,"name":"new","pos":[0,0,0],"rotq":[0,0,0,1],"scl":[1,1,1]}],"animations":[{"name":"x""#),
            "{out}"
        );
        let back = read_bytes(out.as_bytes(), Path::new("o.json")).unwrap();
        assert_eq!(back.clips.len(), 2);
        assert_eq!(back.clips[1].tracks, doc.clips[1].tracks);
        assert_eq!(back.clips[0].tracks, doc.clips[0].tracks);

        let text_in = r#"{"bones":[{"name":"a"}],"animations":[{"name":"none","hierarchy":[]},{"name":"k","hierarchy":[{"keys":[{"time":0,"scl":[1,1,1]}]}]}]}"#;
        let doc = read_bytes(text_in.as_bytes(), Path::new("in.json")).unwrap();
        assert_eq!(doc.clips.len(), 1);
        assert_eq!(
            text(&doc, &WriteOptions::default()),
            r#"{"bones":[{"name":"a"}],"animations":[{"name":"k","length":0,"hierarchy":[{"parent":-1,"keys":[{"time":0,"scl":[1,1,1]}]}]},{"name":"none","hierarchy":[]}]}"#
        );
    }

    #[test]
    fn morph_models_write_back_their_fields_and_not_their_implied_clips() {
        let model = r#"{"metadata":{"formatVersion":3},"scale":2,"vertices":[0,0,0,2,0,0,0,2,0],"faces":[0,0,1,2],
"morphTargets":[{"name":"a_1","vertices":[0,0,0,2,0,0,0,2,0]},{"name":"a_2","vertices":[0,0,2,2,0,2,0,2,2]}]}"#;
        let doc = read_bytes(model.as_bytes(), Path::new("m.json")).unwrap();
        assert_eq!(doc.clips.len(), 1);
        assert_eq!(check_writable(&doc), Ok(()));
        let out = text(&doc, &WriteOptions::default());
        let fields: serde_json::Value = serde_json::from_str(&out).unwrap();
        let original: serde_json::Value = serde_json::from_str(model).unwrap();
        assert_eq!(fields, original);
        let back = read_bytes(out.as_bytes(), Path::new("m.json")).unwrap();
        assert_eq!(back.clips, doc.clips);
        assert_eq!(back.mesh, doc.mesh);
        // An edited morph clip is no longer implied; legacy animations cannot hold it.
        let mut edited = doc.clone();
        edited.clips[0].tracks[0].values.as_numbers_mut().unwrap()[0] = 0.5;
        assert_eq!(check_writable(&edited), Ok(()));
        assert!(field_losses(&edited)[0].starts_with("2 track(s) left out"));
    }

    #[test]
    fn pretty_and_precision() {
        let pos = vector(
            ".bones[b].position",
            vec![0.0, 0.333_333_34],
            vec![0.123456, 0.0, 0.0, 1.0, 1.0, 1.0],
        );
        let doc = legacy(vec![Clip::new("p", -1.0, vec![pos])]);
        let opts = WriteOptions {
            precision: Some(2),
            pretty: true,
            serialized: false,
            ..Default::default()
        };
        assert_eq!(
            text(&doc, &opts),
            r#"{
  "metadata": {
    "formatVersion": 3.1,
    "generatedBy": "clipscope"
  },
  "bones": [
    {"parent": -1, "name": "b", "pos": [0, 0, 0], "rotq": [0, 0, 0, 1], "scl": [1, 1, 1]}
  ],
  "animations": [
    {
      "name": "p",
      "length": 0.33,
      "hierarchy": [
        {
          "parent": -1,
          "keys": [
            {"time": 0, "pos": [0.12, 0, 0]},
            {"time": 0.33, "pos": [1, 1, 1]}
          ]
        }
      ]
    }
  ]
}
"#
        );
    }
}
