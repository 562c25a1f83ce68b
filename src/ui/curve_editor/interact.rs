//! Pointer interaction on the plot: hit-testing keys and handles, click selection, box
//! selection, and dragging keys and handles into [`Edit`]s.
//!
//! A drag is one gesture: it gets one id, and every frame of it emits the change since the
//! previous frame (`MoveKeys` carries incremental `dt`/`dv`; `SetHandle` carries the handle's
//! absolute position), so the app can apply each frame at once and undo the whole drag as one
//! step. Shift while dragging keys keeps them on the dominant axis; Alt while dragging a handle
//! breaks it from its partner.

use std::collections::BTreeSet;

use egui::{CursorIcon, PointerButton, Pos2, Rect, Response, Ui};
use egui_plot::{PlotPoint, PlotTransform};

use crate::ui::outbox::Outbox;
use clipscope_core::model::ops::HandleSide;
use clipscope_editor::{ClipId, Edit, KeyRef};

use super::curves::Curve;
use super::transform_box::{self, Edge};

/// How close (in points) the pointer must be to a key or handle to grab it.
pub(super) const HIT_RADIUS: f32 = 7.0;

/// What is under the pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Hit {
    /// A key marker.
    Key(KeyRef),
    /// A bezier handle of a selected key, at `(time, value)`.
    Handle {
        /// The key and component.
        key: KeyRef,
        /// Which handle.
        side: HandleSide,
        /// Handle time.
        time: f64,
        /// Handle value.
        value: f64,
    },
}

/// A drag in progress.
#[derive(Debug, Clone)]
pub(super) enum Drag {
    /// Moving the selected keys.
    Keys {
        /// Gesture id shared by all edits of the drag.
        gesture: u64,
        /// Where the drag started (screen).
        origin: Pos2,
        /// The `(dt, dv)` already sent.
        applied: [f64; 2],
        /// The keys that move (selected keys of editable curves).
        keys: Vec<KeyRef>,
        /// The time of the key the drag grabbed (what snapping lands on a frame, the playhead
        /// or another key).
        anchor: Option<f64>,
    },
    /// Moving one bezier handle.
    Handle {
        /// Gesture id shared by all edits of the drag.
        gesture: u64,
        /// Where the drag started (screen).
        origin: Pos2,
        /// The key and component.
        key: KeyRef,
        /// Which handle.
        side: HandleSide,
        /// The handle's `(time, value)` when the drag started.
        start: [f64; 2],
        /// The key's time (an in handle stays before it, an out handle after it).
        key_time: f64,
        /// The position sent last.
        sent: Option<[f64; 2]>,
    },
    /// Dragging an edge of the transform box: the keys scale around the opposite edge.
    Scale {
        /// Gesture id shared by all edits of the drag.
        gesture: u64,
        /// Where the drag started (screen).
        origin: Pos2,
        /// The edge dragged.
        edge: Edge,
        /// The box's time span when the drag started.
        time: [f64; 2],
        /// The box's value span when the drag started.
        value: [f64; 2],
        /// The keys that scale.
        keys: Vec<KeyRef>,
        /// The whole factor already sent.
        applied: f64,
    },
    /// Dragging a selection box.
    Box {
        /// Where the drag started (screen).
        origin: Pos2,
        /// Where the pointer is now (screen).
        current: Pos2,
        /// Shift was held at the start: add to the selection instead of replacing it.
        additive: bool,
    },
}

impl Drag {
    /// The undo gesture of a key or handle drag.
    pub(super) fn gesture(&self) -> Option<u64> {
        match self {
            Drag::Keys { gesture, .. }
            | Drag::Handle { gesture, .. }
            | Drag::Scale { gesture, .. } => Some(*gesture),
            Drag::Box { .. } => None,
        }
    }

    /// The tracks a key or handle drag changes.
    pub(super) fn tracks(&self) -> Vec<usize> {
        let mut tracks: Vec<usize> = match self {
            Drag::Keys { keys, .. } | Drag::Scale { keys, .. } => {
                keys.iter().map(|k| k.track).collect()
            }
            Drag::Handle { key, .. } => vec![key.track],
            Drag::Box { .. } => Vec::new(),
        };
        tracks.sort_unstable();
        tracks.dedup();
        tracks
    }

    /// The selection box, if this is one.
    pub(super) fn selection_box(&self) -> Option<Rect> {
        match self {
            Drag::Box {
                origin, current, ..
            } => Some(Rect::from_two_pos(*origin, *current)),
            _ => None,
        }
    }
}

fn screen(tf: &PlotTransform, p: [f64; 2]) -> Pos2 {
    tf.position_from_point(&PlotPoint::new(p[0], p[1]))
}

