//! The GLB container: a 12-byte header (`glTF`, version 2, total length), a JSON chunk and an
//! optional BIN chunk, each chunk an 8-byte header (length, type) and 4-byte aligned data.
//!
//! Written by hand rather than with `gltf::binary::Glb`: that parser subtracts the header size
//! from the declared length without a check (a length under 12 panics in debug builds) and
//! refuses the unknown chunk types the spec says to skip. Every bound here is checked and
//! every error says which part of the container is wrong.
//!
//! A file laid out as writers lay it out (the header, the JSON chunk, then a BIN chunk running
//! to the end) can be read in two parts: [`bin_data_start`] says where the BIN chunk's data
//! starts, and [`split_input`] hands that data to the buffers as it was read, where a whole
//! file's BIN chunk is copied out of its bytes.

use std::fmt;

use crate::formats::Format;
use crate::formats::codec::{DetachedBin, Input};
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

/// A GLB file's BIN chunk as the buffers get it.
pub(crate) enum BinChunk<'b> {
    /// There is none (a `.gltf` file, or a GLB without one).
    Absent,
    /// A slice of the file's bytes, copied into the first buffer.
    InFile(&'b [u8]),
    /// Read apart from the file's bytes: the first buffer takes it as it is.
    Detached(Vec<u8>),
}

impl BinChunk<'_> {
    /// Whether the file has a BIN chunk.
    pub(crate) fn is_present(&self) -> bool {
        !matches!(self, BinChunk::Absent)
    }
}

/// [`split`] of what is being read, with the BIN chunk as the buffers take it: the data read
/// apart from the file's bytes ([`Input::detached_bin`]), owned, else a slice of the file.
pub(crate) fn split_input<'i>(
    input: &Input<'i>,
) -> Result<(Format, &'i [u8], BinChunk<'i>), Located> {
    if let Some(bin) = input.detached_bin.and_then(DetachedBin::take) {
        // The file's reader checked the layout before it read the data apart.
        let json = detached_json(input.bytes, bin.len()).ok_or_else(|| {
            Located::syntax(
                "",
                "corrupt GLB: the BIN chunk read apart does not fit the header",
            )
        })?;
        return Ok((Format::Glb, json, BinChunk::Detached(bin)));
    }
    let (format, text, bin) = split(input.bytes)?;
    Ok((format, text, bin.map_or(BinChunk::Absent, BinChunk::InFile)))
}

/// Where the BIN chunk's data starts in a GLB file of `len` bytes laid out as writers lay it
/// out: the header, a JSON chunk, and a BIN chunk running to the end of the file. Found from
/// the file's first 20 bytes `first`; `None` for any other file. The data there can then be
/// read into a buffer of its own ([`read_file_with`](crate::formats::read_file_with)).
pub(crate) fn bin_data_start(first: &[u8], len: u64) -> Option<usize> {
    if first.len() < HEADER + CHUNK_HEADER
        || &first[..4] != MAGIC
        || u32_at(first, 4) != 2
        || u64::from(u32_at(first, 8)) != len
        || u32_at(first, 16) != JSON
    {
        return None;
    }
    let json_end = (HEADER + CHUNK_HEADER).checked_add(u32_at(first, 12) as usize)?;
    let start = (json_end.checked_add(3)? & !3).checked_add(CHUNK_HEADER)?;
    (start as u64 <= len).then_some(start)
}

/// The JSON chunk of a GLB file read in two parts, `head` (up to the BIN chunk's data) and
/// that data (`bin_len` bytes, to the end of the file), when it is laid out as
/// [`bin_data_start`] says: what [`parse`] finds in the whole file. `None` otherwise.
pub(crate) fn detached_json(head: &[u8], bin_len: usize) -> Option<&[u8]> {
    let len = head.len().checked_add(bin_len)?;
    if bin_data_start(head, len as u64)? != head.len() {
        return None;
    }
    let at = head.len() - CHUNK_HEADER;
    if u32_at(head, at + 4) != BIN || u32_at(head, at) as usize != bin_len {
        return None;
    }
    let json = HEADER + CHUNK_HEADER;
    Some(&head[json..json + u32_at(head, 12) as usize])
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
    fn a_file_laid_out_as_writers_do_reads_the_same_with_its_bin_chunk_apart() {
        for (json, bin) in [
            (&b"{\"asset\":{}}"[..], &[1u8, 2, 3, 4, 5][..]),
            (b"{}", &[7; 64]),
            (b"{ }", &[]),
        ] {
            let file = build(json, Some(bin));
            let start = bin_data_start(&file[..20], file.len() as u64).unwrap();
            let (head, data) = file.split_at(start);
            let whole = parse(&file).unwrap();
            assert_eq!(whole.bin, Some(data));
            assert_eq!(detached_json(head, data.len()), Some(whole.json));
            // A head that does not match the data read apart is not taken.
            assert_eq!(detached_json(head, data.len() + 4), None);
            assert_eq!(detached_json(&head[..head.len() - 1], data.len()), None);
        }
    }

    #[test]
    fn other_layouts_are_read_whole() {
        let file = build(b"{}", Some(&[9; 8]));
        let len = file.len() as u64;
        // Not a GLB, another version, a length that is not the file's, no BIN chunk.
        assert_eq!(
            bin_data_start(b"{\"asset\":{\"version\":\"2.0\"}}", 30),
            None
        );
        let mut v1 = file.clone();
        v1[4] = 1;
        assert_eq!(bin_data_start(&v1[..20], len), None);
        assert_eq!(bin_data_start(&file[..20], len + 4), None);
        assert_eq!(bin_data_start(&file[..19], len), None);
        let json_only = build(b"{}", None);
        assert_eq!(
            bin_data_start(&json_only[..20], json_only.len() as u64),
            None
        );
        // A chunk after the BIN chunk: the data does not run to the end.
        let mut extra = file.clone();
        extra.extend_from_slice(&4u32.to_le_bytes());
        extra.extend_from_slice(b"XTRA");
        extra.extend_from_slice(&[0; 4]);
        let total = extra.len() as u32;
        extra[8..12].copy_from_slice(&total.to_le_bytes());
        let start = bin_data_start(&extra[..20], extra.len() as u64).unwrap();
        assert_eq!(detached_json(&extra[..start], extra.len() - start), None);
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
