//! Helpers for tests, written once: the library's unit tests use them as
//! `crate::test_support`, and the integration tests compile these same files into
//! `tests/common`, so both find the sample data, skip and fail the same way.
//!
//! - [`skip`]: a loud `SKIPPED` line, or a failure when an environment variable requires the
//!   missing thing (CI).
//! - [`sample_data`](mod@sample_data): the sample clip files kept outside the repository.
//! - [`rng`]: one seeded random generator for fuzz-style tests.
//! - [`sources`]: the Rust source files of a folder, for tests that scan the code.

pub mod rng;
pub mod sample_data;
pub mod skip;
pub mod sources;

pub use rng::Rng;
pub use sample_data::{sample_data, sample_data_root};
pub use sources::rust_sources;
