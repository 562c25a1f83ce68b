//! The transform box: a frame around the selected keys (two or more, on editable curves). Its
//! four edge handles scale the keys around the opposite edge (left and right in time, top and
//! bottom in value); a drag inside the box, away from keys, moves them. Each drag is one
//! gesture, so one undo step; with snapping on, a dragged time edge lands on a frame (Ctrl
//! frees it, as in key drags).

use std::collections::{BTreeSet, HashMap};

use egui::{Color32, CornerRadius, Pos2, Rect, Stroke, Ui, vec2};
use egui_plot::{PlotPoint, PlotTransform};

use crate::ui::style::ACCENT;
use clipscope_editor::KeyRef;

use super::curves::Curve;

/// Padding (points) between the outermost keys and the drawn frame, so the edge handles sit
/// off the keys.
const PAD: f32 = 8.0;

/// How close (points) to an edge handle's centre a press grabs it.
const HANDLE_REACH: f32 = 7.0;

/// The selected keys' extent, in plot coordinates.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeyBox {
    /// Earliest and latest time.
    pub time: [f64; 2],
    /// Lowest and highest value.
    pub value: [f64; 2],
    /// The keys inside (selected keys of editable curves).
    pub keys: Vec<KeyRef>,
}

/// An edge of the box, which scales the keys around the opposite one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Edge {
    /// Earliest time (scales time around the latest).
    Left,
    /// Latest time (scales time around the earliest).
    Right,
    /// Lowest value (scales values around the highest).
    Bottom,
    /// Highest value (scales values around the lowest).
    Top,
}

/// The box around the selected keys of editable curves, when there are two or more and they
/// span some time or some value.
pub(super) fn of(curves: &[Curve<'_>], selected: &BTreeSet<KeyRef>) -> Option<KeyBox> {
    let editable: HashMap<(usize, usize), &Curve<'_>> = curves
        .iter()
        .filter(|c| c.editable)
        .map(|c| ((c.source.track, c.source.component), c))
        .collect();
    let mut b = KeyBox {
        time: [f64::INFINITY, f64::NEG_INFINITY],
        value: [f64::INFINITY, f64::NEG_INFINITY],
        keys: Vec::new(),
    };
    for k in selected {
        let Some([t, v]) = editable
            .get(&(k.track, k.component))
            .and_then(|c| c.key_point(k.key))
        else {
            continue;
        };
        if !(t.is_finite() && v.is_finite()) {
            continue;
        }
        b.time = [b.time[0].min(t), b.time[1].max(t)];
        b.value = [b.value[0].min(v), b.value[1].max(v)];
        b.keys.push(*k);
    }
    (b.keys.len() >= 2 && (b.time[1] > b.time[0] || b.value[1] > b.value[0])).then_some(b)
}

/// The frame on screen (the keys' extent, padded).
fn frame(tf: &PlotTransform, b: &KeyBox) -> Rect {
    let a = tf.position_from_point(&PlotPoint::new(b.time[0], b.value[0]));
    let c = tf.position_from_point(&PlotPoint::new(b.time[1], b.value[1]));
    Rect::from_two_pos(a, c).expand(PAD)
}

/// The edges that scale something (a box with no time span has no left and right handles),
/// with their handles' centres on screen.
fn handles(tf: &PlotTransform, b: &KeyBox) -> Vec<(Edge, Pos2)> {
    let r = frame(tf, b);
    let mut out = Vec::new();
    if b.time[1] > b.time[0] {
        out.push((Edge::Left, r.left_center()));
        out.push((Edge::Right, r.right_center()));
    }
    if b.value[1] > b.value[0] {
        out.push((Edge::Bottom, r.center_bottom()));
        out.push((Edge::Top, r.center_top()));
    }
    out
}

/// The edge whose handle is under `pos`, if any.
pub(super) fn edge_at(pos: Pos2, tf: &PlotTransform, b: &KeyBox) -> Option<Edge> {
    handles(tf, b)
        .into_iter()
        .find(|(_, c)| c.distance(pos) <= HANDLE_REACH)
        .map(|(e, _)| e)
}

/// Whether `pos` lies inside the frame.
pub(super) fn inside(pos: Pos2, tf: &PlotTransform, b: &KeyBox) -> bool {
    frame(tf, b).contains(pos)
}

/// The pivot and the whole factor of dragging `edge` of a box spanning `time` and `value` by
/// `d = [dt, dv]` (plot units): the opposite edge stays; with `snap_fps` a time edge lands on a
/// frame. The factor never drops below 1 % (the box does not collapse or turn inside out).
pub(super) fn scale(
    edge: Edge,
    time: [f64; 2],
    value: [f64; 2],
    d: [f64; 2],
    snap_fps: Option<f64>,
) -> (f64, f64) {
    let snap = |t: f64| snap_fps.map_or(t, |fps| (t * fps).round() / fps);
    let (pivot, from, to) = match edge {
        Edge::Left => (time[1], time[0], snap(time[0] + d[0])),
        Edge::Right => (time[0], time[1], snap(time[1] + d[0])),
        Edge::Bottom => (value[1], value[0], value[0] + d[1]),
        Edge::Top => (value[0], value[1], value[1] + d[1]),
    };
    let factor = ((to - pivot) / (from - pivot)).max(0.01);
    (pivot, if factor.is_finite() { factor } else { 1.0 })
}

/// Draws the frame and its edge handles.
pub(super) fn paint(ui: &Ui, tf: &PlotTransform, b: &KeyBox, hover: Option<Edge>) {
    let painter = ui.painter().with_clip_rect(*tf.frame());
    painter.rect_stroke(
        frame(tf, b),
        CornerRadius::same(2),
        Stroke::new(1.0, ACCENT.gamma_multiply(0.7)),
        egui::StrokeKind::Middle,
    );
    for (edge, c) in handles(tf, b) {
        let size = if hover == Some(edge) { 9.0 } else { 7.0 };
        painter.rect(
            Rect::from_center_size(c, vec2(size, size)),
            CornerRadius::same(1),
            ACCENT,
            Stroke::new(1.0, Color32::from_black_alpha(170)),
            egui::StrokeKind::Outside,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_scales_around_the_opposite_one() {
        let (time, value) = ([1.0, 3.0], [0.0, 4.0]);
        // The right edge 1 s later: twice as long around t = 1.
        assert_eq!(
            scale(Edge::Right, time, value, [2.0, 9.0], None),
            (1.0, 2.0)
        );
        // The left edge 1 s later: half as long around t = 3.
        assert_eq!(scale(Edge::Left, time, value, [1.0, 0.0], None), (3.0, 0.5));
        // The top down by 1: ¾ around the lowest value; the bottom up by 2: ½ around the top.
        assert_eq!(
            scale(Edge::Top, time, value, [5.0, -1.0], None),
            (0.0, 0.75)
        );
        assert_eq!(
            scale(Edge::Bottom, time, value, [0.0, 2.0], None),
            (4.0, 0.5)
        );
        // Snapped: 3 + 0.52 s lands on frame 106 at 30 fps (3.5333… s).
        let (pivot, f) = scale(Edge::Right, time, value, [0.52, 0.0], Some(30.0));
        assert_eq!(pivot, 1.0);
        assert_eq!(f, (106.0 / 30.0 - 1.0) / 2.0);
        // Past the opposite edge: held at 1 %.
        assert_eq!(
            scale(Edge::Right, time, value, [-5.0, 0.0], None),
            (1.0, 0.01)
        );
    }
}
