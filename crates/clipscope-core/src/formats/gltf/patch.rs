//! Writing a document read from glTF back: the original JSON with only the animations (and
//! the binary data they use) replaced.
//!
//! * Clips unchanged since reading, and animation data that breaks none of glTF's rules
//!   ([`keeps_animations`]): the file is written as it was (same JSON, same accessors), only
//!   its buffers embedded (`.gltf`: base64 `data:` URIs; `.glb`: the first buffer as the BIN
//!   chunk), so the output never depends on files next to the input.
//! * Clips changed, or animation data that breaks the rules (sampler accessors in a strided
//!   buffer view, say, which three.js r187 hangs on): the animations are rebuilt from the
//!   [`plan`](super::plan), so no such error is carried forward. When every
//!   extension the file uses is one known not to point into buffers (materials, lights,
//!   texture transforms, quantization, GPU instancing, …), the accessors only the old
//!   animations used are dropped, then the buffer views nothing uses any more, and the kept
//!   views are packed into one buffer (each keeping its offset modulo 4, so accessor
//!   alignment holds); every index into accessors and views is renumbered (meshes, skins,
//!   sparse accessors, images, instancing). With any other extension (Draco, meshopt, …)
//!   nothing is dropped or moved: the new data is appended to the first buffer and the old
//!   animation accessors stay, unused.
//!
//! New nodes (names the file had no node for) are added as roots of the default scene; a new
//! node animated by weights gets a placeholder mesh. Meshes, materials, textures, skins,
//! cameras, extensions and extras are kept value for value; image URIs are kept as written.

use std::collections::{BTreeSet, HashMap};

use gltf_json::Node;
use serde_json::{Map, Value, json};

use super::GltfSource;
use super::bin::Bin;
use super::emit::declare_pointer;
use super::emit::{animations_json, finish, placeholder_mesh};
use super::indices::{remap, view_slots};
use super::plan::{MorphSource, Plan, animated_by_trs, keeps_animations};
use super::trs::decompose;
use crate::formats::{Document, Format, WriteOptions};

/// Extensions (or prefixes ending in `_`) that reference no accessor, buffer view or buffer
/// except where [`renumber`] renumbers them.
const SAFE_EXTENSIONS: [&str; 14] = [
    "KHR_materials_",
    "KHR_texture_transform",
    "KHR_lights_punctual",
    "KHR_mesh_quantization",
    "KHR_texture_basisu",
    "KHR_xmp_json_ld",
    "KHR_node_visibility",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "EXT_mesh_gpu_instancing",
    "EXT_lights_image_based",
    "KHR_techniques_webgl",
    "KHR_animation_pointer",
    "MSFT_texture_dds",
];

