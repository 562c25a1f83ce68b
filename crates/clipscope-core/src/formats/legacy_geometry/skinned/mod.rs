//! The skinned model of a legacy three.js file (`bones`, `skinIndices`, `skinWeights`,
//! `influencesPerVertex`), built the way the old `JSONLoader` and `SkinnedMesh` did:
//!
//! * every face corner becomes its own vertex (three.js turned the `Geometry` into a
//!   non-indexed `BufferGeometry`), with the corner's normal (face-vertex normals, else the face
//!   normal, else the triangle's own: flat), colour and first-layer UV, and the skin influences
//!   of its vertex; quads `a b c d` split into `(a, b, d)` and `(b, c, d)`;
//! * `influencesPerVertex` numbers per vertex (2 when absent; at most the first 4 are used, as
//!   the loader did), weights normalized like `normalizeSkinWeights`;
//! * faces are grouped by material index into one primitive per material; a material's
//!   `colorDiffuse` (and `opacity` when `transparent`) is its base colour;
//! * the bones hang from the mesh's node (a root bone is a child of the `SkinnedMesh`), and
//!   each bone's inverse bind matrix is the inverse of its rest world matrix
//!   (`Skeleton.calculateInverses` right after `initBones`).

use std::collections::BTreeMap;

use glam::Vec3;

use super::mesh::{Face, faces, hex_colour, positions, scale_factor, uv_layers};
use super::{ModelJson, Numbers as _};
use crate::formats::json::path::field;
use crate::formats::json::{Located, Node};
use crate::model::{
    AlphaMode, MAX_INFLUENCES, Material, Mesh, Model, ModelNode, Primitive, Skeleton, Skin,
    normalize_weights,
};

/// The most influences per vertex the loader read.
const LOADER_INFLUENCES: usize = 4;

/// The skinned model of a file with `skinIndices`, `skinWeights`, `faces` and bones
/// (`skeleton`); `None` for other files. The mesh's node is called `name`.
pub(crate) fn read_skinned(
    model: &ModelJson,
    skeleton: Option<&Skeleton>,
    name: &str,
) -> Result<Option<Model>, Located> {
    let (Some(skeleton), Some(indices), Some(weights), Some(vertices), Some(faces_node)) = (
        skeleton.filter(|s| !s.bones.is_empty()),
        &model.skin_indices,
        &model.skin_weights,
        &model.vertices,
        &model.faces,
    ) else {
        return Ok(None);
    };
    let mut out = nodes(skeleton, name);
    let vertices = positions(vertices, scale_factor(model)?, None)?;
    let influences = influences(
        model,
        indices,
        weights,
        vertices.len(),
        skeleton.bones.len(),
    )?;
    let layers = uv_layers(model)?;
    let colors = match &model.colors {
        None => Vec::new(),
        Some(c) => c.numbers()?,
    };
    let faces = faces(faces_node, vertices.len(), layers.len(), &colors)?;
    let attributes = Attributes {
        normals: flat_triples(model.normals.as_ref())?,
        uvs: match layers.first() {
            Some(layer) => layer.f32s()?,
            None => Vec::new(),
        },
        colors,
    };
    // A face without a material index draws with material 0 (`Face3.materialIndex`).
    let mut groups: BTreeMap<u32, Primitive> = BTreeMap::new();
    for face in &faces {
        let group = groups.entry(face.material.unwrap_or(0)).or_default();
        add_face(group, face, &vertices, &influences, &attributes);
    }
    let (materials, vertex_colours, notes) = materials(model.materials.as_ref())?;
    out.notes = notes;
    let mut mesh = Mesh {
        name: name.to_string(),
        ..Mesh::default()
    };
    for (material, mut primitive) in groups {
        primitive.material = Some(material as usize).filter(|&m| m < materials.len());
        // Colours count only where the material asks for them (`vertexColors`), as in three.js.
        if !primitive.material.is_some_and(|m| vertex_colours[m]) {
            primitive.colours.clear();
        }
        mesh.primitives.push(primitive);
    }
    out.materials = materials;
    out.meshes.push(mesh);
    Ok(Some(out))
}

