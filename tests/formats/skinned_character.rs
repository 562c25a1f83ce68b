//! A generated skinned character, built like a Khronos sample (a glTF with its buffer in a data
//! URI): a cylinder several units tall skinned to a chain of joints, each vertex blended
//! between the two joints nearest it, with a static end bone above the top joint, a morph
//! target ("Bulge") whose weight is animated, and a take turning every joint with smooth
//! random motion plus a little mocap-like jitter. Nothing of clipscope builds it: the file is
//! written as JSON here and read by three.js and clipscope alike.

use base64::Engine;
use glam::{EulerRot, Mat4, Quat, Vec3};
use serde_json::{Value, json};

use crate::test_support::Rng;

/// How a character is made.
#[derive(Debug, Clone, Copy)]
pub struct Character {
    /// The cylinder's height (units).
    pub height: f32,
    /// The cylinder's radius (units).
    pub radius: f32,
    /// The number of joints in the chain (the end bone not counted).
    pub joints: usize,
    /// The take's length (seconds, 30 fps).
    pub seconds: f32,
    /// How far the joints turn (radians, largest amplitude).
    pub swing: f32,
    /// The armature's scale: the joints' offsets are in units of it (0.01: a Mixamo-like
    /// export with its bones in centimetres under a scaled armature).
    pub scale: f32,
    /// The random seed of the motion.
    pub seed: u64,
}

impl Default for Character {
    fn default() -> Character {
        Character {
            height: 6.0,
            radius: 0.6,
            joints: 3,
            seconds: 4.0,
            swing: 0.6,
            scale: 1.0,
            seed: 7,
        }
    }
}

/// The rings and segments of the cylinder.
const RINGS: usize = 24;
const SEGMENTS: usize = 16;

/// The binary buffer and the accessors written into it.
#[derive(Default)]
struct Buffer {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Buffer {
    /// Appends `data` (little-endian, 4-byte aligned) as an accessor of `count` `kind`
    /// elements of `component` type; returns its index.
    fn push(
        &mut self,
        data: &[u8],
        component: u32,
        kind: &str,
        count: usize,
        extra: Value,
    ) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        self.views.push(json!({
            "buffer": 0,
            "byteOffset": self.bytes.len(),
            "byteLength": data.len(),
        }));
        self.bytes.extend_from_slice(data);
        let mut accessor = json!({
            "bufferView": self.views.len() - 1,
            "componentType": component,
            "count": count,
            "type": kind,
        });
        if let (Some(a), Some(e)) = (accessor.as_object_mut(), extra.as_object()) {
            a.extend(e.clone());
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// Appends f32 elements of `width` numbers each.
    fn floats(&mut self, values: &[f32], width: usize, kind: &str, bounds: bool) -> usize {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let extra = if bounds {
            let (mut min, mut max) = (vec![f32::INFINITY; width], vec![f32::NEG_INFINITY; width]);
            for chunk in values.chunks(width) {
                for (k, &v) in chunk.iter().enumerate() {
                    min[k] = min[k].min(v);
                    max[k] = max[k].max(v);
                }
            }
            json!({"min": min, "max": max})
        } else {
            json!({})
        };
        self.push(&bytes, 5126, kind, values.len() / width, extra)
    }
}

/// A smooth random motion: a sum of three sines with random frequencies and phases.
struct Wave([(f32, f32, f32); 3]);

impl Wave {
    fn new(rng: &mut Rng, amplitude: f32) -> Wave {
        Wave(std::array::from_fn(|k| {
            let a = amplitude * (0.3 + 0.7 * rng.unit_f32()) / (k + 1) as f32;
            let f = 0.2 + 1.3 * rng.unit_f32() * (k + 1) as f32;
            let p = std::f32::consts::TAU * rng.unit_f32();
            (a, f, p)
        }))
    }

