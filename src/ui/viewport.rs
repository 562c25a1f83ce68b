//! The 3D VIEWPORT: the selected clip playing on a cube-built character, a proxy rig of its
//! bones or the file's morph mesh, drawn by the wgpu [`Renderer`] into its own offscreen target
//! and shown as an egui image. A second clip of the same file can be blended in (cross-faded by
//! a weight slider, or added on top as an additive clip).
//!
//! Drag to orbit, middle-drag (or Shift+drag) to pan, wheel to zoom, double-click or F (while
//! the pointer is over it) to frame the character. The panel poses the scene at the
//! transport's time every frame; the renderer's GPU resources live as long as the panel. Where
//! egui runs without the wgpu renderer (tests), the panel says so instead of drawing.

use eframe::egui_wgpu::RenderState;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::ui::files::FileTarget;
use crate::ui::outbox::{AppCommand, Outbox};
use clipscope_core::model::{Clip, Skeleton};
use clipscope_render::{Camera, Frame, Renderer};
use clipscope_scene::{
    Figure, FigureFrame, FigureReport, FigureSource, Layer, LayerMode, Player, Rig, figure,
    skeleton_rig,
};

/// Radians of orbit per point of pointer drag.
const ORBIT_PER_POINT: f32 = 0.008;

/// The viewport's state: camera, figure choice, blending, the current frame and the GPU side.
pub struct Viewport {
    /// The orbit camera.
    pub camera: Camera,
    /// The figure posed this frame (boxes of a rig, or a mesh's target weights).
    pub frame: FigureFrame,
    /// Frame the character on the next drawn frame.
    frame_next: bool,
    /// The clip the camera was framed for (a new clip is framed once).
    framed_for: Option<String>,
    /// The selected clip playing on its figure, and what it was made from.
    player: Option<(PlayerKey, Player)>,
    /// The figure the user picked for the clip shown: a built-in rig's name, an open
    /// document's or a picked file's figure, [`figure::PROXY`], [`figure::NAMES`],
    /// [`figure::MESH`], …, or `None` for automatic.
    pub rig_choice: Option<String>,
    /// The choice remembered for each clip, by (document id, clip name).
    choices: HashMap<(u64, String), Option<String>>,
    /// The clip `rig_choice` belongs to.
    choice_for: Option<(u64, String)>,
    /// The figures of open documents and of model files picked from disk.
    pub figures: Figures,
    /// What the shown clip plays on and how much of it binds.
    pub report: Option<FigureReport>,
    /// The bone under the pointer, by name.
    pub hovered: Option<String>,
    /// Where the picture was last drawn.
    rect: egui::Rect,
    /// How many players were made (an edit of keys is followed without a new one).
    pub players_made: u64,
    /// Show a Lottie composition front-on in a flat (orthographic) view; off: the 3D view.
    pub flat: bool,
    /// Keep the camera on a travelling figure (its target follows the figure over the ground).
    pub follow: bool,
    /// A second clip of the same file blended with the shown one.
    pub blend: Blend,
    /// Tracks of the shown clips that bind to nothing on the figure (with the reason).
    pub unbound: Vec<String>,
    /// Why the chosen figure could not be used, if it could not.
    pub figure_error: Option<String>,
    gpu: Option<Gpu>,
}

/// Figures other than the built-in ones: every open document's skeleton, models picked from
/// disk, and the companion model of each document's file.
#[derive(Default)]
pub struct Figures {
    /// (document id, bones) the open documents' figures were made for.
    made_for: Vec<(u64, usize)>,
    /// Open documents' figures, then picked files' figures.
    all: Vec<Rig>,
    /// How many of `all` come from open documents.
    open: usize,
    /// The companion model of each document, by id (looked for once).
    companions: HashMap<u64, Option<Rig>>,
}

