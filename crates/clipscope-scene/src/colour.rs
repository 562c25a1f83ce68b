//! Colours as artists write them (sRGB hex) turned into the linear RGB the renderer shades with.

/// A `0xRRGGBB` sRGB colour as linear RGB.
pub fn srgb(hex: u32) -> [f32; 3] {
    let channel = |shift: u32| {
        let c = ((hex >> shift) & 0xFF) as f32 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [channel(16), channel(8), channel(0)]
}
