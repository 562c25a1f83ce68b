//! The look of the viewport: colours and strengths of the backdrop, lights, ground, grid and
//! fog. Warm and soft, like hand-made cube characters on a studio table.

use glam::Vec3;

/// Colours (linear RGB) and strengths that make the picture; [`Look::default`] is the house
/// style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// Backdrop at the top of the frame.
    pub sky_top: [f32; 3],
    /// Backdrop at the bottom of the frame.
    pub sky_bottom: [f32; 3],
    /// Direction towards the key light (normalised when used).
    pub light_direction: Vec3,
    /// Key light colour times intensity.
    pub light_colour: [f32; 3],
    /// Direction towards the shadowless fill light.
    pub fill_direction: Vec3,
    /// Fill light intensity (tinted by the sky ambient).
    pub fill_intensity: f32,
    /// Ambient light from above.
    pub ambient_sky: [f32; 3],
    /// Ambient light bounced from below.
    pub ambient_ground: [f32; 3],
    /// Ground albedo.
    pub ground: [f32; 3],
    /// Grid line colour.
    pub grid: [f32; 3],
    /// Grid strength, 0 (no grid) to 1.
    pub grid_strength: f32,
    /// Full fog amount far away, 0 (none) to 1 (far things vanish into the backdrop).
    pub fog: f32,
    /// Penumbra width of the shadows, in shadow-map texels per filter step.
    pub shadow_softness: f32,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            sky_top: srgb(0xFD_F4E6),
            sky_bottom: srgb(0xEE_DCCB),
            light_direction: Vec3::new(-0.55, 0.9, 0.6),
            light_colour: scale(srgb(0xFF_EFD8), 0.8),
            fill_direction: Vec3::new(0.85, 0.3, 0.1),
            fill_intensity: 0.3,
            ambient_sky: scale(srgb(0xDD_DDF4), 0.48),
            ambient_ground: scale(srgb(0xF0_D2BA), 0.36),
            ground: srgb(0xF3_ECE3),
            grid: srgb(0xCF_BEAD),
            grid_strength: 0.4,
            fog: 1.0,
            shadow_softness: 1.6,
        }
    }
}

use clipscope_scene::colour::srgb;

fn scale(c: [f32; 3], k: f32) -> [f32; 3] {
    [c[0] * k, c[1] * k, c[2] * k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_ends_and_middle() {
        assert_eq!(srgb(0x000000), [0.0; 3]);
        assert_eq!(srgb(0xFFFFFF), [1.0; 3]);
        assert!((srgb(0x808080)[0] - 0.2158605).abs() < 1e-5);
    }
}
