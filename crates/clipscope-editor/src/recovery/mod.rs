//! Autosave and crash recovery: unsaved edits are copied to a recovery folder, so a crash or a
//! kill loses at most the time between two autosaves, and the next start offers them back.
//!
//! Each running editor owns one *session* folder under the recovery root (the platform's data
//! directory, `~/.local/share/clipscope/recovery` on Linux, or `CLIPSCOPE_RECOVERY_DIR`) and
//! holds an exclusive lock on its `lock` file while it runs. For every document with unsaved
//! edits the session keeps two files: the document in its own format (`doc-<id>.<ext>`,
//! written by the format's writer, so everything the file had is kept) and a small JSON
//! [`RecoveryMeta`] (the source path, the time, how many edits). Both are written atomically
//! by a worker thread: the UI thread only clones the document (plain data; its file layout is
//! shared, not copied), never serialises it, and at most [`QUEUE`] snapshots wait at a time,
//! so memory stays bounded for a 13 MB take. A document that is saved or closed without saving
//! loses its recovery files; a clean exit removes the whole session folder.
//!
//! A session folder whose lock nobody holds belongs to an editor that died: [`scan`] lists its
//! documents ([`Recoverable`]), [`restore`] reads one back (as an unsaved document pointing at
//! its original file) and [`discard`] deletes it.

mod error;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TrySendError, channel, sync_channel};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use clipscope_core::formats::{
    self, Document, Format, ReadError, ReadOptions, WriteOptions, write_atomic,
};

use crate::Workspace;

use error::AutosaveError;

/// The environment variable that moves the recovery root (tests, portable installs).
pub const RECOVERY_DIR_ENV: &str = "CLIPSCOPE_RECOVERY_DIR";

/// Snapshots that may wait for the worker at once; more are retried at the next autosave.
pub const QUEUE: usize = 2;

/// What a recovery entry records besides the document itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecoveryMeta {
    /// The file the document was read from or last saved to, if any.
    pub source: Option<PathBuf>,
    /// The name the editor showed for it.
    pub name: String,
    /// The document's format (its short name, `threejs`).
    pub format: String,
    /// When the snapshot was taken, in seconds since the Unix epoch.
    pub saved_at: u64,
    /// How many unsaved edits it holds.
    pub edits: usize,
    /// The data file beside this one.
    pub file: String,
}

/// A document a dead session left behind.
#[derive(Debug, Clone, PartialEq)]
pub struct Recoverable {
    /// What the entry records.
    pub meta: RecoveryMeta,
    /// The document's data file.
    pub data: PathBuf,
    /// The entry's metadata file.
    pub meta_path: PathBuf,
}

/// One document's copy, taken on the UI thread and written by the worker.
struct Snapshot {
    doc_id: u64,
    doc: Document,
    meta: RecoveryMeta,
}

/// Work for the writer thread.
enum Job {
    Write(Box<Snapshot>),
    Remove(u64),
    Flush(Sender<()>),
}

/// This editor's session: its folder, its lock, and the thread that writes snapshots.
pub struct RecoveryStore {
    root: PathBuf,
    session: PathBuf,
    /// Held (locked) for as long as the session lives: the mark of a running editor.
    _lock: File,
    jobs: Option<SyncSender<Job>>,
    errors: Receiver<String>,
    worker: Option<JoinHandle<()>>,
    /// The version of each document last handed to the worker.
    queued: HashMap<u64, u64>,
}

/// The recovery root: `$CLIPSCOPE_RECOVERY_DIR`, else `recovery` in clipscope's folder of the
/// platform's data directory; `None` where the platform has none.
pub fn default_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(RECOVERY_DIR_ENV) {
        return Some(PathBuf::from(dir));
    }
    Some(dirs::data_dir()?.join("clipscope").join("recovery"))
}

