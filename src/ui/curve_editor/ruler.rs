//! The time ruler: the strip under the plot (egui_plot's time axis), where a click or a drag
//! moves the playhead.

use egui::{CursorIcon, Rect, Sense, Ui};
use egui_plot::PlotTransform;

use crate::ui::outbox::{AppCommand, Outbox};

/// Makes the strip between the plot's frame (`tf`) and the bottom of `available` set the
/// playhead: a click or drag queues [`AppCommand::SetPlayhead`] at the time under the pointer,
/// kept inside `0..=duration` when the clip has a length.
pub(super) fn show(
    ui: &Ui,
    id: egui::Id,
    duration: f64,
    tf: &PlotTransform,
    available: Rect,
    out: &mut Outbox,
) {
    let frame = *tf.frame();
    let ruler_rect = Rect::from_x_y_ranges(
        frame.x_range(),
        frame.bottom()..=available.bottom().max(frame.bottom()),
    );
    if ruler_rect.height() < 1.0 {
        return;
    }
    let ruler = ui
        // Not focusable: Space and Enter stay with the app.
        .interact(ruler_rect, id, Sense::CLICK | Sense::DRAG)
        .on_hover_cursor(CursorIcon::ResizeHorizontal);
    if (ruler.clicked() || ruler.dragged())
        && let Some(pos) = ruler.interact_pointer_pos()
    {
        let end = duration.max(0.0);
        let t = tf.value_from_position(pos).x;
        out.push(AppCommand::SetPlayhead(if end > 0.0 {
            t.clamp(0.0, end)
        } else {
            t
        }));
    }
}
