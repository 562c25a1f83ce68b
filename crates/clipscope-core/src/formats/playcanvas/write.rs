//! Writing a clip as PlayCanvas animation JSON, version 4: `{"animation": {"version": 4,
//! "name", "duration", "nodes": [{"name", "defaults", "keys": [{"t", "p", "r", "s"}]}]}}`.
//!
//! The nodes come from [`prepare`] (grouping, baking, one time line per
//! node). A channel goes into `defaults` when it has the same value at every key and either the
//! file it was read from had it there, or the document was not read from a PlayCanvas file (the
//! exporter's habit); a channel without a track always does. Every other channel is on every key.
//! Quaternions become Euler degrees with the engine's inverse, written with the fewest digits
//! that read back to the same `f32` quaternion (see
//! [`euler_for_f32_quaternion`]).
//!
//! A document read from a PlayCanvas file is written back in its field order, with its unknown
//! fields, its nodes without keys and the text of every number it read (see
//! [`layout`](super::layout)), so an unmodified file comes back byte for byte (when written
//! compact and without rounding). A version 3 file is written as version 4.

use std::collections::HashMap;

use super::layout::{NodeLayout, Numbers, PlayCanvasLayout, Slot, ValueKey, time_key, value_key};
use super::nodes::{NodeKeys, PROPERTIES, prepare, unwritable};
use crate::formats::Tolerance;
use crate::formats::euler::{euler_for_f32_quaternion, quaternion_from_euler};
use crate::formats::fidelity::{Curve, Played, Player};
use crate::formats::json::number::{rounded_f32, write_f32, write_f64};
use crate::formats::json::{Out, write_str};
use crate::formats::sampler_keys::{Keys, Sampling};
use crate::formats::{Document, NotWritable, WriteOptions, adapt};
use crate::model::{BlendMode, Clip};

/// The version 4 key fields of the channels.
const FIELDS: [&str; 3] = ["p", "r", "s"];

/// The fields of the animation object the writer fills.
const ANIMATION_FIELDS: [&str; 4] = ["version", "name", "duration", "nodes"];

/// Always `Ok`: PlayCanvas output adapts what it can (baking, padding) and leaves out what it
/// cannot hold (other properties, clips after the first), all reported by [`losses`]; the
/// result is always a valid animation file. `clipscope convert` writes one file per clip.
pub(crate) fn check_writable(_doc: &Document) -> Result<(), NotWritable> {
    Ok(())
}

/// What PlayCanvas output changes or leaves out of a document it can hold: baked
/// interpolations, channels filled with constants, normalized quaternions, the blend mode, clip
/// `userData`, unknown track fields, tracks without keys and a skeleton. One line each.
pub(crate) fn losses(doc: &Document) -> Vec<String> {
    let mut lost = Vec::new();
    if doc.clips.len() > 1 {
        let names: Vec<String> = doc.clips[1..]
            .iter()
            .take(4)
            .map(|c| format!("'{}'", c.name))
            .collect();
        lost.push(format!(
            "{} clip(s) after the first ({}{}): PlayCanvas animation JSON holds one animation \
             (clipscope convert writes one file per clip)",
            doc.clips.len() - 1,
            names.join(", "),
            if doc.clips.len() > 5 { ", …" } else { "" }
        ));
    }
    if let Some(clip) = doc.clips.first() {
        let dropped: Vec<(String, String)> = clip
            .tracks
            .iter()
            .filter_map(|t| unwritable(t).map(|why| (t.name.clone(), why)))
            .collect();
        lost.extend(adapt::summarize(&dropped));
        if clip.blend_mode != BlendMode::Normal {
            lost.push(format!(
                "clip '{}': its {} blend mode (PlayCanvas animations have none)",
                clip.name,
                clip.blend_mode.name()
            ));
        }
        if clip
            .user_data_with_layers()
            .as_object()
            .is_none_or(|o| !o.is_empty())
        {
            lost.push(format!("clip '{}': its userData", clip.name));
        }
        let shadowed: Vec<&str> = clip
            .extras
            .0
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| ANIMATION_FIELDS.contains(k))
            .collect();
        if !shadowed.is_empty() {
            lost.push(format!(
                "clip '{}': its field(s) {} (PlayCanvas uses those names)",
                clip.name,
                shadowed.join(", ")
            ));
        }
        for track in clip.tracks.iter().filter(|t| unwritable(t).is_none()) {
            lost.extend(adapt::keys_or_fields_lost(clip, track));
        }
        let conversion = doc.source::<PlayCanvasLayout>().is_none();
        lost.extend(
            prepare(
                clip,
                doc.skeleton.as_ref(),
                &Tolerance::default(),
                conversion,
            )
            .1,
        );
    }
    if let Some(skeleton) = &doc.skeleton {
        lost.push(format!(
            "the skeleton ({} bones; PlayCanvas animation JSON has no bone hierarchy, only node \
             names)",
            skeleton.bones.len()
        ));
    }
    lost
}

