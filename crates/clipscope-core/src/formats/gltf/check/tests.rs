//! Each glTF check on a small file that breaks it and one that does not (the Khronos
//! validator's own cases run in `tests/formats/gltf_validator.rs`).

use std::path::Path;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::formats::{Linted, lint_bytes};

/// A glTF with one node (`node`), one animation (`channels`, `samplers`) and accessors over one
/// embedded buffer of `floats`, each accessor `(offset, count, type)` in a tightly packed view
/// of its own (min/max added for SCALAR ones).
fn gltf(
    floats: &[f32],
    accessors: &[(usize, usize, &str)],
    node: Value,
    animation: Value,
) -> Value {
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let width = |t: &str| match t {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        _ => 16,
    };
    let mut views = Vec::new();
    let mut list = Vec::new();
    for (i, &(offset, count, t)) in accessors.iter().enumerate() {
        views.push(json!({"buffer":0,"byteOffset":offset * 4,"byteLength":count * width(t) * 4}));
        let mut a = json!({"bufferView":i,"componentType":5126,"count":count,"type":t});
        if t == "SCALAR" {
            let values = &floats[offset..offset + count];
            let lo = values.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            a["min"] = json!([lo]);
            a["max"] = json!([hi]);
        }
        list.push(a);
    }
    json!({
        "asset":{"version":"2.0"},
        "nodes":[node],
        "buffers":[{"byteLength":bytes.len(),"uri":format!("data:application/octet-stream;base64,{data}")}],
        "bufferViews":views,
        "accessors":list,
        "animations":[animation],
    })
}

/// The default file: a scale animation with keys at 0, 1, 2.
fn scale_file() -> Value {
    gltf(
        &[0.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0],
        &[(0, 3, "SCALAR"), (3, 3, "VEC3")],
        json!({"name":"box"}),
        json!({"channels":[{"sampler":0,"target":{"node":0,"path":"scale"}}],
               "samplers":[{"input":0,"output":1}]}),
    )
}

/// The lenient read of `file`.
fn lint(file: &Value) -> Linted {
    lint_bytes(
        file.to_string().as_bytes(),
        Path::new("t.gltf"),
        &Default::default(),
    )
}

/// `(code, message)` of every glTF finding of `file`.
fn findings(file: &Value) -> Vec<(String, String)> {
    lint(file)
        .problems
        .into_iter()
        .filter(|p| p.code.starts_with("gltf-"))
        .map(|p| (p.code, p.message))
        .collect()
}

/// Asserts `file` has exactly one glTF finding, with `code`, whose message starts with
/// `pointer`.
#[track_caller]
fn one(file: &Value, code: &str, pointer: &str) {
    let f = findings(file);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, code, "{f:?}");
    assert!(f[0].1.starts_with(&format!("{pointer}: ")), "{f:?}");
}

#[test]
fn a_valid_animation_passes_and_reads() {
    let linted = lint(&scale_file());
    assert!(linted.problems.is_empty(), "{:?}", linted.problems);
    assert_eq!(linted.doc.unwrap().clips[0].tracks.len(), 1);
}

#[test]
fn structure_and_references() {
    let mut f = scale_file();
    f["animations"][0]["channels"][0]["sampler"] = json!(4);
    one(
        &f,
        "gltf-unresolved-reference",
        "/animations/0/channels/0/sampler",
    );
    // The channel is left out, the rest is read.
    assert!(lint(&f).doc.unwrap().clips[0].tracks.is_empty());

    let mut f = scale_file();
    f["animations"][0]["channels"][0]["target"]["node"] = json!(3);
    one(
        &f,
        "gltf-unresolved-reference",
        "/animations/0/channels/0/target/node",
    );

    let mut f = scale_file();
    f["animations"][0]["samplers"][0]
        .as_object_mut()
        .unwrap()
        .remove("input");
    one(&f, "gltf-undefined-property", "/animations/0/samplers/0");

    let mut f = scale_file();
    f["animations"][0]["channels"] = json!([]);
    let codes: Vec<String> = findings(&f).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["gltf-empty-entity"]);

    let mut f = scale_file();
    f["animations"][0]["channels"][0]["target"]["path"] = json!("shear");
    one(
        &f,
        "gltf-unknown-value",
        "/animations/0/channels/0/target/path",
    );

    let mut f = scale_file();
    let channel = f["animations"][0]["channels"][0].clone();
    f["animations"][0]["channels"] = json!([channel, channel]);
    one(
        &f,
        "gltf-duplicate-targets",
        "/animations/0/channels/0/target",
    );
}