/// `doc` written over the glTF file `src` it was read from (see the module docs).
pub(crate) fn write_back(
    doc: &Document,
    src: &GltfSource,
    plan: &Plan,
    opts: &WriteOptions,
) -> Vec<u8> {
    let mut root = src.root.clone();
    let buffer_fields = |i: usize| -> Map<String, Value> {
        root_buffers(&src.root)
            .get(i)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let all_buffers = || -> Vec<(Map<String, Value>, Vec<u8>)> {
        src.buffers
            .iter()
            .enumerate()
            .map(|(i, b)| (buffer_fields(i), b.clone()))
            .collect()
    };
    if keeps_animations(doc, src) {
        // A GLB holds one binary buffer: several are packed into it when that is safe.
        let packed = (doc.format == Format::Glb && src.buffers.len() > 1)
            .then(|| compact(&mut root, &src.buffers, false))
            .flatten();
        let buffers = match packed {
            Some(packed) => vec![(buffer_fields(0), packed)],
            None => all_buffers(),
        };
        return finish(root, buffers, doc.format, opts);
    }
    let mut buffers: Vec<(Map<String, Value>, Vec<u8>)> =
        match compact(&mut root, &src.buffers, true) {
            Some(packed) => vec![(buffer_fields(0), packed)],
            None => all_buffers(),
        };
    if buffers.is_empty() {
        buffers.push((Map::new(), Vec::new()));
    }
    let mut bin = Bin::new(
        std::mem::take(&mut buffers[0].1),
        0,
        count(&root, "bufferViews"),
        count(&root, "accessors"),
    );
    // New nodes, with placeholder meshes where their weights are animated.
    let mut node_index = Vec::with_capacity(plan.nodes.len());
    let mut new_roots = Vec::new();
    for n in &plan.nodes {
        match n.existing {
            Some(i) => node_index.push(i as u32),
            None => {
                let mut node = Node {
                    name: Some(n.name.clone()),
                    ..Node::default()
                };
                if let Some(morph) = n
                    .morph
                    .as_ref()
                    .filter(|m| m.source == MorphSource::Placeholder)
                {
                    let mesh = placeholder_mesh(&mut bin, morph);
                    let meshes = array(&mut root, "meshes");
                    meshes.push(mesh);
                    node.mesh = Some(gltf_json::Index::new(meshes.len() as u32 - 1));
                }
                let nodes = array(&mut root, "nodes");
                nodes.push(serde_json::to_value(node).unwrap_or(Value::Null));
                let i = nodes.len() as u32 - 1;
                node_index.push(i);
                new_roots.push(i);
            }
        }
    }
    if !new_roots.is_empty() {
        add_to_scene(&mut root, &new_roots);
    }
    let animations = animations_json(plan, &mut bin, &node_index);
    declare_pointer(&mut root, plan);
    matrices_to_trs(&mut root, plan);
    if animations.is_empty() {
        root.shift_remove("animations");
    } else {
        root.insert("animations".into(), Value::Array(animations));
    }
    let Bin {
        data,
        views,
        accessors,
        ..
    } = bin;
    array(&mut root, "accessors").extend(accessors);
    array(&mut root, "bufferViews").extend(views);
    for key in ["accessors", "bufferViews"] {
        if count(&root, key) == 0 {
            root.shift_remove(key);
        }
    }
    buffers[0].1 = data;
    if buffers.len() == 1 && buffers[0].1.is_empty() {
        buffers.clear();
    }
    finish(root, buffers, doc.format, opts)
}

/// Replaces the `matrix` of every node a translation, rotation or scale channel animates by the
/// translation, rotation and scale it decomposes into: glTF does not allow animating a node
/// with a matrix, and the rebuilt animations must not carry that error forward.
fn matrices_to_trs(root: &mut Map<String, Value>, plan: &Plan) {
    let animated = animated_by_trs(plan);
    let Some(Value::Array(nodes)) = root.get_mut("nodes") else {
        return;
    };
    for i in animated {
        let Some(node) = nodes.get_mut(i).and_then(Value::as_object_mut) else {
            continue;
        };
        let Some(matrix) = node.get("matrix").and_then(Value::as_array) else {
            continue;
        };
        let m: Vec<f32> = matrix
            .iter()
            .filter_map(|v| v.as_f64())
            .map(|v| v as f32)
            .collect();
        // A matrix that does not decompose in f32 is refused before writing (see
        // `plan::matrix_errors`).
        let Some((scale, rotation, translation)) =
            <[f32; 16]>::try_from(m).ok().and_then(|m| decompose(&m))
        else {
            continue;
        };
        node.shift_remove("matrix");
        node.insert("translation".into(), json!(translation.to_array()));
        node.insert("rotation".into(), json!(rotation.to_array()));
        node.insert("scale".into(), json!(scale.to_array()));
    }
}

/// The length of the root's array at `key` (0 when missing).
fn count(root: &Map<String, Value>, key: &str) -> usize {
    root.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

/// The root's `buffers` array (empty when it has none).
fn root_buffers(root: &Map<String, Value>) -> &[Value] {
    root.get("buffers")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The array at `key` of the root, created when missing (or not an array).
fn array<'a>(root: &'a mut Map<String, Value>, key: &str) -> &'a mut Vec<Value> {
    let slot = root.entry(key).or_insert_with(|| json!([]));
    if !slot.is_array() {
        *slot = json!([]);
    }
    match slot {
        Value::Array(a) => a,
        _ => unreachable!("just made an array"),
    }
}

/// Adds `nodes` as roots of the default scene (creating a scene when the file has none).
fn add_to_scene(root: &mut Map<String, Value>, nodes: &[u32]) {
    let scene = root.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize;
    let scenes = array(root, "scenes");
    if scenes.is_empty() {
        scenes.push(json!({ "nodes": [] }));
    }
    let scene = scene.min(scenes.len() - 1);
    if let Some(obj) = scenes[scene].as_object_mut() {
        let list = obj.entry("nodes").or_insert_with(|| json!([]));
        if let Value::Array(list) = list {
            list.extend(nodes.iter().map(|&n| json!(n)));
        }
    }
    if !root.contains_key("scene") {
        root.insert("scene".into(), json!(scene));
    }
}

/// Every place an accessor index may sit outside animations: mesh attributes, indices and
/// targets, skin inverse bind matrices, `EXT_mesh_gpu_instancing` attributes.
fn accessor_slots(root: &mut Map<String, Value>, mut f: impl FnMut(&mut Value)) {
    if let Some(Value::Array(meshes)) = root.get_mut("meshes") {
        for mesh in meshes {
            if let Some(Value::Array(prims)) = mesh.get_mut("primitives") {
                for p in prims {
                    if let Some(Value::Object(attrs)) = p.get_mut("attributes") {
                        attrs.values_mut().for_each(&mut f);
                    }
                    if let Some(v) = p.get_mut("indices") {
                        f(v);
                    }
                    if let Some(Value::Array(targets)) = p.get_mut("targets") {
                        for t in targets {
                            if let Value::Object(t) = t {
                                t.values_mut().for_each(&mut f);
                            }
                        }
                    }
                }
            }
        }
    }
    if let Some(Value::Array(skins)) = root.get_mut("skins") {
        for skin in skins {
            if let Some(v) = skin.get_mut("inverseBindMatrices") {
                f(v);
            }
        }
    }
    if let Some(Value::Array(nodes)) = root.get_mut("nodes") {
        for node in nodes {
            if let Some(Value::Object(attrs)) =
                node.pointer_mut("/extensions/EXT_mesh_gpu_instancing/attributes")
            {
                attrs.values_mut().for_each(&mut f);
            }
        }
    }
}

/// The accessor indices of the animations' samplers.
fn animation_accessor_slots(root: &mut Map<String, Value>, mut f: impl FnMut(&mut Value)) {
    if let Some(Value::Array(animations)) = root.get_mut("animations") {
        for a in animations {
            if let Some(Value::Array(samplers)) = a.get_mut("samplers") {
                for s in samplers {
                    for k in ["input", "output"] {
                        if let Some(v) = s.get_mut(k) {
                            f(v);
                        }
                    }
                }
            }
        }
    }
}

/// Packs every buffer view still in use into one buffer, first dropping what only the old
/// animations used when `drop_animations` (see the module docs). Returns the packed bytes, or
/// `None` (leaving `root` alone) when the file uses an extension that may point into buffers,
/// or a kept view lies outside its buffer.
fn compact(
    root: &mut Map<String, Value>,
    buffers: &[Vec<u8>],
    drop_animations: bool,
) -> Option<Vec<u8>> {
    let used = root
        .get("extensionsUsed")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let safe = used.iter().all(|e| {
        e.as_str().is_some_and(|e| {
            SAFE_EXTENSIONS.iter().any(|s| {
                if s.ends_with('_') {
                    e.starts_with(s)
                } else {
                    e == *s
                }
            })
        })
    });
    if !safe {
        return None;
    }
    let mut work = root.clone();
    let accessor_count = work
        .get("accessors")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut keep = vec![false; accessor_count];
    accessor_slots(&mut work, |v| {
        if let Some(i) = v.as_u64().and_then(|i| keep.get_mut(i as usize)) {
            *i = true;
        }
    });
    let mut in_animations = BTreeSet::new();
    // Without dropping, the animations keep their accessors (renumbered like any other).
    if drop_animations && let Some(Value::Array(animations)) = work.get("animations") {
        for a in animations {
            for s in a
                .get("samplers")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for k in ["input", "output"] {
                    if let Some(i) = s.get(k).and_then(Value::as_u64) {
                        in_animations.insert(i as usize);
                    }
                }
            }
        }
    }
    // Accessors nothing references at all are kept too: only animation data is dropped.
    for (i, k) in keep.iter_mut().enumerate() {
        if !in_animations.contains(&i) {
            *k = true;
        }
    }
    let accessor_map = renumber(&keep);
    accessor_slots(&mut work, |v| remap(v, &accessor_map));
    if !drop_animations {
        animation_accessor_slots(&mut work, |v| remap(v, &accessor_map));
    }
    if let Some(Value::Array(accessors)) = work.get_mut("accessors") {
        let mut i = 0;
        accessors.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }

    let view_count = work
        .get("bufferViews")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut keep_view = vec![false; view_count];
    view_slots(&mut work, |v| {
        if let Some(i) = v.as_u64().and_then(|i| keep_view.get_mut(i as usize)) {
            *i = true;
        }
    });
    let view_map = renumber(&keep_view);
    view_slots(&mut work, |v| remap(v, &view_map));
    let mut packed = Vec::new();
    if let Some(Value::Array(views)) = work.get_mut("bufferViews") {
        let mut kept = Vec::new();
        for (i, mut view) in std::mem::take(views).into_iter().enumerate() {
            if !keep_view[i] {
                continue;
            }
            let b = view.get("buffer").and_then(Value::as_u64)? as usize;
            let offset = view.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
            let length = view.get("byteLength").and_then(Value::as_u64)? as usize;
            let bytes = buffers.get(b)?.get(offset..offset.checked_add(length)?)?;
            let start = packed.len().div_ceil(4) * 4 + offset % 4;
            packed.resize(start, 0);
            packed.extend_from_slice(bytes);
            let obj = view.as_object_mut()?;
            obj.insert("buffer".into(), json!(0));
            obj.insert("byteOffset".into(), json!(start));
            kept.push(view);
        }
        *views = kept;
    }
    // The old animations (whose accessor indices are now stale) stay in place only until
    // the caller replaces them, which keeps the key where the file had it.
    *root = work;
    Some(packed)
}