/// The handle or key nearest to `pos` within [`HIT_RADIUS`]; handles win over keys, and among
/// curves the one drawn last (on top) wins ties.
pub(super) fn hit_test(
    pos: Pos2,
    tf: &PlotTransform,
    curves: &[Curve<'_>],
    selected: &BTreeSet<KeyRef>,
) -> Option<Hit> {
    let mut best: Option<(f32, Hit)> = None;
    fn consider(best: &mut Option<(f32, Hit)>, d2: f32, hit: Hit) {
        if d2 <= HIT_RADIUS * HIT_RADIUS && best.is_none_or(|(b, _)| d2 < b) {
            *best = Some((d2, hit));
        }
    }
    for curve in curves.iter().rev() {
        for k in curve.handle_keys(selected, tf) {
            for side in [HandleSide::In, HandleSide::Out] {
                if let Some(h) = curve.handle(k, side) {
                    let d2 = (screen(tf, h) - pos).length_sq();
                    consider(
                        &mut best,
                        d2,
                        Hit::Handle {
                            key: curve.key_ref(k),
                            side,
                            time: h[0],
                            value: h[1],
                        },
                    );
                }
            }
        }
    }
    if best.is_some() {
        return best.map(|(_, h)| h);
    }
    let t = tf.value_from_position(pos).x;
    let dt = (HIT_RADIUS as f64 * tf.dvalue_dpos()[0]).abs();
    for curve in curves.iter().rev() {
        let all = curve.markers_shown(tf);
        for k in curve.keys_in(t - dt, t + dt) {
            let key = curve.key_ref(k);
            if !all && !selected.contains(&key) {
                continue;
            }
            if let Some(p) = curve.key_point(k) {
                consider(&mut best, (screen(tf, p) - pos).length_sq(), Hit::Key(key));
            }
        }
    }
    best.map(|(_, h)| h)
}

/// What the pointer interaction needs from the panel.
pub(super) struct Pointer<'a, 'c> {
    /// The plot's response (click and drag sense).
    pub(super) response: &'a Response,
    /// This frame's plot mapping.
    pub(super) tf: &'a PlotTransform,
    /// Visible curves.
    pub(super) curves: &'a [Curve<'c>],
    /// The clip being edited.
    pub(super) clip: ClipId,
    /// Frames per second to snap dragged keys to, or `None` with snapping off.
    pub(super) snap_fps: Option<f64>,
    /// The playhead (dragged keys snap to it).
    pub(super) playhead: f64,
}

/// Runs clicks and drags on the plot: updates `selected` and `drag`, queues edits, and
/// returns what the pointer hovers (for highlighting), if no drag is running.
pub(super) fn handle(
    ui: &Ui,
    p: &Pointer<'_, '_>,
    selected: &mut BTreeSet<KeyRef>,
    drag: &mut Option<Drag>,
    next_gesture: &mut u64,
    out: &mut Outbox,
) -> Option<Hit> {
    let response = p.response;
    let tf = p.tf;
    let (modifiers, latest, press_origin, primary_released) = ui.input(|i| {
        (
            i.modifiers,
            i.pointer.latest_pos(),
            i.pointer.press_origin(),
            i.pointer.primary_released(),
        )
    });

    if response.drag_started_by(PointerButton::Primary) {
        response.request_focus();
        let origin = press_origin.or(latest).unwrap_or(tf.frame().center());
        *drag = Some(start_drag(
            origin,
            p,
            selected,
            modifiers.shift,
            next_gesture,
        ));
    }

    if let Some(d) = drag.as_mut() {
        if response.dragged_by(PointerButton::Primary) || response.drag_stopped() {
            let current = latest.or(response.interact_pointer_pos());
            if let Some(current) = current {
                update_drag(d, current, p, modifiers, out);
            }
        }
        if response.drag_stopped() {
            if let Drag::Box {
                origin,
                current,
                additive,
            } = *d
            {
                box_select(Rect::from_two_pos(origin, current), p, selected, additive);
            }
            *drag = None;
        } else if !response.dragged() {
            // The drag ended without us seeing it (focus lost, pointer gone).
            *drag = None;
        }
    }

    // A real click only: egui also "clicks" a focused widget on Space and Enter, and Space
    // belongs to playback.
    if response.clicked_by(PointerButton::Primary) && primary_released {
        response.request_focus();
        let hit = response
            .interact_pointer_pos()
            .and_then(|pos| hit_test(pos, tf, p.curves, selected));
        click_select(hit, selected, modifiers.shift);
    }
    if response.secondary_clicked() {
        // Right-click on an unselected key selects it, so the context menu acts on it.
        if let Some(Hit::Key(key)) = response
            .interact_pointer_pos()
            .and_then(|pos| hit_test(pos, tf, p.curves, selected))
            && !selected.contains(&key)
        {
            selected.clear();
            selected.insert(key);
        }
    }

    match drag {
        Some(Drag::Keys { .. } | Drag::Handle { .. }) => {
            ui.ctx().set_cursor_icon(CursorIcon::Grabbing);
            None
        }
        Some(Drag::Scale { edge, .. }) => {
            ui.ctx().set_cursor_icon(edge_cursor(*edge));
            None
        }
        Some(Drag::Box { .. }) => None,
        None => {
            let hover = response
                .hover_pos()
                .and_then(|pos| hit_test(pos, tf, p.curves, selected));
            if hover.is_some() {
                ui.ctx().set_cursor_icon(CursorIcon::Grab);
            } else if let Some(pos) = response.hover_pos()
                && let Some(b) = transform_box::of(p.curves, selected)
            {
                if let Some(edge) = transform_box::edge_at(pos, tf, &b) {
                    ui.ctx().set_cursor_icon(edge_cursor(edge));
                } else if transform_box::inside(pos, tf, &b) {
                    ui.ctx().set_cursor_icon(CursorIcon::Move);
                }
            }
            hover
        }
    }
}

