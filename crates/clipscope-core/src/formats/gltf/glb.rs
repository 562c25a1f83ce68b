//! The GLB container: a 12-byte header (`glTF`, version 2, total length), a JSON chunk and an
//! optional BIN chunk, each chunk an 8-byte header (length, type) and 4-byte aligned data.
//!
//! Written by hand rather than with `gltf::binary::Glb`: that parser subtracts the header size
//! from the declared length without a check (a length under 12 panics in debug builds) and
//! refuses the unknown chunk types the spec says to skip. Every bound here is checked and
//! every error says which part of the container is wrong.

use std::fmt;

use crate::formats::Format;
use crate::formats::json::Located;

/// The magic number at the start of a GLB file.
pub(crate) const MAGIC: &[u8; 4] = b"glTF";
/// The chunk type of the JSON chunk (`JSON` in ASCII).
const JSON: u32 = 0x4E4F_534A;
/// The chunk type of the binary buffer chunk (`BIN\0`).
const BIN: u32 = 0x004E_4942;
/// Bytes in the file header and in each chunk header.
const HEADER: usize = 12;
const CHUNK_HEADER: usize = 8;

/// The two chunks of a GLB file, borrowed from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Glb<'a> {
    /// The JSON text (trailing space padding included).
    pub json: &'a [u8],
    /// The BIN chunk's data (padding included), if the file has one.
    pub bin: Option<&'a [u8]>,
}

/// What is wrong with a GLB container (each reads as one line naming the part).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GlbError {
    /// Fewer bytes than the 12-byte header: the file's length.
    ShortHeader(usize),
    /// The file does not start with `glTF`.
    NotGlb,
    /// A container version other than 2.
    Version(u32),
    /// The header declares more bytes than the file has.
    LengthPastEnd {
        /// The declared length.
        length: usize,
        /// The file's length.
        file: usize,
    },
    /// The declared length leaves no room for the JSON chunk.
    LengthTooShort(usize),
    /// A chunk whose 8-byte header is cut off.
    ChunkHeaderCut {
        /// The chunk's index.
        chunk: usize,
        /// Its byte offset.
        at: usize,
    },
    /// A chunk that declares more bytes than remain.
    ChunkPastEnd {
        /// The chunk's index.
        chunk: usize,
        /// Its type.
        kind: u32,
        /// Its declared length.
        len: usize,
        /// The bytes that remain.
        remain: usize,
    },
    /// The first chunk is not JSON: its type.
    FirstNotJson(u32),
    /// A second JSON chunk: its index.
    SecondJson(usize),
    /// A second BIN chunk: its index.
    SecondBin(usize),
    /// No JSON chunk at all.
    NoJson,
}

impl fmt::Display for GlbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlbError::ShortHeader(len) => write!(
                f,
                "truncated GLB: {len} bytes, the header alone needs {HEADER}"
            ),
            GlbError::NotGlb => f.write_str("not a GLB file (it does not start with \"glTF\")"),
            GlbError::Version(version) => {
                write!(f, "GLB version {version} is not supported (only glTF 2.0)")
            }
            GlbError::LengthPastEnd { length, file } => write!(
                f,
                "truncated GLB: the header says {length} bytes, the file has {file}"
            ),
            GlbError::LengthTooShort(length) => write!(
                f,
                "corrupt GLB: the header's length {length} leaves no room for the JSON chunk"
            ),
            GlbError::ChunkHeaderCut { chunk, at } => write!(
                f,
                "truncated GLB: chunk {chunk} at byte {at} has no complete 8-byte header"
            ),
            GlbError::ChunkPastEnd {
                chunk,
                kind,
                len,
                remain,
            } => write!(
                f,
                "truncated GLB: chunk {chunk} ({}) says {len} bytes, only {remain} remain",
                chunk_name(*kind)
            ),
            GlbError::FirstNotJson(kind) => write!(
                f,
                "corrupt GLB: the first chunk is {}, not JSON",
                chunk_name(*kind)
            ),
            GlbError::SecondJson(chunk) => {
                write!(f, "corrupt GLB: chunk {chunk} is a second JSON chunk")
            }
            GlbError::SecondBin(chunk) => {
                write!(f, "corrupt GLB: chunk {chunk} is a second BIN chunk")
            }
            GlbError::NoJson => f.write_str("corrupt GLB: no JSON chunk"),
        }
    }
}

impl std::error::Error for GlbError {}

/// A little-endian `u32` at `at` (the caller checked the bounds).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Splits a GLB file into its chunks, or says (in one line) what is wrong with the container.
/// Bytes after the declared length are ignored; chunks of unknown type are skipped.
pub(crate) fn parse(bytes: &[u8]) -> Result<Glb<'_>, GlbError> {
    if bytes.len() < HEADER {
        return Err(GlbError::ShortHeader(bytes.len()));
    }
    if &bytes[..4] != MAGIC {
        return Err(GlbError::NotGlb);
    }
    let version = u32_at(bytes, 4);
    if version != 2 {
        return Err(GlbError::Version(version));
    }
    let length = u32_at(bytes, 8) as usize;
    if length > bytes.len() {
        return Err(GlbError::LengthPastEnd {
            length,
            file: bytes.len(),
        });
    }
    if length < HEADER + CHUNK_HEADER {
        return Err(GlbError::LengthTooShort(length));
    }
    let bytes = &bytes[..length];
    let mut at = HEADER;
    let mut json = None;
    let mut bin = None;
    let mut chunk = 0;
    while at < bytes.len() {
        if bytes.len() - at < CHUNK_HEADER {
            return Err(GlbError::ChunkHeaderCut { chunk, at });
        }
        let len = u32_at(bytes, at) as usize;
        let kind = u32_at(bytes, at + 4);
        let start = at + CHUNK_HEADER;
        if len > bytes.len() - start {
            return Err(GlbError::ChunkPastEnd {
                chunk,
                kind,
                len,
                remain: bytes.len() - start,
            });
        }
        let data = &bytes[start..start + len];
        match (chunk, kind) {
            (0, JSON) => json = Some(data),
            (0, _) => return Err(GlbError::FirstNotJson(kind)),
            (1, BIN) => bin = Some(data),
            (_, JSON) => return Err(GlbError::SecondJson(chunk)),
            (_, BIN) => return Err(GlbError::SecondBin(chunk)),
            _ => {} // unknown chunk types are skipped (glTF 2.0 §4.4.3.1)
        }
        // Chunks start on 4-byte boundaries; a writer that left the padding out still reads.
        at = (start + len).saturating_add(3) & !3;
        chunk += 1;
    }
    let json = json.ok_or(GlbError::NoJson)?;
    Ok(Glb { json, bin })
}