#[test]
fn node_rules() {
    let mut f = scale_file();
    f["nodes"][0]["matrix"] = json!([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    one(
        &f,
        "gltf-target-node-matrix",
        "/animations/0/channels/0/target",
    );

    let mut f = scale_file();
    f["nodes"][0]["skin"] = json!(0);
    f["skins"] = json!([{"joints":[0]}]);
    one(
        &f,
        "gltf-skinned-node-animated",
        "/animations/0/channels/0/target/path",
    );

    let weights = gltf(
        &[0.0, 1.0, 0.5, 0.5],
        &[(0, 2, "SCALAR"), (2, 2, "SCALAR")],
        json!({"name":"face","mesh":0}),
        json!({"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}],
               "samplers":[{"input":0,"output":1}]}),
    );
    let mut f = weights.clone();
    f["meshes"] = json!([{"primitives":[{"attributes":{}}]}]);
    one(
        &f,
        "gltf-weights-without-morph-targets",
        "/animations/0/channels/0/target",
    );
}

#[test]
fn sampler_accessors() {
    let mut f = scale_file();
    f["bufferViews"][0]["byteStride"] = json!(4);
    one(
        &f,
        "gltf-sampler-byte-stride",
        "/animations/0/samplers/0/input",
    );

    let mut f = scale_file();
    f["accessors"][0]["componentType"] = json!(5125);
    one(
        &f,
        "gltf-sampler-input-format",
        "/animations/0/samplers/0/input",
    );

    let mut f = scale_file();
    f["accessors"][0].as_object_mut().unwrap().remove("max");
    one(
        &f,
        "gltf-sampler-input-without-bounds",
        "/animations/0/samplers/0/input",
    );

    let mut f = scale_file();
    f["accessors"][0]["max"] = json!([5]);
    one(&f, "gltf-accessor-bounds", "/accessors/0/max");

    let mut f = scale_file();
    f["accessors"][1]["type"] = json!("VEC4");
    f["accessors"][1]["count"] = json!(2);
    one(
        &f,
        "gltf-sampler-output-format",
        "/animations/0/channels/0/sampler",
    );

    let mut f = scale_file();
    f["accessors"][1]["count"] = json!(2);
    one(
        &f,
        "gltf-sampler-output-count",
        "/animations/0/channels/0/sampler",
    );

    let mut f = scale_file();
    f["animations"][0]["samplers"][0]["interpolation"] = json!("CUBICSPLINE");
    f["accessors"][0]["count"] = json!(1);
    f["accessors"][0]["max"] = json!([0]);
    let codes: Vec<String> = findings(&f).into_iter().map(|f| f.0).collect();
    assert!(
        codes.contains(&"gltf-sampler-too-few-keys".into()),
        "{codes:?}"
    );
}

#[test]
fn sampler_data() {
    let times = |t: [f32; 3]| {
        gltf(
            &[
                t[0], t[1], t[2], 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0,
            ],
            &[(0, 3, "SCALAR"), (3, 3, "VEC3")],
            json!({}),
            json!({"channels":[{"sampler":0,"target":{"node":0,"path":"scale"}}],
                   "samplers":[{"input":0,"output":1}]}),
        )
    };
    one(
        &times([-1.0, 0.0, 1.0]),
        "gltf-sampler-input-negative",
        "/animations/0/samplers/0/input",
    );
    one(
        &times([0.0, 1.0, 1.0]),
        "gltf-sampler-input-not-increasing",
        "/animations/0/samplers/0/input",
    );

    let rotation = |w: f32| {
        gltf(
            &[0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, w],
            &[(0, 2, "SCALAR"), (2, 2, "VEC4")],
            json!({}),
            json!({"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}],
                   "samplers":[{"input":0,"output":1}]}),
        )
    };
    assert!(findings(&rotation(1.0)).is_empty());
    one(
        &rotation(0.5),
        "gltf-non-unit-quaternion",
        "/animations/0/channels/0/sampler",
    );
}

#[test]
fn accessors_without_data_are_zeros_and_not_checked() {
    let mut f = scale_file();
    for a in [0, 1] {
        f["accessors"][a]
            .as_object_mut()
            .unwrap()
            .remove("bufferView");
    }
    f["accessors"][0]["max"] = json!([1]);
    assert!(findings(&f).is_empty(), "{:?}", findings(&f));
    let linted = lint(&f);
    assert_eq!(linted.unstored, [(0, 0)]);
    assert_eq!(
        linted.doc.unwrap().clips[0].tracks[0].times,
        [0.0, 0.0, 0.0]
    );
}

#[test]
fn pointer_channels() {
    let pointer = |target: Value| {
        let mut f = gltf(
            &[0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
            &[(0, 2, "SCALAR"), (2, 2, "VEC4")],
            json!({"name":"lamp"}),
            json!({"channels":[{"sampler":0,"target":target}],
                   "samplers":[{"input":0,"output":1}]}),
        );
        f["extensionsUsed"] = json!(["KHR_animation_pointer"]);
        f
    };
    let ext = |p: &str| json!({"KHR_animation_pointer":{"pointer":p}});
    let material =
        pointer(json!({"path":"pointer","extensions":ext("/materials/0/emissiveFactor")}));
    let linted = lint(&material);
    assert!(linted.problems.is_empty(), "{:?}", linted.problems);
    let track = &linted.doc.unwrap().clips[0].tracks[0];
    assert_eq!(track.name, "/materials/0/emissiveFactor");
    assert_eq!(track.value_size(), 4);

    let node = pointer(json!({"path":"pointer","extensions":ext("/nodes/0/rotation")}));
    let doc = lint(&node).doc.unwrap();
    assert_eq!(doc.clips[0].tracks[0].name, "lamp.quaternion");

    one(
        &pointer(json!({"path":"pointer","extensions":ext("materials/0")})),
        "gltf-pointer-syntax",
        "/animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer",
    );
    one(
        &pointer(json!({"node":0,"path":"pointer","extensions":ext("/nodes/0/rotation")})),
        "gltf-pointer-with-node",
        "/animations/0/channels/0/target/extensions/KHR_animation_pointer",
    );
    one(
        &pointer(json!({"path":"pointer","extensions":{"KHR_animation_pointer":{}}})),
        "gltf-undefined-property",
        "/animations/0/channels/0/target/extensions/KHR_animation_pointer",
    );
    let mut undeclared = material.clone();
    undeclared.as_object_mut().unwrap().remove("extensionsUsed");
    one(
        &undeclared,
        "gltf-extension-not-declared",
        "/animations/0/channels/0/target/path",
    );
}

#[test]
fn skins() {
    let skinned = |skin: Value, nodes: Value| {
        let mut f = scale_file();
        f["nodes"] = nodes;
        f["skins"] = json!([skin]);
        f
    };
    let two_roots = json!([{"name":"a"}, {"name":"b"}]);
    one(
        &skinned(json!({"joints":[0, 1]}), two_roots.clone()),
        "gltf-skin-no-common-root",
        "/skins/0/joints",
    );
    let tree = json!([{"name":"a","children":[1]}, {"name":"b"}, {"name":"c"}]);
    assert!(findings(&skinned(json!({"joints":[0, 1]}), tree.clone())).is_empty());
    one(
        &skinned(json!({"joints":[0, 1],"skeleton":2}), tree.clone()),
        "gltf-skin-skeleton-not-root",
        "/skins/0/skeleton",
    );
    one(
        &skinned(json!({}), tree.clone()),
        "gltf-undefined-property",
        "/skins/0",
    );
    one(
        &skinned(json!({"joints":[0],"inverseBindMatrices":9}), tree.clone()),
        "gltf-unresolved-reference",
        "/skins/0/inverseBindMatrices",
    );
    let mut ibm = skinned(json!({"joints":[0, 1],"inverseBindMatrices":1}), tree);
    one(&ibm, "gltf-skin-ibm-format", "/skins/0/inverseBindMatrices");
    ibm["accessors"][1]["type"] = json!("MAT4");
    ibm["accessors"][1]["count"] = json!(1);
    let codes: Vec<String> = findings(&ibm).into_iter().map(|f| f.0).collect();
    assert!(codes.contains(&"gltf-skin-ibm-count".into()), "{codes:?}");

    let scene = |scene_nodes: Value| {
        let mut f = skinned(
            json!({"joints":[0]}),
            json!([{"name":"root"}, {"name":"mesh","skin":0,"mesh":0,"translation":[1,0,0]}]),
        );
        f["meshes"] = json!([{"primitives":[{"attributes":{}}]}]);
        f["scenes"] = json!([{"nodes":scene_nodes}]);
        f
    };
    let codes = |f: &Value| -> Vec<String> { findings(f).into_iter().map(|f| f.0).collect() };
    assert_eq!(
        codes(&scene(json!([0, 1]))),
        ["gltf-skinned-mesh-local-transform"]
    );
    assert_eq!(
        codes(&scene(json!([1]))),
        [
            "gltf-skin-joints-not-in-scene",
            "gltf-skinned-mesh-local-transform"
        ]
    );
}
