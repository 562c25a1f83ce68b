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

mod compare;
mod curves;
mod cycles;
mod editing;
mod editor;
mod previews;
mod reduce;
mod render;
mod safety;
mod timeline;
mod validate;
mod viewport;
mod window;
