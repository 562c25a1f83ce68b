//! The key rows under the ruler: one row per track with its label and a diamond per key, dense
//! runs of keys drawn as bars. Clicking a key moves the playhead to it and reports which key;
//! Shift-click toggles it in the selection, dragging a key moves the selected keys of every
//! row in time (snapped to frames; Alt for free time), and dragging over empty space draws a
//! box that selects the keys of every row inside it (Shift adds).

use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rangef, Rect, Sense, Stroke, vec2,
};

use crate::ui::style::ACCENT;
use clipscope_editor::Transport;

use super::axis::{TimeAxis, ticks};
use super::ruler::{Grid, paint_clip_range};
use super::{BoxSelect, DopeRow, TimelineOutput};

/// Height of one key row (points).
pub(super) const ROW_HEIGHT: f32 = 20.0;

/// Half the width of a key diamond (points).
const KEY_RADIUS: f32 = 5.0;

/// How far (points) from a key a click still picks it.
const HIT_RADIUS: f32 = 6.0;

/// Gesture ids of dopesheet drags start here, apart from the curve editor's and other panels'.
pub const GESTURE_BASE: u64 = 0x00d0_0000_0000_0000;

/// A key drag in progress (kept in egui memory between frames).
#[derive(Debug, Clone, Copy)]
struct KeyDrag {
    gesture: u64,
    /// Screen x where the drag started.
    origin_x: f32,
    /// The grabbed key's time when the drag started.
    anchor: f64,
    /// The offset already reported.
    applied: f64,
}

/// A box selection in progress: where it started, in which row (kept in egui memory).
#[derive(Debug, Clone, Copy)]
struct BoxDrag {
    /// The row the drag started in (its response follows the pointer).
    row: usize,
    /// Screen position where the drag started.
    origin: Pos2,
}

/// The box from the press at `drag.origin` to `pos`, as rows and times; `row_top` is the top
/// of the row the drag started in, and every row is [`ROW_HEIGHT`] tall.
fn box_select(drag: BoxDrag, pos: Pos2, row_top: f32, axis: &TimeAxis, add: bool) -> BoxSelect {
    let row_at = |y: f32| {
        let offset = ((y - row_top) / ROW_HEIGHT).floor();
        (drag.row as f32 + offset).max(0.0) as usize
    };
    let (a, b) = (row_at(drag.origin.y), row_at(pos.y));
    let (t0, t1) = (axis.time_at(drag.origin.x), axis.time_at(pos.x));
    BoxSelect {
        first: a.min(b),
        last: a.max(b),
        start: t0.min(t1),
        end: t0.max(t1),
        add,
    }
}

/// A drag that starts away from any key draws a selection box (see
/// [`TimelineOutput::box_select`]).
#[expect(clippy::too_many_arguments)]
fn drag_box(
    ui: &egui::Ui,
    id: egui::Id,
    index: usize,
    row_rect: Rect,
    keys_rect: Rect,
    axis: &TimeAxis,
    on_key: bool,
    origin: Option<Pos2>,
    response: &egui::Response,
    output: &mut TimelineOutput,
) {
    let memory = id.with("box select");
    if response.drag_started()
        && !on_key
        && let Some(origin) = origin.filter(|o| keys_rect.contains(*o))
    {
        ui.data_mut(|d| d.insert_temp(memory, BoxDrag { row: index, origin }));
    }
    let Some(drag) = ui
        .data(|d| d.get_temp::<BoxDrag>(memory))
        .filter(|d| d.row == index)
    else {
        return;
    };
    let Some(pos) = response.interact_pointer_pos() else {
        if !response.dragged() {
            ui.data_mut(|d| d.remove::<BoxDrag>(memory));
        }
        return;
    };
    if response.drag_stopped() {
        let add = ui.input(|i| i.modifiers.shift);
        output.box_select = Some(box_select(drag, pos, row_rect.top(), axis, add));
        ui.data_mut(|d| d.remove::<BoxDrag>(memory));
    } else if response.dragged() {
        let area = Rect::from_x_y_ranges(keys_rect.x_range(), ui.clip_rect().y_range());
        let painter = ui
            .ctx()
            .layer_painter(egui::LayerId::new(egui::Order::Foreground, memory))
            .with_clip_rect(area);
        let rect = Rect::from_two_pos(drag.origin, pos);
        painter.rect(
            rect,
            CornerRadius::ZERO,
            ACCENT.gamma_multiply(0.12),
            Stroke::new(1.0, ACCENT),
            egui::StrokeKind::Inside,
        );
    } else {
        ui.data_mut(|d| d.remove::<BoxDrag>(memory));
    }
}