/// The cursor over a transform box edge.
fn edge_cursor(edge: Edge) -> CursorIcon {
    match edge {
        Edge::Left | Edge::Right => CursorIcon::ResizeHorizontal,
        Edge::Bottom | Edge::Top => CursorIcon::ResizeVertical,
    }
}

/// Decides what a primary drag starting at `origin` does.
fn start_drag(
    origin: Pos2,
    p: &Pointer<'_, '_>,
    selected: &mut BTreeSet<KeyRef>,
    shift: bool,
    next_gesture: &mut u64,
) -> Drag {
    let mut gesture = || {
        *next_gesture += 1;
        *next_gesture
    };
    match hit_test(origin, p.tf, p.curves, selected) {
        Some(Hit::Handle {
            key,
            side,
            time,
            value,
        }) => {
            let key_time = p
                .curves
                .iter()
                .find(|c| c.owns(&key))
                .and_then(|c| c.key_point(key.key))
                .map_or(time, |k| k[0]);
            Drag::Handle {
                gesture: gesture(),
                origin,
                key,
                side,
                start: [time, value],
                key_time,
                sent: None,
            }
        }
        Some(Hit::Key(key)) => {
            let anchor = p
                .curves
                .iter()
                .find(|c| c.owns(&key))
                .and_then(|c| c.key_point(key.key))
                .map(|k| k[0]);
            if !selected.contains(&key) {
                if !shift {
                    selected.clear();
                }
                selected.insert(key);
            }
            // The editable curves as a set: one lookup per selected key, not a search.
            let editable: std::collections::HashSet<(usize, usize)> = p
                .curves
                .iter()
                .filter(|c| c.editable)
                .map(|c| (c.source.track, c.source.component))
                .collect();
            let keys = selected
                .iter()
                .filter(|k| editable.contains(&(k.track, k.component)))
                .copied()
                .collect();
            Drag::Keys {
                gesture: gesture(),
                origin,
                applied: [0.0, 0.0],
                keys,
                anchor,
            }
        }
        None => {
            // Away from keys: the transform box's edges scale, its inside moves (Shift still
            // draws a selection box to add to).
            let frame = transform_box::of(p.curves, selected);
            match frame {
                Some(b) if !shift => match transform_box::edge_at(origin, p.tf, &b) {
                    Some(edge) => Drag::Scale {
                        gesture: gesture(),
                        origin,
                        edge,
                        time: b.time,
                        value: b.value,
                        keys: b.keys,
                        applied: 1.0,
                    },
                    None if transform_box::inside(origin, p.tf, &b) => Drag::Keys {
                        gesture: gesture(),
                        origin,
                        applied: [0.0, 0.0],
                        anchor: Some(b.time[0]),
                        keys: b.keys,
                    },
                    None => Drag::Box {
                        origin,
                        current: origin,
                        additive: shift,
                    },
                },
                _ => Drag::Box {
                    origin,
                    current: origin,
                    additive: shift,
                },
            }
        }
    }
}

/// Where a dragged key at `time` lands with snapping: the playhead or an unmoved key within
/// [`HIT_RADIUS`] points, else the nearest frame at `fps`.
pub(super) fn snapped_time(time: f64, fps: f64, p: &Pointer<'_, '_>, moving: &[KeyRef]) -> f64 {
    let tol = (HIT_RADIUS as f64 * p.tf.dvalue_dpos()[0]).abs();
    let mut best: Option<(f64, f64)> = None;
    let mut consider = |t: f64| {
        let d = (t - time).abs();
        if d <= tol && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, t));
        }
    };
    consider(p.playhead);
    for c in p.curves {
        for k in c.keys_in(time - tol, time + tol) {
            let is_moving = moving
                .iter()
                .any(|m| m.track == c.source.track && m.key == k);
            if !is_moving {
                consider(c.track.times[k] as f64);
            }
        }
    }
    match best {
        Some((_, t)) => t,
        None => (time * fps).round() / fps,
    }
}

