//! Validation: the one engine behind `clipscope validate` and the editor's validation panel.
//!
//! Errors are what three.js rejects (its `parse` throwing, or `validate()` returning false) and
//! what a format's specification forbids (for glTF, what the Khronos glTF-Validator reports as
//! errors about animation data); warnings are clipscope's advice. Every code is registered in
//! [`rules`](mod@rules) with the formats it applies to, so a rule about a three.js convention never fires
//! where the format defines otherwise.
//!
//! * [`rules`](mod@rules): the rule registry (codes, severities, formats, summaries, fixes, explanations);
//! * [`config`]: `clipscope.toml` (discovery, rule levels, tolerances, overrides by glob);
//! * [`baseline`]: known findings to suppress;
//! * [`rig`]: the node names tracks must bind to;
//! * [`engine`]: finding the files and checking them in parallel ([`engine::Plan`]), and the one
//!   function every check ends in, [`engine::check_bytes`];
//! * [`report`]: what a check says about a file;
//! * [`fix`]: `--fix`, the safe repairs applied in place;
//! * [`open_document`]: a document open in the editor, checked as the CLI checks its file;
//! * [`ValidateError`]: why a run cannot start (exit status 2), wrapping the error of the input
//!   that failed ([`ConfigError`], [`RigNodesError`], [`BaselineError`], [`FixError`]).

pub(crate) mod baseline;
pub(crate) mod config;
pub(crate) mod engine;
mod error;
pub(crate) mod fix;
pub(crate) mod open_document;
pub(crate) mod report;
pub(crate) mod rig;
pub mod rules;

pub use baseline::{Baseline, BaselineError, Entry as BaselineEntry};
pub use config::{Config, ConfigError, FileSettings, InvalidConfig, Level};
pub use engine::{CheckOptions, Plan, Progress, check_bytes};
pub use error::ValidateError;
pub use fix::{FixError, fix_files};
pub use open_document::{CheckedInput, DocumentCheck, check_open_document};
pub use report::{FileReport, Finding, Run};
pub use rig::RigNodesError;
pub use rules::{Applies, Rule, rule, rules};
