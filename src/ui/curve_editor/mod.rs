//! The curve editor panel: the selected tracks' curves over time, their keys and bezier handles,
//! edited with the mouse and the keyboard grammar of `shared/design/UI.md`.
//!
//! [`show`] draws the panel for one clip and queues what the user asked for in the app's
//! [`Outbox`]: [`Edit`](clipscope_editor::Edit)s, a new playhead time when the time ruler was clicked, and the
//! cancellation of a drag; it never edits the clip. The
//! selection is the caller's (`&mut BTreeSet<KeyRef>`), so the timeline and the inspector can
//! share it. [`CurveEditor`] holds only view state: the visible range, the Normalize and Euler
//! toggles, a drag in progress and a cache of decimated and tessellated curves.
//!
//! The files split the panel by concern:
//!
//! * `curves` — which track/channel each requested curve draws, its colour and keys;
//! * `cache` — envelopes (see [`envelope`](clipscope_editor::envelope)) and tessellated curve
//!   lines kept between frames, so a frame where nothing changed neither resamples nor
//!   re-tessellates;
//! * `view` — framing, wheel zoom and middle-drag pan;
//! * `interact` — hit tests, click and box selection, dragging keys and handles;
//! * `menus` — shortcuts, the T/V popups and the right-click menu;
//! * `ruler` — the strip under the plot that sets the playhead;
//! * `simplify` — dropping screen points that do not change the drawn line;
//! * `toolbar` — the row of buttons above the plot;
//! * `draw` — painting on top of egui_plot's axes and grid.
//!
//! egui_plot draws the background, axes and grid and maps plot coordinates to the screen; its
//! own navigation is off, because the editor's grammar (wheel zoom, Ctrl/Shift+wheel per axis,
//! middle-drag pan, primary drag for keys and boxes) differs from egui_plot's defaults.

mod cache;
mod curves;
mod draw;
mod grab;
mod interact;
mod menus;
mod ruler;
mod simplify;
mod toolbar;
mod transform_box;
mod view;

use std::collections::BTreeSet;

use egui::{EventFilter, Ui};
use egui_plot::{Plot, PlotBounds, PlotTransform};

use crate::ui::outbox::{AppCommand, Outbox};
use clipscope_core::model::{Clip, Track};
use clipscope_editor::envelope::Channel;
use clipscope_editor::{ClipId, KeyRef};

use cache::EnvelopeCache;
use curves::{Curve, ValueMap};
use interact::Drag;
use menus::ShownCurves;
use view::ViewRequest;

/// What the panel says when there is nothing to draw.
pub const EMPTY_TEXT: &str = "Select tracks in the track tree to see their curves";

/// One curve to show: a value component of a track of the clip.
///
/// For quaternion tracks while [`CurveEditor::euler`] is on, components 0–2 show the Euler X, Y
/// and Z angles and component 3 (w) is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CurveRef {
    /// Track index in the clip.
    pub track: usize,
    /// Value component (0 for scalar tracks).
    pub component: usize,
}

/// View state of a curve editor panel (one per panel; the documents and the selection live
/// elsewhere).
pub struct CurveEditor {
    id: egui::Id,
    /// Show each curve scaled to −1…1 (display only; dragging is off while on).
    pub normalize: bool,
    /// Show quaternion tracks as Euler angles in degrees (those curves are read-only).
    pub euler: bool,
    /// Dragged keys snap to whole frames of [`fps`](CurveEditor::fps), the playhead and other
    /// keys (Ctrl while dragging inverts it).
    pub snap: bool,
    /// The frame rate keys snap to (the transport's).
    pub fps: f64,
    view: Option<PlotBounds>,
    request: Option<ViewRequest>,
    transform: Option<PlotTransform>,
    panning: bool,
    drag: Option<Drag>,
    grab: Option<grab::Grab>,
    next_gesture: u64,
    clip: Option<ClipId>,
    cache: EnvelopeCache,
    /// The dragged tracks as they were when the drag started, drawn faintly while it lasts.
    ghost: Option<(u64, Vec<(usize, Track)>)>,
    /// Tracks drawn faintly behind the curves for comparison (the original of a reduction
    /// being previewed), with a key the app uses to tell when to copy them again.
    pub reference: Option<(u64, Vec<(usize, Track)>)>,
}

impl Default for CurveEditor {
    fn default() -> Self {
        CurveEditor::new()
    }
}

