//! The bytes of a glTF file's buffers: from `data:` URIs, files beside the glTF file, or the GLB
//! BIN chunk, each cut to its `byteLength`; an `EXT_meshopt_compression` fallback buffer without
//! data starts as zeros and holds what its compressed views decode to
//! ([`decompress`](super::pack::decompress)).

use std::path::Path;

use rayon::prelude::*;

use serde_json::{Map, Value};

use super::glb::BinChunk;
use super::pack::decompress::{MAX_FALLBACK, is_fallback};
use super::schema::GltfJson;
use super::uri;
use crate::formats::json::Located;

/// The bytes of every buffer, truncated to its `byteLength`.
pub(crate) fn load(
    json: &GltfJson,
    root: &Map<String, Value>,
    mut bin: BinChunk<'_>,
    folder: &Path,
) -> Result<Vec<Vec<u8>>, Located> {
    let mut out = Vec::with_capacity(json.buffers.len());
    for i in 0..json.buffers.len() {
        out.push(load_one(json, root, i, &mut bin, folder)?);
    }
    Ok(out)
}

/// The bytes of every buffer that can be loaded (empty for the others), and for each buffer
/// why it cannot be, when it cannot: the lenient read behind `validate` checks everything that
/// does not need the missing bytes.
pub(crate) fn load_available(
    json: &GltfJson,
    root: &Map<String, Value>,
    mut bin: BinChunk<'_>,
    folder: &Path,
) -> (Vec<Vec<u8>>, Vec<Option<Located>>) {
    let mut bytes = Vec::with_capacity(json.buffers.len());
    let mut missing = Vec::with_capacity(json.buffers.len());
    for i in 0..json.buffers.len() {
        match load_one(json, root, i, &mut bin, folder) {
            Ok(data) => {
                bytes.push(data);
                missing.push(None);
            }
            Err(e) => {
                bytes.push(Vec::new());
                missing.push(Some(e));
            }
        }
    }
    (bytes, missing)
}

/// The bytes of buffer `i`, truncated to its `byteLength`.
fn load_one(
    json: &GltfJson,
    root: &Map<String, Value>,
    i: usize,
    bin: &mut BinChunk<'_>,
    folder: &Path,
) -> Result<Vec<u8>, Located> {
    let buffer = &json.buffers[i];
    let path = format!("buffers[{i}]");
    let fallback = root
        .get("buffers")
        .and_then(|b| b.get(i))
        .is_some_and(is_fallback);
    let mut data = match (&buffer.uri, bin.is_present()) {
        (None, _) if fallback && (i > 0 || !bin.is_present()) => {
            let length = buffer.byte_length.0;
            if length > MAX_FALLBACK {
                return Err(Located::new(
                    format!("{path}.byteLength"),
                    format!("a fallback buffer of {length} bytes is more than clipscope reads"),
                ));
            }
            vec![0u8; length as usize]
        }
        (Some(u), _) => {
            uri::read(u, folder).map_err(|e| Located::new(format!("{path}.uri"), e.to_string()))?
        }
        (None, true) if i == 0 => take_bytes(bin),
        (None, false) if i == 0 => {
            return Err(Located::new(
                format!("{path}.uri"),
                "the buffer has no uri and there is no GLB BIN chunk to take its bytes from",
            ));
        }
        (None, _) => {
            return Err(Located::new(
                format!("{path}.uri"),
                "the buffer has no uri (only the first buffer of a GLB file uses the BIN chunk)",
            ));
        }
    };
    let length = buffer.byte_length.0;
    if (data.len() as u64) < length {
        return Err(Located::new(
            format!("{path}.byteLength"),
            format!(
                "byteLength is {length} but the data has {} bytes",
                data.len()
            ),
        ));
    }
    data.truncate(length as usize);
    Ok(data)
}

/// The BIN chunk's bytes as a buffer of their own (copied from the file, or taken), the first
/// time; empty after.
fn take_bytes(bin: &mut BinChunk<'_>) -> Vec<u8> {
    match std::mem::replace(bin, BinChunk::Absent) {
        BinChunk::Absent => Vec::new(),
        BinChunk::InFile(bytes) => copy_in_parallel(bytes),
        BinChunk::Detached(bytes) => bytes,
    }
}

/// A copy of `bytes` made on the worker threads, a megabyte a task: a long take's buffer is
/// megabytes of fresh pages, each faulted in by the thread that fills it.
fn copy_in_parallel(bytes: &[u8]) -> Vec<u8> {
    const PIECE: usize = 1 << 20;
    // Zeroed pages are only mapped, not touched, until a task copies into them.
    let mut out = vec![0u8; bytes.len()];
    out.par_chunks_mut(PIECE)
        .zip(bytes.par_chunks(PIECE))
        .for_each(|(o, b)| o.copy_from_slice(b));
    out
}
