//! Watching the open files for changes other programs make (an exporter writing a new take),
//! through the `notify` crate (inotify, FSEvents, ReadDirectoryChangesW).
//!
//! The folders of the open files are watched, not the files: exporters often write a new file
//! and rename it over the old one, which a watch on the old file would never see. A change
//! does not count at once: exporters write in pieces, so a changed file *settles* first. It is
//! reported by [`FileWatcher::poll`] once its [`FileStamp`] has stayed the same for
//! [`SETTLE`]; the app then reads it in the background, and a read that fails (a partial
//! write caught between two pieces) puts the file back to settling with
//! [`FileWatcher::recheck`], until it has stopped changing and parses.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher};

use clipscope_core::formats::FileStamp;

/// How long a changed file must keep the same size, time and inode before it is read.
pub const SETTLE: Duration = Duration::from_millis(300);

/// How long a deleted file is waited for (an exporter deleting before writing) before the
/// watcher stops looking at it.
const GONE: Duration = Duration::from_secs(5);

/// The open files' folders under watch, and the changed files waiting to settle.
pub struct FileWatcher {
    watcher: Option<notify::RecommendedWatcher>,
    events: Receiver<notify::Result<notify::Event>>,
    /// The window to wake when the system reports a change (an idle window is not redrawn).
    waker: Arc<Mutex<Option<egui::Context>>>,
    /// The watched files (canonical paths).
    files: HashSet<PathBuf>,
    /// The watched folders.
    folders: HashSet<PathBuf>,
    /// Changed files: the stamp last seen and when it last changed.
    settling: HashMap<PathBuf, (Option<FileStamp>, Instant)>,
    /// How long a file must stay unchanged.
    settle: Duration,
    /// Why watching does not work, if it does not.
    pub error: Option<String>,
}

impl Default for FileWatcher {
    fn default() -> FileWatcher {
        FileWatcher::new()
    }
}

