//! The rule registry's applicability pinned: which rule applies to which format, in which order
//! the rules are listed, and which rules run on a document checked in memory although they are
//! off for its files. Written down before rule applicability became format properties, so the
//! move to properties cannot change what any file is checked for.

use super::{not_for_in_memory, rules};
use crate::formats::Format;

/// Every rule in registry order, with the short names of the formats it applies to.
const PINNED: &[(&str, &str)] = &[
    (
        "empty-track",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "invalid-value-size",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "time-not-a-number",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "unsorted-times",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie",
    ),
    (
        "value-not-a-number",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "unsupported-interpolation",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "duplicate-times",
        "threejs threejs-legacy playcanvas playcanvas-anim",
    ),
    (
        "negative-time",
        "threejs threejs-legacy playcanvas playcanvas-anim",
    ),
    (
        "bezier-without-tangents",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "tangent-length",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "non-unit-quaternion",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie",
    ),
    (
        "quaternion-flip",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "duration-shorter-than-keys",
        "threejs threejs-legacy playcanvas playcanvas-anim gltf glb",
    ),
    (
        "duration-longer-than-keys",
        "threejs threejs-legacy playcanvas playcanvas-anim gltf glb",
    ),
    (
        "empty-clip",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "duplicate-track",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie",
    ),
    ("redundant-keys", "threejs playcanvas-anim gltf glb"),
    ("constant-track", "threejs playcanvas-anim gltf glb"),
    (
        "loop-seam",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    ("unparsable-track-name", "threejs threejs-legacy"),
    (
        "unbound-track",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "bezier-fold",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "non-finite-value",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "parse",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    (
        "unsupported-content",
        "threejs threejs-legacy playcanvas playcanvas-anim lottie gltf glb",
    ),
    ("unknown-blend-mode", "threejs"),
    ("number-as-string", "threejs"),
    ("number-out-of-range", "threejs"),
    ("invalid-tangent-size", "threejs"),
    ("tangent-not-a-number", "threejs"),
    ("gltf-unresolved-reference", "gltf glb"),
    ("gltf-empty-entity", "gltf glb"),
    ("gltf-undefined-property", "gltf glb"),
    ("gltf-unknown-value", "gltf glb"),
    ("gltf-duplicate-targets", "gltf glb"),
    ("gltf-target-node-matrix", "gltf glb"),
    ("gltf-weights-without-morph-targets", "gltf glb"),
    ("gltf-sampler-byte-stride", "gltf glb"),
    ("gltf-sampler-input-format", "gltf glb"),
    ("gltf-sampler-input-without-bounds", "gltf glb"),
    ("gltf-sampler-output-format", "gltf glb"),
    ("gltf-sampler-output-count", "gltf glb"),
    ("gltf-sampler-too-few-keys", "gltf glb"),
    ("gltf-sampler-input-negative", "gltf glb"),
    ("gltf-sampler-input-not-increasing", "gltf glb"),
    ("gltf-non-unit-quaternion", "gltf glb"),
    ("gltf-accessor-bounds", "gltf glb"),
    ("gltf-buffer-unavailable", "gltf glb"),
    ("gltf-skin-ibm-byte-stride", "gltf glb"),
    ("gltf-skin-ibm-format", "gltf glb"),
    ("gltf-skin-ibm-count", "gltf glb"),
    ("gltf-skin-no-common-root", "gltf glb"),
    ("gltf-skin-skeleton-not-root", "gltf glb"),
    ("gltf-skin-joints-not-in-scene", "gltf glb"),
    ("gltf-skinned-node-animated", "gltf glb"),
    ("gltf-skinned-mesh-local-transform", "gltf glb"),
    ("gltf-skinned-mesh-parent-transform", "gltf glb"),
    ("gltf-pointer-with-node", "gltf glb"),
    ("gltf-pointer-path", "gltf glb"),
    ("gltf-pointer-syntax", "gltf glb"),
    ("gltf-extension-misplaced", "gltf glb"),
    ("gltf-extension-not-declared", "gltf glb"),
    ("lottie-empty-range", "lottie"),
    ("lottie-key-outside-layer", "lottie"),
    ("lottie-missing-parent", "lottie"),
    ("lottie-lenient-layer", "lottie"),
    ("lottie-unplayable-keyframe", "lottie"),
    ("playcanvas-ignored-channel", "playcanvas"),
    ("playcanvas-lenient-shape", "playcanvas"),
    ("playcanvas-quaternion-flip", "playcanvas-anim"),
    ("playcanvas-extra-components", "playcanvas-anim"),
    ("playcanvas-number-as-string", "playcanvas-anim"),
    ("playcanvas-missing-interpolation", "playcanvas-anim"),
    ("playcanvas-string-path", "playcanvas-anim"),
];

/// The rules that run on a document of each format checked in memory although they are off for
/// its files (the raw-file rules that replace them cannot run there).
const IN_MEMORY_ONLY: &[(&str, &str)] = &[
    ("threejs", ""),
    ("threejs-legacy", ""),
    ("playcanvas", ""),
    ("playcanvas-anim", ""),
    ("lottie", ""),
    (
        "gltf",
        "unsorted-times duplicate-times negative-time non-unit-quaternion duplicate-track",
    ),
    (
        "glb",
        "unsorted-times duplicate-times negative-time non-unit-quaternion duplicate-track",
    ),
];

#[test]
fn every_rule_applies_where_it_always_did() {
    let codes: Vec<&str> = rules().iter().map(|r| r.code).collect();
    let pinned: Vec<&str> = PINNED.iter().map(|(code, _)| *code).collect();
    assert_eq!(codes, pinned, "the rule list and its order");
    for (rule, (code, formats)) in rules().iter().zip(PINNED) {
        let applies: Vec<&str> = Format::ALL
            .iter()
            .filter(|&&f| rule.applies_to(f))
            .map(|f| f.name())
            .collect();
        assert_eq!(applies.join(" "), *formats, "{code}");
    }
}

#[test]
fn documents_in_memory_get_the_rules_they_always_did() {
    for (name, expected) in IN_MEMORY_ONLY {
        let format = Format::from_name(name).expect("a format name");
        let off: Vec<&str> = not_for_in_memory(format).collect();
        let on_in_memory: Vec<&str> = rules()
            .iter()
            .filter(|r| !r.applies_to(format) && !off.contains(&r.code))
            .map(|r| r.code)
            .collect();
        assert_eq!(on_in_memory.join(" "), *expected, "{name}");
    }
}
