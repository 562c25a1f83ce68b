//! Buffer URIs: what `buffers[i].uri` may point at, and reading it.
//!
//! Two kinds are read: `data:` URIs (base64, or percent-encoded text) and relative paths to a
//! file inside the glTF file's own folder (or a folder below it), percent-decoded. Everything
//! else is refused before any file is touched: absolute paths (`/etc/passwd`, `C:\…`), any
//! `..` that climbs out of the folder, and every other scheme (`http:`, `https:`, `file:`, …).
//! After joining, the path is resolved through symbolic links and must still lie inside the
//! folder, so a link cannot smuggle a read outside it either.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::formats::file_bytes::FileReadError;

/// Base64 as data URIs use it: the standard alphabet, padding optional.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Why the bytes a buffer URI names could not be had. Each reads as one line naming the URI.
#[derive(Debug)]
pub(crate) enum UriError {
    /// A `data:` URI whose payload does not decode.
    BadData(DataError),
    /// A URI refused before any file is touched: the URI and why.
    Refused(String, Refusal),
    /// An empty URI.
    Empty,
    /// The glTF file's folder cannot be resolved.
    Folder {
        /// The URI.
        uri: String,
        /// The folder.
        folder: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The file the URI names cannot be resolved.
    Resolve {
        /// The URI.
        uri: String,
        /// The file it names.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The file resolves (through links) to a place outside the folder.
    Outside {
        /// The URI.
        uri: String,
        /// Where it resolves to.
        resolved: PathBuf,
    },
    /// The file cannot be read, or is over the size limit.
    Read {
        /// The URI.
        uri: String,
        /// The file it names.
        path: PathBuf,
        /// Why.
        source: FileReadError,
    },
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UriError::BadData(e) => write!(f, "bad data URI: {e}"),
            UriError::Refused(uri, why) => write!(f, "refused {uri:?}: {why}"),
            UriError::Empty => f.write_str("an empty URI names no file"),
            UriError::Folder {
                uri,
                folder,
                source,
            } => write!(
                f,
                "cannot read {uri:?}: folder {}: {source}",
                folder.display()
            ),
            UriError::Resolve { uri, path, source } => {
                write!(f, "cannot read {uri:?} ({}): {source}", path.display())
            }
            UriError::Outside { uri, resolved } => write!(
                f,
                "refused {uri:?}: it resolves to {}, outside the file's folder",
                resolved.display()
            ),
            UriError::Read { uri, path, source } => {
                write!(f, "cannot read {uri:?} ({}): {source}", path.display())
            }
        }
    }
}

impl std::error::Error for UriError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UriError::BadData(e) => Some(e),
            UriError::Folder { source, .. } | UriError::Resolve { source, .. } => Some(source),
            UriError::Read { source, .. } => Some(source),
            UriError::Refused(..) | UriError::Empty | UriError::Outside { .. } => None,
        }
    }
}

/// Why a URI is refused before any file is touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A URI with a scheme other than `data:` (a Windows drive counts): the scheme.
    Scheme(String),
    /// A `%` escape that is not two hex digits.
    Escape(BadEscape),
    /// The decoded path is not UTF-8.
    NotUtf8,
    /// An absolute path.
    Absolute,
    /// A NUL byte in the path.
    Nul,
    /// `..` leads outside the folder.
    ClimbsOut,
    /// A part that is not a plain file name on this platform: the part.
    NotPlain(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Scheme(scheme) => write!(
                f,
                "only data: URIs and relative paths inside the file's folder are read, not \
                 {scheme}: URIs"
            ),
            Refusal::Escape(e) => e.fmt(f),
            Refusal::NotUtf8 => f.write_str("the decoded path is not UTF-8"),
            Refusal::Absolute => f.write_str(
                "an absolute path; only relative paths inside the file's folder are read",
            ),
            Refusal::Nul => f.write_str("the path contains a NUL byte"),
            Refusal::ClimbsOut => f.write_str("\"..\" leads outside the file's folder"),
            Refusal::NotPlain(part) => write!(f, "{part:?} is not a plain file name"),
        }
    }
}

