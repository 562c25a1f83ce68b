//! The ruler above the key rows: seconds and frame ticks, the clip's end, the play range
//! (Ctrl+drag sets it) and the playhead that is scrubbed by clicking or dragging anywhere on it.

use egui::{Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Response, Sense, Stroke};

use crate::ui::style::ACCENT;
use clipscope_editor::Transport;

use super::axis::{TimeAxis, nice_step, step_decimals, ticks};
use super::{TimelineOutput, format_frame};

/// Height of the ruler (points).
pub(super) const HEIGHT: f32 = 38.0;

/// Gap (points) kept between neighbouring tick labels.
const LABEL_GAP: f32 = 14.0;

/// The tick steps chosen for the current zoom.
#[derive(Debug, Clone, Copy)]
pub(super) struct Grid {
    /// Seconds between labelled ticks.
    pub seconds: f64,
    /// Frames between labelled frame ticks (`None` without a frame grid).
    pub frames: Option<f64>,
}

/// Shows the ruler in `rect` (the key area; `label_rect` is the cell left of it) and scrubs the
/// transport when it is clicked or dragged. Returns the ruler's response and its tick grid.
#[expect(clippy::too_many_arguments)]
pub(super) fn show(
    ui: &mut egui::Ui,
    id: egui::Id,
    label_rect: Rect,
    rect: Rect,
    axis: &TimeAxis,
    transport: &mut Transport,
    duration: f64,
    markers: &[(f64, &str)],
    output: &mut TimelineOutput,
) -> (Response, Grid) {
    let response = ui.interact(rect, id, Sense::click_and_drag());
    // Ctrl+drag sets the play range from where the drag began (snapped to frames).
    let range_id = id.with("play range drag");
    let ctrl = ui.input(|i| i.modifiers.command);
    if response.drag_started()
        && ctrl
        && let Some(pos) = ui.input(|i| i.pointer.press_origin())
    {
        let start = transport
            .snap_to_frame(axis.time_at(pos.x))
            .clamp(0.0, duration);
        ui.data_mut(|d| d.insert_temp(range_id, start));
    }
    let range_start = ui.data(|d| d.get_temp::<f64>(range_id));
    if let Some(start) = range_start {
        if let Some(pos) = response.interact_pointer_pos() {
            let end = transport
                .snap_to_frame(axis.time_at(pos.x))
                .clamp(0.0, duration);
            transport.set_range(start, end);
        }
        if !response.dragged() {
            ui.data_mut(|d| d.remove::<f64>(range_id));
        }
    }
    let scrubbing = range_start.is_none() && !(ctrl && response.dragged());
    let scrubbing = scrubbing
        && (response.clicked()
            || response.drag_stopped_by(egui::PointerButton::Primary)
            || (response.is_pointer_button_down_on() && ui.input(|i| i.pointer.primary_down())));
    if scrubbing && let Some(pos) = response.interact_pointer_pos() {
        let free = ui.input(|i| i.modifiers.alt || i.modifiers.shift);
        let mut time = axis.time_at(pos.x);
        let marker = markers
            .iter()
            .map(|&(t, _)| t)
            .filter(|&t| (axis.x_of(t) - pos.x).abs() <= MARKER_HIT)
            .min_by(|a, b| (a - time).abs().total_cmp(&(b - time).abs()));
        if let Some(t) = marker {
            time = t;
        } else if !free {
            time = transport.snap_to_frame(time);
        }
        transport.time = time.clamp(0.0, duration);
        output.scrubbed = true;
    }
    response.widget_info(|| egui::WidgetInfo::slider(ui.is_enabled(), transport.time, "Playhead"));
    let response = response
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text(
            "Click or drag to scrub (snaps to frames; hold Alt or Shift for free time).\n\
             Ctrl+drag sets the play range (P: from the selected keys, Alt+P clears it).\n\
             Wheel pans, Ctrl+wheel zooms, double-click shows the whole clip.",
        );

    let grid = paint(ui, label_rect, rect, axis, transport, duration);
    paint_markers(
        &ui.painter_at(rect),
        rect,
        axis,
        markers,
        ui.visuals().text_color(),
    );
    (response, grid)
}