/// The mesh's node (0, named `name`, made unique) and one node per bone hanging from it, and
/// the skin of all bones with inverse bind matrices from their rest pose.
fn nodes(skeleton: &Skeleton, name: &str) -> Model {
    let mut mesh_name = if name.is_empty() { "mesh" } else { name }.to_string();
    while skeleton.bones.iter().any(|b| b.name == mesh_name) {
        mesh_name.push('_');
    }
    let mut model = Model::default();
    let mut root = ModelNode::new(mesh_name, None);
    root.mesh = Some(0);
    root.skin = Some(0);
    model.nodes.push(root);
    let n = skeleton.bones.len();
    for bone in &skeleton.bones {
        let parent = bone.parent.filter(|&p| p < n).map(|p| p + 1).or(Some(0));
        let mut node = ModelNode::new(bone.name.clone(), parent);
        node.translation = bone.position;
        node.rotation = bone.rotation;
        node.scale = bone.scale;
        model.nodes.push(node);
    }
    // A parent chain that loops (which the reader's skeleton never has) hangs from the mesh.
    for i in 1..=n {
        let mut at = model.nodes[i].parent;
        let mut steps = 0;
        while let Some(p) = at {
            steps += 1;
            if p == i || steps > n + 1 {
                model.nodes[i].parent = Some(0);
                break;
            }
            at = model.nodes[p].parent;
        }
    }
    let world = model.rest_world();
    model.skins.push(Skin {
        name: String::new(),
        joints: (1..=n).collect(),
        inverse_bind_matrices: (1..=n).map(|i| world[i].inverse()).collect(),
        skeleton: None,
    });
    model
}

/// One vertex's bone indices and normalized weights.
type Influence = ([u16; MAX_INFLUENCES], [f32; MAX_INFLUENCES]);

/// Each vertex's bone indices and normalized weights.
fn influences(
    model: &ModelJson,
    indices: &Node,
    weights: &Node,
    vertices: usize,
    bones: usize,
) -> Result<Vec<Influence>, Located> {
    let per = match &model.influences_per_vertex {
        None => 2,
        Some(node) => {
            let v = node.f64()?;
            if !(v >= 1.0 && v.fract() == 0.0 && v <= 64.0) {
                return Err(Located::new(
                    &node.path,
                    format!("{v} is not a number of influences per vertex"),
                ));
            }
            v as usize
        }
    };
    let i = indices.numbers()?;
    let w = weights.numbers()?;
    for (node, list) in [(indices, &i), (weights, &w)] {
        if list.len() < vertices * per {
            return Err(Located::new(
                &node.path,
                format!(
                    "{} numbers for {vertices} vertices; expected {} ({per} per vertex)",
                    list.len(),
                    vertices * per
                ),
            ));
        }
    }
    let used = per.min(LOADER_INFLUENCES);
    let mut out = Vec::with_capacity(vertices);
    for v in 0..vertices {
        let mut joints = [0u16; MAX_INFLUENCES];
        let mut ws = [0.0f32; MAX_INFLUENCES];
        for k in 0..used {
            let at = v * per + k;
            let (bone, weight) = (i[at], w[at]);
            if weight == 0.0 {
                continue;
            }
            if !(bone >= 0.0 && bone.fract() == 0.0 && (bone as usize) < bones) {
                return Err(Located::new(
                    crate::formats::json::path::index(&indices.path, at),
                    format!("bone index {bone} is not one of the {bones} bones"),
                ));
            }
            joints[k] = bone as u16;
            ws[k] = weight as f32;
        }
        normalize_weights(&mut ws);
        out.push((joints, ws));
    }
    Ok(out)
}

/// The per-corner data faces index.
struct Attributes {
    /// `normals`, as triples.
    normals: Vec<[f32; 3]>,
    /// The first UV layer, flat `u, v` pairs.
    uvs: Vec<f32>,
    /// `colors`, `0xRRGGBB`.
    colors: Vec<f64>,
}

