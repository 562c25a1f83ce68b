//! Everything that needs egui or wgpu (feature `gui`): the editor and its panels driven through
//! egui_kittest, and headless rendering compared with reference pictures.
//!
//! One test binary for all of it, so egui and wgpu are linked once;
//! `cargo test --test gui editor::` runs one module.
#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

/// The sample data, the skip line and the random generator, shared with the unit tests.
use clipscope_test_support as test_support;

#[path = "../common/mod.rs"]
mod common;

#[path = "../../benches/support/character.rs"]
mod character;

mod compare;
mod curves;
mod cycles;
mod editing;
mod editor;
mod lottie_art;
mod lottie_images;
mod lottie_merge_paths;
mod lottie_web;
mod model_view;
mod previews;
mod reduce;
mod render;
mod safety;
mod skin_render;
/// The generated skinned character of the reduction tests.
#[path = "../formats/skinned_character.rs"]
mod skinned_character;
mod skinning;
mod timeline;
mod validate;
mod viewport;
mod window;
