//! Buffer URIs: what `buffers[i].uri` may point at, and reading it.
//!
//! Two kinds are read: `data:` URIs (base64, or percent-encoded text) and relative paths to a
//! file inside the glTF file's own folder (or a folder below it), percent-decoded. Everything
//! else is refused before any file is touched: absolute paths (`/etc/passwd`, `C:\…`), any
//! `..` that climbs out of the folder, and every other scheme (`http:`, `https:`, `file:`, …).
//! After joining, the path is resolved through symbolic links and must still lie inside the
//! folder, so a link cannot smuggle a read outside it either.

use std::path::{Component, Path, PathBuf};

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Base64 as data URIs use it: the standard alphabet, padding optional.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The base64 `data:` URI of `bytes` (`application/octet-stream`, as glTF writers use).
pub(crate) fn data_uri(bytes: &[u8]) -> String {
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// The bytes `uri` names, relative to `folder` (the glTF file's folder). The error is one line
/// naming the URI.
pub(crate) fn read(uri: &str, folder: &Path) -> Result<Vec<u8>, String> {
    if let Some(rest) = strip_scheme(uri, "data") {
        return decode_data(rest).map_err(|e| format!("bad data URI: {e}"));
    }
    let path = local_path(uri, folder)?;
    let canonical_folder = folder
        .canonicalize()
        .map_err(|e| format!("cannot read {uri:?}: folder {}: {e}", folder.display()))?;
    let canonical = path
        .canonicalize()
        .map_err(|e| format!("cannot read {uri:?} ({}): {e}", path.display()))?;
    if !canonical.starts_with(&canonical_folder) {
        return Err(format!(
            "refused {uri:?}: it resolves to {}, outside the file's folder",
            canonical.display()
        ));
    }
    // Read into memory (a mapping would fault if the file were truncated meanwhile), up to the
    // default file size limit.
    crate::formats::file_bytes::read_limited(
        &canonical,
        crate::formats::file_bytes::DEFAULT_MAX_FILE_SIZE,
    )
    .map_err(|e| format!("cannot read {uri:?} ({}): {e}", path.display()))
}

/// The file a relative `uri` names inside `folder`, or why it is refused.
pub(crate) fn local_path(uri: &str, folder: &Path) -> Result<PathBuf, String> {
    if let Some(scheme) = scheme(uri) {
        return Err(format!(
            "refused {uri:?}: only data: URIs and relative paths inside the file's folder are \
             read, not {scheme}: URIs"
        ));
    }
    // A query or fragment is not part of the file name.
    let path_part = uri.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path_part).map_err(|e| format!("refused {uri:?}: {e}"))?;
    let text = String::from_utf8(decoded)
        .map_err(|_| format!("refused {uri:?}: the decoded path is not UTF-8"))?;
    if text.is_empty() {
        return Err("an empty URI names no file".into());
    }
    if text.starts_with(['/', '\\']) || Path::new(&text).has_root() {
        return Err(format!(
            "refused {uri:?}: an absolute path; only relative paths inside the file's folder \
             are read"
        ));
    }
    if text.contains('\0') {
        return Err(format!("refused {uri:?}: the path contains a NUL byte"));
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in text.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!(
                        "refused {uri:?}: \"..\" leads outside the file's folder"
                    ));
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
            return Err(format!(
                "refused {uri:?}: {part:?} is not a plain file name"
            ));
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
fn decode_data(rest: &str) -> Result<Vec<u8>, String> {
    let (header, payload) = rest
        .split_once(',')
        .ok_or_else(|| "no ',' before the data".to_string())?;
    if header
        .rsplit(';')
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("base64"))
    {
        BASE64
            .decode(payload.trim_end())
            .map_err(|e| format!("invalid base64 ({e})"))
    } else {
        percent_decode(payload)
    }
}

/// `%XX` escapes decoded; a `%` not followed by two hex digits is an error.
fn percent_decode(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad percent escape at character {i}"))?;
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
            let e = local_path(uri, folder).unwrap_err();
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
                .contains("missing.bin")
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.bin"), inner.join("link.bin"))
                .unwrap();
            let e = read("link.bin", &inner).unwrap_err();
            assert!(e.contains("outside the file's folder"), "{e}");
        }
    }
}
