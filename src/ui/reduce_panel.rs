//! The REDUCE window (Clip › Reduce…): a budget in the file's length unit (and optionally an
//! angle), the selected clip or every clip of its file, glTF's packing (quantize, meshopt), and a
//! live preview of the result — keys and the file's bytes before and after, the measured error
//! and where it is largest — while the curve editor draws
//! the reduced curves over a faint ghost of the original, the track tree shows each track's
//! keys and error, and the viewport plays the reduced clip (B) or the original (A, key B to
//! switch), so an artist sees any foot sliding before accepting. Apply replaces the clips in
//! one undo step.
//!
//! The window only edits its own settings; the app computes the preview in the background
//! ([`ClipscopeApp`](crate::ui::ClipscopeApp)) and hands it in, and Apply is queued as an edit.

use crate::cli::reduction::packed_write;
use clipscope_core::formats::{Budget, Packing, WriteOptions};
use clipscope_core::model::Clip;
use clipscope_core::model::ops::reduce::{Metric, ReduceReport};
use clipscope_core::text::thousands;
use clipscope_editor::{ClipId, Edit};

use super::outbox::Outbox;

/// The window's settings and the preview the app last computed for them.
#[derive(Debug, Default)]
pub struct ReducePanel {
    /// The window is shown.
    pub open: bool,
    /// The largest distance, in the file's length unit.
    pub max_error: f64,
    /// Whether the angle is bounded too.
    pub limit_angle: bool,
    /// The largest angle in degrees, when bounded.
    pub max_angle: f64,
    /// Every clip of the selected clip's file (else the selected clip).
    pub all_clips: bool,
    /// glTF: rotations and weights as normalized 16-bit integers.
    pub quantize: bool,
    /// glTF: animation data compressed with `EXT_meshopt_compression`.
    pub meshopt: bool,
    /// Show the original instead of the reduction (the A of the A/B comparison).
    pub show_original: bool,
    /// The latest preview, if any.
    pub preview: Option<Preview>,
    /// True while a preview is being computed.
    pub busy: bool,
    /// Why the last preview failed, if it did.
    pub error: Option<String>,
}

/// A computed reduction, ready to show and to apply.
#[derive(Debug, Clone)]
pub struct Preview {
    /// What it was computed for.
    pub request: Request,
    /// Each reduced clip with its report.
    pub clips: Vec<PreviewClip>,
    /// The file's bytes before and after, both written by the file's format (after: with the
    /// reduced clips and the packing asked for).
    pub bytes: Option<(usize, usize)>,
}

/// One reduced clip.
#[derive(Debug, Clone)]
pub struct PreviewClip {
    /// The clip it replaces.
    pub id: ClipId,
    /// The reduced clip.
    pub clip: Clip,
    /// What changed, measured on the file as written and read back (as `clipscope reduce`
    /// measures it).
    pub report: ReduceReport,
}

/// What a preview is computed for: the document (by id and version), its clips and the budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The document's stable id.
    pub doc_id: u64,
    /// The document's version (a preview of an older version is stale).
    pub version: u64,
    /// Its index in the workspace.
    pub doc: usize,
    /// The clips to reduce.
    pub clips: Vec<usize>,
    /// The budget.
    pub budget: Budget,
    /// The budget's unit symbol (`m`, `px`, …).
    pub unit: &'static str,
    /// How a glTF file's animation data would be packed.
    pub packing: Packing,
}

impl ReducePanel {
    /// Opens the window with the default budget (1 cm, or a pixel in Lottie) the first time.
    pub fn open_with(&mut self, default_error: f64) {
        if self.max_error <= 0.0 {
            self.max_error = default_error;
            self.max_angle = 2.0;
        }
        self.open = true;
        self.show_original = false;
    }

    /// Closes the window and forgets the preview.
    pub fn close(&mut self) {
        self.open = false;
        self.preview = None;
        self.busy = false;
        self.error = None;
        self.show_original = false;
    }

    /// The preview of clip `id`, when one is shown for it (and the B side is on).
    pub fn shown(&self, id: ClipId) -> Option<&PreviewClip> {
        if !self.open || self.show_original {
            return None;
        }
        self.preview.as_ref()?.clips.iter().find(|c| c.id == id)
    }

    /// The preview of clip `id`, whichever side is shown.
    pub fn of(&self, id: ClipId) -> Option<&PreviewClip> {
        if !self.open {
            return None;
        }
        self.preview.as_ref()?.clips.iter().find(|c| c.id == id)
    }

    /// The budget the settings describe.
    pub fn budget(&self) -> Budget {
        Budget {
            max_error: self.max_error,
            max_angle_deg: self.limit_angle.then_some(self.max_angle),
            ..Budget::default()
        }
    }

    /// The packing the settings ask for (glTF files): `clipscope reduce --quantize --meshopt`'s
    /// at this budget ([`packed_write`]).
    pub fn packing(&self) -> Packing {
        let write = WriteOptions {
            packing: Packing {
                quantize: self.quantize,
                meshopt: self.meshopt,
                ..Packing::default()
            },
            ..WriteOptions::default()
        };
        packed_write(write, self.max_error).packing
    }
}

/// A length for people: metres as mm or cm, other units with their symbol.
pub fn length(x: f64, unit: &str) -> String {
    match unit {
        "m" if x < 0.01 => format!("{:.2} mm", x * 1000.0),
        "m" => format!("{:.2} cm", x * 100.0),
        _ => format!("{x:.3} {unit}"),
    }
}

