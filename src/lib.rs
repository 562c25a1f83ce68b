//! clipscope: the command line and the desktop editor.
//!
//! The libraries do the work: `clipscope-core` (the clip model, formats, playback, validation),
//! `clipscope-scene` (figures), `clipscope-editor` (editing without a window) and
//! `clipscope-render` (wgpu). This crate is what a person runs: [`cli`], one module per
//! subcommand, and (feature `gui`) `ui`, the eframe/egui editor. The map of the workspace is
//! `docs/ARCHITECTURE.md`.

pub mod cli;
#[cfg(feature = "gui")]
pub mod ui;
