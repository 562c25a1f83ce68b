//! The centre of the window: the 3D viewport on top and the curve editor below it.

use crate::ui::curve_editor::{self, CurveRef};
use crate::ui::outbox::Outbox;
use crate::ui::viewport;

use super::ClipscopeApp;

impl ClipscopeApp {
    /// The viewport: the Cycles panel's preview while it is shown, else the selected clip.
    pub(super) fn viewport_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("viewport")
            .resizable(true)
            .default_size(ui.available_height() * 0.42)
            .min_size(80.0)
            .show(ui, |ui| {
                if !(self.previewing_cycle() && self.cycle_preview(ui)) {
                    self.clip_view(ui);
                }
            });
    }

    /// Shows the cycle preview; false when the cycle cannot be previewed (its error is in the
    /// Cycles panel).
    fn cycle_preview(&mut self, ui: &mut egui::Ui) -> bool {
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
            source: crate::scene::FigureSource::default(),
            figure: Some(&rig),
        };
        viewport::show(
            ui,
            &mut self.viewport,
            self.render_state.as_ref(),
            Some(subject),
            time,
        );
        true
    }

    /// Shows the selected clip on its document's figure at the playhead.
    fn clip_view(&mut self, ui: &mut egui::Ui) {
        let subject = self.selection.clip.and_then(|id| {
            let d = self.ws.documents.get(id.doc)?;
            Some(viewport::Subject {
                version: (d.id, d.version, id.clip),
                clip: d.doc.clips.get(id.clip)?,
                clips: &d.doc.clips,
                source: crate::scene::FigureSource {
                    mesh: d.doc.mesh.as_ref(),
                    skeleton: d.doc.skeleton.as_ref(),
                },
                figure: None,
            })
        });
        viewport::show(
            ui,
            &mut self.viewport,
            self.render_state.as_ref(),
            subject,
            self.transport.time,
        );
    }

    /// The curve editor for the selected clip's shown tracks, filling the rest of the centre.
    pub(super) fn curve_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        egui::CentralPanel::default().show(ui, |ui| self.draw_curves(ui, out));
    }

    fn draw_curves(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
        let Some((id, clip)) = self
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
            .filter_map(|&t| clip.tracks.get(t).map(|track| (t, track)))
            .filter(|(_, track)| track.kind.is_numeric())
            .flat_map(|(t, track)| {
                (0..track.value_size()).map(move |c| CurveRef {
                    track: t,
                    component: c,
                })
            })
            .filter(|c| !self.selection.hidden.contains(&(c.track, c.component)))
            .collect();
        self.curves.fps = self.transport.fps;
        curve_editor::show(
            ui,
            &mut self.curves,
            id,
            clip,
            &curves,
            &mut self.selection.keys,
            self.transport.time,
            out,
        );
    }
}
