//! The clip operations that need numbers or text before they run: rename tracks (find and
//! replace with a regular expression, a preview of the new names and how many tracks then bind
//! to the figure in the viewport), subclip (a frame range), retime (by a factor, to a duration,
//! or a shift) and resample (a frame rate). A modal dialog; OK queues the [`Edit`].

use std::sync::Arc;

use clipscope_core::model::Clip;
use clipscope_core::model::ops::{Marker, Rename, preview_renames};
use clipscope_editor::{ClipId, ClipScope, Edit, KeyRef};
use clipscope_scene::{Figure, Player};

use super::outbox::Outbox;

/// How many renamed tracks the preview lists.
const PREVIEW_ROWS: usize = 12;

/// Which dialog is open, with what the user typed so far.
#[derive(Debug, Clone, PartialEq)]
pub enum ClipDialog {
    /// Find and replace in track names.
    Rename {
        /// The regular expression.
        pattern: String,
        /// The replacement (`$1` for groups).
        replacement: String,
        /// Rename in every open clip, not only the selected one.
        all_clips: bool,
    },
    /// A frame range into a new clip.
    Subclip {
        /// The new clip's name.
        name: String,
        /// First frame kept.
        start: f64,
        /// First frame not kept.
        end: f64,
    },
    /// Scale or shift in time.
    Retime {
        /// How the amount is given.
        mode: RetimeMode,
        /// The factor, the new duration (s) or the shift (s), as `mode` says.
        amount: f64,
    },
    /// One key per frame.
    Resample {
        /// Frames per second.
        fps: f64,
    },
    /// Scale the selected keys in time and value (Blender's S on a selection).
    ScaleKeys {
        /// The keys (selected when the dialog opened).
        keys: Vec<KeyRef>,
        /// Time factor.
        time_factor: f64,
        /// Value factor.
        value_factor: f64,
        /// The time that stays put.
        pivot: Pivot,
    },
    /// Make the clip additive against a frame of itself or of another clip of its file.
    MakeAdditive {
        /// The reference frame.
        frame: f64,
        /// The reference clip (index in the file), `None` for the clip itself.
        reference: Option<usize>,
    },
    /// Merge clips of the file into a new clip.
    Merge {
        /// Which clips of the file go in.
        chosen: Vec<bool>,
        /// The new clip's name.
        name: String,
    },
    /// The clip's markers: rename, move, delete, add.
    Markers {
        /// The markers as edited so far.
        list: Vec<Marker>,
    },
    /// Smooth the selected keys.
    Smooth {
        /// The keys (selected when the dialog opened).
        keys: Vec<KeyRef>,
        /// 0–1 per pass.
        strength: f64,
        /// Passes.
        passes: usize,
    },
}

/// The time a key scale keeps in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pivot {
    /// The playhead.
    Playhead,
    /// The first selected key (the box's left edge).
    Start,
    /// The last selected key (the box's right edge).
    End,
}

/// How [`ClipDialog::Retime`] reads its amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetimeMode {
    /// Multiply times by a factor.
    Factor,
    /// Stretch to a duration in seconds.
    ToDuration,
    /// Move every key by seconds.
    Shift,
}

/// What the dialog needs to know about the selected clip.
pub struct DialogView<'a> {
    /// The selected clip.
    pub id: ClipId,
    /// Its data.
    pub clip: &'a Clip,
    /// The frame rate the editor steps at.
    pub fps: f64,
    /// The playhead (seconds).
    pub playhead: f64,
    /// Every clip of the selected clip's file.
    pub siblings: &'a [Clip],
    /// The figure the clip plays on in the viewport, if any (for the binding count).
    pub figure: Option<&'a Figure>,
}

