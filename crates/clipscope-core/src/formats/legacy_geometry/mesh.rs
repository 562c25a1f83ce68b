//! The mesh of a legacy morph-target model (horse, flamingo, parrot, stork): `vertices`, the
//! bit-encoded `faces`, `morphTargets` and `morphColors`, read like three.js's JSONLoader.
//!
//! * Vertices (base and targets) are multiplied by `1 / scale` (`json.scale = 1.0 / json.scale`
//!   in the loader), in `f64`, then rounded to `f32` like the `Float32Array` they end up in.
//! * Each face is a type number followed by its data. Type bits: 0 quad, 1 material index,
//!   2 face UV (one index per UV layer), 3 face-vertex UVs (one per corner per layer), 4 face
//!   normal, 5 face-vertex normals (one per corner), 6 face colour (an index into `colors`),
//!   7 face-vertex colours (one per corner). Only UV layers with entries count (the loader
//!   "disregards empty arrays"). Quads `a b c d` become triangles `(a, b, d)` and `(b, c, d)`.
//! * Triangle colours come from `morphColors[0].colors`, one RGB triple per face of the file
//!   (the old horse example coloured faces with it), else from face colours (`0xRRGGBB`, faces
//!   without one are white), else there are none.

use super::{ModelJson, Numbers as _};
use crate::formats::json::path::{field, index};
use crate::formats::json::{Located, Node};
use crate::model::{MorphMesh, MorphTarget};

/// The number of index entries a face of type `ty` with `uv_layers` UV layers holds after its
/// type, and its corner count.
fn face_len(ty: u32, uv_layers: usize) -> (usize, usize) {
    let bit = |b: u32| usize::from(ty & (1 << b) != 0);
    let corners = 3 + bit(0);
    let len = corners
        + bit(1)
        + bit(2) * uv_layers
        + bit(3) * uv_layers * corners
        + bit(4)
        + bit(5) * corners
        + bit(6)
        + bit(7) * corners;
    (len, corners)
}

/// One face of the file: its corners, its face colour and the indices its other type bits
/// give (indices into `normals`, `uvs[0]` and `colors`, unchecked; a value that is no index is
/// left out).
pub(super) struct Face {
    /// Vertex indices (3, or 4 for a quad).
    pub corners: Vec<u32>,
    /// The face colour (type bit 6).
    pub colour: Option<[f32; 3]>,
    /// The material index (type bit 1).
    pub material: Option<u32>,
    /// One normal index per corner: the face-vertex normals (bit 5), else the face normal
    /// (bit 4) for every corner.
    pub normals: Option<Vec<u32>>,
    /// One UV index per corner in the first UV layer (bit 3).
    pub uvs: Option<Vec<u32>>,
    /// One colour index per corner (bit 7).
    pub vertex_colours: Option<Vec<u32>>,
}

/// The morph mesh of a model with a non-empty `morphTargets`; `None` for other files.
pub(crate) fn read_mesh(model: &ModelJson, name: &str) -> Result<Option<MorphMesh>, Located> {
    let Some(targets) = &model.morph_targets else {
        return Ok(None);
    };
    let targets = targets.array("an array of morph targets")?;
    if targets.is_empty() {
        return Ok(None);
    }
    let factor = scale_factor(model)?;
    let missing = |name: &str| {
        Located::new(
            name,
            format!("missing \"{name}\" (a model with morph targets needs its base mesh)"),
        )
    };
    let vertices = positions(
        model.vertices.as_ref().ok_or_else(|| missing("vertices"))?,
        factor,
        None,
    )?;
    let uv_layers = uv_layers(model)?.len();
    let colors = match &model.colors {
        None => Vec::new(),
        Some(c) => c.numbers()?,
    };
    let faces = faces(
        model.faces.as_ref().ok_or_else(|| missing("faces"))?,
        vertices.len(),
        uv_layers,
        &colors,
    )?;

    let mut mesh_targets = Vec::with_capacity(targets.len());
    for t in &targets {
        let obj = t.object()?;
        let name = match obj.get("name") {
            Some(n) => n.string()?,
            None => return Err(Located::new(&t.path, "morph target has no \"name\"")),
        };
        let v = obj
            .get("vertices")
            .ok_or_else(|| Located::new(field(&t.path, "vertices"), "missing \"vertices\""))?;
        mesh_targets.push(MorphTarget {
            name,
            vertices: positions(&v, factor, Some(vertices.len()))?,
        });
    }

    let mut triangles = Vec::with_capacity(faces.len() * 2);
    let mut per_face = Vec::with_capacity(faces.len() * 2);
    for (f, face) in faces.iter().enumerate() {
        let c = &face.corners;
        if let [a, b, cc, d] = c[..] {
            triangles.push([a, b, d]);
            triangles.push([b, cc, d]);
            per_face.extend([f, f]);
        } else {
            triangles.push([c[0], c[1], c[2]]);
            per_face.push(f);
        }
    }
    let face_colours = match morph_colours(model.morph_colors.as_ref(), faces.len())? {
        Some(colours) => colours,
        None if faces.iter().any(|f| f.colour.is_some()) => {
            faces.iter().map(|f| f.colour.unwrap_or([1.0; 3])).collect()
        }
        None => Vec::new(),
    };
    let triangle_colours = if face_colours.is_empty() {
        Vec::new()
    } else {
        per_face.iter().map(|&f| face_colours[f]).collect()
    };
    Ok(Some(MorphMesh {
        name: name.to_string(),
        vertices,
        triangles,
        triangle_colours,
        targets: mesh_targets,
    }))
}

