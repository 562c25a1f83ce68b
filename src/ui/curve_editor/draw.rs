//! Painting the plot's contents on top of egui_plot's grid: the clip's extent, the curves (from
//! cached envelopes), bezier handles of selected keys, key markers, the playhead, the box being
//! dragged and a label for the hovered key.

use std::collections::BTreeSet;

use egui::epaint::{CircleShape, Tessellator};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Ui, pos2};
use egui_plot::{PlotPoint, PlotTransform};

use crate::ui::style::ACCENT;
use clipscope_core::model::Track;
use clipscope_core::model::ops::HandleSide;
use clipscope_editor::KeyRef;
use clipscope_editor::envelope::envelope;

use super::cache::{EnvelopeCache, LineKey};
use super::curves::Curve;
use super::interact::Hit;
use super::simplify::simplify;

/// Width of curve lines.
const CURVE_WIDTH: f32 = 1.5;
/// How far (points) a curve line may be straightened when dropping points; the drawn line stays
/// within twice this of the envelope.
const SIMPLIFY_TOLERANCE: f32 = 0.2;
/// Radius of key markers.
pub(super) const KEY_RADIUS: f32 = 3.0;
/// Radius of handle markers.
const HANDLE_RADIUS: f32 = 2.5;
/// Selected keys drawn at most per curve when keys are too dense for markers.
const MAX_DENSE_SELECTED: usize = 4096;

/// Everything one frame paints, borrowed from the panel.
pub(super) struct Scene<'a, 'c> {
    /// The plot's mapping (this frame's bounds and rect).
    pub(super) tf: &'a PlotTransform,
    /// The visible curves, in drawing order.
    pub(super) curves: &'a [Curve<'c>],
    /// Selected keys.
    pub(super) selected: &'a BTreeSet<KeyRef>,
    /// Playhead time (seconds).
    pub(super) playhead: f64,
    /// Clip duration (seconds).
    pub(super) duration: f64,
    /// The box being dragged (screen rect).
    pub(super) selection_box: Option<Rect>,
    /// The key or handle under the pointer.
    pub(super) hover: Option<Hit>,
    /// A note shown in the top-left corner (why editing is off, say).
    pub(super) note: Option<&'a str>,
}

fn screen(tf: &PlotTransform, p: [f64; 2]) -> Pos2 {
    tf.position_from_point(&PlotPoint::new(p[0], p[1]))
}