/// Gesture ids of curve drags start here, far from the small counters other panels use, so the
/// undo history never merges a curve drag with another panel's gesture.
pub const GESTURE_BASE: u64 = 0x00c0_0000_0000_0000;

impl CurveEditor {
    /// A panel with the default id (`"clipscope.curve_editor"`), framing all curves when first
    /// shown.
    pub fn new() -> CurveEditor {
        CurveEditor::with_id(egui::Id::unique("clipscope.curve_editor"))
    }

    /// A panel whose egui_plot (and popups) use `id`; give each panel shown at once its own.
    pub fn with_id(id: egui::Id) -> CurveEditor {
        CurveEditor {
            id,
            normalize: false,
            euler: false,
            snap: true,
            fps: 30.0,
            view: None,
            request: None,
            transform: None,
            panning: false,
            drag: None,
            grab: None,
            next_gesture: GESTURE_BASE,
            clip: None,
            cache: EnvelopeCache::default(),
            ghost: None,
            reference: None,
        }
    }

    /// The egui id of the plot.
    pub fn id(&self) -> egui::Id {
        self.id
    }

    /// Frames every visible curve on the next frame (like F).
    pub fn frame_all(&mut self) {
        self.request = Some(ViewRequest::FrameAll);
    }

    /// Frames the selected keys on the next frame (like Shift+F).
    pub fn frame_selected(&mut self) {
        self.request = Some(ViewRequest::FrameSelected);
    }

    /// The visible `[time, value]` range, once the panel has been shown.
    pub fn view_bounds(&self) -> Option<PlotBounds> {
        self.view
    }

    /// The clip shown is now `clip` (the same clip at another index, after a reload reordered
    /// the clips): the view stays instead of being framed anew.
    pub fn follow_clip(&mut self, clip: ClipId) {
        self.clip = Some(clip);
    }

    /// Shows exactly `bounds` from the next frame on.
    pub fn set_view_bounds(&mut self, bounds: PlotBounds) {
        self.view = Some(bounds);
        self.request = None;
    }

    /// The mapping between plot and screen coordinates used by the last frame (the plot's rect
    /// and bounds), for tests and for panels that line up with the curves.
    pub fn transform(&self) -> Option<&PlotTransform> {
        self.transform.as_ref()
    }

    /// True while the curves of a key or handle drag are also drawn as they were before it.
    pub fn shows_ghost(&self) -> bool {
        self.ghost.is_some()
    }

    /// True while a key, handle or box drag is running.
    pub fn is_dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// How many curve envelopes have been computed so far (cache misses); a frame where nothing
    /// changed adds none.
    pub fn envelope_builds(&self) -> u64 {
        self.cache.builds()
    }
}

/// Draws the curve editor for `clip` (the clip `clip_id` of the workspace) into the rest of
/// `ui`: a toolbar, then the plot with one line per entry of `curves`.
///
/// `selected` is the key selection, changed in place by clicks and boxes; `playhead` is the
/// current time in seconds. Edits ([`AppCommand::Edit`]), a click on the time ruler
/// ([`AppCommand::SetPlayhead`]) and Escape during a drag ([`AppCommand::CancelGesture`]) are
/// queued in `out`, in the order they happened; none is applied here.
#[expect(clippy::too_many_arguments)]
pub fn show(
    ui: &mut Ui,
    ed: &mut CurveEditor,
    clip_id: ClipId,
    clip: &Clip,
    curves: &[CurveRef],
    selected: &mut BTreeSet<KeyRef>,
    playhead: f64,
    out: &mut Outbox,
) {
    if ed.clip != Some(clip_id) {
        ed.clip = Some(clip_id);
        ed.view = None;
        ed.drag = None;
    }
    let shown_curves = ShownCurves {
        clip,
        clip_id,
        curves,
    };
    ed.toolbar(ui, shown_curves, selected, out);
    let resolved = ed.resolve(clip, curves);
    if resolved.is_empty() {
        ed.drag = None;
        ui.centered_and_justified(|ui| {
            ui.weak(EMPTY_TEXT);
        });
        return;
    }
    let bounds = ed.settle_view(ui, clip, &resolved, selected);
    let available = ui.available_rect_before_wrap();
    let (tf, response) = ed.plot(ui, bounds);
    ruler::show(ui, ed.id.with("ruler"), clip.duration, &tf, available, out);
    if response.has_focus() {
        keep_arrow_keys(ui, &response);
    }
    // Escape during a drag puts everything back (the app undoes the gesture).
    if let Some(drag) = &ed.drag
        && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
    {
        if let Some(gesture) = drag.gesture() {
            out.push(AppCommand::CancelGesture(gesture));
        }
        ed.drag = None;
    }
    let pointer = interact::Pointer {
        response: &response,
        tf: &tf,
        curves: &resolved,
        clip: clip_id,
        snap_fps: (ed.snap && ed.fps.is_finite() && ed.fps > 0.0).then_some(ed.fps),
        playhead,
    };
    let hover = ed.pointer_input(ui, &pointer, clip, selected, out);
    ed.keep_ghost(clip);
    if response.double_clicked() && hover.is_none() {
        ed.request = Some(ViewRequest::FrameAll);
    }
    // Shortcuts act while the pointer is over the plot or the plot has the keyboard focus.
    let keyboard = (response.hovered() || response.has_focus() || ed.drag.is_some())
        && !ui.ctx().text_edit_focused();
    let editable = resolved.iter().any(|c| c.editable);
    let at = response.hover_pos().unwrap_or_else(|| tf.frame().center());
    let asked = menus::keys_and_menus(
        ui,
        &response,
        ed.id,
        keyboard,
        at,
        shown_curves,
        playhead,
        selected,
        editable,
        out,
    );
    if asked.is_some() {
        ed.request = asked;
    }
    if ed.request.is_some() {
        ui.ctx().request_repaint();
    }
    ed.paint(
        ui, &tf, &response, &resolved, clip, selected, playhead, hover,
    );
}

