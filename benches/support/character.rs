//! A generated skinned character as a glTF file, for the skinning benchmark and the conformance
//! and render tests: limbs made of tubes, each a chain of joints, skinned with four or eight
//! influences per vertex, animated by seeded joint rotations (and a walk along +z), optionally
//! with morph targets, a scaled and rotated armature under a moved mesh node, a second skin and
//! an unskinned prop riding a joint, two materials, vertex colours and a texture.
//!
//! The armature hangs from node 0; the skinned mesh's node is a sibling (glTF ignores its
//! transform). Inverse bind matrices are the inverses of the joints' rest world matrices, and the
//! vertices sit where the rest pose puts them, so the character stands as built at rest.
#![allow(dead_code)] // each test binary uses a part

use base64::Engine as _;
use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};

use clipscope_test_support::Rng;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Tubes: the first is the spine, the others branch from it.
    pub limbs: usize,
    /// Joints along each limb.
    pub joints_per_limb: usize,
    /// Rings of vertices per joint segment.
    pub rings_per_joint: usize,
    /// Vertices around each ring.
    pub ring_vertices: usize,
    /// Joints per vertex: 4 (`JOINTS_0`) or 8 (`JOINTS_1` too).
    pub influences: usize,
    /// Two morph targets on the body, animated.
    pub morphs: bool,
    /// The armature scaled and rotated, the body's node moved (which skinning ignores).
    pub transformed: bool,
    /// A second skinned mesh on its own skin, an unskinned prop on the spine's end, the body
    /// split into two primitives with two materials.
    pub extras: bool,
    /// Vertex colours (`COLOR_0`).
    pub colours: bool,
    /// A checker texture on the body.
    pub texture: bool,
    /// Length of the take in seconds, and its keys per joint.
    pub seconds: f32,
    pub keys: usize,
    /// How far the character travels along +z over the take.
    pub travel: f32,
    /// The seed of the joint motions.
    pub seed: u64,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            limbs: 5,
            joints_per_limb: 4,
            rings_per_joint: 3,
            ring_vertices: 12,
            influences: 4,
            morphs: false,
            transformed: false,
            extras: false,
            colours: false,
            texture: false,
            seconds: 2.0,
            keys: 9,
            travel: 0.0,
            seed: 187,
        }
    }
}

/// The benchmark character (`benches/skinning.rs`, `benches/ui_frame.rs`): 6 limbs × 10 joints
/// (60 joints), 26 rings of 32 vertices per joint (49,920 vertices), four influences, a 4-second
/// take walking 6 units.
pub fn bench_spec() -> Spec {
    Spec {
        limbs: 6,
        joints_per_limb: 10,
        rings_per_joint: 26,
        ring_vertices: 32,
        influences: 4,
        seconds: 4.0,
        keys: 33,
        travel: 6.0,
        ..Spec::default()
    }
}

/// An 8×8 orange and cream checker (PNG).
const CHECKER: &str = "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAIklEQVR42mN4UWHzH4R/vTkBxuh8BoIKcEnA+IQVDAI3AACr0ckB1j70iQAAAABJRU5ErkJggg==";

/// The growing binary buffer and the accessors over it.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    /// An accessor of `kind` over `values` stored as `component` (5126 float, 5125 u32,
    /// 5123 u16, 5121 u8); integer components `normalized` or not; `bounds` adds min/max.
    fn add(
        &mut self,
        kind: &str,
        component: u32,
        normalized: bool,
        values: &[f32],
        bounds: bool,
    ) -> usize {
        let per = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 16,
        };
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let start = self.bytes.len();
        for &v in values {
            let n = |scale: f32| (v * scale).round();
            match (component, normalized) {
                (5126, _) => self.bytes.extend(v.to_le_bytes()),
                (5125, _) => self.bytes.extend((v as u32).to_le_bytes()),
                (5123, true) => self.bytes.extend((n(65535.0) as u16).to_le_bytes()),
                (5123, false) => self.bytes.extend((v as u16).to_le_bytes()),
                (_, true) => self.bytes.push(n(255.0) as u8),
                _ => self.bytes.push(v as u8),
            }
        }
        let target = match kind {
            "SCALAR" if component != 5126 => Some(34963),
            _ if component == 5126 && bounds => Some(34962),
            _ => None,
        };
        let mut view =
            json!({"buffer": 0, "byteOffset": start, "byteLength": self.bytes.len() - start});
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.views.push(view);
        let mut accessor = json!({
            "bufferView": self.views.len() - 1, "componentType": component,
            "count": values.len() / per, "type": kind
        });
        if normalized {
            accessor["normalized"] = json!(true);
        }
        if bounds {
            let mut lo = vec![f32::INFINITY; per];
            let mut hi = vec![f32::NEG_INFINITY; per];
            for c in values.chunks_exact(per) {
                for k in 0..per {
                    lo[k] = lo[k].min(c[k]);
                    hi[k] = hi[k].max(c[k]);
                }
            }
            accessor["min"] = json!(lo);
            accessor["max"] = json!(hi);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }
}

