//! The clip operations that need numbers or text before they run: rename tracks (find and
//! replace with a regular expression, a preview of the new names and how many tracks then bind
//! to the figure in the viewport), subclip (a frame range), retime (by a factor, to a duration,
//! or a shift) and resample (a frame rate). A modal dialog; OK queues the [`Edit`].
//!
//! [`ClipDialog`] holds what was typed and makes the [`Edit`]; `fields` shows each dialog's
//! fields, `rename` the rename fields with their live preview.

use clipscope_core::model::Clip;
use clipscope_core::model::ops::Marker;
use clipscope_editor::{ClipId, ClipScope, Edit, KeyRef};
use clipscope_scene::Figure;

use super::outbox::Outbox;

mod fields;
mod rename;

pub use rename::bound_tracks;

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
        fields::show(ui, dialog, view);
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
