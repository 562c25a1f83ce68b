//! The 3D VIEWPORT: the selected clip playing on a cube-built character, a proxy rig of its
//! bones or the file's morph mesh, drawn by the wgpu renderer into its own offscreen target
//! and shown as an egui image. A second clip of the same file can be blended in (cross-faded by
//! a weight slider, or added on top as an additive clip).
//!
//! Drag to orbit, middle-drag (or Shift+drag) to pan, wheel to zoom, double-click or F (while
//! the pointer is over it) to frame the character. The panel poses the scene at the
//! transport's time every frame; the renderer's GPU resources live as long as the panel. Where
//! egui runs without the wgpu renderer (tests), the panel says so instead of drawing.
//!
//! The files split the panel by concern:
//!
//! * `stage` — which figure the clip plays on and the player posing it: kept, followed after a
//!   key edit, or made anew (plain Rust, no egui);
//! * `figures` — the rigs made from open documents' skeletons and picked model files (cached);
//! * `subject` — what the app asks the viewport to show;
//! * `posing` — highlighted bones and the bounds of the whole motion, for framing;
//! * `controls` — orbit, pan, zoom, framing keys and picking the bone under the pointer;
//! * `ghost` — another version of the clip posed on the same figure in pale blue (the compare
//!   view);
//! * `overlay` — the card of figure and blend controls, the bone label and the hints;
//! * `picture` — the renderer's target painted as an egui texture.

mod controls;
mod figures;
mod ghost;
mod overlay;
mod picture;
mod posing;
mod stage;
mod subject;

use eframe::egui_wgpu::RenderState;

use clipscope_render::{Camera, Frame};
use clipscope_scene::{Figure, FigureFrame, Player};

use crate::ui::outbox::Outbox;

pub use figures::Figures;
pub use stage::{Blend, Stage};
pub use subject::{ClipVersion, Subject};

/// The viewport's state: camera, the stage (figure, player, blending), the current frame and
/// the GPU side.
pub struct Viewport {
    /// The orbit camera.
    pub camera: Camera,
    /// The figure posed this frame (boxes of a rig, or a mesh's target weights).
    pub frame: FigureFrame,
    /// Frame the character on the next drawn frame.
    frame_next: bool,
    /// The clip the camera was framed for (a new clip is framed once).
    framed_for: Option<String>,
    /// The clip shown, the figure it plays on, its player and the blend.
    pub stage: Stage,
    /// The bone under the pointer, by name.
    pub hovered: Option<String>,
    /// Where the picture was last drawn.
    rect: egui::Rect,
    /// Show a Lottie composition front-on in a flat (orthographic) view; off: the 3D view.
    pub flat: bool,
    /// Keep the camera on a travelling figure (its target follows the figure over the ground).
    pub follow: bool,
    gpu: Option<picture::Gpu>,
    /// The other version of the clip posed as a ghost, while one is compared.
    pub ghost: ghost::Ghost,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            camera: Camera::default(),
            frame: FigureFrame::default(),
            frame_next: true,
            framed_for: None,
            stage: Stage::default(),
            hovered: None,
            rect: egui::Rect::NOTHING,
            flat: true,
            follow: false,
            gpu: None,
            ghost: ghost::Ghost::default(),
        }
    }
}

impl Viewport {
    /// Frames the character on the next frame (F).
    pub fn frame(&mut self) {
        self.frame_next = true;
    }

    /// Where the world point `world` is in the last drawn picture (screen points), if in front
    /// of the camera.
    pub fn screen_pos(&self, world: glam::Vec3) -> Option<egui::Pos2> {
        let rect = self.rect;
        let aspect = rect.width() / rect.height().max(1.0);
        let clip = self.camera.view_projection(aspect) * world.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(egui::pos2(
            rect.left() + (ndc.x + 1.0) * 0.5 * rect.width(),
            rect.top() + (1.0 - ndc.y) * 0.5 * rect.height(),
        ))
    }

    /// Where the picture was last drawn (screen points).
    pub fn rect(&self) -> egui::Rect {
        self.rect
    }

