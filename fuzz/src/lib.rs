//! clipscope's fuzz targets: one per reader plus the read → write → read round trip. The
//! checks live in [`checks`], which `tests/formats/fuzz_regressions.rs` includes too, so the
//! minimised inputs in `fuzz/regressions/` run under plain `cargo test` on stable.

pub mod checks;