impl ClipDialog {
    /// The title of the dialog.
    pub fn title(&self) -> &'static str {
        match self {
            ClipDialog::Rename { .. } => "Rename tracks",
            ClipDialog::Subclip { .. } => "Subclip",
            ClipDialog::Retime { .. } => "Retime clip",
            ClipDialog::Resample { .. } => "Resample clip",
            ClipDialog::Smooth { .. } => "Smooth keys",
            ClipDialog::ScaleKeys { .. } => "Scale keys",
            ClipDialog::MakeAdditive { .. } => "Make additive",
            ClipDialog::Merge { .. } => "Merge clips",
            ClipDialog::Markers { .. } => "Markers",
        }
    }

    /// The edit OK applies, or why it cannot run yet.
    pub fn edit(&self, view: &DialogView) -> Result<Edit, String> {
        let scope = ClipScope::Clip(view.id);
        match self {
            ClipDialog::Rename {
                pattern,
                replacement,
                all_clips,
            } => {
                regex::Regex::new(pattern).map_err(|_| "not a regular expression".to_string())?;
                Ok(Edit::RenameTracks {
                    scope: if *all_clips { ClipScope::All } else { scope },
                    pattern: pattern.clone(),
                    replacement: replacement.clone(),
                })
            }
            ClipDialog::Subclip { name, start, end } => {
                if end <= start {
                    return Err("the end must come after the start".into());
                }
                Ok(Edit::Subclip {
                    clip: view.id,
                    name: name.clone(),
                    start: *start,
                    end: *end,
                    fps: view.fps,
                    replace: false,
                })
            }
            ClipDialog::Retime { mode, amount } => {
                let (factor, offset) = match mode {
                    RetimeMode::Factor => (*amount, 0.0),
                    RetimeMode::ToDuration => (
                        view.clip.factor_to_duration(*amount).ok_or(
                            "the clip has no length to stretch, or the duration is not above 0",
                        )?,
                        0.0,
                    ),
                    RetimeMode::Shift => (1.0, *amount),
                };
                if !(factor.is_finite() && factor > 0.0) {
                    return Err("the factor must be above 0".into());
                }
                Ok(Edit::Retime {
                    scope,
                    factor,
                    offset,
                })
            }
            ClipDialog::Resample { fps } => Ok(Edit::Resample { scope, fps: *fps }),
            ClipDialog::ScaleKeys {
                keys,
                time_factor,
                value_factor,
                pivot,
            } => {
                let (t0, t1, v0, v1) =
                    selection_box(view.clip, keys).ok_or("select the keys to scale first")?;
                if time_factor.is_nan() || *time_factor <= 0.0 {
                    return Err("the time factor must be above 0".into());
                }
                Ok(Edit::ScaleKeys {
                    clip: view.id,
                    keys: keys.clone(),
                    pivot_time: match pivot {
                        Pivot::Playhead => view.playhead,
                        Pivot::Start => t0,
                        Pivot::End => t1,
                    },
                    time_factor: *time_factor,
                    pivot_value: (v0 + v1) / 2.0,
                    value_factor: *value_factor,
                    gesture: None,
                })
            }
            ClipDialog::MakeAdditive { frame, reference } => Ok(Edit::MakeAdditive {
                clip: view.id,
                frame: *frame,
                fps: view.fps,
                reference: reference.map(|clip| ClipId {
                    doc: view.id.doc,
                    clip,
                }),
            }),
            ClipDialog::Markers { list } => Ok(Edit::SetMarkers {
                clip: view.id,
                markers: list.clone(),
            }),
            ClipDialog::Merge { chosen, name } => {
                let clips: Vec<usize> = (0..chosen.len()).filter(|&c| chosen[c]).collect();
                if clips.len() < 2 {
                    return Err("tick at least two clips".into());
                }
                Ok(Edit::MergeClips {
                    doc: view.id.doc,
                    clips,
                    name: name.clone(),
                })
            }
            ClipDialog::Smooth {
                keys,
                strength,
                passes,
            } => {
                if keys.is_empty() {
                    return Err("select the keys to smooth first".into());
                }
                Ok(Edit::SmoothKeys {
                    clip: view.id,
                    keys: keys.clone(),
                    strength: *strength,
                    passes: *passes,
                })
            }
        }
    }
}

/// The selection's box: `(first time, last time, lowest value, highest value)`.
fn selection_box(clip: &Clip, keys: &[KeyRef]) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    for k in keys {
        let Some(track) = clip.tracks.get(k.track) else {
            continue;
        };
        let (Some(&t), vs) = (track.times.get(k.key), track.value_size()) else {
            continue;
        };
        let v = track
            .values
            .as_numbers()
            .and_then(|v| v.get(k.key * vs + k.component))
            .map_or(0.0, |&v| v as f64);
        let t = t as f64;
        b = Some(match b {
            None => (t, t, v, v),
            Some((t0, t1, v0, v1)) => (t0.min(t), t1.max(t), v0.min(v), v1.max(v)),
        });
    }
    b
}

/// The tracks of `clip` that bind to `figure` (what the viewport would animate).
pub fn bound_tracks(clip: &Clip, figure: &Figure) -> usize {
    let player = Player::on(Arc::new(clip.clone()), figure.clone());
    clip.tracks.len() - player.unbound_tracks().len().min(clip.tracks.len())
}

