//! The VALIDATION panel: the findings of the last validate run, which is the validation engine
//! of `clipscope validate` run on each document's file ([`Findings`]): the same rules, the
//! nearest `clipscope.toml` (named above each document's findings), the format's own rules.
//! Findings are filterable by severity and rule code; clicking one queues [`AppCommand::GoTo`]
//! (select its clip, track and key), and "Fix" queues the safe fixes of `validate --fix` with
//! each document's settings as one [`Edit::Fix`] on the validated clips.

use clipscope_core::model::Severity;
use clipscope_core::validate::CheckedInput;
use clipscope_editor::{ClipId, Edit};

use super::findings::Findings;
use super::outbox::{AppCommand, Outbox, Target};

/// Filters of the panel.
#[derive(Debug)]
pub struct ValidationPanel {
    /// Show errors.
    pub errors: bool,
    /// Show warnings.
    pub warnings: bool,
    /// Show only this rule code (`None`: every rule).
    pub code: Option<String>,
}

impl Default for ValidationPanel {
    fn default() -> Self {
        ValidationPanel {
            errors: true,
            warnings: true,
            code: None,
        }
    }
}

/// Paints the severity mark: a filled circle in the severity's colour, then its name.
fn severity_mark(ui: &mut egui::Ui, severity: Severity) {
    let (name, colour) = match severity {
        Severity::Error => ("error", ui.visuals().error_fg_color),
        Severity::Warning => ("warning", ui.visuals().warn_fg_color),
    };
    let size = ui.text_style_height(&egui::TextStyle::Small);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), size * 0.35, colour);
    ui.label(egui::RichText::new(name).small().strong().color(colour));
}

/// The lines above the findings: each config that applied (or the built-in settings, or why a
/// config could not be used) with the documents it applied to, and for each document checked
/// other than as its file on disk, what was checked.
fn config_lines(findings: &Findings) -> Vec<String> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for doc in &findings.docs {
        let config = match (&doc.check.config_error, &doc.check.config) {
            (Some(e), _) => format!("config not used ({e}); built-in settings"),
            (None, Some(path)) => format!("config {}", path.display()),
            (None, None) => "built-in settings (no clipscope.toml above the file)".to_string(),
        };
        let input = match doc.check.input {
            CheckedInput::File => "",
            CheckedInput::Unsaved => " (edits checked as they would be saved)",
            CheckedInput::Memory => " (checked in memory: cannot be saved in its format)",
        };
        let name = format!("{}{input}", doc.name);
        match groups.iter_mut().find(|(c, _)| *c == config) {
            Some((_, names)) => names.push(name),
            None => groups.push((config, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(config, names)| format!("{config}: {}", names.join(", ")))
        .collect()
}

/// Shows the findings of the last validate run (`None`: not run yet); queues what the user
/// clicked.
pub fn show(
    ui: &mut egui::Ui,
    state: &mut ValidationPanel,
    findings: Option<&Findings>,
    out: &mut Outbox,
) {
    ui.horizontal(|ui| {
        ui.strong("VALIDATION");
        if let Some(f) = findings {
            let (errors, warnings) = f.counts();
            ui.toggle_value(&mut state.errors, format!("{errors} errors"));
            ui.toggle_value(&mut state.warnings, format!("{warnings} warnings"));
            let mut codes: Vec<&str> = f.items().map(|(_, x)| x.problem.code.as_str()).collect();
            codes.sort_unstable();
            codes.dedup();
            let shown = state.code.clone().unwrap_or_else(|| "all rules".into());
            egui::ComboBox::from_id_salt("validation-rule")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut state.code, None, "all rules");
                    for code in codes {
                        ui.selectable_value(&mut state.code, Some(code.to_string()), code);
                    }
                })
                .response
                .on_hover_text("Show one rule only");
            if ui
                .add_enabled(errors + warnings > 0, egui::Button::new("Fix"))
                .on_hover_text(
                    "Apply the safe fixes (sort keys, normalize quaternions, optimize, reset duration) with each file's settings",
                )
                .clicked()
            {
                out.edit(Edit::Fix {
                    scope: f.scope.clone(),
                    settings: f.fix_settings(),
                });
            }
        }
    });
    let Some(findings) = findings else {
        ui.weak("Run Clip › Validate to check the clips.");
        return;
    };
    egui::ScrollArea::vertical()
        .id_salt("validation")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in config_lines(findings) {
                ui.add(egui::Label::new(egui::RichText::new(line).small().weak()).truncate());
            }
            if findings.items().next().is_none() {
                ui.label(
                    egui::RichText::new("No problems found.")
                        .color(egui::Color32::from_rgb(120, 200, 120)),
                );
                return;
            }
            for (doc, f) in findings.items() {
                let p = &f.problem;
                let show = match p.severity {
                    Severity::Error => state.errors,
                    Severity::Warning => state.warnings,
                };
                if !show || state.code.as_ref().is_some_and(|c| *c != p.code) {
                    continue;
                }
                let mut place = match &f.clip_name {
                    Some(name) => name.clone(),
                    None => doc.name.clone(),
                };
                if let Some(track) = &f.track_name {
                    place.push_str(" › ");
                    place.push_str(track);
                }
                if let Some(k) = p.key {
                    place.push_str(&format!(" › key {k}"));
                }
                if let Some(time) = p.time {
                    place.push_str(&format!(" @ {time} s"));
                }
                let clip: Option<ClipId> = Findings::clip_of(doc, f);
                ui.horizontal(|ui| {
                    severity_mark(ui, p.severity);
                    let text = format!("{}: {} ({})", place, p.message, p.code);
                    let label = ui
                        .add(
                            egui::Label::new(text)
                                .sense(egui::Sense::click())
                                .truncate(),
                        )
                        .on_hover_text("Click to select the track and key");
                    if label.clicked()
                        && let Some(clip) = clip
                    {
                        out.push(AppCommand::GoTo(Target {
                            clip,
                            track: p.track,
                            key: p.key,
                        }));
                    }
                });
            }
        });
}
