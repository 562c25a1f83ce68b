//! The 3D VIEWPORT: the selected clip playing on a cube-built character, drawn by the wgpu
//! [`Renderer`] into its own offscreen target and shown as an egui image.
//!
//! Drag to orbit, middle-drag (or Shift+drag) to pan, wheel to zoom, double-click or F (while
//! the pointer is over it) to frame the character. The panel poses the scene at the
//! transport's time every frame; the renderer's GPU resources live as long as the panel. Where
//! egui runs without the wgpu renderer (tests), the panel says so instead of drawing.

use eframe::egui_wgpu::RenderState;

use std::sync::Arc;

use crate::model::Clip;
use crate::render::{Bounds, Camera, Renderer};
use crate::scene::{BoxInstance, Player, Rig, pick_rig};

/// Radians of orbit per point of pointer drag.
const ORBIT_PER_POINT: f32 = 0.008;

/// The viewport's state: camera, the boxes of the current frame and the GPU side.
pub struct Viewport {
    /// The orbit camera.
    pub camera: Camera,
    /// The boxes posed this frame.
    pub instances: Vec<BoxInstance>,
    /// Frame the character on the next drawn frame.
    frame_next: bool,
    /// The clip the camera was framed for (a new clip is framed once).
    framed_for: Option<String>,
    /// The selected clip playing on its rig, and the version of the clip it was made from.
    player: Option<(ClipVersion, Player)>,
    /// The rig the user picked: a built-in rig's name, [`PROXY`], or `None` for automatic.
    pub rig_choice: Option<String>,
    /// Tracks of the shown clip that bind to nothing on its rig (with the reason).
    pub unbound: Vec<String>,
    gpu: Option<Gpu>,
}

/// The rig picker's entry for a proxy rig made from the clip's bones.
pub const PROXY: &str = "Proxy (one box per bone)";

/// Identifies one state of one clip: `(document id, document version, clip index)`. A player
/// is rebuilt only when this changes.
pub type ClipVersion = (u64, u64, usize);

/// The renderer and the egui texture showing its target.
struct Gpu {
    renderer: Renderer,
    texture: egui::TextureId,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            camera: Camera::default(),
            instances: Vec::new(),
            frame_next: true,
            framed_for: None,
            player: None,
            rig_choice: None,
            unbound: Vec::new(),
            gpu: None,
        }
    }
}

impl Viewport {
    /// Frames the character on the next frame (F).
    pub fn frame(&mut self) {
        self.frame_next = true;
    }

    /// The player of the clip shown, if any (its rig, its unbound tracks).
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref().map(|(_, p)| p)
    }
}