/// The whole document as PlayCanvas animation JSON (its first clip; [`losses`] reports the
/// others).
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    write_played(doc, opts).0
}

/// The file [`write`] makes and how the skeleton plays it ([`played`]), from one fit.
pub(crate) fn write_played(doc: &Document, opts: &WriteOptions) -> (Vec<u8>, Vec<Played>) {
    let layout = doc.source::<PlayCanvasLayout>();
    let clip = doc.clips.first();
    let conversion = layout.is_none();
    let nodes = clip.map_or_else(Vec::new, |c| {
        prepare(c, doc.skeleton.as_ref(), &opts.tolerance, conversion).0
    });
    let bytes = write_nodes(doc, clip, &nodes, opts);
    let played = clip.map_or_else(Vec::new, |c| played_nodes(c, &nodes, opts));
    (bytes, played)
}

/// The file of `clip` (of `doc`) with the prepared `nodes`.
fn write_nodes(
    doc: &Document,
    clip: Option<&Clip>,
    nodes: &[NodeKeys],
    opts: &WriteOptions,
) -> Vec<u8> {
    let layout = doc.source::<PlayCanvasLayout>();
    let keys: usize = nodes.iter().map(|n| n.times.len()).sum();
    let mut out = Out::new(opts, 0, keys * 64 + 1024);
    let writer = Writer {
        exact: opts.precision.is_none(),
        precision: opts.precision,
    };
    if let Some(l) = layout
        && !opts.pretty
    {
        out.buf.extend_from_slice(l.lead.as_bytes());
    }
    let top = layout.map_or_else(|| vec![Slot::Known("animation")], |l| l.top.clone());
    out.open(b'{');
    for slot in &top {
        match slot {
            Slot::Known(_) => {
                out.key("animation");
                writer.animation(&mut out, clip, nodes, layout);
            }
            Slot::Extra(name, raw) => {
                if name != "animation" {
                    out.key(name);
                    out.raw(raw);
                }
            }
        }
    }
    out.close(b'}');
    match layout {
        _ if opts.pretty => out.buf.push(b'\n'),
        Some(l) => out.buf.extend_from_slice(l.trail.as_bytes()),
        None => {}
    }
    out.finish().unwrap_or_default().concat()
}

/// How the engine's `Skeleton` plays each track of `doc` written with `opts`: per node channel
/// with a track, the node's keys as the parser makes them (rotations from the Euler degrees
/// written) played by the skeleton.
pub(crate) fn played(doc: &Document, opts: &WriteOptions) -> Vec<Played> {
    let Some(clip) = doc.clips.first() else {
        return Vec::new();
    };
    let conversion = doc.source::<PlayCanvasLayout>().is_none();
    let (nodes, _) = prepare(clip, doc.skeleton.as_ref(), &opts.tolerance, conversion);
    played_nodes(clip, &nodes, opts)
}

