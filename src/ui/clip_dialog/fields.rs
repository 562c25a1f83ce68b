//! The fields of each clip dialog, between its heading and its OK and Cancel buttons.

use clipscope_core::model::ops::Marker;
use clipscope_editor::KeyRef;

use super::rename::rename_fields;
use super::{ClipDialog, DialogView, Pivot, RetimeMode};

/// Shows the fields of `dialog`, changing what it holds as the user types.
pub(super) fn show(ui: &mut egui::Ui, dialog: &mut ClipDialog, view: &DialogView) {
    match dialog {
        ClipDialog::Rename {
            pattern,
            replacement,
            all_clips,
        } => rename_fields(ui, pattern, replacement, all_clips, view),
        ClipDialog::Subclip { name, start, end } => subclip(ui, name, start, end, view),
        ClipDialog::Retime { mode, amount } => retime(ui, mode, amount, view),
        ClipDialog::Resample { fps } => {
            ui.horizontal(|ui| {
                let l = ui.label("Frames per second");
                ui.add(egui::DragValue::new(fps).speed(1.0).range(1.0..=1000.0))
                    .labelled_by(l.id);
            });
            ui.weak("Every track gets one key per frame; smooth and bezier tracks become linear.");
        }
        ClipDialog::ScaleKeys {
            keys,
            time_factor,
            value_factor,
            pivot,
        } => scale_keys(ui, keys, time_factor, value_factor, pivot),
        ClipDialog::MakeAdditive { frame, reference } => make_additive(ui, frame, reference, view),
        ClipDialog::Markers { list } => markers(ui, list, view),
        ClipDialog::Merge { chosen, name } => {
            ui.horizontal(|ui| {
                let l = ui.label("New clip");
                ui.add_sized([300.0, 20.0], egui::TextEdit::singleline(name))
                    .labelled_by(l.id);
            });
            for (c, clip) in view.siblings.iter().enumerate() {
                if let Some(on) = chosen.get_mut(c) {
                    ui.checkbox(on, clip.name.as_str());
                }
            }
            ui.weak("Tracks go in the order ticked clips are listed; tracks they share are merged key by key.");
        }
        ClipDialog::Smooth {
            keys,
            strength,
            passes,
        } => {
            ui.add(egui::Slider::new(strength, 0.0..=1.0).text("Strength"));
            ui.add(egui::Slider::new(passes, 1..=20).text("Passes"));
            ui.weak(format!(
                "{} selected key component(s); each pass moves a key towards the ¼-½-¼ \
                 average of it and its neighbours (a track's end keys stay).",
                keys.len()
            ));
        }
    }
}

/// The subclip's name and frame range, and the range in seconds.
fn subclip(
    ui: &mut egui::Ui,
    name: &mut String,
    start: &mut f64,
    end: &mut f64,
    view: &DialogView,
) {
    egui::Grid::new("subclip fields").show(ui, |ui| {
        let l = ui.label("Name");
        ui.add_sized([300.0, 20.0], egui::TextEdit::singleline(name))
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("First frame");
        ui.add(egui::DragValue::new(start).speed(1.0))
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("End frame (not kept)");
        ui.add(egui::DragValue::new(end).speed(1.0))
            .labelled_by(l.id);
        ui.end_row();
    });
    ui.weak(format!(
        "at {} fps: {:.3} s to {:.3} s; the new clip starts at 0",
        view.fps,
        *start / view.fps,
        *end / view.fps
    ));
}

