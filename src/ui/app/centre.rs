//! The centre of the window: the 3D viewport on top and the curve editor below it.

use crate::ui::clip_dialog::ClipDialog;
use crate::ui::curve_editor::{self, CurveRef};
use crate::ui::outbox::Outbox;
use crate::ui::viewport;
use clipscope_editor::smoothed_clip;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// The viewport: the Cycles panel's preview while it is shown, else the selected clip.
    pub(super) fn viewport_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::Panel::top("viewport")
            .resizable(true)
            .default_size(ui.available_height() * 0.42)
            .min_size(80.0)
            .show(ui, |ui| {
                if !(self.previewing_cycle() && self.cycle_preview(ui, out)) {
                    self.clip_view(ui, out);
                }
            });
    }

    /// Shows the cycle preview; false when the cycle cannot be previewed (its error is in the
    /// Cycles panel).
    fn cycle_preview(&mut self, ui: &mut egui::Ui, out: &mut Outbox) -> bool {
        let time = self.cycles.preview_time();
        let version = (u64::MAX, self.cycles.version, self.cycles.cycle);
        let rig = self.cycles.cycle().rig.clone();
        let Some(clip) = self.cycles.preview() else {
            return false;
        };
        let subject = viewport::Subject {
            version,
            clip,
            clips: std::slice::from_ref(clip),
            source: clipscope_scene::FigureSource::default(),
            figure: Some(&rig),
            path: None,
            selected: None,
            document: None,
            ghost: None,
        };
        viewport::show(
            ui,
            &mut self.viewport,
            self.render_state.as_ref(),
            Some(subject),
            time,
            out,
        );
        true
    }

    /// Shows the selected clip on its document's figure at the playhead (the reduction being
    /// previewed instead, while the Reduce window shows its B side).
    fn clip_view(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let previews = self.reduce_previews;
        let comparison = self.comparison.as_ref();
        self.viewport
            .stage
            .figures
            .refresh(self.ws.documents.iter().map(|d| {
                (
                    d.id,
                    d.title(),
                    d.doc.skeleton.as_ref(),
                    d.doc.model.as_ref(),
                )
            }));
        // The document's artwork (made once per file and kept by the document).
        let artwork = self
            .selection
            .clip
            .and_then(|id| self.ws.documents.get(id.doc)?.doc.artwork());
        let subject = self.selection.clip.and_then(|id| {
            let d = self.ws.documents.get(id.doc)?;
            let (clip, version, ghost) = match self.reduce.shown(id) {
                // A version no document has: the viewport rebuilds for every new preview.
                Some(p) => (&p.clip, (d.id, u64::MAX - previews, id.clip), None),
                None => (
                    d.doc.clips.get(id.clip)?,
                    (d.id, d.version, id.clip),
                    // The other version of the clip, while the document is compared.
                    comparison
                        .filter(|c| c.doc_id == d.id)
                        .and_then(|c| Some((c.generation, c.other_clip(id.clip)?))),
                ),
            };
            Some(viewport::Subject {
                version,
                clip,
                clips: &d.doc.clips,
                source: clipscope_scene::FigureSource {
                    mesh: d.doc.mesh.as_ref(),
                    model: d.doc.model.as_ref(),
                    skeleton: d.doc.skeleton.as_ref(),
                    file_name: Some(d.title()),
                    artwork: artwork.as_ref(),
                    ..Default::default()
                },
                figure: None,
                path: d.doc.path.as_deref(),
                selected: Some(&self.selection.tracks),
                document: Some(d),
                ghost,
            })
        });
        viewport::show(
            ui,
            &mut self.viewport,
            self.render_state.as_ref(),
            subject,
            self.transport.time,
            out,
        );
    }

    /// The curve editor for the selected clip's shown tracks, filling the rest of the centre.
    pub(super) fn curve_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::CentralPanel::default().show(ui, |ui| self.draw_curves(ui, out));
    }

    fn draw_curves(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let Some((id, original)) = self
            .selection
            .clip
            .and_then(|id| self.ws.clip(id).map(|c| (id, c)))
        else {
            ui.centered_and_justified(|ui| {
                ui.label("Drop a clip file here or press Ctrl+O.");
            });
            return;
        };
        let curves: Vec<CurveRef> = self
            .selection
            .tracks
            .iter()
            .filter_map(|&t| original.tracks.get(t).map(|track| (t, track)))
            .filter(|(_, track)| track.kind.is_numeric())
            .flat_map(|(t, track)| {
                (0..track.value_size()).map(move |c| CurveRef {
                    track: t,
                    component: c,
                })
            })
            .filter(|c| !self.selection.hidden.contains(&(c.track, c.component)))
            .collect();
        // While a reduction is previewed, one side is drawn over a ghost of the other, and the
        // curves are for looking only: edits made on them are dropped.
        let compared = self.reduce.of(id);
        // While the Smooth Keys dialog is open, the curves show the smoothing it would apply
        // over a ghost of the original (and are for looking only, like a reduction's preview).
        let smoothing = match &self.clip_dialog {
            Some(ClipDialog::Smooth {
                keys,
                strength,
                passes,
            }) if compared.is_none() && !keys.is_empty() => Some((keys, *strength, *passes)),
            _ => None,
        };
        match smoothing {
            Some((keys, strength, passes)) => {
                let key = {
                    use std::hash::{Hash, Hasher};
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    (id, self.ws.documents[id.doc].version, keys).hash(&mut h);
                    (strength.to_bits(), passes).hash(&mut h);
                    h.finish()
                };
                if self.smooth_preview.as_ref().map(|(k, _)| *k) != Some(key) {
                    let preview = smoothed_clip(original, keys, strength, passes);
                    self.smooth_preview = Some((key, preview));
                }
            }
            None => self.smooth_preview = None,
        }
        let previewing = compared.is_some() || self.smooth_preview.is_some();
        let (clip, reference) = match (compared, &self.smooth_preview) {
            (Some(p), _) if self.reduce.show_original => (original, Some(&p.clip)),
            (Some(p), _) => (&p.clip, Some(original)),
            (None, Some((_, preview))) => (preview, Some(original)),
            (None, None) => (original, None),
        };
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (self.reduce_previews, self.reduce.show_original, id).hash(&mut h);
            self.smooth_preview.is_some().hash(&mut h);
            self.ws.documents[id.doc].version.hash(&mut h);
            self.selection.tracks.hash(&mut h);
            self.comparison.as_ref().map(|c| c.generation).hash(&mut h);
            h.finish()
        };
        // While the document is compared with another version, and nothing else is previewed:
        // that version's changed tracks.
        let comparing = match &self.comparison {
            Some(c) if reference.is_none() && self.ws.documents[id.doc].id == c.doc_id => Some(c),
            _ => None,
        };
        match reference {
            None if comparing.is_none() => self.curves.reference = None,
            Some(_)
                if self
                    .curves
                    .reference
                    .as_ref()
                    .is_some_and(|(k, _)| *k == key) => {}
            Some(other) => {
                let tracks = self
                    .selection
                    .tracks
                    .iter()
                    .filter_map(|&t| other.tracks.get(t).map(|track| (t, track.clone())))
                    .collect();
                self.curves.reference = Some((key, tracks));
            }
            None if self
                .curves
                .reference
                .as_ref()
                .is_some_and(|(k, _)| *k == key) => {}
            None => {
                let tracks = comparing.map_or_else(Vec::new, |c| {
                    c.other_tracks(id.clip, self.selection.tracks.iter().copied())
                });
                self.curves.reference = Some((key, tracks));
            }
        }
        let mut local = Outbox::default();
        self.curves.fps = self.transport.fps;
        curve_editor::show(
            ui,
            &mut self.curves,
            id,
            clip,
            &curves,
            &mut self.selection.keys,
            self.transport.time,
            if previewing { &mut local } else { out },
        );
        for command in local.take() {
            if !matches!(command, crate::ui::outbox::AppCommand::Edit(_)) {
                out.push(command);
            }
        }
    }
}
