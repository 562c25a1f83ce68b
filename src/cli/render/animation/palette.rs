//! The frames of an animation as palette indices: one palette of 255 colours for every frame
//! (NeuQuant over pixels sampled from all of them) plus a transparent index, and for each frame
//! after the first the rectangle that changed since the frame before.

use color_quant::NeuQuant;

/// The palette index of a transparent pixel (unchanged since the last frame, or see-through).
pub const TRANSPARENT: u8 = 255;

/// Pixels sampled for the palette, at most.
const SAMPLE_PIXELS: usize = 200_000;

/// Frames as indices into one palette.
#[derive(Debug, Clone)]
pub struct Indexed {
    /// Frame width in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// The colours, RGB, at most 255 (index [`TRANSPARENT`] is never a colour).
    pub palette: Vec<[u8; 3]>,
    /// Every frame's full indices, row by row.
    pub frames: Vec<Vec<u8>>,
    /// Some pixels are see-through (a transparent background): frames are then stored whole,
    /// each replacing the one before, since an unchanged pixel cannot be told from a clear one.
    pub see_through: bool,
}

/// What a frame changes over the one before: its rectangle and the indices in it
/// ([`TRANSPARENT`] where nothing changed), or the whole frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    /// Left edge in pixels.
    pub left: u32,
    /// Top edge in pixels.
    pub top: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` indices, row by row.
    pub indices: Vec<u8>,
}

impl Indexed {
    /// Quantizes `frames` (at least one, all of one size) to one palette.
    pub fn new(frames: &[image::RgbaImage]) -> Result<Indexed, String> {
        let first = frames
            .first()
            .ok_or("an animation needs at least one frame")?;
        let (width, height) = first.dimensions();
        if frames.iter().any(|f| f.dimensions() != (width, height)) {
            return Err("the frames of an animation must have one size".into());
        }
        let see_through = frames.iter().any(|f| f.pixels().any(|p| p.0[3] < 128));
        let quant = NeuQuant::new(10, 255, &sample(frames));
        let palette: Vec<[u8; 3]> = quant
            .color_map_rgb()
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        // Rendered frames repeat few colours: each distinct one is looked up once.
        let mut known: std::collections::HashMap<[u8; 3], u8> = std::collections::HashMap::new();
        let indexed = frames
            .iter()
            .map(|f| {
                f.pixels()
                    .map(|p| {
                        let [r, g, b, a] = p.0;
                        if a < 128 {
                            return TRANSPARENT;
                        }
                        *known
                            .entry([r, g, b])
                            .or_insert_with(|| quant.index_of(&[r, g, b, 255]) as u8)
                    })
                    .collect()
            })
            .collect();
        Ok(Indexed {
            width,
            height,
            palette,
            frames: indexed,
            see_through,
        })
    }

    /// What frame `k` changes over frame `k − 1` (the whole frame for the first, and for every
    /// frame of a see-through animation); `None` when nothing changed.
    pub fn patch(&self, k: usize) -> Option<Patch> {
        let frame = &self.frames[k];
        let w = self.width as usize;
        if k == 0 || self.see_through {
            return Some(Patch {
                left: 0,
                top: 0,
                width: self.width,
                height: self.height,
                indices: frame.clone(),
            });
        }
        let before = &self.frames[k - 1];
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (i, (a, b)) in before.iter().zip(frame).enumerate() {
            if a != b {
                let (x, y) = (i % w, i / w);
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        if x0 == usize::MAX {
            return None;
        }
        let mut indices = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
        for y in y0..=y1 {
            let row = y * w;
            for x in x0..=x1 {
                let (a, b) = (before[row + x], frame[row + x]);
                indices.push(if a == b { TRANSPARENT } else { b });
            }
        }
        Some(Patch {
            left: x0 as u32,
            top: y0 as u32,
            width: (x1 - x0 + 1) as u32,
            height: (y1 - y0 + 1) as u32,
            indices,
        })
    }

    /// The palette as flat RGB bytes, padded to 256 entries (the last one for
    /// [`TRANSPARENT`]).
    pub fn rgb_palette(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.palette.iter().flatten().copied().collect();
        out.resize(256 * 3, 0);
        out
    }
}

/// Opaque pixels spread over all frames, as RGBA bytes, for the palette.
fn sample(frames: &[image::RgbaImage]) -> Vec<u8> {
    let total: usize = frames.iter().map(|f| f.as_raw().len() / 4).sum();
    let step = total.div_ceil(SAMPLE_PIXELS).max(1);
    let mut out = Vec::with_capacity(SAMPLE_PIXELS * 4 + 4);
    let mut n = 0usize;
    for frame in frames {
        for p in frame.pixels() {
            if n.is_multiple_of(step) && p.0[3] >= 128 {
                out.extend_from_slice(&[p.0[0], p.0[1], p.0[2], 255]);
            }
            n += 1;
        }
    }
    if out.is_empty() {
        out.extend_from_slice(&[0, 0, 0, 255]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(dot: Option<(u32, u32)>) -> image::RgbaImage {
        let mut f = image::RgbaImage::from_pixel(8, 6, image::Rgba([20, 30, 40, 255]));
        if let Some((x, y)) = dot {
            f.put_pixel(x, y, image::Rgba([250, 200, 10, 255]));
        }
        f
    }

    #[test]
    fn only_the_changed_rectangle_is_kept() {
        let frames = [
            frame(Some((1, 1))),
            frame(Some((4, 3))),
            frame(Some((4, 3))),
        ];
        let indexed = Indexed::new(&frames).expect("frames");
        assert!(!indexed.see_through);
        let full = indexed.patch(0).expect("first frame");
        assert_eq!((full.width, full.height), (8, 6));
        let p = indexed.patch(1).expect("the dot moved");
        assert_eq!((p.left, p.top, p.width, p.height), (1, 1, 4, 3));
        // The corners did not change: transparent; the new dot is a colour.
        assert_eq!(p.indices[0], indexed.frames[1][8 + 1]);
        assert_eq!(p.indices[3 * 4 - 1], indexed.frames[1][3 * 8 + 4]);
        assert_eq!(p.indices[1], TRANSPARENT);
        assert!(
            indexed.patch(2).is_none(),
            "an identical frame changes nothing"
        );
        // Two colours, told apart.
        assert_ne!(indexed.frames[0][0], indexed.frames[0][9]);
    }

    #[test]
    fn see_through_frames_are_stored_whole() {
        let mut clear = frame(None);
        clear.put_pixel(0, 0, image::Rgba([0, 0, 0, 0]));
        let indexed = Indexed::new(&[clear.clone(), clear]).expect("frames");
        assert!(indexed.see_through);
        assert_eq!(indexed.frames[0][0], TRANSPARENT);
        assert_eq!(indexed.patch(1).expect("whole").indices.len(), 48);
    }

    #[test]
    fn frames_of_different_sizes_are_refused() {
        let small = image::RgbaImage::new(2, 2);
        assert!(Indexed::new(&[frame(None), small]).is_err());
        assert!(Indexed::new(&[]).is_err());
    }
}