/// Keys closer together than this (points) merge into a bar instead of single diamonds.
const MIN_KEY_GAP: f32 = 2.0;

/// The font of the row labels.
fn label_font() -> FontId {
    FontId::proportional(12.0)
}

/// Width of the label column shared by the ruler and the rows: fits the longest label, within
/// limits.
pub(super) fn label_column_width(ui: &egui::Ui, rows: &[DopeRow<'_>]) -> f32 {
    let widest = rows
        .iter()
        .map(|row| {
            ui.painter()
                .layout_no_wrap(row.label.to_owned(), label_font(), Color32::WHITE)
                .size()
                .x
        })
        .fold(0.0_f32, f32::max);
    (widest + 22.0).clamp(90.0, 240.0)
}

/// What to paint for the keys of one row.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mark {
    /// One key (or a few on top of each other) as a diamond at `x`; `index` is the first key.
    Key {
        /// Index of the (first) key in the row's times.
        index: usize,
        /// Screen x of the diamond.
        x: f32,
    },
    /// A run of keys denser than one per [`MIN_KEY_GAP`] points, as a bar.
    Bar {
        /// Screen x of the first key of the run.
        from: f32,
        /// Screen x of the last key of the run.
        to: f32,
    },
}

/// Groups the keys of `times` visible in `visible` into marks: runs whose neighbours are closer
/// than [`MIN_KEY_GAP`] become one bar (or one diamond when the run is narrower than a diamond).
fn marks(times: &[f32], axis: &TimeAxis, visible: Rangef) -> Vec<Mark> {
    let mut xs: Vec<(f32, usize)> = times
        .iter()
        .enumerate()
        .filter_map(|(index, &t)| {
            let x = axis.x_of(f64::from(t));
            (x.is_finite() && x >= visible.min - KEY_RADIUS && x <= visible.max + KEY_RADIUS)
                .then_some((x, index))
        })
        .collect();
    if !xs.is_sorted_by(|a, b| a.0 <= b.0) {
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut marks = Vec::new();
    let mut first = 0;
    while first < xs.len() {
        let mut last = first;
        while last + 1 < xs.len() && xs[last + 1].0 - xs[last].0 < MIN_KEY_GAP {
            last += 1;
        }
        let (from, to) = (xs[first].0, xs[last].0);
        if to - from < KEY_RADIUS {
            marks.push(Mark::Key {
                index: xs[first].1,
                x: (from + to) / 2.0,
            });
        } else {
            marks.push(Mark::Bar { from, to });
        }
        first = last + 1;
    }
    marks
}

/// The key of `times` nearest to screen x `x`, if one is within [`HIT_RADIUS`].
fn key_near(times: &[f32], axis: &TimeAxis, x: f32) -> Option<usize> {
    times
        .iter()
        .enumerate()
        .map(|(index, &t)| (index, (axis.x_of(f64::from(t)) - x).abs()))
        .filter(|(_, distance)| *distance <= HIT_RADIUS)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(index, _)| index)
}

/// Shows the rows (scrolling vertically when they do not fit) in the rest of the strip.
#[expect(clippy::too_many_arguments)]
pub(super) fn show(
    ui: &mut egui::Ui,
    id: egui::Id,
    rows: &[DopeRow<'_>],
    axis: &TimeAxis,
    label_width: f32,
    grid: Grid,
    transport: &mut Transport,
    duration: f64,
    output: &mut TimelineOutput,
) {
    // Fill the rest of the strip; inside something of unbounded height, just fit the rows.
    let available = ui.available_rect_before_wrap();
    let height = if available.height().is_finite() {
        available.height()
    } else {
        rows.len() as f32 * ROW_HEIGHT
    };
    let area = Rect::from_min_size(
        available.min,
        vec2(available.width(), height.max(ROW_HEIGHT)),
    );
    let keys_area = Rect::from_x_y_ranges(axis.x_range(), area.y_range());
    paint_background(ui, area, keys_area, label_width, axis, grid, duration);

    if rows.is_empty() {
        ui.painter().text(
            keys_area.center_top() + vec2(0.0, 2.0 * ROW_HEIGHT),
            Align2::CENTER_CENTER,
            "Select tracks to see their keys here",
            FontId::proportional(13.0),
            ui.visuals().weak_text_color(),
        );
        ui.allocate_rect(area, Sense::hover());
        paint_playhead(ui, keys_area, axis, transport.time);
        return;
    }

    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        egui::ScrollArea::vertical()
            .id_salt(id)
            .auto_shrink([false, false])
            .max_height(area.height())
            .show_rows(ui, ROW_HEIGHT, rows.len(), |ui, visible_rows| {
                for index in visible_rows {
                    show_row(
                        ui,
                        id,
                        index,
                        &rows[index],
                        axis,
                        label_width,
                        transport,
                        duration,
                        output,
                    );
                }
            });
    });

    paint_playhead(ui, keys_area, axis, transport.time);
}