impl Figures {
    /// Makes figures for the skeletons of `docs` (id, title, skeleton), when the documents or
    /// their skeletons changed.
    pub fn refresh<'a>(
        &mut self,
        docs: impl Iterator<Item = (u64, &'a str, Option<&'a Skeleton>)>,
    ) {
        let docs: Vec<_> = docs.collect();
        let key: Vec<(u64, usize)> = docs
            .iter()
            .map(|(id, _, s)| (*id, s.map_or(0, |s| s.bones.len())))
            .collect();
        if key == self.made_for {
            return;
        }
        let picked = self.all.split_off(self.open);
        self.all.clear();
        for (_, title, skeleton) in docs {
            if let Some(rig) = skeleton.and_then(|s| Rig::from_skeleton(title, s)) {
                self.push(rig);
            }
        }
        self.open = self.all.len();
        for rig in picked {
            self.push(rig);
        }
        self.made_for = key;
    }

    /// Adds a figure read from a file picked from disk and returns its name.
    pub fn add_file(&mut self, path: &Path) -> Result<String, String> {
        let rig = Rig::from_file(path)?;
        Ok(self.push(rig))
    }

    /// Adds `rig` under a name no other figure has; returns the name.
    fn push(&mut self, mut rig: Rig) -> String {
        let base = rig.name.clone();
        let mut n = 2;
        while self.all.iter().any(|r| r.name == rig.name)
            || Rig::builtin(&rig.name).is_some()
            || rig.parts.iter().any(|p| p.name == rig.name)
        {
            rig.name = format!("{base} ({n})");
            n += 1;
        }
        let name = rig.name.clone();
        self.all.push(rig);
        name
    }

    /// Every figure: open documents' skeletons, then picked files.
    pub fn all(&self) -> &[Rig] {
        &self.all
    }

    /// The companion model of document `id` read from `path` (looked for once per document).
    fn companion(&mut self, id: u64, path: Option<&Path>, has_skeleton: bool) -> Option<&Rig> {
        self.companions
            .entry(id)
            .or_insert_with(|| {
                path.filter(|_| !has_skeleton)
                    .and_then(skeleton_rig::companion_model)
            })
            .as_ref()
    }
}

/// The second clip blended with the shown one (see [`clipscope_scene::Layer`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Blend {
    /// The name of the clip (in the same file), or `None` for no blending.
    pub clip: Option<String>,
    /// Cross-fade or additive.
    pub mode: LayerMode,
    /// The second clip's weight, 0–1.
    pub weight: f64,
}

impl Default for Blend {
    fn default() -> Self {
        Blend {
            clip: None,
            mode: LayerMode::CrossFade,
            weight: 0.5,
        }
    }
}

/// What the viewport shows: the selected clip, the other clips of its file (to blend with) and
/// the file's mesh and bones (to play on).
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// Which state of which clip this is.
    pub version: ClipVersion,
    /// The clip to play.
    pub clip: &'a Clip,
    /// Every clip of the clip's file.
    pub clips: &'a [Clip],
    /// The file's morph mesh and skeleton.
    pub source: FigureSource<'a>,
    /// The figure to play on regardless of the picker (a procedural cycle's rig), if any.
    pub figure: Option<&'a str>,
    /// The document's file, where its companion model is looked for.
    pub path: Option<&'a Path>,
    /// The clip's tracks shown in the curve editor: their bones are highlighted.
    pub selected: Option<&'a std::collections::BTreeSet<usize>>,
    /// The open document the clip belongs to: a new version that only changed keys of some
    /// tracks is followed track by track ([`Player::update_tracks`]).
    pub document: Option<&'a clipscope_editor::OpenDocument>,
}

/// Identifies one state of one clip: `(document id, document version, clip index)`.
pub type ClipVersion = (u64, u64, usize);

/// What a player was built from; it is rebuilt when any part changes (a weight change alone
/// only re-weights it).
#[derive(Debug, Clone, PartialEq)]
struct PlayerKey {
    version: ClipVersion,
    rig_choice: Option<String>,
    blend_clip: Option<String>,
    blend_mode: LayerMode,
}

