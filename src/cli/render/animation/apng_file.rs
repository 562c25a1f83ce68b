//! Animated PNG: palette frames (the same patches as the GIF, blended over the frame before),
//! looping forever, each frame's delay an exact fraction of a second.

use super::gif_file::shown;
use super::palette::{Indexed, TRANSPARENT};

/// The APNG of `indexed` at `fps`.
pub(super) fn encode(indexed: &Indexed, fps: f64) -> Result<Vec<u8>, String> {
    let fail = |e: png::EncodingError| format!("cannot encode the APNG: {e}");
    let patches = shown(indexed);
    let count = indexed.frames.len();
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, indexed.width, indexed.height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(indexed.rgb_palette());
        let mut alpha = vec![255u8; 256];
        alpha[TRANSPARENT as usize] = 0;
        encoder.set_trns(alpha);
        encoder.set_compression(png::Compression::High);
        encoder
            .set_animated(patches.len() as u32, 0)
            .map_err(fail)?;
        let mut writer = encoder.write_header().map_err(fail)?;
        for (i, (start, patch)) in patches.iter().enumerate() {
            let end = patches.get(i + 1).map_or(count, |(next, _)| *next);
            let (num, den) = delay(end - start, fps);
            writer.set_frame_delay(num, den).map_err(fail)?;
            writer.reset_frame_position().map_err(fail)?;
            writer
                .set_frame_dimension(patch.width, patch.height)
                .map_err(fail)?;
            writer
                .set_frame_position(patch.left, patch.top)
                .map_err(fail)?;
            let (dispose, blend) = if indexed.see_through {
                (png::DisposeOp::Background, png::BlendOp::Source)
            } else {
                (png::DisposeOp::None, png::BlendOp::Over)
            };
            writer.set_dispose_op(dispose).map_err(fail)?;
            writer.set_blend_op(blend).map_err(fail)?;
            writer.write_image_data(&patch.indices).map_err(fail)?;
        }
        writer.finish().map_err(fail)?;
    }
    Ok(out)
}

/// `frames / fps` seconds as an APNG delay fraction: exact for whole frame rates up to
/// 65535, else in milliseconds.
fn delay(frames: usize, fps: f64) -> (u16, u16) {
    if fps.fract() == 0.0 && fps >= 1.0 && fps <= u16::MAX as f64 && frames <= u16::MAX as usize {
        (frames as u16, fps as u16)
    } else {
        let ms = (frames as f64 * 1000.0 / fps)
            .round()
            .clamp(1.0, u16::MAX as f64);
        (ms as u16, 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::delay;

    #[test]
    fn delays_are_exact_fractions() {
        assert_eq!(delay(1, 30.0), (1, 30));
        assert_eq!(delay(3, 24.0), (3, 24));
        assert_eq!(delay(1, 29.97), (33, 1000));
    }
}
