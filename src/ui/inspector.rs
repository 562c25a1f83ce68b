//! The INSPECTOR: the selected clip's fields, the selected key's time, value and handles, and
//! what the last operations did.

use clipscope_core::formats::Document;
use clipscope_core::model::ops::HandleSide;
use clipscope_core::model::{BlendMode, Clip, Interpolation, TangentMode, Track};
use clipscope_editor::{ClipId, Edit, KeyRef};

use super::commands::UiCommand;
use super::outbox::Outbox;
use super::track_tree::component_names;

/// Edits in progress (committed on Enter or when the field loses focus).
#[derive(Debug, Default)]
pub struct Inspector {
    name: Option<String>,
    duration: Option<f64>,
    /// Gesture counter for drags on number fields (one undo step per drag).
    gesture: u64,
    /// The operation buttons act on every open clip instead of the selected one.
    pub all_clips: bool,
}

/// What the inspector says about the file a clip comes from: its format and what else the file
/// holds for the viewport.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileSummary {
    /// The format's description ("legacy three.js JSON (model format 3)").
    pub format: String,
    /// One short line per extra: the morph mesh, the skeleton.
    pub details: Vec<String>,
}

impl FileSummary {
    /// The summary of `doc`.
    pub fn of(doc: &Document) -> FileSummary {
        let mut details = Vec::new();
        if let Some(mesh) = &doc.mesh {
            details.push(format!(
                "morph mesh: {} vertices, {} triangles, {} targets",
                clipscope_core::text::thousands(mesh.vertices.len()),
                clipscope_core::text::thousands(mesh.triangles.len()),
                mesh.targets.len()
            ));
        }
        if let Some(skeleton) = &doc.skeleton {
            let roots = skeleton.bones.iter().filter(|b| b.parent.is_none()).count();
            details.push(format!(
                "skeleton: {} bones, {} root{}",
                skeleton.bones.len(),
                roots,
                if roots == 1 { "" } else { "s" }
            ));
        }
        FileSummary {
            format: doc.format.description().to_string(),
            details,
        }
    }
}

/// Shows the inspector for `clip` (if any, with a summary of its file), the primary selected
/// key and the op log.
pub fn show(
    ui: &mut egui::Ui,
    state: &mut Inspector,
    clip: Option<(ClipId, &Clip, FileSummary)>,
    keys: &std::collections::BTreeSet<KeyRef>,
    log: &[String],
    out: &mut Outbox,
) {
    ui.strong("INSPECTOR");
    egui::ScrollArea::vertical()
        .id_salt("inspector")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let Some((id, clip, file)) = clip else {
                ui.weak("Select a clip to see its fields.");
                log_section(ui, log);
                return;
            };
            clip_section(ui, state, id, clip, out);
            file_section(ui, &file);
            operations(ui, state, out);
            ui.separator();
            key_section(ui, state, id, clip, keys, out);
            log_section(ui, log);
        });
}

/// The file's format and extras, under the clip fields.
fn file_section(ui: &mut egui::Ui, file: &FileSummary) {
    ui.horizontal_wrapped(|ui| {
        ui.weak("Read from");
        ui.label(&file.format);
    });
    for line in &file.details {
        ui.weak(line);
    }
}

fn clip_section(
    ui: &mut egui::Ui,
    state: &mut Inspector,
    id: ClipId,
    clip: &Clip,
    out: &mut Outbox,
) {
    egui::Grid::new("clip fields")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            let label = ui.label("Name");
            let name = state.name.get_or_insert_with(|| clip.name.clone());
            let r = ui
                .add(egui::TextEdit::singleline(name).desired_width(150.0))
                .labelled_by(label.id);
            if r.lost_focus() {
                if *name != clip.name {
                    out.edit(Edit::RenameClip {
                        clip: id,
                        name: name.clone(),
                    });
                }
                state.name = None;
            } else if !r.has_focus() {
                state.name = None;
            }
            ui.end_row();

            ui.label("Duration");
            let mut d = state.duration.unwrap_or(clip.duration);
            let r = ui.add(
                egui::DragValue::new(&mut d)
                    .speed(0.01)
                    .range(0.0..=f64::MAX)
                    .suffix(" s")
                    .max_decimals(4),
            );
            if r.changed() {
                state.duration = Some(d);
            }
            if (r.drag_stopped()
                || r.lost_focus()
                || (r.changed() && !r.dragged() && !r.has_focus()))
                && let Some(d) = state.duration.take()
                && d != clip.duration
            {
                out.edit(Edit::SetDuration {
                    clip: id,
                    duration: d,
                });
            }
            ui.end_row();

            let label = ui.label("Blend");
            let mut mode = clip.blend_mode;
            egui::ComboBox::from_id_salt("blend mode")
                .selected_text(mode.name())
                .show_ui(ui, |ui| {
                    for m in [BlendMode::Normal, BlendMode::Additive] {
                        ui.selectable_value(&mut mode, m, m.name());
                    }
                })
                .response
                .labelled_by(label.id);
            if mode != clip.blend_mode {
                out.edit(Edit::SetBlendMode { clip: id, mode });
            }
            ui.end_row();

            ui.label("Tracks");
            ui.label(format!(
                "{} · {} keys",
                clip.tracks.len(),
                clipscope_core::text::thousands(clip.key_count())
            ));
            ui.end_row();

            ui.label("uuid");
            ui.add(
                egui::Label::new(
                    egui::RichText::new(clip.uuid.as_deref().unwrap_or("—"))
                        .monospace()
                        .small(),
                )
                .truncate(),
            );
            ui.end_row();
        });
    let user_data = serde_json::to_string_pretty(&clip.user_data_with_layers()).unwrap_or_default();
    if user_data != "{}" {
        egui::CollapsingHeader::new("userData").show(ui, |ui| {
            ui.add(egui::Label::new(egui::RichText::new(user_data).monospace().small()).wrap());
        });
    }
}