/// The factor vertices are multiplied by: `1 / scale` (`json.scale = 1.0 / json.scale` in the
/// loader), 1 without a `scale`.
pub(super) fn scale_factor(model: &ModelJson) -> Result<f64, Located> {
    Ok(match &model.scale {
        None => 1.0,
        Some(s) => {
            let scale = s.f64()?;
            if scale == 0.0 {
                return Err(Located::new(&s.path, "scale must not be 0"));
            }
            1.0 / scale
        }
    })
}

/// The UV layers that count (the loader "disregards empty arrays").
pub(super) fn uv_layers<'de>(model: &ModelJson<'de>) -> Result<Vec<Node<'de>>, Located> {
    Ok(match &model.uvs {
        None => Vec::new(),
        Some(uvs) => uvs
            .array("an array of UV layers")?
            .into_iter()
            .filter(|layer| layer.len() > 0)
            .collect(),
    })
}

/// The flat `x, y, z` array at `node` as positions multiplied by `factor`; with `expected`, the
/// number of positions it must hold.
pub(super) fn positions(
    node: &Node,
    factor: f64,
    expected: Option<usize>,
) -> Result<Vec<[f32; 3]>, Located> {
    let v = nested_numbers(node)?;
    match expected {
        Some(n) if v.len() != n * 3 => {
            return Err(Located::new(
                &node.path,
                format!(
                    "{} numbers for {n} vertices; expected {} (3 per vertex)",
                    v.len(),
                    n * 3
                ),
            ));
        }
        None if v.len() % 3 != 0 => {
            return Err(Located::new(
                &node.path,
                format!(
                    "{} numbers is not a whole number of vertices (3 per vertex)",
                    v.len()
                ),
            ));
        }
        _ => {}
    }
    let mut out = Vec::with_capacity(v.len() / 3);
    for (i, xyz) in v.chunks_exact(3).enumerate() {
        let mut p = [0.0f32; 3];
        for k in 0..3 {
            p[k] = (xyz[k] * factor) as f32;
            if !p[k].is_finite() {
                return Err(Located::new(
                    index(&node.path, i * 3 + k),
                    format!(
                        "vertex coordinate {} is out of range for a 32-bit float",
                        xyz[k]
                    ),
                ));
            }
        }
        out.push(p);
    }
    Ok(out)
}

/// The numbers of a flat array, or of an array of `[x, y, z]` arrays (io_three's object format
/// 4.3 writes morph target vertices that way), flattened.
fn nested_numbers(node: &Node) -> Result<Vec<f64>, Located> {
    let nested = node.kind() == crate::formats::json::JsonKind::Array
        && node.raw.get().trim_start()[1..]
            .trim_start()
            .starts_with('[');
    if !nested {
        return node.numbers();
    }
    let mut out = Vec::new();
    for (i, p) in node
        .array("an array of [x, y, z] arrays")?
        .iter()
        .enumerate()
    {
        let xyz = p.numbers()?;
        if xyz.len() != 3 {
            return Err(Located::new(
                index(&node.path, i),
                format!("{} numbers; expected [x, y, z]", xyz.len()),
            ));
        }
        out.extend(xyz);
    }
    Ok(out)
}

/// `faces[i]` as a non-negative integer (an index or a type).
fn integer(faces: &[f64], i: usize, path: &str, what: &str) -> Result<u32, Located> {
    let v = faces[i];
    if v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64 {
        Ok(v as u32)
    } else {
        Err(Located::new(
            index(path, i),
            format!("{what} {v} is not a non-negative integer"),
        ))
    }
}

