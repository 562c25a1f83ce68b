//! Running user-level commands: what each menu item, shortcut and palette entry does.

use std::path::PathBuf;

use crate::ui::clip_dialog::{ClipDialog, Pivot, RetimeMode};
use crate::ui::findings::Findings;
use clipscope_core::formats::WriteOptions;
use clipscope_core::model::ops::{KeyClipboard, Marker, PasteValues};
use clipscope_editor::{ClipScope, Edit, KeyRef};

use crate::ui::commands::UiCommand;
use crate::ui::dialogs::Export;
use crate::ui::outbox::{FileTarget, Pending};
use crate::ui::style;

use super::{ClipscopeApp, RightTab};

impl ClipscopeApp {
    /// Runs one user-level command (from a menu, a shortcut or the palette).
    pub fn run(&mut self, command: UiCommand, ctx: &egui::Context) {
        match command {
            UiCommand::Open => self.files.ask(FileTarget::Open, None),
            UiCommand::OpenPath => self.files.prompt_for(
                FileTarget::Open,
                None,
                "Type the path of a clip file to open.".into(),
            ),
            UiCommand::Save => {
                if let Some(i) = self.selected_doc() {
                    match self.ws.documents[i].doc.path.clone() {
                        Some(path) => self.save_to(i, &path, WriteOptions::default(), None),
                        None => self.run(UiCommand::SaveAs, ctx),
                    }
                }
            }
            UiCommand::SaveAs => {
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
                        format: None,
                    };
                    self.files.ask(target, Some(&suggested));
                }
            }
            UiCommand::ExportAs => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    self.export = Some(Export {
                        doc_id: d.id,
                        format: d.doc.format,
                        precision: None,
                        pretty: false,
                        serialized: false,
                    });
                }
            }
            UiCommand::CloseDocument => {
                if let Some(i) = self.selected_doc() {
                    let d = &self.ws.documents[i];
                    if d.is_dirty() {
                        self.pending = Some(Pending::Close(d.id));
                    } else {
                        self.close_document(i);
                    }
                }
            }
            UiCommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            UiCommand::Undo => {
                if let Some(label) = self.ws.undo() {
                    self.note(format!("undo: {label}"));
                }
                self.after_edit();
            }
            UiCommand::Redo => {
                if let Some(label) = self.ws.redo() {
                    self.note(format!("redo: {label}"));
                }
                self.after_edit();
            }
            UiCommand::Optimize | UiCommand::OptimizeAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::OptimizeAll) {
                    self.apply(Edit::Optimize(s));
                }
            }
            UiCommand::Trim | UiCommand::TrimAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::TrimAll) {
                    self.apply(Edit::Trim(s));
                }
            }
            UiCommand::ResetDuration | UiCommand::ResetDurationAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::ResetDurationAll) {
                    self.apply(Edit::ResetDuration(s));
                }
            }
            UiCommand::Reduce => self.open_reduce(),
            UiCommand::CompareOriginal => {
                if self.reduce.open {
                    self.reduce.show_original = !self.reduce.show_original;
                }
            }
            UiCommand::Validate | UiCommand::ValidateAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::ValidateAll) {
                    let found = Findings::run(&self.ws, s, &self.files.read_options, None);
                    let (errors, warnings) = found.counts();
                    self.note(format!("validate: {errors} errors, {warnings} warnings"));
                    self.findings = Some(found);
                    self.show_validation = true;
                }
            }
            UiCommand::DuplicateClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DuplicateClip { clip });
                }
            }
            UiCommand::DeleteClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::DeleteClip { clip });
                }
            }
            UiCommand::DeleteKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    self.selection.keys.clear();
                    self.apply(Edit::DeleteKeys { clip, keys });
                }
            }
            UiCommand::InsertKey => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    let time = self.playhead();
                    self.apply(Edit::InsertKey { clip, tracks, time });
                }
            }
            UiCommand::CopyKeys | UiCommand::CutKeys => self.copy_keys(command, ctx),
            UiCommand::PasteKeys | UiCommand::PasteKeysRelative => {
                let values = if command == UiCommand::PasteKeys {
                    PasteValues::Absolute
                } else {
                    PasteValues::Relative
                };
                self.paste_keys(values);
            }
            UiCommand::DuplicateKeys => self.duplicate_keys(),
            UiCommand::SelectAllKeys => self.select_all_keys(),
            UiCommand::SelectColumn => self.select_column(),
            UiCommand::SelectInPlayRange => self.select_in_play_range(),
            UiCommand::DeleteShownTracks => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    self.apply(Edit::DeleteTracks { clip, tracks });
                }
            }
            UiCommand::DuplicateShownTracks => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.tracks.is_empty()
                {
                    let tracks = self.selection.tracks.iter().copied().collect();
                    self.apply(Edit::DuplicateTracks { clip, tracks });
                }
            }
            UiCommand::MuteShownTracks => {
                if let Some(clip) = self.selection.clip
                    && let Some(c) = self.ws.clip(clip)
                    && !self.selection.tracks.is_empty()
                {
                    let tracks: Vec<usize> = self.selection.tracks.iter().copied().collect();
                    let muted = !tracks
                        .iter()
                        .all(|&t| c.tracks.get(t).is_some_and(|t| t.muted));
                    self.apply(Edit::MuteTracks {
                        clip,
                        tracks,
                        muted,
                    });
                }
            }
            UiCommand::RenameTracks => {
                self.open_dialog(ClipDialog::Rename {
                    pattern: String::new(),
                    replacement: String::new(),
                    all_clips: false,
                });
            }
            UiCommand::Subclip => {
                if let Some((_, clip)) = self.selected_clip() {
                    let fps = self.transport.fps;
                    // The play range when there is one, else from the start to the playhead.
                    let (start, end) = match self.transport.range {
                        Some(_) => {
                            let (lo, hi) = self.transport.bounds(clip.duration);
                            ((lo * fps).round(), (hi * fps).round() + 1.0)
                        }
                        None => {
                            let end = (self.playhead() * fps).round();
                            let whole = (clip.duration * fps).ceil() + 1.0;
                            (0.0, if end > 0.0 { end } else { whole })
                        }
                    };
                    let dialog = ClipDialog::Subclip {
                        name: format!("{} part", clip.name),
                        start,
                        end,
                    };
                    self.open_dialog(dialog);
                }
            }
            UiCommand::ScaleKeys => {
                let keys: Vec<KeyRef> = self.selection.keys.iter().copied().collect();
                if keys.is_empty() {
                    self.note("scale keys: no keys selected".into());
                } else {
                    self.open_dialog(ClipDialog::ScaleKeys {
                        keys,
                        time_factor: 1.0,
                        value_factor: 1.0,
                        pivot: Pivot::Start,
                    });
                }
            }
            UiCommand::SnapKeys => {
                if let Some(clip) = self.selection.clip
                    && !self.selection.keys.is_empty()
                {
                    let keys = self.selection.keys.iter().copied().collect();
                    let fps = self.transport.fps;
                    self.apply(Edit::SnapKeys { clip, keys, fps });
                }
            }
            UiCommand::SmoothKeys => {
                let keys: Vec<KeyRef> = self.selection.keys.iter().copied().collect();
                if keys.is_empty() {
                    self.note("smooth keys: no keys selected".into());
                } else {
                    self.open_dialog(ClipDialog::Smooth {
                        keys,
                        strength: 0.5,
                        passes: 1,
                    });
                }
            }
            UiCommand::Retime => self.open_dialog(ClipDialog::Retime {
                mode: RetimeMode::Factor,
                amount: 1.0,
            }),
            UiCommand::Resample => self.open_dialog(ClipDialog::Resample {
                fps: self.transport.fps,
            }),
            UiCommand::SplitClip => {
                if let Some(clip) = self.selection.clip {
                    let time = self.playhead();
                    self.apply(Edit::SplitClip { clip, time });
                }
            }
            UiCommand::ReverseClip => {
                if let Some(clip) = self.selection.clip {
                    self.apply(Edit::Reverse(ClipScope::Clip(clip)));
                }
            }
            UiCommand::MakeAdditive => {
                let frame = (self.playhead() * self.transport.fps).round();
                self.open_dialog(ClipDialog::MakeAdditive {
                    frame,
                    reference: None,
                });
            }
            UiCommand::MergeClips => {
                if let Some(id) = self.selection.clip {
                    let n = self.ws.documents[id.doc].doc.clips.len();
                    let mut chosen = vec![false; n];
                    chosen[id.clip] = true;
                    let name = self
                        .ws
                        .clip(id)
                        .map_or_else(String::new, |c| c.name.clone());
                    self.open_dialog(ClipDialog::Merge {
                        chosen,
                        name: format!("{name} merged"),
                    });
                }
            }
            UiCommand::EulerFilter => {
                if let Some(s) = self.clip_scope(false) {
                    self.apply(Edit::EulerFilter(s));
                }
            }
            UiCommand::UnrollQuaternions | UiCommand::UnrollQuaternionsAll => {
                if let Some(s) = self.clip_scope(command == UiCommand::UnrollQuaternionsAll) {
                    self.apply(Edit::UnrollQuaternions(s));
                }
            }
            UiCommand::PlayPause
            | UiCommand::NextFrame
            | UiCommand::PreviousFrame
            | UiCommand::NextFrames10
            | UiCommand::PreviousFrames10
            | UiCommand::NextKey
            | UiCommand::PreviousKey
            | UiCommand::GoStart
            | UiCommand::GoEnd => self.run_transport_command(command),
            UiCommand::AddMarker => {
                if let Some((clip, c)) = self.selected_clip() {
                    let time = self.playhead();
                    let mut markers = c.markers();
                    let name = format!("F{:.0}", time * self.transport.fps);
                    markers.push(Marker { name, time });
                    self.apply(Edit::SetMarkers { clip, markers });
                }
            }
            UiCommand::EditMarkers => {
                if let Some((_, c)) = self.selected_clip() {
                    let list = c.markers();
                    self.open_dialog(ClipDialog::Markers { list });
                }
            }
            UiCommand::NextMarker | UiCommand::PreviousMarker => {
                if let Some((_, c)) = self.selected_clip() {
                    let times = c.markers().into_iter().map(|m| m.time as f32);
                    let to = if command == UiCommand::NextMarker {
                        self.transport.next_key(times)
                    } else {
                        self.transport.prev_key(times)
                    };
                    if let Some(t) = to {
                        self.transport.playing = false;
                        self.transport.time = t;
                    }
                }
            }
            UiCommand::SetPlayRange => self.set_play_range(),
            UiCommand::ClearPlayRange => self.transport.range = None,
            UiCommand::FrameAll => self.curves.frame_all(),
            UiCommand::FrameSelected => self.curves.frame_selected(),
            UiCommand::ToggleValidation => self.show_validation = !self.show_validation,
            UiCommand::ToggleCycles => {
                self.right_tab = match self.right_tab {
                    RightTab::Cycles => RightTab::Inspector,
                    RightTab::Inspector => RightTab::Cycles,
                };
                self.cycles.preview_in_viewport = self.right_tab == RightTab::Cycles;
            }
            UiCommand::ToggleTheme => {
                self.dark = !self.dark;
                style::apply_theme(ctx, self.dark);
            }
            UiCommand::CommandPalette => self.palette.open(),
        }
    }

    /// Sets the play range to the span of the selected keys (at least one frame).
    fn set_play_range(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let times = self
            .selection
            .keys
            .iter()
            .filter_map(|k| clip.tracks.get(k.track)?.times.get(k.key).copied())
            .map(f64::from);
        let (lo, hi) = times.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        if lo > hi {
            self.note("play range: select the keys to loop over first".into());
            return;
        }
        let hi = hi.max(lo + 1.0 / self.transport.fps.max(1e-3));
        self.transport.set_range(lo, hi);
        self.note(format!("play range: {lo:.3} s to {hi:.3} s"));
    }

    /// Opens a clip operation dialog (with a clip selected).
    fn open_dialog(&mut self, dialog: ClipDialog) {
        if self.selection.clip.is_some() {
            self.clip_dialog = Some(dialog);
        }
    }

    /// Copies the selected keys to the key clipboard (and cuts them for Cut keys). The system
    /// clipboard gets a line of text, so the next Ctrl+V reaches the editor as a paste.
    fn copy_keys(&mut self, command: UiCommand, ctx: &egui::Context) {
        let Some((id, clip)) = self.selected_clip() else {
            return;
        };
        if self.selection.keys.is_empty() {
            self.note("copy keys: no keys selected".into());
            return;
        }
        let board = KeyClipboard::copy(clip, self.selection.keys.iter().map(|k| (k.track, k.key)));
        let line = format!(
            "{} {} keys of {} track(s) from {}",
            if command == UiCommand::CutKeys {
                "cut"
            } else {
                "copied"
            },
            board.key_count(),
            board.tracks.len(),
            clip.name
        );
        ctx.copy_text(format!("clipscope: {line}"));
        self.note(line);
        self.key_clipboard = Some(board);
        if command == UiCommand::CutKeys {
            let keys = self.selection.keys.iter().copied().collect();
            self.selection.keys.clear();
            self.apply(Edit::DeleteKeys { clip: id, keys });
        }
    }

    /// Pastes the key clipboard at the playhead into the selected clip.
    fn paste_keys(&mut self, values: PasteValues) {
        let (Some((id, clip)), Some(board)) = (self.selected_clip(), &self.key_clipboard) else {
            self.note("paste keys: nothing copied".into());
            return;
        };
        let shown: Vec<usize> = self.selection.tracks.iter().copied().collect();
        let targets = board.targets(clip, &shown);
        let edit = Edit::PasteKeys {
            clip: id,
            clipboard: Box::new(board.clone()),
            targets: targets.clone(),
            time: self.playhead(),
            values,
            duplicate: false,
        };
        // Pasted tracks show in the curve editor.
        self.selection.tracks.extend(targets.into_iter().flatten());
        self.apply(edit);
    }

    /// Duplicates the selected keys one frame after the earliest of them and selects the
    /// copies (drag them where they belong).
    fn duplicate_keys(&mut self) {
        let Some((id, clip)) = self.selected_clip() else {
            return;
        };
        if self.selection.keys.is_empty() {
            return;
        }
        let board = KeyClipboard::copy(clip, self.selection.keys.iter().map(|k| (k.track, k.key)));
        let targets = board.tracks.iter().map(|t| Some(t.source)).collect();
        let step = 1.0 / self.transport.fps.max(1e-3);
        let time = board.start() + step;
        self.apply(Edit::PasteKeys {
            clip: id,
            clipboard: Box::new(board),
            targets,
            time,
            values: PasteValues::Absolute,
            duplicate: true,
        });
    }

    /// Selects every shown component of every key of the shown tracks.
    fn select_all_keys(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let sel = &self.selection;
        let keys = sel
            .tracks
            .iter()
            .filter_map(|&t| clip.tracks.get(t).map(|tr| (t, tr)))
            .flat_map(|(t, tr)| {
                let comps: Vec<usize> = (0..tr.value_size().max(1))
                    .filter(|&c| !sel.hidden.contains(&(t, c)))
                    .collect();
                (0..tr.len()).flat_map(move |key| {
                    comps.clone().into_iter().map(move |component| KeyRef {
                        track: t,
                        key,
                        component,
                    })
                })
            })
            .collect();
        self.selection.keys = keys;
    }

    /// Selects the keys of the shown tracks at the times of the selected keys, or at the
    /// playhead when none is selected (Blender's column select).
    fn select_column(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let mut times: Vec<f32> = self
            .selection
            .keys
            .iter()
            .filter_map(|k| clip.tracks.get(k.track)?.times.get(k.key).copied())
            .collect();
        if times.is_empty() {
            times.push(self.playhead() as f32);
        }
        times.sort_by(f32::total_cmp);
        times.dedup();
        let near = |t: f32| {
            let i = times.partition_point(|&x| x < t - 1e-5);
            times.get(i).is_some_and(|&x| (x - t).abs() <= 1e-5)
        };
        let sel = &self.selection;
        let keys: std::collections::BTreeSet<KeyRef> = sel
            .tracks
            .iter()
            .filter_map(|&t| clip.tracks.get(t).map(|tr| (t, tr)))
            .flat_map(|(t, tr)| {
                let comps: Vec<usize> = (0..tr.value_size().max(1))
                    .filter(|&c| !sel.hidden.contains(&(t, c)))
                    .collect();
                tr.times
                    .iter()
                    .enumerate()
                    .filter(|&(_, &time)| near(time))
                    .flat_map(move |(key, _)| {
                        comps.clone().into_iter().map(move |component| KeyRef {
                            track: t,
                            key,
                            component,
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        self.selection.keys = keys;
    }

    /// Selects every shown component of the keys of the shown tracks inside the play range (the
    /// whole clip without one).
    fn select_in_play_range(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let (lo, hi) = self.transport.bounds(clip.duration);
        let sel = &self.selection;
        let mut keys = std::collections::BTreeSet::new();
        for &t in &sel.tracks {
            let Some(tr) = clip.tracks.get(t) else {
                continue;
            };
            let comps: Vec<usize> = (0..tr.value_size().max(1))
                .filter(|&c| !sel.hidden.contains(&(t, c)))
                .collect();
            for (key, &time) in tr.times.iter().enumerate() {
                let time = time as f64;
                if time >= lo - 1e-6 && time <= hi + 1e-6 {
                    keys.extend(comps.iter().map(|&component| KeyRef {
                        track: t,
                        key,
                        component,
                    }));
                }
            }
        }
        self.selection.keys = keys;
    }

    /// Runs a play, step or seek command on the transport.
    fn run_transport_command(&mut self, command: UiCommand) {
        let duration = self.duration();
        let tr = &mut self.transport;
        match command {
            UiCommand::PlayPause => tr.toggle_play(duration),
            UiCommand::NextFrame => tr.step_frames(1, duration),
            UiCommand::PreviousFrame => tr.step_frames(-1, duration),
            UiCommand::NextFrames10 => tr.step_frames(10, duration),
            UiCommand::PreviousFrames10 => tr.step_frames(-10, duration),
            UiCommand::GoStart => tr.go_start(),
            UiCommand::GoEnd => tr.go_end(duration),
            UiCommand::NextKey | UiCommand::PreviousKey => {
                let times = self.shown_key_times();
                let to = if command == UiCommand::NextKey {
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
}
