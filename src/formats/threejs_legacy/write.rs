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
use std::io::Write;

use serde_json::value::RawValue;

use super::{AnimationsShape, LegacyLayout};
use crate::formats::document::Source;
use crate::formats::number::{write_f32, write_f64, write_u64};
use crate::formats::threejs::write::{Out, write_str};
use crate::formats::{Document, WriteOptions};
use crate::model::interpolant::Sampler;
use crate::model::ops::create_clips_from_morph_target_sequences;
use crate::model::{BlendMode, Clip, Interpolation, Skeleton, Track, TrackKind};

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

/// Why `track` cannot be written as hierarchy keys, if it cannot.
fn unwritable(track: &Track) -> Option<String> {
    let Some((_, channel)) = bone_channel(track) else {
        return Some("not a .bones[NAME].position, .quaternion or .scale track".into());
    };
    let kind = CHANNELS[channel].2;
    if track.kind != kind {
        return Some(format!(
            "a {} track where legacy keys hold a {}",
            track.kind.type_name(),
            kind.type_name()
        ));
    }
    let interpolation = Track::resolve_interpolation(track.kind, Some(track.interpolation));
    if interpolation != Interpolation::Linear || track.tangents.is_some() {
        return Some("legacy keys are always linearly interpolated".into());
    }
    None
}

/// The clips a legacy morph model implies (made from its numbered targets when it was read).
fn implied_clips(doc: &Document) -> Vec<Clip> {
    match (&doc.source, &doc.mesh) {
        (Source::ThreeJsLegacy(layout), Some(mesh)) => {
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

/// `Ok` when every written clip's tracks fit legacy hierarchy keys; otherwise the tracks that do
/// not (a non-bone track such as `.morphTargetInfluences[0]`, another kind, a non-linear
/// interpolation, a second track for the same bone property), first few named.
pub(crate) fn check_writable(doc: &Document) -> Result<(), String> {
    let mut bad = Vec::new();
    for clip in written_clips(doc) {
        let mut seen = HashSet::new();
        for track in &clip.tracks {
            let why = unwritable(track).or_else(|| {
                let key = bone_channel(track)?;
                (!seen.insert(key)).then(|| "a second track for the same bone property".into())
            });
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
    Err(format!(
        "legacy three.js JSON cannot hold {count} track(s) ({shown})"
    ))
}

/// What legacy output leaves out of tracks it can write: clip `userData`, unknown track fields
/// and tracks without keys. One line each.
pub(crate) fn field_losses(doc: &Document) -> Vec<String> {
    let mut lost = Vec::new();
    for clip in written_clips(doc) {
        if clip.user_data.as_object().is_none_or(|o| !o.is_empty()) {
            lost.push(format!("clip '{}': its userData", clip.name));
        }
        for track in clip.tracks.iter().filter(|t| unwritable(t).is_none()) {
            if track.is_empty() {
                lost.push(format!(
                    "clip '{}' track '{}': it has no keys",
                    clip.name, track.name
                ));
            } else if !track.extras.is_empty() {
                let names: Vec<&str> = track.extras.0.iter().map(|(k, _)| k.as_str()).collect();
                lost.push(format!(
                    "clip '{}' track '{}': its fields {}",
                    clip.name,
                    track.name,
                    names.join(", ")
                ));
            }
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
                if unwritable(track).is_none()
                    && let Some((bone, _)) = bone_channel(track)
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
            if unwritable(track).is_some() || track.is_empty() {
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
    let clips = written_clips(doc);
    let keys: usize = clips.iter().map(|c| c.key_count()).sum();
    let mut out = Out::new(opts, 0, keys * 48 + 1024);
    let bones = Bones::new(doc.skeleton.as_ref(), &clips);
    match &doc.source {
        Source::ThreeJsLegacy(layout) => {
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
        _ => {
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

/// Writes the document to `to` (legacy files are small: built in memory, then written).
pub(crate) fn write_to(
    doc: &Document,
    opts: &WriteOptions,
    to: &mut dyn Write,
) -> std::io::Result<()> {
    to.write_all(&write(doc, opts))
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
    use crate::model::{Bone, Values};

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
        let Source::ThreeJsLegacy(layout) = &back.source else {
            panic!("layout")
        };
        assert!(layout.serialized);
        // Read in the serialized shape, written back in it without asking.
        let again = text(&back, &WriteOptions::default());
        assert!(again.contains(r#""keys":[{"time":[0,1],"#), "{again}");
    }

    #[test]
    fn check_writable_names_what_legacy_json_cannot_hold() {
        let mut smooth = vector(".bones[a].position", vec![0.0], vec![0.0; 3]);
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
        assert_eq!(
            check_writable(&doc).unwrap_err(),
            "legacy three.js JSON cannot hold 6 track(s) (clip 'c' track '.morphTargetInfluences[0]': not a .bones[NAME].position, .quaternion or .scale track; \
             clip 'c' track '.bones[a].quaternion': a vector track where legacy keys hold a quaternion; \
             clip 'c' track '.bones[a].position': legacy keys are always linearly interpolated; \
             clip 'c' track '.bones[b].position': a second track for the same bone property; \
             clip 'c' track '.visible': not a .bones[NAME].position, .quaternion or .scale track; and 1 more)"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        let e = crate::formats::write_file(&doc, &path, &WriteOptions::default()).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
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
        // An edited morph clip is no longer implied, and legacy JSON cannot hold it.
        let mut edited = doc.clone();
        edited.clips[0].tracks[0].values.as_numbers_mut().unwrap()[0] = 0.5;
        assert!(check_writable(&edited).is_err());
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
