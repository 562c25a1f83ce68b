//! clipscope's glTF rules on the Khronos glTF-Validator's own test cases
//! (`shared/data/gltf-validator`: its animation, animation data, skin and
//! `KHR_animation_pointer` cases, each with the report the validator itself gives).
//!
//! For every file: each error the validator reports (and each warning it has a rule for) gets a
//! clipscope finding of the same severity whose code says the same thing (the table below) and
//! whose message starts with the validator's JSON pointer; a file the validator finds free of
//! errors gets no clipscope error. This is the same engine `clipscope validate` runs.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::test_support::sample_data;
use clipscope_core::model::Severity;
use clipscope_core::validate::{FileReport, FileSettings, check_bytes};

/// The validator's code → clipscope's code.
const CODES: &[(&str, &[&str])] = &[
    ("UNRESOLVED_REFERENCE", &["gltf-unresolved-reference"]),
    ("EMPTY_ENTITY", &["gltf-empty-entity"]),
    ("UNDEFINED_PROPERTY", &["gltf-undefined-property"]),
    ("ANIMATION_DUPLICATE_TARGETS", &["gltf-duplicate-targets"]),
    (
        "ANIMATION_CHANNEL_TARGET_NODE_MATRIX",
        &["gltf-target-node-matrix"],
    ),
    (
        "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
        &["gltf-weights-without-morph-targets"],
    ),
    (
        "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
        &["gltf-sampler-byte-stride"],
    ),
    (
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
        &["gltf-sampler-input-format"],
    ),
    (
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
        &["gltf-sampler-input-without-bounds"],
    ),
    (
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
        &["gltf-sampler-output-count"],
    ),
    (
        "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
        &["gltf-sampler-output-format"],
    ),
    (
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
        &["gltf-sampler-too-few-keys"],
    ),
    (
        "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
        &["gltf-sampler-input-negative"],
    ),
    (
        "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
        &["gltf-sampler-input-not-increasing"],
    ),
    (
        "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
        &["gltf-non-unit-quaternion"],
    ),
    ("ACCESSOR_MIN_MISMATCH", &["gltf-accessor-bounds"]),
    ("ACCESSOR_MAX_MISMATCH", &["gltf-accessor-bounds"]),
    (
        "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE",
        &["gltf-skin-ibm-byte-stride"],
    ),
    ("SKIN_IBM_INVALID_FORMAT", &["gltf-skin-ibm-format"]),
    ("INVALID_IBM_ACCESSOR_COUNT", &["gltf-skin-ibm-count"]),
    ("SKIN_NO_COMMON_ROOT", &["gltf-skin-no-common-root"]),
    ("SKIN_SKELETON_INVALID", &["gltf-skin-skeleton-not-root"]),
    ("NODE_SKIN_NO_SCENE", &["gltf-skin-joints-not-in-scene"]),
    (
        "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
        &["gltf-skinned-node-animated"],
    ),
    (
        "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
        &["gltf-skinned-mesh-local-transform"],
    ),
    (
        "NODE_SKINNED_MESH_PARENT_TRANSFORMS",
        &["gltf-skinned-mesh-parent-transform"],
    ),
    (
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE",
        &["gltf-pointer-with-node"],
    ),
    (
        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH",
        &["gltf-pointer-path"],
    ),
    ("PATTERN_MISMATCH", &["gltf-pointer-syntax"]),
    ("UNEXPECTED_EXTENSION_OBJECT", &["gltf-extension-misplaced"]),
    (
        "VALUE_NOT_IN_LIST",
        &["gltf-unknown-value", "gltf-extension-not-declared"],
    ),
];

/// The validator's own cases, one folder per kind.
const FOLDERS: [&str; 4] = [
    "animation",
    "animation_data",
    "skin",
    "KHR_animation_pointer",
];

/// Every `.gltf` of `folder` with its report, sorted.
fn cases(folder: &Path) -> Vec<(PathBuf, Value)> {
    let mut out: Vec<(PathBuf, Value)> = std::fs::read_dir(folder)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gltf"))
        .map(|p| {
            let report = std::fs::read(format!("{}.report.json", p.display())).unwrap();
            (p, serde_json::from_slice(&report).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// clipscope's report on `path`, as `clipscope validate` gives it.
fn clipscope(path: &Path) -> FileReport {
    let bytes = std::fs::read(path).unwrap();
    check_bytes(&bytes, path, &FileSettings::default(), &Default::default())
}

#[test]
fn every_validator_finding_on_animation_data_has_a_clipscope_finding() {
    let Some(root) = sample_data("gltf-validator") else {
        return;
    };
    let mut report = crate::common::Report::default();
    let (mut files, mut with_errors, mut flagged, mut matched) = (0, 0, 0, 0);
    let mut skin = (0, 0);
    for folder in FOLDERS {
        for (path, khronos) in cases(&root.join(folder)) {
            files += 1;
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            let ours = clipscope(&path);
            let messages = khronos["issues"]["messages"].as_array().unwrap();
            let errors = messages.iter().filter(|m| m["severity"] == 0).count();
            if errors > 0 {
                with_errors += 1;
                if ours.errors() > 0 {
                    flagged += 1;
                }
                if folder == "skin" {
                    skin.0 += 1;
                    skin.1 += usize::from(ours.errors() > 0);
                }
            } else if ours.errors() > 0 {
                report.push(
                    &name,
                    "",
                    format!(
                        "the validator finds no error, clipscope {:?}",
                        ours.problems
                    ),
                );
            }
            for m in messages {
                let code = m["code"].as_str().unwrap();
                let severity = match m["severity"].as_u64() {
                    Some(0) => Severity::Error,
                    Some(1) => Severity::Warning,
                    _ => continue,
                };
                let Some((_, ours_codes)) = CODES.iter().find(|(k, _)| *k == code) else {
                    if severity == Severity::Error {
                        report.push(&name, code, "no clipscope code for this validator error");
                    }
                    continue;
                };
                let pointer = m["pointer"].as_str().unwrap();
                let found = ours.problems.iter().any(|f| {
                    ours_codes.contains(&f.problem.code.as_str())
                        && f.problem.severity == severity
                        && f.problem.message.starts_with(&format!("{pointer}: "))
                });
                if found {
                    matched += 1;
                } else {
                    report.push(
                        &name,
                        code,
                        format!(
                            "no {ours_codes:?} {severity:?} at {pointer}: {:#?}",
                            ours.problems
                        ),
                    );
                }
            }
        }
    }
    report.finish("validator parity", files);
    println!(
        "{files} validator cases: {flagged} of {with_errors} files with errors flagged, \
         {matched} validator findings matched; skin cases {} of {} flagged",
        skin.1, skin.0
    );
    assert_eq!(flagged, with_errors);
    assert!(skin.1 * 5 >= skin.0 * 4, "{skin:?}");
}