/// The renderer and the egui texture showing its target.
struct Gpu {
    renderer: Renderer,
    texture: egui::TextureId,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            camera: Camera::default(),
            frame: FigureFrame::default(),
            frame_next: true,
            framed_for: None,
            player: None,
            rig_choice: None,
            choices: HashMap::new(),
            choice_for: None,
            figures: Figures::default(),
            report: None,
            hovered: None,
            rect: egui::Rect::NOTHING,
            players_made: 0,
            flat: true,
            follow: false,
            blend: Blend::default(),
            unbound: Vec::new(),
            figure_error: None,
            gpu: None,
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
        self.player.as_ref().map(|(_, p)| p)
    }

    /// Makes sure the player plays `subject` on the chosen figure with the chosen blend.
    fn update_player(&mut self, subject: Subject<'_>) {
        let clip_key = (subject.version.0, subject.clip.name.clone());
        if self.choice_for.as_ref() != Some(&clip_key) {
            if let Some(old) = self.choice_for.take() {
                self.choices.insert(old, self.rig_choice.clone());
            }
            self.rig_choice = self.choices.get(&clip_key).cloned().flatten();
            self.choice_for = Some(clip_key);
        }
        let choice = subject
            .figure
            .map(str::to_string)
            .or_else(|| self.rig_choice.clone());
        let key = PlayerKey {
            version: subject.version,
            rig_choice: choice.clone(),
            blend_clip: self.blend.clip.clone(),
            blend_mode: self.blend.mode,
        };
        // An edit of some tracks' keys: the player follows those tracks, nothing is rebound.
        if let (Some((old, player)), Some(doc)) = (&mut self.player, subject.document)
            && old.version != key.version
            && old.version.0 == key.version.0
            && old.version.2 == key.version.2
            && (PlayerKey {
                version: key.version,
                ..old.clone()
            }) == key
            && let Some(changed) = doc.tracks_changed_since(old.version.1, key.version.2)
            && player.update_tracks(subject.clip, &changed)
        {
            old.version = key.version;
        }
        if self.player.as_ref().is_some_and(|(k, _)| *k == key) {
            if let Some((_, player)) = &mut self.player
                && let Some(layer) = player.layer()
            {
                let layer = Layer {
                    weight: self.blend.weight,
                    ..layer.clone()
                };
                player.set_layer(Some(layer));
            }
            return;
        }
        let has_skeleton = subject.source.skeleton.is_some();
        let companion = self
            .figures
            .companion(subject.version.0, subject.path, has_skeleton)
            .cloned();
        let source = FigureSource {
            others: self.figures.all(),
            companion: companion.as_ref(),
            ..subject.source
        };
        let (figure, error) = match Figure::for_clip(subject.clip, source, choice.as_deref()) {
            Ok(figure) => (figure, None),
            Err(e) => (
                Figure::for_clip(subject.clip, source, None)
                    .unwrap_or_else(|_| Figure::Rig(Rig::proxy(subject.clip, None))),
                Some(e),
            ),
        };
        self.figure_error = error;
        self.players_made += 1;
        let mut player = Player::on(Arc::new(subject.clip.clone()), figure);
        let second = self.blend.clip.as_ref().and_then(|name| {
            subject
                .clips
                .iter()
                .enumerate()
                .find(|(i, c)| c.name == *name && *i != subject.version.2)
        });
        match second {
            Some((_, clip)) => player.set_layer(Some(Layer {
                clip: Arc::new(clip.clone()),
                mode: self.blend.mode,
                weight: self.blend.weight,
            })),
            None => self.blend.clip = None,
        }
        self.report = Some(player.report());
        self.unbound = player
            .unbound_tracks()
            .into_iter()
            .map(|u| format!("{}: {}", u.track, u.reason))
            .collect();
        let key = PlayerKey {
            blend_clip: self.blend.clip.clone(),
            ..key
        };
        self.player = Some((key, player));
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
        vp.player = None;
        empty(ui, rect, "Select a clip to see it play here.");
        return;
    };
    vp.update_player(subject);
    if let Some((_, player)) = &mut vp.player {
        player.frame_at(time, &mut vp.frame);
        if let (Some(rig), Some(selected)) = (player.rig(), subject.selected) {
            highlight(rig, subject.clip, selected, &mut vp.frame.boxes);
        }
    }
    // A Lottie composition reads front-on and flat (unless the 3D view is asked for).
    let layers = matches!(vp.player().map(Player::figure), Some(Figure::Layers(_)));
    let flat = layers && vp.flat;
    if flat != vp.camera.orthographic {
        let default = Camera::default();
        vp.camera.orthographic = flat;
        (vp.camera.yaw, vp.camera.pitch) = if flat {
            (0.0, 0.0)
        } else {
            (default.yaw, default.pitch)
        };
        vp.frame_next = true;
    }
    if vp.framed_for.as_deref() != Some(subject.clip.name.as_str()) {
        vp.framed_for = Some(subject.clip.name.clone());
        vp.frame_next = true;
    }
    navigate(ui, &response, vp);
    hover_and_click(&response, vp, outbox);
    let aspect = rect.width() / rect.height().max(1.0);
    if vp.frame_next
        && let Some((_, player)) = &mut vp.player
        && let Some(bounds) = motion_bounds(player, subject.clip.duration)
    {
        vp.camera.frame_aspect(bounds, aspect);
        vp.frame_next = false;
    }
    let figure = vp.player.as_ref().map(|(_, p)| p.figure());
    let frame = figure.map(|f| Frame::of(f, &vp.frame)).unwrap_or_default();
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
        Some(rs) => draw(ui, rect, &mut vp.gpu, rs, &vp.camera, &frame),
        None => empty(ui, rect, "3D viewport (needs the wgpu renderer)"),
    }
    overlay(ui, rect, vp, subject, outbox);
    if let (Some(name), Some(pos)) = (&vp.hovered, response.hover_pos()) {
        bone_label(ui, name, pos);
    }
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

