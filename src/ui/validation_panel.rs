//! The VALIDATION panel: the findings of the last validate run, filterable by severity;
//! clicking one selects its clip, track and key.

use crate::editor::{ClipId, Workspace};
use crate::model::{Problem, Severity};

/// Filters of the panel.
#[derive(Debug)]
pub struct ValidationPanel {
    /// Show errors.
    pub errors: bool,
    /// Show warnings.
    pub warnings: bool,
}

impl Default for ValidationPanel {
    fn default() -> Self {
        ValidationPanel {
            errors: true,
            warnings: true,
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

/// Shows the findings; returns the one the user clicked. `None` findings means "not run yet".
pub fn show(
    ui: &mut egui::Ui,
    state: &mut ValidationPanel,
    ws: &Workspace,
    findings: Option<&[(ClipId, Problem)]>,
) -> Option<Target> {
    let mut clicked = None;
    ui.horizontal(|ui| {
        ui.strong("VALIDATION");
        if let Some(f) = findings {
            let errors = f
                .iter()
                .filter(|(_, p)| p.severity == Severity::Error)
                .count();
            let warnings = f.len() - errors;
            ui.toggle_value(&mut state.errors, format!("{errors} errors"));
            ui.toggle_value(&mut state.warnings, format!("{warnings} warnings"));
        }
    });
    let Some(findings) = findings else {
        ui.weak("Run Clip › Validate to check the clips.");
        return None;
    };
    if findings.is_empty() {
        ui.label(
            egui::RichText::new("No problems found.").color(egui::Color32::from_rgb(120, 200, 120)),
        );
        return None;
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
                if !show {
                    continue;
                }
                let (mark, colour) = match p.severity {
                    Severity::Error => ("error", ui.visuals().error_fg_color),
                    Severity::Warning => ("warning", ui.visuals().warn_fg_color),
                };
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
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(mark).small().strong().color(colour));
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
                        clicked = Some(Target {
                            clip: *id,
                            track: p.track,
                            key: p.key,
                        });
                    }
                });
            }
        });
    clicked
}
