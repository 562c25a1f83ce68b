//! The Rust source files of a folder, for tests that scan the code itself (every emitted rule
//! code registered, no format named outside its module and the registry).

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, depth first (none when `dir` cannot be read).
pub fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

/// Appends the `.rs` files below `dir` to `out`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