/// Decodes the `faces` array: corners checked against `vertex_count`, face colours looked up
/// in `colors`, everything else skipped.
pub(super) fn faces(
    node: &Node,
    vertex_count: usize,
    uv_layers: usize,
    colors: &[f64],
) -> Result<Vec<Face>, Located> {
    let f = node.numbers()?;
    let path = node.path.as_str();
    let mut out = Vec::new();
    let mut o = 0;
    while o < f.len() {
        let start = o;
        let ty = integer(&f, o, path, "face type")?;
        o += 1;
        let (len, corners) = face_len(ty, uv_layers);
        if o + len > f.len() {
            return Err(Located::new(
                index(path, start),
                format!(
                    "truncated face: type {ty} needs {len} more numbers, {} left",
                    f.len() - o
                ),
            ));
        }
        let mut face = Face {
            corners: Vec::with_capacity(corners),
            colour: None,
            material: None,
            normals: None,
            uvs: None,
            vertex_colours: None,
        };
        for k in 0..corners {
            let v = integer(&f, o + k, path, "vertex index")?;
            if v as usize >= vertex_count {
                return Err(Located::new(
                    index(path, o + k),
                    format!("vertex index {v} is out of range ({vertex_count} vertices)"),
                ));
            }
            face.corners.push(v);
        }
        // Past the corners: material, face UVs, face-vertex UVs, face normal, vertex normals.
        let bit = |b: u32| usize::from(ty & (1 << b) != 0);
        let at = |i: usize| {
            Some(f[i])
                .filter(|v| *v >= 0.0 && v.fract() == 0.0)
                .map(|v| v as u32)
        };
        let run = |from: usize| (from..from + corners).map(at).collect::<Option<Vec<u32>>>();
        o += corners;
        if bit(1) == 1 {
            face.material = at(o);
        }
        o += bit(1) + bit(2) * uv_layers;
        if bit(3) == 1 && uv_layers > 0 {
            face.uvs = run(o);
        }
        o += bit(3) * uv_layers * corners;
        if bit(4) == 1 {
            face.normals = at(o).map(|n| vec![n; corners]);
        }
        o += bit(4);
        if bit(5) == 1 {
            face.normals = run(o);
        }
        o += bit(5) * corners;
        if bit(6) == 1 {
            let c = integer(&f, o, path, "colour index")? as usize;
            let hex = *colors.get(c).ok_or_else(|| {
                Located::new(
                    index(path, o),
                    format!(
                        "colour index {c} is out of range ({} colours)",
                        colors.len()
                    ),
                )
            })?;
            face.colour = Some(hex_colour(hex));
            o += 1;
        }
        if bit(7) == 1 {
            face.vertex_colours = run(o);
        }
        o += bit(7) * corners;
        out.push(face);
    }
    Ok(out)
}

/// three.js `Color.setHex`: `0xRRGGBB` (floored, as a 32-bit integer) to components 0–1.
pub(super) fn hex_colour(hex: f64) -> [f32; 3] {
    let h = hex.floor() as i64 as i32;
    let c = |shift: u32| (((h >> shift) & 255) as f64 / 255.0) as f32;
    [c(16), c(8), c(0)]
}

