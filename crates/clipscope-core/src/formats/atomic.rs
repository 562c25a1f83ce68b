//! The one atomic file writer: a temporary file next to the target, then a rename.
//!
//! Readers of the target see either the old file or the complete new one, never a partial
//! write, and a crash or kill at any point leaves one of the two: the new bytes are flushed to
//! disk before the rename, and the folder after it (so the rename itself survives a power
//! loss). If anything fails the temporary file is removed and the target is left untouched.
//! The target keeps its permissions, and a symbolic link is written through: its target file
//! is replaced, the link stays a link.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in the same folder is written, flushed
/// to disk and renamed over `path`. An existing target keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Like [`write_atomic`], for text produced bit by bit: `write` streams it into the temporary
/// file (through a buffer); only when it succeeds is the file flushed, synced and renamed.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = through_links(path)?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".clipscope-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        write(&mut buffered)?;
        buffered.flush()?;
    }
    let permissions = match std::fs::metadata(&target) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(perm) = permissions {
        tmp.as_file().set_permissions(perm)?;
    }
    // The bytes reach the disk before the name points at them…
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    // …and the folder's new entry after the rename.
    sync_folder(dir)
}

/// The file `path` names after following symbolic links (a chain of at most 40, like the
/// kernel's limit): writing replaces that file and leaves the links in place. A path that is
/// not a link (or does not exist yet) is itself.
pub fn through_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Flushes a folder's entries (a rename into it) to disk.
#[cfg(unix)]
fn sync_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Elsewhere folders cannot be opened to be synced; the rename is as durable as the system
/// makes it.
#[cfg(not(unix))]
fn sync_folder(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// New files get `rw-r--r--` on Unix (temporary files start out private).
#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

/// Elsewhere the temporary file's permissions are fine.
#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_atomic(&path, b"first version, long").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.json")]);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_and_links_written_through() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        write_atomic(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let sub = dir.path().join("links");
        std::fs::create_dir(&sub).unwrap();
        let link = sub.join("clip.json");
        std::os::unix::fs::symlink("../real.json", &link).unwrap();
        let chained = dir.path().join("chained.json");
        std::os::unix::fs::symlink(&link, &chained).unwrap();
        write_atomic(&chained, b"new through two links").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            std::fs::symlink_metadata(&chained)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new through two links");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A new file gets rw-r--r--, not the temporary file's private mode.
        let fresh = dir.path().join("fresh.json");
        write_atomic(&fresh, b"x").unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
        // A loop of links is an error, not a hang.
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(write_atomic(&a, b"x").is_err());
    }

    #[test]
    fn failure_leaves_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-folder").join("out.json");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(!path.exists());
    }
}
