//! The timeline strip at the bottom of the editor: transport controls, a ruler with the
//! playhead, and one dopesheet row of key ticks per track.
//!
//! ```text
//! [|◀][▶][▶|] [repeat ▾] [1.00×] [30 fps]   0:00.42 / 0:00.63   frame 13 / 19
//!      seconds │0s     0.2s     0.4s  ▼    0.6s │end░░░░
//!       frames │0        6        12  │      18 │   ░░░░
//! ▌ hips.position  │◆────◆────◆────◆────│────◆   ░░░░
//! ▌ head.quaternion│◆═══════════════════│═══◆    ░░░░
//! ```
//!
//! The panel edits only the [`Transport`] (play state, loop mode, speed, frame rate and the
//! playhead time); it never touches documents. Clicking or dragging on the ruler scrubs,
//! snapped to frames unless Alt or Shift is held; clicking a key moves the playhead to it and
//! reports the key in [`TimelineOutput::seek_key`]; dragging over empty space in the rows
//! draws a box whose keys are selected when it is let go ([`TimelineOutput::box_select`]). The time axis shows the clip and its keys
//! with small margins; Ctrl+wheel zooms around the pointer, the wheel over the ruler (or
//! Shift+wheel over the rows) pans, and a double-click on the ruler fits the clip again. The
//! zoom is kept in egui memory. Keyboard shortcuts belong to the app.

mod axis;
mod dopesheet;
mod ruler;
mod transport_bar;

use egui::{Pos2, Rect, Sense, vec2};

use clipscope_editor::Transport;

pub use axis::TimeAxis;

/// One row of key ticks: usually one track of the selected clip.
#[derive(Debug, Clone, Copy)]
pub struct DopeRow<'a> {
    /// Text in the label column (e.g. the track name).
    pub label: &'a str,
    /// Colour of the label and the key diamonds (see the track colours in the style).
    pub colour: egui::Color32,
    /// Key times in seconds, ascending as in a track (unsorted times are drawn correctly too).
    pub times: &'a [f32],
    /// Indices of the selected keys of the row, ascending (drawn highlighted).
    pub selected: &'a [usize],
}

/// What the user did in the timeline this frame, beyond the edits made to the [`Transport`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TimelineOutput {
    /// The user moved the playhead: scrubbed the ruler, clicked a key, or pressed the start or
    /// end button. (Playback itself does not set it.)
    pub scrubbed: bool,
    /// `(row, key)` indices of the key tick that was clicked, if any; the playhead has been
    /// moved to its time. The app may select that key.
    pub seek_key: Option<(usize, usize)>,
    /// `(row, key)` of a key Shift-clicked: add it to the selection, or take it out.
    pub toggle_key: Option<(usize, usize)>,
    /// `(row, key)` of the key a drag grabbed this frame: the selected keys move with it (a key
    /// not selected becomes the selection first).
    pub grab_key: Option<(usize, usize)>,
    /// `(dt, gesture)`: move the selected keys by `dt` seconds this frame; every step of one drag
    /// has the same gesture id (one undo step). Snapped so the grabbed key lands on a frame
    /// (Alt: free time).
    pub move_keys: Option<(f64, u64)>,
    /// A box dragged over empty space in the rows was let go: select the keys inside it.
    pub box_select: Option<BoxSelect>,
}

/// A box drawn over the dopesheet rows: the keys of rows `first..=last` whose times lie in
/// `start..=end` are selected (added to the selection with Shift, else replacing it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxSelect {
    /// First row inside the box.
    pub first: usize,
    /// Last row inside the box (may be past the last row when the box reaches below them).
    pub last: usize,
    /// Earliest time inside the box, in seconds.
    pub start: f64,
    /// Latest time inside the box, in seconds.
    pub end: f64,
    /// Shift was held when the box was let go: add to the selection.
    pub add: bool,
}

impl BoxSelect {
    /// Indices of the keys of `times` inside the box's time span (one pass; unsorted times
    /// are fine).
    pub fn keys_in(&self, times: &[f32]) -> Vec<usize> {
        times
            .iter()
            .enumerate()
            .filter(|(_, t)| (self.start..=self.end).contains(&f64::from(**t)))
            .map(|(k, _)| k)
            .collect()
    }
}

/// The zoomed and panned time range, when it is not the fitted one.
#[derive(Debug, Clone, Copy, PartialEq)]
struct View {
    start: f64,
    end: f64,
}