/// Why the payload of a `data:` URI does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DataError {
    /// No `,` between the header and the data.
    NoComma,
    /// Invalid base64.
    Base64(base64::DecodeError),
    /// A bad percent escape in percent-encoded data.
    Escape(BadEscape),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::NoComma => f.write_str("no ',' before the data"),
            DataError::Base64(e) => write!(f, "invalid base64 ({e})"),
            DataError::Escape(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Base64(e) => Some(e),
            DataError::NoComma | DataError::Escape(_) => None,
        }
    }
}

/// A `%` not followed by two hex digits, at this character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BadEscape(usize);

impl fmt::Display for BadEscape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad percent escape at character {}", self.0)
    }
}

impl std::error::Error for BadEscape {}

/// The base64 `data:` URI of `bytes` (`application/octet-stream`, as glTF writers use).
pub(crate) fn data_uri(bytes: &[u8]) -> String {
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// The bytes `uri` names, relative to `folder` (the glTF file's folder).
pub(crate) fn read(uri: &str, folder: &Path) -> Result<Vec<u8>, UriError> {
    if let Some(rest) = strip_scheme(uri, "data") {
        return decode_data(rest).map_err(UriError::BadData);
    }
    let path = local_path(uri, folder)?;
    let canonical_folder = folder.canonicalize().map_err(|source| UriError::Folder {
        uri: uri.to_string(),
        folder: folder.to_path_buf(),
        source,
    })?;
    let canonical = path.canonicalize().map_err(|source| UriError::Resolve {
        uri: uri.to_string(),
        path: path.clone(),
        source,
    })?;
    if !canonical.starts_with(&canonical_folder) {
        return Err(UriError::Outside {
            uri: uri.to_string(),
            resolved: canonical,
        });
    }
    // Read into memory (a mapping would fault if the file were truncated meanwhile), up to the
    // default file size limit.
    crate::formats::file_bytes::read_limited(
        &canonical,
        crate::formats::file_bytes::DEFAULT_MAX_FILE_SIZE,
    )
    .map_err(|source| UriError::Read {
        uri: uri.to_string(),
        path,
        source,
    })
}

/// The file a relative `uri` names inside `folder`, or why it is refused.
pub(crate) fn local_path(uri: &str, folder: &Path) -> Result<PathBuf, UriError> {
    let refused = |why| UriError::Refused(uri.to_string(), why);
    if let Some(scheme) = scheme(uri) {
        return Err(refused(Refusal::Scheme(scheme.to_string())));
    }
    // A query or fragment is not part of the file name.
    let path_part = uri.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path_part).map_err(|e| refused(Refusal::Escape(e)))?;
    let text = String::from_utf8(decoded).map_err(|_| refused(Refusal::NotUtf8))?;
    if text.is_empty() {
        return Err(UriError::Empty);
    }
    if text.starts_with(['/', '\\']) || Path::new(&text).has_root() {
        return Err(refused(Refusal::Absolute));
    }
    if text.contains('\0') {
        return Err(refused(Refusal::Nul));
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in text.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(refused(Refusal::ClimbsOut));
                }
            }
            _ => parts.push(part),
        }
    }
    let mut path = folder.to_path_buf();
    for part in parts {
        // A part that is a prefix or root on this platform (`C:`) is not a plain name.
        if !matches!(
            Path::new(part).components().next(),
            Some(Component::Normal(_))
        ) || Path::new(part).components().count() != 1
        {
            return Err(refused(Refusal::NotPlain(part.to_string())));
        }
        path.push(part);
    }
    Ok(path)
}

/// The scheme of `uri` (`https` in `https://…`), if it has one: RFC 3986 `ALPHA *( ALPHA /
/// DIGIT / "+" / "-" / "." ) ":"`. A Windows drive (`C:`) counts as a scheme and is refused.
fn scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let name = &uri[..colon];
    let mut chars = name.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(name)
}

/// The part after `name:` when `uri` has that scheme (any case).
fn strip_scheme<'a>(uri: &'a str, name: &str) -> Option<&'a str> {
    let s = scheme(uri)?;
    s.eq_ignore_ascii_case(name).then(|| &uri[s.len() + 1..])
}

