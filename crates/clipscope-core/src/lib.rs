//! clipscope-core: the clip model, the file formats, playback and the validation engine of
//! clipscope, without a window or a terminal.
//!
//! Data flows one way: file bytes → [`formats`] (the format registry) → [`formats::Document`]
//! (clips in the format-neutral [`model`]) → model operations → [`formats`] → bytes; the
//! [`playback`] mixer turns a clip and a time into a pose. [`validate`] is the engine behind
//! `clipscope validate` and the editor's validation panel. The map of the whole workspace is
//! `docs/ARCHITECTURE.md`.
//!
//! | module | what |
//! |---|---|
//! | [`model`] | Clips, tracks, interpolants and operations with three.js r187 semantics; no I/O. |
//! | [`formats`] | Reading and writing files: the format registry, one module per format, the shared JSON layer. |
//! | [`playback`] | three.js's animation mixer over a flat pose, bit for bit. |
//! | [`validate`] | The validation engine: the rule registry, config, baseline, fixes. |
//! | [`assets`] | Built-in content (the demo clips). |
//! | [`text`] | Numbers and messages written for people. |
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
//! use clipscope_core::formats::{self, WriteOptions};
//! use clipscope_core::model::interpolant::Sampler;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut doc = formats::read_bytes(clipscope_core::assets::DEMO_CLIPS, Path::new("walk.json"))?;
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
pub mod formats;
pub mod model;
pub mod playback;
pub mod text;
pub mod validate;
