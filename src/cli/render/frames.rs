//! Frame sizes and file names for `render`: parsing `WxH`, numbering a sequence's files and
//! writing a PNG atomically.

#[cfg(any(feature = "gui", test))]
use std::path::{Path, PathBuf};

/// The largest side accepted on the command line (GPUs allow at least 8192).
const MAX_SIDE: u32 = 8192;

/// Parses `WIDTHxHEIGHT` (e.g. `640x480`; `X` and `×` also work).
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("{text:?} is not a size like 640x480"))?;
    let side = |s: &str| -> Result<u32, String> {
        let n: u32 = s
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a size like 640x480"))?;
        if n == 0 || n > MAX_SIDE {
            return Err(format!(
                "{text:?}: each side must be 1 to {MAX_SIDE} pixels"
            ));
        }
        Ok(n)
    };
    Ok((side(w)?, side(h)?))
}

/// `count` numbered paths from `pattern`: `out/frame.png` → `out/frame_000.png`,
/// `out/frame_001.png`, … (at least three digits; the extension defaults to `png`).
#[cfg(any(feature = "gui", test))]
pub fn numbered_paths(pattern: &Path, count: usize) -> Vec<PathBuf> {
    let stem = pattern
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "frame".to_string());
    let ext = pattern
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "png".to_string());
    let digits = count.saturating_sub(1).to_string().len().max(3);
    (0..count)
        .map(|i| pattern.with_file_name(format!("{stem}_{i:0digits$}.{ext}")))
        .collect()
}

/// Encodes `image` as PNG and writes it atomically.
#[cfg(feature = "gui")]
pub fn write_png(path: &Path, image: &image::RgbaImage) -> Result<(), String> {
    use image::ImageEncoder;
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| format!("{}: cannot encode the PNG: {e}", path.display()))?;
    clipscope_core::formats::write_atomic(path, &bytes)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("640x480"), Ok((640, 480)));
        assert_eq!(parse_size("32×24"), Ok((32, 24)));
        assert!(parse_size("640").is_err());
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("axb").is_err());
    }

    #[test]
    fn numbered() {
        let p = numbered_paths(Path::new("out/shot.png"), 2);
        assert_eq!(
            p,
            [
                PathBuf::from("out/shot_000.png"),
                PathBuf::from("out/shot_001.png")
            ]
        );
        let p = numbered_paths(Path::new("seq"), 1200);
        assert_eq!(p[1199], PathBuf::from("seq_1199.png"));
    }
}
