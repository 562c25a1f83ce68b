//! Telling an anim clip by content: a top-level object with `curves` and `inputs` (and
//! `outputs`); a field of another format (`tracks`, `animation`, `animations`, `asset`,
//! `layers`, `metadata`, `nodes`, `bones`) rules it out at once.

use serde::de::{IgnoredAny, MapAccess};

use crate::formats::json::Key;
use crate::formats::json::detect::{TopScan, Verdict, decided, detect_with};

/// Whether `bytes` is an anim clip (see the module docs).
pub(crate) fn detect(bytes: &[u8]) -> bool {
    detect_with(bytes, AnimClipTop)
}

/// The top-level fields that decide.
struct AnimClipTop;

impl TopScan for AnimClipTop {
    fn visit_fields<'de, A: MapAccess<'de>>(
        &self,
        mut map: A,
        verdict: &Verdict,
    ) -> Result<(), A::Error> {
        let (mut curves, mut inputs, mut outputs) = (false, false, false);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match &*key.0 {
                "tracks" | "animation" | "animations" | "asset" | "layers" | "metadata"
                | "nodes" | "bones" => return Err(decided(verdict, false)),
                "curves" => curves = true,
                "inputs" => inputs = true,
                "outputs" => outputs = true,
                _ => {}
            }
            map.next_value::<IgnoredAny>()?;
            if curves && inputs && outputs {
                return Err(decided(verdict, true));
            }
        }
        verdict.set(Some(curves && inputs));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anim_clips_and_others() {
        assert!(detect(
            br#"{"name":"a","inputs":[],"outputs":[],"curves":[]}"#
        ));
        assert!(detect(br#"{"curves":[],"inputs":[]}"#));
        assert!(!detect(br#"{"name":"a","tracks":[],"curves":[]}"#));
        assert!(!detect(br#"{"animation":{"nodes":[]}}"#));
        assert!(!detect(br#"{"inputs":[]}"#));
        assert!(!detect(br#"[{"curves":[]}]"#));
    }
}
