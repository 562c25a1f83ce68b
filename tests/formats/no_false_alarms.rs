//! No false alarms: every finding `clipscope validate` reports on the sample files their
//! producers ship as correct (three.js's, PlayCanvas's, Lottie's and Khronos's own examples,
//! and the Khronos glTF-Validator's cases it finds no error in), listed and accounted for.
//!
//! Each remaining finding is one a maintainer of the file would want to hear about:
//!
//! * `constant-track`, `redundant-keys` on three.js's `scene-animation.json`: 139 keys per
//!   track that never change (and a few more that add nothing) in a clip file whose keys are
//!   the file's own;
//! * `lottie-key-outside-layer`: keyframes whose whole segment lies outside the layer's in/out
//!   points, so nothing of them is ever drawn;
//! * `unsupported-content`: Lottie compositions whose only motion is in shapes, masks or time
//!   remapping, which clipscope shows standing still: the file is fine, but clipscope does not
//!   show what it does, and says so rather than report the clip as "ok"; and, once per kind,
//!   the Lottie artwork clipscope does not draw (merge paths, effects, text layers);
//! * the glTF-Validator's warnings on its own cases (`gltf-skinned-*`,
//!   `gltf-extension-not-declared`), which it reports too, and the `empty-clip` the undeclared
//!   pointer channel leaves (nothing of it plays).
//!
//! A new finding on these files fails the test with the whole list, so a rule that starts
//! crying wolf is caught.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::test_support::sample_data;
use clipscope_core::model::Severity;
use clipscope_core::validate::{FileSettings, check_bytes};

/// `(file, code) → count` of the accepted findings (see the module docs).
const ACCEPTED: &[(&str, &str, usize)] = &[
    ("lottie/Boat_Loader.json", "unsupported-content", 1),
    ("lottie/adrock.json", "lottie-key-outside-layer", 1),
    ("lottie/adrock.json", "unsupported-content", 1),
    ("lottie/issue_1717.json", "lottie-key-outside-layer", 1),
    ("lottie/pr_2559.json", "unsupported-content", 2),
    ("lottie/starfish.json", "unsupported-content", 2),
    ("lottie/success.json", "lottie-key-outside-layer", 4),
    ("lottie/success.json", "unsupported-content", 2),
    ("lottie/time_remap.json", "unsupported-content", 2),
    ("threejs/scene-animation.json", "constant-track", 6),
    ("threejs/scene-animation.json", "redundant-keys", 2),
    (
        "gltf-validator/KHR_animation_pointer/missing_extension_declaration.gltf",
        "empty-clip",
        1,
    ),
    (
        "gltf-validator/KHR_animation_pointer/missing_extension_declaration.gltf",
        "gltf-extension-not-declared",
        1,
    ),
    (
        "gltf-validator/skin/ignored_animated_transform.gltf",
        "gltf-skinned-node-animated",
        1,
    ),
    (
        "gltf-validator/skin/ignored_local_transform.gltf",
        "gltf-skinned-mesh-local-transform",
        1,
    ),
    (
        "gltf-validator/skin/ignored_parent_transform.gltf",
        "gltf-skinned-mesh-parent-transform",
        1,
    ),
];

/// The files of `dir` (recursively) clipscope checks, relative to `root`.
fn files(root: &Path, dir: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "json" || e == "gltf" || e == "glb")
                && !path.to_string_lossy().ends_with(".report.json")
            {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, path));
            }
        }
    }
    out.sort();
    out
}

/// Whether the glTF-Validator's report beside `path` lists no error (a file shipped correct).
fn validator_clean(path: &Path) -> bool {
    let report = std::fs::read(format!("{}.report.json", path.display())).unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report).unwrap();
    report["issues"]["numErrors"] == 0
}

#[test]
fn shipped_files_get_only_the_findings_their_maintainers_would_want() {
    let Some(root) = sample_data("") else {
        return;
    };
    let mut found: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut lines = Vec::new();
    let mut checked = 0;
    for dir in ["threejs", "lottie", "playcanvas", "gltf", "gltf-validator"] {
        for (rel, path) in files(&root, dir) {
            if dir == "gltf-validator" && !validator_clean(&path) {
                continue;
            }
            checked += 1;
            let bytes = std::fs::read(&path).unwrap();
            let report = check_bytes(&bytes, &path, &FileSettings::default(), &Default::default());
            assert!(report.readable, "{rel}: {:?}", report.problems);
            for f in &report.problems {
                assert_eq!(
                    f.problem.severity,
                    Severity::Warning,
                    "{rel}: {:?}",
                    f.problem
                );
                *found
                    .entry((rel.clone(), f.problem.code.clone()))
                    .or_default() += 1;
                lines.push(format!("{rel}: {} {}", f.problem.code, f.problem.message));
            }
        }
    }
    let accepted: BTreeMap<(String, String), usize> = ACCEPTED
        .iter()
        .map(|&(f, c, n)| ((f.to_string(), c.to_string()), n))
        .collect();
    for line in &lines {
        println!("{line}");
    }
    println!("{checked} shipped files, {} findings", lines.len());
    assert_eq!(found, accepted, "every finding:\n{}", lines.join("\n"));
}