/// How many moments of a clip [`motion_bounds`] poses.
const FRAMING_SAMPLES: u32 = 24;

/// The bounds of everything `player`'s figure does over the clip (`duration` seconds, sampled
/// at [`FRAMING_SAMPLES`] moments), with the ground under a figure near it (y = 0) included, so
/// framing shows the whole motion and where it touches the ground.
fn motion_bounds(player: &mut Player, duration: f64) -> Option<clipscope_render::Bounds> {
    let mut scratch = FigureFrame::default();
    let mut bounds: Option<clipscope_render::Bounds> = None;
    for k in 0..=FRAMING_SAMPLES {
        let t = duration.max(0.0) * f64::from(k) / f64::from(FRAMING_SAMPLES);
        player.frame_at(t, &mut scratch);
        if let Some(b) = Frame::of(player.figure(), &scratch).bounds() {
            bounds = Some(bounds.map_or(b, |a| a.union(b)));
        }
    }
    let mut bounds = bounds?;
    // A figure near the ground (within its own height) is shown with where it meets it.
    let height = bounds.max.y - bounds.min.y;
    if matches!(player.figure(), Figure::Rig(_)) && bounds.min.y > 0.0 && bounds.min.y <= height {
        bounds.min.y = 0.0;
    }
    Some(bounds)
}

/// The colour highlighted bones lean toward, linear RGB.
const HIGHLIGHT: [f32; 3] = [1.0, 0.78, 0.12];

/// Tints the boxes (and joints) of the parts that `selected` tracks of `clip` animate.
fn highlight(
    rig: &Rig,
    clip: &Clip,
    selected: &std::collections::BTreeSet<usize>,
    boxes: &mut [clipscope_scene::BoxInstance],
) {
    if selected.is_empty() {
        return;
    }
    let nodes: std::collections::HashSet<String> = selected
        .iter()
        .filter_map(|&t| clip.tracks.get(t))
        .filter_map(|t| clipscope_core::model::binding::parse_track_name(&t.name).ok())
        .filter_map(|p| p.animated_node())
        .collect();
    for (i, b) in boxes.iter_mut().enumerate() {
        let Some(part) = rig.part_of_box(i) else {
            continue;
        };
        if nodes.contains(&rig.parts[part].name) {
            for (c, h) in b.colour.iter_mut().zip(HIGHLIGHT) {
                *c = *c * 0.35 + h * 0.65;
            }
        }
    }
}

/// The bone's name by the pointer, on a small card that reads over any picture (painted after
/// the picture).
fn bone_label(ui: &egui::Ui, name: &str, pos: egui::Pos2) {
    let painter = ui.painter();
    let galley = painter.layout_no_wrap(
        name.to_string(),
        egui::FontId::proportional(13.0),
        ui.visuals().strong_text_color(),
    );
    let at = pos + egui::vec2(14.0, -10.0 - galley.size().y);
    let card = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
    painter.rect_filled(card, 4.0, ui.visuals().window_fill.gamma_multiply(0.92));
    painter.galley(at, galley, ui.visuals().strong_text_color());
}