/// How the skeleton plays the prepared `nodes` of `clip` written with `opts`.
fn played_nodes(clip: &Clip, nodes: &[NodeKeys], opts: &WriteOptions) -> Vec<Played> {
    let round = |x: f32| rounded_f32(x, opts.precision);
    let mut out = Vec::new();
    for node in nodes {
        let times: Vec<f32> = node.times.iter().map(|&t| round(t)).collect();
        for (c, field) in FIELDS.iter().enumerate() {
            let Some(track) = node.tracks[c] else {
                continue;
            };
            let width = PROPERTIES[c].2;
            let values: Vec<f32> = if c == 1 {
                node.values[1]
                    .chunks_exact(4)
                    .flat_map(|q| {
                        let e = euler_for_f32_quaternion([q[0], q[1], q[2], q[3]])
                            .map(|d| rounded_f64(d, opts.precision));
                        quaternion_from_euler(e).map(|x| x as f32)
                    })
                    .collect()
            } else {
                node.values[c].iter().map(|&x| round(x)).collect()
            };
            let own = clip.tracks.get(track).map_or(0, |t| t.len());
            out.push(Played {
                clip: 0,
                track,
                target: format!("node '{}' {field}", node.name),
                curve: Curve::Keys {
                    keys: Keys {
                        sampling: Sampling::Linear,
                        times: times.clone(),
                        values,
                        tangents: None,
                        width,
                    },
                    player: Player::PlayCanvasSkeleton,
                },
                added: node.times.len().saturating_sub(own),
                note: None,
            });
        }
    }
    out
}

/// `x` as a reader gets it back written with `precision` decimals.
fn rounded_f64(x: f64, precision: Option<u32>) -> f64 {
    if precision.is_none() {
        return x;
    }
    let mut text = Vec::new();
    write_f64(&mut text, x, precision);
    std::str::from_utf8(&text)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(x)
}

/// How numbers are written.
struct Writer {
    /// Whether the file's own text may be used for numbers it read (not when rounding).
    exact: bool,
    /// Decimal places, when rounding.
    precision: Option<u32>,
}

impl Writer {
    /// The animation object: the known fields from the clip, the clip's other fields verbatim,
    /// in the file's order when there is one.
    fn animation(
        &self,
        out: &mut Out,
        clip: Option<&Clip>,
        nodes: &[NodeKeys],
        layout: Option<&PlayCanvasLayout>,
    ) {
        let mut order: Vec<&str> = layout.map_or_else(Vec::new, |l| {
            l.animation.iter().map(String::as_str).collect()
        });
        for name in ANIMATION_FIELDS {
            if !order.contains(&name) {
                order.push(name);
            }
        }
        if let Some(clip) = clip {
            for (k, _) in &clip.extras.0 {
                if !order.contains(&k.as_str()) {
                    order.push(k);
                }
            }
        }
        out.open(b'{');
        for name in order {
            match name {
                "version" => {
                    out.key(name);
                    out.buf.push(b'4');
                }
                "name" => {
                    out.key(name);
                    write_str(&mut out.buf, clip.map_or("", |c| &c.name));
                }
                "duration" => {
                    out.key(name);
                    let duration = clip.map_or(0.0, |c| c.duration);
                    match layout.and_then(|l| l.duration.as_ref()) {
                        Some((v, text)) if self.exact && v.to_bits() == duration.to_bits() => {
                            out.buf.extend_from_slice(text.as_bytes());
                        }
                        // A conversion ends its nodes with a key at the duration as an `f32`
                        // (key times are `f32`): the same number here, so that the engine, which
                        // stops at the duration, reaches that key (a duration a hair past the
                        // last key would leave the nodes unwritten at the end).
                        None if duration.is_finite()
                            && (duration as f32).is_finite()
                            && duration != 0.0 =>
                        {
                            write_f32(&mut out.buf, duration as f32, self.precision)
                        }
                        _ => write_f64(&mut out.buf, duration, self.precision),
                    }
                }
                "nodes" => {
                    out.key(name);
                    self.nodes(out, nodes, layout);
                }
                _ => {
                    if let Some(raw) = clip.and_then(|c| c.extras.get(name)) {
                        out.key(name);
                        out.raw(raw);
                    }
                }
            }
        }
        out.close(b'}');
    }

