//! Progress and cancellation of a long read, shared between the reading thread and the UI.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How far a read has got (bytes scanned of the total) and whether it should stop.
///
/// The reader updates it as it passes each unit of work; another thread reads the fraction for
/// a progress bar and can [`cancel`](LoadProgress::cancel), after which the read stops at the
/// next unit of work (track, layer, channel, node) and returns a
/// [`Cancelled`](super::ReadErrorKind::Cancelled) error.
#[derive(Debug, Default)]
pub struct LoadProgress {
    done: AtomicUsize,
    total: AtomicUsize,
    cancelled: AtomicBool,
}

impl LoadProgress {
    /// A fresh progress: nothing read, not cancelled.
    pub fn new() -> LoadProgress {
        LoadProgress::default()
    }

    /// The fraction read so far, 0 to 1 (0 until the size is known).
    pub fn fraction(&self) -> f32 {
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            return 0.0;
        }
        (self.done.load(Ordering::Relaxed) as f64 / total as f64).clamp(0.0, 1.0) as f32
    }

    /// Asks the read to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](LoadProgress::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Sets the total number of bytes to read.
    pub(crate) fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// Records that the scan reached byte `done`.
    pub(crate) fn advance_to(&self, done: usize) {
        self.done.fetch_max(done, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::formats::{ReadOptions, read_file_with};

    fn big_file(dir: &std::path::Path) -> std::path::PathBuf {
        let mut text = String::from(r#"{"name":"big","duration":-1,"tracks":["#);
        for t in 0..200 {
            if t > 0 {
                text.push(',');
            }
            text.push_str(&format!(
                r#"{{"name":"n{t}.position","type":"vector","times":[0,1,2],"values":[0,0,0,1,1,1,2,2,2]}}"#
            ));
        }
        text.push_str("]}");
        let path = dir.join("big.json");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_finished_read_reports_everything_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = big_file(dir.path());
        let progress = Arc::new(LoadProgress::new());
        assert_eq!(progress.fraction(), 0.0);
        let opts = ReadOptions::default().with_progress(progress.clone());
        let doc = read_file_with(&path, &opts).unwrap();
        assert_eq!(doc.clips[0].tracks.len(), 200);
        assert_eq!(progress.fraction(), 1.0);
    }

    #[test]
    fn a_cancelled_read_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = big_file(dir.path());
        let progress = Arc::new(LoadProgress::new());
        progress.cancel();
        let opts = ReadOptions::default().with_progress(progress.clone());
        let err = read_file_with(&path, &opts).unwrap_err();
        assert!(err.is_cancelled());
        assert!(err.to_string().contains("big.json"), "{err}");
    }
}