/// The playhead line through the key area, on top of the rows.
fn paint_playhead(ui: &egui::Ui, keys_area: Rect, axis: &TimeAxis, time: f64) {
    let x = axis.x_of(time);
    if keys_area.x_range().contains(x) {
        ui.painter()
            .with_clip_rect(keys_area.intersect(ui.clip_rect()))
            .vline(x, keys_area.y_range(), Stroke::new(1.5, ACCENT));
    }
}

/// Paints what lies under the rows: the column backgrounds, faint second lines, the shading
/// outside the clip and its end line.
fn paint_background(
    ui: &egui::Ui,
    area: Rect,
    keys_area: Rect,
    label_width: f32,
    axis: &TimeAxis,
    grid: Grid,
    duration: f64,
) {
    let visuals = ui.visuals();
    let painter = ui.painter_at(area);
    let label_area = Rect::from_min_max(
        area.min,
        Pos2::new(area.left() + label_width, area.bottom()),
    );
    painter.rect_filled(label_area, CornerRadius::ZERO, visuals.panel_fill);
    let painter = ui.painter_at(keys_area.intersect(area));
    painter.rect_filled(keys_area, CornerRadius::ZERO, visuals.extreme_bg_color);
    let line = Stroke::new(1.0, visuals.text_color().gamma_multiply(0.07));
    let (t0, t1) = (
        axis.time_at(keys_area.left()),
        axis.time_at(keys_area.right()),
    );
    for (_, seconds) in ticks(t0, t1, grid.seconds) {
        painter.vline(axis.x_of(seconds), keys_area.y_range(), line);
    }
    paint_clip_range(&painter, keys_area, axis, duration);
    let end = axis.x_of(duration);
    painter.vline(
        end,
        keys_area.y_range(),
        Stroke::new(1.0, Color32::from_gray(90)),
    );
}

/// A drag that starts on a key moves the selected keys (see [`TimelineOutput::move_keys`]).
#[expect(clippy::too_many_arguments)]
fn drag_keys(
    ui: &egui::Ui,
    id: egui::Id,
    index: usize,
    row: &DopeRow<'_>,
    axis: &TimeAxis,
    transport: &Transport,
    alt: bool,
    origin: Option<Pos2>,
    response: &egui::Response,
    pointer_key: impl Fn(Option<Pos2>) -> Option<usize>,
    output: &mut TimelineOutput,
) {
    let memory = id.with("key drag");
    if response.drag_started()
        && let Some(key) = pointer_key(origin)
        && let Some(origin) = origin
    {
        let counter = id.with("key drag counter");
        let n = ui.data_mut(|d| {
            let n = d.get_temp_mut_or_default::<u64>(counter);
            *n += 1;
            *n
        });
        let drag = KeyDrag {
            gesture: GESTURE_BASE + n,
            origin_x: origin.x,
            anchor: f64::from(row.times[key]),
            applied: 0.0,
        };
        ui.data_mut(|d| d.insert_temp(memory.with(index), drag));
        output.grab_key = Some((index, key));
    }
    let Some(mut drag) = ui.data(|d| d.get_temp::<KeyDrag>(memory.with(index))) else {
        return;
    };
    if let Some(pos) = response.interact_pointer_pos()
        && (response.dragged() || response.drag_stopped())
    {
        let mut dt = axis.time_at(pos.x) - axis.time_at(drag.origin_x);
        if !alt {
            dt = transport.snap_to_frame(drag.anchor + dt) - drag.anchor;
        }
        let step = dt - drag.applied;
        if step != 0.0 {
            output.move_keys = Some((step, drag.gesture));
            drag.applied = dt;
        }
    }
    if response.dragged() {
        ui.data_mut(|d| d.insert_temp(memory.with(index), drag));
    } else {
        ui.data_mut(|d| d.remove::<KeyDrag>(memory.with(index)));
    }
}