/// Paints the ruler background, ticks, labels, the end of the clip and the playhead handle.
fn paint(
    ui: &egui::Ui,
    label_rect: Rect,
    rect: Rect,
    axis: &TimeAxis,
    transport: &Transport,
    duration: f64,
) -> Grid {
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    let font = FontId::proportional(11.0);
    let strong = visuals.text_color();
    let weak = visuals.weak_text_color();

    // Cells: the unit captions on the left, the ruler band on the right.
    ui.painter()
        .rect_filled(label_rect, CornerRadius::ZERO, visuals.panel_fill);
    let caption = ui.painter().with_clip_rect(label_rect);
    caption.text(
        label_rect.right_top() + egui::vec2(-8.0, 3.0),
        Align2::RIGHT_TOP,
        "seconds",
        font.clone(),
        weak,
    );
    caption.text(
        label_rect.right_bottom() + egui::vec2(-8.0, -3.0),
        Align2::RIGHT_BOTTOM,
        "frames",
        font.clone(),
        weak,
    );
    painter.rect_filled(rect, CornerRadius::ZERO, visuals.extreme_bg_color);
    paint_clip_range(&painter, rect, axis, duration);

    let grid = choose_grid(&painter, axis, transport.fps, &font);
    let (t0, t1) = (axis.time_at(rect.left()), axis.time_at(rect.right()));

    // Frame ticks: every frame when there is room, labelled ones taller, along the bottom.
    if let Some(frame_step) = grid.frames {
        let fps = transport.fps;
        let points_per_frame = axis.points_per_second() / fps;
        if points_per_frame >= 5.0 {
            for (_, frame) in ticks(t0 * fps, t1 * fps, 1.0) {
                let x = axis.x_of(frame / fps);
                painter.vline(
                    x,
                    (rect.bottom() - 3.0)..=rect.bottom(),
                    Stroke::new(1.0, weak.gamma_multiply(0.5)),
                );
            }
        }
        for (_, frame) in ticks(t0 * fps, t1 * fps, frame_step) {
            let x = axis.x_of(frame / fps);
            painter.vline(
                x,
                (rect.bottom() - 7.0)..=rect.bottom(),
                Stroke::new(1.0, weak),
            );
            painter.text(
                Pos2::new(x + 3.0, rect.bottom() - 2.0),
                Align2::LEFT_BOTTOM,
                format!("{frame:.0}"),
                font.clone(),
                weak,
            );
        }
    }

    // Second ticks: full-height hairlines with labels along the top.
    let decimals = step_decimals(grid.seconds);
    for (_, seconds) in ticks(t0, t1, grid.seconds) {
        let x = axis.x_of(seconds);
        painter.vline(
            x,
            rect.y_range(),
            Stroke::new(1.0, strong.gamma_multiply(0.18)),
        );
        painter.text(
            Pos2::new(x + 3.0, rect.top() + 2.0),
            Align2::LEFT_TOP,
            format_seconds(seconds, decimals),
            font.clone(),
            strong.gamma_multiply(0.85),
        );
    }

    paint_clip_end(&painter, rect, axis, duration);
    if transport.range.is_some() {
        paint_play_range(&painter, rect, axis, transport.bounds(duration));
    }
    paint_playhead_handle(&painter, rect, axis, transport);
    // A hairline between the ruler and the rows.
    ui.painter().hline(
        label_rect.left()..=rect.right(),
        rect.bottom(),
        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
    );
    grid
}

/// Tells the clip apart from what lies outside it in `rect` (drawn with a `painter` clipped to
/// `rect`): a lighter band over `[0, duration]`, faint hatching before and after it.
pub(super) fn paint_clip_range(painter: &Painter, rect: Rect, axis: &TimeAxis, duration: f64) {
    let (start_x, end_x) = (axis.x_of(0.0), axis.x_of(duration));
    let inside = Rect::from_x_y_ranges(
        start_x.max(rect.left())..=end_x.min(rect.right()),
        rect.y_range(),
    );
    if inside.width() > 0.0 {
        painter.rect_filled(inside, CornerRadius::ZERO, Color32::from_white_alpha(10));
    }
    let hatch = Stroke::new(1.0, Color32::from_white_alpha(14));
    let spacing = 7.0;
    for (from, to) in [(rect.left(), start_x), (end_x, rect.right())] {
        let (from, to) = (from.max(rect.left()), to.min(rect.right()));
        if to <= from {
            continue;
        }
        // Diagonals "/" across the band, on a grid fixed to the screen so they do not crawl.
        let mut x = ((from - rect.height()) / spacing).floor() * spacing;
        let band = painter.with_clip_rect(
            Rect::from_x_y_ranges(from..=to, rect.y_range()).intersect(painter.clip_rect()),
        );
        while x < to {
            band.line_segment(
                [
                    Pos2::new(x, rect.bottom()),
                    Pos2::new(x + rect.height(), rect.top()),
                ],
                hatch,
            );
            x += spacing;
        }
    }
}