    /// The nodes: the file's nodes in order (those without keys verbatim), each taking the first
    /// unwritten node of its name, then the nodes the file did not have.
    fn nodes(&self, out: &mut Out, nodes: &[NodeKeys], layout: Option<&PlayCanvasLayout>) {
        let mut used = vec![false; nodes.len()];
        // The unwritten nodes of each name, in order (a map, not a search per file node).
        let mut unwritten: HashMap<&str, std::collections::VecDeque<usize>> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            unwritten
                .entry(node.name.as_str())
                .or_default()
                .push_back(i);
        }
        out.open(b'[');
        for node_layout in layout.map_or(&[][..], |l| l.nodes.as_slice()) {
            if let Some(raw) = &node_layout.empty {
                out.next();
                out.raw(raw);
                continue;
            }
            if let Some(i) = unwritten
                .get_mut(node_layout.name.as_str())
                .and_then(|queue| queue.pop_front())
            {
                used[i] = true;
                out.next();
                self.node(out, &nodes[i], Some(node_layout));
            }
        }
        for (node, _) in nodes.iter().zip(&used).filter(|(_, used)| !**used) {
            out.next();
            self.node(out, node, None);
        }
        out.close(b']');
    }

    /// One node object `{name, defaults, keys}` (plus the unknown fields it had).
    fn node(&self, out: &mut Out, node: &NodeKeys, layout: Option<&NodeLayout>) {
        let defaulted: [bool; 3] = std::array::from_fn(|c| {
            node.filled[c] || (node.constant(c) && layout.is_none_or(|l| l.defaulted[c]))
        });
        let texts = layout.map(|l| &l.texts);
        let mut fields: Vec<Slot> = layout.map_or_else(Vec::new, |l| l.fields.clone());
        for name in ["name", "defaults", "keys"] {
            if !fields
                .iter()
                .any(|s| matches!(s, Slot::Known(k) if *k == name))
            {
                fields.push(Slot::Known(name));
            }
        }
        out.open(b'{');
        for slot in &fields {
            match slot {
                Slot::Known("name") => {
                    out.key("name");
                    write_str(&mut out.buf, &node.name);
                }
                Slot::Known("defaults") => {
                    out.key("defaults");
                    self.defaults(out, node, layout, &defaulted);
                }
                Slot::Known(_) => {
                    out.key("keys");
                    self.keys(out, node, layout, &defaulted, texts);
                }
                Slot::Extra(name, raw) => {
                    if !matches!(name.as_str(), "name" | "defaults" | "keys") {
                        out.key(name);
                        out.raw(raw);
                    }
                }
            }
        }
        out.close(b'}');
    }

    /// The `defaults` object, on one line.
    fn defaults(
        &self,
        out: &mut Out,
        node: &NodeKeys,
        layout: Option<&NodeLayout>,
        defaulted: &[bool; 3],
    ) {
        let mut slots: Vec<Slot> = layout.map_or_else(Vec::new, |l| l.defaults.clone());
        for name in FIELDS {
            if !slots
                .iter()
                .any(|s| matches!(s, Slot::Known(k) if *k == name))
            {
                slots.push(Slot::Known(name));
            }
        }
        let texts = layout.map(|l| &l.texts);
        out.buf.push(b'{');
        let mut first = true;
        for slot in &slots {
            let channel = FIELDS.iter().position(|f| *f == slot.name());
            match (slot, channel) {
                (Slot::Known(name), Some(c)) if defaulted[c] && !node.times.is_empty() => {
                    inline_field(out, name, &mut first);
                    self.value(out, c, None, node.value(c, 0), texts);
                }
                (Slot::Extra(name, raw), c) if c.is_none_or(|c| !defaulted[c]) => {
                    inline_field(out, name, &mut first);
                    out.raw(raw);
                }
                _ => {}
            }
        }
        out.buf.push(b'}');
    }

    /// The `keys` array, one key object per line.
    fn keys(
        &self,
        out: &mut Out,
        node: &NodeKeys,
        layout: Option<&NodeLayout>,
        defaulted: &[bool; 3],
        texts: Option<&HashMap<ValueKey, Numbers>>,
    ) {
        let mut seen: HashMap<u32, usize> = HashMap::new();
        out.open(b'[');
        for (k, &t) in node.times.iter().enumerate() {
            out.next();
            out.buf.push(b'{');
            let mut first = true;
            inline_field(out, "t", &mut first);
            match texts.and_then(|m| m.get(&time_key(t))) {
                Some(n) if n.0.len() == 1 => self.numbers(out, n),
                _ => write_f32(&mut out.buf, t, self.precision),
            }
            for (c, name) in FIELDS.iter().enumerate() {
                if !defaulted[c] {
                    inline_field(out, name, &mut first);
                    self.value(out, c, Some(t), node.value(c, k), texts);
                }
            }
            let occurrence = seen.entry(t.to_bits()).or_insert(0);
            if let Some(extra) = layout.and_then(|l| l.key_fields(t, *occurrence)) {
                for (name, raw) in extra {
                    let written = name == "t"
                        || FIELDS
                            .iter()
                            .position(|f| *f == name.as_str())
                            .is_some_and(|c| !defaulted[c]);
                    if !written {
                        inline_field(out, name, &mut first);
                        out.raw(raw);
                    }
                }
            }
            *occurrence += 1;
            out.buf.push(b'}');
        }
        out.close(b']');
    }

    /// A channel value on the key at time `at` (`None`: in `defaults`): the file's numbers when
    /// it read exactly this value there, else position/scale as they are and rotations as Euler
    /// degrees.
    fn value(
        &self,
        out: &mut Out,
        channel: usize,
        at: Option<f32>,
        value: &[f32],
        texts: Option<&HashMap<ValueKey, Numbers>>,
    ) {
        if let Some(n) = texts.and_then(|m| m.get(&value_key(channel, at, value)))
            && n.0.len() == 3
        {
            out.buf.push(b'[');
            for i in 0..3 {
                if i > 0 {
                    out.separator();
                }
                self.numbers_at(out, n, i);
            }
            out.buf.push(b']');
            return;
        }
        if channel == 1 {
            let q = [value[0], value[1], value[2], value[3]];
            let e = euler_for_f32_quaternion(q);
            out.buf.push(b'[');
            for (i, d) in e.into_iter().enumerate() {
                if i > 0 {
                    out.separator();
                }
                write_f64(&mut out.buf, d, self.precision);
            }
            out.buf.push(b']');
        } else {
            debug_assert_eq!(value.len(), PROPERTIES[channel].2);
            out.f32_array(value);
        }
    }

    /// A single number the file wrote.
    fn numbers(&self, out: &mut Out, n: &Numbers) {
        self.numbers_at(out, n, 0);
    }

    /// Number `i` of what the file wrote: its text, or its value rounded when rounding.
    fn numbers_at(&self, out: &mut Out, n: &Numbers, i: usize) {
        let (value, text) = &n.0[i];
        if self.exact {
            out.buf.extend_from_slice(text.as_bytes());
        } else {
            write_f64(&mut out.buf, *value, self.precision);
        }
    }
}