/// One row: its label, key marks, hover highlight and key picking.
#[expect(clippy::too_many_arguments)]
fn show_row(
    ui: &mut egui::Ui,
    id: egui::Id,
    index: usize,
    row: &DopeRow<'_>,
    axis: &TimeAxis,
    label_width: f32,
    transport: &mut Transport,
    duration: f64,
    output: &mut TimelineOutput,
) {
    let (rect, _) = ui.allocate_exact_size(vec2(ui.available_width(), ROW_HEIGHT), Sense::hover());
    let response = ui.interact(rect, id.with(("row", index)), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Row, ui.is_enabled(), row.label));
    if !ui.is_rect_visible(rect) {
        return;
    }
    let keys_rect = Rect::from_x_y_ranges(axis.x_range(), rect.y_range());
    let label_rect = Rect::from_min_max(
        rect.min,
        Pos2::new(rect.left() + label_width, rect.bottom()),
    );

    let pointer_key = |pos: Option<Pos2>| {
        pos.filter(|p| keys_rect.contains(*p))
            .and_then(|p| key_near(row.times, axis, p.x))
    };
    let hovered = pointer_key(response.hover_pos());
    let (shift, alt, origin) =
        ui.input(|i| (i.modifiers.shift, i.modifiers.alt, i.pointer.press_origin()));
    if response.clicked()
        && let Some(key) = pointer_key(response.interact_pointer_pos())
    {
        if shift {
            output.toggle_key = Some((index, key));
        } else {
            transport.time = f64::from(row.times[key]).clamp(0.0, duration);
            output.scrubbed = true;
            output.seek_key = Some((index, key));
        }
    }
    let on_key = pointer_key(origin).is_some();
    drag_keys(
        ui,
        id,
        index,
        row,
        axis,
        transport,
        alt,
        origin,
        &response,
        pointer_key,
        output,
    );
    drag_box(
        ui, id, index, rect, keys_rect, axis, on_key, origin, &response, output,
    );
    if hovered.is_some() {
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
    }

    if index % 2 == 1 {
        ui.painter()
            .rect_filled(rect, CornerRadius::ZERO, Color32::from_white_alpha(5));
    }
    if response.hovered() {
        ui.painter()
            .rect_filled(rect, CornerRadius::ZERO, Color32::from_white_alpha(6));
    }

    // Label: a colour chip and the name in the row colour, clipped to the column.
    let label_painter = ui
        .painter()
        .with_clip_rect(label_rect.intersect(ui.clip_rect()));
    label_painter.rect_filled(
        Rect::from_min_size(
            label_rect.min + vec2(6.0, 5.0),
            vec2(3.0, ROW_HEIGHT - 10.0),
        ),
        CornerRadius::same(1),
        row.colour,
    );
    label_painter.text(
        Pos2::new(label_rect.left() + 14.0, label_rect.center().y),
        Align2::LEFT_CENTER,
        row.label,
        label_font(),
        row.colour,
    );

    let painter = ui
        .painter()
        .with_clip_rect(keys_rect.intersect(ui.clip_rect()));
    paint_keys(&painter, keys_rect, row, axis, transport.time, hovered);
}

/// Paints the extent line and the key marks of one row.
fn paint_keys(
    painter: &Painter,
    rect: Rect,
    row: &DopeRow<'_>,
    axis: &TimeAxis,
    playhead: f64,
    hovered: Option<usize>,
) {
    let y = rect.center().y;
    let finite = || row.times.iter().copied().filter(|t| t.is_finite());
    if let (Some(first), Some(last)) = (finite().reduce(f32::min), finite().reduce(f32::max))
        && last > first
    {
        painter.hline(
            axis.x_of(f64::from(first))..=axis.x_of(f64::from(last)),
            y,
            Stroke::new(1.0, row.colour.gamma_multiply(0.3)),
        );
    }
    let outline = Stroke::new(1.0, Color32::from_black_alpha(170));
    for mark in marks(row.times, axis, rect.x_range()) {
        match mark {
            Mark::Key { index, x } => {
                let at_playhead = (f64::from(row.times[index]) - playhead).abs() < 1e-4;
                let (radius, stroke) = if row.selected.binary_search(&index).is_ok() {
                    (KEY_RADIUS + 1.0, Stroke::new(2.0, Color32::WHITE))
                } else if at_playhead {
                    (KEY_RADIUS + 0.5, Stroke::new(1.5, ACCENT))
                } else {
                    (KEY_RADIUS, outline)
                };
                painter.add(diamond(Pos2::new(x, y), radius, row.colour, stroke));
            }
            Mark::Bar { from, to } => {
                let bar = Rect::from_x_y_ranges(
                    (from - 1.0)..=(to + 1.0),
                    (y - KEY_RADIUS * 0.7)..=(y + KEY_RADIUS * 0.7),
                );
                painter.rect(
                    bar,
                    CornerRadius::same(2),
                    row.colour,
                    outline,
                    egui::StrokeKind::Outside,
                );
            }
        }
    }
    // The key under the pointer, outlined on top (it may sit inside a bar or a merged pair).
    if let Some(index) = hovered {
        let x = axis.x_of(f64::from(row.times[index]));
        painter.add(diamond(
            Pos2::new(x, y),
            KEY_RADIUS + 1.0,
            row.colour,
            Stroke::new(1.5, Color32::WHITE),
        ));
    }
}