/// The primary selected key as the key fields show it.
struct ShownKey<'a> {
    /// The clip it belongs to.
    clip: ClipId,
    /// Which key and component.
    key: KeyRef,
    /// Its track.
    track: &'a Track,
    /// Its time (s).
    time: f32,
    /// Its value in the key's component.
    value: f32,
    /// Values per key of the track (at least 1).
    size: usize,
}

impl Inspector {
    /// The gesture of a drag on a number field (one undo step per drag), or `None` for a typed
    /// change.
    fn drag_gesture(&mut self, r: &egui::Response) -> Option<u64> {
        if r.drag_started() {
            self.gesture += 1;
        }
        r.dragged().then_some(self.gesture | (1 << 62))
    }
}

/// The first selected key's track, time, value, interpolation and (bezier tracks) handle type
/// and handles, editable.
fn key_section(
    ui: &mut egui::Ui,
    state: &mut Inspector,
    id: ClipId,
    clip: &Clip,
    keys: &std::collections::BTreeSet<KeyRef>,
    out: &mut Outbox,
) {
    let Some(&key) = keys.iter().next() else {
        ui.weak("Click a key in the curve editor to edit it here.");
        return;
    };
    let Some(track) = clip.tracks.get(key.track) else {
        return;
    };
    let Some(values) = track.values.as_numbers() else {
        ui.weak("Keys of bool and string tracks are shown but not edited here.");
        return;
    };
    let size = track.value_size().max(1);
    let (Some(&time), Some(&value)) = (
        track.times.get(key.key),
        values.get(key.key * size + key.component),
    ) else {
        return;
    };
    let shown = ShownKey {
        clip: id,
        key,
        track,
        time,
        value,
        size,
    };
    ui.label(egui::RichText::new(&track.name).strong());
    if keys.len() > 1 {
        ui.weak(format!("{} keys selected; editing the first", keys.len()));
    }
    egui::Grid::new("key fields")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            time_and_value_rows(ui, state, &shown, out);
            interpolation_row(ui, &shown, out);
            if track.interpolation == Interpolation::Bezier {
                handle_rows(ui, state, &shown, keys, out);
            }
        });
}

/// The key's number, time and value rows.
fn time_and_value_rows(
    ui: &mut egui::Ui,
    state: &mut Inspector,
    k: &ShownKey<'_>,
    out: &mut Outbox,
) {
    ui.label("Key");
    ui.label(format!("{} of {}", k.key.key + 1, k.track.len()));
    ui.end_row();

    ui.label("Time");
    let mut t = k.time as f64;
    let r = ui.add(
        egui::DragValue::new(&mut t)
            .speed(0.005)
            .suffix(" s")
            .max_decimals(4),
    );
    if r.changed() {
        out.edit(Edit::SetKey {
            clip: k.clip,
            key: k.key,
            time: Some(t),
            value: None,
            gesture: state.drag_gesture(&r),
        });
    }
    ui.end_row();

    let names = component_names(k.track);
    let comp = names.get(k.key.component).cloned().unwrap_or_default();
    let label = ui.label(if comp.is_empty() || k.size == 1 {
        "Value".to_string()
    } else {
        format!("Value {comp}")
    });
    let mut v = k.value as f64;
    let r = ui
        .add(egui::DragValue::new(&mut v).speed(0.01).max_decimals(3))
        .labelled_by(label.id);
    if r.changed() {
        out.edit(Edit::SetKey {
            clip: k.clip,
            key: k.key,
            time: None,
            value: Some(v),
            gesture: state.drag_gesture(&r),
        });
    }
    ui.end_row();
}

