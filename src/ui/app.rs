//! The application: open documents, selection and panels, wired together.
//!
//! Each frame the panels draw from the state and put what the user asked for into an
//! [`Outbox`]; afterwards the app applies the commands through the
//! [`Workspace`](crate::editor::Workspace) (which records undo) and runs the actions. Nothing
//! in a panel edits a document.

use std::path::{Path, PathBuf};

use crate::assets;
use crate::editor::{ClipId, Command, Scope, Transport, Workspace};
use crate::formats::{self, Document, WriteOptions};
use crate::model::{Problem, Severity};
use crate::text::thousands;

use super::actions::{Action, Outbox};
use super::clip_list::{self, ClipList};
use super::curve_editor::{self, CurveEditor, CurveRef};
use super::dialogs::{self, Answer, Export, ExportAnswer, Pending, PromptAnswer};
use super::files::{FileEvent, FileTarget, Files};
use super::inspector::{self, Inspector};
use super::menu::{self, MenuView};
use super::palette::{self, Palette};
use super::selection::Selection;
use super::style;
use super::timeline::{self, DopeRow};
use super::track_tree;
use super::validation_panel::{self, ValidationPanel};

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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            recent: Vec::new(),
            dark: true,
            show_validation: false,
        }
    }
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
    /// Inspector state.
    pub inspector: Inspector,
    /// Validation panel filters.
    pub validation: ValidationPanel,
    /// Findings of the last validate run and the scope it ran on (rerun after every edit).
    pub findings: Option<(Scope, Vec<(ClipId, Problem)>)>,
    /// Dialogs, loads and recent files.
    pub files: Files,
    /// The command palette.
    pub palette: Palette,
    /// The export dialog, when open.
    pub export: Option<Export>,
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
            inspector: Inspector::default(),
            validation: ValidationPanel::default(),
            findings: None,
            files: Files::default(),
            palette: Palette::default(),
            export: None,
            pending: None,
            error: None,
            log: Vec::new(),
            dark: true,
            show_validation: false,
            allow_close: false,
            styled: false,
            title: String::new(),
            live: None,
        }
    }

    /// Opens `files` (read in the background), or the built-in demo when the list is empty.
    pub fn open(files: &[PathBuf]) -> ClipscopeApp {
        let mut app = ClipscopeApp::empty();
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
        self
    }

    /// The settings to persist.
    pub fn settings(&self) -> Settings {
        Settings {
            recent: self.files.recent.clone(),
            dark: self.dark,
            show_validation: self.show_validation,
        }
    }

    /// Blocks until every background load has finished and takes the results in (tests).
    pub fn wait_for_loads(&mut self) {
        for event in self.files.finish_loads() {
            self.file_event(event);
        }
    }

    /// The selected clip and its id.
    pub fn selected_clip(&self) -> Option<(ClipId, &crate::model::Clip)> {
        let id = self.selection.clip?;
        self.ws.clip(id).map(|c| (id, c))
    }

    /// Starts opening `path`: a reload of an open file asks first when it has edits.
    pub fn request_open(&mut self, path: &Path) {
        if let Some(i) = self.ws.find_path(path)
            && self.ws.documents[i].is_dirty()
        {
            self.pending = Some(Pending::Reload(path.to_path_buf()));
            return;
        }
        self.files.load(path.to_path_buf());
    }

    fn add_document(&mut self, doc: Document, name: Option<&str>) {
        let index = match name {
            Some(n) => self.ws.add_named(doc, n),
            None => self.ws.add(doc),
        };
        if self.selection.clip.is_none() && !self.ws.documents[index].doc.clips.is_empty() {
            let id = ClipId {
                doc: index,
                clip: 0,
            };
            let clip = &self.ws.documents[index].doc.clips[0];
            self.selection.select_clip(id, clip);
        }
    }

    fn file_event(&mut self, event: FileEvent) {
        match event {
            FileEvent::Loaded(path, Ok(doc)) => {
                self.files.remember(&path);
                let clips = doc.clips.len();
                let keys: usize = doc.clips.iter().map(|c| c.key_count()).sum();
                match self.ws.find_path(&path) {
                    Some(i) => {
                        self.ws.replace(i, doc);
                        self.fix_selection();
                    }
                    None => self.add_document(doc, None),
                }
                self.note(format!(
                    "opened {}: {clips} clips, {} keys",
                    path.display(),
                    thousands(keys)
                ));
            }
            FileEvent::Loaded(path, Err(e)) => {
                if e.reason == "cancelled" {
                    self.note(format!("cancelled loading {}", path.display()));
                } else {
                    self.error = Some(e.to_string());
                }
            }
            FileEvent::Chosen(FileTarget::Open, paths) => {
                for p in paths {
                    self.request_open(&p);
                }
            }
            FileEvent::Chosen(FileTarget::SaveAs { doc_id, options }, paths) => {
                if let (Some(i), Some(path)) = (self.ws.index_of(doc_id), paths.first()) {
                    let export = options != WriteOptions::default();
                    self.save_to(i, path, options, !export);
                }
            }
        }
    }

    /// Writes document `index` to `path` atomically. `rebind` (Save / Save As) points the
    /// document at the file and marks it saved; an export leaves both alone.
    fn save_to(&mut self, index: usize, path: &Path, options: WriteOptions, rebind: bool) {
        let doc = &self.ws.documents[index].doc;
        match formats::write_file(doc, path, &options) {
            Ok(()) => {
                let size = std::fs::metadata(path)
                    .map(|m| m.len() as usize)
                    .unwrap_or(0);
                if rebind {
                    self.ws.documents[index].set_path(path);
                    self.ws.mark_saved(index);
                }
                self.files.remember(path);
                let verb = if rebind { "saved" } else { "exported" };
                self.note(format!(
                    "{verb} {} ({} bytes)",
                    path.display(),
                    thousands(size)
                ));
            }
            Err(e) => self.error = Some(format!("{}: cannot write: {e}", path.display())),
        }
    }

    fn note(&mut self, line: String) {
        self.log.push(line);
        if self.log.len() > 200 {
            self.log.remove(0);
        }
    }

    /// Applies one edit, reporting what it did or why it could not.
    pub fn apply(&mut self, command: Command) {
        match self.ws.apply(command) {
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
            }
            Err(e) => self.note(format!("could not {}", e)),
        }
        self.after_edit();
    }

    /// Keeps selection and findings in step with the documents after any change.
    fn after_edit(&mut self) {
        self.fix_selection();
        if let Some((scope, _)) = &self.findings {
            let scope = *scope;
            let scope = match scope {
                Scope::Clip(id) if self.ws.clip(id).is_none() => Scope::All,
                s => s,
            };
            self.findings = Some((scope, self.ws.validate(scope)));
        }
    }

    fn fix_selection(&mut self) {
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

    fn scope(&self, all: bool) -> Option<Scope> {
        if all {
            Some(Scope::All)
        } else {
            self.selection.clip.map(Scope::Clip)
        }
    }

    fn selected_doc(&self) -> Option<usize> {
        self.selection
            .clip
            .map(|c| c.doc)
            .filter(|&d| d < self.ws.documents.len())
    }

    /// Runs one action (from a menu, a shortcut or the palette).
    pub fn run(&mut self, action: Action, ctx: &egui::Context) {
        match action {
            Action::Open => self.files.ask(FileTarget::Open, None),
            Action::OpenPath => self.files.prompt_for(
                FileTarget::Open,
                None,
                "Type the path of a clip file to open.".into(),
            ),
            Action::Save => {
                if let Some(i) = self.selected_doc() {
                    match self.ws.documents[i].doc.path.clone() {
                        Some(path) => self.save_to(i, &path, WriteOptions::default(), true),
                        None => self.run(Action::SaveAs, ctx),
                    }
                }
            }
            Action::SaveAs => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    let suggested = d
                        .doc
                        .path
                        .clone()
                        .unwrap_or_else(|| PathBuf::from("clips.json"));
                    let target = FileTarget::SaveAs {
                        doc_id: d.id,
                        options: WriteOptions::default(),
                    };
                    self.files.ask(target, Some(&suggested));
                }
            }
            Action::ExportAs => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    self.export = Some(Export {
                        doc_id: d.id,
                        format: d.doc.format,
                        precision: None,
                        pretty: false,
                    });
                }
            }
            Action::CloseDocument => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    if d.is_dirty() {
                        self.pending = Some(Pending::Close(d.id));
                    } else {
                        self.close_document(i);
                    }
                }
            }
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Action::Undo => {
                if let Some(label) = self.ws.undo() {
                    self.note(format!("undo: {label}"));
                }
                self.after_edit();
            }
            Action::Redo => {
                if let Some(label) = self.ws.redo() {
                    self.note(format!("redo: {label}"));
                }
                self.after_edit();
            }
            Action::Optimize | Action::OptimizeAll => {
                if let Some(s) = self.scope(action == Action::OptimizeAll) {
                    self.apply(Command::Optimize(s));
                }
            }
            Action::Trim | Action::TrimAll => {
                if let Some(s) = self.scope(action == Action::TrimAll) {
                    self.apply(Command::Trim(s));
                }
            }
            Action::ResetDuration | Action::ResetDurationAll => {
                if let Some(s) = self.scope(action == Action::ResetDurationAll) {
                    self.apply(Command::ResetDuration(s));
                }
            }
            Action::Validate | Action::ValidateAll => {
                if let Some(s) = self.scope(action == Action::ValidateAll) {
                    let found = self.ws.validate(s);
                    let errors = found
                        .iter()
                        .filter(|(_, p)| p.severity == Severity::Error)
                        .count();
                    self.note(format!(
                        "validate: {errors} errors, {} warnings",
                        found.len() - errors
                    ));
                    self.findings = Some((s, found));
                    self.show_validation = true;
                }
            }
            Action::DuplicateClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Command::DuplicateClip { clip });
                }
            }
            Action::DeleteClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Command::DeleteClip { clip });
                }
            }
            Action::DeleteKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    self.selection.keys.clear();
                    self.apply(Command::DeleteKeys { clip, keys });
                }
            }
            Action::InsertKey => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    let time = self.playhead();
                    self.apply(Command::InsertKey { clip, tracks, time });
                }
            }
            Action::PlayPause
            | Action::NextFrame
            | Action::PreviousFrame
            | Action::NextFrames10
            | Action::PreviousFrames10
            | Action::NextKey
            | Action::PreviousKey
            | Action::GoStart
            | Action::GoEnd => self.run_view_action(action),
            Action::FrameAll => self.curves.frame_all(),
            Action::FrameSelected => self.curves.frame_selected(),
            Action::ToggleValidation => self.show_validation = !self.show_validation,
            Action::ToggleTheme => {
                self.dark = !self.dark;
                style::apply_theme(ctx, self.dark);
            }
            Action::CommandPalette => self.palette.open(),
        }
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
    fn duration(&self) -> f64 {
        self.selected_clip()
            .map_or(0.0, |(_, c)| c.duration.max(0.0))
    }

    /// Key times of the shown tracks (for key-to-key navigation).
    fn shown_key_times(&self) -> Vec<f32> {
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

    fn run_view_action(&mut self, action: Action) {
        let duration = self.duration();
        let tr = &mut self.transport;
        match action {
            Action::PlayPause => tr.toggle_play(duration),
            Action::NextFrame => tr.step_frames(1, duration),
            Action::PreviousFrame => tr.step_frames(-1, duration),
            Action::NextFrames10 => tr.step_frames(10, duration),
            Action::PreviousFrames10 => tr.step_frames(-10, duration),
            Action::GoStart => tr.go_start(),
            Action::GoEnd => tr.go_end(duration),
            Action::NextKey | Action::PreviousKey => {
                let times = self.shown_key_times();
                let to = if action == Action::NextKey {
                    self.transport.next_key(times.into_iter())
                } else {
                    self.transport.prev_key(times.into_iter())
                };
                if let Some(t) = to {
                    self.transport.playing = false;
                    self.transport.time = t;
                }
            }
            _ => {}
        }
    }

    fn close_document(&mut self, index: usize) {
        if let Some(d) = self.ws.close(index) {
            self.note(format!("closed {}", d.title()));
        }
        // Indices after the closed document shift down.
        if let Some(id) = self.selection.clip {
            if id.doc == index {
                self.selection.clear();
            } else if id.doc > index {
                self.selection.clip = Some(ClipId {
                    doc: id.doc - 1,
                    clip: id.clip,
                });
            }
        }
        self.findings = None;
        self.fix_selection();
        if self.selection.clip.is_none()
            && let Some(first) = self.ws.clip_ids().first().copied()
        {
            let clip = self.ws.clip(first).expect("listed clip");
            self.selection.select_clip(first, clip);
        }
    }

    /// The selected clip's validation findings for the track tree, recomputed when it changes.
    fn live_problems(&mut self) -> &[Problem] {
        let Some(id) = self.selection.clip else {
            return &[];
        };
        let Some(version) = self.ws.documents.get(id.doc).map(|d| d.version) else {
            return &[];
        };
        let fresh = matches!(&self.live, Some((i, v, _)) if *i == id && *v == version);
        if !fresh {
            let problems = self.ws.clip(id).map(|c| c.validate()).unwrap_or_default();
            self.live = Some((id, version, problems));
        }
        self.live
            .as_ref()
            .map(|(_, _, p)| p.as_slice())
            .unwrap_or(&[])
    }
}