/// Paints the dragged curves as they were before the drag, thin and faint, under the live ones
/// (`before` holds `(track index, copy)` of the dragged tracks).
pub(super) fn paint_ghost(
    ui: &Ui,
    tf: &PlotTransform,
    curves: &[Curve<'_>],
    before: &[(usize, Track)],
) {
    let frame = *tf.frame();
    let painter = ui.painter().with_clip_rect(frame.intersect(ui.clip_rect()));
    let b = tf.bounds();
    let columns = frame.width().ceil().max(1.0) as usize;
    let before: std::collections::HashMap<usize, &Track> =
        before.iter().map(|(t, track)| (*t, track)).collect();
    for curve in curves {
        let Some(&old) = before.get(&curve.source.track) else {
            continue;
        };
        let points: Vec<Pos2> = envelope(old, curve.channel, b.min()[0], b.max()[0], columns)
            .into_iter()
            .map(|[t, v]| screen(tf, [t, curve.map.show(v)]))
            .collect();
        painter.add(Shape::line(
            points,
            Stroke::new(1.0, curve.colour.gamma_multiply(0.35)),
        ));
    }
}

/// Paints the scene; curve lines come tessellated from `cache`.
pub(super) fn paint(ui: &Ui, scene: &Scene<'_, '_>, cache: &mut EnvelopeCache) {
    let tf = scene.tf;
    let frame = *tf.frame();
    let painter = ui.painter().with_clip_rect(frame.intersect(ui.clip_rect()));
    paint_extent(&painter, tf, scene.duration, ui.visuals().dark_mode);

    let b = tf.bounds();
    let (t0, t1) = (b.min()[0], b.max()[0]);
    let columns = frame.width().ceil().max(1.0) as usize;
    let pixels_per_point = ui.ctx().pixels_per_point();
    let options = ui.ctx().tessellation_options(|o| *o);
    let rect = [frame.min.x, frame.min.y, frame.max.x, frame.max.y].map(f32::to_bits);
    let values = [b.min()[1], b.max()[1]].map(f64::to_bits);
    for curve in scene.curves {
        let key = LineKey {
            values,
            rect,
            map: curve.map.bits(),
            colour: curve.colour.to_array(),
            pixels: [pixels_per_point, options.feathering_size_in_pixels].map(f32::to_bits),
        };
        let mesh = cache.line(
            curve.track,
            curve.channel,
            t0,
            t1,
            columns,
            key,
            |points, mesh| {
                let map = curve.map;
                let mut line = Vec::with_capacity(points.len().min(4 * columns));
                simplify(
                    points.iter().map(|&[t, v]| screen(tf, [t, map.show(v)])),
                    SIMPLIFY_TOLERANCE,
                    &mut line,
                );
                if line.len() >= 2 {
                    let mut tessellator =
                        Tessellator::new(pixels_per_point, options, [1, 1], vec![]);
                    tessellator.set_clip_rect(frame.expand(CURVE_WIDTH));
                    tessellator.tessellate_shape(
                        Shape::line(line, Stroke::new(CURVE_WIDTH, curve.colour)),
                        mesh,
                    );
                }
            },
        );
        if !mesh.is_empty() {
            painter.add(Shape::Mesh(mesh));
        }
    }

    // Markers and handles go to the painter in one batch (one lock of the context, not one
    // per shape).
    let mut shapes = Vec::new();
    for curve in scene.curves {
        paint_handles(&mut shapes, scene, curve);
    }
    // Unselected markers first, so selected keys stay on top of every curve.
    for selected in [false, true] {
        for curve in scene.curves {
            paint_keys(&mut shapes, scene, curve, selected);
        }
    }
    painter.extend(shapes);

    // Playhead.
    let x = tf.position_from_point_x(scene.playhead);
    if scene.playhead.is_finite() && x >= frame.left() - 1.0 && x <= frame.right() + 1.0 {
        painter.line_segment(
            [pos2(x, frame.top()), pos2(x, frame.bottom())],
            Stroke::new(1.5, ACCENT),
        );
        painter.add(Shape::convex_polygon(
            vec![
                pos2(x - 5.0, frame.top()),
                pos2(x + 5.0, frame.top()),
                pos2(x, frame.top() + 6.0),
            ],
            ACCENT,
            Stroke::NONE,
        ));
    }

    if let Some(rect) = scene.selection_box {
        painter.rect(
            rect,
            0.0,
            ACCENT.gamma_multiply(0.08),
            Stroke::new(1.0, ACCENT),
            egui::StrokeKind::Inside,
        );
    }

    if let Some(note) = scene.note {
        painter.text(
            frame.left_top() + egui::vec2(8.0, 6.0),
            Align2::LEFT_TOP,
            note,
            FontId::proportional(12.0),
            ui.visuals().weak_text_color(),
        );
    }

    if let Some(hover) = scene.hover {
        paint_hover_label(ui, &painter, scene, hover);
    }
}

/// Shades time outside `[0, duration]` and marks both ends.
fn paint_extent(painter: &Painter, tf: &PlotTransform, duration: f64, dark: bool) {
    let frame = *tf.frame();
    let shade = if dark {
        Color32::from_black_alpha(90)
    } else {
        Color32::from_black_alpha(25)
    };
    let edge = Stroke::new(1.0, Color32::from_gray(if dark { 110 } else { 150 }));
    let x0 = tf
        .position_from_point_x(0.0)
        .clamp(frame.left(), frame.right());
    let end = if duration.is_finite() {
        duration.max(0.0)
    } else {
        0.0
    };
    let x1 = tf
        .position_from_point_x(end)
        .clamp(frame.left(), frame.right());
    if x0 > frame.left() {
        painter.rect_filled(
            Rect::from_x_y_ranges(frame.left()..=x0, frame.y_range()),
            0.0,
            shade,
        );
    }
    if x1 < frame.right() {
        painter.rect_filled(
            Rect::from_x_y_ranges(x1..=frame.right(), frame.y_range()),
            0.0,
            shade,
        );
    }
    for x in [x0, x1] {
        if x > frame.left() && x < frame.right() {
            painter.line_segment([pos2(x, frame.top()), pos2(x, frame.bottom())], edge);
        }
    }
}

/// Key markers, either the unselected or the selected ones: every key in view when they are
/// sparse enough, else only the selected ones.
fn paint_keys(
    shapes: &mut Vec<Shape>,
    scene: &Scene<'_, '_>,
    curve: &Curve<'_>,
    selected_pass: bool,
) {
    let tf = scene.tf;
    let b = tf.bounds();
    let (t0, t1) = (b.min()[0], b.max()[0]);
    let hovered = match scene.hover {
        Some(Hit::Key(k)) => Some(k),
        _ => None,
    };
    let mut marker = |k: usize, selected: bool| {
        let Some(p) = curve.key_point(k) else {
            return;
        };
        let hot = hovered == Some(curve.key_ref(k));
        let radius = if hot { KEY_RADIUS + 1.5 } else { KEY_RADIUS };
        let (fill, ring) = if selected {
            (ACCENT, Color32::WHITE)
        } else {
            (curve.colour, Color32::from_black_alpha(200))
        };
        disc(shapes, screen(tf, p), radius, fill, ring);
    };
    if !selected_pass {
        if curve.markers_shown(tf) {
            for k in curve.keys_in(t0, t1) {
                if !scene.selected.contains(&curve.key_ref(k)) {
                    marker(k, false);
                }
            }
        }
    } else {
        for k in curve
            .selected_in(scene.selected, t0, t1)
            .take(MAX_DENSE_SELECTED)
        {
            marker(k, true);
        }
    }
}

/// A filled disc with a one-point ring, as two unstroked circles: epaint draws those from its
/// pre-rasterized discs (one textured quad each) instead of tessellating a stroked path, which
/// keeps thousands of key markers cheap.
fn disc(shapes: &mut Vec<Shape>, center: Pos2, radius: f32, fill: Color32, ring: Color32) {
    for (r, colour) in [(radius + 1.0, ring), (radius, fill)] {
        shapes.push(Shape::Circle(CircleShape {
            center,
            radius: r,
            fill: colour,
            stroke: Stroke::NONE,
        }));
    }
}

/// In and out handles of the selected keys of an editable bezier curve.
fn paint_handles(shapes: &mut Vec<Shape>, scene: &Scene<'_, '_>, curve: &Curve<'_>) {
    let tf = scene.tf;
    let line = Stroke::new(1.0, curve.colour.gamma_multiply(0.8));
    for k in curve.handle_keys(scene.selected, tf) {
        let Some(key) = curve.key_point(k) else {
            continue;
        };
        let key_pos = screen(tf, key);
        for side in [HandleSide::In, HandleSide::Out] {
            let Some(h) = curve.handle(k, side) else {
                continue;
            };
            let p = screen(tf, h);
            let hot = matches!(scene.hover, Some(Hit::Handle { key: r, side: s, .. })
                if r == curve.key_ref(k) && s == side);
            shapes.push(Shape::line_segment([key_pos, p], line));
            let radius = if hot {
                HANDLE_RADIUS + 1.5
            } else {
                HANDLE_RADIUS
            };
            disc(shapes, p, radius, Color32::from_gray(230), curve.colour);
        }
    }
}

/// A small label next to the hovered key or handle: time (s and ms) and value.
fn paint_hover_label(ui: &Ui, painter: &Painter, scene: &Scene<'_, '_>, hover: Hit) {
    let (point, what) = match hover {
        Hit::Key(key) => {
            let Some(curve) = scene.curves.iter().find(|c| c.owns(&key)) else {
                return;
            };
            let Some(p) = curve.key_point(key.key) else {
                return;
            };
            (p, format!("key {}", key.key))
        }
        Hit::Handle {
            side, time, value, ..
        } => (
            [time, value],
            match side {
                HandleSide::In => "in handle".to_string(),
                HandleSide::Out => "out handle".to_string(),
            },
        ),
    };
    let text = format!("{what}  ·  {:.3} s  ·  {:.3}", point[0], point[1]);
    let pos = screen(scene.tf, point) + egui::vec2(10.0, -10.0);
    let galley = painter.layout_no_wrap(
        text,
        FontId::proportional(12.0),
        ui.visuals().strong_text_color(),
    );
    let rect = Align2::LEFT_BOTTOM.anchor_size(pos, galley.size());
    painter.rect_filled(
        rect.expand(3.0),
        3.0,
        ui.visuals().extreme_bg_color.gamma_multiply(0.9),
    );
    painter.galley(rect.min, galley, ui.visuals().strong_text_color());
}
