//! The desktop editor (feature `gui`): an eframe window over the same documents the CLI uses.
//!
//! Panels are small `show(ui, …)` functions over plain state structs; they never edit documents
//! and never call back into the app. There is one channel from the panels to the app:
//!
//! * **Who pushes:** every panel's `show` takes the frame's [`outbox::Outbox`] and pushes
//!   [`outbox::AppCommand`]s that carry their data: [`Edit`](clipscope_editor::Edit)s for the
//!   documents, [`commands::UiCommand`]s from menus, context menus and the palette, a recent
//!   file to open, a validation finding to go to, a cycle to bake, a new playhead, a cancelled
//!   drag… The app pushes the keyboard shortcuts into the same queue, and its modal dialogs
//!   push their answers.
//! * **Who drains, when:** [`ClipscopeApp::show`] lays the panels out, then drains the queue
//!   once, in order, in [`ClipscopeApp::apply_queued`]: edits go through the
//!   [`Workspace`](clipscope_editor::Workspace) (which records undo), user-level commands run,
//!   dialogs open.
//! * **Layering:** [`outbox`] holds [`outbox::AppCommand`] and the types its commands carry
//!   (what waits for confirmation, dialog answers, file targets, a finding's target), so the
//!   panels depend on it and it depends on no panel; [`commands`] is below it.
//!
//! What stays direct is view state: the selection, the transport's play state and playhead as
//! the timeline moves it, each panel's own widgets state (filters, camera, slider values).
//! Background loads and files dropped on the window are taken in at the start of a frame.

mod app;
pub mod clip_dialog;
pub mod clip_list;
pub mod commands;
pub mod compare;
pub mod curve_editor;
pub mod cycles_panel;
pub mod dialogs;
pub mod files;
pub mod findings;
pub mod inspector;
pub mod menu;
pub mod outbox;
pub mod palette;
pub mod recovery_dialog;
pub mod reduce_panel;
pub mod selection;
pub mod style;
pub mod timeline;
pub mod track_tree;
pub mod validation_panel;
pub mod viewport;
pub mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

pub use app::{ClipscopeApp, SETTINGS_KEY, Settings};

/// Opens the editor window with `files` (or the built-in demo when there are none) and blocks
/// until it is closed.
pub fn run(
    files: Vec<PathBuf>,
    against: Option<String>,
    read_options: clipscope_core::formats::ReadOptions,
) -> ExitCode {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("clipscope")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0]),
        ..Default::default()
    };
    let result = eframe::run_native(
        "clipscope",
        options,
        Box::new(move |cc| {
            let settings: Settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
                .unwrap_or_default();
            style::apply_theme(&cc.egui_ctx, settings.dark);
            let mut app = ClipscopeApp::open_with(&files, read_options).with_settings(settings);
            if let (Some(file), Some(against)) = (files.first(), &against) {
                app = app.compare_on_open(file, against);
            }
            // Autosave into the platform's data folder, and offer what a crash left there.
            app.start_recovery(None);
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clipscope: cannot open the editor window: {e}");
            ExitCode::from(2)
        }
    }
}
