//! The VALIDATION panel: the findings of the last validate run (three.js's rules and the lint
//! rules, the same code as `clipscope validate`), filterable by severity and rule code; clicking
//! one queues [`AppCommand::GoTo`] (select its clip, track and key), and "Fix" queues the safe
//! fixes of `validate --fix` as one [`Edit::Fix`] on the validated clips.

use crate::editor::{ClipId, ClipScope, Edit, Workspace};
use crate::model::{Problem, Severity};

use super::outbox::{AppCommand, Outbox};

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

/// Where a clicked finding points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The clip.
    pub clip: ClipId,
    /// The track, if the finding names one.
    pub track: Option<usize>,
    /// The key, if the finding names one.
    pub key: Option<usize>,
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

/// Shows the findings of the last validate run and the clips it ran on (`None`: not run yet);
/// queues what the user clicked.
pub fn show(
    ui: &mut egui::Ui,
    state: &mut ValidationPanel,
    ws: &Workspace,
    findings: Option<(ClipScope, &[(ClipId, Problem)])>,
    out: &mut Outbox,
) {
    ui.horizontal(|ui| {
        ui.strong("VALIDATION");
        if let Some((scope, f)) = findings {
            let errors = f
                .iter()
                .filter(|(_, p)| p.severity == Severity::Error)
                .count();
            let warnings = f.len() - errors;
            ui.toggle_value(&mut state.errors, format!("{errors} errors"));
            ui.toggle_value(&mut state.warnings, format!("{warnings} warnings"));
            let mut codes: Vec<&str> = f.iter().map(|(_, p)| p.code.as_str()).collect();
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
                .add_enabled(!f.is_empty(), egui::Button::new("Fix"))
                .on_hover_text(
                    "Apply the safe fixes (sort keys, normalize quaternions, optimize, reset duration)",
                )
                .clicked()
            {
                out.edit(Edit::Fix(scope));
            }
        }
    });
    let Some((_, findings)) = findings else {
        ui.weak("Run Clip › Validate to check the clips.");
        return;
    };
    if findings.is_empty() {
        ui.label(
            egui::RichText::new("No problems found.").color(egui::Color32::from_rgb(120, 200, 120)),
        );
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("validation")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (id, p) in findings {
                let show = match p.severity {
                    Severity::Error => state.errors,
                    Severity::Warning => state.warnings,
                };
                if !show || state.code.as_ref().is_some_and(|c| *c != p.code) {
                    continue;
                }
                let clip = ws.clip(*id);
                let mut place = clip.map(|c| c.name.clone()).unwrap_or_default();
                if let (Some(t), Some(c)) = (p.track, clip)
                    && let Some(track) = c.tracks.get(t)
                {
                    place.push_str(" › ");
                    place.push_str(&track.name);
                }
                if let Some(k) = p.key {
                    place.push_str(&format!(" › key {k}"));
                }
                if let Some(time) = p.time {
                    place.push_str(&format!(" @ {time} s"));
                }
                ui.horizontal(|ui| {
                    severity_mark(ui, p.severity);
                    let text = format!("{}: {} ({})", place, p.message, p.code);
                    if ui
                        .add(
                            egui::Label::new(text)
                                .sense(egui::Sense::click())
                                .truncate(),
                        )
                        .on_hover_text("Click to select the track and key")
                        .clicked()
                    {
                        out.push(AppCommand::GoTo(Target {
                            clip: *id,
                            track: p.track,
                            key: p.key,
                        }));
                    }
                });
            }
        });
}
