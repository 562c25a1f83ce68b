//! Skipping a test that needs something this machine lacks (a GPU adapter, node packages, the
//! sample data): one loud line, or a failure where an environment variable requires it.

use std::io::Write;

/// The running test's name (the test harness names each test's thread after it).
pub fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("unnamed test")
        .to_string()
}

/// Skips the running test for `why`: prints `SKIPPED: <test>: <why>` straight to stderr, past
/// the test harness's output capture, so a plain `cargo test` shows it. Panics instead when the
/// environment variable `require` (`CLIPSCOPE_REQUIRE_GPU`, `…_NODE`, `…_DATA`) is `1`, as CI
/// sets them. The caller returns from the test after this.
#[track_caller]
pub fn skip(require: &str, why: &str) {
    let test = test_name();
    if std::env::var(require).as_deref() == Ok("1") {
        panic!("{test}: {require}=1 but {why}");
    }
    // One write, so the line does not interleave with the harness's own output.
    let line = format!("SKIPPED: {test}: {why}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
