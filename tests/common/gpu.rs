//! Tests that need a GPU (feature `gui`): a headless renderer where this machine has an
//! adapter (Mesa's lavapipe counts), a loud skip where it has none.

use clipscope_render::{Headless, RenderError};

/// A headless renderer for a test that draws. Where this machine has no GPU adapter at all
/// ([`RenderError::NoAdapter`]): `None` after a `SKIPPED` line, so the test returns early, or a
/// panic under `CLIPSCOPE_REQUIRE_GPU=1` (CI). Any other failure means the renderer broke and
/// fails the test.
#[track_caller]
pub fn require_gpu() -> Option<Headless> {
    match Headless::new() {
        Ok(headless) => Some(headless),
        Err(RenderError::NoAdapter) => {
            crate::test_support::skip::skip(
                "CLIPSCOPE_REQUIRE_GPU",
                &RenderError::NoAdapter.to_string(),
            );
            None
        }
        Err(e) => panic!("the GPU adapter exists but cannot render: {e}"),
    }
}
