//! Small animation files: quantized samplers and `EXT_meshopt_compression`.
//!
//! * [`codec`] is the meshoptimizer codec (the `meshopt` crate's bindings), every precondition
//!   checked;
//! * [`decompress`] reads compressed buffer views back into plain ones when a file is read;
//! * [`encode`] chooses how one animation view is stored;
//! * [`storage`] reports how each track of a written file is stored;
//! * [`stored`] gives a track as a packed file reads it back (what the reducer fits with);
//! * [`pack`] lays out a file being written: every buffer view into one buffer, the animation
//!   views packed as [`Packing`] asks, the compressed bytes in the first buffer; compressed
//!   views point into a fallback buffer without data (marked `"fallback": true`, the extension
//!   required), or with [`Packing::fallback`] into the uncompressed data, which follows the
//!   compressed data in the first buffer (the extension only used).
//!
//! Every animation accessor of tightly packed floats is packed on its own, wherever its view
//! puts it (a view several accessors share is split); a view that also holds anything else
//! (mesh data, sparse parts, what an image reads) is copied as it is for that. A sampler's
//! accessor that a mesh, a skin or a sampler of another role also reads is copied first, so
//! only the sampler's data changes.

pub(crate) mod codec;
pub(crate) mod decompress;
pub(crate) mod encode;
pub(crate) mod reach;
pub(crate) mod storage;
pub(crate) mod stored;

use std::collections::{BTreeMap, HashMap, HashSet};

use rayon::prelude::*;
use serde_json::{Map, Value, json};

use self::encode::{Packed, Role};
use super::indices::{remap, view_slots};
use crate::formats::Packing;

/// The extension's name.
pub(crate) const EXTENSION: &str = "EXT_meshopt_compression";

/// A buffer of the file being written: its JSON fields and its bytes.
pub(crate) type Buffer = (Map<String, Value>, Vec<u8>);

/// The role of every accessor the animations use (see [`Role`]); with
/// [`Packing::rotation_error`], each rotation's bits from its node's reach. An accessor a
/// sampler shares with a mesh, a skin or a sampler of another role is copied for the sampler
/// (a new accessor on the same data), so that every sampler's data is packed as its own role
/// asks and nothing else's changes.
fn roles(root: &mut Map<String, Value>, packing: &Packing) -> HashMap<u64, Role> {
    let reaches = (packing.rotation_error > 0.0).then(|| reach::reaches(&reach::json_nodes(root)));
    let bits = |node: Option<u64>| match (&reaches, node) {
        (Some(r), Some(n)) => r
            .get(n as usize)
            .map_or(0, |&r| reach::rotation_bits(r, packing.rotation_error)),
        _ => 0,
    };
    // Each sampler's (input, output) roles, by (animation, sampler), from its channels.
    let mut wanted: BTreeMap<(usize, usize), (Role, Role)> = BTreeMap::new();
    for (a, animation) in list(root, "animations").iter().enumerate() {
        let samplers = animation.get("samplers").and_then(Value::as_array);
        for channel in animation
            .get("channels")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(s) = channel.get("sampler").and_then(Value::as_u64) else {
                continue;
            };
            let Some(sampler) = samplers.and_then(|list| list.get(s as usize)) else {
                continue;
            };
            let cubic = sampler.get("interpolation").and_then(Value::as_str) == Some("CUBICSPLINE");
            let role = match channel.pointer("/target/path").and_then(Value::as_str) {
                Some("rotation") => Role::Rotation {
                    unit: !cubic,
                    bits: bits(channel.pointer("/target/node").and_then(Value::as_u64)),
                },
                Some("weights") => Role::Weights,
                Some("translation") => Role::Vector { scale: false },
                Some("scale") => Role::Vector { scale: true },
                _ => Role::Other,
            };
            wanted
                .entry((a, s as usize))
                .and_modify(|r| {
                    if r.1 != role {
                        r.1 = Role::Other;
                    }
                })
                .or_insert((Role::Input, role));
        }
    }
    let outside = used_outside_animations(root);
    let mut roles: HashMap<u64, Role> = HashMap::new();
    for ((a, s), (input, output)) in wanted {
        for (slot, role) in [("input", input), ("output", output)] {
            let Some(accessor) = sampler_slot(root, a, s, slot).and_then(|v| v.as_u64()) else {
                continue;
            };
            let shared =
                outside.contains(&accessor) || roles.get(&accessor).is_some_and(|&r| r != role);
            if !shared {
                roles.insert(accessor, role);
                continue;
            }
            if role == Role::Other {
                roles.insert(accessor, Role::Other);
                continue;
            }
            // A copy of the accessor for this sampler alone.
            let Some(copy) = list(root, "accessors").get(accessor as usize).cloned() else {
                continue;
            };
            let Some(Value::Array(accessors)) = root.get_mut("accessors") else {
                continue;
            };
            let index = accessors.len() as u64;
            accessors.push(copy);
            if let Some(slot) = sampler_slot(root, a, s, slot) {
                *slot = json!(index);
            }
            roles.insert(index, role);
        }
    }
    roles
}

