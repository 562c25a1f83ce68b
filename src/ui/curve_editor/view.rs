//! The visible time and value range: framing curves and keys, wheel zoom and middle-drag pan.
//!
//! The editor owns its bounds and hands them to egui_plot every frame (egui_plot's own
//! navigation is switched off), so the grammar is the editor's: wheel zooms both axes around the
//! pointer, Ctrl+wheel the value axis only, Shift+wheel the time axis only, a trackpad pinch
//! zooms both, middle-drag pans.

use std::collections::BTreeSet;

use egui::{Event, MouseWheelUnit, PointerButton, Pos2, Rect, Ui, Vec2};
use egui_plot::{PlotBounds, PlotTransform};

use clipscope_core::model::Clip;
use clipscope_editor::KeyRef;

use super::cache::EnvelopeCache;
use super::curves::Curve;

/// Fraction of the time span added on each side when framing.
const TIME_MARGIN: f64 = 0.03;
/// Fraction of the value span added above and below when framing.
const VALUE_MARGIN: f64 = 0.08;
/// Zoom factor per point of wheel movement (as an exponent).
const WHEEL_ZOOM: f32 = 0.003;
/// Points per wheel "line".
const LINE_POINTS: f32 = 40.0;

/// A pending change of view, asked for by a button, a key or a double-click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ViewRequest {
    /// Show every visible curve over the clip.
    FrameAll,
    /// Show the selected keys (everything when none is selected).
    FrameSelected,
}

/// Grows `[lo, hi]` by a margin, giving flat ranges a sensible height.
fn padded(lo: f64, hi: f64, margin: f64, min_half: f64) -> (f64, f64) {
    let span = hi - lo;
    if span > 0.0 {
        (lo - span * margin, hi + span * margin)
    } else {
        let half = (lo.abs() * 0.1).max(min_half);
        (lo - half, hi + half)
    }
}

/// Bounds showing all of `curves` over `[min(0, first key), max(duration, last key)]`.
pub(super) fn frame_all(
    clip: &Clip,
    curves: &[Curve<'_>],
    cache: &mut EnvelopeCache,
) -> PlotBounds {
    let mut t0 = 0.0f64;
    let mut t1 = if clip.duration.is_finite() {
        clip.duration.max(0.0)
    } else {
        0.0
    };
    let mut v0 = f64::INFINITY;
    let mut v1 = f64::NEG_INFINITY;
    for c in curves {
        if let (Some(&a), Some(&b)) = (c.track.times.first(), c.track.times.last())
            && a.is_finite()
            && b.is_finite()
        {
            t0 = t0.min(a as f64);
            t1 = t1.max(b as f64);
        }
        if let Some((lo, hi)) = cache.value_range(c.track, c.channel) {
            let (a, b) = (c.map.show(lo), c.map.show(hi));
            v0 = v0.min(a.min(b));
            v1 = v1.max(a.max(b));
        }
    }
    if v0 > v1 {
        (v0, v1) = (-1.0, 1.0);
    }
    let (t0, t1) = if t1 > t0 {
        padded(t0, t1, TIME_MARGIN, 0.5)
    } else {
        (t0 - 0.5, t0 + 1.0)
    };
    let (v0, v1) = padded(v0, v1, VALUE_MARGIN, 0.1);
    PlotBounds::from_min_max([t0, v0], [t1, v1])
}

/// Bounds around the selected keys of `curves`, or `None` when none of them is selected.
pub(super) fn frame_selected(
    curves: &[Curve<'_>],
    selected: &BTreeSet<KeyRef>,
) -> Option<PlotBounds> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for c in curves {
        for k in c.selected_in(selected, f64::NEG_INFINITY, f64::INFINITY) {
            if let Some(p) = c.key_point(k)
                && p[0].is_finite()
                && p[1].is_finite()
            {
                for axis in 0..2 {
                    lo[axis] = lo[axis].min(p[axis]);
                    hi[axis] = hi[axis].max(p[axis]);
                }
            }
        }
    }
    if lo[0] > hi[0] {
        return None;
    }
    let (t0, t1) = padded(lo[0], hi[0], 0.15, 0.25);
    let (v0, v1) = padded(lo[1], hi[1], 0.2, 0.1);
    Some(PlotBounds::from_min_max([t0, v0], [t1, v1]))
}

/// Whether bounds can be shown (finite, non-empty, not absurdly small or large).
pub(super) fn usable(b: &PlotBounds) -> bool {
    let (w, h) = (b.width(), b.height());
    b.is_finite() && w > 1e-6 && h > 1e-9 && w < 1e9 && h < 1e15
}

/// Zooms `bounds` by `factor` per axis (above 1 zooms in) around `center`, refusing results
/// that are no longer [`usable`].
pub(super) fn zoom(bounds: &mut PlotBounds, factor: Vec2, center: [f64; 2]) {
    let mut b = *bounds;
    b.zoom(factor, egui_plot::PlotPoint::new(center[0], center[1]));
    if usable(&b) {
        *bounds = b;
    }
}

/// Applies this frame's wheel, pinch and middle-drag input to `bounds`. `last` is the transform
/// the plot was drawn with last frame (its rect and mapping); `panning` remembers a middle-drag
/// that started on the plot. Returns whether the view changed.
pub(super) fn navigate(
    ui: &Ui,
    last: &PlotTransform,
    bounds: &mut PlotBounds,
    panning: &mut bool,
) -> bool {
    let rect: Rect = *last.frame();
    let hovered = ui.rect_contains_pointer(rect);
    let (events, pointer, middle_pressed, middle_down, origin, delta) = ui.input(|i| {
        let wheel: Vec<Event> = if hovered {
            i.events
                .iter()
                .filter(|e| matches!(e, Event::MouseWheel { .. } | Event::Zoom(_)))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        (
            wheel,
            i.pointer.latest_pos(),
            i.pointer.button_pressed(PointerButton::Middle),
            i.pointer.button_down(PointerButton::Middle),
            i.pointer.press_origin(),
            i.pointer.delta(),
        )
    });
    let before = *bounds;
    let center = |p: Option<Pos2>| {
        let p = last.value_from_position(p.unwrap_or(rect.center()));
        [p.x, p.y]
    };
    for event in events {
        match event {
            Event::MouseWheel {
                unit,
                delta,
                modifiers,
                ..
            } => {
                let scale = match unit {
                    MouseWheelUnit::Point => 1.0,
                    MouseWheelUnit::Line => LINE_POINTS,
                    MouseWheelUnit::Page => rect.height(),
                };
                // Some systems turn Shift+wheel into horizontal scrolling.
                let amount = if delta.y != 0.0 { delta.y } else { delta.x } * scale;
                let f = (amount * WHEEL_ZOOM).exp();
                let factor = if modifiers.command || modifiers.ctrl {
                    Vec2::new(1.0, f)
                } else if modifiers.shift {
                    Vec2::new(f, 1.0)
                } else {
                    Vec2::splat(f)
                };
                zoom(bounds, factor, center(pointer));
            }
            Event::Zoom(f) => zoom(bounds, Vec2::splat(f), center(pointer)),
            _ => {}
        }
    }
    if middle_pressed && origin.is_some_and(|o| rect.contains(o)) && hovered {
        *panning = true;
    }
    if *panning {
        if middle_down {
            let [dx, dy] = last.dvalue_dpos();
            let mut b = *bounds;
            b.translate((-(delta.x as f64) * dx, -(delta.y as f64) * dy));
            if usable(&b) {
                *bounds = b;
            }
        } else {
            *panning = false;
        }
    }
    before != *bounds
}
