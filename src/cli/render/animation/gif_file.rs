//! GIF89a: the frames' patches over a global palette, looping forever.

use super::palette::{Indexed, Patch, TRANSPARENT};

/// Shown patches with their start frame: identical frames lengthen the patch before them.
pub(super) fn shown(indexed: &Indexed) -> Vec<(usize, Patch)> {
    (0..indexed.frames.len())
        .filter_map(|k| indexed.patch(k).map(|p| (k, p)))
        .collect()
}

/// The GIF of `indexed` at `fps` (at most 50).
pub(super) fn encode(indexed: &Indexed, fps: f64) -> Result<Vec<u8>, String> {
    let fail = |e: gif::EncodingError| format!("cannot encode the GIF: {e}");
    let (w, h) = (side(indexed.width)?, side(indexed.height)?);
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, w, h, &indexed.rgb_palette()).map_err(fail)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
        let patches = shown(indexed);
        let count = indexed.frames.len();
        // Hundredths of a second since the start, rounded, so rounding errors do not add up.
        let at = |frame: usize| (frame as f64 * 100.0 / fps).round() as u64;
        for (i, (start, patch)) in patches.iter().enumerate() {
            let end = patches.get(i + 1).map_or(count, |(next, _)| *next);
            let delay = (at(end) - at(*start)).clamp(1, u16::MAX as u64) as u16;
            let frame = gif::Frame {
                delay,
                dispose: if indexed.see_through {
                    gif::DisposalMethod::Background
                } else {
                    gif::DisposalMethod::Keep
                },
                transparent: Some(TRANSPARENT),
                left: side(patch.left)?,
                top: side(patch.top)?,
                width: side(patch.width)?,
                height: side(patch.height)?,
                buffer: std::borrow::Cow::Borrowed(&patch.indices),
                ..gif::Frame::default()
            };
            encoder.write_frame(&frame).map_err(fail)?;
        }
    }
    Ok(out)
}

/// A size or offset as GIF stores it (16 bits).
fn side(n: u32) -> Result<u16, String> {
    u16::try_from(n).map_err(|_| format!("a GIF is at most 65535 pixels on a side, not {n}"))
}
