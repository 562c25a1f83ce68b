//! The 3D VIEWPORT: the selected clip playing on the file's own model (its meshes deformed by
//! their skins and morph targets), a cube-built character, a proxy rig of its bones or the file's
//! morph mesh, drawn by the wgpu renderer into its own offscreen target and shown as an egui
//! image. A model's bones can be drawn over it (x-ray); hovering and clicking them works either
//! way. A second clip of the same file can be blended in (cross-faded by a weight slider, or
//! added on top as an additive clip).
//!
//! Drag to orbit, middle-drag (or Shift+drag) to pan, wheel to zoom, double-click or F (while
//! the pointer is over it) to frame the character, Shift+F to frame its whole motion. A take
//! that travels (its path several times larger than the figure) opens framed on the figure, with
//! the camera following it. The panel poses the scene at the
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
//! * `picture` — the renderer's target painted as an egui texture;
//! * `art` — a Lottie composition's art (shapes, solids, precomps, masks, mattes) rasterised
//!   on the CPU and painted over its card in the front-on view.

mod art;
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
    /// Frame the whole motion on the next drawn frame (Frame all).
    frame_all_next: bool,
    /// Whether the clip shown travels: its path several times larger than the figure.
    pub travelling: bool,
    /// Draw a model's bones over it (x-ray).
    pub show_bones: bool,
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
    /// The next framing is the first of a newly shown clip (it decides [`Viewport::follow`]).
    new_clip: bool,
    /// The last framing. While the camera stays as framed, a new aspect or overlay frames again.
    framed: Option<Framing>,
    /// The part of the picture's height the overlay card covers at the top (0 to 1), as last
    /// painted; framing puts the figure below it.
    card_cover: f32,
    gpu: Option<picture::Gpu>,
    /// The other version of the clip posed as a ghost, while one is compared.
    pub ghost: ghost::Ghost,
    /// A Lottie composition's art, drawn over its card.
    art: art::Art,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            camera: Camera::default(),
            frame: FigureFrame::default(),
            frame_next: true,
            frame_all_next: false,
            travelling: false,
            show_bones: false,
            framed_for: None,
            stage: Stage::default(),
            hovered: None,
            rect: egui::Rect::NOTHING,
            flat: true,
            follow: false,
            new_clip: true,
            framed: None,
            card_cover: 0.0,
            gpu: None,
            ghost: ghost::Ghost::default(),
            art: art::Art::default(),
        }
    }
}

impl Viewport {
    /// Frames the character on the next frame (F): at the playhead when the take travels,
    /// over its whole motion otherwise.
    pub fn frame(&mut self) {
        self.frame_next = true;
    }

    /// Frames the whole motion on the next frame (Frame all, Shift+F).
    pub fn frame_all(&mut self) {
        self.frame_all_next = true;
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

    /// What the Lottie art's texture shows, when the art was drawn: `(playhead bits, player
    /// count, width, height)` (it changes when the art is drawn again).
    pub fn art_drawn(&self) -> Option<(u64, u64, u32, u32)> {
        self.art.drawn()
    }

    /// Where the picture was last drawn (screen points).
    pub fn rect(&self) -> egui::Rect {
        self.rect
    }

    /// The part of the last drawn picture that the overlay card leaves clear (screen points):
    /// where framing puts the figure.
    pub fn clear_rect(&self) -> egui::Rect {
        let mut clear = self.rect;
        clear.min.y += self.card_cover * self.rect.height();
        clear
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
            self.new_clip = true;
        }
    }

    /// Frames the camera when asked to (a new clip, F, a double-click, Frame all): on the
    /// figure at the playhead when the take travels, else (and for Frame all) on the whole
    /// motion. A new clip that travels turns following on, one that does not turns it off.
    fn frame_if_asked(&mut self, subject: Subject<'_>, aspect: f32) {
        self.reframe_if_resized(aspect);
        if !(self.frame_next || self.frame_all_next) {
            return;
        }
        let figure = self
            .stage
            .player()
            .map(|p| posing::grounded(p.figure(), Frame::framing_bounds(p.figure(), &self.frame)));
        let Some(player) = self.stage.player_mut() else {
            return;
        };
        let Some(motion) = posing::motion_bounds(player, subject.clip.duration) else {
            return;
        };
        let now = figure.flatten();
        self.travelling = now.is_some_and(|now| posing::travels(motion, now));
        let (bounds, whole) = match now {
            Some(now) if self.travelling && !self.frame_all_next => (now, false),
            _ => (motion, true),
        };
        self.camera.frame_below(bounds, aspect, self.card_cover);
        self.framed = Some(Framing {
            camera: self.camera,
            aspect,
            cover: self.card_cover,
            whole,
        });
        if self.new_clip && !self.camera.orthographic {
            self.follow = self.travelling;
        }
        self.new_clip = false;
        self.frame_next = false;
        self.frame_all_next = false;
    }
}

/// What the last framing did: the camera it set, the picture's aspect and the overlay's cover
/// then, and whether it framed the whole motion.
#[derive(Debug, Clone, Copy)]
struct Framing {
    camera: Camera,
    aspect: f32,
    cover: f32,
    whole: bool,
}

impl Viewport {
    /// Asks for the last framing again when the picture's aspect changed (the panels settling
    /// after the window opens, a resized window) or the overlay card grew or shrank, and the
    /// camera has not been moved since (following moves only its target), so what was framed
    /// stays whole and clear of the card.
    fn reframe_if_resized(&mut self, aspect: f32) {
        let Some(Framing {
            camera: framed,
            aspect: was,
            cover,
            whole: all,
        }) = self.framed
        else {
            return;
        };
        let untouched = framed.yaw == self.camera.yaw
            && framed.pitch == self.camera.pitch
            && framed.distance == self.camera.distance
            && framed.orthographic == self.camera.orthographic
            && (self.follow || framed.target == self.camera.target);
        let resized = (aspect / was.max(1e-3) - 1.0).abs() > 0.02;
        if untouched && (resized || (self.card_cover - cover).abs() > 0.02) {
            if all {
                self.frame_all_next = true;
            } else {
                self.frame_next = true;
            }
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
    let frame = figure
        .map(|f| {
            let frame = Frame::of(f, &vp.frame);
            if vp.show_bones {
                frame.with_bones(&vp.frame)
            } else {
                frame
            }
        })
        .unwrap_or_default();
    // Front-on, a composition with art shows its card with the art over it (`art`), no tiles.
    let frame = match figure {
        Some(Figure::Layers(l)) if l.has_art() && vp.camera.orthographic => Frame {
            boxes: &frame.boxes[..frame.boxes.len().min(1)],
            ..frame
        },
        _ => frame,
    };
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
    let mut art = std::mem::take(&mut vp.art);
    art::paint(ui, &mut art, vp, time, made);
    vp.art = art;
    let card = overlay::card(ui, rect, vp, subject, outbox);
    vp.card_cover = overlay::cover(rect, card);
    if let (Some(name), Some(pos)) = (&vp.hovered, response.hover_pos()) {
        overlay::bone_label(ui, name, pos);
    }
    if response.hovered() {
        overlay::hints(ui, rect);
    }
}
