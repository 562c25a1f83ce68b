//! The viewport's picture: the wgpu [`Renderer`] drawing into its own offscreen target,
//! registered with egui-wgpu as a texture and painted over the panel; or, without a picture, a
//! soft backdrop with a line of text.

use eframe::egui_wgpu::RenderState;

use clipscope_render::{Camera, Frame, Renderer};

/// The renderer and the egui texture showing its target.
pub(super) struct Gpu {
    renderer: Renderer,
    texture: egui::TextureId,
}

/// Renders `frame` into the panel's own target and paints it over `rect`.
pub(super) fn draw(
    ui: &egui::Ui,
    rect: egui::Rect,
    gpu: &mut Option<Gpu>,
    rs: &RenderState,
    camera: &Camera,
    frame: &Frame<'_>,
) {
    let ppp = ui.ctx().pixels_per_point();
    let (w, h) = (
        ((rect.width() * ppp).round() as u32).max(1),
        ((rect.height() * ppp).round() as u32).max(1),
    );
    let gpu = gpu.get_or_insert_with(|| {
        let renderer = Renderer::new(&rs.device, w, h);
        let texture = rs.renderer.write().register_native_texture(
            &rs.device,
            renderer.view(),
            wgpu::FilterMode::Linear,
        );
        Gpu { renderer, texture }
    });
    if gpu.renderer.size() != (w, h) {
        gpu.renderer.resize(&rs.device, w, h);
        rs.renderer.write().update_egui_texture_from_wgpu_texture(
            &rs.device,
            gpu.renderer.view(),
            wgpu::FilterMode::Linear,
            gpu.texture,
        );
    }
    gpu.renderer.render(&rs.device, &rs.queue, camera, frame);
    ui.painter().image(
        gpu.texture,
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
}

/// The panel without a picture: a soft backdrop and a line of text.
pub(super) fn empty(ui: &egui::Ui, rect: egui::Rect, text: &str) {
    let painter = ui.painter();
    painter.rect_filled(rect, 6.0, ui.visuals().extreme_bg_color);
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(15.0),
        ui.visuals().weak_text_color(),
    );
}
