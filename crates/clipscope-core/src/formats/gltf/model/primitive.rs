//! One glTF mesh primitive as a model [`Primitive`]: its attributes decoded and checked
//! (types and counts), its triangles (lists, strips and fans split like three.js's
//! `toTrianglesDrawMode`), its skin influences normalized and its morph target offsets.

use gltf_json::mesh::{Mode, Semantic};
use gltf_json::validation::Checked;
use serde_json::Value;

use crate::formats::gltf::accessor::{Decoded, decode};
use crate::formats::gltf::schema::GltfJson;
use crate::formats::json::Located;
use crate::model::{MAX_INFLUENCES, MorphDelta, Primitive, normalize_weights};

/// Mesh compression extensions whose primitives hold no plain accessor data.
const COMPRESSION: [&str; 2] = ["KHR_draco_mesh_compression", "EXT_meshopt_compression"];

/// Primitive `p` of mesh `m` (`raw` as written, for its extensions) with `targets` morph
/// targets; `Ok(None)` for a primitive without triangles to draw (no vertices).
pub(super) fn primitive(
    json: &GltfJson,
    buffers: &[Vec<u8>],
    (m, p): (usize, usize),
    prim: &gltf_json::mesh::Primitive,
    raw: Option<&Value>,
    targets: usize,
) -> Result<Option<Primitive>, Located> {
    let path = format!("meshes[{m}].primitives[{p}]");
    if let Some(ext) = raw
        .and_then(|r| r.get("extensions"))
        .and_then(Value::as_object)
        .and_then(|e| COMPRESSION.iter().find(|name| e.contains_key(**name)))
    {
        return Err(Located::unsupported(
            format!("{path}.extensions.{ext}"),
            "the primitive is compressed, which clipscope does not decode",
        ));
    }
    let mode = match prim.mode {
        Checked::Valid(mode) => mode,
        Checked::Invalid => return Err(Located::new(format!("{path}.mode"), "unknown mode")),
    };
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        return Err(Located::unsupported(
            format!("{path}.mode"),
            "points and lines are not drawn",
        ));
    }
    let attr = |semantic: Semantic| {
        prim.attributes
            .get(&Checked::Valid(semantic))
            .map(|a| a.value() as u32)
    };
    let reader = Reader {
        json,
        buffers,
        path: &path,
    };
    let Some(position) = attr(Semantic::Positions) else {
        return Err(Located::new(
            format!("{path}.attributes"),
            "the primitive has no POSITION",
        ));
    };
    let positions = reader.vectors::<3>(position, "POSITION", None)?;
    let count = positions.len();
    if count == 0 {
        return Ok(None);
    }
    let mut out = Primitive {
        positions,
        material: prim.material.map(|m| m.value()),
        ..Primitive::default()
    };
    if let Some(a) = attr(Semantic::Normals) {
        out.normals = reader.vectors::<3>(a, "NORMAL", Some(count))?;
    }
    if let Some(a) = attr(Semantic::Colors(0)) {
        out.colours = reader.colours(a, count)?;
    }
    for set in 0..8 {
        if let Some(a) = attr(Semantic::TexCoords(set)) {
            let uvs = reader.vectors::<2>(a, &format!("TEXCOORD_{set}"), Some(count))?;
            out.uvs.resize(set as usize, Vec::new());
            out.uvs.push(uvs);
        }
    }
    reader.influences(
        &mut out,
        [0, 1].map(|s| (attr(Semantic::Joints(s)), attr(Semantic::Weights(s)))),
    )?;
    let indices = match prim.indices {
        Some(i) => reader.indices(i.value() as u32, count)?,
        None => (0..count as u32).collect(),
    };
    out.triangles = triangles(mode, &indices);
    let file_targets = prim.targets.as_deref().unwrap_or_default();
    for j in 0..targets {
        let mut delta = MorphDelta::default();
        if let Some(t) = file_targets.get(j) {
            let tpath = format!("targets[{j}].");
            if let Some(a) = t.positions {
                let name = format!("{tpath}POSITION");
                delta.positions = reader.vectors::<3>(a.value() as u32, &name, Some(count))?;
            }
            if let Some(a) = t.normals {
                let name = format!("{tpath}NORMAL");
                delta.normals = reader.vectors::<3>(a.value() as u32, &name, Some(count))?;
            }
        }
        out.targets.push(delta);
    }
    Ok(Some(out))
}

/// Triangles from the vertex order `indices` of a primitive drawn in `mode`.
fn triangles(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => (0..indices.len().saturating_sub(2))
            .map(|i| {
                let (a, b, c) = (indices[i], indices[i + 1], indices[i + 2]);
                if i % 2 == 0 { [a, b, c] } else { [c, b, a] }
            })
            .collect(),
        Mode::TriangleFan => (1..indices.len().saturating_sub(1))
            .map(|i| [indices[0], indices[i], indices[i + 1]])
            .collect(),
        _ => indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
    }
}

