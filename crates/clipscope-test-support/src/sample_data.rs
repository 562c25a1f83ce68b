//! The sample clip files tests read (three.js, PlayCanvas, Lottie and glTF files from their
//! projects). They stay outside the repository, some being licensed for non-commercial use
//! only: `../shared/data` beside it, or wherever `CLIPSCOPE_DATA` points.

use std::path::PathBuf;

use super::skip::skip;

/// The environment variable naming the sample data folder, when it is not `../shared/data`.
pub const DATA_VAR: &str = "CLIPSCOPE_DATA";

/// The environment variable that, set to `1` (CI), turns a missing sample data folder from
/// skipped tests into failed ones.
pub const REQUIRE_DATA_VAR: &str = "CLIPSCOPE_REQUIRE_DATA";

/// The sample data folder: `$CLIPSCOPE_DATA` when set, else `../shared/data` beside the
/// repository. Whether it exists is not checked (see [`sample_data`]).
pub fn sample_data_root() -> PathBuf {
    match std::env::var_os(DATA_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    }
}

/// `rel` (e.g. `threejs/horse.json`, or a folder) inside the sample data folder; `None` after
/// a `SKIPPED` line when the folder is missing, so the test returns early, or a panic under
/// `CLIPSCOPE_REQUIRE_DATA=1`.
#[track_caller]
pub fn sample_data(rel: &str) -> Option<PathBuf> {
    let root = sample_data_root();
    if root.is_dir() {
        return Some(root.join(rel));
    }
    skip(
        REQUIRE_DATA_VAR,
        &format!(
            "the sample data folder {} is missing (set {DATA_VAR} to where it is)",
            root.display()
        ),
    );
    None
}
