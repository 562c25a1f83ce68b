//! The library against real files: every format read and written (glTF, legacy three.js,
//! Lottie, PlayCanvas, three.js variants), conversions between them, conformance with three.js
//! r187 (clip files, operations, the mixer) and the procedural cycles.
//!
//! One test binary for all of it (linking is what makes tests slow to build);
//! `cargo test --test formats gltf::` runs one module.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

/// The sample data, the skip line and the random generator, shared with the unit tests.
use clipscope_test_support as test_support;

#[path = "../common/mod.rs"]
mod common;

/// The synthetic motion-capture take of the reduction benchmark.
#[path = "../../benches/support/mocap.rs"]
#[allow(dead_code)]
mod mocap;

/// The world-space error evaluator of the reduction benchmark (none of the reducer's code).
#[path = "../../benches/support/world_error.rs"]
#[allow(dead_code)]
mod world_error;

mod conformance;
mod conformance_mixer;
mod conformance_ops;
mod conversions;
mod fuzz_regressions;
mod gltf;
mod gltf_validator;
mod legacy;
mod lottie;
mod lottie_rig;
mod no_false_alarms;
mod packed;
mod playcanvas;
mod playcanvas_anim;
mod players;
mod procedural;
mod reduce;
mod reduce_players;
mod skinned_character;
mod threejs_variants;