/// Shows the dialog; queues the edit on OK. Returns true when the dialog closes.
pub fn show(
    ctx: &egui::Context,
    dialog: &mut ClipDialog,
    view: &DialogView,
    out: &mut Outbox,
) -> bool {
    let mut close = false;
    let modal = egui::Modal::new(egui::Id::unique("clip operation dialog")).show(ctx, |ui| {
        ui.set_width(520.0);
        ui.heading(dialog.title());
        ui.label(format!("Clip: {}", view.clip.name));
        ui.add_space(4.0);
        match dialog {
            ClipDialog::Rename {
                pattern,
                replacement,
                all_clips,
            } => rename_fields(ui, pattern, replacement, all_clips, view),
            ClipDialog::Subclip { name, start, end } => {
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
            ClipDialog::Retime { mode, amount } => {
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
            ClipDialog::Resample { fps } => {
                ui.horizontal(|ui| {
                    let l = ui.label("Frames per second");
                    ui.add(egui::DragValue::new(fps).speed(1.0).range(1.0..=1000.0))
                        .labelled_by(l.id);
                });
                ui.weak(
                    "Every track gets one key per frame; smooth and bezier tracks become linear.",
                );
            }
            ClipDialog::ScaleKeys {
                keys,
                time_factor,
                value_factor,
                pivot,
            } => {
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
            ClipDialog::MakeAdditive { frame, reference } => {
                ui.horizontal(|ui| {
                    let l = ui.label("Reference frame");
                    ui.add(egui::DragValue::new(frame).speed(1.0))
                        .labelled_by(l.id);
                    ui.weak(format!("({:.3} s at {} fps)", *frame / view.fps, view.fps));
                });
                let name = |r: &Option<usize>| match r {
                    None => "this clip".to_string(),
                    Some(c) => view.siblings.get(*c).map_or_else(String::new, |c| c.name.clone()),
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
            ClipDialog::Markers { list } => {
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
        ui.add_space(8.0);
        let edit = dialog.edit(view);
        ui.horizontal(|ui| {
            let ok = ui.add_enabled(edit.is_ok(), egui::Button::new("OK"));
            if ok.clicked()
                && let Ok(edit) = &edit
            {
                out.edit(edit.clone());
                close = true;
            }
            if ui.button("Cancel").clicked() {
                close = true;
            }
            if let Err(why) = &edit {
                ui.colored_label(ui.visuals().warn_fg_color, why);
            }
        });
    });
    close || modal.should_close()
}

/// The rename dialog's fields and its live preview.
fn rename_fields(
    ui: &mut egui::Ui,
    pattern: &mut String,
    replacement: &mut String,
    all_clips: &mut bool,
    view: &DialogView,
) {
    let field = |ui: &mut egui::Ui, label: &str, text: &mut String, hint: &str| {
        ui.horizontal(|ui| {
            let l = ui.add_sized([110.0, 20.0], egui::Label::new(label));
            let edit = egui::TextEdit::singleline(text)
                .hint_text(hint)
                .font(egui::TextStyle::Monospace);
            ui.add_sized([360.0, 20.0], edit).labelled_by(l.id)
        })
        .inner
    };
    let find = field(ui, "Find (regex)", pattern, "^mixamorig:");
    let replace = field(ui, "Replace with", replacement, "$1 for a group");
    // Typing goes to Find when the dialog opens.
    if pattern.is_empty() && !find.has_focus() && !replace.has_focus() {
        find.request_focus();
    }
    ui.checkbox(all_clips, "In every open clip");
    let re = match regex::Regex::new(pattern) {
        Ok(re) => re,
        Err(e) => {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or_default().trim().to_string();
            ui.colored_label(ui.visuals().error_fg_color, reason);
            return;
        }
    };
    let renames: Vec<Rename> = preview_renames(view.clip, &re, replacement);
    ui.label(format!(
        "{} of {} tracks of this clip change:",
        renames.len(),
        view.clip.tracks.len()
    ));
    egui::ScrollArea::vertical()
        .max_height(200.0)
        .show(ui, |ui| {
            for r in renames.iter().take(PREVIEW_ROWS) {
                ui.monospace(format!("{}  →  {}", r.from, r.to));
            }
            if renames.len() > PREVIEW_ROWS {
                ui.weak(format!("… and {} more", renames.len() - PREVIEW_ROWS));
            }
        });
    if let Some(figure) = view.figure {
        let id = egui::Id::unique("rename binding count").with((
            view.clip.uuid.as_deref(),
            pattern.as_str(),
            replacement.as_str(),
        ));
        let counts = ui.data(|d| d.get_temp::<(usize, usize)>(id));
        let (before, after) = counts.unwrap_or_else(|| {
            let mut renamed = view.clip.clone();
            for r in &renames {
                renamed.tracks[r.track].name = r.to.clone();
            }
            let c = (
                bound_tracks(view.clip, figure),
                bound_tracks(&renamed, figure),
            );
            ui.data_mut(|d| d.insert_temp(id, c));
            c
        });
        ui.label(format!(
            "Bound to {}: {before} of {} tracks now, {after} after",
            figure.name(),
            view.clip.tracks.len()
        ));
    }
}