/// The `input` or `output` (`slot`) of sampler `s` of animation `a`.
fn sampler_slot<'r>(
    root: &'r mut Map<String, Value>,
    a: usize,
    s: usize,
    slot: &str,
) -> Option<&'r mut Value> {
    root.get_mut("animations")?
        .get_mut(a)?
        .get_mut("samplers")?
        .get_mut(s)?
        .get_mut(slot)
}

/// The accessors something other than an animation sampler reads: mesh attributes, indices
/// and morph targets, skins' inverse bind matrices, GPU instancing attributes.
fn used_outside_animations(root: &Map<String, Value>) -> HashSet<u64> {
    let mut out = HashSet::new();
    let values = |v: Option<&Value>, out: &mut HashSet<u64>| {
        if let Some(Value::Object(map)) = v {
            out.extend(map.values().filter_map(Value::as_u64));
        }
    };
    for mesh in list(root, "meshes") {
        for primitive in mesh
            .get("primitives")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            values(primitive.get("attributes"), &mut out);
            out.extend(primitive.get("indices").and_then(Value::as_u64));
            for target in primitive
                .get("targets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                values(Some(target), &mut out);
            }
        }
    }
    for node in list(root, "nodes") {
        values(
            node.pointer("/extensions/EXT_mesh_gpu_instancing/attributes"),
            &mut out,
        );
    }
    for skin in list(root, "skins") {
        out.extend(skin.get("inverseBindMatrices").and_then(Value::as_u64));
    }
    out
}

/// The array `key` of `root` (empty when absent).
fn list<'a>(root: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    root.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The bytes of view `view` (a `bufferViews` entry) in `buffers`.
fn view_bytes<'b>(view: &Value, buffers: &'b [Buffer]) -> Option<&'b [u8]> {
    let buffer = view.get("buffer")?.as_u64()? as usize;
    let offset = view.get("byteOffset").map_or(Some(0), Value::as_u64)? as usize;
    let length = view.get("byteLength")?.as_u64()? as usize;
    buffers
        .get(buffer)?
        .1
        .get(offset..offset.checked_add(length)?)
}

/// Packs the part of view `view` (its bytes `bytes`) that animation accessor `accessor` holds
/// as tightly packed floats, as `role` asks; `None` when it holds anything else.
fn pack_view(
    view: &Value,
    accessor: &Value,
    role: Role,
    bytes: &[u8],
    packing: &Packing,
) -> Option<Packed> {
    let n = match accessor.get("type")?.as_str()? {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        _ => return None,
    };
    let count = accessor.get("count")?.as_u64()? as usize;
    let offset = accessor.get("byteOffset").map_or(Some(0), Value::as_u64)? as usize;
    let simple = accessor.get("componentType")?.as_u64()? == 5126
        && accessor.get("sparse").is_none()
        && view
            .get("byteStride")
            .is_none_or(|s| s.as_u64() == Some(n as u64 * 4));
    if !simple || count == 0 {
        return None;
    }
    let bytes = bytes.get(offset..offset.checked_add(count.checked_mul(n * 4)?)?)?;
    let values: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Some(encode::pack(&values, n, role, packing))
}

