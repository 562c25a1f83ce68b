//! Opening, reloading, saving and closing documents, and what finished file jobs mean.

use std::path::Path;

use clipscope_core::formats::{self, Document, FileStamp, WriteOptions};
use clipscope_core::text::thousands;
use clipscope_editor::ClipId;

use crate::ui::files::{FileEvent, LoadPurpose};
use crate::ui::outbox::{FileTarget, Pending};

use super::ClipscopeApp;

impl ClipscopeApp {
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

    pub(super) fn add_document(&mut self, doc: Document, name: Option<&str>) {
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

    pub(super) fn file_event(&mut self, event: FileEvent) {
        match event {
            FileEvent::Loaded {
                path,
                purpose: LoadPurpose::Changed,
                result,
                stamp,
            } => self.changed_loaded(&path, result, stamp),
            FileEvent::Loaded {
                path,
                purpose: LoadPurpose::Open,
                result: Ok(doc),
                stamp,
            } => {
                self.files.remember(&path);
                let clips = doc.clips.len();
                let keys: usize = doc.clips.iter().map(|c| c.key_count()).sum();
                let index = match self.ws.find_path(&path) {
                    Some(i) => {
                        self.ws.replace(i, *doc);
                        self.fix_selection();
                        i
                    }
                    None => {
                        self.add_document(*doc, None);
                        self.ws.documents.len() - 1
                    }
                };
                self.ws.documents[index].disk = stamp;
                self.note(format!(
                    "opened {}: {clips} clips, {} keys",
                    path.display(),
                    thousands(keys)
                ));
            }
            FileEvent::Loaded {
                path,
                result: Err(e),
                ..
            } => {
                if e.is_cancelled() {
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
            FileEvent::Chosen(
                FileTarget::SaveAs {
                    doc_id,
                    options,
                    format,
                },
                paths,
            ) => {
                if let (Some(i), Some(path)) = (self.ws.index_of(doc_id), paths.first()) {
                    self.save_to(i, path, options, format);
                }
            }
            FileEvent::Chosen(FileTarget::SavePreset(text), paths) => {
                if let Some(path) = paths.first() {
                    self.save_preset(path, &text);
                }
            }
            FileEvent::Chosen(FileTarget::LoadPreset, paths) => {
                if let Some(path) = paths.first() {
                    self.load_preset(path);
                }
            }
            FileEvent::Chosen(FileTarget::Compare { doc_id }, paths) => {
                if let (Some(i), Some(path)) = (self.ws.index_of(doc_id), paths.first()) {
                    self.compare_document(i, &path.to_string_lossy());
                }
            }
            FileEvent::Chosen(FileTarget::Figure, paths) => {
                if let Some(path) = paths.first() {
                    match self.viewport.stage.figures.add_file(path) {
                        Ok(name) => self.viewport.stage.rig_choice = Some(name),
                        Err(e) => self.error = Some(e),
                    }
                }
            }
        }
    }

    /// Writes document `index` to `path` atomically. Save / Save As (`export` is `None`)
    /// points the document at the file and marks it saved; an export (in `export`'s format)
    /// leaves both alone and notes what the target format cannot hold. A document the format
    /// cannot hold is not written: the error says why.
    pub(super) fn save_to(
        &mut self,
        index: usize,
        path: &Path,
        options: WriteOptions,
        export: Option<formats::Format>,
    ) {
        let d = &self.ws.documents[index];
        if export.is_none() && overwrites_a_changed_file(d.doc.path.as_deref(), d.disk, path) {
            // Another program wrote the file since it was read: ask before replacing it.
            self.pending = Some(Pending::Overwrite(d.id));
            return;
        }
        self.write_document(index, path, options, export);
    }

    /// [`save_to`](Self::save_to) without asking about a file changed on disk (the user said to
    /// go ahead).
    pub(super) fn write_document(
        &mut self,
        index: usize,
        path: &Path,
        options: WriteOptions,
        export: Option<formats::Format>,
    ) {
        let rebind = export.is_none();
        let source = &self.ws.documents[index].doc;
        let (converted, losses) = match export {
            Some(format) if format != source.format => (
                Some(source.clone().converted_to(format)),
                formats::conversion_losses(source, format)
                    .into_iter()
                    .map(|loss| format!("export as {}: not written: {loss}", format.name()))
                    .collect(),
            ),
            _ => (None, Vec::new()),
        };
        for loss in losses {
            self.note(loss);
        }
        let doc = converted.as_ref().unwrap_or(&self.ws.documents[index].doc);
        if let Err(e) = formats::check_writable(doc) {
            self.error = Some(format!("{}: cannot write: {e}", path.display()));
            return;
        }
        match formats::write_file(doc, path, &options) {
            Ok(()) => {
                let size = std::fs::metadata(path)
                    .map(|m| m.len() as usize)
                    .unwrap_or(0);
                if rebind {
                    self.ws.documents[index].set_path(path);
                    self.ws.documents[index].disk = FileStamp::of(path);
                    self.ws.mark_saved(index);
                    self.forget_recovery(self.ws.documents[index].id);
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

    pub(super) fn close_document(&mut self, index: usize) {
        if let Some(d) = self.ws.close(index) {
            self.forget_recovery(d.id);
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
}

/// Whether saving a document read from `own` (as it was on disk then: `read`) to `path` would
/// replace a version of that file another program wrote since.
fn overwrites_a_changed_file(own: Option<&Path>, read: Option<FileStamp>, path: &Path) -> bool {
    let same = |a: &Path, b: &Path| {
        a == b || std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    };
    let Some(own) = own else {
        return false;
    };
    if !same(own, path) {
        return false;
    }
    match FileStamp::of(path) {
        Some(now) => Some(now) != read,
        None => false,
    }
}