/// Follows the pointer to `current`, queueing the edits of this frame of the drag.
fn update_drag(
    drag: &mut Drag,
    current: Pos2,
    p: &Pointer<'_, '_>,
    modifiers: egui::Modifiers,
    out: &mut Outbox,
) {
    let tf = p.tf;
    let delta = |origin: Pos2| {
        let a = tf.value_from_position(origin);
        let b = tf.value_from_position(current);
        [b.x - a.x, b.y - a.y]
    };
    match drag {
        Drag::Keys {
            gesture,
            origin,
            applied,
            keys,
            anchor,
        } => {
            let mut d = delta(*origin);
            if modifiers.shift {
                let px = current - *origin;
                if px.x.abs() >= px.y.abs() {
                    d[1] = 0.0;
                } else {
                    d[0] = 0.0;
                }
            }
            // Ctrl inverts snapping for this drag, like Blender.
            if let (Some(fps), Some(anchor), false) = (p.snap_fps, *anchor, modifiers.command)
                && d[0] != 0.0
            {
                d[0] = snapped_time(anchor + d[0], fps, p, keys) - anchor;
            }
            let step = [d[0] - applied[0], d[1] - applied[1]];
            if !keys.is_empty() && (step[0] != 0.0 || step[1] != 0.0) {
                out.edit(Edit::MoveKeys {
                    clip: p.clip,
                    keys: keys.clone(),
                    dt: step[0],
                    dv: step[1],
                    gesture: Some(*gesture),
                });
                *applied = d;
            }
        }
        Drag::Handle {
            gesture,
            origin,
            key,
            side,
            start,
            key_time,
            sent,
        } => {
            let d = delta(*origin);
            let mut time = start[0] + d[0];
            let value = start[1] + d[1];
            time = match side {
                HandleSide::In => time.min(*key_time),
                HandleSide::Out => time.max(*key_time),
            };
            if *sent != Some([time, value]) {
                out.edit(Edit::SetHandle {
                    clip: p.clip,
                    key: *key,
                    side: *side,
                    time,
                    value,
                    break_handles: modifiers.alt,
                    gesture: Some(*gesture),
                });
                *sent = Some([time, value]);
            }
        }
        Drag::Scale {
            gesture,
            origin,
            edge,
            time,
            value,
            keys,
            applied,
        } => {
            let snap = p.snap_fps.filter(|_| !modifiers.command);
            let (pivot, factor) = transform_box::scale(*edge, *time, *value, delta(*origin), snap);
            let step = factor / *applied;
            if !keys.is_empty() && step.is_finite() && step != 1.0 {
                let in_time = matches!(edge, Edge::Left | Edge::Right);
                out.edit(Edit::ScaleKeys {
                    clip: p.clip,
                    keys: keys.clone(),
                    pivot_time: if in_time { pivot } else { 0.0 },
                    time_factor: if in_time { step } else { 1.0 },
                    pivot_value: if in_time { 0.0 } else { pivot },
                    value_factor: if in_time { 1.0 } else { step },
                    gesture: Some(*gesture),
                });
                *applied = factor;
            }
        }
        Drag::Box { current: c, .. } => *c = current,
    }
}

/// Selects the keys whose markers lie in `rect` (screen), on every visible curve (also where
/// keys are too dense to draw).
fn box_select(rect: Rect, p: &Pointer<'_, '_>, selected: &mut BTreeSet<KeyRef>, additive: bool) {
    if !additive {
        selected.clear();
    }
    let a = p.tf.value_from_position(rect.left_bottom());
    let b = p.tf.value_from_position(rect.right_top());
    let (t0, t1) = (a.x.min(b.x), a.x.max(b.x));
    let (v0, v1) = (a.y.min(b.y), a.y.max(b.y));
    for curve in p.curves {
        for k in curve.keys_in(t0, t1) {
            if let Some([_, v]) = curve.key_point(k)
                && v >= v0
                && v <= v1
            {
                selected.insert(curve.key_ref(k));
            }
        }
    }
}

/// A click: on a key selects it (Shift toggles it), on nothing clears (unless Shift).
fn click_select(hit: Option<Hit>, selected: &mut BTreeSet<KeyRef>, shift: bool) {
    match hit {
        Some(Hit::Key(key)) => {
            if shift {
                if !selected.remove(&key) {
                    selected.insert(key);
                }
            } else {
                selected.clear();
                selected.insert(key);
            }
        }
        Some(Hit::Handle { .. }) => {}
        None => {
            if !shift {
                selected.clear();
            }
        }
    }
}