/// Packed views that go into one buffer view: the same codec stride and filter (or none), and
/// the same element size.
type GroupKey = (Option<(usize, &'static str)>, usize);

/// A packed accessor in a group: the view it was in, its index and how it was packed.
type Member = (u64, u64, Packed);

/// The group accessor `a` of `root`, packed as `p`, joins: its codec stride and filter, and
/// its element size.
fn group_key(root: &Map<String, Value>, a: u64, p: &Packed) -> GroupKey {
    let count = list(root, "accessors")
        .get(a as usize)
        .and_then(|acc| acc.get("count"))
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1) as usize;
    (
        p.codec.as_ref().map(|(_, stride, f)| (*stride, f.name())),
        p.bytes.len() / count,
    )
}

/// Every animation accessor of a view in `views` (those `holders` lists, with a role in
/// `roles`) packed on its own, by (view, accessor): several share a view in hand-made files
/// and gltfpack's output. All at once, since packing tries several encodings of each.
fn pack_accessors(
    root: &Map<String, Value>,
    views: &[Value],
    buffers: &[Buffer],
    holders: &HashMap<u64, Vec<u64>>,
    roles: &HashMap<u64, Role>,
    packing: &Packing,
) -> HashMap<(usize, u64), Packed> {
    let accessors = list(root, "accessors");
    let jobs: Vec<(usize, u64)> = (0..views.len())
        .flat_map(|v| {
            let held = holders.get(&(v as u64)).map_or(&[][..], Vec::as_slice);
            held.iter().map(move |&a| (v, a))
        })
        .collect();
    jobs.par_iter()
        .filter_map(|&(v, a)| {
            let view = &views[v];
            let role = *roles.get(&a)?;
            let bytes = view_bytes(view, buffers)?;
            let accessor = accessors.get(a as usize)?;
            let p = pack_view(view, accessor, role, bytes, packing)?;
            (!p.bytes.is_empty()).then_some(((v, a), p))
        })
        .collect()
}

/// `root` and `buffers` as written with `packing` (see the module docs): the new buffers.
/// Packed accessors of one kind (key times, rotations, translations, …) share one buffer view,
/// each at its byte offset, so the codec sees one long stream and the JSON lists few views.
pub(crate) fn pack(
    root: &mut Map<String, Value>,
    buffers: &[Buffer],
    packing: &Packing,
) -> Vec<Buffer> {
    slim(root);
    let roles = roles(root, packing);
    let holders = holders(root);
    // Views an image reads stay whole.
    let imaged: HashSet<usize> = list(root, "images")
        .iter()
        .filter_map(|i| i.get("bufferView")?.as_u64())
        .map(|v| v as usize)
        .collect();
    let old_views = list(root, "bufferViews").to_vec();
    let mut main: Vec<u8> = Vec::new();
    // The uncompressed data of the compressed views: its bytes only where the file carries
    // them (`fallback`), else its length alone, which the declared fallback buffer states.
    let mut fallback: Vec<u8> = Vec::new();
    let mut fallback_len = 0usize;
    let mut views: Vec<Value> = Vec::with_capacity(old_views.len());
    // Old view → new view and the byte offset of its data there.
    let mut moves: HashMap<u64, (u64, u64)> = HashMap::new();
    let mut groups: BTreeMap<GroupKey, Vec<Member>> = BTreeMap::new();
    let mut packed = pack_accessors(root, &old_views, buffers, &holders, &roles, packing);
    for (v, view) in old_views.iter().enumerate() {
        let Some(bytes) = view_bytes(view, buffers) else {
            moves.insert(v as u64, (views.len() as u64, 0));
            views.push(view.clone());
            continue;
        };
        // The view is kept as it is for anything else it holds (mesh data, sparse parts, an
        // image).
        let held = holders.get(&(v as u64)).map_or(&[][..], Vec::as_slice);
        let mut rest = imaged.contains(&v) || held.is_empty();
        for &a in held {
            let Some(p) = packed.remove(&(v, a)) else {
                rest = true;
                continue;
            };
            groups
                .entry(group_key(root, a, &p))
                .or_default()
                .push((v as u64, a, p));
        }
        if rest {
            align(&mut main);
            let mut view = view.clone();
            if let Some(map) = view.as_object_mut() {
                map.insert("buffer".into(), json!(0));
                map.insert("byteOffset".into(), json!(main.len()));
            }
            main.extend_from_slice(bytes);
            moves.insert(v as u64, (views.len() as u64, 0));
            views.push(view);
        }
    }
    // Each packed accessor: its new view, its offset there and how it was packed.
    let mut changes: Vec<(u64, u64, u64, Packed)> = Vec::new();
    let mut compressed_views = Vec::new();
    // Each group's stream, laid out and compressed on the worker threads (a long one in two
    // views, so that both threads compress).
    let groups: Vec<(GroupKey, Vec<Member>)> = groups.into_iter().flat_map(halves).collect();
    let streams: Vec<Stream> = groups
        .par_iter()
        .map(|((codec, _), members)| stream(*codec, members, packing.fallback))
        .collect();
    let first = views.len();
    for (g, ((_, members), stream)) in groups.into_iter().zip(streams).enumerate() {
        let index = (first + g) as u64;
        for ((v, a, p), &offset) in members.into_iter().zip(&stream.offsets) {
            // A view kept for what else it holds stays where it was put.
            moves.entry(v).or_insert((index, offset));
            changes.push((a, index, offset, p));
        }
        let Stream {
            data,
            len,
            elements,
            compressed,
            ..
        } = stream;
        let mut view = Map::new();
        view.insert("byteLength".into(), json!(len));
        match compressed {
            Some(c) => {
                align(&mut main);
                align(&mut fallback);
                fallback_len = fallback_len.div_ceil(4) * 4;
                let mut ext = json!({
                    "buffer": 0,
                    "byteOffset": main.len(),
                    "byteLength": c.bytes.len(),
                    "byteStride": c.stride,
                    "count": elements,
                    "mode": "ATTRIBUTES",
                });
                if c.filter != codec::Filter::None.name() {
                    ext["filter"] = json!(c.filter);
                }
                main.extend_from_slice(&c.bytes);
                view.insert("buffer".into(), json!(1));
                view.insert("byteOffset".into(), json!(fallback_len));
                fallback.extend_from_slice(&data);
                fallback_len += len;
                view.insert("extensions".into(), json!({ EXTENSION: ext }));
                compressed_views.push(views.len());
            }
            None => {
                align(&mut main);
                view.insert("buffer".into(), json!(0));
                view.insert("byteOffset".into(), json!(main.len()));
                main.extend_from_slice(&data);
            }
        }
        views.push(Value::Object(view));
    }
    // Carried, the uncompressed data moves behind the compressed data; else the fallback
    // buffer is declared, empty, with its length.
    let declared = if packing.fallback {
        if fallback_len > 0 {
            append_fallback(&mut main, &mut fallback, &mut views, &compressed_views);
            declare(root, false);
        }
        0
    } else {
        fallback_len
    };
    let renumbered: HashMap<u64, u64> = moves.iter().map(|(&old, &(new, _))| (old, new)).collect();
    view_slots(root, |slot| remap(slot, &renumbered));
    if views.is_empty() {
        root.shift_remove("bufferViews");
    } else {
        root.insert("bufferViews".into(), Value::Array(views));
    }
    point_accessors(root, &changes);
    let fields = buffers.first().map(|b| b.0.clone()).unwrap_or_default();
    let mut out = vec![(fields, main)];
    if declared > 0 {
        out.push(empty_fallback(root, declared));
    }
    out
}

/// The fallback buffer the extension asks for, declared with its length `len` and no data
/// (the file does not carry the uncompressed data), with the extension marked required.
fn empty_fallback(root: &mut Map<String, Value>, len: usize) -> Buffer {
    declare(root, true);
    let mut fields = Map::new();
    fields.insert("byteLength".into(), json!(len));
    fields.insert(
        "extensions".into(),
        json!({ EXTENSION: { "fallback": true } }),
    );
    (fields, Vec::new())
}

/// Points each packed accessor of `changes` (accessor, new view, byte offset there, how it
/// was packed) at its new view and gives it its packed type and bounds.
fn point_accessors(root: &mut Map<String, Value>, changes: &[(u64, u64, u64, Packed)]) {
    let Some(Value::Array(accessors)) = root.get_mut("accessors") else {
        return;
    };
    for (a, view, offset, p) in changes {
        if let Some(Value::Object(acc)) = accessors.get_mut(*a as usize) {
            update_accessor(acc, p);
            acc.insert("bufferView".into(), json!(view));
            match offset {
                0 => acc.shift_remove("byteOffset"),
                _ => acc.insert("byteOffset".into(), json!(offset)),
            };
        }
    }
}

/// One new buffer view's stream: the group's data, each member's offset in it, and the
/// codec's elements and compressed bytes where the group goes through the codec.
struct Stream {
    /// The members' bytes, one after another (what a reader sees); empty for a compressed
    /// stream whose uncompressed bytes the file does not carry.
    data: Vec<u8>,
    /// The length of the members' bytes.
    len: usize,
    /// Each member's byte offset in the stream.
    offsets: Vec<u64>,
    /// The codec's elements (its input over its stride).
    elements: usize,
    /// The codec's output, when the group has a codec.
    compressed: Option<Compressed>,
}

/// A stream through the codec: its stride, its filter's name and the compressed bytes.
struct Compressed {
    stride: usize,
    filter: &'static str,
    bytes: Vec<u8>,
}

/// What accessor `p` gives the codec, when it goes through it.
fn codec_input(p: &Packed) -> Option<&[u8]> {
    p.codec.as_ref().map(|(bytes, _, _)| bytes.as_slice())
}

/// The stream of a group of packed accessors (`members`, in order) whose codec stride and
/// filter are `codec`: their data laid out one after another and, with a codec, their codec
/// input compressed as one. A compressed stream's own bytes are laid out only when
/// `keep_data` (a fallback carries them).
fn stream(codec: Option<(usize, &'static str)>, members: &[Member], keep_data: bool) -> Stream {
    let len: usize = members.iter().map(|m| m.2.bytes.len()).sum();
    let lay_out = codec.is_none() || keep_data;
    let mut data = Vec::with_capacity(if lay_out { len } else { 0 });
    let mut input = Vec::with_capacity(
        members
            .iter()
            .filter_map(|m| codec_input(&m.2))
            .map(<[u8]>::len)
            .sum(),
    );
    let mut offsets = Vec::with_capacity(members.len());
    let mut offset = 0;
    for (_, _, p) in members {
        offsets.push(offset as u64);
        offset += p.bytes.len();
        if lay_out {
            data.extend_from_slice(&p.bytes);
        }
        if let Some(bytes) = codec_input(p) {
            input.extend_from_slice(bytes);
        }
    }
    let elements = codec.map_or(0, |(stride, _)| input.len() / stride);
    let compressed = codec.map(|(stride, filter)| Compressed {
        stride,
        filter,
        bytes: codec::encode_attributes(&input, stride),
    });
    Stream {
        data,
        len,
        offsets,
        elements,
        compressed,
    }
}

/// Bytes of compressed input from which a group's stream is split in two views (each its own
/// codec stream, compressed at once on two threads): the 10-minute take's 1.7 MB of
/// quaternions took 4.3 ms to compress on one thread while the other had finished its part.
/// Each extra view costs its JSON entry and the codec's header and tail, about 160 bytes.
const SPLIT_STREAM: usize = 1 << 19;

/// `group` as one view, or as two (its members split where half its compressed input is
/// reached) when it has more than [`SPLIT_STREAM`] bytes of it and more than one member.
fn halves((key, mut members): (GroupKey, Vec<Member>)) -> Vec<(GroupKey, Vec<Member>)> {
    let size = |m: &Member| codec_input(&m.2).map_or(0, <[u8]>::len);
    let total: usize = members.iter().map(size).sum();
    if key.0.is_none() || total <= SPLIT_STREAM || members.len() < 2 {
        return vec![(key, members)];
    }
    let mut sum = 0;
    let half = members
        .iter()
        .position(|m| {
            sum += size(m);
            2 * sum >= total
        })
        .map_or(1, |i| i + 1)
        .clamp(1, members.len() - 1);
    let second = members.split_off(half);
    vec![(key, members), (key, second)]
}

/// The accessors in each buffer view of `root`, by view (`u64::MAX` for a sparse part).
fn holders(root: &Map<String, Value>) -> HashMap<u64, Vec<u64>> {
    let mut holders: HashMap<u64, Vec<u64>> = HashMap::new();
    for (i, a) in list(root, "accessors").iter().enumerate() {
        if let Some(v) = a.get("bufferView").and_then(Value::as_u64) {
            holders.entry(v).or_default().push(i as u64);
        }
        for key in ["/sparse/indices/bufferView", "/sparse/values/bufferView"] {
            if let Some(v) = a.pointer(key).and_then(Value::as_u64) {
                holders.entry(v).or_default().push(u64::MAX);
            }
        }
    }
    holders
}

/// Moves the uncompressed `fallback` data behind the compressed data in `main` (a GLB has one
/// binary chunk) and points the `compressed_views` of `views` at it there.
fn append_fallback(
    main: &mut Vec<u8>,
    fallback: &mut Vec<u8>,
    views: &mut [Value],
    compressed_views: &[usize],
) {
    align(main);
    let base = main.len() as u64;
    for &v in compressed_views {
        if let Some(map) = views[v].as_object_mut() {
            let offset = map.get("byteOffset").and_then(Value::as_u64).unwrap_or(0);
            map.insert("buffer".into(), json!(0));
            map.insert("byteOffset".into(), json!(base + offset));
        }
    }
    main.append(fallback);
}

/// Pads `data` to a multiple of 4 bytes.
fn align(data: &mut Vec<u8>) {
    data.resize(data.len().div_ceil(4) * 4, 0);
}

/// An accessor whose view was packed as `p`: its component type, and `min`/`max` from what a
/// reader sees (left out for integers, which animation outputs need not have).
fn update_accessor(acc: &mut Map<String, Value>, p: &Packed) {
    match p.integers {
        Some((ct, normalized)) => {
            acc.insert("componentType".into(), json!(ct));
            acc.insert("normalized".into(), json!(normalized));
            acc.shift_remove("min");
            acc.shift_remove("max");
        }
        None => {
            let n = acc.get("max").and_then(Value::as_array).map_or(0, Vec::len);
            if n == 0 {
                return;
            }
            let mut min = vec![f32::INFINITY; n];
            let mut max = vec![f32::NEG_INFINITY; n];
            for (i, b) in p.bytes.chunks_exact(4).enumerate() {
                let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                min[i % n] = min[i % n].min(v);
                max[i % n] = max[i % n].max(v);
            }
            let json = |v: Vec<f32>| json!(v.into_iter().map(f64::from).collect::<Vec<_>>());
            acc.insert("min".into(), json(min));
            acc.insert("max".into(), json(max));
        }
    }
}

/// Leaves out of `root` what a small file need not say: a sampler's `LINEAR` interpolation
/// (glTF's default), and the long decimals of node transforms, which are 32-bit floats written
/// as the shortest text that reads back as the same float (`0.95`, not `0.949999988079071`).
fn slim(root: &mut Map<String, Value>) {
    if let Some(Value::Array(animations)) = root.get_mut("animations") {
        for sampler in animations
            .iter_mut()
            .filter_map(|a| a.get_mut("samplers")?.as_array_mut())
            .flatten()
            .filter_map(Value::as_object_mut)
        {
            if sampler.get("interpolation").and_then(Value::as_str) == Some("LINEAR") {
                sampler.shift_remove("interpolation");
            }
        }
    }
    if let Some(Value::Array(nodes)) = root.get_mut("nodes") {
        for node in nodes.iter_mut().filter_map(Value::as_object_mut) {
            for key in ["translation", "rotation", "scale", "matrix"] {
                if let Some(Value::Array(numbers)) = node.get_mut(key) {
                    numbers.iter_mut().for_each(shortest_f32);
                }
            }
        }
    }
}

/// A number that is exactly a 32-bit float, as the shortest decimal that reads back as it
/// (anything else is left alone).
fn shortest_f32(v: &mut Value) {
    let Some(x) = v.as_f64() else { return };
    let single = x as f32;
    if f64::from(single) != x || !single.is_finite() || v.is_i64() || v.is_u64() {
        return;
    }
    // Rust's `Display` for `f32` is the shortest text that parses back to the same `f32`.
    if let Some(n) = single
        .to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
    {
        *v = Value::Number(n);
    }
}

/// Lists the extension in `extensionsUsed` and, when `required`, `extensionsRequired`.
fn declare(root: &mut Map<String, Value>, required: bool) {
    let keys: &[&str] = if required {
        &["extensionsUsed", "extensionsRequired"]
    } else {
        &["extensionsUsed"]
    };
    for key in keys {
        let entry = root
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = entry
            && !list.iter().any(|e| e.as_str() == Some(EXTENSION))
        {
            list.push(json!(EXTENSION));
        }
    }
}
