//! What a file looked like on disk when it was read or written, to tell later whether another
//! program changed it since: its size, modification time and (on Unix) device and inode, so a
//! file replaced by a rename is seen as changed even when size and time happen to match.

use std::path::Path;
use std::time::SystemTime;

/// A file's identity and version as the file system reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    /// Size in bytes.
    pub len: u64,
    /// Last modification time, where the system keeps one.
    pub modified: Option<SystemTime>,
    /// Device and inode (Unix), else zeros.
    pub id: (u64, u64),
}

impl FileStamp {
    /// The stamp of the file at `path` (links followed), or `None` when it cannot be read (it
    /// does not exist, say).
    pub fn of(path: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileStamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            id: file_id(&meta),
        })
    }
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_or_a_replacement_changes_the_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clip.json");
        assert_eq!(FileStamp::of(&path), None);
        std::fs::write(&path, b"first").unwrap();
        let first = FileStamp::of(&path).unwrap();
        assert_eq!(FileStamp::of(&path), Some(first));
        // Same size, replaced by a rename: another inode.
        let other = dir.path().join("other.json");
        std::fs::write(&other, b"later").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let second = FileStamp::of(&path).unwrap();
        assert_ne!(first, second);
        assert_eq!(second.len, 5);
    }
}