/// How near (points) a click on the ruler must be to a marker to jump to it.
const MARKER_HIT: f32 = 6.0;

/// Each marker as a small flag hanging from the top of the ruler, with its name.
fn paint_markers(
    painter: &Painter,
    rect: Rect,
    axis: &TimeAxis,
    markers: &[(f64, &str)],
    text: Color32,
) {
    let colour = Color32::from_rgb(240, 200, 90);
    for &(time, name) in markers {
        let x = axis.x_of(time);
        if !rect.x_range().contains(x) {
            continue;
        }
        painter.vline(
            x,
            rect.y_range(),
            Stroke::new(1.0, colour.gamma_multiply(0.7)),
        );
        painter.add(egui::Shape::convex_polygon(
            vec![
                Pos2::new(x - 4.0, rect.top()),
                Pos2::new(x + 4.0, rect.top()),
                Pos2::new(x, rect.top() + 6.0),
            ],
            colour,
            Stroke::NONE,
        ));
        painter.text(
            Pos2::new(x + 5.0, rect.center().y),
            Align2::LEFT_CENTER,
            name,
            FontId::proportional(10.0),
            text,
        );
    }
}

/// Shades the ruler outside the play range `(start, end)` and marks its ends with brackets.
pub(super) fn paint_play_range(
    painter: &Painter,
    rect: Rect,
    axis: &TimeAxis,
    (start, end): (f64, f64),
) {
    let (a, b) = (axis.x_of(start), axis.x_of(end));
    let shade = Color32::from_black_alpha(110);
    for (from, to) in [(rect.left(), a), (b, rect.right())] {
        let (from, to) = (from.max(rect.left()), to.min(rect.right()));
        if to > from {
            painter.rect_filled(
                Rect::from_x_y_ranges(from..=to, rect.y_range()),
                CornerRadius::ZERO,
                shade,
            );
        }
    }
    let stroke = Stroke::new(2.0, ACCENT);
    for (x, dir) in [(a, 1.0), (b, -1.0)] {
        painter.vline(x, rect.y_range(), stroke);
        for y in [rect.top() + 1.0, rect.bottom() - 1.0] {
            painter.hline(x..=x + 6.0 * dir, y, stroke);
        }
    }
}

/// Marks the clip's duration with a line and an "end" caption.
fn paint_clip_end(painter: &Painter, rect: Rect, axis: &TimeAxis, duration: f64) {
    let x = axis.x_of(duration);
    if !(rect.left()..=rect.right()).contains(&x) {
        return;
    }
    let colour = Color32::from_gray(150);
    painter.vline(x, rect.y_range(), Stroke::new(1.0, colour));
    // The caption sits after the line, or before it when the line is at the right edge.
    let (pos, anchor) = if rect.right() - x > 24.0 {
        (Pos2::new(x + 3.0, rect.center().y), Align2::LEFT_CENTER)
    } else {
        (Pos2::new(x - 3.0, rect.center().y), Align2::RIGHT_CENTER)
    };
    painter.text(pos, anchor, "end", FontId::proportional(10.0), colour);
}

