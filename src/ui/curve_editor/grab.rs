//! Blender's G in the curve editor: the selected keys follow the pointer without a button held
//! until a click or Enter confirms (Escape or a right click puts them back). X and Y lock the
//! move to time or to value; typing a number moves by exactly that many frames (or value units
//! with Y), Backspace edits it. Snapping applies as in a drag (Ctrl for free time). One grab is
//! one undo step (one gesture id).

use std::collections::BTreeSet;

use egui::{Key, Pos2, Ui};

use crate::ui::outbox::{AppCommand, Outbox};
use clipscope_core::model::Clip;
use clipscope_editor::{Edit, KeyRef};

use super::interact::{Pointer, snapped_time};

/// Which way a grab may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Axis {
    /// Time only (X).
    Time,
    /// Value only (Y).
    Value,
}

/// A grab in progress.
#[derive(Debug, Clone)]
pub(super) struct Grab {
    /// Gesture id shared by its edits.
    pub gesture: u64,
    /// Where the pointer was when G was pressed.
    pub origin: Pos2,
    /// The `(dt, dv)` already sent.
    pub applied: [f64; 2],
    /// The keys that move.
    pub keys: Vec<KeyRef>,
    /// The time of the first key that moves (what snapping lands on a frame).
    pub anchor: Option<f64>,
    /// The axis lock.
    pub axis: Option<Axis>,
    /// A typed amount (frames, or value units with the value axis).
    pub typed: String,
}

/// What a frame of a grab ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GrabEnd {
    /// Still grabbing.
    Going,
    /// Confirmed (click or Enter).
    Done,
    /// Cancelled (Escape or right click): the app undoes the gesture.
    Cancelled,
}

/// G pressed over the plot (or with its focus) with keys selected: a grab of the selected keys
/// on editable curves, anchored at the pointer; `None` otherwise. Each grab takes the next
/// gesture id.
pub(super) fn start(
    ui: &Ui,
    p: &Pointer<'_, '_>,
    clip: &Clip,
    selected: &BTreeSet<KeyRef>,
    next_gesture: &mut u64,
) -> Option<Grab> {
    let response = p.response;
    if !(response.hovered() || response.has_focus())
        || ui.ctx().text_edit_focused()
        || selected.is_empty()
        || !ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::G))
    {
        return None;
    }
    let keys: Vec<KeyRef> = selected
        .iter()
        .filter(|k| p.curves.iter().any(|c| c.editable && c.owns(k)))
        .copied()
        .collect();
    let anchor = keys
        .iter()
        .filter_map(|k| clip.tracks.get(k.track)?.times.get(k.key))
        .map(|&t| t as f64)
        .reduce(f64::min);
    let origin = response.hover_pos()?;
    if keys.is_empty() {
        return None;
    }
    *next_gesture += 1;
    Some(Grab {
        gesture: *next_gesture,
        origin,
        applied: [0.0, 0.0],
        keys,
        anchor,
        axis: None,
        typed: String::new(),
    })
}

/// Runs one frame of `grab`: reads its keys and the pointer, queues this frame's move.
pub(super) fn update(
    ui: &Ui,
    grab: &mut Grab,
    p: &Pointer<'_, '_>,
    fps: f64,
    out: &mut Outbox,
) -> GrabEnd {
    let (end, pointer, ctrl) = ui.input_mut(|i| {
        let mut end = GrabEnd::Going;
        if i.consume_key(egui::Modifiers::NONE, Key::Escape) || i.pointer.secondary_clicked() {
            end = GrabEnd::Cancelled;
        } else if i.consume_key(egui::Modifiers::NONE, Key::Enter) || i.pointer.primary_clicked() {
            end = GrabEnd::Done;
        }
        for (key, axis) in [(Key::X, Axis::Time), (Key::Y, Axis::Value)] {
            if i.consume_key(egui::Modifiers::NONE, key) {
                grab.axis = if grab.axis == Some(axis) {
                    None
                } else {
                    Some(axis)
                };
            }
        }
        if i.consume_key(egui::Modifiers::NONE, Key::Backspace) {
            grab.typed.pop();
        }
        i.events.retain(|e| match e {
            egui::Event::Text(t)
                if t.chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '-') =>
            {
                grab.typed.push_str(t);
                false
            }
            _ => true,
        });
        (end, i.pointer.latest_pos(), i.modifiers.command)
    });
    if end == GrabEnd::Cancelled {
        out.push(AppCommand::CancelGesture(grab.gesture));
        return end;
    }
    let target = match grab.typed.parse::<f64>() {
        Ok(amount) if grab.axis == Some(Axis::Value) => [0.0, amount],
        Ok(frames) => [frames / fps.max(1e-9), 0.0],
        Err(_) => {
            let Some(now) = pointer else {
                return end;
            };
            let a = p.tf.value_from_position(grab.origin);
            let b = p.tf.value_from_position(now);
            let mut d = [b.x - a.x, b.y - a.y];
            match grab.axis {
                Some(Axis::Time) => d[1] = 0.0,
                Some(Axis::Value) => d[0] = 0.0,
                None => {}
            }
            if let (Some(fps), Some(anchor), false) = (p.snap_fps, grab.anchor, ctrl)
                && d[0] != 0.0
            {
                d[0] = snapped_time(anchor + d[0], fps, p, &grab.keys) - anchor;
            }
            d
        }
    };
    let step = [target[0] - grab.applied[0], target[1] - grab.applied[1]];
    if step != [0.0, 0.0] {
        out.edit(Edit::MoveKeys {
            clip: p.clip,
            keys: grab.keys.clone(),
            dt: step[0],
            dv: step[1],
            gesture: Some(grab.gesture),
        });
        grab.applied = target;
    }
    end
}