/// Shows the timeline for a clip of `duration` seconds with one key row per entry of `rows`,
/// filling the rest of `ui`. Edits `transport` in place (play/pause, loop mode, speed, frame
/// rate, scrubbing) and reports scrubs and key clicks. Requests repaints while playing.
pub fn show(
    ui: &mut egui::Ui,
    transport: &mut Transport,
    duration: f64,
    rows: &[DopeRow<'_>],
) -> TimelineOutput {
    show_marked(ui, transport, duration, rows, &[])
}

/// [`show`] with the clip's markers (`(time, name)`) flagged on the ruler; a click near one
/// puts the playhead on it.
pub fn show_marked(
    ui: &mut egui::Ui,
    transport: &mut Transport,
    duration: f64,
    rows: &[DopeRow<'_>],
    markers: &[(f64, &str)],
) -> TimelineOutput {
    let duration = if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        0.0
    };
    let mut output = TimelineOutput::default();
    let id = ui.make_persistent_id("clipscope_timeline");
    let width = ui.available_width();

    transport_bar::show(ui, transport, duration, &mut output);

    // The label column takes at most a third of a narrow strip.
    let label_width = dopesheet::label_column_width(ui, rows).min((width / 3.0).max(60.0));
    let (band, _) = ui.allocate_exact_size(vec2(width, ruler::HEIGHT), Sense::hover());
    let split = (band.left() + label_width).min(band.right() - 2.0 * TimeAxis::MARGIN - 1.0);
    let label_rect = Rect::from_min_max(band.min, Pos2::new(split, band.bottom()));
    let ruler_rect = Rect::from_min_max(Pos2::new(split, band.top()), band.max);

    let fit_end = content_end(duration, rows);
    let view_id = id.with("view");
    let view: Option<View> = ui.data(|d| d.get_temp(view_id));
    let (start, end) = view.map_or((0.0, fit_end), |v| (v.start, v.end));
    let axis = TimeAxis::new(ruler_rect.x_range(), start, end);

    let (ruler_response, grid) = ruler::show(
        ui,
        id.with("ruler"),
        label_rect,
        ruler_rect,
        &axis,
        transport,
        duration,
        markers,
        &mut output,
    );
    if ruler_response.double_clicked() {
        ui.data_mut(|d| d.remove::<View>(view_id));
    } else {
        let rows_area = ui.available_rect_before_wrap();
        let keys_area =
            Rect::from_min_max(Pos2::new(ruler_rect.left(), rows_area.top()), rows_area.max);
        if let Some(view) = navigate(ui, &axis, ruler_rect, keys_area, fit_end) {
            ui.data_mut(|d| d.insert_temp(view_id, view));
        }
    }

    dopesheet::show(
        ui,
        id.with("rows"),
        rows,
        &axis,
        label_width,
        grid,
        transport,
        duration,
        &mut output,
    );

    if transport.playing {
        ui.ctx().request_repaint();
    }
    output
}

/// The end of the fitted time range: the clip's duration or its last key, whichever is later
/// (1 s for an empty clip).
fn content_end(duration: f64, rows: &[DopeRow<'_>]) -> f64 {
    let last_key = rows
        .iter()
        .flat_map(|row| row.times.iter().copied())
        .filter(|t| t.is_finite())
        .fold(0.0_f64, |end, t| end.max(f64::from(t)));
    let end = duration.max(last_key);
    if end > 0.0 { end } else { 1.0 }
}

/// Zooms (Ctrl+wheel, around the pointer) and pans (wheel over the ruler, Shift+wheel over the
/// rows) while the pointer is over the ruler or the key area. Returns the new view, if any.
fn navigate(
    ui: &egui::Ui,
    axis: &TimeAxis,
    ruler_rect: Rect,
    keys_area: Rect,
    fit_end: f64,
) -> Option<View> {
    let over_ruler = ui.rect_contains_pointer(ruler_rect);
    if !over_ruler && !ui.rect_contains_pointer(keys_area) {
        return None;
    }
    let (zoom, scroll, pointer) =
        ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta, i.pointer.hover_pos()));
    let pan = if over_ruler {
        scroll.x + scroll.y
    } else {
        scroll.x
    };
    if zoom == 1.0 && pan == 0.0 {
        return None;
    }
    let (mut start, mut end) = (axis.start(), axis.end());
    if zoom != 1.0 && zoom.is_finite() && zoom > 0.0 {
        let anchor = pointer.map_or((start + end) / 2.0, |p| axis.time_at(p.x));
        let span = end - start;
        let new_span = (span / f64::from(zoom)).clamp(0.01, fit_end.max(1.0) * 4.0);
        start = anchor - (anchor - start) * new_span / span;
        end = start + new_span;
    }
    if pan != 0.0 {
        let shift = -f64::from(pan) / axis.points_per_second();
        start += shift;
        end += shift;
        ui.ctx().input_mut(|i| {
            i.smooth_scroll_delta.x = 0.0;
            if over_ruler {
                i.smooth_scroll_delta.y = 0.0;
            }
        });
    }
    // Keep at least half the view on the clip.
    let span = end - start;
    let shift = (-0.5 * span - start).max(0.0) + (fit_end - 0.5 * span - start).min(0.0);
    ui.ctx().request_repaint();
    Some(View {
        start: start + shift,
        end: end + shift,
    })
}

/// A frame number for readouts: whole frames without decimals, in-between times with one.
fn format_frame(frame: f64) -> String {
    if !frame.is_finite() {
        return "–".to_owned();
    }
    if (frame - frame.round()).abs() < 0.05 {
        format!("{:.0}", frame.round() + 0.0)
    } else {
        format!("{frame:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_show_decimals_only_between_grid_frames() {
        assert_eq!(format_frame(12.0), "12");
        assert_eq!(format_frame(18.9), "18.9");
        assert_eq!(format_frame(12.000_000_1), "12");
        assert_eq!(format_frame(-0.01), "0");
        assert_eq!(format_frame(f64::NAN), "–");
    }

    #[test]
    fn content_end_covers_duration_and_keys() {
        let keys = [0.0, 1.5];
        let rows = [DopeRow {
            label: "a",
            colour: egui::Color32::WHITE,
            times: &keys,
            selected: &[],
        }];
        assert_eq!(content_end(1.0, &rows), 1.5);
        assert_eq!(content_end(2.0, &rows), 2.0);
        assert_eq!(content_end(0.0, &[]), 1.0);
    }
}