/// A chunk type for messages: `JSON`, `BIN`, or its four bytes.
fn chunk_name(kind: u32) -> String {
    match kind {
        JSON => "JSON".into(),
        BIN => "BIN".into(),
        _ => format!(
            "type {}",
            String::from_utf8_lossy(&kind.to_le_bytes()).escape_debug()
        ),
    }
}

/// A GLB file holding `json` (padded with spaces) and, when given, `bin` (padded with zeros).
pub(crate) fn build(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let json_len = json.len() + pad(json.len());
    let bin_len = bin.map(|b| b.len() + pad(b.len()));
    let total = HEADER + CHUNK_HEADER + json_len + bin_len.map_or(0, |l| CHUNK_HEADER + l);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(&JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(out.len() + pad(json.len()), b' ');
    if let (Some(bin), Some(len)) = (bin, bin_len) {
        out.extend_from_slice(&(len as u32).to_le_bytes());
        out.extend_from_slice(&BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(out.len() + pad(bin.len()), 0);
    }
    out
}

/// A file's container, its JSON text and its BIN chunk (GLB only).
pub(crate) type Parts<'b> = (Format, &'b [u8], Option<&'b [u8]>);

/// The container of `bytes`, its JSON text and its BIN chunk (GLB only).
pub(crate) fn split(bytes: &[u8]) -> Result<Parts<'_>, Located> {
    if bytes.starts_with(MAGIC) {
        let glb = parse(bytes).map_err(|e| Located::syntax("", e.to_string()))?;
        Ok((Format::Glb, glb.json, glb.bin))
    } else {
        Ok((Format::Gltf, bytes, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_then_parse() {
        let file = build(b"{\"asset\":{} }", Some(&[1, 2, 3, 4, 5]));
        assert_eq!(file.len() % 4, 0);
        assert_eq!(u32_at(&file, 8) as usize, file.len());
        let glb = parse(&file).unwrap();
        assert_eq!(glb.json, b"{\"asset\":{} }   ");
        assert_eq!(glb.bin, Some(&[1, 2, 3, 4, 5, 0, 0, 0][..]));
        let file = build(b"{}", None);
        assert_eq!(parse(&file).unwrap().bin, None);
    }

    #[test]
    fn skips_unknown_chunks() {
        let mut file = build(b"{}", Some(&[9; 4]));
        file.extend_from_slice(&4u32.to_le_bytes());
        file.extend_from_slice(b"XTRA");
        file.extend_from_slice(&[0; 4]);
        let len = file.len() as u32;
        file[8..12].copy_from_slice(&len.to_le_bytes());
        assert_eq!(parse(&file).unwrap().bin, Some(&[9; 4][..]));
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let file = build(b"{\"asset\":{\"version\":\"2.0\"}}", Some(&[7; 40]));
        for n in 0..file.len() {
            let mut cut = file[..n].to_vec();
            assert!(parse(&cut).is_err(), "{n} bytes");
            if n >= 12 {
                // Fix the declared length so the chunk checks are reached too.
                cut[8..12].copy_from_slice(&(n as u32).to_le_bytes());
                let _ = parse(&cut);
            }
        }
        assert!(parse(&file).is_ok());
    }

    #[test]
    fn clear_errors() {
        let mut file = build(b"{}", None);
        file[4] = 1;
        assert_eq!(parse(&file).unwrap_err(), GlbError::Version(1));
        assert_eq!(
            parse(&file).unwrap_err().to_string(),
            "GLB version 1 is not supported (only glTF 2.0)"
        );
        let mut file = build(b"{}", None);
        file[8..12].copy_from_slice(&4u32.to_le_bytes());
        assert!(parse(&file).unwrap_err().to_string().contains("length 4"));
        let mut file = build(b"{}", None);
        file[16..20].copy_from_slice(b"BIN\0");
        assert_eq!(
            parse(&file).unwrap_err().to_string(),
            "corrupt GLB: the first chunk is BIN, not JSON"
        );
        let mut file = build(b"{}", Some(&[1; 8]));
        let n = file.len();
        file[8..12].copy_from_slice(&((n - 4) as u32).to_le_bytes());
        assert_eq!(
            parse(&file[..n - 4]).unwrap_err().to_string(),
            "truncated GLB: chunk 1 (BIN) says 8 bytes, only 4 remain"
        );
        // Random garbage after a valid header never panics.
        let mut rng = clipscope_test_support::Rng::new(0x2545_f491);
        for _ in 0..2000 {
            let mut f = build(b"{}", Some(&[3; 12]));
            for _ in 0..4 {
                let state = rng.next_u64();
                let at = state as usize % f.len();
                f[at] = (state >> 8) as u8;
            }
            let _ = parse(&f);
        }
    }
}