/// The bone under the pointer (kept in [`Viewport::hovered`]); a click shows its tracks.
fn hover_and_click(response: &egui::Response, vp: &mut Viewport, outbox: &mut Outbox) {
    vp.hovered = None;
    let (Some(pos), Some(rig)) = (response.hover_pos(), vp.player().and_then(Player::rig)) else {
        return;
    };
    let rect = response.rect;
    let ndc = glam::Vec2::new(
        (pos.x - rect.left()) / rect.width().max(1.0) * 2.0 - 1.0,
        1.0 - (pos.y - rect.top()) / rect.height().max(1.0) * 2.0,
    );
    let aspect = rect.width() / rect.height().max(1.0);
    let hit = clipscope_render::pick(&vp.frame.boxes, &vp.camera, aspect, ndc)
        .and_then(|i| rig.part_of_box(i))
        .map(|p| rig.parts[p].name.clone());
    if let Some(name) = &hit
        && response.clicked()
    {
        outbox.push(AppCommand::SelectNode(name.clone()));
    }
    vp.hovered = hit;
}

/// Renders `frame` into the panel's own target and paints it over `rect`.
fn draw(
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

/// The figure picker, the blend controls and the unbound-track note, over the picture's
/// top-left corner.
fn overlay(
    ui: &mut egui::Ui,
    rect: egui::Rect,
    vp: &mut Viewport,
    subject: Subject<'_>,
    outbox: &mut Outbox,
) {
    let area = egui::Rect::from_min_size(
        rect.min + egui::vec2(8.0, 8.0),
        egui::vec2((rect.width() - 16.0).clamp(0.0, 420.0), 120.0),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        // A translucent card in the theme's window colour keeps the controls readable over any
        // picture, in the light and the dark theme.
        egui::Frame::new()
            .fill(ui.visuals().window_fill.gamma_multiply(0.88))
            .corner_radius(6.0)
            .inner_margin(egui::Margin::symmetric(8, 6))
            .show(ui, |ui| controls(ui, vp, subject, outbox));
    });
}

/// The controls on the overlay card.
fn controls(ui: &mut egui::Ui, vp: &mut Viewport, subject: Subject<'_>, outbox: &mut Outbox) {
    if let Some(figure) = subject.figure {
        // A procedural cycle's preview: its rig is fixed and there is nothing to blend.
        ui.label(egui::RichText::new(format!("Previewing {}", subject.clip.name)).strong());
        ui.weak(format!("on {figure} · tune it in the Cycles panel"));
        return;
    }
    ui.horizontal(|ui| {
        let current = vp
            .player()
            .map(|p| p.figure().name().to_string())
            .unwrap_or_default();
        let label = ui.label("Plays on");
        let mut choice = vp.rig_choice.clone();
        let shown = match &choice {
            None => format!("Auto ({current})"),
            Some(name) => figure_label(name),
        };
        egui::ComboBox::from_id_salt("rig picker")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut choice, None, "Auto (best match)");
                for rig in Rig::builtins() {
                    ui.selectable_value(&mut choice, Some(rig.name.clone()), &rig.name);
                }
                for rig in vp.figures.all() {
                    ui.selectable_value(
                        &mut choice,
                        Some(rig.name.clone()),
                        format!("{} (skeleton)", rig.name),
                    );
                }
                ui.selectable_value(
                    &mut choice,
                    Some(figure::NAMES.to_string()),
                    figure_label(figure::NAMES),
                );
                ui.selectable_value(
                    &mut choice,
                    Some(figure::PROXY.to_string()),
                    figure_label(figure::PROXY),
                );
                if subject.clip.layers.is_some() {
                    ui.selectable_value(
                        &mut choice,
                        Some(figure::LAYERS.to_string()),
                        figure_label(figure::LAYERS),
                    );
                }
                if subject.source.mesh.is_some() {
                    ui.selectable_value(
                        &mut choice,
                        Some(figure::MESH.to_string()),
                        figure_label(figure::MESH),
                    );
                }
            })
            .response
            .labelled_by(label.id);
        if choice != vp.rig_choice {
            vp.rig_choice = choice;
            vp.frame_next = true;
        }
        if ui
            .button("Model…")
            .on_hover_text(
                "Play this clip on the skeleton of a model or rig file picked from disk \
                 (glTF, legacy three.js, rig JSON, …)",
            )
            .clicked()
        {
            outbox.push(AppCommand::ChooseFile {
                target: FileTarget::Figure,
                suggested: subject.path.map(Path::to_path_buf),
            });
        }
    });
    let layers = matches!(vp.player().map(Player::figure), Some(Figure::Layers(_)));
    ui.horizontal(|ui| {
        if let Some(report) = &vp.report {
            let from = match &report.file {
                Some(file) => format!("{} · {file}", report.source),
                None => report.source.to_string(),
            };
            ui.weak(format!(
                "{} ({from}) · {}/{} tracks bound",
                report.name, report.bound, report.tracks
            ));
        }
        if layers {
            ui.checkbox(&mut vp.flat, "2D")
                .on_hover_text("The composition flat and front-on; off: the 3D view you can orbit");
        } else {
            ui.checkbox(&mut vp.follow, "Follow").on_hover_text(
                "Keep the camera on the figure as it travels (F frames the whole motion)",
            );
        }
    });
    blend_row(ui, vp, subject);
    let warn = ui.visuals().warn_fg_color;
    if let Some(error) = &vp.figure_error {
        ui.label(egui::RichText::new(error).small().color(warn));
    }
    if !vp.unbound.is_empty() {
        let n = vp.unbound.len();
        let text = format!(
            "{n} track{} bind to nothing on {}",
            if n == 1 { "" } else { "s" },
            vp.player()
                .map(|p| p.figure().name())
                .unwrap_or("this figure")
        );
        ui.label(egui::RichText::new(text).small().color(warn))
            .on_hover_text(vp.unbound.join("\n"));
    }
}

