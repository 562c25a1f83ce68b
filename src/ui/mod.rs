//! The desktop editor (feature `gui`): an eframe window over the same documents the CLI uses.
//!
//! Panels are small `show(ui, …)` functions over plain state structs; they never edit documents
//! themselves. This window lists the loaded clips and their tracks; the editor proper
//! (curves, timeline, viewport, undo) builds on it.

mod app;
mod clip_list;
pub mod curve_editor;
mod style;
mod track_table;

use std::path::PathBuf;
use std::process::ExitCode;

pub use app::ClipscopeApp;

/// Opens the editor window with `files` (or the built-in demo when there are none) and blocks
/// until it is closed.
pub fn run(files: Vec<PathBuf>) -> ExitCode {
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
            style::apply(&cc.egui_ctx);
            Ok(Box::new(ClipscopeApp::open(&files)))
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
