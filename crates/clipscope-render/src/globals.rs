//! The per-frame uniform block every shader reads (`Globals` in shaders/common.wgsl): camera,
//! light, shadow, look and viewport, packed as fifteen-odd `vec4`s.

use glam::{Mat4, Vec3};

use super::Look;

/// Everything the shaders need for one frame, in the order of the WGSL struct.
pub(crate) struct Globals {
    /// World → clip for the camera.
    pub view_proj: Mat4,
    /// World → clip for the key light's shadow map.
    pub light_view_proj: Mat4,
    /// The camera's position.
    pub eye: Vec3,
    /// Height of the ground plane.
    pub ground_y: f32,
    /// Shadow filter step in shadow-map uv.
    pub shadow_step: f32,
    /// Normal offset for shadow lookups, world units.
    pub shadow_offset: f32,
    /// Grid cell size, world units.
    pub grid_cell: f32,
    /// Distance from the camera where fog starts and where it is full.
    pub fog_range: (f32, f32),
    /// Target size in pixels.
    pub viewport: (u32, u32),
    /// Radius where the grid has faded out.
    pub grid_fade: f32,
    /// Half the ground square's side.
    pub ground_extent: f32,
    /// Where the ground square is centred.
    pub focus: Vec3,
}

impl Globals {
    /// Size of the uniform block in bytes.
    pub const SIZE: u64 = (2 * 16 + 13 * 4) * 4;

    /// The block's bytes for `look`.
    pub fn bytes(&self, look: &Look) -> Vec<u8> {
        let light = look.light_direction.normalize_or(Vec3::Y);
        let fill = look.fill_direction.normalize_or(Vec3::X);
        let v3 = |c: [f32; 3], w: f32| [c[0], c[1], c[2], w];
        let mut f: Vec<f32> = Vec::with_capacity(Self::SIZE as usize / 4);
        f.extend_from_slice(&self.view_proj.to_cols_array());
        f.extend_from_slice(&self.light_view_proj.to_cols_array());
        f.extend_from_slice(&[self.eye.x, self.eye.y, self.eye.z, self.ground_y]);
        f.extend_from_slice(&[light.x, light.y, light.z, self.shadow_step]);
        f.extend_from_slice(&v3(look.light_colour, self.shadow_offset));
        f.extend_from_slice(&[fill.x, fill.y, fill.z, look.fill_intensity]);
        f.extend_from_slice(&v3(look.sky_top, 1.0));
        f.extend_from_slice(&v3(look.sky_bottom, 1.0));
        f.extend_from_slice(&v3(look.ambient_sky, 1.0));
        f.extend_from_slice(&v3(look.ambient_ground, 1.0));
        f.extend_from_slice(&v3(look.ground, self.grid_cell));
        f.extend_from_slice(&v3(look.grid, look.grid_strength));
        f.extend_from_slice(&[self.fog_range.0, self.fog_range.1, look.fog, 0.0]);
        f.extend_from_slice(&[
            self.viewport.0 as f32,
            self.viewport.1 as f32,
            self.grid_fade,
            self.ground_extent,
        ]);
        f.extend_from_slice(&[self.focus.x, self.focus.y, self.focus.z, 0.0]);
        debug_assert_eq!(f.len() as u64 * 4, Self::SIZE);
        f.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}