/// The playhead's handle: an accent tab with the current frame, and the line below it.
fn paint_playhead_handle(painter: &Painter, rect: Rect, axis: &TimeAxis, transport: &Transport) {
    let x = axis.x_of(transport.time);
    if !(rect.left() - 40.0..=rect.right() + 40.0).contains(&x) {
        return;
    }
    let stroke = Stroke::new(1.5, ACCENT);
    painter.vline(x, rect.y_range(), stroke);
    let text = format_frame(transport.frame());
    let galley =
        painter.layout_no_wrap(text, FontId::monospace(11.0), Color32::from_rgb(30, 24, 18));
    let size = galley.size() + egui::vec2(10.0, 2.0);
    let tab = Rect::from_center_size(
        Pos2::new(x, rect.top() + 1.0 + size.y / 2.0),
        size.max(egui::vec2(20.0, 0.0)),
    );
    painter.rect_filled(tab, CornerRadius::same(3), ACCENT);
    // A small point under the tab, aimed at the line.
    let tip = Pos2::new(x, tab.bottom() + 4.0);
    painter.add(egui::Shape::convex_polygon(
        vec![
            Pos2::new(x - 4.0, tab.bottom()),
            Pos2::new(x + 4.0, tab.bottom()),
            tip,
        ],
        ACCENT,
        Stroke::NONE,
    ));
    let text_pos = tab.center() - galley.size() / 2.0;
    painter.galley(text_pos, galley, Color32::BLACK);
}

/// Picks the seconds and frame steps so that neighbouring labels never overlap.
pub(super) fn choose_grid(painter: &Painter, axis: &TimeAxis, fps: f64, font: &FontId) -> Grid {
    let points_per_second = axis.points_per_second();
    let widest = axis.start().abs().max(axis.end().abs());
    let label_width = |text: String| {
        painter
            .layout_no_wrap(text, font.clone(), Color32::WHITE)
            .size()
            .x
    };

    // Seconds: grow the step until the widest label of that precision fits between ticks.
    let mut seconds = nice_step(40.0 / points_per_second);
    for _ in 0..8 {
        let width = label_width(format_seconds(-widest.max(seconds), step_decimals(seconds)));
        if seconds * points_per_second >= f64::from(width + LABEL_GAP) {
            break;
        }
        seconds = nice_step(seconds * 1.5);
    }

    let frames = (fps.is_finite() && fps > 0.0).then(|| {
        let points_per_frame = points_per_second / fps;
        let width = label_width(format!("{:.0}", -(widest * fps).ceil()));
        nice_step(f64::from(width + LABEL_GAP) / points_per_frame).max(1.0)
    });
    Grid { seconds, frames }
}

/// A ruler label in seconds, e.g. `0.5s`, `2s`.
pub(super) fn format_seconds(seconds: f64, decimals: usize) -> String {
    // Avoid "-0s" for a tick at zero reached from below.
    let seconds = if seconds == 0.0 { 0.0 } else { seconds };
    format!("{seconds:.decimals$}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_labels_use_the_step_precision() {
        assert_eq!(format_seconds(0.5, 1), "0.5s");
        assert_eq!(format_seconds(2.0, 0), "2s");
        assert_eq!(format_seconds(-0.0, 0), "0s");
        assert_eq!(format_seconds(0.05 * 3.0, 2), "0.15s");
    }

    #[test]
    fn grid_labels_never_overlap_at_any_zoom() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter().clone();
            let font = FontId::proportional(11.0);
            for width in [120.0_f32, 400.0, 1600.0] {
                for end in [0.01, 0.63, 1.0, 7.5, 120.0, 4000.0] {
                    let axis = TimeAxis::new(egui::Rangef::new(0.0, width), 0.0, end);
                    let grid = choose_grid(&painter, &axis, 30.0, &font);
                    let pps = axis.points_per_second();
                    let decimals = step_decimals(grid.seconds);
                    for (_, t) in ticks(0.0, end, grid.seconds) {
                        let w = painter
                            .layout_no_wrap(
                                format_seconds(t, decimals),
                                font.clone(),
                                Color32::WHITE,
                            )
                            .size()
                            .x;
                        assert!(
                            grid.seconds * pps >= f64::from(w + 4.0),
                            "seconds step {} at width {width}, end {end}",
                            grid.seconds
                        );
                    }
                    let frames = grid.frames.expect("a frame grid at 30 fps");
                    assert!(frames >= 1.0 && frames.fract() == 0.0);
                    let w = painter
                        .layout_no_wrap(format!("{:.0}", end * 30.0), font.clone(), Color32::WHITE)
                        .size()
                        .x;
                    assert!(frames * pps / 30.0 >= f64::from(w + 4.0));
                }
            }
        });
        output.textures_delta.clear();
    }
}