    fn at(&self, t: f32) -> f32 {
        self.0
            .iter()
            .map(|(a, f, p)| a * (std::f32::consts::TAU * f * t + p).sin())
            .sum()
    }
}

/// The character's glTF (JSON with its buffer in a data URI).
pub fn gltf(c: &Character) -> Value {
    let mut rng = Rng::new(c.seed);
    let segment = c.height / c.joints as f32;
    // The cylinder: rings of vertices from y = 0 to the height.
    let (mut positions, mut joints, mut weights, mut bulge) = (vec![], vec![], vec![], vec![]);
    for ring in 0..=RINGS {
        let y = c.height * ring as f32 / RINGS as f32;
        // Joint k is centred on its segment's middle and fades out over one segment.
        let mut w: Vec<(usize, f32)> = (0..c.joints)
            .map(|k| {
                let centre = (k as f32 + 0.5) * segment;
                (k, (1.0 - (y - centre).abs() / segment).max(0.0))
            })
            .filter(|&(_, w)| w > 0.0)
            .collect();
        w.sort_by(|a, b| b.1.total_cmp(&a.1));
        w.truncate(2);
        let total: f32 = w.iter().map(|x| x.1).sum();
        let swell = (std::f32::consts::PI * y / c.height).sin();
        for s in 0..SEGMENTS {
            let a = std::f32::consts::TAU * s as f32 / SEGMENTS as f32;
            let (x, z) = (c.radius * a.cos(), c.radius * a.sin());
            positions.extend([x, y, z]);
            bulge.extend([0.5 * swell * a.cos(), 0.0, 0.5 * swell * a.sin()]);
            let mut j = [0u8; 4];
            let mut v = [0f32; 4];
            for (slot, &(k, wk)) in w.iter().enumerate() {
                j[slot] = k as u8;
                v[slot] = wk / total;
            }
            joints.extend(j);
            weights.extend(v);
        }
    }
    let mut indices: Vec<u16> = Vec::new();
    for ring in 0..RINGS {
        for s in 0..SEGMENTS {
            let a = (ring * SEGMENTS + s) as u16;
            let b = (ring * SEGMENTS + (s + 1) % SEGMENTS) as u16;
            let (c2, d) = (a + SEGMENTS as u16, b + SEGMENTS as u16);
            indices.extend([a, c2, b, b, c2, d]);
        }
    }
    let vertices = positions.len() / 3;
    let mut buffer = Buffer::default();
    let position = buffer.floats(&positions, 3, "VEC3", true);
    let joint_accessor = buffer.push(&joints, 5121, "VEC4", vertices, json!({}));
    let weight_accessor = buffer.floats(&weights, 4, "VEC4", false);
    let bulge_accessor = buffer.floats(&bulge, 3, "VEC3", true);
    let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let index_accessor = buffer.push(&index_bytes, 5123, "SCALAR", indices.len(), json!({}));
    // Joints: a chain up the cylinder, each `segment` above its parent, the first at y = 0
    // (in the armature's units).
    let local = segment / c.scale;
    let ibms: Vec<f32> = (0..c.joints)
        .flat_map(|k| {
            let world = Mat4::from_scale(Vec3::splat(c.scale))
                * Mat4::from_translation(Vec3::new(0.0, local * k as f32, 0.0));
            world.inverse().to_cols_array()
        })
        .collect();
    let ibm_accessor = buffer.floats(&ibms, 16, "MAT4", false);

    // The take.
    let frames = (c.seconds * 30.0).round() as usize + 1;
    let times: Vec<f32> = (0..frames).map(|f| f as f32 / 30.0).collect();
    let input = buffer.floats(&times, 1, "SCALAR", true);
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    let mut channel = |buffer: &mut Buffer, node: usize, path: &str, values: &[f32], width| {
        let kind = if width == 1 { "SCALAR" } else { "VEC4" };
        let kind = if width == 3 { "VEC3" } else { kind };
        let output = buffer.floats(values, width, kind, false);
        samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        channels
            .push(json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": path}}));
    };
    // Node 0: the mesh; 1: the armature; 2..: the joints; then the end bone.
    let joint_node = |k: usize| 2 + k;
    for k in 0..c.joints {
        let waves: [Wave; 3] = std::array::from_fn(|_| Wave::new(&mut rng, c.swing));
        let mut values = Vec::with_capacity(frames * 4);
        for &t in &times {
            let jitter = || 0.004 * ((t * 97.0 + k as f32).sin() * (t * 61.3).cos());
            let q = Quat::from_euler(
                EulerRot::XYZ,
                waves[0].at(t) + jitter(),
                0.5 * waves[1].at(t),
                waves[2].at(t) - jitter(),
            );
            values.extend(q.to_array());
        }
        channel(&mut buffer, joint_node(k), "rotation", &values, 4);
    }
    let drift: [Wave; 2] = std::array::from_fn(|_| Wave::new(&mut rng, 0.5 * local));
    let root: Vec<f32> = times
        .iter()
        .flat_map(|&t| [drift[0].at(t), 0.2 * drift[1].at(t).abs(), drift[1].at(t)])
        .collect();
    channel(&mut buffer, joint_node(0), "translation", &root, 3);
    let weight: Vec<f32> = times.iter().map(|&t| 0.5 + 0.5 * (1.7 * t).sin()).collect();
    channel(&mut buffer, 0, "weights", &weight, 1);

    let end = joint_node(c.joints);
    let mut nodes = vec![
        json!({"name": "Body", "mesh": 0, "skin": 0}),
        json!({"name": "Armature", "children": [joint_node(0)], "scale": [c.scale, c.scale, c.scale]}),
    ];
    for k in 0..c.joints {
        let child = if k + 1 < c.joints {
            joint_node(k + 1)
        } else {
            end
        };
        let y = if k == 0 { 0.0 } else { local };
        nodes.push(json!({
            "name": format!("Joint{k}"),
            "translation": [0.0, y, 0.0],
            "children": [child],
        }));
    }
    nodes.push(json!({"name": "Top_End", "translation": [0.0, local, 0.0]}));
    let data = base64::engine::general_purpose::STANDARD.encode(&buffer.bytes);
    json!({
        "asset": {"version": "2.0", "generator": "clipscope tests: skinned_character.rs"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": nodes,
        "meshes": [{
            "name": "Cylinder",
            "primitives": [{
                "attributes": {"POSITION": position, "JOINTS_0": joint_accessor, "WEIGHTS_0": weight_accessor},
                "indices": index_accessor,
                "targets": [{"POSITION": bulge_accessor}],
            }],
            "weights": [0.0],
            "extras": {"targetNames": ["Bulge"]},
        }],
        "skins": [{
            "joints": (0..c.joints).map(joint_node).collect::<Vec<_>>(),
            "inverseBindMatrices": ibm_accessor,
            "skeleton": joint_node(0),
        }],
        "animations": [{"name": "Sway", "samplers": samplers, "channels": channels}],
        "buffers": [{
            "byteLength": buffer.bytes.len(),
            "uri": format!("data:application/octet-stream;base64,{data}"),
        }],
        "bufferViews": buffer.views,
        "accessors": buffer.accessors,
    })
}