/// Poses `clip` at `time` and draws it into the rest of `ui`.
pub fn show(
    ui: &mut egui::Ui,
    vp: &mut Viewport,
    render_state: Option<&RenderState>,
    clip: Option<(ClipVersion, &Clip)>,
    time: f64,
) {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    let Some((version, clip)) = clip else {
        vp.player = None;
        empty(ui, rect, "Select a clip to see it play here.");
        return;
    };
    if vp.player.as_ref().is_none_or(|(v, _)| *v != version) {
        let rig = rig_for(clip, vp.rig_choice.as_deref());
        let player = Player::new(Arc::new(clip.clone()), rig);
        vp.unbound = player
            .unbound_tracks()
            .into_iter()
            .map(|u| format!("{}: {}", u.track, u.reason))
            .collect();
        vp.player = Some((version, player));
    }
    if let Some((_, player)) = &mut vp.player {
        player.instances_at(time, &mut vp.instances);
    }
    if vp.framed_for.as_deref() != Some(clip.name.as_str()) {
        vp.framed_for = Some(clip.name.clone());
        vp.frame_next = true;
    }
    navigate(ui, &response, vp);
    if vp.frame_next
        && let Some(bounds) = Bounds::of_instances(&vp.instances)
    {
        vp.camera
            .frame_aspect(bounds, rect.width() / rect.height().max(1.0));
        vp.frame_next = false;
    }
    let Some(rs) = render_state else {
        empty(ui, rect, "3D viewport (needs the wgpu renderer)");
        return;
    };
    let ppp = ui.ctx().pixels_per_point();
    let (w, h) = (
        ((rect.width() * ppp).round() as u32).max(1),
        ((rect.height() * ppp).round() as u32).max(1),
    );
    let gpu = vp.gpu.get_or_insert_with(|| {
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
    gpu.renderer
        .render(&rs.device, &rs.queue, &vp.camera, &vp.instances);
    ui.painter().image(
        gpu.texture,
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    overlay(ui, rect, vp);
    if response.hovered() {
        ui.painter().text(
            rect.left_bottom() + egui::vec2(8.0, -6.0),
            egui::Align2::LEFT_BOTTOM,
            "drag: orbit · Shift/middle-drag: pan · wheel: zoom · F: frame",
            egui::FontId::proportional(11.0),
            egui::Color32::from_black_alpha(140),
        );
    }
}

/// The rig for `clip`: the user's choice, or the built-in rig it matches, or a proxy.
fn rig_for(clip: &Clip, choice: Option<&str>) -> Rig {
    match choice {
        Some(PROXY) => Rig::proxy(clip, None),
        Some(name) => Rig::builtin(name)
            .cloned()
            .unwrap_or_else(|| pick_rig(clip, Rig::builtins())),
        None => pick_rig(clip, Rig::builtins()),
    }
}

/// The rig picker and the unbound-track note, over the picture's top-left corner.
fn overlay(ui: &mut egui::Ui, rect: egui::Rect, vp: &mut Viewport) {
    let area = egui::Rect::from_min_size(rect.min + egui::vec2(8.0, 8.0), egui::vec2(320.0, 48.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        ui.horizontal(|ui| {
            let current = vp
                .player()
                .map(|p| p.rig().name.clone())
                .unwrap_or_default();
            let label = ui.label(egui::RichText::new("Rig").color(egui::Color32::from_gray(60)));
            let mut choice = vp.rig_choice.clone();
            let shown = match &choice {
                None => format!("Auto ({current})"),
                Some(name) => name.clone(),
            };
            egui::ComboBox::from_id_salt("rig picker")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut choice, None, "Auto (best match)");
                    for rig in Rig::builtins() {
                        ui.selectable_value(&mut choice, Some(rig.name.clone()), &rig.name);
                    }
                    ui.selectable_value(&mut choice, Some(PROXY.to_string()), PROXY);
                })
                .response
                .labelled_by(label.id);
            if choice != vp.rig_choice {
                vp.rig_choice = choice;
                vp.player = None;
                vp.frame_next = true;
            }
        });
        if !vp.unbound.is_empty() {
            let n = vp.unbound.len();
            let text = format!(
                "{n} track{} bind to nothing on this rig",
                if n == 1 { "" } else { "s" }
            );
            ui.label(
                egui::RichText::new(text)
                    .small()
                    .color(egui::Color32::from_rgb(150, 80, 30)),
            )
            .on_hover_text(vp.unbound.join("\n"));
        }
    });
}

/// Orbit, pan, zoom and framing from the pointer and keys.
fn navigate(ui: &egui::Ui, response: &egui::Response, vp: &mut Viewport) {
    let height = response.rect.height().max(1.0);
    let shift = ui.input(|i| i.modifiers.shift);
    if response.dragged_by(egui::PointerButton::Middle)
        || (shift && response.dragged_by(egui::PointerButton::Primary))
    {
        let d = response.drag_delta();
        vp.camera.pan(d.x / height, d.y / height);
    } else if response.dragged_by(egui::PointerButton::Primary) {
        let d = response.drag_delta();
        vp.camera
            .orbit(d.x * ORBIT_PER_POINT, d.y * ORBIT_PER_POINT);
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            vp.camera.zoom((-scroll * 0.002).exp());
        }
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F)) {
            vp.frame_next = true;
        }
    }
    if response.double_clicked() {
        vp.frame_next = true;
    }
}

/// The panel without a picture: a soft backdrop and a line of text.
fn empty(ui: &egui::Ui, rect: egui::Rect, text: &str) {
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