/// The bytes of a data URI after `data:`: `[mediatype][;base64],payload`.
fn decode_data(rest: &str) -> Result<Vec<u8>, DataError> {
    let (header, payload) = rest.split_once(',').ok_or(DataError::NoComma)?;
    if header
        .rsplit(';')
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("base64"))
    {
        BASE64.decode(payload.trim_end()).map_err(DataError::Base64)
    } else {
        percent_decode(payload).map_err(DataError::Escape)
    }
}

/// `%XX` escapes decoded; a `%` not followed by two hex digits is an error.
fn percent_decode(text: &str) -> Result<Vec<u8>, BadEscape> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(BadEscape(i))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_uris() {
        let uri = data_uri(&[0, 1, 2, 250]);
        assert_eq!(uri, "data:application/octet-stream;base64,AAEC+g==");
        assert_eq!(read(&uri, Path::new(".")).unwrap(), [0, 1, 2, 250]);
        let unpadded = "data:application/gltf-buffer;base64,AAEC+g";
        assert_eq!(read(unpadded, Path::new(".")).unwrap(), [0, 1, 2, 250]);
        assert_eq!(read("data:,a%20b", Path::new(".")).unwrap(), b"a b");
        assert!(
            read("data:;base64,@@@", Path::new("."))
                .unwrap_err()
                .to_string()
                .contains("base64")
        );
        assert!(read("data:nocomma", Path::new(".")).is_err());
    }

    #[test]
    fn refuses_everything_outside_the_folder() {
        let folder = Path::new("/some/models");
        for (uri, why) in [
            ("../secret.bin", "leads outside"),
            ("a/../../secret.bin", "leads outside"),
            ("%2E%2E/secret.bin", "leads outside"),
            ("/etc/passwd", "absolute path"),
            ("\\\\server\\share\\a.bin", "absolute path"),
            ("https://example.com/a.bin", "not https: URIs"),
            ("http://example.com/a.bin", "not http: URIs"),
            ("file:///etc/passwd", "not file: URIs"),
            ("C:\\Windows\\a.bin", "not C: URIs"),
            ("ftp:a.bin", "not ftp: URIs"),
            ("", "empty URI"),
            ("a%2", "bad percent escape"),
        ] {
            let e = local_path(uri, folder).unwrap_err().to_string();
            assert!(e.contains(why), "{uri}: {e}");
        }
        assert_eq!(
            local_path("sub/./a%20b.bin", folder).unwrap(),
            Path::new("/some/models/sub/a b.bin")
        );
        assert_eq!(
            local_path("sub/../a.bin?x=1", folder).unwrap(),
            Path::new("/some/models/a.bin")
        );
    }

    #[test]
    fn errors_say_why_and_keep_their_source() {
        use std::error::Error;
        let e = local_path("../a.bin", Path::new("/m")).unwrap_err();
        assert!(matches!(e, UriError::Refused(_, Refusal::ClimbsOut)));
        assert!(matches!(
            read("data:nocomma", Path::new(".")),
            Err(UriError::BadData(DataError::NoComma))
        ));
        let e = read("data:;base64,@@@", Path::new(".")).unwrap_err();
        assert!(
            e.source().and_then(Error::source).is_some(),
            "the base64 error"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = read("missing.bin", dir.path()).unwrap_err();
        assert!(matches!(e, UriError::Resolve { .. }));
        assert!(e.source().is_some(), "the I/O error");
    }

    #[test]
    fn reads_files_in_the_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("model");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(inner.join("a.bin"), [1, 2, 3]).unwrap();
        std::fs::write(dir.path().join("secret.bin"), [9]).unwrap();
        assert_eq!(read("a.bin", &inner).unwrap(), [1, 2, 3]);
        assert!(read("../secret.bin", &inner).is_err());
        assert!(
            read("missing.bin", &inner)
                .unwrap_err()
                .to_string()
                .contains("missing.bin")
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.bin"), inner.join("link.bin"))
                .unwrap();
            let e = read("link.bin", &inner).unwrap_err().to_string();
            assert!(e.contains("outside the file's folder"), "{e}");
        }
    }
}