/// Appends `face`'s triangles to `group`, one new vertex per corner.
fn add_face(
    group: &mut Primitive,
    face: &Face,
    vertices: &[[f32; 3]],
    influences: &[Influence],
    attributes: &Attributes,
) {
    let c = &face.corners;
    let triangles: &[[usize; 3]] = if c.len() == 4 {
        &[[0, 1, 3], [1, 2, 3]]
    } else {
        &[[0, 1, 2]]
    };
    for tri in triangles {
        let p = tri.map(|k| vertices[c[k] as usize]);
        let flat = (Vec3::from(p[1]) - Vec3::from(p[0]))
            .cross(Vec3::from(p[2]) - Vec3::from(p[0]))
            .normalize_or_zero()
            .to_array();
        let base = group.positions.len() as u32;
        for &k in tri {
            let v = c[k] as usize;
            group.positions.push(vertices[v]);
            let normal = face
                .normals
                .as_ref()
                .and_then(|n| attributes.normals.get(n[k] as usize));
            group.normals.push(normal.copied().unwrap_or(flat));
            let uv = face.uvs.as_ref().and_then(|u| {
                let at = u[k] as usize * 2;
                attributes
                    .uvs
                    .get(at..at + 2)
                    .map(|uv| [uv[0], 1.0 - uv[1]])
            });
            group.uvs.resize(1, Vec::new());
            group.uvs[0].push(uv.unwrap_or([0.0, 0.0]));
            let colour = face
                .vertex_colours
                .as_ref()
                .and_then(|cs| attributes.colors.get(cs[k] as usize))
                .map(|&hex| hex_colour(hex))
                .or(face.colour);
            group
                .colours
                .push(colour.map_or([1.0; 4], |c| srgb_rgba(c, 1.0)));
            group.joints.push(influences[v].0);
            group.weights.push(influences[v].1);
        }
        group.triangles.push([base, base + 1, base + 2]);
    }
}

/// The legacy materials: `colorDiffuse` and `opacity`, whether each uses vertex colours
/// (`vertexColors` not `false`), and notes for the maps, which are not drawn.
type Materials = (Vec<Material>, Vec<bool>, Vec<String>);

/// The materials of `node` (see [`Materials`]).
fn materials(node: Option<&Node>) -> Result<Materials, Located> {
    let Some(node) = node else {
        return Ok((Vec::new(), Vec::new(), Vec::new()));
    };
    let mut out = Vec::new();
    let mut colours = Vec::new();
    let mut notes = Vec::new();
    for m in node.array("an array of materials")? {
        let obj = m.object()?;
        let mut material = Material {
            name: match obj.get("DbgName") {
                Some(n) => n.string().unwrap_or_default(),
                None => String::new(),
            },
            double_sided: true,
            ..Material::default()
        };
        if let Some(c) = obj.get_some("colorDiffuse") {
            let c = c.f32s()?;
            if c.len() >= 3 {
                let opacity = match (obj.get_some("transparent"), obj.get_some("opacity")) {
                    (Some(t), Some(o)) if t.raw.get() == "true" => o.f32()?,
                    _ => 1.0,
                };
                material.base_colour = srgb_rgba([c[0], c[1], c[2]], opacity);
                if opacity < 1.0 {
                    material.alpha_mode = AlphaMode::Blend;
                }
            }
        }
        for map in ["mapDiffuse", "mapColor"] {
            if obj.get_some(map).is_some() {
                notes.push(format!(
                    "{}: textures of legacy models are not drawn",
                    field(&m.path, map)
                ));
            }
        }
        out.push(material);
        colours.push(
            obj.get_some("vertexColors")
                .is_some_and(|v| !matches!(v.raw.get(), "false" | "0" | "\"\"")),
        );
    }
    Ok((out, colours, notes))
}

/// An sRGB colour (components 0–1) as linear RGBA with `alpha`.
fn srgb_rgba(c: [f32; 3], alpha: f32) -> [f32; 4] {
    let lin = |c: f32| {
        let c = c.clamp(0.0, 1.0);
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [lin(c[0]), lin(c[1]), lin(c[2]), alpha]
}

/// A flat `x, y, z` array as triples (empty when absent).
fn flat_triples(node: Option<&Node>) -> Result<Vec<[f32; 3]>, Located> {
    let Some(node) = node else {
        return Ok(Vec::new());
    };
    Ok(node
        .f32s()?
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect())
}

#[cfg(test)]
mod tests;
