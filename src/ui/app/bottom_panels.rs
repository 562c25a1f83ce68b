//! The panels along the bottom: the timeline with its dopesheet, and the validation findings.

use crate::ui::outbox::{AppCommand, Outbox};
use crate::ui::style;
use crate::ui::timeline::{self, DopeRow};
use crate::ui::validation_panel;
use clipscope_editor::Edit;
use clipscope_editor::KeyRef;

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
        // The selected keys of each shown track, ascending (the selection is ordered by track,
        // key, component).
        let mut selected: Vec<Vec<usize>> = vec![Vec::new(); shown.len()];
        for k in &self.selection.keys {
            if let Ok(row) = shown.binary_search(&k.track)
                && selected[row].last() != Some(&k.key)
            {
                selected[row].push(k.key);
            }
        }
        let rows: Vec<DopeRow> = clip.map_or_else(Vec::new, |c| {
            shown
                .iter()
                .zip(&selected)
                .filter_map(|(&t, s)| c.tracks.get(t).map(|t| (t, s)))
                .zip(&labels)
                .map(|((t, selected), label)| DopeRow {
                    label,
                    colour: style::track_colour(t),
                    times: &t.times,
                    selected,
                })
                .collect()
        });
        let markers = clip.map(|c| c.markers()).unwrap_or_default();
        let flags: Vec<(f64, &str)> = markers.iter().map(|m| (m.time, m.name.as_str())).collect();
        let output = timeline::show_marked(ui, &mut self.transport, duration, &rows, &flags);
        let components = |track: usize| {
            clip.and_then(|c| c.tracks.get(track))
                .map_or(1, |t| t.value_size().max(1))
        };
        let whole_key = |track: usize, key: usize| {
            (0..components(track)).map(move |component| KeyRef {
                track,
                key,
                component,
            })
        };
        if let Some((row, key)) = output.toggle_key
            && let Some(&track) = shown.get(row)
        {
            let keys: Vec<KeyRef> = whole_key(track, key).collect();
            if keys.iter().any(|k| self.selection.keys.contains(k)) {
                for k in &keys {
                    self.selection.keys.remove(k);
                }
            } else {
                self.selection.keys.extend(keys);
            }
        }
        if let Some(b) = output.box_select
            && let Some(c) = clip
        {
            if !b.add {
                self.selection.keys.clear();
            }
            for &track in shown.iter().skip(b.first).take(b.last + 1 - b.first) {
                if let Some(t) = c.tracks.get(track) {
                    for key in b.keys_in(&t.times) {
                        self.selection.keys.extend(whole_key(track, key));
                    }
                }
            }
        }
        if let Some((row, key)) = output.grab_key
            && let Some(&track) = shown.get(row)
            && !self
                .selection
                .keys
                .iter()
                .any(|k| k.track == track && k.key == key)
        {
            self.selection.keys = whole_key(track, key).collect();
        }
        if let Some((dt, gesture)) = output.move_keys
            && let Some(clip) = self.selection.clip
            && !self.selection.keys.is_empty()
        {
            out.edit(Edit::MoveKeys {
                clip,
                keys: self.selection.keys.iter().copied().collect(),
                dt,
                dv: 0.0,
                gesture: Some(gesture),
            });
        }
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