impl RecoveryStore {
    /// Starts a session under `root` (made if missing): its folder, its lock and its writer.
    pub fn open(root: &Path) -> std::io::Result<RecoveryStore> {
        std::fs::create_dir_all(root)?;
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let session = root.join(format!("session-{}-{millis}", std::process::id()));
        std::fs::create_dir(&session)?;
        let lock = File::create(session.join("lock"))?;
        lock.try_lock().map_err(std::io::Error::other)?;
        let (jobs, inbox) = sync_channel::<Job>(QUEUE);
        let (report, errors) = channel();
        let folder = session.clone();
        let worker = std::thread::Builder::new()
            .name("clipscope-autosave".into())
            .spawn(move || write_jobs(&folder, inbox, report))?;
        Ok(RecoveryStore {
            root: root.to_path_buf(),
            session,
            _lock: lock,
            jobs: Some(jobs),
            errors,
            worker: Some(worker),
            queued: HashMap::new(),
        })
    }

    /// The recovery root this session lives in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// This session's folder.
    pub fn session(&self) -> &Path {
        &self.session
    }

    /// Hands every document of `ws` with unsaved edits newer than its last snapshot to the
    /// writer, and drops the recovery files of documents that no longer have unsaved edits
    /// (saved, or undone back to the saved state). Returns how many snapshots were queued; a
    /// document the writer has no room for yet is retried at the next call.
    pub fn autosave(&mut self, ws: &Workspace) -> usize {
        let mut queued = 0;
        for (index, d) in ws.documents.iter().enumerate() {
            if !d.is_dirty() {
                if self.queued.remove(&d.id).is_some() {
                    self.send(Job::Remove(d.id));
                }
                continue;
            }
            if self.queued.get(&d.id) == Some(&d.version) {
                continue;
            }
            let meta = RecoveryMeta {
                source: d.doc.path.clone(),
                name: d.name.clone(),
                format: d.doc.format.name().to_string(),
                saved_at: now_secs(),
                edits: ws.unsaved_edits(index),
                file: data_name(d.id, d.doc.format),
            };
            let snapshot = Snapshot {
                doc_id: d.id,
                doc: d.doc.clone(),
                meta,
            };
            if self.send(Job::Write(Box::new(snapshot))) {
                self.queued.insert(d.id, d.version);
                queued += 1;
            }
        }
        // Documents that were closed: their files go.
        let open: std::collections::HashSet<u64> = ws.documents.iter().map(|d| d.id).collect();
        let closed: Vec<u64> = self
            .queued
            .keys()
            .copied()
            .filter(|id| !open.contains(id))
            .collect();
        for id in closed {
            self.forget(id);
        }
        queued
    }

    /// Drops the recovery files of document `doc_id` (it was saved, or closed without saving).
    pub fn forget(&mut self, doc_id: u64) {
        self.queued.remove(&doc_id);
        self.send(Job::Remove(doc_id));
    }

    /// Waits until the writer has written everything handed to it so far.
    pub fn flush(&self) {
        let (done, wait) = channel();
        if let Some(jobs) = &self.jobs
            && jobs.send(Job::Flush(done)).is_ok()
        {
            let _ = wait.recv();
        }
    }

    /// What the writer could not write since the last call, one line each.
    pub fn errors(&self) -> Vec<String> {
        self.errors.try_iter().collect()
    }

