//! Files: native dialogs on their own threads, a typed-path fallback, background loads with
//! progress and cancel, and the recent-files list.
//!
//! A native dialog (through rfd: the XDG portal or zenity on Linux) blocks the thread that
//! opens it, so it runs on a worker and the answer is polled each frame. Where no dialog can be
//! shown at all (no portal and no zenity, or the dialog gives up at once), the editor offers a
//! path text field instead of silently doing nothing. Loads run on worker threads too and
//! report their progress through a shared [`LoadProgress`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use clipscope_core::formats::{self, Document, FileStamp, LoadProgress, ReadError, ReadErrorKind};

use super::outbox::FileTarget;

/// Most recent files remembered.
const RECENT_LIMIT: usize = 12;

/// A dialog that answers faster than this was not shown to anyone (no portal, no zenity).
const INSTANT_ANSWER: Duration = Duration::from_millis(150);

/// A typed-path prompt shown when no native dialog is available.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPrompt {
    /// What the path is for.
    pub target: FileTarget,
    /// The text typed so far.
    pub text: String,
    /// Why the prompt is shown instead of a dialog.
    pub reason: String,
}

/// A native dialog running on a worker thread.
struct DialogJob {
    target: FileTarget,
    started: Instant,
    answer: Receiver<Option<Vec<PathBuf>>>,
}

/// Why a file is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadPurpose {
    /// The user opened it (or reloads it).
    Open,
    /// It changed on disk while open (the file watcher saw a re-export).
    Changed,
}

/// A file being read on a worker thread.
pub struct LoadJob {
    /// The file.
    pub path: PathBuf,
    /// Why it is read.
    pub purpose: LoadPurpose,
    /// Its progress, shared with the reader.
    pub progress: Arc<LoadProgress>,
    result: Receiver<ReadResult>,
}

/// What a worker read: the document and the file's stamp taken before reading it.
type ReadResult = Result<(Box<Document>, Option<FileStamp>), ReadError>;

/// Something that finished this frame.
pub enum FileEvent {
    /// The user chose paths for `target`.
    Chosen(FileTarget, Vec<PathBuf>),
    /// A load finished (or failed, or was cancelled).
    Loaded {
        /// The file.
        path: PathBuf,
        /// Why it was read.
        purpose: LoadPurpose,
        /// The document (boxed: it is much larger than the other variant), or why not.
        result: Result<Box<Document>, ReadError>,
        /// The file as it was on disk just before the read (a change during the read makes
        /// the next comparison differ, so the file is read again).
        stamp: Option<FileStamp>,
    },
}

/// Dialogs, prompts, loads and recent files.
#[derive(Default)]
pub struct Files {
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    /// The typed-path prompt, when one is open.
    pub prompt: Option<PathPrompt>,
    /// Loads in progress.
    pub loads: Vec<LoadJob>,
    dialog: Option<DialogJob>,
    /// How files are read (the frame rate of clips made from morph targets).
    pub read_options: formats::ReadOptions,
}

impl Files {
    /// True while a native dialog is open.
    pub fn dialog_open(&self) -> bool {
        self.dialog.is_some()
    }