    /// The player of the clip shown, if any (its figure, its unbound tracks).
    pub fn player(&self) -> Option<&Player> {
        self.stage.player()
    }

    /// Poses `subject` at `time` into [`Viewport::frame`], its shown tracks' bones highlighted.
    fn pose(&mut self, subject: Subject<'_>, time: f64) {
        self.stage.show(subject);
        if let Some(player) = self.stage.player_mut() {
            player.frame_at(time, &mut self.frame);
            if let (Some(rig), Some(selected)) = (player.rig(), subject.selected) {
                posing::highlight(rig, subject.clip, selected, &mut self.frame.boxes);
            }
        }
    }

    /// Turns the camera front-on and flat for a Lottie composition (back to 3D otherwise), and
    /// asks for framing when the view or the clip changed.
    fn choose_view(&mut self, subject: Subject<'_>) {
        // A Lottie composition reads front-on and flat (unless the 3D view is asked for).
        let layers = matches!(self.player().map(Player::figure), Some(Figure::Layers(_)));
        let flat = layers && self.flat;
        if flat != self.camera.orthographic {
            let default = Camera::default();
            self.camera.orthographic = flat;
            (self.camera.yaw, self.camera.pitch) = if flat {
                (0.0, 0.0)
            } else {
                (default.yaw, default.pitch)
            };
            self.frame_next = true;
        }
        if self.framed_for.as_deref() != Some(subject.clip.name.as_str()) {
            self.framed_for = Some(subject.clip.name.clone());
            self.frame_next = true;
        }
    }

    /// Frames the whole motion of the clip when asked to (a new clip, F, a double-click).
    fn frame_if_asked(&mut self, subject: Subject<'_>, aspect: f32) {
        if self.frame_next
            && let Some(player) = self.stage.player_mut()
            && let Some(bounds) = posing::motion_bounds(player, subject.clip.duration)
        {
            self.camera.frame_aspect(bounds, aspect);
            self.frame_next = false;
        }
    }
}

/// Poses `subject` at `time` and draws it into the rest of `ui`.
pub fn show(
    ui: &mut egui::Ui,
    vp: &mut Viewport,
    render_state: Option<&RenderState>,
    subject: Option<Subject<'_>>,
    time: f64,
    outbox: &mut Outbox,
) {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    vp.rect = rect;
    let Some(subject) = subject else {
        vp.stage.clear();
        picture::empty(ui, rect, "Select a clip to see it play here.");
        return;
    };
    vp.pose(subject, time);
    let made = vp.stage.players_made;
    vp.ghost
        .pose(subject, vp.stage.player().map(|p| (p, made)), time);
    vp.choose_view(subject);
    controls::navigate(ui, &response, vp);
    controls::hover_and_click(&response, vp, outbox);
    let aspect = rect.width() / rect.height().max(1.0);
    vp.frame_if_asked(subject, aspect);
    let figure = vp.stage.player().map(Player::figure);
    let frame = figure.map(|f| Frame::of(f, &vp.frame)).unwrap_or_default();
    let with_ghost;
    let frame = if vp.ghost.boxes.is_empty() {
        frame
    } else {
        with_ghost = [frame.boxes, &vp.ghost.boxes].concat();
        Frame {
            boxes: &with_ghost,
            ..frame
        }
    };
    if vp.follow
        && !vp.camera.orthographic
        && let Some(now) = frame.bounds()
    {
        // Keep a travelling figure in the middle: the target follows it over the ground.
        let centre = now.centre();
        vp.camera.target.x = centre.x;
        vp.camera.target.z = centre.z;
    }
    match render_state {
        Some(rs) => picture::draw(ui, rect, &mut vp.gpu, rs, &vp.camera, &frame),
        None => picture::empty(ui, rect, "3D viewport (needs the wgpu renderer)"),
    }
    overlay::card(ui, rect, vp, subject, outbox);
    if let (Some(name), Some(pos)) = (&vp.hovered, response.hover_pos()) {
        overlay::bone_label(ui, name, pos);
    }
    if response.hovered() {
        overlay::hints(ui, rect);
    }
}
