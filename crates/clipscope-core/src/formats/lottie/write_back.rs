//! Writing a document read from Lottie back into its file.
//!
//! The writer starts from the original bytes and replaces only what was edited: the property
//! object of every track that no longer matches what the reader made (its other fields, such as
//! `ix`, `x` expressions or slot ids, are copied as they were; `a` is set to 0 or 1), the
//! composition's `nm` when its clip was renamed and the root's `op` when the clip's duration
//! changed. Every other byte (shapes, masks, assets, unknown fields, formatting) is kept, so an
//! unedited document is written back byte for byte.
//!
//! An edited track becomes keyframes in the new Bodymovin shape (`s` on every key, no `e`):
//! * a key whose time and value were read from the file keeps its original `t` and `s` text,
//!   and a segment left as it was keeps its original `o`/`i` handles;
//! * other segments get handles recovered from the Bezier tangents:
//!   `o = ((c0.t − t0)/dt, (c0.v − v0)/dv)`, `i` likewise, with `x` clamped to `[0, 1]` (where
//!   `dv` is 0 the curve is flat in Lottie whatever the handle); linear segments get `o = (0, 0)`,
//!   `i = (1, 1)`;
//! * a flat segment followed by a second key at the same time (the reader's form of a hold), and
//!   every segment of a discrete track, become hold keys (`h: 1`);
//! * a smooth (cubic) track, which Lottie cannot hold, is sampled at every frame into linear
//!   keys;
//! * a track with one key becomes a static value (`"k": [..]`, or a bare number where the file
//!   had one).
//!
//! A baked motion path that was edited is written as its baked keys (linear, no `to`/`ti`):
//! lottie-web then follows the edited track exactly, but the path's original tangents are gone.
//!
//! A document not read from Lottie becomes a new composition instead: see
//! [`compose`](super::compose).
//!
//! [`WriteOptions::pretty`](crate::formats::WriteOptions::pretty) does not apply (the file keeps its own layout); a precision applies
//! to the numbers written anew.

use std::collections::HashMap;

use super::emit::{handle_text, handles, key_values, lottie_keys, numbers, resampled};
use super::{LottieSource, OriginalKey, PropBinding};
use crate::formats::json::number::{write_f32, write_f64};
use crate::formats::json::write_str;
use crate::formats::{Document, NotWritable, WriteOptions};
use crate::model::{HandleSide, Interpolation, Track};

