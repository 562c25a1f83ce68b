//! The one atomic file writer: a temporary file next to the target, then a rename.
//!
//! Readers of the target see either the old file or the complete new one, never a partial
//! write; if anything fails the temporary file is removed and the target is left untouched.

use std::io::Write;
use std::path::Path;

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
    let dir = match path.parent() {
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
    tmp.as_file().sync_all()?;
    let permissions = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(perm) = permissions {
        tmp.as_file().set_permissions(perm)?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
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

    #[test]
    fn failure_leaves_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-folder").join("out.json");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(!path.exists());
    }
}
