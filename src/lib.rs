//! clipscope: a previewer, editor and checker for animation clips.
//!
//! The crate is organised as the architecture map describes: [`model`] holds the format-neutral
//! clip model with three.js semantics, [`formats`] reads and writes files, and [`cli`] implements
//! the command-line front end. The GUI lives behind the `gui` feature.

pub mod cli;
pub mod formats;
pub mod model;
