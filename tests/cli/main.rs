//! The `clipscope` binary as a user or a studio's CI meets it, run as a separate process:
//! commands, exit statuses, one-line errors and `validate`'s reports.
//!
//! One test binary for all of it (linking is what makes tests slow to build);
//! `cargo test --test cli validate::` runs one module.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

/// The sample data, the skip line and the random generator, shared with the unit tests (the
/// rest of `tests/common` links the library, which these tests, running the binary, do not
/// need).
use clipscope_test_support as test_support;

mod contract;
mod diff;
mod edit;
mod fidelity;
mod figures;
mod git;
mod hostile;
mod reduce;
mod saves;
mod validate;