/// Whether `doc`, read from the Lottie file `source`, can be written back into it: it must have
/// no clips or tracks the file has no place for, and every track must keep the kind and value
/// size its property had.
pub(crate) fn check_writable(doc: &Document, source: &LottieSource) -> Result<(), NotWritable> {
    let data = &source.0;
    // The property of each (clip, track name), the first one where names repeat.
    let mut props: HashMap<(usize, &str), &PropBinding> = HashMap::with_capacity(data.props.len());
    for p in &data.props {
        props.entry((p.clip, p.imported.name.as_str())).or_insert(p);
    }
    let mut problems = Vec::new();
    for (c, clip) in doc.clips.iter().enumerate() {
        if c >= data.comps.len() {
            problems.push(format!(
                "clip {:?} (the file has no composition for it)",
                clip.name
            ));
            continue;
        }
        for track in &clip.tracks {
            match props.get(&(c, track.name.as_str())) {
                None => problems.push(format!(
                    "{}|{} (no such layer property)",
                    clip.name, track.name
                )),
                Some(b) if b.imported.kind != track.kind => problems.push(format!(
                    "{}|{} (a {} track where the file has a {} property)",
                    clip.name,
                    track.name,
                    track.kind.type_name(),
                    b.imported.kind.type_name()
                )),
                Some(b) if !track.is_empty() && b.imported.value_size() != track.value_size() => {
                    problems.push(format!(
                        "{}|{} ({} values per key where the property has {})",
                        clip.name,
                        track.name,
                        track.value_size(),
                        b.imported.value_size()
                    ))
                }
                Some(_) => {}
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(NotWritable::new(
            doc.format,
            format!(
                "a Lottie file holds only the layer transform properties it was read with; these have no place in it: {}",
                problems.join(", ")
            ),
        ))
    }
}

/// What converting the Lottie document `doc` to another format leaves out, one line each.
pub(crate) fn losses_leaving(doc: &Document) -> Vec<String> {
    let source = doc.source::<LottieSource>();
    let mut lost = vec![
        "everything in the Lottie file but layer transforms and markers (shapes, masks, \
         effects, text, images, precomp time remapping and other fields)"
            .to_string(),
        "layer parenting, in/out points and st/sr (kept only as each clip's userData \"lottie\", \
         which three.js does not apply)"
            .to_string(),
        "Lottie's 2D meaning: values stay in Lottie units (pixels with y down, degrees clockwise, \
         percent scale, opacity 0-100)"
            .to_string(),
    ];
    let baked = source.map_or(0, |s| s.0.props.iter().filter(|p| p.baked).count());
    if baked > 0 {
        lost.push(format!(
            "the motion-path tangents (to/ti) of {} propert{}: baked at import into linear keys \
             at every frame (and finer where the path bends)",
            baked,
            if baked == 1 { "y" } else { "ies" }
        ));
    }
    let driven: Vec<String> = doc
        .clips
        .iter()
        .filter_map(|c| c.layers.as_ref())
        .flat_map(|l| &l.layers)
        .flat_map(|l| l.expressions.iter().map(move |e| format!("{}.{e}", l.name)))
        .collect();
    if !driven.is_empty() {
        lost.push(format!(
            "the expressions (x) of {} propert{} ({}): lottie-web plays what they compute from \
             the keys; only the keys are written",
            driven.len(),
            if driven.len() == 1 { "y" } else { "ies" },
            driven.join(", ")
        ));
    }
    lost
}

/// The Lottie file `source` that `doc` was read from, with edited properties replaced.
pub(crate) fn write_back(doc: &Document, source: &LottieSource, opts: &WriteOptions) -> Vec<u8> {
    let data = &source.0;
    let mut edits = edits(doc, source, opts);
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    let bytes = &data.bytes;
    let mut out = Vec::with_capacity(bytes.len() + 256);
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at {
            continue;
        }
        out.extend_from_slice(&bytes[at..range.start]);
        out.extend_from_slice(&text);
        at = range.end;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

/// The byte ranges to replace and their new text.
fn edits(
    doc: &Document,
    source: &LottieSource,
    opts: &WriteOptions,
) -> Vec<(std::ops::Range<usize>, Vec<u8>)> {
    let data = &source.0;
    let mut edits = Vec::new();
    for (c, clip) in doc.clips.iter().enumerate().take(data.comps.len()) {
        // The track of each name, the first one where names repeat.
        let mut tracks: HashMap<&str, &Track> = HashMap::with_capacity(clip.tracks.len());
        for t in &clip.tracks {
            tracks.entry(t.name.as_str()).or_insert(t);
        }
        let comp = &data.comps[c];
        if clip.name != comp.name {
            let mut text = Vec::new();
            write_str(&mut text, &clip.name);
            match &comp.name_span {
                Some(span) => edits.push((span.clone(), text)),
                None => {
                    let mut insert = b"\"nm\":".to_vec();
                    insert.extend_from_slice(&text);
                    insert.push(b',');
                    let at = comp.span.start + 1;
                    edits.push((at..at, insert));
                }
            }
        }
        if comp.root
            && let Some(edit) = markers_edit(clip, comp, &data.bytes, opts)
        {
            edits.push(edit);
        }
        if let Some(span) = &comp.op_span
            && (clip.duration - comp.duration).abs() > 1e-9
        {
            let mut text = Vec::new();
            write_f64(
                &mut text,
                comp.origin + clip.duration * comp.fr,
                opts.precision,
            );
            edits.push((span.clone(), text));
        }
        for binding in data.props.iter().filter(|p| p.clip == c) {
            let Some(&track) = tracks.get(binding.imported.name.as_str()) else {
                continue;
            };
            if track.is_empty()
                || same_curve(track, &binding.imported)
                || track.kind != binding.imported.kind
                || track.value_size() != binding.imported.value_size()
            {
                continue;
            }
            let text = property_text(binding, track, &data.bytes, opts);
            edits.push((binding.span.clone(), text));
        }
    }
    edits
}

/// The edit that writes the clip's markers into the root's `markers` when they changed: each
/// marker read from the file and left alone keeps its original text (`dr` and all), a new or
/// changed one is written as `{"tm": frame, "cm": name, "dr": 0}`, and entries that were not
/// understood stay at the end as they were.
fn markers_edit(
    clip: &crate::model::Clip,
    comp: &super::CompBinding,
    bytes: &[u8],
    opts: &WriteOptions,
) -> Option<(std::ops::Range<usize>, Vec<u8>)> {
    let now = clip.markers();
    let mut read: Vec<&crate::model::ops::Marker> = comp
        .markers
        .iter()
        .filter_map(|(m, _)| m.as_ref())
        .collect();
    read.sort_by(|a, b| a.time.total_cmp(&b.time));
    if now.len() == read.len() && now.iter().zip(&read).all(|(a, b)| a == *b) {
        return None;
    }
    let mut used = vec![false; comp.markers.len()];
    let mut items: Vec<Vec<u8>> = Vec::new();
    for m in &now {
        let original = comp
            .markers
            .iter()
            .enumerate()
            .find(|(i, (r, _))| !used[*i] && r.as_ref() == Some(m));
        match original {
            Some((i, (_, range))) => {
                used[i] = true;
                items.push(bytes[range.clone()].to_vec());
            }
            None => {
                let mut text = b"{\"tm\":".to_vec();
                write_f64(&mut text, comp.origin + m.time * comp.fr, opts.precision);
                text.extend_from_slice(b",\"cm\":");
                write_str(&mut text, &m.name);
                text.extend_from_slice(b",\"dr\":0}");
                items.push(text);
            }
        }
    }
    for (r, range) in &comp.markers {
        if r.is_none() {
            items.push(bytes[range.clone()].to_vec());
        }
    }
    let mut array = b"[".to_vec();
    array.extend_from_slice(&items.join(&b","[..]));
    array.push(b']');
    Some(match &comp.markers_span {
        Some(span) => (span.clone(), array),
        None => {
            let mut insert = b"\"markers\":".to_vec();
            insert.extend_from_slice(&array);
            insert.push(b',');
            let at = comp.span.start + 1;
            (at..at, insert)
        }
    })
}

/// True when `a` and `b` evaluate alike: same kind, keys, values, interpolation and handles
/// (handle modes, which are editor state, are not compared).
fn same_curve(a: &Track, b: &Track) -> bool {
    a.kind == b.kind
        && a.times == b.times
        && a.values == b.values
        && a.interpolation == b.interpolation
        && a.tangents
            .as_ref()
            .map(|t| (&t.in_tangents, &t.out_tangents))
            == b.tangents
                .as_ref()
                .map(|t| (&t.in_tangents, &t.out_tangents))
}

/// The property object with `k` (and `a`) rewritten from `track`, other fields copied.
fn property_text(
    binding: &PropBinding,
    track: &Track,
    bytes: &[u8],
    opts: &WriteOptions,
) -> Vec<u8> {
    let track = match track.interpolation {
        Interpolation::Smooth => resampled(track, binding.fr),
        _ => track.clone(),
    };
    let animated = track.len() > 1;
    let k = if animated {
        keyframes_text(binding, &track, bytes, opts)
    } else {
        static_text(binding, &track, opts)
    };
    let mut out = Vec::with_capacity(k.len() + 64);
    out.push(b'{');
    for (i, (name, span)) in binding.fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(&mut out, name);
        out.push(b':');
        match name.as_str() {
            "k" => out.extend_from_slice(&k),
            "a" => out.push(if animated { b'1' } else { b'0' }),
            _ => out.extend_from_slice(&bytes[span.clone()]),
        }
    }
    out.push(b'}');
    out
}

/// A one-key track as a static value.
fn static_text(binding: &PropBinding, track: &Track, opts: &WriteOptions) -> Vec<u8> {
    let values = key_values(track, 0);
    let mut out = Vec::new();
    if binding.number && values.len() == 1 {
        write_f32(&mut out, values[0], opts.precision);
    } else {
        numbers(&mut out, values, opts);
    }
    out
}

/// Key indices by the bits of their time, in key order: where to look for a key at a time
/// without scanning every key.
struct ByTime(HashMap<u32, Vec<usize>>);

impl ByTime {
    /// The index of `times`.
    fn new(times: impl Iterator<Item = f32>) -> ByTime {
        let mut map: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, t) in times.enumerate() {
            map.entry(t.to_bits()).or_default().push(i);
        }
        ByTime(map)
    }

    /// The keys at exactly `time`, first to last.
    fn at(&self, time: f32) -> &[usize] {
        self.0.get(&time.to_bits()).map_or(&[], Vec::as_slice)
    }
}

/// The original key read at model time `time` with value `value` (or failing that, at `time`);
/// `by_time` indexes `keys`.
fn original_at<'k>(
    keys: &'k [OriginalKey],
    by_time: &ByTime,
    time: f32,
    value: &[f32],
) -> Option<(usize, &'k OriginalKey)> {
    let at = by_time.at(time);
    at.iter()
        .find(|&&i| keys[i].value == value)
        .or(at.first())
        .map(|&i| (i, &keys[i]))
}

