//! The panels along the bottom: the timeline with its dopesheet, and the validation findings.

use crate::editor::KeyRef;
use crate::ui::outbox::{AppCommand, Outbox};
use crate::ui::style;
use crate::ui::timeline::{self, DopeRow};
use crate::ui::validation_panel;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// The timeline strip with one dopesheet row per shown track. The timeline moves the
    /// playhead itself (the transport is view state); a clicked key tick is queued to select.
    pub(super) fn timeline_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(170.0)
            .min_size(90.0)
            .show(ui, |ui| self.timeline(ui, out));
    }

    fn timeline(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let duration = self.duration();
        let clip = self.selection.clip.and_then(|id| self.ws.clip(id));
        let shown: Vec<usize> = self.selection.tracks.iter().copied().collect();
        let labels: Vec<String> = clip.map_or_else(Vec::new, |c| {
            shown
                .iter()
                .filter_map(|&t| c.tracks.get(t))
                .map(|t| t.name.trim_start_matches('.').to_string())
                .collect()
        });
        let rows: Vec<DopeRow> = clip.map_or_else(Vec::new, |c| {
            shown
                .iter()
                .filter_map(|&t| c.tracks.get(t))
                .zip(&labels)
                .map(|(t, label)| DopeRow {
                    label,
                    colour: style::track_colour(t),
                    times: &t.times,
                })
                .collect()
        });
        let output = timeline::show(ui, &mut self.transport, duration, &rows);
        if let Some((row, key)) = output.seek_key
            && let Some(&track) = shown.get(row)
        {
            out.push(AppCommand::SelectKey(KeyRef {
                track,
                key,
                component: 0,
            }));
        }
    }

    /// The findings of the last validate run; a click on one or on Fix is queued.
    pub(super) fn validation_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::bottom("validation")
            .resizable(true)
            .default_size(140.0)
            .min_size(60.0)
            .show(ui, |ui| {
                validation_panel::show(ui, &mut self.validation, self.findings.as_ref(), out);
            });
    }
}
