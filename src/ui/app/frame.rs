//! One frame of the editor: take in finished loads and dropped files, lay out the panels (each
//! pushes into one [`Outbox`]), read the shortcuts into the same queue, then apply the queue.
//!
//! Shortcut priority: no shortcut acts while a modal dialog is open; plain-key shortcuts do not
//! fire while a text field has the keyboard; the most specific shortcut wins (Ctrl+Shift+Z
//! before Ctrl+Z); the curve editor's keys (F, Shift+F, Delete, I) go to the curve editor while
//! the pointer is over it, and only what it left acts on the whole editor, after the panels.

use std::path::PathBuf;

use crate::ui::commands::UiCommand;
use crate::ui::outbox::Outbox;
use crate::ui::reduce_panel;
use crate::ui::style;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Draws the whole window into `ui` (what eframe calls every frame; tests call it directly)
    /// and then carries out what the panels asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let mut out = Outbox::default();
        self.begin_frame(&ctx);
        self.modals(&ctx, &mut out);
        let modal = self.modal_open();
        if !modal {
            for command in UiCommand::pressed(&ctx, |c| !c.is_curve_key()) {
                out.ui(command);
            }
        }
        self.menu_bar(ui, &mut out);
        self.status_bar(ui, &mut out);
        self.left_panel(ui, &mut out);
        self.right_panel(ui, &mut out);
        self.advance_clocks(&ctx);
        self.timeline_panel(ui, &mut out);
        if self.show_validation {
            self.validation_panel(ui, &mut out);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            self.viewport_panel(ui, &mut out);
            self.curve_panel(ui, &mut out);
        });
        if !modal {
            // Keys the curve editor did not take (pointer elsewhere) act on the whole editor.
            for command in UiCommand::pressed(&ctx, UiCommand::is_curve_key) {
                out.ui(command);
            }
        }
        let unit = self.reduce_unit();
        reduce_panel::show(&ctx, &mut self.reduce, unit, &mut out);
        self.apply_queued(&ctx, out);
    }

    /// What comes from outside the panels, taken in before they draw: the theme on the first
    /// frame, finished background loads, autosave and files changed on disk, and files dropped
    /// on the window.
    fn begin_frame(&mut self, ctx: &egui::Context) {
        if !self.styled {
            style::apply_theme(ctx, self.dark);
            self.styled = true;
        }
        for event in self.files.poll() {
            self.file_event(event);
        }
        self.start_comparison_on_open();
        self.keep_comparison_current();
        self.keep_safe(ctx);
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        for path in dropped {
            self.request_open(&path);
        }
        if !self.files.loads.is_empty() || self.files.dialog_open() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.reduce_tick(ctx);
    }

    /// Moves the cycle preview and the playhead on while they play. Picking another clip shows
    /// that clip instead of the cycle preview, until a slider moves again.
    fn advance_clocks(&mut self, ctx: &egui::Context) {
        if self.preview_selection != self.selection.clip {
            self.preview_selection = self.selection.clip;
            self.cycles.preview_in_viewport = false;
        }
        if self.previewing_cycle() && self.cycles.playing {
            self.cycles.advance(ctx.input(|i| i.stable_dt) as f64);
            ctx.request_repaint();
        }
        if self.transport.playing {
            let dt = ctx.input(|i| i.stable_dt) as f64;
            let duration = self.duration();
            self.transport.advance(dt, duration);
            ctx.request_repaint();
        }
    }

    /// True when the viewport shows the Cycles panel's preview instead of the selected clip.
    pub(super) fn previewing_cycle(&self) -> bool {
        self.right_tab == RightTab::Cycles && self.cycles.preview_in_viewport
    }

    /// True while a modal dialog (recovery, changed file, unsaved edits, export, path prompt,
    /// palette) is open.
    pub(super) fn modal_open(&self) -> bool {
        self.recovery_offer.is_some()
            || self.changed.is_some()
            || self.pending.is_some()
            || self.export.is_some()
            || self.files.prompt.is_some()
            || self.palette.open
            || self.clip_dialog.is_some()
    }
}
