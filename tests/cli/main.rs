//! The `clipscope` binary as a user or a studio's CI meets it, run as a separate process:
//! commands, exit statuses, one-line errors and `validate`'s reports.
//!
//! One test binary for all of it (linking is what makes tests slow to build);
//! `cargo test --test cli validate::` runs one module.

mod contract;
mod validate;