    /// Asks for paths: a native dialog when one can be shown, else the path prompt.
    pub fn ask(&mut self, target: FileTarget, suggested: Option<&Path>) {
        if self.dialog.is_some() {
            return;
        }
        if let Some(reason) = no_dialog_reason() {
            self.prompt_for(target, suggested, reason);
            return;
        }
        let (tx, rx) = channel();
        let mut dialog = rfd::FileDialog::new()
            .add_filter("Animation files", formats::clip_extensions())
            .add_filter("All files", &["*"]);
        if let Some(p) = suggested {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                dialog = dialog.set_directory(dir);
            }
            if let Some(name) = p.file_name() {
                dialog = dialog.set_file_name(name.to_string_lossy());
            }
        }
        let open = matches!(
            target,
            FileTarget::Open
                | FileTarget::LoadPreset
                | FileTarget::Figure
                | FileTarget::Compare { .. }
        );
        let show = move || {
            let answer = if open {
                dialog.pick_files()
            } else {
                dialog.save_file().map(|p| vec![p])
            };
            let _ = tx.send(answer);
        };
        if cfg!(target_os = "macos") {
            // AppKit dialogs must run on the main thread (this blocks the frame, as on macOS
            // every app's modal dialog does).
            show();
        } else {
            std::thread::spawn(show);
        }
        self.dialog = Some(DialogJob {
            target,
            started: Instant::now(),
            answer: rx,
        });
    }

    /// Opens the typed-path prompt for `target`.
    pub fn prompt_for(&mut self, target: FileTarget, suggested: Option<&Path>, reason: String) {
        self.prompt = Some(PathPrompt {
            target,
            text: suggested
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            reason,
        });
    }

    /// Starts reading `path` on a worker thread (the user opens it).
    pub fn load(&mut self, path: PathBuf) {
        self.load_for(path, LoadPurpose::Open);
    }

    /// Starts reading `path` on a worker thread, for `purpose`. A file already being read for
    /// the same purpose is not read twice.
    pub fn load_for(&mut self, path: PathBuf, purpose: LoadPurpose) {
        if purpose == LoadPurpose::Changed
            && self
                .loads
                .iter()
                .any(|j| j.path == path && j.purpose == purpose)
        {
            return;
        }
        let progress = Arc::new(LoadProgress::new());
        let (tx, rx) = channel();
        let opts = self.read_options.clone().with_progress(progress.clone());
        let job_path = path.clone();
        std::thread::spawn(move || {
            let stamp = FileStamp::of(&job_path);
            let read = formats::read_file_with(&job_path, &opts);
            let _ = tx.send(read.map(|doc| (Box::new(doc), stamp)));
        });
        self.loads.push(LoadJob {
            path,
            purpose,
            progress,
            result: rx,
        });
    }

    /// Cancels every load in progress.
    pub fn cancel_loads(&mut self) {
        for job in &self.loads {
            job.progress.cancel();
        }
    }

    /// Collects what finished since the last frame.
    pub fn poll(&mut self) -> Vec<FileEvent> {
        let mut events = Vec::new();
        if let Some(job) = &self.dialog
            && let Ok(answer) = job.answer.try_recv()
        {
            let job = self.dialog.take().expect("dialog job");
            match answer {
                Some(paths) if !paths.is_empty() => {
                    events.push(FileEvent::Chosen(job.target, paths));
                }
                _ if job.started.elapsed() < INSTANT_ANSWER => {
                    self.prompt_for(
                        job.target,
                        None,
                        "No file dialog could be shown on this system; type a path instead.".into(),
                    );
                }
                _ => {}
            }
        }
        let mut i = 0;
        while i < self.loads.len() {
            match self.loads[i].result.try_recv() {
                Ok(result) => {
                    let job = self.loads.remove(i);
                    events.push(job.finished(result));
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    let job = self.loads.remove(i);
                    let err = reader_stopped(&job.path);
                    events.push(job.finished(Err(err)));
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => i += 1,
            }
        }
        events
    }

    /// Waits for every load in progress and returns the results (tests and start-up).
    pub fn finish_loads(&mut self) -> Vec<FileEvent> {
        self.loads
            .drain(..)
            .map(|job| {
                let result = job
                    .result
                    .recv()
                    .unwrap_or_else(|_| Err(reader_stopped(&job.path)));
                job.finished(result)
            })
            .collect()
    }

    /// Puts `path` at the top of the recent files.
    pub fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }
}

impl LoadJob {
    /// The event of this job ending with `result`.
    fn finished(self, result: ReadResult) -> FileEvent {
        let (result, stamp) = match result {
            Ok((doc, stamp)) => (Ok(doc), stamp),
            Err(e) => (Err(e), None),
        };
        FileEvent::Loaded {
            path: self.path,
            purpose: self.purpose,
            result,
            stamp,
        }
    }
}

/// Why no native dialog can be shown here, or `None` when one probably can.
fn no_dialog_reason() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let portal = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some();
    let zenity = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file()));
    if portal || zenity {
        None
    } else {
        Some(
            "No file dialog is available (no desktop portal on D-Bus and no zenity); type a path instead."
                .into(),
        )
    }
}

/// The error of a load whose reading thread ended without an answer (it panicked).
fn reader_stopped(path: &Path) -> ReadError {
    ReadError::new(
        ReadErrorKind::Unsupported,
        path,
        "",
        "the reader stopped unexpectedly",
    )
}