/// A track's error in its metric, for people.
pub fn track_error(error: f64, metric: Metric, unit: &str) -> String {
    match metric {
        Metric::Translation => length(error, unit),
        Metric::Rotation => format!("{:.3}°", error.to_degrees()),
        Metric::Scale => format!("{:.2}%", error * 100.0),
        Metric::Absolute => format!("{error:.4}"),
    }
}

/// Shows the window (when open): the settings, the preview's summary, the A/B switch and
/// Apply / Cancel. Apply queues one [`Edit::ReplaceClips`] in `out` and closes the window.
/// `unit` is the selected file's length unit symbol.
pub fn show(ctx: &egui::Context, state: &mut ReducePanel, unit: &str, out: &mut Outbox) {
    if !state.open {
        return;
    }
    let mut open = true;
    let mut close = false;
    egui::Window::new("Reduce")
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .default_pos(ctx.content_rect().right_top() + egui::vec2(-330.0, 60.0))
        .show(ctx, |ui| {
            egui::Grid::new("reduce settings")
                .num_columns(2)
                .spacing([10.0, 6.0])
                .show(ui, |ui| {
                    let label = ui.label("Max error");
                    let speed = (state.max_error * 0.02).max(1e-5);
                    ui.add(
                        egui::DragValue::new(&mut state.max_error)
                            .range(1e-6..=1e6)
                            .speed(speed)
                            .max_decimals(5)
                            .suffix(format!(" {unit}")),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "How far anything the viewer sees may move from where the original puts \
                         it, at every key and between keys: every node (end bones included) and \
                         the shell points around each joint; in Lottie every layer's content \
                         corners in composition pixels",
                    );
                    ui.end_row();
                    ui.checkbox(&mut state.limit_angle, "Max angle");
                    ui.add_enabled(
                        state.limit_angle,
                        egui::DragValue::new(&mut state.max_angle)
                            .range(0.01..=180.0)
                            .speed(0.05)
                            .suffix("°"),
                    );
                    ui.end_row();
                    ui.label("Clips");
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut state.all_clips, false, "this clip");
                        ui.radio_value(&mut state.all_clips, true, "all clips of the file");
                    });
                    ui.end_row();
                    ui.label("glTF");
                    ui.horizontal(|ui| {
                        ui.checkbox(&mut state.quantize, "quantize").on_hover_text(
                            "Rotations and morph weights as normalized 16-bit integers",
                        );
                        ui.checkbox(&mut state.meshopt, "meshopt").on_hover_text(
                            "Compress the animation data (EXT_meshopt_compression, required)",
                        );
                    });
                    ui.end_row();
                });
            ui.separator();
            summary(ui, state, unit);
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Viewport and curves:");
                ui.selectable_value(&mut state.show_original, true, "A original");
                ui.selectable_value(&mut state.show_original, false, "B reduced")
                    .on_hover_text("Key B switches between the two");
            });
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let ready = state.preview.is_some() && !state.busy;
                if ui
                    .add_enabled(ready, egui::Button::new("Apply"))
                    .on_hover_text("Replace the clips with the reduction (one undo step)")
                    .clicked()
                    && let Some(preview) = &state.preview
                {
                    out.edit(Edit::ReplaceClips {
                        label: "Reduce",
                        clips: preview
                            .clips
                            .iter()
                            .map(|c| (c.id, Box::new(c.clip.clone())))
                            .collect(),
                    });
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if close || !open {
        state.close();
    }
}

/// The preview's summary: keys and bytes before and after, the measured error and where it is
/// largest.
fn summary(ui: &mut egui::Ui, state: &ReducePanel, unit: &str) {
    if let Some(e) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
        return;
    }
    let Some(preview) = &state.preview else {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.weak("Measuring…");
        });
        return;
    };
    let (before, after) = preview.clips.iter().fold((0, 0), |(b, a), c| {
        (b + c.report.keys_before, a + c.report.keys_after)
    });
    let percent = if before > 0 {
        100.0 * after as f64 / before as f64
    } else {
        100.0
    };
    ui.horizontal(|ui| {
        ui.label(
            egui::RichText::new(format!(
                "{} -> {} keys",
                thousands(before),
                thousands(after)
            ))
            .strong(),
        );
        ui.weak(format!("({percent:.1}%)"));
        if state.busy {
            ui.spinner();
        }
    });
    if let Some((before, after)) = preview.bytes {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(format!(
                    "{} -> {} bytes",
                    thousands(before),
                    thousands(after)
                ))
                .strong(),
            );
            ui.weak(format!(
                "({:.1}%)",
                100.0 * after as f64 / before.max(1) as f64
            ));
        });
    }
    let worst = preview
        .clips
        .iter()
        .max_by(|a, b| a.report.max_error.total_cmp(&b.report.max_error));
    if let Some(c) = worst {
        let r = &c.report;
        let at = match &r.worst {
            Some(w) => match w.time {
                Some(t) => format!(" at {}, {t:.2} s", w.place()),
                None => format!(" in {}", w.place()),
            },
            None => String::new(),
        };
        ui.label(format!("Max error {}{at}", length(r.max_error, unit)));
        if preview.clips.iter().any(|c| c.report.measures_angles()) {
            let angle = preview
                .clips
                .iter()
                .map(|c| c.report.max_angle)
                .fold(0.0, f64::max);
            ui.label(format!("Max angle {:.2}°", angle.to_degrees()));
        }
        ui.weak(match (r.world, unit) {
            (true, "px") => {
                "Measured in composition space: every layer's content through its parents"
            }
            (true, _) if r.vertices > 0 => {
                "Measured in world space at every node and every vertex of the meshes"
            }
            (true, _) => "Measured in world space at every node and the shells around the joints",
            (false, _) => "No skeleton: each track is measured in its own space",
        });
    }
}
