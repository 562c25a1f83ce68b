//! lottie-web's picture of a Lottie file: `tests/conformance/lottie_frame.mjs` runs lottie-web
//! (the format's reference player, npm `lottie-web`) with its SVG renderer in jsdom, sends it
//! `goToAndStop(frame, true)` and rasterises the SVG it built with resvg (npm
//! `@resvg/resvg-js`). The reference the art is compared with where rlottie is not, and a
//! second opinion everywhere else.
//!
//! Needs node and `npm ci` in `tests/conformance`; without them [`frames`] prints `SKIPPED`
//! (a failure under `CLIPSCOPE_REQUIRE_NODE=1`, as `.ci/run` sets).

use std::path::Path;
use std::process::Command;

use crate::common::node_package;
use crate::test_support::skip::skip;

/// Frames `frames` (counted from the composition's `ip`, as rlottie counts) of `file` drawn by
/// lottie-web at `w` × `h`, each as straight RGBA8 rows. Drawn by its player without the
/// expressions plugin: clipscope draws what the keys play and lists expressions as not
/// evaluated. `None` after a `SKIPPED` line when node or the packages are missing.
pub fn frames(file: &Path, frames: &[u32], (w, h): (u32, u32)) -> Option<Vec<Vec<u8>>> {
    let conformance = node_package("lottie-web")?;
    node_package("@resvg/resvg-js")?;
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new("node")
        .arg("lottie_frame.mjs")
        .args(["--size", &format!("{w}x{h}")])
        .arg(file)
        .arg(dir.path())
        .args(frames.iter().map(u32::to_string))
        .current_dir(&conformance)
        .output();
    let out = match run {
        Ok(out) => out,
        Err(e) => {
            skip("CLIPSCOPE_REQUIRE_NODE", &format!("cannot run node: {e}"));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "lottie-web could not draw {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        frames
            .iter()
            .map(|f| {
                let img = image::open(dir.path().join(format!("{f}.png")))
                    .unwrap()
                    .to_rgba8();
                assert_eq!(img.dimensions(), (w, h), "lottie-web's frame {f}");
                img.into_raw()
            })
            .collect(),
    )
}
