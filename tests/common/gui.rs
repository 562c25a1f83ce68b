//! Driving the real editor in GUI tests (feature `gui`): opening it on files and exporting
//! through the typed-path prompt (no native dialog in tests).

use std::path::{Path, PathBuf};

use clipscope::ui::ClipscopeApp;
use clipscope::ui::outbox::FileTarget;
use clipscope_core::formats::{Format, WriteOptions};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The editor on `files` (the built-in demo when there are none), loaded, in a 1280×800
/// window, after its first frames.
pub fn editor(files: &[PathBuf]) -> Harness<'static, ClipscopeApp> {
    editor_sized(files, egui::vec2(1280.0, 800.0))
}

/// [`editor`] in a window of `size` points.
pub fn editor_sized(files: &[PathBuf], size: egui::Vec2) -> Harness<'static, ClipscopeApp> {
    let mut app = ClipscopeApp::open(files);
    app.wait_for_loads();
    let mut harness = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app);
    harness.run();
    harness
}

/// Writes the document with id `doc_id` to `out` in `format` through Export As's typed-path
/// prompt.
pub fn export_through_prompt(
    harness: &mut Harness<'_, ClipscopeApp>,
    doc_id: u64,
    format: Format,
    out: &Path,
) {
    harness.state_mut().files.prompt_for(
        FileTarget::SaveAs {
            doc_id,
            options: WriteOptions::default(),
            format: Some(format),
        },
        None,
        "no dialog in tests".into(),
    );
    harness.run();
    harness
        .get_by_label("Path")
        .type_text(out.to_str().unwrap());
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
}

/// Hovers the centre of the drawn box of `part` in the viewport, checks the pointer names
/// `name`, clicks it, and returns the names of the tracks the curve editor then shows.
pub fn click_bone(
    harness: &mut Harness<'static, ClipscopeApp>,
    part: usize,
    name: &str,
) -> Vec<String> {
    let centre = harness.state().viewport.frame.boxes[part]
        .transform
        .w_axis
        .truncate();
    let at = harness.state().viewport.screen_pos(centre).unwrap();
    harness.hover_at(at);
    harness.run();
    assert_eq!(harness.state().viewport.hovered.as_deref(), Some(name));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    harness.run();
    harness.run();
    let clip = harness.state().selected_clip().unwrap().1.clone();
    harness
        .state()
        .selection
        .tracks
        .iter()
        .map(|&t| clip.tracks[t].name.clone())
        .collect()
}
