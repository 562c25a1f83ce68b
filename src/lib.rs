//! clipscope: a previewer, editor and checker for animation clips.
//!
//! The crate follows the architecture map: [`model`] holds the format-neutral clip model with
//! three.js r187 semantics, [`formats`] reads and writes files, [`cli`] is the command-line front
//! end, and `ui` (feature `gui`) is the desktop editor. Data flows one way: file bytes →
//! `formats::read` → [`formats::Document`] → model operations → `formats::write` → bytes.

pub mod assets;
pub mod cli;
pub mod editor;
pub mod formats;
pub mod model;
pub mod playback;
#[cfg(feature = "gui")]
pub mod render;
pub mod scene;
#[cfg(test)]
pub(crate) mod test_support;
pub mod text;
#[cfg(feature = "gui")]
pub mod ui;