/// The track's interpolation (of the kinds its values support).
fn interpolation_row(ui: &mut egui::Ui, k: &ShownKey<'_>, out: &mut Outbox) {
    let track = k.track;
    let label = ui.label("Interpolation");
    let mut interp = track.interpolation;
    egui::ComboBox::from_id_salt("interpolation")
        .selected_text(interp.name())
        .show_ui(ui, |ui| {
            for i in Interpolation::ALL {
                if track.kind.supports(i) {
                    ui.selectable_value(&mut interp, i, i.name());
                }
            }
        })
        .response
        .labelled_by(label.id);
    if interp != track.interpolation {
        out.edit(Edit::SetInterpolation {
            clip: k.clip,
            tracks: vec![k.key.track],
            interpolation: interp,
        });
    }
    ui.end_row();
}

/// A bezier key's handle type (for every selected key) and its in and out handles.
fn handle_rows(
    ui: &mut egui::Ui,
    state: &mut Inspector,
    k: &ShownKey<'_>,
    keys: &std::collections::BTreeSet<KeyRef>,
    out: &mut Outbox,
) {
    let tangents = k.track.tangents.as_ref();
    let mut mode = tangents.map(|t| t.mode(k.key.key)).unwrap_or_default();
    let before = mode;
    let label = ui.label("Handles");
    egui::ComboBox::from_id_salt("tangent mode")
        .selected_text(mode.name())
        .show_ui(ui, |ui| {
            for m in TangentMode::ALL {
                ui.selectable_value(&mut mode, m, m.name());
            }
        })
        .response
        .labelled_by(label.id);
    if mode != before {
        out.edit(Edit::SetTangentMode {
            clip: k.clip,
            keys: keys.iter().copied().collect(),
            mode,
        });
    }
    ui.end_row();
    let Some(tg) = tangents else {
        return;
    };
    let at = k.key.key * k.size * 2 + k.key.component * 2;
    for (side, arr, label) in [
        (HandleSide::In, &tg.in_tangents, "In handle"),
        (HandleSide::Out, &tg.out_tangents, "Out handle"),
    ] {
        let (Some(&ht), Some(&hv)) = (arr.get(at), arr.get(at + 1)) else {
            continue;
        };
        let label = ui.label(label);
        ui.horizontal(|ui| {
            let (mut ht, mut hv) = (ht as f64, hv as f64);
            let r1 = ui
                .add(
                    egui::DragValue::new(&mut ht)
                        .speed(0.005)
                        .suffix(" s")
                        .max_decimals(4),
                )
                .labelled_by(label.id);
            let r2 = ui
                .add(egui::DragValue::new(&mut hv).speed(0.01).max_decimals(3))
                .labelled_by(label.id);
            for r in [&r1, &r2] {
                if r.changed() {
                    out.edit(Edit::SetHandle {
                        clip: k.clip,
                        key: k.key,
                        side,
                        time: ht,
                        value: hv,
                        break_handles: false,
                        gesture: state.drag_gesture(r),
                    });
                }
            }
        });
        ui.end_row();
    }
}

/// Buttons for the whole-clip operations, on the selected clip or on all clips.
fn operations(ui: &mut egui::Ui, state: &mut Inspector, out: &mut Outbox) {
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        let ops = if state.all_clips {
            [
                (UiCommand::OptimizeAll, "Optimize"),
                (UiCommand::TrimAll, "Trim"),
                (UiCommand::ResetDurationAll, "Reset duration"),
                (UiCommand::ValidateAll, "Validate"),
            ]
        } else {
            [
                (UiCommand::Optimize, "Optimize"),
                (UiCommand::Trim, "Trim"),
                (UiCommand::ResetDuration, "Reset duration"),
                (UiCommand::Validate, "Validate"),
            ]
        };
        for (command, label) in ops {
            if ui.button(label).on_hover_text(command.label()).clicked() {
                out.ui(command);
            }
        }
        ui.checkbox(&mut state.all_clips, "all clips");
    });
}

fn log_section(ui: &mut egui::Ui, log: &[String]) {
    if log.is_empty() {
        return;
    }
    ui.separator();
    ui.strong("RESULTS");
    for line in log.iter().rev().take(8) {
        ui.add(egui::Label::new(egui::RichText::new(line).small()).wrap());
    }
}
