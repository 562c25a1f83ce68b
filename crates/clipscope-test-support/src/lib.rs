//! Helpers for tests, written once and shared by every crate's tests (a dev-dependency), so all
//! of them find the sample data, skip and fail the same way. Its own test `tests/architecture.rs`
//! checks the workspace's architecture rules (no import cycles, small files and functions, a
//! core without GUI or terminal dependencies).
//!
//! - [`skip`]: a loud `SKIPPED` line, or a failure when an environment variable requires the
//!   missing thing (CI).
//! - [`sample_data`](mod@sample_data): the sample clip files kept outside the repository.
//! - [`rng`]: one seeded random generator for fuzz-style tests.
//! - [`sources`]: the Rust source files of a folder, for tests that scan the code.
//! - [`turn`]: rotation keys turned further, as tests edit clips.

pub mod rlottie;
pub mod rng;
pub mod sample_data;
pub mod skip;
pub mod sources;
pub mod turn;

pub use rng::Rng;
pub use sample_data::{sample_data, sample_data_root};
pub use sources::rust_sources;
