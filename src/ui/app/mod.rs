//! The application: open documents, selection and panels, wired together.
//!
//! Each frame ([`ClipscopeApp::show`]) the panels draw from the state and push what the user
//! asked for into one [`Outbox`](crate::ui::outbox::Outbox); after every panel ran, the app
//! drains it in one place ([`ClipscopeApp::apply_queued`]), in order: edits go through the
//! [`Workspace`] (which records undo), user-level commands run, files open, and so on.
//! Nothing in a panel edits a document.
//!
//! This file holds the state and what the other parts share; `frame` lays out one frame,
//! `bars`, `side_panels`, `bottom_panels`, `centre` and `modals` hold one method per panel,
//! `queue` carries out the queued commands, `run` the user-level commands, `documents` opens,
//! saves and closes files, `cycles` bakes cycles and saves and loads presets, and `safety`
//! keeps work from being lost: autosave and crash recovery, and reloading files re-exported
//! while open.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clipscope_core::assets;
use clipscope_core::formats;
use clipscope_core::model::Problem;
use clipscope_editor::recovery::RecoveryStore;
use clipscope_editor::{ClipId, ClipScope, Edit, Transport, Workspace};

use crate::ui::clip_dialog::ClipDialog;
use crate::ui::clip_list::ClipList;
use crate::ui::compare::Comparison;
use crate::ui::curve_editor::CurveEditor;
use crate::ui::cycles_panel::CyclesPanel;
use crate::ui::dialogs::Export;
use crate::ui::files::Files;
use crate::ui::findings::Findings;
use crate::ui::inspector::Inspector;
use crate::ui::outbox::Pending;
use crate::ui::palette::Palette;
use crate::ui::recovery_dialog::RecoveryOffer;
use crate::ui::reduce_panel::ReducePanel;
use crate::ui::selection::Selection;
use crate::ui::validation_panel::ValidationPanel;
use crate::ui::viewport::Viewport;
use crate::ui::watch::FileWatcher;
use clipscope_core::model::ops::KeyClipboard;

mod bars;
mod bottom_panels;
mod centre;
mod compare;
mod cycles;
mod documents;
mod frame;
mod modals;
mod queue;
mod reduce;
mod run;
mod safety;
mod side_panels;

pub use safety::ChangedOnDisk;

/// What survives a restart (eframe storage): recent files and view preferences.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    /// Dark theme (else light).
    pub dark: bool,
    /// The validation panel is shown.
    pub show_validation: bool,
    /// Seconds between autosaves of unsaved edits (they are also saved when the window loses
    /// focus); 0 saves only on focus loss.
    pub autosave_secs: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            recent: Vec::new(),
            dark: true,
            show_validation: false,
            autosave_secs: 30,
        }
    }
}

/// What the right-hand panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RightTab {
    /// The selected clip, key and operation results.
    Inspector,
    /// Procedural cycles: sliders, preview, bake.
    Cycles,
    /// The changes from the other version while a document is compared.
    Compare,
}

/// The key under which [`Settings`] are stored.
pub const SETTINGS_KEY: &str = "clipscope-settings";

/// The whole editor state.
pub struct ClipscopeApp {
    /// Open documents and undo history.
    pub ws: Workspace,
    /// Selected clip, shown tracks and selected keys.
    pub selection: Selection,
    /// Clip list state (filter, rename).
    pub clip_list: ClipList,
    /// Play state and playhead, shared by the timeline, curve editor and viewport.
    pub transport: Transport,
    /// The curve editor's view and drag state.
    pub curves: CurveEditor,
    /// The 3D viewport's camera and renderer.
    pub viewport: Viewport,
    /// eframe's wgpu device and egui renderer (absent in tests without a window).
    render_state: Option<eframe::egui_wgpu::RenderState>,
    /// Inspector state.
    pub inspector: Inspector,
    /// Validation panel filters.
    pub validation: ValidationPanel,
    /// The procedural cycles panel: chosen cycle, slider values, bake settings, preview.
    pub cycles: CyclesPanel,
    /// What the right-hand panel shows.
    pub right_tab: RightTab,
    /// The document baked cycles go into (made on the first bake).
    baked_doc: Option<u64>,
    /// The clip selected when the cycle preview last showed; picking another clip shows that
    /// clip instead.
    preview_selection: Option<ClipId>,
    /// Findings of the last validate run, per document (rerun for changed documents after
    /// every edit).
    pub findings: Option<Findings>,
    /// Dialogs, loads and recent files.
    pub files: Files,
    /// The command palette.
    pub palette: Palette,
    /// The export dialog, when open.
    pub export: Option<Export>,
    /// The clip operation dialog (rename tracks, subclip, retime, resample), when open.
    pub clip_dialog: Option<ClipDialog>,
    /// What the open Smooth Keys dialog would make of the selected clip (drawn over a ghost of
    /// the original), with the hash of what it was computed from.
    pub smooth_preview: Option<(u64, clipscope_core::model::Clip)>,
    /// Keys copied with Copy keys (pasted into any clip of any open document).
    pub key_clipboard: Option<KeyClipboard>,
    /// What waits for an unsaved-edits answer.
    pub pending: Option<Pending>,
    /// The last load error, shown until dismissed (open documents are kept).
    pub error: Option<String>,
    /// What operations reported ("optimize: 428,766 → 248,618 keys"), oldest first.
    pub log: Vec<String>,
    /// Dark theme (else light).
    pub dark: bool,
    /// The validation panel is shown.
    pub show_validation: bool,
    /// The user agreed to quit with unsaved edits.
    allow_close: bool,
    /// The theme and style have been applied to the context.
    styled: bool,
    /// The window title last set.
    title: String,
    /// Validation of the selected clip for the track tree's warning marks, by document version.
    live: Option<(ClipId, u64, Vec<Problem>)>,
    /// Watches the open files for changes other programs make.
    pub watcher: FileWatcher,
    /// This editor's recovery session (autosave), once started.
    recovery: Option<RecoveryStore>,
    /// What a crashed editor left, offered at start.
    pub recovery_offer: Option<RecoveryOffer>,
    /// A file that changed on disk under unsaved edits, waiting for the user's answer.
    pub changed: Option<ChangedOnDisk>,
    /// Time between autosaves (`None`: only when the window loses focus).
    pub autosave_every: Option<Duration>,
    /// When unsaved edits were last handed to the autosave.
    last_autosave: Instant,
    /// The window had the keyboard focus last frame.
    focused: bool,
    /// The Reduce window: budget, A/B switch and the latest preview.
    pub reduce: ReducePanel,
    /// The preview being computed, if any.
    reduce_job: Option<reduce::ReduceJob>,
    /// How many previews have come in (tells the viewport a new reduction is shown).
    reduce_previews: u64,
    /// The open document compared with another version of it, if any.
    pub comparison: Option<Comparison>,
    /// A comparison to start once its file has loaded (`clipscope open FILE --against REV`):
    /// the file and the other version (a file or a git revision).
    compare_on_open: Option<(PathBuf, String)>,
}

