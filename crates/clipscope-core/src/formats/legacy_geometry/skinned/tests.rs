//! Legacy skinned models: corners expanded, influences per vertex, materials, bind pose, errors
//! as notes; and the shared simple-skinned.json.

use std::path::Path;

use glam::{Mat4, Quat, Vec3};

use crate::formats::{read_bytes, read_file};
use crate::model::{AlphaMode, Model};

fn model(text: &str) -> Model {
    let doc = read_bytes(text.as_bytes(), Path::new("rig.json")).unwrap_or_else(|e| panic!("{e}"));
    (*doc.model.expect("a model")).clone()
}

/// Four vertices in a square, one quad (material 1, face-vertex normals) and one triangle
/// (material 0, no normals), two bones: `root` at the origin and `tip` one up.
fn file(extra: &str) -> String {
    format!(
        r#"{{"metadata":{{"formatVersion":3.1}},
        "vertices":[0,0,0, 1,0,0, 1,2,0, 0,2,0],
        "normals":[0,0,1, 0,1,0],
        "faces":[35, 0,1,2,3, 1, 0,0,1,1, 0, 0,1,2],
        "materials":[{{"DbgName":"a","colorDiffuse":[1,0,0]}},
                     {{"DbgName":"b","colorDiffuse":[0,0,1],"opacity":0.5,"transparent":true,"mapDiffuse":"x.png"}}],
        "bones":[{{"parent":-1,"name":"root","pos":[0,0,0],"rotq":[0,0,0,1]}},
                 {{"parent":0,"name":"tip","pos":[0,1,0],"rotq":[0,0,0,1]}}],
        {extra}
        "skinIndices":[0,1, 0,-1, 1,0, 1,0],
        "skinWeights":[0.5,0.5, 1,0, 2,0, 1,0]}}"#
    )
}

#[test]
fn corners_become_vertices_grouped_by_material() {
    let m = model(&file(""));
    assert_eq!(m.nodes.len(), 3);
    assert_eq!(m.nodes[0].name, "rig");
    assert_eq!((m.nodes[1].parent, m.nodes[2].parent), (Some(0), Some(1)));
    let mesh = &m.meshes[0];
    assert_eq!(mesh.primitives.len(), 2);
    let (tri, quad) = (&mesh.primitives[0], &mesh.primitives[1]);
    assert_eq!((tri.material, quad.material), (Some(0), Some(1)));
    assert_eq!(quad.triangles, [[0, 1, 2], [3, 4, 5]]);
    // The quad splits into (a, b, d) and (b, c, d): corners 0, 1, 3 then 1, 2, 3.
    assert_eq!(quad.positions[2], [0.0, 2.0, 0.0]);
    assert_eq!(quad.normals[0], [0.0, 0.0, 1.0]);
    assert_eq!(quad.normals[2], [0.0, 1.0, 0.0]);
    // A face without normals is flat: the triangle (0, 1, 2) faces +z.
    assert_eq!(tri.normals, [[0.0, 0.0, 1.0]; 3]);
    // Two influences per vertex by default, weights normalized; a -1 bone with weight 0 is none.
    assert_eq!(quad.joints[0][..2], [0, 1]);
    assert_eq!(quad.weights[0][..2], [0.5, 0.5]);
    assert_eq!(tri.weights[2][..2], [1.0, 0.0]);
    assert_eq!(tri.joints[2][..2], [1, 0]);
    assert!(quad.colours.is_empty(), "vertexColors is off");
    let b = &m.materials[1];
    assert_eq!(b.alpha_mode, AlphaMode::Blend);
    assert_eq!(b.base_colour, [0.0, 0.0, 1.0, 0.5]);
    assert_eq!(
        m.notes,
        ["materials[1].mapDiffuse: textures of legacy models are not drawn"]
    );
    // The bind pose is the rest pose: at rest, every vertex is where the file puts it.
    let posed = m.posed(&m.rest_world(), |_| &[]);
    assert_eq!(posed[1].positions, quad.positions);
}

#[test]
fn influences_per_vertex_and_bending() {
    let m = model(&file(r#""influencesPerVertex":2,"#));
    // Bend `tip` 90° about z: the top vertices (fully on tip) turn about (0, 1).
    let bend = Mat4::from_quat(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    let world = m.world_matrices(|i| {
        let rest = m.nodes[i].rest_local();
        if i == 2 { rest * bend } else { rest }
    });
    let posed = m.posed(&world, |_| &[]);
    let top = Vec3::from(posed[0].positions[2]);
    assert!(top.abs_diff_eq(Vec3::new(-1.0, 2.0, 0.0), 1e-6), "{top}");
}

#[test]
fn bad_influences_are_noted_not_fatal() {
    let bad = file("").replace(r#""skinIndices":[0,1,"#, r#""skinIndices":[0,7,"#);
    let doc = read_bytes(bad.as_bytes(), Path::new("rig.json")).unwrap();
    assert_eq!(
        doc.skeleton.unwrap().bones.len(),
        2,
        "the clips' skeleton still reads"
    );
    let m = doc.model.unwrap();
    assert_eq!(
        m.notes,
        ["skinIndices[1]: bone index 7 is not one of the 2 bones (not drawn)"]
    );
    assert_eq!(m.vertex_count(), 0);
    let short = file("").replace(
        r#""skinWeights":[0.5,0.5, 1,0, 2,0, 1,0]"#,
        r#""skinWeights":[1]"#,
    );
    let doc = read_bytes(short.as_bytes(), Path::new("rig.json")).unwrap();
    assert_eq!(
        doc.model.unwrap().notes,
        ["skinWeights: 1 numbers for 4 vertices; expected 8 (2 per vertex) (not drawn)"]
    );
    // No skin data: no model.
    let plain = r#"{"bones":[{"parent":-1,"name":"a"}],"vertices":[0,0,0],"faces":[]}"#;
    assert!(
        read_bytes(plain.as_bytes(), Path::new("a.json"))
            .unwrap()
            .model
            .is_none()
    );
}

#[test]
fn simple_skinned_is_two_legs() {
    let Some(path) = clipscope_test_support::sample_data("threejs/simple-skinned.json") else {
        return;
    };
    let doc = read_file(&path).unwrap();
    let m = doc.model.unwrap();
    assert!(m.notes.is_empty(), "{:?}", m.notes);
    assert!(m.is_skinned());
    // 22 faces, all quads but none: every face corner is a vertex.
    assert_eq!(m.triangle_count(), 44);
    assert_eq!(m.vertex_count(), 132);
    assert_eq!(m.nodes[1].name, "leg.R");
    assert_eq!(m.skins[0].joints, [1, 2]);
}