/// One joint: its node, parent joint, rest local transform and limb.
struct Joint {
    parent: Option<usize>,
    translation: Vec3,
    rotation: Quat,
    limb: usize,
}

/// The joints of `spec`: limb 0 up from the hip, the others from spine joints, outwards.
fn joints(spec: &Spec, rng: &mut Rng) -> Vec<Joint> {
    let n = spec.joints_per_limb;
    let segment = 1.6 / n as f32;
    let mut out = Vec::new();
    for limb in 0..spec.limbs {
        let (attach, dir) = if limb == 0 {
            (None, Vec3::Y)
        } else {
            let angle = std::f32::consts::TAU * (limb - 1) as f32 / (spec.limbs - 1).max(1) as f32;
            let down = limb % 2 == 1;
            let at = if down { 0 } else { n - 1 };
            let d = Vec3::new(angle.cos(), if down { -0.9 } else { 0.3 }, angle.sin());
            (Some(at), d.normalize())
        };
        for j in 0..n {
            let wobble = Quat::from_rotation_z((rng.unit_f32() - 0.5) * 0.3)
                * Quat::from_rotation_x((rng.unit_f32() - 0.5) * 0.3);
            let (parent, translation) = match (j, attach) {
                (0, None) => (None, Vec3::new(0.0, 1.0, 0.0)),
                (0, Some(a)) => (Some(a), dir * 0.15),
                _ => (Some(out.len() - 1), Vec3::ZERO),
            };
            out.push(Joint {
                parent,
                translation,
                rotation: wobble,
                limb,
            });
        }
    }
    // Set each joint after the first of its limb one segment along the limb's direction.
    let world_dirs: Vec<Vec3> = (0..spec.limbs)
        .map(|limb| {
            if limb == 0 {
                Vec3::Y
            } else {
                let angle =
                    std::f32::consts::TAU * (limb - 1) as f32 / (spec.limbs - 1).max(1) as f32;
                let down = limb % 2 == 1;
                Vec3::new(angle.cos(), if down { -0.9 } else { 0.3 }, angle.sin()).normalize()
            }
        })
        .collect();
    let world = rest_world(&out, Mat4::IDENTITY);
    for i in 0..out.len() {
        let j = &out[i];
        if let Some(p) = j.parent
            && out[p].limb == j.limb
        {
            let local = world[p]
                .inverse()
                .transform_vector3(world_dirs[j.limb] * segment);
            out[i].translation = local;
        }
    }
    out
}

/// The rest world matrices of the joints under `root`.
fn rest_world(joints: &[Joint], root: Mat4) -> Vec<Mat4> {
    let mut world: Vec<Mat4> = Vec::with_capacity(joints.len());
    for j in joints {
        let parent = j.parent.map_or(root, |p| world[p]);
        world.push(parent * Mat4::from_rotation_translation(j.rotation, j.translation));
    }
    world
}

