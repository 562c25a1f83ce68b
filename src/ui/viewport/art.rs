//! A Lottie composition's art over the viewport's card, front-on: the composition's
//! [`Picture`](clipscope_core::model::picture::Picture) at the playhead rasterised on the CPU
//! (a kept `clipscope_render::Rasteriser`, vello_cpu) at the card's size on screen and
//! painted as an egui texture over it. Drawn again only when the playhead, the player (an
//! edit makes a new one) or the card's size changes.

use clipscope_scene::{Figure, LayerFigure};

/// The largest side of the art's texture, in pixels.
const MAX_SIDE: f32 = 4096.0;

/// The art's texture and what it shows.
#[derive(Default)]
pub(super) struct Art {
    texture: Option<egui::TextureHandle>,
    /// Playhead bits, player count, width, height of what the texture holds.
    drawn: Option<(u64, u64, u32, u32)>,
    /// Kept between frames: vello_cpu's context, its image and the images' pixels.
    rasteriser: clipscope_render::Rasteriser,
}

impl Art {
    /// What the texture holds: playhead bits, player count, width, height.
    pub(super) fn drawn(&self) -> Option<(u64, u64, u32, u32)> {
        self.drawn
    }
}

/// Paints `figure`'s art at `time` over the card, when the view is front-on and the figure
/// has art; `players_made` tells a new player (an edit) from the old one.
pub(super) fn paint(
    ui: &egui::Ui,
    art: &mut Art,
    vp: &super::Viewport,
    time: f64,
    players_made: u64,
) {
    let Some(Figure::Layers(layers)) = vp.player().map(clipscope_scene::Player::figure) else {
        return;
    };
    if !layers.has_art() || !vp.camera.orthographic {
        return;
    }
    let Some(rect) = card_rect(vp, layers) else {
        return;
    };
    let ppp = ui.ctx().pixels_per_point();
    let (w, h) = (
        (rect.width() * ppp).round().clamp(1.0, MAX_SIDE) as u32,
        (rect.height() * ppp).round().clamp(1.0, MAX_SIDE) as u32,
    );
    let key = (time.to_bits(), players_made, w, h);
    if art.drawn != Some(key) || art.texture.is_none() {
        let Some(picture) = layers.picture(time) else {
            return;
        };
        let view = clipscope_render::fit_view(&picture, w, h);
        let rgba = art.rasteriser.premultiplied(&picture, w, h, &view);
        let image = egui::ColorImage::from_rgba_premultiplied([w as usize, h as usize], rgba);
        match &mut art.texture {
            Some(t) => t.set(image, egui::TextureOptions::LINEAR),
            None => {
                art.texture = Some(ui.ctx().load_texture(
                    "lottie-art",
                    image,
                    egui::TextureOptions::LINEAR,
                ));
            }
        }
        art.drawn = Some(key);
    }
    if let Some(t) = &art.texture {
        let clipped = ui.painter().with_clip_rect(vp.rect());
        clipped.image(
            t.id(),
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }
}

/// Where the composition card is on screen.
fn card_rect(vp: &super::Viewport, layers: &LayerFigure) -> Option<egui::Rect> {
    let [a, b] = layers.card_corners();
    let (p, q) = (vp.screen_pos(a)?, vp.screen_pos(b)?);
    let rect = egui::Rect::from_two_pos(p, q);
    (rect.width() >= 1.0 && rect.height() >= 1.0).then_some(rect)
}
