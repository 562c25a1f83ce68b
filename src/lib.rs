//! clipscope: a previewer, editor and checker for animation clips.
//!
//! Data flows one way: file bytes → [`formats`] (the format registry) → [`formats::Document`]
//! (clips in the format-neutral [`model`]) → model operations → [`formats`] → bytes; the
//! [`playback`] mixer turns a clip and a time into a pose, which [`scene`] puts on a figure.
//! The map of the whole crate, with how to add a format, a lint rule, an editor command, a panel
//! or a figure, is `docs/ARCHITECTURE.md`.
//!
//! | module | what |
//! |---|---|
//! | [`model`] | Clips, tracks, interpolants and operations with three.js r187 semantics; no I/O. |
//! | [`formats`] | Reading and writing files: the format registry, one module per format, the shared JSON layer. |
//! | [`playback`] | three.js's animation mixer over a flat pose, bit for bit. |
//! | [`scene`] | What a clip plays on: cube rigs, morph meshes, Lottie layers, procedural cycles. |
//! | [`validate`] | The validation engine of `clipscope validate` and the editor: the rule registry, config, baseline, fixes. |
//! | [`editor`] | Editing without a window: open documents, undoable edits, history, playhead. |
//! | [`cli`] | The command-line front end, one module per subcommand. |
//! | [`assets`] | Built-in content (the demo clips). |
//! | [`text`] | Numbers written for people. |
//! | `render` | (feature `gui`) The wgpu renderer, in a window or headless. |
//! | `ui` | (feature `gui`) The eframe/egui editor. |
//!
//! # Example
//!
//! Read a file (the format is detected from its content), optimize it losslessly like
//! three.js's `clip.optimize()`, sample a track as three.js's interpolants would, and write it
//! back in the same format and shape:
//!
//! ```
//! use std::path::Path;
//!
//! use clipscope::formats::{self, WriteOptions};
//! use clipscope::model::interpolant::Sampler;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut doc = formats::read_bytes(clipscope::assets::DEMO_CLIPS, Path::new("walk.json"))?;
//! assert_eq!(doc.format, formats::Format::ThreeJs);
//!
//! let walk = &mut doc.clips[0];
//! let report = walk.optimize();
//! assert!(report.keys_after <= report.keys_before);
//!
//! let hips = &walk.tracks[0];
//! let at_half_a_second = Sampler::new(hips).evaluate(0.5);
//! assert_eq!(at_half_a_second.len(), 3); // x, y, z
//!
//! let dir = tempfile::tempdir()?;
//! let out = dir.path().join("walk.optimized.json");
//! formats::write_file(&doc, &out, &WriteOptions::default())?;
//! let back = formats::read_file(&out)?;
//! assert_eq!(back.clips[0].key_count(), doc.clips[0].key_count());
//! # Ok(())
//! # }
//! ```

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
pub mod validate;
