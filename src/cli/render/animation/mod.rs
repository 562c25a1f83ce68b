//! Animated previews: `clipscope render FILE -o preview.gif` (or `.apng`) draws the clip at a
//! frame rate and writes every frame into one looping file sized for a pull request comment.
//!
//! The frames share one palette of 255 colours ([`palette`]) and each frame after the first
//! stores only the rectangle that changed, with the unchanged pixels transparent over the
//! frame before; a frame identical to the one before lengthens its display time instead.
//! GIF ([`gif_file`]) counts time in hundredths of a second, so a frame's delay is rounded
//! with the error carried to the next (the total stays exact) and the frame rate is at most
//! [`GIF_MAX_FPS`] (browsers slow faster GIFs down to 10 fps); APNG ([`apng_file`]) keeps
//! exact fractions. WebP is refused: no well-kept Rust crate encodes animated WebP.

mod apng_file;
mod gif_file;
pub(crate) mod palette;

use std::path::Path;

use clipscope_core::model::Clip;

pub use palette::Indexed;

/// The fastest frame rate a GIF plays at as written (a delay of 2/100 s).
pub const GIF_MAX_FPS: f64 = 50.0;

/// The frame size of an animation when `--size` is not given: small enough for a pull
/// request comment.
pub const DEFAULT_SIZE: (u32, u32) = (480, 270);

/// The slowest key spacing taken as the clip's frame rate (see [`clip_fps`]).
pub const MIN_KEY_RATE: f64 = 24.0;

/// The most frames an animation is drawn with (a long take is drawn at a lower rate).
pub const MAX_FRAMES: usize = 600;

/// An animated image file type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// GIF89a, looping.
    Gif,
    /// Animated PNG, looping.
    Apng,
}

impl Kind {
    /// The animation `path`'s extension asks for: `None` for a still image (`.png` or no
    /// extension), an error for an animation type clipscope cannot write.
    pub fn of(path: &Path) -> Result<Option<Kind>, String> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "gif" => Ok(Some(Kind::Gif)),
            "apng" => Ok(Some(Kind::Apng)),
            "webp" => Err(format!(
                "{}: animated WebP is not supported (no well-kept Rust encoder); write .gif or .apng",
                path.display()
            )),
            _ => Ok(None),
        }
    }

    /// The frame rate this kind plays `fps` at.
    pub fn playable_fps(self, fps: f64) -> f64 {
        match self {
            Kind::Gif => fps.min(GIF_MAX_FPS),
            Kind::Apng => fps,
        }
    }

    /// The file's bytes: `frames` (all of one size) shown `1/fps` seconds each, looping.
    pub fn encode(self, frames: &[image::RgbaImage], fps: f64) -> Result<Vec<u8>, String> {
        let indexed = Indexed::new(frames)?;
        match self {
            Kind::Gif => gif_file::encode(&indexed, fps),
            Kind::Apng => apng_file::encode(&indexed, fps),
        }
    }

    /// The MIME type (for the review page's data URLs).
    pub fn mime(self) -> &'static str {
        match self {
            Kind::Gif => "image/gif",
            Kind::Apng => "image/apng",
        }
    }
}

/// The frame rate a clip is drawn at: `asked` (`--fps`), else the rate the file states, else
/// the one its keys are baked at (the most common gap between keys, when it is a whole number
/// of frames per second from [`MIN_KEY_RATE`] to 120), else 30. Sparser keys are poses the
/// player interpolates between at its own rate, not frames: a walk keyed every tenth of a
/// second plays smoothly in three.js, and so in the preview.
pub fn clip_fps(clip: &Clip, asked: Option<f64>) -> f64 {
    asked
        .or_else(|| clipscope_core::formats::stated_frame_rate(clip))
        .or_else(|| key_rate(clip))
        .unwrap_or(30.0)
}

/// The frame rate a clip's keys are spaced at (see [`clip_fps`]).
fn key_rate(clip: &Clip) -> Option<f64> {
    let mut counts: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for track in &clip.tracks {
        for w in track.times.windows(2) {
            let gap = (w[1] - w[0]) as f64;
            if gap > 0.0 {
                let rate = 1.0 / gap;
                let whole = rate.round();
                if (MIN_KEY_RATE..=120.0).contains(&whole) && (rate - whole).abs() < 0.01 * whole {
                    *counts.entry(whole as u32).or_default() += 1;
                }
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(rate, n)| (n, rate))
        .map(|(rate, _)| rate as f64)
}

/// The frame times of an animation of `duration` seconds at `fps`: `0, 1/fps, …` up to but not
/// including the end (a loop's last pose is its first), at least one frame, at most
/// [`MAX_FRAMES`] (the rate is lowered for longer takes). Returns the times and the rate.
pub fn frame_times(duration: f64, fps: f64) -> (Vec<f64>, f64) {
    let duration = if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        0.0
    };
    let mut fps = fps;
    if duration * fps > MAX_FRAMES as f64 {
        fps = MAX_FRAMES as f64 / duration;
    }
    let count = ((duration * fps - 1e-9).ceil() as usize).clamp(1, MAX_FRAMES);
    ((0..count).map(|k| k as f64 / fps).collect(), fps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Track, TrackKind};

    #[test]
    fn the_extension_chooses_the_kind() {
        assert_eq!(Kind::of(Path::new("a.gif")), Ok(Some(Kind::Gif)));
        assert_eq!(Kind::of(Path::new("a.APNG")), Ok(Some(Kind::Apng)));
        assert_eq!(Kind::of(Path::new("a.png")), Ok(None));
        assert!(Kind::of(Path::new("a.webp")).unwrap_err().contains("WebP"));
    }

    #[test]
    fn frames_cover_the_clip_without_repeating_the_loop_point() {
        let (t, fps) = frame_times(1.0, 30.0);
        assert_eq!((t.len(), fps), (30, 30.0));
        assert_eq!(t[1], 1.0 / 30.0);
        assert_eq!(frame_times(0.0, 30.0).0, [0.0]);
        let (long, rate) = frame_times(100.0, 30.0);
        assert_eq!(long.len(), MAX_FRAMES);
        assert_eq!(rate, 6.0);
    }

    #[test]
    fn the_key_spacing_gives_the_rate() {
        let times: Vec<f32> = (0..25).map(|k| k as f32 / 24.0).collect();
        let track = Track::numeric("a.position", TrackKind::Vector, times, vec![0.0; 75]);
        let clip = Clip::new("c", 1.0, vec![track]);
        assert_eq!(clip_fps(&clip, None), 24.0);
        assert_eq!(clip_fps(&clip, Some(12.0)), 12.0);
        assert_eq!(clip_fps(&Clip::new("e", 1.0, vec![]), None), 30.0);
        // Poses a tenth of a second apart are interpolated, not frames.
        let times: Vec<f32> = (0..11).map(|k| k as f32 / 10.0).collect();
        let track = Track::numeric("a.position", TrackKind::Vector, times, vec![0.0; 33]);
        assert_eq!(clip_fps(&Clip::new("p", 1.0, vec![track]), None), 30.0);
    }
}