/// Starts field `name` of an object written on one line.
fn inline_field(out: &mut Out, name: &str, first: &mut bool) {
    if !*first {
        out.separator();
    }
    *first = false;
    write_str(&mut out.buf, name);
    out.buf.push(b':');
    if out.pretty {
        out.buf.push(b' ');
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::{Format, read_bytes, write_bytes};
    use crate::model::{Track, TrackKind};

    fn text(doc: &Document, opts: &WriteOptions) -> String {
        String::from_utf8(write_bytes(doc, opts)).unwrap()
    }

    fn read(text: &str) -> Document {
        read_bytes(text.as_bytes(), Path::new("t.json")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn vector(name: &str, times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(name, TrackKind::Vector, times, values)
    }

    fn quat(name: &str, times: Vec<f32>, values: Vec<f32>) -> Track {
        Track::numeric(name, TrackKind::Quaternion, times, values)
    }

    fn doc(tracks: Vec<Track>) -> Document {
        Document::new(Format::PlayCanvas, vec![Clip::new("c", 1.0, tracks)])
    }

    #[test]
    fn natural_file_compact_and_pretty() {
        let h = 0.5f32.sqrt();
        let d = doc(vec![
            vector(
                "Hips.position",
                vec![0.0, 1.0],
                vec![0.0, 1.0, 0.0, 0.0, 2.0, 0.5],
            ),
            quat(
                "Hips.quaternion",
                vec![0.0, 1.0],
                vec![0.0, 0.0, 0.0, 1.0, 0.0, h, 0.0, h],
            ),
            vector(".bones[Arm L].scale", vec![0.5], vec![2.0, 2.0, 2.0]),
        ]);
        assert_eq!(check_writable(&d), Ok(()));
        assert_eq!(
            text(&d, &WriteOptions::default()),
            concat!(
                r#"{"animation":{"version":4,"name":"c","duration":1,"nodes":["#,
                r#"{"name":"Hips","defaults":{"s":[1,1,1]},"keys":[{"t":0,"p":[0,1,0],"r":[0,0,0]},{"t":1,"p":[0,2,0.5],"r":[0,90,0]}]},"#,
                r#"{"name":"Arm L","defaults":{"p":[0,0,0],"r":[0,0,0],"s":[2,2,2]},"keys":[{"t":0.5}]}]}}"#
            )
        );
        let opts = WriteOptions {
            pretty: true,
            ..Default::default()
        };
        assert_eq!(
            text(&d, &opts),
            r#"{
  "animation": {
    "version": 4,
    "name": "c",
    "duration": 1,
    "nodes": [
      {
        "name": "Hips",
        "defaults": {"s": [1, 1, 1]},
        "keys": [
          {"t": 0, "p": [0, 1, 0], "r": [0, 0, 0]},
          {"t": 1, "p": [0, 2, 0.5], "r": [0, 90, 0]}
        ]
      },
      {
        "name": "Arm L",
        "defaults": {"p": [0, 0, 0], "r": [0, 0, 0], "s": [2, 2, 2]},
        "keys": [
          {"t": 0.5}
        ]
      }
    ]
  }
}
"#
        );
        let back = read(&text(&d, &opts));
        assert_eq!(back.clips[0].tracks[0], d.clips[0].tracks[0]);
        assert_eq!(back.clips[0].tracks[5].name, "Arm L.scale");
        assert_eq!(back.clips[0].tracks[5].values, d.clips[0].tracks[2].values);
    }

    #[test]
    fn repeated_node_names_stay_apart() {
        let file = r#"{"animation":{"version":4,"name":"r","duration":1,"nodes":[{"name":"A","defaults":{"s":[1,1,1]},"keys":[{"t":0,"p":[1,0,0],"r":[0,0,0]}]},{"name":"A","defaults":{"s":[2,2,2]},"keys":[{"t":0,"p":[2,0,0],"r":[0,10,0]}]}]}}"#;
        let d = read(file);
        assert_eq!(d.clips[0].tracks.len(), 6);
        assert_eq!(text(&d, &WriteOptions::default()), file);
        let fresh = d
            .clone()
            .converted_to(Format::ThreeJs)
            .converted_to(Format::PlayCanvas);
        let back = read(&text(&fresh, &WriteOptions::default()));
        assert_eq!(back.clips[0].tracks, d.clips[0].tracks);
    }

    #[test]
    fn edits_to_a_read_file_keep_its_order() {
        let file = r#"{"animation":{"version":4,"name":"e","duration":1,"nodes":[{"name":"gone","defaults":{"s":[1,1,1]},"keys":[{"t":0,"p":[1,0,0],"r":[0,0,0]}]},{"name":"idle","defaults":{},"keys":[]},{"name":"kept","defaults":{"p":[0,0,0],"r":[0,0,0],"s":[1,1,1]},"keys":[{"t":0},{"t":1}]}]}}"#;
        let mut d = read(file);
        d.clips[0].tracks.drain(0..3);
        d.clips[0]
            .tracks
            .push(vector("new.position", vec![0.0], vec![1.0, 2.0, 3.0]));
        assert_eq!(
            text(&d, &WriteOptions::default()),
            concat!(
                r#"{"animation":{"version":4,"name":"e","duration":1,"nodes":[{"name":"idle","defaults":{},"keys":[]},"#,
                r#"{"name":"kept","defaults":{"p":[0,0,0],"r":[0,0,0],"s":[1,1,1]},"keys":[{"t":0},{"t":1}]},"#,
                r#"{"name":"new","defaults":{"p":[1,2,3],"r":[0,0,0],"s":[1,1,1]},"keys":[{"t":0}]}]}}"#
            )
        );
        // A defaulted channel that stops being constant goes onto the keys.
        let mut d = read(file);
        d.clips[0].tracks[5].values.as_numbers_mut().unwrap()[3] = 3.0;
        let out = text(&d, &WriteOptions::default());
        assert!(
            out.contains(r#"{"name":"kept","defaults":{"p":[0,0,0],"r":[0,0,0]},"keys":[{"t":0,"s":[1,1,1]},{"t":1,"s":[3,1,1]}]}"#),
            "{out}"
        );
    }

    #[test]
    fn precision_rounds_the_files_own_numbers() {
        let d = read(
            r#"{"animation":{"version":4,"name":"p","duration":0.633333,"nodes":[{"name":"n","defaults":{"s":[1,1,1]},"keys":[{"t":0.633333,"p":[0.0905241,23.4792,-0.0523927],"r":[10.4751,-178.712,-56.8042]}]}]}}"#,
        );
        let opts = WriteOptions {
            precision: Some(2),
            ..Default::default()
        };
        assert_eq!(
            text(&d, &opts),
            r#"{"animation":{"version":4,"name":"p","duration":0.63,"nodes":[{"name":"n","defaults":{"s":[1,1,1]},"keys":[{"t":0.63,"p":[0.09,23.48,-0.05],"r":[10.48,-178.71,-56.8]}]}]}}"#
        );
    }

    #[test]
    fn no_clip_and_too_many_clips() {
        let mut d = Document::new(Format::PlayCanvas, Vec::new());
        assert_eq!(check_writable(&d), Ok(()));
        assert_eq!(
            text(&d, &WriteOptions::default()),
            r#"{"animation":{"version":4,"name":"","duration":0,"nodes":[]}}"#
        );
        d.clips = vec![Clip::new("a", 1.0, vec![]), Clip::new("b", 1.0, vec![])];
        assert_eq!(check_writable(&d), Ok(()));
        assert!(losses(&d)[0].starts_with("1 clip(s) after the first ('b')"));
        let many: Vec<Track> = (0..7)
            .map(|i| Track::numeric(format!(".w[{i}]"), TrackKind::Number, vec![0.0], vec![0.0]))
            .collect();
        let d = doc(many);
        assert_eq!(check_writable(&d), Ok(()));
        assert!(losses(&d).contains(
            &"7 track(s) left out: not a NODE.position, .quaternion or .scale track (.w[0], .w[1], .w[2], .w[3], …)".to_string()
        ));
    }

    #[test]
    fn losses_name_what_changes() {
        let mut smooth = vector("n.position", vec![0.0, 1.0], vec![0.0; 6]);
        smooth.interpolation = crate::model::Interpolation::Smooth;
        let mut d = doc(vec![
            smooth,
            quat("n.quaternion", vec![0.0], vec![0.0, 0.0, 0.0, 2.0]),
            vector("n.scale", vec![], vec![]),
        ]);
        d.clips[0].blend_mode = BlendMode::Additive;
        d.clips[0].user_data = serde_json::json!({"a": 1});
        d.skeleton = Some(crate::model::Skeleton::default());
        assert_eq!(
            losses(&d),
            [
                "clip 'c': its additive blend mode (PlayCanvas animations have none)",
                "clip 'c': its userData",
                "clip 'c' track 'n.scale': it has no keys",
                "clip 'c' node 'n': smooth interpolation, written as linear keys the engine plays as the curve (2 keys → 2, channel position)",
                "clip 'c' node 'n': no scale track(s); PlayCanvas keys set every channel, so they are written as constant defaults from the identity",
                "clip 'c' node 'n': 2 non-unit quaternion(s), written as the rotation they stand for (Euler angles hold no length)",
                "the skeleton (0 bones; PlayCanvas animation JSON has no bone hierarchy, only node names)",
            ]
        );
    }
}
