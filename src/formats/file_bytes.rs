//! The bytes of an input file, mapped into memory rather than copied when that is possible.
//!
//! Large clip files are read once, front to back; mapping them (with the pages populated up
//! front) avoids copying megabytes into a fresh buffer and the page faults that buffer costs.
//! Empty files, pipes and anything else that cannot be mapped are read the ordinary way.

use std::fs::File;
use std::ops::Deref;
use std::path::Path;

/// The contents of a file: a read-only memory map or an owned buffer.
pub enum FileBytes {
    /// A read-only mapping of a regular file.
    Mapped(memmap2::Mmap),
    /// Bytes read into memory (empty files, pipes, special files).
    Owned(Vec<u8>),
}

impl FileBytes {
    /// Opens `path` and makes its bytes available.
    pub fn open(path: &Path) -> std::io::Result<FileBytes> {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_file() && meta.len() > 0 {
            // SAFETY: the map is read-only and private to this process. Another process
            // truncating the file while it is being parsed could make reads fault; clipscope
            // itself only ever replaces files by renaming, which leaves a mapping intact.
            if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
                return Ok(FileBytes::Mapped(map));
            }
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut &file, &mut bytes)?;
        Ok(FileBytes::Owned(bytes))
    }
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Owned(bytes) => bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FileBytes;

    #[test]
    fn maps_files_and_reads_empty_ones() {
        let dir = tempfile::tempdir().unwrap();
        let full = dir.path().join("full.json");
        std::fs::write(&full, b"[1,2,3]").unwrap();
        let bytes = FileBytes::open(&full).unwrap();
        assert!(matches!(bytes, FileBytes::Mapped(_)));
        assert_eq!(&*bytes, b"[1,2,3]");
        let empty = dir.path().join("empty.json");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(&*FileBytes::open(&empty).unwrap(), b"");
        assert!(FileBytes::open(&dir.path().join("missing.json")).is_err());
        // A directory is not a file: an error, not a panic.
        assert!(FileBytes::open(dir.path()).map(|b| b.len()).is_err());
    }
}