/// A key diamond centred at `centre`.
fn diamond(centre: Pos2, radius: f32, fill: Color32, stroke: Stroke) -> egui::Shape {
    egui::Shape::convex_polygon(
        vec![
            centre + vec2(0.0, -radius),
            centre + vec2(radius, 0.0),
            centre + vec2(0.0, radius),
            centre + vec2(-radius, 0.0),
        ],
        fill,
        stroke,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis() -> TimeAxis {
        // 1 s over 100 points inside the margins.
        TimeAxis::new(Rangef::new(0.0, 100.0 + 2.0 * TimeAxis::MARGIN), 0.0, 1.0)
    }

    #[test]
    fn sparse_keys_are_diamonds() {
        let m = marks(&[0.0, 0.5, 1.0], &axis(), axis().x_range());
        assert_eq!(
            m,
            [
                Mark::Key { index: 0, x: 12.0 },
                Mark::Key { index: 1, x: 62.0 },
                Mark::Key { index: 2, x: 112.0 }
            ]
        );
    }

    #[test]
    fn dense_runs_become_bars_and_close_pairs_one_diamond() {
        // 0.1 s of keys every 0.005 s (0.5 points apart), then a step pair 0.01 points apart.
        let mut times: Vec<f32> = (0..=20).map(|i| 0.2 + i as f32 * 0.005).collect();
        times.extend([0.8, 0.8001]);
        let m = marks(&times, &axis(), axis().x_range());
        assert_eq!(m.len(), 2, "{m:?}");
        let Mark::Bar { from, to } = m[0] else {
            panic!("{m:?}")
        };
        assert!(
            (from - 32.0).abs() < 1e-3 && (to - 42.0).abs() < 1e-3,
            "{m:?}"
        );
        assert!(matches!(m[1], Mark::Key { index: 21, .. }), "{m:?}");
    }

    #[test]
    fn many_keys_make_few_marks() {
        let times: Vec<f32> = (0..100_000).map(|i| i as f32 / 100_000.0).collect();
        let m = marks(&times, &axis(), axis().x_range());
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn keys_outside_the_view_are_skipped_and_unsorted_times_handled() {
        let m = marks(&[0.9, -5.0, 0.1, 7.0, f32::NAN], &axis(), axis().x_range());
        assert_eq!(
            m,
            [
                Mark::Key { index: 2, x: 22.0 },
                Mark::Key { index: 0, x: 102.0 }
            ]
        );
    }

    #[test]
    fn a_box_covers_the_rows_and_times_between_its_corners() {
        let drag = BoxDrag {
            row: 2,
            origin: Pos2::new(62.0, 105.0),
        };
        // Dragged up and left, from row 2 (top at y = 100) to a point in row 0.
        let b = box_select(drag, Pos2::new(22.0, 65.0), 100.0, &axis(), true);
        assert_eq!(
            b,
            BoxSelect {
                first: 0,
                last: 2,
                start: 0.1,
                end: 0.5,
                add: true
            }
        );
        assert_eq!(b.keys_in(&[0.0, 0.1, 0.3, 0.5, 0.6, 0.2]), [1, 2, 3, 5]);
        // Above the first row is row 0.
        let b = box_select(drag, Pos2::new(70.0, -500.0), 100.0, &axis(), false);
        assert_eq!((b.first, b.last), (0, 2));
    }

    #[test]
    fn key_near_picks_the_closest_within_reach() {
        let times = [0.0, 0.5, 0.52, 1.0];
        assert_eq!(key_near(&times, &axis(), 63.0), Some(1));
        assert_eq!(key_near(&times, &axis(), 64.5), Some(2));
        assert_eq!(key_near(&times, &axis(), 40.0), None);
        assert_eq!(key_near(&[], &axis(), 40.0), None);
    }
}