impl FileWatcher {
    /// A watcher on nothing yet. Where the system offers no watching, every call is a no-op
    /// and [`FileWatcher::error`] says why.
    pub fn new() -> FileWatcher {
        let (tx, events) = channel();
        let waker: Arc<Mutex<Option<egui::Context>>> = Arc::default();
        let wake = waker.clone();
        let (watcher, error) =
            match notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
                // Reads (the editor's own, a validator's, a viewer's) change nothing: they neither
                // queue an event nor wake the window.
                if matches!(&e, Ok(event) if matches!(event.kind, EventKind::Access(_))) {
                    return;
                }
                let _ = tx.send(e);
                if let Ok(ctx) = wake.lock()
                    && let Some(ctx) = ctx.as_ref()
                {
                    ctx.request_repaint();
                }
            }) {
                Ok(w) => (Some(w), None),
                Err(e) => (
                    None,
                    Some(format!("files are not watched for changes: {e}")),
                ),
            };
        FileWatcher {
            watcher,
            events,
            waker,
            files: HashSet::new(),
            folders: HashSet::new(),
            settling: HashMap::new(),
            settle: SETTLE,
            error,
        }
    }

    /// Wakes `ctx` (asks for a frame) whenever the system reports a change, so an idle window
    /// takes a re-export in without polling.
    pub fn wake(&self, ctx: &egui::Context) {
        if let Ok(mut waker) = self.waker.lock()
            && waker.is_none()
        {
            *waker = Some(ctx.clone());
        }
    }

    /// Watches exactly `paths` (the open documents' files) from now on: the folders of new
    /// ones are added, folders no open file is in any more are dropped. Cheap when nothing
    /// changed.
    pub fn watch<'a>(&mut self, paths: impl IntoIterator<Item = &'a Path>) {
        let files: HashSet<PathBuf> = paths
            .into_iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()))
            .collect();
        if files == self.files {
            return;
        }
        let folders: HashSet<PathBuf> = files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        if let Some(w) = &mut self.watcher {
            for gone in self.folders.difference(&folders) {
                let _ = w.unwatch(gone);
            }
            for new in folders.difference(&self.folders) {
                if let Err(e) = w.watch(new, RecursiveMode::NonRecursive) {
                    self.error = Some(format!("{} is not watched for changes: {e}", new.display()));
                }
            }
        }
        self.settling.retain(|f, _| files.contains(f));
        self.files = files;
        self.folders = folders;
    }

    /// Takes in what the system reported and returns the watched files that changed and have
    /// since settled (each once per change), as canonical paths.
    pub fn poll(&mut self, now: Instant) -> Vec<PathBuf> {
        while let Ok(event) = self.events.try_recv() {
            let Ok(event) = event else {
                continue;
            };
            for path in event.paths {
                if self.files.contains(&path) {
                    let stamp = FileStamp::of(&path);
                    self.settling.insert(path, (stamp, now));
                }
            }
        }
        let mut settled = Vec::new();
        let settle = self.settle;
        self.settling.retain(|path, (seen, since)| {
            let stamp = FileStamp::of(path);
            if stamp != *seen {
                *seen = stamp;
                *since = now;
                return true;
            }
            let quiet = now.duration_since(*since);
            if stamp.is_some() && quiet >= settle {
                settled.push(path.clone());
                return false;
            }
            // A file that was deleted (and not written again) is given up after a while: the
            // open document stays as it is.
            stamp.is_some() || quiet < GONE
        });
        settled.sort();
        settled
    }

    /// Puts `path` back to settling (its read failed: wait until it changes again and settles).
    pub fn recheck(&mut self, path: &Path, now: Instant) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if self.files.contains(&path) {
            let stamp = FileStamp::of(&path);
            self.settling.insert(path, (stamp, now));
        }
    }

    /// True while changed files wait to settle (the app should look again soon).
    pub fn busy(&self) -> bool {
        !self.settling.is_empty()
    }

    /// Sets how long a changed file must stay unchanged (tests use a short time).
    pub fn set_settle(&mut self, settle: Duration) {
        self.settle = settle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Polls until `want` files settled or two seconds passed.
    fn settled(w: &mut FileWatcher) -> Vec<PathBuf> {
        let start = Instant::now();
        loop {
            let got = w.poll(Instant::now());
            if !got.is_empty() || start.elapsed() > Duration::from_secs(2) {
                return got;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_rewrite_and_a_rename_over_the_file_are_reported_once_settled() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = std::fs::canonicalize(dir.path()).unwrap();
        let clip = dir_path.join("clip.json");
        let other = dir_path.join("other.json");
        std::fs::write(&clip, "[]").unwrap();
        std::fs::write(&other, "[]").unwrap();
        let mut w = FileWatcher::new();
        assert!(w.error.is_none(), "{:?}", w.error);
        w.set_settle(Duration::from_millis(100));
        w.watch([clip.as_path()]);
        // Another file in the folder is not reported.
        std::fs::write(&other, "[1]").unwrap();
        assert!(settled(&mut w).is_empty());
        // A rewrite in place.
        std::fs::write(&clip, "[1]").unwrap();
        assert_eq!(settled(&mut w), vec![clip.clone()]);
        // Reported once.
        std::thread::sleep(Duration::from_millis(150));
        assert!(w.poll(Instant::now()).is_empty());
        // A new file renamed over it (how many exporters save).
        let tmp = dir_path.join(".clip.json.tmp");
        std::fs::write(&tmp, "[1,2]").unwrap();
        std::fs::rename(&tmp, &clip).unwrap();
        assert_eq!(settled(&mut w), vec![clip.clone()]);
        // A file that keeps changing does not settle.
        let start = Instant::now();
        let mut seen = Vec::new();
        while start.elapsed() < Duration::from_millis(400) {
            std::fs::write(&clip, format!("[{}]", start.elapsed().as_micros())).unwrap();
            seen.extend(w.poll(Instant::now()));
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(seen.is_empty(), "{seen:?}");
        assert_eq!(settled(&mut w), vec![clip.clone()]);
        // Deleted: not reported, and given up after a while.
        std::fs::remove_file(&clip).unwrap();
        assert!(settled(&mut w).is_empty());
        assert!(w.busy());
        assert!(w.poll(Instant::now() + GONE + GONE).is_empty());
        assert!(!w.busy());
        std::fs::write(&clip, "[2]").unwrap();
        assert_eq!(settled(&mut w), vec![clip.clone()]);
        // Not watched any more: not reported.
        w.watch(std::iter::empty());
        std::fs::write(&clip, "[3]").unwrap();
        assert!(settled(&mut w).is_empty());
    }
}