/// How to retime (scale, stretch to a duration, shift) and by how much.
fn retime(ui: &mut egui::Ui, mode: &mut RetimeMode, amount: &mut f64, view: &DialogView) {
    ui.horizontal(|ui| {
        for (m, label) in [
            (RetimeMode::Factor, "Scale by"),
            (RetimeMode::ToDuration, "To duration"),
            (RetimeMode::Shift, "Shift by"),
        ] {
            if ui.radio_value(mode, m, label).changed() {
                *amount = match m {
                    RetimeMode::Factor => 1.0,
                    RetimeMode::ToDuration => view.clip.duration,
                    RetimeMode::Shift => 0.0,
                };
            }
        }
    });
    let suffix = match mode {
        RetimeMode::Factor => " ×",
        _ => " s",
    };
    ui.add(egui::DragValue::new(amount).speed(0.01).suffix(suffix))
        .on_hover_text("Amount");
    ui.weak(format!("now {:.3} s long", view.clip.duration));
}

/// The time and value factors of a key scale and the time it keeps in place.
fn scale_keys(
    ui: &mut egui::Ui,
    keys: &[KeyRef],
    time_factor: &mut f64,
    value_factor: &mut f64,
    pivot: &mut Pivot,
) {
    egui::Grid::new("scale keys fields").show(ui, |ui| {
        let l = ui.label("Time ×");
        ui.add(
            egui::DragValue::new(time_factor)
                .speed(0.01)
                .range(0.001..=1000.0),
        )
        .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("Value ×");
        ui.add(egui::DragValue::new(value_factor).speed(0.01))
            .labelled_by(l.id);
        ui.end_row();
    });
    ui.horizontal(|ui| {
        ui.label("Around");
        ui.radio_value(pivot, Pivot::Playhead, "the playhead");
        ui.radio_value(pivot, Pivot::Start, "the first key");
        ui.radio_value(pivot, Pivot::End, "the last key");
    });
    ui.weak(format!(
        "{} selected key component(s); values scale around the middle of the \
         selection; keys never pass an unselected neighbour.",
        keys.len()
    ));
}

/// The reference frame and the clip whose pose at that frame is subtracted.
fn make_additive(
    ui: &mut egui::Ui,
    frame: &mut f64,
    reference: &mut Option<usize>,
    view: &DialogView,
) {
    ui.horizontal(|ui| {
        let l = ui.label("Reference frame");
        ui.add(egui::DragValue::new(frame).speed(1.0))
            .labelled_by(l.id);
        ui.weak(format!("({:.3} s at {} fps)", *frame / view.fps, view.fps));
    });
    let name = |r: &Option<usize>| match r {
        None => "this clip".to_string(),
        Some(c) => view
            .siblings
            .get(*c)
            .map_or_else(String::new, |c| c.name.clone()),
    };
    egui::ComboBox::from_label("Pose of")
        .selected_text(name(reference))
        .show_ui(ui, |ui| {
            ui.selectable_value(reference, None, "this clip");
            for (c, clip) in view.siblings.iter().enumerate() {
                if c != view.id.clip {
                    ui.selectable_value(reference, Some(c), clip.name.as_str());
                }
            }
        });
    ui.weak("Each track keeps only its difference from that pose (three.js makeClipAdditive).");
}

/// One row per marker (name, time, Delete) and a button that adds one at the playhead.
fn markers(ui: &mut egui::Ui, list: &mut Vec<Marker>, view: &DialogView) {
    let mut gone = None;
    egui::Grid::new("marker rows").show(ui, |ui| {
        for (i, m) in list.iter_mut().enumerate() {
            ui.add_sized([220.0, 20.0], egui::TextEdit::singleline(&mut m.name))
                .on_hover_text("Marker name");
            ui.add(egui::DragValue::new(&mut m.time).speed(0.01).suffix(" s"))
                .on_hover_text("Marker time");
            if ui.small_button("Delete").clicked() {
                gone = Some(i);
            }
            ui.end_row();
        }
    });
    if let Some(i) = gone {
        list.remove(i);
    }
    if ui.button("Add at playhead").clicked() {
        list.push(Marker {
            name: format!("F{:.0}", view.playhead * view.fps),
            time: view.playhead,
        });
    }
    ui.weak(
        "Saved as the clip's userData.markers (three.js) or the composition's markers (Lottie).",
    );
}