impl ClipscopeApp {
    /// An editor with no documents.
    pub fn empty() -> ClipscopeApp {
        ClipscopeApp {
            ws: Workspace::new(),
            selection: Selection::default(),
            clip_list: ClipList::default(),
            transport: Transport::default(),
            curves: CurveEditor::new(),
            viewport: Viewport::default(),
            render_state: None,
            inspector: Inspector::default(),
            validation: ValidationPanel::default(),
            cycles: CyclesPanel::default(),
            right_tab: RightTab::Inspector,
            baked_doc: None,
            preview_selection: None,
            findings: None,
            files: Files::default(),
            palette: Palette::default(),
            export: None,
            clip_dialog: None,
            smooth_preview: None,
            key_clipboard: None,
            pending: None,
            error: None,
            log: Vec::new(),
            dark: true,
            show_validation: false,
            allow_close: false,
            styled: false,
            title: String::new(),
            live: None,
            watcher: FileWatcher::new(),
            recovery: None,
            recovery_offer: None,
            changed: None,
            autosave_every: Some(Duration::from_secs(30)),
            last_autosave: Instant::now(),
            focused: true,
            reduce: ReducePanel::default(),
            reduce_job: None,
            reduce_previews: 0,
            comparison: None,
            compare_on_open: None,
        }
    }

    /// Opens `files` (read in the background), or the built-in demo when the list is empty.
    pub fn open(files: &[PathBuf]) -> ClipscopeApp {
        ClipscopeApp::open_with(files, formats::ReadOptions::default())
    }