/// One colour per face from `morphColors[0].colors`, or `None` when there are no morph colours.
fn morph_colours(node: Option<&Node>, faces: usize) -> Result<Option<Vec<[f32; 3]>>, Located> {
    let Some(node) = node else {
        return Ok(None);
    };
    let list = node.array("an array of morph colours")?;
    let Some(first) = list.first() else {
        return Ok(None);
    };
    let obj = first.object()?;
    let colors = obj
        .get("colors")
        .ok_or_else(|| Located::new(field(&first.path, "colors"), "missing \"colors\""))?;
    let v = colors.f32s()?;
    if v.len() < faces * 3 {
        return Err(Located::new(
            &colors.path,
            format!("{} numbers for {faces} faces; expected 3 per face", v.len()),
        ));
    }
    Ok(Some(
        v.chunks_exact(3)
            .take(faces)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::formats::{Document, read_bytes};

    fn read(text: &str) -> Document {
        read_bytes(text.as_bytes(), Path::new("model.json")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(text: &str) -> String {
        match read_bytes(text.as_bytes(), Path::new("model.json")) {
            Ok(_) => panic!("read {text} without error"),
            Err(e) => e.to_string(),
        }
    }

    /// A model with four vertices, `faces`, `extra` top-level fields and one morph target.
    fn model(faces: &str, extra: &str) -> String {
        format!(
            r#"{{"metadata":{{"formatVersion":3}},"scale":10,"vertices":[0,0,0,10,0,0,10,10,0,0,10,0],"faces":[{faces}],{extra}
            "morphTargets":[{{"name":"t_1","vertices":[0,0,1,10,0,1,10,10,1,0,10,1]}}]}}"#
        )
    }

    #[test]
    fn quads_split_scale_divides_and_targets_follow() {
        let doc = read(&model("1,0,1,2,3", ""));
        let mesh = doc.mesh.unwrap();
        assert_eq!(mesh.name, "model");
        assert_eq!(mesh.vertices[2], [1.0, 1.0, 0.0]);
        assert_eq!(mesh.triangles, [[0, 1, 3], [1, 2, 3]]);
        assert!(mesh.triangle_colours.is_empty());
        assert_eq!(mesh.targets[0].name, "t_1");
        assert_eq!(
            mesh.targets[0].vertices[0],
            [0.0, 0.0, (1.0f64 * 0.1) as f32]
        );
        assert_eq!(doc.clips[0].name, "t_");
    }

    #[test]
    fn type_bits_say_how_many_indices_to_skip() {
        // Two UV layers, one of them empty (it does not count): one layer.
        let uvs = r#""uvs":[[0,0,1,1],[]],"normals":[0,0,1],"colors":[16744448,255],"#;
        // 2 material, 4 face uv (1), 8 vertex uvs (3), 16 face normal, 32 vertex normals (3),
        // 64 face colour, 128 vertex colours (3): 1 + 1 + 3 + 1 + 3 + 1 + 3 = 13 after corners.
        let all = "254,0,1,2, 5, 0, 0,1,0, 0, 0,0,0, 1, 1,1,1";
        let doc = read(&model(&format!("{all}, 65,1,2,3,0,0, 0,0,1,2"), uvs));
        let mesh = doc.mesh.unwrap();
        assert_eq!(mesh.triangles, [[0, 1, 2], [1, 2, 0], [2, 3, 0], [0, 1, 2]]);
        // Face colours from `colors` (0x0000ff, then 0xff8000 for the quad), white without one.
        let orange = [1.0, (128.0f64 / 255.0) as f32, 0.0];
        assert_eq!(
            mesh.triangle_colours,
            [[0.0, 0.0, 1.0], orange, orange, [1.0, 1.0, 1.0]]
        );
    }

    #[test]
    fn morph_colours_colour_faces_and_quads_share_theirs() {
        let colours = r#""morphColors":[{"name":"c","colors":[1,0,0,0,1,0,9,9,9]},{"name":"d","colors":[]}],"#;
        let doc = read(&model("1,0,1,2,3, 0,0,1,2", colours));
        let mesh = doc.mesh.unwrap();
        assert_eq!(
            mesh.triangle_colours,
            [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
        );
    }

    #[test]
    fn models_without_targets_have_no_mesh() {
        let doc = read(
            r#"{"metadata":{"formatVersion":3},"vertices":[0,0,0],"faces":[],"morphTargets":[]}"#,
        );
        assert!(doc.mesh.is_none() && doc.clips.is_empty());
    }

    #[test]
    fn errors_name_the_face_entry() {
        let cases: Vec<(String, &str)> = vec![
            (model("0,0,1,2, 0,0,1,4", ""), "model.json: faces[7]: vertex index 4 is out of range (4 vertices)"),
            (model("0,0,1,2, 1,0,1,2", ""), "model.json: faces[4]: truncated face: type 1 needs 4 more numbers, 3 left"),
            (model("0,0,1,2, 8,0,1,2", r#""uvs":[[0,0]],"#), "model.json: faces[4]: truncated face: type 8 needs 6 more numbers, 3 left"),
            (model("0,0,1.5,2", ""), "model.json: faces[2]: vertex index 1.5 is not a non-negative integer"),
            (model("-1,0,1,2", ""), "model.json: faces[0]: face type -1 is not a non-negative integer"),
            (model("64,0,1,2,3", r#""colors":[0],"#), "model.json: faces[4]: colour index 3 is out of range (1 colours)"),
            (model("0,0,1,\"2\"", ""), "model.json: faces[3]: a string is not a number"),
            (model("0,0,1,2, 0,1,2,3", r#""morphColors":[{"colors":[1,0,0]}],"#), "model.json: morphColors[0].colors: 3 numbers for 2 faces; expected 3 per face"),
            (
                r#"{"vertices":[0,0,0,1],"faces":[],"morphTargets":[{"name":"a","vertices":[]}]}"#.into(),
                "model.json: vertices: 4 numbers is not a whole number of vertices (3 per vertex)",
            ),
            (
                r#"{"vertices":[0,0,0],"faces":[],"morphTargets":[{"name":"a","vertices":[0,0]}]}"#.into(),
                "model.json: morphTargets[0].vertices: 2 numbers for 1 vertices; expected 3 (3 per vertex)",
            ),
            (
                r#"{"faces":[],"morphTargets":[{"name":"a","vertices":[]}]}"#.into(),
                "model.json: vertices: missing \"vertices\" (a model with morph targets needs its base mesh)",
            ),
            (
                r#"{"vertices":[],"faces":[],"morphTargets":[{"vertices":[]}]}"#.into(),
                "model.json: morphTargets[0]: morph target has no \"name\"",
            ),
            (
                r#"{"scale":0,"vertices":[],"faces":[],"morphTargets":[{"name":"a","vertices":[]}]}"#.into(),
                "model.json: scale: scale must not be 0",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "for {text}");
        }
    }
}
