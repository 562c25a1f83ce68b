//! `render` of a Lottie composition's art (`--view front`, the default for Lottie): each
//! frame is the composition's [`Picture`](clipscope_core::model::picture::Picture) rasterised
//! on the CPU (`clipscope_render::rasterise`, vello_cpu), no GPU needed. The composition is
//! scaled to fit the frame and centred, so `--size` equal to the composition's size maps its
//! pixels 1:1 onto the image's and nothing outside it is drawn; `--transparent` leaves the
//! background transparent (alpha is coverage), otherwise it is the composition card's warm
//! off-white.

use clipscope_scene::LayerFigure;

/// The background of an opaque render (straight sRGB8): the viewport's composition card.
const CARD: [u8; 3] = [234, 230, 222];

/// `figure`'s art at `times`, `width` × `height`, as images.
pub fn frames(
    figure: &LayerFigure,
    times: &[f64],
    (width, height): (u32, u32),
    transparent: bool,
) -> Result<Vec<image::RgbaImage>, String> {
    times
        .iter()
        .map(|&t| {
            let picture = figure
                .picture(t)
                .ok_or("the composition's art cannot be drawn")?;
            let view = clipscope_render::fit_view(&picture, width, height);
            let mut rgba = clipscope_render::rasterise(&picture, width, height, &view);
            if !transparent {
                for p in rgba.chunks_exact_mut(4) {
                    let a = u16::from(p[3]);
                    for (c, bg) in p.iter_mut().zip(CARD) {
                        *c = ((u16::from(*c) * a + u16::from(bg) * (255 - a) + 127) / 255) as u8;
                    }
                    p[3] = 255;
                }
            }
            image::RgbaImage::from_raw(width, height, rgba)
                .ok_or_else(|| format!("--size {width}x{height} is too large to draw"))
        })
        .collect()
}