/// Decodes a primitive's accessors, naming the attribute in errors.
struct Reader<'a> {
    json: &'a GltfJson,
    buffers: &'a [Vec<u8>],
    /// The primitive's JSON path.
    path: &'a str,
}

impl Reader<'_> {
    /// Accessor `index` of attribute `name`, decoded and checked to hold `count` elements (when
    /// given) of one of the component counts `allowed`.
    fn decode(
        &self,
        index: u32,
        name: &str,
        count: Option<usize>,
        allowed: &[usize],
    ) -> Result<Decoded, Located> {
        let referrer = format!("{}.attributes.{name}", self.path);
        let d = decode(self.json, self.buffers, index, &referrer)?;
        if !allowed.contains(&d.components) {
            return Err(Located::new(
                format!("accessors[{index}].type"),
                format!("{name} cannot be {}", d.type_name),
            ));
        }
        if let Some(count) = count
            && d.count != count
        {
            return Err(Located::new(
                format!("accessors[{index}].count"),
                format!("{name} has {} elements for {count} vertices", d.count),
            ));
        }
        Ok(d)
    }

    /// A vector attribute of `N` components.
    fn vectors<const N: usize>(
        &self,
        index: u32,
        name: &str,
        count: Option<usize>,
    ) -> Result<Vec<[f32; N]>, Located> {
        let d = self.decode(index, name, count, &[N])?;
        Ok(d.values
            .chunks_exact(N)
            .map(|c| std::array::from_fn(|k| c[k]))
            .collect())
    }

    /// `COLOR_0` (RGB or RGBA) as RGBA.
    fn colours(&self, index: u32, count: usize) -> Result<Vec<[f32; 4]>, Located> {
        let d = self.decode(index, "COLOR_0", Some(count), &[3, 4])?;
        Ok(d.values
            .chunks_exact(d.components)
            .map(|c| [c[0], c[1], c[2], c.get(3).copied().unwrap_or(1.0)])
            .collect())
    }

    /// `JOINTS_n` / `WEIGHTS_n` for sets 0 and 1 into `out` (a set missing either half is not
    /// used), weights normalized over all eight.
    fn influences(
        &self,
        out: &mut Primitive,
        sets: [(Option<u32>, Option<u32>); 2],
    ) -> Result<(), Located> {
        let count = out.positions.len();
        for (set, pair) in sets.into_iter().enumerate() {
            let (Some(j), Some(w)) = pair else {
                if set == 0 {
                    return Ok(());
                }
                continue;
            };
            let joints = self.decode(j, &format!("JOINTS_{set}"), Some(count), &[4])?;
            let weights = self.decode(w, &format!("WEIGHTS_{set}"), Some(count), &[4])?;
            if set == 0 {
                out.joints = vec![[0; MAX_INFLUENCES]; count];
                out.weights = vec![[0.0; MAX_INFLUENCES]; count];
            }
            for (v, (js, ws)) in joints
                .values
                .chunks_exact(4)
                .zip(weights.values.chunks_exact(4))
                .enumerate()
            {
                for k in 0..4 {
                    let joint = js[k];
                    if !(0.0..=f32::from(u16::MAX)).contains(&joint) || joint.fract() != 0.0 {
                        return Err(Located::new(
                            format!("accessors[{j}]"),
                            format!("JOINTS_{set} of vertex {v} is {joint}, not a joint index"),
                        ));
                    }
                    out.joints[v][set * 4 + k] = joint as u16;
                    out.weights[v][set * 4 + k] = if ws[k].is_finite() { ws[k] } else { 0.0 };
                }
            }
        }
        for w in &mut out.weights {
            normalize_weights(w);
        }
        Ok(())
    }

    /// The index accessor, every index checked against the `count` vertices.
    fn indices(&self, index: u32, count: usize) -> Result<Vec<u32>, Located> {
        let referrer = format!("{}.indices", self.path);
        let d = decode(self.json, self.buffers, index, &referrer)?;
        if d.components != 1 {
            return Err(Located::new(
                format!("accessors[{index}].type"),
                format!("indices must be SCALAR, not {}", d.type_name),
            ));
        }
        d.values
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                if x >= 0.0 && (x as usize) < count && x.fract() == 0.0 {
                    Ok(x as u32)
                } else {
                    Err(Located::new(
                        format!("accessors[{index}]"),
                        format!("index {k} ({x}) is not one of the primitive's {count} vertices"),
                    ))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_split_like_three_js() {
        assert_eq!(
            triangles(Mode::TriangleStrip, &[0, 1, 2, 3]),
            [[0, 1, 2], [3, 2, 1]]
        );
        assert_eq!(
            triangles(Mode::TriangleFan, &[0, 1, 2, 3]),
            [[0, 1, 2], [0, 2, 3]]
        );
        assert_eq!(triangles(Mode::Triangles, &[0, 1, 2, 3]), [[0, 1, 2]]);
    }
}
