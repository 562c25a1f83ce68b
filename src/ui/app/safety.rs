//! Never losing work: autosave into the recovery session (on a timer and when the window loses
//! focus), the offer of a crashed editor's edits at start, and files re-exported while open
//! (reloaded in place when they have no unsaved edits, asked about when they have).

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::ui::files::LoadPurpose;
use crate::ui::outbox::{ChangedAnswer, RecoveryAnswer};
use crate::ui::recovery_dialog::RecoveryOffer;
use clipscope_core::formats::{Document, FileStamp, ReadError};
use clipscope_core::text::thousands;
use clipscope_editor::ClipId;
use clipscope_editor::recovery::{self, RecoveryStore};

use super::ClipscopeApp;

/// A new version of an open file with unsaved edits, waiting for the user's answer.
pub struct ChangedOnDisk {
    /// The open document's stable id.
    pub doc_id: u64,
    /// Its name, for the question.
    pub name: String,
    /// The new version.
    doc: Box<Document>,
    /// The file as it was when the new version was read.
    stamp: Option<FileStamp>,
}

/// What the view showed of a document, by name, to show again after a reload.
struct View {
    clip: String,
    tracks: Vec<String>,
    hidden: Vec<(String, usize)>,
}

impl ClipscopeApp {
    /// Starts autosaving into a new recovery session under `root` (the platform's data
    /// directory when `None`) and offers what crashed editors left there.
    pub fn start_recovery(&mut self, root: Option<PathBuf>) {
        let Some(root) = root.or_else(recovery::default_root) else {
            self.note("autosave is off: this system has no data folder".into());
            return;
        };
        match RecoveryStore::open(&root) {
            Ok(store) => {
                let found = recovery::scan(&root, Some(store.session()));
                self.recovery_offer = RecoveryOffer::new(found);
                self.recovery = Some(store);
            }
            Err(e) => self.note(format!(
                "autosave is off: cannot use {}: {e}",
                root.display()
            )),
        }
    }

    /// Hands the unsaved edits to the autosave now; returns how many documents were queued.
    pub fn autosave_now(&mut self) -> usize {
        self.last_autosave = Instant::now();
        let Some(store) = &mut self.recovery else {
            return 0;
        };
        let queued = store.autosave(&self.ws);
        for e in store.errors() {
            self.note(e);
        }
        queued
    }

    /// Waits until the autosave has written what it was given (tests, exit).
    pub fn flush_autosave(&mut self) {
        if let Some(store) = &self.recovery {
            store.flush();
            for e in store.errors() {
                self.note(e);
            }
        }
    }

    /// The recovery session's folder, when autosave runs.
    pub fn recovery_session(&self) -> Option<&Path> {
        self.recovery.as_ref().map(RecoveryStore::session)
    }

    /// Ends the recovery session cleanly (the editor closes: nothing is left to recover).
    pub(super) fn end_recovery(&mut self) {
        if let Some(store) = self.recovery.take() {
            store.close();
        }
    }

    /// Drops the recovery files of a document that was saved or closed.
    pub(super) fn forget_recovery(&mut self, doc_id: u64) {
        if let Some(store) = &mut self.recovery {
            store.forget(doc_id);
        }
    }