    /// Ends the session cleanly: waits for the writer and removes the session folder (nothing
    /// is left to recover).
    pub fn close(mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.session);
    }

    /// Queues `job` without waiting; false when the queue is full (or the writer is gone).
    fn send(&self, job: Job) -> bool {
        let Some(jobs) = &self.jobs else {
            return false;
        };
        match jobs.try_send(job) {
            Ok(()) => true,
            Err(TrySendError::Full(Job::Remove(id))) => {
                // Removing must not be skipped: wait for room (a write is quick to finish).
                jobs.send(Job::Remove(id)).is_ok()
            }
            Err(_) => false,
        }
    }

    /// Stops the writer after the queued jobs.
    fn stop(&mut self) {
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Drop for RecoveryStore {
    /// Without [`RecoveryStore::close`] (a crash unwinding, say) the files stay for the next
    /// start; the writer still finishes what it was given.
    fn drop(&mut self) {
        self.stop();
    }
}

/// The writer thread: writes and removes entries in `folder` until the store goes away.
fn write_jobs(folder: &Path, inbox: Receiver<Job>, report: Sender<String>) {
    for job in inbox {
        match job {
            Job::Write(snapshot) => {
                if let Err(e) = write_entry(folder, &snapshot) {
                    let _ = report.send(format!("autosave of {}: {e}", snapshot.meta.name));
                }
            }
            Job::Remove(id) => {
                for entry in entries_of(folder, id) {
                    let _ = std::fs::remove_file(entry);
                }
            }
            Job::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}

/// Writes one snapshot: the document first, then its metadata (so a metadata file always
/// names a complete document).
fn write_entry(folder: &Path, snapshot: &Snapshot) -> Result<(), AutosaveError> {
    let data = folder.join(&snapshot.meta.file);
    // A format change (none today) would leave an old data file: remove other files first.
    for old in entries_of(folder, snapshot.doc_id) {
        if old != data && old != meta_path(folder, snapshot.doc_id) {
            let _ = std::fs::remove_file(old);
        }
    }
    formats::write_file(&snapshot.doc, &data, &WriteOptions::default())
        .map_err(AutosaveError::Document)?;
    let mut text = serde_json::to_string_pretty(&snapshot.meta).map_err(AutosaveError::Meta)?;
    text.push('\n');
    write_atomic(&meta_path(folder, snapshot.doc_id), text.as_bytes()).map_err(AutosaveError::Io)
}

/// The data file name of document `id` in `format`.
fn data_name(id: u64, format: Format) -> String {
    format!("doc-{id}.{}", format.extension())
}

/// The metadata file of document `id`.
fn meta_path(folder: &Path, id: u64) -> PathBuf {
    folder.join(format!("doc-{id}.meta.json"))
}

/// The files of document `id` in `folder`.
fn entries_of(folder: &Path, id: u64) -> Vec<PathBuf> {
    let prefix = format!("doc-{id}.");
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The documents that sessions under `root` left behind when their editor died (their lock is
/// free), newest first. `own` (this editor's session) is skipped; dead sessions with nothing
/// left in them are removed.
pub fn scan(root: &Path, own: Option<&Path>) -> Vec<Recoverable> {
    let mut found = Vec::new();
    let Ok(sessions) = std::fs::read_dir(root) else {
        return found;
    };
    for session in sessions.filter_map(|e| e.ok()).map(|e| e.path()) {
        let is_session = session
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("session-"));
        if !is_session || Some(session.as_path()) == own || !session.is_dir() || alive(&session) {
            continue;
        }
        let before = found.len();
        for entry in std::fs::read_dir(&session).into_iter().flatten().flatten() {
            let path = entry.path();
            if !path.to_string_lossy().ends_with(".meta.json") {
                continue;
            }
            let Some(meta) = std::fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice::<RecoveryMeta>(&b).ok())
            else {
                continue;
            };
            let data = session.join(&meta.file);
            if data.is_file() && meta.file.starts_with("doc-") && !meta.file.contains('/') {
                found.push(Recoverable {
                    meta,
                    data,
                    meta_path: path,
                });
            }
        }
        if found.len() == before {
            let _ = std::fs::remove_dir_all(&session);
        }
    }
    found.sort_by(|a, b| {
        b.meta
            .saved_at
            .cmp(&a.meta.saved_at)
            .then_with(|| a.meta.name.cmp(&b.meta.name))
    });
    found
}

/// Whether an editor holds the lock of `session` (it is running).
fn alive(session: &Path) -> bool {
    let Ok(lock) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(session.join("lock"))
    else {
        return false;
    };
    lock.try_lock().is_err()
}

/// Reads a recoverable document back. It points at its original file (relative references,
/// such as glTF buffers, resolve from there) and is meant to be opened as unsaved.
pub fn restore(entry: &Recoverable, opts: &ReadOptions) -> Result<Document, ReadError> {
    let bytes = formats::read_limited(&entry.data, opts.max_file_size)
        .map_err(|e| ReadError::file(&entry.data, e))?;
    let name = entry.meta.source.as_deref().unwrap_or(&entry.data);
    let mut doc = formats::read_bytes_with(&bytes, name, opts)?;
    doc.path = entry.meta.source.clone();
    Ok(doc)
}

/// Deletes a recoverable document's files (and its session folder once nothing is left).
pub fn discard(entry: &Recoverable) {
    let _ = std::fs::remove_file(&entry.data);
    let _ = std::fs::remove_file(&entry.meta_path);
    if let Some(session) = entry.data.parent() {
        let rest = std::fs::read_dir(session)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name() != "lock")
            .count();
        if rest == 0 && !alive(session) {
            let _ = std::fs::remove_dir_all(session);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClipId, Edit};
    use clipscope_core::model::{Clip, Track, TrackKind};

    fn workspace(dir: &Path) -> Workspace {
        let track = Track::numeric(
            "cube.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0],
        );
        let mut doc = Document::new(Format::ThreeJs, vec![Clip::new("walk", 1.0, vec![track])]);
        doc.path = Some(dir.join("walk.json"));
        let mut ws = Workspace::new();
        ws.add(doc);
        ws
    }

    const CLIP: ClipId = ClipId { doc: 0, clip: 0 };

    #[test]
    fn unsaved_edits_are_written_and_a_dead_session_offers_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("recovery");
        let mut ws = workspace(dir.path());
        let mut store = RecoveryStore::open(&root).unwrap();
        // Nothing unsaved: nothing written.
        assert_eq!(store.autosave(&ws), 0);
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        assert_eq!(store.autosave(&ws), 1);
        // The same version is not written twice.
        assert_eq!(store.autosave(&ws), 0);
        store.flush();
        assert!(store.errors().is_empty());
        // A running session is not offered.
        assert!(scan(&root, None).is_empty());
        // The editor dies (its lock goes without a clean close).
        let session = store.session().to_path_buf();
        drop(store);
        assert!(session.is_dir(), "a session that did not close stays");
        let found = scan(&root, None);
        assert_eq!(found.len(), 1);
        let entry = &found[0];
        assert_eq!(
            entry.meta.source.as_deref(),
            Some(dir.path().join("walk.json").as_path())
        );
        assert_eq!(entry.meta.name, "walk.json");
        assert_eq!(entry.meta.edits, 1);
        assert_eq!(entry.meta.format, "threejs");
        let doc = restore(entry, &ReadOptions::default()).unwrap();
        assert_eq!(doc.clips[0].name, "run");
        assert_eq!(doc.path, Some(dir.path().join("walk.json")));
        discard(entry);
        assert!(scan(&root, None).is_empty());
        assert!(!session.exists(), "an emptied dead session is removed");
    }

    #[test]
    fn saving_or_closing_drops_the_files_and_a_clean_exit_the_session() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("recovery");
        let mut ws = workspace(dir.path());
        let mut store = RecoveryStore::open(&root).unwrap();
        ws.apply(Edit::SetDuration {
            clip: CLIP,
            duration: 2.0,
        })
        .unwrap();
        store.autosave(&ws);
        store.flush();
        let files = |s: &RecoveryStore| std::fs::read_dir(s.session()).unwrap().count();
        assert_eq!(files(&store), 3, "lock, data and metadata");
        ws.mark_saved(0);
        store.autosave(&ws);
        store.flush();
        assert_eq!(files(&store), 1, "only the lock");
        ws.apply(Edit::SetDuration {
            clip: CLIP,
            duration: 3.0,
        })
        .unwrap();
        store.autosave(&ws);
        store.flush();
        assert_eq!(files(&store), 3);
        ws.close(0);
        store.autosave(&ws);
        store.flush();
        assert_eq!(files(&store), 1, "a closed document's files go");
        let session = store.session().to_path_buf();
        store.close();
        assert!(!session.exists());
        assert!(scan(&root, None).is_empty());
    }

    #[test]
    fn a_failed_write_is_reported_not_lost_silently() {
        let dir = tempfile::tempdir().unwrap();
        let mut ws = workspace(dir.path());
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "broken".into(),
        })
        .unwrap();
        let mut store = RecoveryStore::open(&dir.path().join("r")).unwrap();
        // The folder goes away under the session (a full or removed disk, say).
        std::fs::remove_dir_all(store.session()).unwrap();
        store.autosave(&ws);
        store.flush();
        let errors = store.errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("autosave of walk.json: "),
            "{}",
            errors[0]
        );
    }
}
