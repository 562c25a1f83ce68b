//! The side panels: on the left the clip list over the track tree, on the right the inspector
//! or the Cycles panel.

use std::collections::BTreeMap;

use crate::ui::outbox::Outbox;
use crate::ui::reduce_panel;
use crate::ui::track_tree::TrackNote;
use crate::ui::{clip_list, cycles_panel, inspector, track_tree};
use clipscope_core::model::ops::reduce::Bound;
use clipscope_core::text::thousands;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// The left panel: the clip list on top, the selected clip's track tree below.
    pub(super) fn left_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::left("left")
            .resizable(true)
            .default_size(300.0)
            .min_size(200.0)
            .show(ui, |ui| {
                egui::Panel::top("clips")
                    .resizable(true)
                    .default_size(200.0)
                    .min_size(80.0)
                    .show(ui, |ui| {
                        clip_list::show(
                            ui,
                            &self.ws,
                            &mut self.clip_list,
                            &mut self.selection,
                            out,
                        );
                    });
                self.refresh_live_problems();
                egui::CentralPanel::default().show(ui, |ui| self.track_tree(ui));
            });
    }

    /// The selected clip's tracks with their warning marks (selecting tracks is view state).
    fn track_tree(&mut self, ui: &mut egui::Ui) {
        let problems = match &self.live {
            Some((id, _, p)) if Some(*id) == self.selection.clip => p.as_slice(),
            _ => &[],
        };
        let id = self.selection.clip;
        // While a reduction is previewed: the side shown, each track's keys and error.
        let preview = id.and_then(|id| self.reduce.of(id));
        let mut notes = BTreeMap::new();
        if let Some(p) = preview {
            let unit = self.reduce_unit();
            for (t, r) in p.report.tracks.iter().enumerate() {
                if r.keys_after == r.keys_before && r.bound == Bound::Lossless {
                    continue;
                }
                let keys = format!(
                    "{} -> {} keys",
                    thousands(r.keys_before),
                    thousands(r.keys_after)
                );
                let error = reduce_panel::track_error(r.error, r.metric, unit);
                let note = match r.bound {
                    _ if r.error == 0.0 => TrackNote {
                        text: "exact".into(),
                        hover: format!("{keys}: only keys that change nothing were removed"),
                    },
                    Bound::World => TrackNote {
                        hover: format!("{keys}; the joint moves at most {error} in the world"),
                        text: error,
                    },
                    Bound::Local | Bound::Absolute | Bound::Lossless => TrackNote {
                        hover: format!("{keys}; the track strays at most {error}"),
                        text: error,
                    },
                };
                notes.insert(t, note);
            }
        }
        // While compared with another version: how much each changed track changed.
        if preview.is_none()
            && let (Some(id), Some(c)) = (id, &self.comparison)
            && self.ws.index_of(c.doc_id) == Some(id.doc)
        {
            for (t, text, hover) in c.track_notes(id.clip) {
                let hover = format!("Changed from {}: {hover}", c.label);
                notes.insert(t, TrackNote { text, hover });
            }
        }
        let shown = match (id, preview) {
            (Some(id), Some(p)) if !self.reduce.show_original && self.ws.clip(id).is_some() => {
                Some(&p.clip)
            }
            (Some(id), _) => self.ws.clip(id),
            (None, _) => None,
        };
        match shown {
            Some(clip) => track_tree::show(ui, clip, problems, &notes, &mut self.selection),
            None => {
                ui.strong("TRACKS");
                ui.weak("Select a clip to see its tracks.");
            }
        }
    }

    /// The right panel: the Inspector and Cycles tabs and the chosen one's panel.
    pub(super) fn right_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(290.0)
            .min_size(200.0)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.right_tab, RightTab::Inspector, "Inspector");
                    if ui
                        .selectable_value(&mut self.right_tab, RightTab::Cycles, "Cycles")
                        .on_hover_text("Procedural walk and run cycles: tune, preview, bake")
                        .clicked()
                    {
                        self.cycles.preview_in_viewport = true;
                    }
                    if self.comparison.is_some() {
                        ui.selectable_value(&mut self.right_tab, RightTab::Compare, "Compare")
                            .on_hover_text("What changed from the other version");
                    }
                });
                ui.separator();
                match self.right_tab {
                    RightTab::Inspector => self.inspector(ui, out),
                    RightTab::Cycles => cycles_panel::show(ui, &mut self.cycles, out),
                    RightTab::Compare => self.compare_panel(ui, out),
                }
            });
    }

    /// The inspector for the selected clip, its file, the selected keys and the log.
    fn inspector(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let clip = self.selection.clip.and_then(|id| {
            let doc = &self.ws.documents.get(id.doc)?.doc;
            let clip = doc.clips.get(id.clip)?;
            Some((id, clip, inspector::FileSummary::of(doc)))
        });
        inspector::show(
            ui,
            &mut self.inspector,
            clip,
            &self.selection.keys,
            &self.log,
            out,
        );
    }
}
