//! Reading a file's bytes into memory, safely while other programs rewrite it, and only up to
//! a size limit.
//!
//! Files are read into an owned buffer, never memory-mapped: a mapping of a file that an
//! exporter truncates or rewrites in place while clipscope parses it faults (SIGBUS) and takes
//! the whole process down, where a read simply sees a shorter (or different) file and the
//! reader reports it like any other broken file. Reading costs one copy (a few milliseconds for
//! a 13 MB take), which is small next to parsing it; a large regular file is read in one piece
//! per worker thread, so that copy and the fresh buffer's page faults are shared out. A large
//! GLB file can have its BIN chunk's data read into a buffer of its own
//! ([`read_limited_detaching`]), which the glTF reader keeps instead of copying it again.
//!
//! Parsing needs about three times a file's size in memory, so files larger than the limit
//! ([`ReadOptions::max_file_size`](super::ReadOptions::max_file_size),
//! [`DEFAULT_MAX_FILE_SIZE`] unless changed) are refused with a
//! [`ReadErrorKind::TooLarge`](super::ReadErrorKind::TooLarge) error before anything is read.
//! The limit is checked against the size the file has when opened and again while reading, so a
//! file that grows during the read, or a pipe, cannot exceed it either.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The largest file read by default: 512 MiB (parsing it takes about 1.5 GiB of memory).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 512 << 20;

/// Why a file's bytes could not be had.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file is larger than `limit` bytes (`size` is its size, or a lower bound for a file
    /// that grew while being read).
    TooLarge {
        /// The file's size in bytes (at least).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

impl std::fmt::Display for FileReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileReadError::Io(e) => write!(f, "cannot read file: {e}"),
            FileReadError::TooLarge { size, limit } => write!(
                f,
                "the file is {}, larger than the {} clipscope reads (--max-file-size)",
                human_size(*size),
                human_size(*limit)
            ),
        }
    }
}

impl std::error::Error for FileReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileReadError::Io(e) => Some(e),
            FileReadError::TooLarge { .. } => None,
        }
    }
}

impl From<std::io::Error> for FileReadError {
    fn from(e: std::io::Error) -> FileReadError {
        FileReadError::Io(e)
    }
}

/// The bytes of the file at `path`, read into memory, or an error when it cannot be read or
/// holds more than `limit` bytes. A folder is an error, not an empty file.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, FileReadError> {
    match read_limited_detaching(path, limit, |_, _| None)? {
        FileBytes::Whole(bytes) => Ok(bytes),
        // Not asked for: nothing is read apart.
        FileBytes::Detached { mut head, tail } => {
            head.extend_from_slice(&tail);
            Ok(head)
        }
    }
}

/// A file's bytes as [`read_limited_detaching`] reads them.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FileBytes {
    /// The whole file in one buffer.
    Whole(Vec<u8>),
    /// The file up to where the caller asked (`head`), and the rest in a buffer of its own.
    Detached {
        /// The file's first bytes.
        head: Vec<u8>,
        /// The rest, to the end of the file.
        tail: Vec<u8>,
    },
}

/// [`read_limited`], but for a large regular file where `detach(first 20 bytes, size)` gives
/// an offset, the bytes from there on are read into a buffer of their own (a GLB file's BIN
/// chunk data, which its reader then keeps without copying it). The caller checks the head
/// again: the file may have been rewritten between the two reads.
pub(crate) fn read_limited_detaching(
    path: &Path,
    limit: u64,
    detach: impl Fn(&[u8], u64) -> Option<usize>,
) -> Result<FileBytes, FileReadError> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a folder").into());
    }
    if meta.is_file() && meta.len() > limit {
        return Err(FileReadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    // The size when opened is a hint only: the file may shrink or grow while it is read.
    let hint = if meta.is_file() { meta.len() } else { 0 };
    #[cfg(unix)]
    if hint >= PARALLEL_READ {
        if let Some((head, tail)) = read_detached(&file, hint, detach)? {
            return Ok(FileBytes::Detached { head, tail });
        }
        if let Some(bytes) = read_in_pieces(&file, 0, hint)? {
            return Ok(FileBytes::Whole(bytes));
        }
    }
    #[cfg(not(unix))]
    let _ = detach;
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(FileBytes::Whole(bytes))
}

/// The `len` bytes of `file` (a regular file) in two buffers, split where `detach` says from
/// the first 20 bytes; the tail is read in pieces on the worker threads. `None` when `detach`
/// gives no offset or the file is no longer `len` bytes long.
#[cfg(unix)]
fn read_detached(
    file: &File,
    len: u64,
    detach: impl Fn(&[u8], u64) -> Option<usize>,
) -> std::io::Result<Option<(Vec<u8>, Vec<u8>)>> {
    use std::os::unix::fs::FileExt;
    let exact = |buf: &mut [u8], at: u64| match file.read_exact_at(buf, at) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    };
    let mut first = [0u8; 20];
    if !exact(&mut first, 0)? {
        return Ok(None);
    }
    let Some(at) = detach(&first, len).filter(|&at| at as u64 <= len) else {
        return Ok(None);
    };
    let mut head = vec![0u8; at];
    if !exact(&mut head, 0)? {
        return Ok(None);
    }
    Ok(read_in_pieces(file, at as u64, len - at as u64)?.map(|tail| (head, tail)))
}

/// Files at least this large are read in pieces on the worker threads ([`read_in_pieces`]).
#[cfg(unix)]
const PARALLEL_READ: u64 = 4 << 20;