/// Old index → new index for the kept entries.
fn renumber(keep: &[bool]) -> HashMap<u64, u64> {
    let mut next = 0;
    let mut map = HashMap::new();
    for (i, &k) in keep.iter().enumerate() {
        if k {
            map.insert(i as u64, next);
            next += 1;
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(extensions: &str) -> Map<String, Value> {
        let text = format!(
            r#"{{"asset":{{"version":"2.0"}},"extensionsUsed":{extensions},
              "meshes":[{{"primitives":[{{"attributes":{{"POSITION":2}},"indices":0}}]}}],
              "animations":[{{"samplers":[{{"input":1,"output":3}}],"channels":[]}}],
              "accessors":[{{"bufferView":1}},{{"bufferView":0}},{{"bufferView":2}},{{"bufferView":0,"byteOffset":4}}],
              "bufferViews":[{{"buffer":0,"byteLength":8}},
                             {{"buffer":0,"byteOffset":10,"byteLength":6}},
                             {{"buffer":1,"byteOffset":4,"byteLength":4}}],
              "images":[{{"bufferView":2}}]}}"#
        );
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn drops_animation_data_and_packs_views() {
        let buffers = vec![(0u8..16).collect::<Vec<u8>>(), vec![9, 9, 9, 9, 7, 7, 7, 7]];
        let mut r = root(r#"["KHR_materials_unlit"]"#);
        let packed = compact(&mut r, &buffers, true).unwrap();
        // Accessors 1 and 3 (animation only) go; 0 and 2 become 0 and 1.
        assert_eq!(
            r["accessors"],
            json!([{"bufferView": 0}, {"bufferView": 1}])
        );
        assert_eq!(
            r["meshes"][0]["primitives"][0],
            json!({"attributes": {"POSITION": 1}, "indices": 0})
        );
        // View 0 (animation only) goes; view 1 keeps its offset modulo 4 (10 → 2).
        assert_eq!(
            r["bufferViews"],
            json!([
                {"buffer": 0, "byteOffset": 2, "byteLength": 6},
                {"buffer": 0, "byteOffset": 8, "byteLength": 4}
            ])
        );
        assert_eq!(r["images"][0]["bufferView"], 1);
        assert_eq!(packed, [0, 0, 10, 11, 12, 13, 14, 15, 7, 7, 7, 7]);
        // Without dropping, the animation keeps its (renumbered) accessors.
        let mut r = root("[]");
        compact(&mut r, &buffers, false).unwrap();
        assert_eq!(r["accessors"].as_array().unwrap().len(), 4);
        assert_eq!(
            r["animations"][0]["samplers"][0],
            json!({"input": 1, "output": 3})
        );
        // An extension that may point into buffers leaves everything alone.
        let mut r = root(r#"["EXT_meshopt_compression"]"#);
        let before = r.clone();
        assert_eq!(compact(&mut r, &buffers, true), None);
        assert_eq!(r, before);
        // So does a view outside its buffer.
        let mut r = root("[]");
        r["bufferViews"][2]["byteLength"] = json!(40);
        assert_eq!(compact(&mut r, &buffers, true), None);
    }
}