    /// [`ClipscopeApp::open`] reading every file with `read_options` (`--morph-fps`).
    pub fn open_with(files: &[PathBuf], read_options: formats::ReadOptions) -> ClipscopeApp {
        let mut app = ClipscopeApp::empty();
        app.files.read_options = read_options;
        if files.is_empty() {
            match formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME)) {
                Ok(mut doc) => {
                    // The demo has no file of its own: Save asks where to put it.
                    doc.path = None;
                    app.add_document(doc, Some("demo · walk.json"));
                }
                Err(e) => app.error = Some(e.to_string()),
            }
        }
        for file in files {
            app.request_open(file);
        }
        app
    }

    /// Applies the persisted settings.
    pub fn with_settings(mut self, settings: Settings) -> ClipscopeApp {
        self.files.recent = settings.recent;
        self.dark = settings.dark;
        self.show_validation = settings.show_validation;
        self.autosave_every =
            (settings.autosave_secs > 0).then(|| Duration::from_secs(settings.autosave_secs));
        self
    }

    /// The settings to persist.
    pub fn settings(&self) -> Settings {
        Settings {
            recent: self.files.recent.clone(),
            dark: self.dark,
            show_validation: self.show_validation,
            autosave_secs: self.autosave_every.map_or(0, |d| d.as_secs()),
        }
    }

    /// Blocks until every background load has finished and takes the results in (tests).
    pub fn wait_for_loads(&mut self) {
        for event in self.files.finish_loads() {
            self.file_event(event);
        }
        self.start_comparison_on_open();
    }

    /// The selected clip and its id.
    pub fn selected_clip(&self) -> Option<(ClipId, &clipscope_core::model::Clip)> {
        let id = self.selection.clip?;
        self.ws.clip(id).map(|c| (id, c))
    }

    pub(super) fn note(&mut self, line: String) {
        self.log.push(line);
        if self.log.len() > 200 {
            self.log.remove(0);
        }
    }

    /// Applies one edit, reporting what it did or why it could not.
    pub fn apply(&mut self, edit: Edit) {
        match self.ws.apply(edit) {
            Ok(applied) => {
                if let Some(m) = applied.message {
                    self.note(m);
                }
                if let Some(id) = applied.select_clip
                    && let Some(clip) = self.ws.clip(id)
                {
                    self.selection.clip = None;
                    self.selection.select_clip(id, clip);
                }
                if !applied.select_keys.is_empty() {
                    self.selection.keys = applied.select_keys.into_iter().collect();
                }
                if !applied.select_tracks.is_empty() {
                    self.selection.keys.clear();
                    self.selection.tracks = applied.select_tracks.into_iter().collect();
                }
            }
            Err(e) => self.note(format!("could not {}", e)),
        }
        self.after_edit();
    }

    /// Keeps selection and findings in step with the documents after any change.
    pub(super) fn after_edit(&mut self) {
        self.fix_selection();
        if let Some(previous) = &self.findings {
            let scope = match previous.scope.clone() {
                ClipScope::Clip(id) if self.ws.clip(id).is_none() => ClipScope::All,
                s => s,
            };
            let read = &self.files.read_options;
            self.findings = Some(Findings::run(&self.ws, scope, read, Some(previous)));
        }
    }

    pub(super) fn fix_selection(&mut self) {
        let Some(id) = self.selection.clip else {
            return;
        };
        match self.ws.clip(id) {
            Some(clip) => self.selection.fit(clip),
            None => {
                self.selection.clear();
                let doc = self.ws.documents.get(id.doc);
                let n = doc.map_or(0, |d| d.doc.clips.len());
                if n > 0 {
                    let id = ClipId {
                        doc: id.doc,
                        clip: id.clip.min(n - 1),
                    };
                    let clip = &self.ws.documents[id.doc].doc.clips[id.clip];
                    self.selection.select_clip(id, clip);
                } else if let Some(first) = self.ws.clip_ids().first().copied() {
                    let clip = self.ws.clip(first).expect("listed clip");
                    self.selection.select_clip(first, clip);
                }
            }
        }
    }

    /// The selected clip, or every clip when `all`; `None` without a selected clip.
    pub(super) fn clip_scope(&self, all: bool) -> Option<ClipScope> {
        if all {
            Some(ClipScope::All)
        } else {
            self.selection.clip.map(ClipScope::Clip)
        }
    }

    pub(super) fn selected_doc(&self) -> Option<usize> {
        self.selection
            .clip
            .map(|c| c.doc)
            .filter(|&d| d < self.ws.documents.len())
    }

    /// The window title: the selected clip's file, marked when any file has unsaved edits.
    pub fn window_title(&self) -> String {
        let mut title = String::from("clipscope");
        if let Some(doc) = self.selected_doc() {
            title.push_str(" — ");
            title.push_str(self.ws.documents[doc].title());
        }
        if self.ws.any_dirty() {
            title.push_str(" (unsaved edits)");
        }
        title
    }

    /// The playhead time in seconds.
    pub fn playhead(&self) -> f64 {
        self.transport.time
    }

    /// The selected clip's duration (0 without a clip).
    pub(super) fn duration(&self) -> f64 {
        self.selected_clip()
            .map_or(0.0, |(_, c)| c.duration.max(0.0))
    }

    /// Key times of the shown tracks (for key-to-key navigation).
    pub(super) fn shown_key_times(&self) -> Vec<f32> {
        let Some((_, clip)) = self.selected_clip() else {
            return Vec::new();
        };
        self.selection
            .tracks
            .iter()
            .filter_map(|&t| clip.tracks.get(t))
            .flat_map(|t| t.times.iter().copied())
            .collect()
    }

    /// Revalidates the selected clip for the track tree's warning marks when it changed (not
    /// during a curve drag: a big clip would be revalidated every frame of it).
    pub(super) fn refresh_live_problems(&mut self) {
        let Some(id) = self.selection.clip else {
            return;
        };
        let Some(version) = self.ws.documents.get(id.doc).map(|d| d.version) else {
            return;
        };
        let same_clip = matches!(&self.live, Some((i, _, _)) if *i == id);
        let fresh = matches!(&self.live, Some((_, v, _)) if *v == version);
        if !same_clip || (!fresh && !self.curves.is_dragging()) {
            let problems = self.ws.clip(id).map(|c| c.validate()).unwrap_or_default();
            self.live = Some((id, version, problems));
        }
    }
}

impl eframe::App for ClipscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if self.render_state.is_none() {
            self.render_state = frame.wgpu_render_state().cloned();
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.ws.any_dirty() && !self.allow_close
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        self.show(ui);
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings());
    }

    fn on_exit(&mut self) {
        self.end_recovery();
    }
}