/// The segment from model key `a` to `b` of `track` is the one the reader made between two
/// consecutive original keys, untouched: then their `o`/`i` text still holds. `snap_by_time`
/// indexes the keys the reader made.
fn segment_unchanged(
    binding: &PropBinding,
    snap_by_time: &ByTime,
    track: &Track,
    a: usize,
    b: usize,
) -> bool {
    let snap = &binding.imported;
    let find = |k: usize| {
        snap_by_time
            .at(track.times[k])
            .iter()
            .copied()
            .find(|&s| key_values(snap, s) == key_values(track, k))
    };
    let (Some(sa), Some(sb)) = (find(a), find(b)) else {
        return false;
    };
    if sb != sa + 1 || snap.interpolation != track.interpolation {
        return false;
    }
    let vs = track.value_size();
    match (&snap.tangents, &track.tangents) {
        (None, None) => true,
        (Some(st), Some(tt)) => (0..vs).all(|c| {
            st.point(HandleSide::Out, sa, c, vs) == tt.point(HandleSide::Out, a, c, vs)
                && st.point(HandleSide::In, sb, c, vs) == tt.point(HandleSide::In, b, c, vs)
        }),
        _ => false,
    }
}

/// The `k` array of keyframes for `track`.
fn keyframes_text(
    binding: &PropBinding,
    track: &Track,
    bytes: &[u8],
    opts: &WriteOptions,
) -> Vec<u8> {
    let keys = lottie_keys(track);
    let vs = track.value_size();
    let originals = ByTime::new(binding.keys.iter().map(|k| k.time));
    let made = ByTime::new(binding.imported.times.iter().copied());
    let mut out = Vec::with_capacity(keys.len() * 80);
    out.push(b'[');
    for (m, key) in keys.iter().enumerate() {
        if m > 0 {
            out.push(b',');
        }
        let j = key.key;
        let time = track.times[j];
        let value = key_values(track, j);
        let original = original_at(&binding.keys, &originals, time, value);
        out.push(b'{');
        let mut first = true;
        let mut sep = |out: &mut Vec<u8>| {
            if !first {
                out.push(b',');
            }
            first = false;
        };
        if let Some(next) = keys.get(m + 1).filter(|_| !key.hold) {
            let b = next.key;
            let reuse = original
                .filter(|(oi, o)| {
                    !o.hold
                        && binding.keys.get(oi + 1).is_some_and(|n| {
                            n.time.to_bits() == track.times[b].to_bits()
                                && n.value == key_values(track, b)
                        })
                        && segment_unchanged(binding, &made, track, j, b)
                })
                .and_then(|(_, o)| Some((o.i.clone()?, o.o.clone()?)));
            match reuse {
                Some((i, o)) => {
                    sep(&mut out);
                    out.extend_from_slice(b"\"i\":");
                    out.extend_from_slice(&bytes[i]);
                    sep(&mut out);
                    out.extend_from_slice(b"\"o\":");
                    out.extend_from_slice(&bytes[o]);
                }
                None => {
                    let (o, i) = handles(track, j, b, vs);
                    sep(&mut out);
                    out.extend_from_slice(b"\"i\":");
                    handle_text(&mut out, &i, opts);
                    sep(&mut out);
                    out.extend_from_slice(b"\"o\":");
                    handle_text(&mut out, &o, opts);
                }
            }
        }
        sep(&mut out);
        out.extend_from_slice(b"\"t\":");
        match original {
            Some((_, o)) => out.extend_from_slice(&bytes[o.t.clone()]),
            None => write_f32(
                &mut out,
                (time as f64 * binding.fr + binding.origin) as f32,
                opts.precision,
            ),
        }
        sep(&mut out);
        out.extend_from_slice(b"\"s\":");
        match original.and_then(|(_, o)| o.s.clone().filter(|_| o.value == value)) {
            Some(s) if bytes[s.clone()].first() == Some(&b'[') => {
                out.extend_from_slice(&bytes[s]);
            }
            _ => numbers(&mut out, value, opts),
        }
        if key.hold {
            sep(&mut out);
            out.extend_from_slice(b"\"h\":1");
        }
        out.push(b'}');
    }
    out.push(b']');
    out
}
