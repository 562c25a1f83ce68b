//! The small modal dialogs: unsaved-edits and overwrite confirmation, a file changed on disk
//! under unsaved edits, export settings and the typed path.

use clipscope_core::formats::{Format, WriteOptions};

use super::files::PathPrompt;
use super::outbox::ChangedAnswer;

/// The user's answer to an unsaved-edits question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Go ahead and discard the edits.
    Discard,
    /// Keep everything as it is.
    Cancel,
}

/// Asks whether to go ahead (discard unsaved edits, overwrite a changed file): `heading`,
/// the `question` and a `go` button next to Cancel. `None` while the user has not answered.
pub fn confirm(ctx: &egui::Context, heading: &str, question: &str, go: &str) -> Option<Answer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("confirm discard")).show(ctx, |ui| {
        ui.set_width(380.0);
        ui.heading(heading);
        ui.add(egui::Label::new(question).wrap());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button(go).clicked() {
                answer = Some(Answer::Discard);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(Answer::Cancel);
    }
    answer
}

/// Asks what to do about `name`, changed on disk under unsaved edits; `None` while open.
pub fn changed_on_disk(ctx: &egui::Context, name: &str) -> Option<ChangedAnswer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("changed on disk")).show(ctx, |ui| {
        ui.set_width(420.0);
        ui.heading("File changed on disk");
        ui.add(
            egui::Label::new(format!(
                "{name} was changed by another program, and its open version has unsaved \
                 edits."
            ))
            .wrap(),
        );
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui
                .button("Reload")
                .on_hover_text("Show the new version and lose your edits")
                .clicked()
            {
                answer = Some(ChangedAnswer::Reload);
            }
            if ui
                .button("Keep mine")
                .on_hover_text("Keep your edits; saving replaces the new version")
                .clicked()
            {
                answer = Some(ChangedAnswer::KeepMine);
            }
            if ui
                .button("Open beside")
                .on_hover_text("Keep your edits and open the new version as another document")
                .clicked()
            {
                answer = Some(ChangedAnswer::OpenBeside);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(ChangedAnswer::KeepMine);
    }
    answer
}

/// Export settings being chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The document to export (stable id).
    pub doc_id: u64,
    /// The target format.
    pub format: Format,
    /// Round numbers to this many decimals (`None`: shortest exact text).
    pub precision: Option<u32>,
    /// Indent the output.
    pub pretty: bool,
    /// Legacy three.js: one key of flat arrays per bone (the serialized layout).
    pub serialized: bool,
    /// How closely the destination must play the source's rotations, degrees (`convert
    /// --tolerance`): writers add keys where it would stray further.
    pub tolerance: f64,
    /// The last measurement: the settings it was made with and what it says (`plays in …
    /// within …; N key(s) added`, or why the format cannot hold the document).
    pub measured: Option<(Format, f64, String)>,
}

impl Export {
    /// Settings for exporting document `doc_id` (read as `format`): its own format, exact
    /// numbers, the default tolerance, nothing measured yet.
    pub fn new(doc_id: u64, format: Format) -> Export {
        Export {
            doc_id,
            format,
            precision: None,
            pretty: false,
            serialized: false,
            tolerance: clipscope_core::formats::DEFAULT_ROTATION_DEG,
            measured: None,
        }
    }

    /// The write options these settings mean.
    pub fn options(&self) -> WriteOptions {
        WriteOptions {
            precision: self.precision,
            pretty: self.pretty,
            serialized: self.serialized,
            tolerance: clipscope_core::formats::Tolerance {
                rotation_deg: self.tolerance,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// The measurement, if it was made with the current format and tolerance.
    pub fn measurement(&self) -> Option<&str> {
        self.measured
            .as_ref()
            .filter(|(f, t, _)| *f == self.format && *t == self.tolerance)
            .map(|(_, _, text)| text.as_str())
    }
}

/// What the export dialog asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportAnswer {
    /// Choose the file and write.
    ChooseFile,
    /// Measure how the export plays in its destination (no file written).
    Measure,
    /// Close without exporting.
    Cancel,
}

/// Shows the export settings; `None` while open.
pub fn export(ctx: &egui::Context, state: &mut Export) -> Option<ExportAnswer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("export")).show(ctx, |ui| {
        ui.set_width(360.0);
        ui.heading("Export As");
        egui::Grid::new("export grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Format");
                egui::ComboBox::from_id_salt("export format")
                    .selected_text(state.format.description())
                    .show_ui(ui, |ui| {
                        for &f in Format::ALL {
                            ui.selectable_value(&mut state.format, f, f.description());
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
                let numbers = ui.label("Numbers");
                let mut exact = state.precision.is_none();
                ui.horizontal(|ui| {
                    ui.checkbox(&mut exact, "exact");
                    if exact {
                        state.precision = None;
                    } else {
                        let mut p = state.precision.unwrap_or(4);
                        ui.add(
                            egui::DragValue::new(&mut p)
                                .range(0..=9)
                                .suffix(" decimals"),
                        )
                        .labelled_by(numbers.id);
                        state.precision = Some(p);
                    }
                });
                ui.end_row();
                ui.label("Layout");
                ui.checkbox(&mut state.pretty, "indented");
                ui.end_row();
                if let Some(layout) = state.format.spec().serialized_layout {
                    ui.label("Keys");
                    ui.checkbox(&mut state.serialized, layout);
                    ui.end_row();
                }
                let tolerance = ui.label("Tolerance");
                ui.add(
                    egui::DragValue::new(&mut state.tolerance)
                        .range(0.001..=10.0)
                        .speed(0.005)
                        .suffix("°"),
                )
                .labelled_by(tolerance.id)
                .on_hover_text(
                    "How closely the destination must play the source's rotations: keys are \
                     added where it would stray further",
                );
                ui.end_row();
            });
        ui.add_space(4.0);
        match state.measurement() {
            Some(text) => {
                ui.label(text);
            }
            None => {
                ui.weak("Not measured for these settings yet.");
            }
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Measure").clicked() {
                answer = Some(ExportAnswer::Measure);
            }
            if ui.button("Choose file…").clicked() {
                answer = Some(ExportAnswer::ChooseFile);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(ExportAnswer::Cancel);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(ExportAnswer::Cancel);
    }
    answer
}

/// What the path prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptAnswer {
    /// Use this path.
    Path(std::path::PathBuf),
    /// Close without a path.
    Cancel,
}

/// Shows the typed-path prompt; `None` while open.
pub fn path_prompt(ctx: &egui::Context, prompt: &mut PathPrompt) -> Option<PromptAnswer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("path prompt")).show(ctx, |ui| {
        ui.set_width(460.0);
        ui.heading("File path");
        ui.add(egui::Label::new(&prompt.reason).wrap());
        let label = ui.label("Path");
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut prompt.text)
                    .hint_text("/path/to/clip.json")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
        let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
        if !r.lost_focus() {
            r.request_focus();
        }
        ui.horizontal(|ui| {
            if (ui.button("OK").clicked() || enter) && !prompt.text.trim().is_empty() {
                answer = Some(PromptAnswer::Path(prompt.text.trim().into()));
            }
            if ui.button("Cancel").clicked() {
                answer = Some(PromptAnswer::Cancel);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(PromptAnswer::Cancel);
    }
    answer
}