    /// Once a frame: autosave when the window lost focus or the interval passed, and take in
    /// files that changed on disk.
    pub(super) fn keep_safe(&mut self, ctx: &egui::Context) {
        let focused = ctx.input(|i| i.focused);
        let lost_focus = self.focused && !focused;
        self.focused = focused;
        let due = self
            .autosave_every
            .is_some_and(|every| self.last_autosave.elapsed() >= every);
        if self.recovery.is_some() && (lost_focus || due) {
            self.autosave_now();
        }
        if let Some(every) = self.autosave_every
            && self.recovery.is_some()
            && self.ws.any_dirty()
        {
            // Idle windows are not redrawn: wake up for the next autosave.
            ctx.request_repaint_after(every.saturating_sub(self.last_autosave.elapsed()));
        }
        let paths: Vec<PathBuf> = self
            .ws
            .documents
            .iter()
            .filter_map(|d| d.doc.path.clone())
            .collect();
        self.watcher.wake(ctx);
        self.watcher.watch(paths.iter().map(PathBuf::as_path));
        for path in self.watcher.poll(Instant::now()) {
            self.file_changed(&path);
        }
        if self.watcher.busy() {
            // A changed file is settling: look again soon (new changes wake the window).
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
    }

    /// A watched file changed and settled: read it in the background unless it is the version
    /// the document already has (this editor's own save, say).
    fn file_changed(&mut self, path: &Path) {
        let Some(i) = self.ws.find_path(path) else {
            return;
        };
        if self.ws.documents[i].disk.is_some() && FileStamp::of(path) == self.ws.documents[i].disk {
            return;
        }
        let own = self.ws.documents[i].doc.path.clone();
        self.files.load_for(
            own.unwrap_or_else(|| path.to_path_buf()),
            LoadPurpose::Changed,
        );
    }

    /// The new version of a changed file was read (or not).
    pub(super) fn changed_loaded(
        &mut self,
        path: &Path,
        result: Result<Box<Document>, ReadError>,
        stamp: Option<FileStamp>,
    ) {
        let Some(i) = self.ws.find_path(path) else {
            return;
        };
        let doc = match result {
            Ok(doc) => doc,
            Err(e) if e.is_cancelled() => return,
            Err(e) => {
                // Most likely a write caught half way: wait for the next change.
                self.watcher.recheck(path, Instant::now());
                self.note(format!(
                    "{} changed on disk but does not read (yet): {}; the open version stays",
                    self.ws.documents[i].title(),
                    e.located_reason()
                ));
                return;
            }
        };
        let d = &self.ws.documents[i];
        if d.is_dirty() {
            self.changed = Some(ChangedOnDisk {
                doc_id: d.id,
                name: d.title().to_string(),
                doc,
                stamp,
            });
        } else {
            self.reload_keeping_view(i, *doc, stamp);
        }
    }

    /// The user's answer about a file changed under unsaved edits.
    pub(super) fn changed_answer(&mut self, answer: ChangedAnswer) {
        let Some(changed) = self.changed.take() else {
            return;
        };
        let Some(i) = self.ws.index_of(changed.doc_id) else {
            return;
        };
        match answer {
            ChangedAnswer::Reload => {
                self.forget_recovery(changed.doc_id);
                self.reload_keeping_view(i, *changed.doc, changed.stamp);
            }
            ChangedAnswer::KeepMine => {
                // The new version is known: saving replaces it without asking again.
                self.ws.documents[i].disk = changed.stamp;
                self.note(format!(
                    "kept your edits of {}; saving replaces the version on disk",
                    changed.name
                ));
            }
            ChangedAnswer::OpenBeside => {
                self.ws.documents[i].disk = changed.stamp;
                let mut doc = *changed.doc;
                // The copy has no file of its own: saving it asks where.
                doc.path = None;
                let name = format!("{} (on disk)", changed.name);
                self.ws.add_named(doc, name.clone());
                self.note(format!(
                    "opened the new version of {} as {name}",
                    changed.name
                ));
            }
        }
    }

    /// Replaces document `i` with `doc` (its file's new version, read clean), keeping the
    /// selected clip, shown tracks and hidden components (by name, where they still exist),
    /// the curve view and the playhead.
    fn reload_keeping_view(&mut self, i: usize, doc: Document, stamp: Option<FileStamp>) {
        let view = self.view_of(i);
        let bounds = self.curves.view_bounds();
        let time = self.transport.time;
        let (clips, keys) = (
            doc.clips.len(),
            doc.clips.iter().map(|c| c.key_count()).sum::<usize>(),
        );
        self.ws.replace(i, doc);
        self.ws.documents[i].disk = stamp;
        if let Some(view) = view {
            self.show_view(i, &view);
        } else {
            self.fix_selection();
        }
        if let Some(bounds) = bounds {
            if let Some(id) = self.selection.clip {
                self.curves.follow_clip(id);
            }
            self.curves.set_view_bounds(bounds);
        }
        self.transport.time = time;
        self.after_edit();
        self.note(format!(
            "reloaded {} (changed on disk): {clips} clips, {} keys",
            self.ws.documents[i].title(),
            thousands(keys)
        ));
    }

    /// What the selection shows of document `i`, by name.
    fn view_of(&self, i: usize) -> Option<View> {
        let id = self.selection.clip.filter(|c| c.doc == i)?;
        let clip = self.ws.clip(id)?;
        let name = |t: usize| clip.tracks.get(t).map(|t| t.name.clone());
        Some(View {
            clip: clip.name.clone(),
            tracks: self
                .selection
                .tracks
                .iter()
                .filter_map(|&t| name(t))
                .collect(),
            hidden: self
                .selection
                .hidden
                .iter()
                .filter_map(|&(t, c)| Some((name(t)?, c)))
                .collect(),
        })
    }

    /// Selects in document `i` what `view` named: the clip of that name (else the first), its
    /// tracks and hidden components of those names.
    fn show_view(&mut self, i: usize, view: &View) {
        let clips = &self.ws.documents[i].doc.clips;
        let Some(c) = clips
            .iter()
            .position(|c| c.name == view.clip)
            .or((!clips.is_empty()).then_some(0))
        else {
            self.selection.clear();
            self.fix_selection();
            return;
        };
        let id = ClipId { doc: i, clip: c };
        let clip = &clips[c];
        let mut index = std::collections::HashMap::with_capacity(clip.tracks.len());
        for (t, track) in clip.tracks.iter().enumerate() {
            index.entry(track.name.as_str()).or_insert(t);
        }
        let same_clip = clip.name == view.clip;
        self.selection.clip = None;
        self.selection.select_clip(id, clip);
        if same_clip {
            self.selection.tracks = view
                .tracks
                .iter()
                .filter_map(|n| index.get(n.as_str()).copied())
                .collect();
            self.selection.hidden = view
                .hidden
                .iter()
                .filter_map(|(n, comp)| Some((*index.get(n.as_str())?, *comp)))
                .collect();
        }
    }

    /// The user's answer to the recovery offer.
    pub(super) fn recovery_answer(&mut self, answer: RecoveryAnswer) {
        let Some(offer) = self.recovery_offer.take() else {
            return;
        };
        match answer {
            RecoveryAnswer::Restore(chosen) => {
                let now = now_secs();
                for entry in chosen.iter().filter_map(|&k| offer.entries.get(k)) {
                    match recovery::restore(entry, &self.files.read_options) {
                        Ok(doc) => {
                            let meta = &entry.meta;
                            let index = self.ws.add_recovered(doc, &meta.name, meta.edits);
                            if self.selection.clip.is_none()
                                && !self.ws.documents[index].doc.clips.is_empty()
                            {
                                let id = ClipId {
                                    doc: index,
                                    clip: 0,
                                };
                                let clip = &self.ws.documents[index].doc.clips[0];
                                self.selection.select_clip(id, clip);
                            }
                            recovery::discard(entry);
                            self.note(format!(
                                "recovered {}: {} unsaved edit(s) from {}",
                                meta.name,
                                meta.edits,
                                crate::ui::recovery_dialog::age(now.saturating_sub(meta.saved_at))
                            ));
                        }
                        Err(e) => self.error = Some(format!("cannot recover: {e}")),
                    }
                }
                // The restored documents are this session's unsaved edits now.
                self.autosave_now();
            }
            RecoveryAnswer::Discard(chosen) => {
                for entry in chosen.iter().filter_map(|&k| offer.entries.get(k)) {
                    recovery::discard(entry);
                    self.note(format!(
                        "discarded the unsaved edits of {}",
                        entry.meta.name
                    ));
                }
            }
            RecoveryAnswer::Later => {}
        }
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