impl eframe::App for ClipscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
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
}

impl ClipscopeApp {
    /// Draws the whole window into `ui` (what eframe calls every frame; tests call it directly).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if !self.styled {
            style::apply_theme(&ctx, self.dark);
            self.styled = true;
        }
        for event in self.files.poll() {
            self.file_event(event);
        }
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

        let mut out = Outbox::default();
        self.modals(&ctx, &mut out);
        let modal = self.modal_open();
        if !modal {
            out.actions
                .extend(Action::pressed(&ctx, |a| !a.is_curve_key()));
        }

        egui::Panel::top("menu").show(ui, |ui| {
            let view = MenuView {
                undo: self.ws.history.undo_label(),
                redo: self.ws.history.redo_label(),
                recent: &self.files.recent,
                has_clip: self.selection.clip.is_some(),
            };
            if let Some(path) = menu::show(ui, &view, &mut out) {
                self.request_open(&path);
            }
        });
        self.status_bar(ui);
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
                            &mut out,
                        );
                    });
                egui::CentralPanel::default().show(ui, |ui| {
                    let problems = self.live_problems().to_vec();
                    let id = self.selection.clip;
                    match id.and_then(|id| self.ws.clip(id)) {
                        Some(clip) => track_tree::show(ui, clip, &problems, &mut self.selection),
                        None => {
                            ui.strong("TRACKS");
                            ui.weak("Select a clip to see its tracks.");
                        }
                    }
                });
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(290.0)
            .min_size(200.0)
            .show(ui, |ui| {
                let clip = self
                    .selection
                    .clip
                    .and_then(|id| self.ws.clip(id).map(|c| (id, c)));
                inspector::show(
                    ui,
                    &mut self.inspector,
                    clip,
                    &self.selection.keys,
                    &self.log,
                    &mut out,
                );
            });
        if self.transport.playing {
            let dt = ctx.input(|i| i.stable_dt) as f64;
            let duration = self.duration();
            self.transport.advance(dt, duration);
            ctx.request_repaint();
        }
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(170.0)
            .min_size(90.0)
            .show(ui, |ui| self.timeline(ui));
        if self.show_validation {
            egui::Panel::bottom("validation")
                .resizable(true)
                .default_size(140.0)
                .min_size(60.0)
                .show(ui, |ui| {
                    let findings = self.findings.as_ref().map(|(_, f)| f.as_slice());
                    if let Some(target) =
                        validation_panel::show(ui, &mut self.validation, &self.ws, findings)
                    {
                        self.go_to(target);
                    }
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Panel::top("viewport")
                .resizable(true)
                .default_size(ui.available_height() * 0.42)
                .min_size(80.0)
                .show(ui, |ui| {
                    viewport_placeholder(ui, self.selected_clip().map(|(_, c)| c.name.as_str()))
                });
            egui::CentralPanel::default().show(ui, |ui| self.curve_panel(ui, &mut out));
        });
        if !modal {
            // Keys the curve editor did not take (pointer elsewhere) act on the whole editor.
            out.actions
                .extend(Action::pressed(&ctx, Action::is_curve_key));
        }

        for command in std::mem::take(&mut out.commands) {
            self.apply(command);
        }
        if let Some(gesture) = out.cancelled_gesture
            && self.ws.history.undo_gesture() == Some(gesture)
        {
            self.ws.undo();
            self.ws.history.forget_redo();
            self.note("drag cancelled".into());
            self.after_edit();
        }
        for action in std::mem::take(&mut out.actions) {
            self.run(action, &ctx);
        }
    }

    /// The curve editor for the selected clip's shown tracks.
    fn curve_panel(&mut self, ui: &mut egui::Ui, out: &mut Outbox) {
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
        let output = curve_editor::show(
            ui,
            &mut self.curves,
            id,
            clip,
            &curves,
            &mut self.selection.keys,
            self.transport.time,
        );
        out.commands.extend(output.commands);
        out.cancelled_gesture = out.cancelled_gesture.or(output.cancelled_gesture);
        if let Some(t) = output.playhead {
            self.transport.playing = false;
            self.transport.time = t;
        }
    }

    /// The timeline strip with one dopesheet row per shown track.
    fn timeline(&mut self, ui: &mut egui::Ui) {
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
            self.selection.keys = [crate::editor::KeyRef {
                track,
                key,
                component: 0,
            }]
            .into();
        }
    }

    fn modal_open(&self) -> bool {
        self.pending.is_some()
            || self.export.is_some()
            || self.files.prompt.is_some()
            || self.palette.open
    }

    /// Shows whichever modal dialog is open.
    fn modals(&mut self, ctx: &egui::Context, out: &mut Outbox) {
        if let Some(pending) = self.pending.clone() {
            let question = match &pending {
                Pending::Quit => "Some files have unsaved edits. Quit and lose them?".to_string(),
                Pending::Close(id) => format!(
                    "{} has unsaved edits. Close it and lose them?",
                    self.ws
                        .index_of(*id)
                        .map_or("The file", |i| self.ws.documents[i].title())
                ),
                Pending::Reload(path) => format!(
                    "{} is open with unsaved edits. Reload it from disk and lose them?",
                    path.display()
                ),
            };
            match dialogs::confirm(ctx, &question) {
                Some(Answer::Discard) => {
                    self.pending = None;
                    match pending {
                        Pending::Quit => {
                            self.allow_close = true;
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        }
                        Pending::Close(id) => {
                            if let Some(i) = self.ws.index_of(id) {
                                self.close_document(i);
                            }
                        }
                        Pending::Reload(path) => self.files.load(path),
                    }
                }
                Some(Answer::Cancel) => self.pending = None,
                None => {}
            }
        } else if let Some(export) = &mut self.export {
            match dialogs::export(ctx, export) {
                Some(ExportAnswer::ChooseFile) => {
                    let export = self.export.take().expect("export dialog");
                    let suggested = self
                        .ws
                        .index_of(export.doc_id)
                        .and_then(|i| self.ws.documents[i].doc.path.clone())
                        .map(|p| p.with_extension("export.json"));
                    let target = FileTarget::SaveAs {
                        doc_id: export.doc_id,
                        options: export.options(),
                    };
                    self.files.ask(target, suggested.as_deref());
                }
                Some(ExportAnswer::Cancel) => self.export = None,
                None => {}
            }
        } else if let Some(prompt) = &mut self.files.prompt {
            match dialogs::path_prompt(ctx, prompt) {
                Some(PromptAnswer::Path(path)) => {
                    let prompt = self.files.prompt.take().expect("prompt");
                    self.file_event(FileEvent::Chosen(prompt.target, vec![path]));
                }
                Some(PromptAnswer::Cancel) => self.files.prompt = None,
                None => {}
            }
        } else if let Some(action) = palette::show(ctx, &mut self.palette) {
            out.action(action);
        }
    }

    /// The bottom status line: load progress with Cancel, the last error, the last message.
    fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            let mut cancel = false;
            for job in &self.files.loads {
                ui.horizontal(|ui| {
                    ui.label(format!("Loading {}", job.path.display()));
                    ui.add(
                        egui::ProgressBar::new(job.progress.fraction())
                            .desired_width(220.0)
                            .show_percentage(),
                    );
                    if ui.button("Cancel").clicked() {
                        cancel = true;
                    }
                });
            }
            if cancel {
                self.files.cancel_loads();
            }
            if let Some(error) = self.error.clone() {
                // The button first, on the right, so a long message wraps instead of pushing
                // it out of the window.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Dismiss").clicked() {
                        self.error = None;
                    }
                    let text = egui::RichText::new(format!("Could not open: {error}"))
                        .color(ui.visuals().error_fg_color);
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(egui::Label::new(text).wrap());
                    });
                });
            } else {
                ui.horizontal(|ui| {
                    let dirty = self.ws.documents.iter().filter(|d| d.is_dirty()).count();
                    if dirty > 0 {
                        ui.label(
                            egui::RichText::new(format!("{dirty} unsaved"))
                                .color(ui.visuals().warn_fg_color),
                        );
                    }
                    match self.log.last() {
                        Some(last) => ui.weak(last),
                        None => ui.weak("Ready. Ctrl+K lists every command."),
                    };
                });
            }
        });
    }

    /// Selects what a validation finding points at.
    fn go_to(&mut self, target: validation_panel::Target) {
        let Some(clip) = self.ws.clip(target.clip) else {
            return;
        };
        self.selection.select_clip(target.clip, clip);
        if let Some(t) = target.track {
            self.selection.tracks.insert(t);
            self.selection.keys.clear();
            if let Some(k) = target.key {
                self.selection.keys.insert(crate::editor::KeyRef {
                    track: t,
                    key: k,
                    component: 0,
                });
            }
            self.curves.frame_selected();
        }
    }
}

/// The area reserved for the 3D viewport.
fn viewport_placeholder(ui: &mut egui::Ui, clip: Option<&str>) {
    let rect = ui.available_rect_before_wrap();
    let painter = ui.painter();
    painter.rect_filled(rect, 6.0, ui.visuals().extreme_bg_color);
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        match clip {
            Some(name) => format!("3D viewport · {name}"),
            None => "3D viewport".into(),
        },
        egui::FontId::proportional(15.0),
        ui.visuals().weak_text_color(),
    );
    ui.allocate_rect(rect, egui::Sense::hover());
}