/// The glTF file (`.gltf`, buffers and image as data URIs) of `spec`.
pub fn gltf(spec: &Spec) -> Vec<u8> {
    let mut rng = Rng::new(spec.seed);
    let joints = joints(spec, &mut rng);
    let armature = if spec.transformed {
        Mat4::from_scale_rotation_translation(
            Vec3::splat(0.5),
            Quat::from_rotation_y(0.6) * Quat::from_rotation_x(-0.2),
            Vec3::new(0.3, 0.0, -0.2),
        )
    } else {
        Mat4::IDENTITY
    };
    let world = rest_world(&joints, armature);
    let mut bin = Bin::default();
    let body = tubes(spec, &joints, &world, (0..spec.limbs).collect(), &mut bin);
    // Nodes: 0 armature, 1.. joints, then the body and the extras.
    let first_joint = 1;
    let mut nodes: Vec<Value> = Vec::new();
    let (s, r, t) = armature.to_scale_rotation_translation();
    let mut arm = json!({"name": "Armature", "scale": s.to_array(), "rotation": r.to_array(), "translation": t.to_array()});
    let roots: Vec<usize> = (0..joints.len())
        .filter(|&j| joints[j].parent.is_none())
        .map(|j| j + first_joint)
        .collect();
    arm["children"] = json!(roots);
    nodes.push(arm);
    for (i, j) in joints.iter().enumerate() {
        let mut node = json!({
            "name": format!("limb{}_{}", j.limb, i),
            "translation": j.translation.to_array(),
            "rotation": j.rotation.to_array(),
        });
        let children: Vec<usize> = (0..joints.len())
            .filter(|&c| joints[c].parent == Some(i))
            .map(|c| c + first_joint)
            .collect();
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        nodes.push(node);
    }
    let ibm: Vec<f32> = world
        .iter()
        .flat_map(|m| m.inverse().to_cols_array())
        .collect();
    let ibm = bin.add("MAT4", 5126, false, &ibm, false);
    let mut skins = vec![
        json!({"name": "body", "joints": (0..joints.len()).map(|j| j + first_joint).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": 0}),
    ];
    let body_node = nodes.len();
    let mut body_json = json!({"name": "Body", "mesh": 0, "skin": 0});
    if spec.transformed {
        body_json["translation"] = json!([2.0, 0.5, -1.0]);
        body_json["rotation"] = Quat::from_rotation_z(0.7).to_array().to_vec().into();
        body_json["scale"] = json!([3.0, 3.0, 3.0]);
    }
    nodes.push(body_json);
    let mut meshes = vec![body];
    let mut scene_nodes = vec![0, body_node];
    let mut materials = vec![material(spec, [0.85, 0.55, 0.35, 1.0])];
    if spec.extras {
        materials.push(material(spec, [0.3, 0.45, 0.8, 1.0]));
        // The tail: the last limb again, thinner, on a skin of its own joints.
        let last = spec.limbs - 1;
        let tail_joints: Vec<usize> = (0..joints.len())
            .filter(|&j| joints[j].limb == last)
            .collect();
        let tail_ibm: Vec<f32> = tail_joints
            .iter()
            .flat_map(|&j| world[j].inverse().to_cols_array())
            .collect();
        let tail_ibm = bin.add("MAT4", 5126, false, &tail_ibm, false);
        skins.push(json!({"name": "tail", "joints": tail_joints.iter().map(|j| j + first_joint).collect::<Vec<_>>(), "inverseBindMatrices": tail_ibm}));
        let mut tail = tubes(
            &Spec {
                morphs: false,
                ..spec.clone()
            },
            &joints,
            &world,
            vec![last],
            &mut bin,
        );
        // Re-index the tail's joints into its own skin.
        remap_joints(&mut tail, &tail_joints, &mut bin);
        meshes.push(tail);
        nodes.push(json!({"name": "Tail", "mesh": 1, "skin": 1}));
        scene_nodes.push(nodes.len() - 1);
        // A prop on the spine's end joint: an unskinned box that moves with it.
        let cube = prop(&mut bin);
        meshes.push(cube);
        let end = spec.joints_per_limb - 1 + first_joint;
        nodes.push(json!({"name": "Prop", "mesh": 2, "translation": [0.0, 0.25, 0.0]}));
        let prop_node = nodes.len() - 1;
        let children = nodes[end].get("children").cloned().unwrap_or(json!([]));
        let mut children: Vec<Value> = children.as_array().cloned().unwrap_or_default();
        children.push(json!(prop_node));
        nodes[end]["children"] = Value::Array(children);
    }
    let animation = animation(spec, &joints, first_joint, body_node, &mut bin, &mut rng);
    let mut root = json!({
        "asset": {"version": "2.0", "generator": "clipscope character generator"},
        "scene": 0,
        "scenes": [{"nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": meshes,
        "skins": skins,
        "materials": materials,
        "animations": [animation],
    });
    if spec.texture {
        root["images"] = json!([{"uri": format!("data:image/png;base64,{CHECKER}")}]);
        root["samplers"] =
            json!([{"magFilter": 9728, "minFilter": 9728, "wrapS": 10497, "wrapT": 10497}]);
        root["textures"] = json!([{"source": 0, "sampler": 0}]);
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin.bytes)
    );
    root["buffers"] = json!([{"uri": uri, "byteLength": bin.bytes.len()}]);
    root["bufferViews"] = Value::Array(bin.views);
    root["accessors"] = Value::Array(bin.accessors);
    serde_json::to_vec(&root).expect("JSON")
}

/// A material of `colour`, textured when `spec` asks.
fn material(spec: &Spec, colour: [f32; 4]) -> Value {
    let mut pbr = json!({"baseColorFactor": colour, "metallicFactor": 0.0, "roughnessFactor": 0.8});
    if spec.texture {
        pbr["baseColorTexture"] = json!({"index": 0});
    }
    json!({"pbrMetallicRoughness": pbr, "doubleSided": true})
}

/// The mesh of tubes along the limbs `limbs`: one primitive, or two (alternate limbs, two
/// materials) with `spec.extras`.
fn tubes(spec: &Spec, joints: &[Joint], world: &[Mat4], limbs: Vec<usize>, bin: &mut Bin) -> Value {
    let groups: Vec<Vec<usize>> = if spec.extras && limbs.len() > 1 {
        vec![
            limbs.iter().copied().step_by(2).collect(),
            limbs.iter().copied().skip(1).step_by(2).collect(),
        ]
    } else {
        vec![limbs]
    };
    let primitives: Vec<Value> = groups
        .iter()
        .enumerate()
        .map(|(g, limbs)| tube_primitive(spec, joints, world, limbs, g, bin))
        .collect();
    let mut mesh = json!({"name": "tubes", "primitives": primitives});
    if spec.morphs {
        mesh["extras"] = json!({"targetNames": ["bulge", "shift"]});
        mesh["weights"] = json!([0.0, 0.0]);
    }
    mesh
}

/// One primitive: a tube per limb of `limbs`, skinned to the joints near each ring.
fn tube_primitive(
    spec: &Spec,
    joints: &[Joint],
    world: &[Mat4],
    limbs: &[usize],
    material: usize,
    bin: &mut Bin,
) -> Value {
    let (mut pos, mut nor, mut uv, mut col, mut jw, mut ww) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut bulge = vec![];
    let mut indices: Vec<f32> = vec![];
    let rv = spec.ring_vertices;
    for &limb in limbs {
        let chain: Vec<usize> = (0..joints.len())
            .filter(|&j| joints[j].limb == limb)
            .collect();
        let n = chain.len();
        let rings = n * spec.rings_per_joint + 1;
        let base = pos.len() / 3;
        for r in 0..rings {
            let s = r as f32 / spec.rings_per_joint as f32; // 0..=n along the chain
            let seg = (s.floor() as usize).min(n - 1);
            let frac = s - seg as f32;
            let a = world[chain[seg]].w_axis.truncate();
            let b = if seg + 1 < n {
                world[chain[seg + 1]].w_axis.truncate()
            } else {
                a + (a - world[chain[seg.saturating_sub(1)]].w_axis.truncate())
                    .normalize_or(Vec3::Y)
                    * 0.35
            };
            let centre = a.lerp(b, frac);
            let axis = (b - a).normalize_or(Vec3::Y);
            let side = axis.any_orthonormal_vector();
            let up = axis.cross(side);
            let radius = 0.12 * (1.0 - 0.5 * s / n as f32) * if limb == 0 { 1.6 } else { 1.0 };
            // The joints this ring follows: nearest first, weighted by a smooth falloff.
            // Eight influences spread the weight wide, so the second set carries a good share.
            let (width, power) = if spec.influences > 4 {
                (6.0, 1)
            } else {
                (1.6, 2)
            };
            let falloff = |d: f32| (1.0 - d / width).max(0.0).powi(power);
            let mut near: Vec<(usize, f32)> = (0..n)
                .map(|j| {
                    let d = (s - (j as f32 + 0.5)).abs();
                    (chain[j], falloff(d) + 1e-3 * f32::from(u8::from(j == seg)))
                })
                .collect();
            if let Some(p) = joints[chain[0]].parent {
                near.push((p, falloff(s + 0.5)));
            }
            near.sort_by(|x, y| y.1.total_cmp(&x.1));
            near.truncate(spec.influences);
            let total: f32 = near.iter().map(|x| x.1).sum();
            for k in 0..rv {
                let angle = std::f32::consts::TAU * k as f32 / rv as f32;
                let normal = side * angle.cos() + up * angle.sin();
                let p = centre + normal * radius;
                pos.extend(p.to_array());
                nor.extend(normal.to_array());
                uv.extend([k as f32 / rv as f32 * 2.0, s / n as f32 * 4.0]);
                col.extend([
                    0.25 + 0.75 * (k as f32 / rv as f32),
                    0.8,
                    0.25 + 0.75 * frac,
                    1.0,
                ]);
                bulge.extend((normal * radius * 0.8).to_array());
                for slot in 0..8 {
                    let (j, w) = near.get(slot).copied().unwrap_or((0, 0.0));
                    jw.push(j as f32);
                    ww.push(w / total);
                }
            }
        }
        for r in 0..rings - 1 {
            for k in 0..rv {
                let a = (base + r * rv + k) as f32;
                let b = (base + r * rv + (k + 1) % rv) as f32;
                let c = a + rv as f32;
                let d = b + rv as f32;
                indices.extend([a, b, d, a, d, c]);
            }
        }
    }
    let count = pos.len() / 3;
    let set = |v: &[f32], s: usize| -> Vec<f32> {
        v.chunks_exact(8)
            .flat_map(|c| c[s * 4..s * 4 + 4].to_vec())
            .collect()
    };
    let joint_type = if joints.len() > 255 { 5123 } else { 5121 };
    let mut attributes = json!({
        "POSITION": bin.add("VEC3", 5126, false, &pos, true),
        "NORMAL": bin.add("VEC3", 5126, false, &nor, false),
        "JOINTS_0": bin.add("VEC4", joint_type, false, &set(&jw, 0), false),
        "WEIGHTS_0": bin.add("VEC4", 5126, false, &set(&ww, 0), false),
    });
    if spec.influences > 4 {
        attributes["JOINTS_1"] = json!(bin.add("VEC4", joint_type, false, &set(&jw, 1), false));
        attributes["WEIGHTS_1"] = json!(bin.add("VEC4", 5126, false, &set(&ww, 1), false));
    }
    if spec.texture {
        attributes["TEXCOORD_0"] = json!(bin.add("VEC2", 5126, false, &uv, false));
    }
    if spec.colours {
        attributes["COLOR_0"] = json!(bin.add("VEC4", 5121, true, &col, false));
    }
    let index_type = if count > 65535 { 5125 } else { 5123 };
    let mut prim = json!({
        "attributes": attributes,
        "indices": bin.add("SCALAR", index_type, false, &indices, false),
        "material": material,
    });
    if spec.morphs {
        let shift: Vec<f32> = (0..count).flat_map(|_| [0.15, 0.0, 0.0]).collect();
        prim["targets"] = json!([
            {"POSITION": bin.add("VEC3", 5126, false, &bulge, true)},
            {"POSITION": bin.add("VEC3", 5126, false, &shift, true)},
        ]);
    }
    prim
}

/// Re-indexes `mesh`'s `JOINTS_0` (absolute joint indices) into `skin_joints`' positions.
fn remap_joints(mesh: &mut Value, skin_joints: &[usize], bin: &mut Bin) {
    for prim in mesh["primitives"].as_array_mut().into_iter().flatten() {
        for (jkey, wkey) in [("JOINTS_0", "WEIGHTS_0"), ("JOINTS_1", "WEIGHTS_1")] {
            let Some(a) = prim["attributes"][jkey].as_u64() else {
                continue;
            };
            let w = prim["attributes"][wkey].as_u64().unwrap() as usize;
            let joints = read_accessor(bin, a as usize);
            let weights = read_accessor(bin, w);
            let remapped: Vec<f32> = joints
                .iter()
                .zip(&weights)
                .map(|(&j, &wt)| {
                    let at = skin_joints.iter().position(|&s| s == j as usize);
                    match (at, wt > 0.0) {
                        (Some(i), _) => i as f32,
                        (None, _) => 0.0,
                    }
                })
                .collect();
            // Influences on joints outside the tail's skin (the spine) go to its first joint.
            prim["attributes"][jkey] = json!(bin.add("VEC4", 5121, false, &remapped, false));
        }
    }
}

/// The numbers of accessor `a` as written by [`Bin::add`] (u8 or u16 unnormalized, or f32).
fn read_accessor(bin: &Bin, a: usize) -> Vec<f32> {
    let acc = &bin.accessors[a];
    let view = &bin.views[acc["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    let bytes = &bin.bytes[start..start + len];
    match acc["componentType"].as_u64().unwrap() {
        5126 => bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        5123 => bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as f32)
            .collect(),
        _ => bytes.iter().map(|&b| b as f32).collect(),
    }
}

/// A small unskinned box.
fn prop(bin: &mut Bin) -> Value {
    let mut pos = vec![];
    for z in [-1.0f32, 1.0] {
        for y in [-1.0f32, 1.0] {
            for x in [-1.0f32, 1.0] {
                pos.extend([x * 0.12, y * 0.12, z * 0.12]);
            }
        }
    }
    let idx: Vec<f32> = [
        0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6,
        1, 3, 5, 3, 7, 5,
    ]
    .iter()
    .map(|&i| i as f32)
    .collect();
    json!({"name": "prop", "primitives": [{
        "attributes": {"POSITION": bin.add("VEC3", 5126, false, &pos, true)},
        "indices": bin.add("SCALAR", 5123, false, &idx, false),
        "material": 0
    }]})
}

/// The take: every joint turning about its own axis, the hip bobbing and walking `travel`
/// along +z, the morph weights pulsing.
fn animation(
    spec: &Spec,
    joints: &[Joint],
    first_joint: usize,
    body: usize,
    bin: &mut Bin,
    rng: &mut Rng,
) -> Value {
    let keys = spec.keys.max(2);
    let times: Vec<f32> = (0..keys)
        .map(|k| spec.seconds * k as f32 / (keys - 1) as f32)
        .collect();
    let input = bin.add("SCALAR", 5126, false, &times, true);
    let mut samplers = vec![];
    let mut channels = vec![];
    for (i, j) in joints.iter().enumerate() {
        let axis = Vec3::new(
            rng.unit_f32() - 0.5,
            rng.unit_f32() - 0.5,
            rng.unit_f32() - 0.5,
        )
        .normalize_or(Vec3::X);
        let amplitude = 0.3 + 0.6 * rng.unit_f32();
        let phase = rng.unit_f32() * std::f32::consts::TAU;
        let values: Vec<f32> = times
            .iter()
            .flat_map(|&t| {
                let a = amplitude * (std::f32::consts::TAU * t / spec.seconds + phase).sin();
                (j.rotation * Quat::from_axis_angle(axis, a)).to_array()
            })
            .collect();
        samplers
            .push(json!({"input": input, "output": bin.add("VEC4", 5126, false, &values, false)}));
        channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": i + first_joint, "path": "rotation"}}));
        if j.parent.is_none() {
            let values: Vec<f32> = times
                .iter()
                .flat_map(|&t| {
                    let bob = 0.05 * (std::f32::consts::TAU * 2.0 * t / spec.seconds).sin();
                    (j.translation + Vec3::new(0.0, bob, spec.travel * t / spec.seconds)).to_array()
                })
                .collect();
            samplers.push(
                json!({"input": input, "output": bin.add("VEC3", 5126, false, &values, false)}),
            );
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": i + first_joint, "path": "translation"}}));
        }
    }
    if spec.morphs {
        let values: Vec<f32> = times
            .iter()
            .flat_map(|&t| {
                let u = t / spec.seconds;
                [(std::f32::consts::PI * u).sin(), u]
            })
            .collect();
        samplers.push(
            json!({"input": input, "output": bin.add("SCALAR", 5126, false, &values, false)}),
        );
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": body, "path": "weights"}}),
        );
    }
    json!({"name": "take", "samplers": samplers, "channels": channels})
}