/// The `len` bytes of `file` (a regular file `offset + len` bytes long) from `offset` on, read
/// in one piece per worker thread: each thread's share of the kernel's copy, and of the faults
/// of the fresh buffer, runs at once with the others (a 7 MB take reads in half the time on two cores). `None` when the file
/// is no longer `len` bytes long (it shrank or grew since it was opened): the caller then
/// reads it as a stream.
#[cfg(unix)]
fn read_in_pieces(file: &File, offset: u64, len: u64) -> std::io::Result<Option<Vec<u8>>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    let Ok(n) = usize::try_from(len) else {
        return Ok(None);
    };
    // Zeroed pages are only mapped, not touched: each thread faults in its own piece.
    let mut bytes = vec![0u8; n];
    let piece = n.div_ceil(rayon::current_num_threads().max(1)).max(1);
    let read = bytes
        .par_chunks_mut(piece)
        .enumerate()
        .try_for_each(|(i, chunk)| file.read_exact_at(chunk, offset + (i * piece) as u64));
    match read {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    // Grown since it was opened: a byte past the end.
    let grown = file.read_at(&mut [0u8], offset + len)? > 0;
    Ok((!grown).then_some(bytes))
}

/// `bytes` for people: `1.2 GB`, `512 MiB` for powers of two, `800 bytes`.
pub fn human_size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        return format!("{} MiB", bytes / MIB);
    }
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_files_and_refuses_folders_missing_and_oversized_ones() {
        let dir = tempfile::tempdir().unwrap();
        let full = dir.path().join("full.json");
        std::fs::write(&full, b"[1,2,3]").unwrap();
        assert_eq!(read_limited(&full, 100).unwrap(), b"[1,2,3]");
        let empty = dir.path().join("empty.json");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(read_limited(&empty, 100).unwrap(), b"");
        assert!(matches!(
            read_limited(&dir.path().join("missing.json"), 100),
            Err(FileReadError::Io(_))
        ));
        assert!(matches!(
            read_limited(dir.path(), 100),
            Err(FileReadError::Io(_))
        ));
        match read_limited(&full, 6) {
            Err(e @ FileReadError::TooLarge { size: 7, limit: 6 }) => assert_eq!(
                e.to_string(),
                "the file is 7 bytes, larger than the 6 bytes clipscope reads (--max-file-size)"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(read_limited(&full, 7).unwrap().len(), 7);
    }

    #[cfg(unix)]
    #[test]
    fn a_large_file_s_tail_is_read_apart_where_the_caller_says() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.glb");
        let data: Vec<u8> = (0..PARALLEL_READ as usize + 4321)
            .map(|i| (i * 13 % 251) as u8)
            .collect();
        std::fs::write(&path, &data).unwrap();
        let at_100 = |first: &[u8], len: u64| {
            assert_eq!((first, len), (&data[..20], data.len() as u64));
            Some(100)
        };
        assert_eq!(
            read_limited_detaching(&path, u64::MAX, at_100).unwrap(),
            FileBytes::Detached {
                head: data[..100].to_vec(),
                tail: data[100..].to_vec()
            }
        );
        // No offset, one past the end, or a small file: read whole.
        let whole = FileBytes::Whole(data.clone());
        assert_eq!(
            read_limited_detaching(&path, u64::MAX, |_, _| None).unwrap(),
            whole
        );
        let past = |_: &[u8], len: u64| Some(len as usize + 1);
        assert_eq!(
            read_limited_detaching(&path, u64::MAX, past).unwrap(),
            whole
        );
        let small = dir.path().join("small.glb");
        std::fs::write(&small, &data[..1000]).unwrap();
        assert_eq!(
            read_limited_detaching(&small, u64::MAX, |_, _| Some(10)).unwrap(),
            FileBytes::Whole(data[..1000].to_vec())
        );
        // The limit holds as for a whole read.
        assert!(matches!(
            read_limited_detaching(&path, 1000, |_, _| Some(10)),
            Err(FileReadError::TooLarge { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_large_file_is_read_in_pieces_and_one_that_changed_size_as_a_stream() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.glb");
        let data: Vec<u8> = (0..PARALLEL_READ as usize + 12_345)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        std::fs::write(&path, &data).unwrap();
        assert_eq!(read_limited(&path, u64::MAX).unwrap(), data);
        let file = File::open(&path).unwrap();
        let len = data.len() as u64;
        assert_eq!(
            read_in_pieces(&file, 0, len).unwrap().as_deref(),
            Some(&data[..])
        );
        // Shorter or longer than when it was opened: no pieces, the caller streams it.
        assert_eq!(read_in_pieces(&file, 0, len + 1).unwrap(), None);
        assert_eq!(read_in_pieces(&file, 0, len - 1).unwrap(), None);
        assert!(matches!(
            read_limited(&path, len - 1),
            Err(FileReadError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_huge_sparse_file_is_refused_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let huge = dir.path().join("huge.json");
        let f = File::create(&huge).unwrap();
        f.set_len(1_000_000_000).unwrap();
        let e = read_limited(&huge, DEFAULT_MAX_FILE_SIZE).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the file is 1.0 GB, larger than the 512 MiB clipscope reads (--max-file-size)"
        );
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_size(800), "800 bytes");
        assert_eq!(human_size(13_141), "13.1 kB");
        assert_eq!(human_size(12_944_147), "12.9 MB");
        assert_eq!(human_size(512 << 20), "512 MiB");
    }
}