/// How a figure choice is shown in the picker.
fn figure_label(name: &str) -> String {
    match name {
        figure::PROXY => "Proxy (one box per bone)".to_string(),
        figure::MESH => "Morph mesh (from the file)".to_string(),
        figure::LAYERS => "Layers (Lottie composition)".to_string(),
        figure::NAMES => "Humanoid (from the node names)".to_string(),
        figure::SKELETON => "Skeleton (from the file)".to_string(),
        other => other.to_string(),
    }
}

/// "Blend with \[clip\] \[Cross-fade|Additive\] weight": a second clip of the same file.
fn blend_row(ui: &mut egui::Ui, vp: &mut Viewport, subject: Subject<'_>) {
    let others: Vec<&str> = subject
        .clips
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != subject.version.2)
        .map(|(_, c)| c.name.as_str())
        .collect();
    if others.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Blend with");
        let mut clip = vp.blend.clip.clone();
        egui::ComboBox::from_id_salt("blend clip")
            .selected_text(clip.as_deref().unwrap_or("(nothing)"))
            .width(110.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut clip, None, "(nothing)");
                for name in &others {
                    ui.selectable_value(&mut clip, Some(name.to_string()), *name);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(
                "Plays a second clip of this file with the selected one, in step with it \
                 (stretched to the same length)",
            );
        vp.blend.clip = clip;
        if vp.blend.clip.is_some() {
            ui.selectable_value(&mut vp.blend.mode, LayerMode::CrossFade, "Cross-fade")
                .on_hover_text("Weight 0 shows the selected clip, 1 the second clip");
            ui.selectable_value(&mut vp.blend.mode, LayerMode::Additive, "Additive")
                .on_hover_text(
                    "Adds the second clip's motion (relative to its first frame) on top",
                );
        }
    });
    if vp.blend.clip.is_some() {
        ui.horizontal(|ui| {
            let label = ui.label("Weight");
            ui.add(egui::Slider::new(&mut vp.blend.weight, 0.0..=1.0).fixed_decimals(2))
                .labelled_by(label.id);
        });
    }
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
        if vp.camera.orthographic {
            // The flat view stays front-on: a drag moves the picture.
            vp.camera.pan(d.x / height, d.y / height);
        } else {
            vp.camera
                .orbit(d.x * ORBIT_PER_POINT, d.y * ORBIT_PER_POINT);
        }
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