/// Keeps the arrow keys with the app (frame stepping) while the plot has the focus, instead of
/// moving the focus.
fn keep_arrow_keys(ui: &Ui, response: &egui::Response) {
    ui.memory_mut(|m| {
        m.set_focus_lock_filter(
            response.id,
            EventFilter {
                horizontal_arrows: true,
                vertical_arrows: true,
                ..Default::default()
            },
        )
    });
}

/// The steps of [`show`], in the order it runs them.
impl CurveEditor {
    /// The toolbar above the plot; its toggles reframe the view.
    fn toolbar(
        &mut self,
        ui: &mut Ui,
        shown_curves: ShownCurves<'_>,
        selected: &mut BTreeSet<KeyRef>,
        out: &mut Outbox,
    ) {
        let bar = toolbar::show(
            ui,
            &mut self.normalize,
            &mut self.euler,
            &mut self.snap,
            shown_curves,
            selected,
            out,
        );
        if bar.toggled {
            self.request = Some(ViewRequest::FrameAll);
            self.drag = None;
        }
        if let Some(r) = bar.request {
            self.request = Some(r);
        }
    }

    /// The curves of `curves` that `clip` has, with their Euler keys and, in the normalized
    /// view, their value mapping (from the cache).
    fn resolve<'c>(&mut self, clip: &'c Clip, curves: &[CurveRef]) -> Vec<Curve<'c>> {
        let mut resolved: Vec<Curve<'c>> = curves
            .iter()
            .filter_map(|&r| Curve::resolve(clip, r, self.euler, self.normalize))
            .collect();
        if resolved.is_empty() {
            return resolved;
        }
        self.cache.begin_frame();
        for c in &mut resolved {
            if matches!(c.channel, Channel::Euler(_)) {
                c.euler = Some(self.cache.euler_keys(c.track));
            }
        }
        if self.normalize {
            for c in &mut resolved {
                if let Some((lo, hi)) = self.cache.value_range(c.track, c.channel) {
                    c.map = ValueMap::normalizing(lo, hi);
                }
            }
        }
        resolved
    }

    /// This frame's visible range: pending framing requests, then the wheel and middle-drag.
    fn settle_view(
        &mut self,
        ui: &Ui,
        clip: &Clip,
        resolved: &[Curve<'_>],
        selected: &BTreeSet<KeyRef>,
    ) -> PlotBounds {
        match self.request.take() {
            Some(ViewRequest::FrameAll) => self.view = None,
            Some(ViewRequest::FrameSelected) => {
                // Nothing selected frames everything.
                self.view = view::frame_selected(resolved, selected);
            }
            None => {}
        }
        let mut bounds = match self.view {
            Some(b) if view::usable(&b) => b,
            _ => view::frame_all(clip, resolved, &mut self.cache),
        };
        if let Some(last) = self.transform {
            view::navigate(ui, &last, &mut bounds, &mut self.panning);
        }
        self.view = Some(bounds);
        bounds
    }

    /// egui_plot's axes and grid over `bounds`, its own navigation off; the mapping it used and
    /// its response.
    fn plot(&mut self, ui: &mut Ui, bounds: PlotBounds) -> (PlotTransform, egui::Response) {
        let shown = Plot::new("curves")
            .id(self.id)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .allow_boxed_zoom(false)
            .allow_double_click_reset(false)
            .allow_axis_zoom_drag(false)
            .show_x(false)
            .show_y(false)
            .auto_bounds(false)
            .grid_spacing(egui::Rangef::new(12.0, 300.0))
            .show(ui, move |plot| plot.set_plot_bounds(bounds));
        self.transform = Some(shown.transform);
        (shown.transform, shown.response)
    }

    /// G, a grab in progress, then clicks and drags on the plot; what the pointer hovers (none
    /// while grabbing).
    fn pointer_input(
        &mut self,
        ui: &Ui,
        pointer: &interact::Pointer<'_, '_>,
        clip: &Clip,
        selected: &mut BTreeSet<KeyRef>,
        out: &mut Outbox,
    ) -> Option<interact::Hit> {
        // G grabs the selected keys (Blender): they follow the pointer until a click or Enter.
        if self.grab.is_none() && self.drag.is_none() {
            self.grab = grab::start(ui, pointer, clip, selected, &mut self.next_gesture);
        }
        let mut grabbing = self.grab.is_some();
        if let Some(g) = &mut self.grab
            && grab::update(ui, g, pointer, self.fps, out) != grab::GrabEnd::Going
        {
            self.grab = None;
        }
        // The click that ends a grab is not also a click on the plot.
        grabbing |= self.grab.is_some();
        if grabbing {
            return None;
        }
        interact::handle(
            ui,
            pointer,
            selected,
            &mut self.drag,
            &mut self.next_gesture,
            out,
        )
    }

    /// Keeps a copy of the dragged or grabbed tracks from before the gesture: the "ghost" of
    /// the original, drawn faintly while it lasts.
    fn keep_ghost(&mut self, clip: &Clip) {
        let grabbed = self.grab.as_ref().map(|g| {
            let mut tracks: Vec<usize> = g.keys.iter().map(|k| k.track).collect();
            tracks.dedup();
            (g.gesture, tracks)
        });
        match self
            .drag
            .as_ref()
            .and_then(|d| d.gesture().map(|g| (g, d.tracks())))
            .or(grabbed)
        {
            Some((g, tracks)) if self.ghost.as_ref().is_none_or(|(og, _)| *og != g) => {
                let copies = tracks
                    .iter()
                    .filter_map(|&t| clip.tracks.get(t).map(|track| (t, track.clone())))
                    .collect();
                self.ghost = Some((g, copies));
            }
            Some(_) => {}
            None => self.ghost = None,
        }
    }

    /// Paints the ghost and the reference behind the curves, the curves and keys, and the
    /// transform box of the selection.
    #[expect(clippy::too_many_arguments)]
    fn paint(
        &mut self,
        ui: &Ui,
        tf: &PlotTransform,
        response: &egui::Response,
        resolved: &[Curve<'_>],
        clip: &Clip,
        selected: &BTreeSet<KeyRef>,
        playhead: f64,
        hover: Option<interact::Hit>,
    ) {
        let note = if self.normalize {
            Some("Normalized view: keys can be selected, not dragged")
        } else if self.euler && resolved.iter().any(|c| !c.editable) {
            Some("Euler view: rotation curves are read-only")
        } else {
            None
        };
        let scene = draw::Scene {
            tf,
            curves: resolved,
            selected,
            playhead,
            duration: clip.duration,
            selection_box: self.drag.as_ref().and_then(Drag::selection_box),
            hover,
            note,
        };
        if let Some((_, tracks)) = &self.ghost {
            draw::paint_ghost(ui, tf, resolved, tracks);
        }
        if let Some((_, tracks)) = &self.reference {
            draw::paint_ghost(ui, tf, resolved, tracks);
        }
        draw::paint(ui, &scene, &mut self.cache);
        if !matches!(self.drag, Some(Drag::Box { .. }))
            && let Some(b) = transform_box::of(resolved, selected)
        {
            let hover_edge = response
                .hover_pos()
                .and_then(|pos| transform_box::edge_at(pos, tf, &b));
            transform_box::paint(ui, tf, &b, hover_edge);
        }
    }
}
