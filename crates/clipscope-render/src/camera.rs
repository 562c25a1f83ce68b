//! The orbit camera: it circles a target point at a distance, like the three.js editor's
//! OrbitControls, with a vertical field of view.

use glam::camera::rh::proj::directx;
use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec3};

use super::Bounds;

/// An orbit camera. Angles are in radians; the world is right-handed with +Y up (as in
/// three.js). At yaw 0 the camera looks along −Z from the +Z side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// The point the camera looks at and orbits around.
    pub target: Vec3,
    /// Rotation around the vertical axis through the target.
    pub yaw: f32,
    /// Elevation above the ground plane (positive looks down); kept inside ±89°.
    pub pitch: f32,
    /// Distance from the target (world units).
    pub distance: f32,
    /// Vertical field of view.
    pub fov_y: f32,
    /// An orthographic projection (a flat, front-on 2D view such as a Lottie composition's)
    /// instead of a perspective one; the picture is as tall as the perspective view's would be
    /// at the target, so zooming and panning behave alike.
    pub orthographic: bool,
}

impl Default for Camera {
    /// A three-quarter view from slightly above, 5 units from the origin, 35° field of view.
    fn default() -> Camera {
        Camera {
            target: Vec3::new(0.0, 0.9, 0.0),
            yaw: 35f32.to_radians(),
            pitch: 18f32.to_radians(),
            distance: 5.0,
            fov_y: 35f32.to_radians(),
            orthographic: false,
        }
    }
}

impl Camera {
    /// The largest pitch either way, short of looking straight down or up.
    pub const MAX_PITCH: f32 = 89.0 * std::f32::consts::PI / 180.0;

    /// A perspective camera at `eye` looking at `target` (+Y up, as three.js's `lookAt`) with a
    /// vertical field of view of `fov_y` radians: the fixed view of a review render. `None`
    /// when the eye is the target, or looks straight up or down (no view direction with +Y up).
    pub fn looking(eye: Vec3, target: Vec3, fov_y: f32) -> Option<Camera> {
        let d = eye - target;
        let distance = d.length();
        let horizontal = (d.x * d.x + d.z * d.z).sqrt();
        if !(distance.is_finite() && distance > 1e-6 && horizontal > distance * 1e-6) {
            return None;
        }
        if !(fov_y > 0.0 && fov_y < std::f32::consts::PI) {
            return None;
        }
        Some(Camera {
            target,
            yaw: d.x.atan2(d.z),
            pitch: d.y.atan2(horizontal),
            distance,
            fov_y,
            orthographic: false,
        })
    }

    /// The camera's position in the world.
    pub fn eye(&self) -> Vec3 {
        let pitch = self.pitch.clamp(-Self::MAX_PITCH, Self::MAX_PITCH);
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = pitch.sin_cos();
        self.target + Vec3::new(cp * sy, sp, cp * cy) * self.distance.max(1e-4)
    }

    /// World → view.
    pub fn view(&self) -> Mat4 {
        look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// View → clip for a target of the given aspect ratio (width / height), with wgpu's 0…1
    /// depth range; the near and far planes follow the distance.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let d = self.distance.max(1e-4);
        if self.orthographic {
            let half_h = d * (self.fov_y * 0.5).tan();
            let half_w = half_h * aspect.max(1e-4);
            return directx::orthographic(-half_w, half_w, -half_h, half_h, d * 0.01, d * 200.0);
        }
        directx::perspective(self.fov_y, aspect.max(1e-4), d * 0.01, d * 200.0)
    }

    /// World → clip.
    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// Points the camera at the centre of `bounds` and moves it (keeping its angles) to the
    /// distance where every corner of the box fits a square view, with a small margin.
    pub fn frame(&mut self, bounds: Bounds) {
        self.frame_aspect(bounds, 1.0);
    }

    /// Like [`Camera::frame`] for a target of the given aspect ratio (width / height): every
    /// corner of the box lands inside the middle 88% of the picture both ways.
    pub fn frame_aspect(&mut self, bounds: Bounds, aspect: f32) {
        self.frame_below(bounds, aspect, 0.0);
    }

    /// Like [`Camera::frame_aspect`], into the part of the picture below its top `top` (a
    /// fraction of the picture's height, at most 0.6) where an overlay covers it: every corner
    /// of the box lands inside the middle 88% of that part, and the box's centre in its middle.
    /// The target moves up the view by the same fraction, so orbiting still turns around the
    /// box's centre line.
    pub fn frame_below(&mut self, bounds: Bounds, aspect: f32, top: f32) {
        const FILL: f32 = 0.88;
        let top = if top.is_finite() {
            top.clamp(0.0, 0.6)
        } else {
            0.0
        };
        self.target = bounds.centre();
        let view = self.view();
        let tan = (self.fov_y * 0.5).tan();
        // The free part spans NDC y from -1 to 1 - 2·top: its middle is at -top, its half
        // height 1 - top. A corner at view offset v (from the centre) and depth d - v.z lands
        // at y = (v.y - s) / ((d - v.z)·tan) once the target is lifted by s = top·tan·d, so it
        // fits within FILL of the half height when d is at least the bounds below.
        let half = FILL * (1.0 - top);
        let tan_h = tan * FILL * aspect.max(1e-3);
        let mut distance = bounds.radius().max(0.05) * 0.25;
        for corner in 0..8u32 {
            let p = Vec3::new(
                if corner & 1 == 0 {
                    bounds.min.x
                } else {
                    bounds.max.x
                },
                if corner & 2 == 0 {
                    bounds.min.y
                } else {
                    bounds.max.y
                },
                if corner & 4 == 0 {
                    bounds.min.z
                } else {
                    bounds.max.z
                },
            ) - self.target;
            // The corner in view axes, measured from the target: the camera sits `distance`
            // along +z (view space), so the corner's depth is `distance - v.z`.
            let v = view.transform_vector3(p);
            let above = (v.y + (half - top) * tan * v.z) / (tan * half);
            let below = ((half + top) * tan * v.z - v.y) / (tan * half);
            distance = distance.max(v.z + v.x.abs() / tan_h).max(above).max(below);
        }
        self.distance = distance;
        let up = view.inverse().transform_vector3(Vec3::Y);
        self.target += up * (top * tan * distance);
    }

    /// Turns the camera by a pointer drag: `dx`, `dy` in radians.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx;
        self.pitch = (self.pitch + dy).clamp(-Self::MAX_PITCH, Self::MAX_PITCH);
    }

    /// Moves closer (factor < 1) or further away (factor > 1).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(1e-3, 1e6);
        }
    }

    /// Slides the target in the view plane by `dx`, `dy` (fractions of the view height).
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let view = self.view().inverse();
        let right = view.transform_vector3(Vec3::X);
        let up = view.transform_vector3(Vec3::Y);
        let height = 2.0 * self.distance * (self.fov_y * 0.5).tan();
        self.target += (-right * dx + up * dy) * height;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_camera_looking_from_an_eye_sits_there() {
        let eye = Vec3::new(3.0, 2.0, 4.0);
        let target = Vec3::new(0.0, 1.0, -1.0);
        let c = Camera::looking(eye, target, 40f32.to_radians()).unwrap();
        assert!(c.eye().abs_diff_eq(eye, 1e-5), "{}", c.eye());
        // The target projects to the middle of the picture.
        let clip = c.view_projection(1.5) * target.extend(1.0);
        assert!((clip.x / clip.w).abs() < 1e-6 && (clip.y / clip.w).abs() < 1e-6);
        assert!(Camera::looking(eye, eye, 0.5).is_none());
        assert!(
            Camera::looking(Vec3::Y, Vec3::ZERO, 0.5).is_none(),
            "straight down"
        );
        assert!(Camera::looking(eye, target, 0.0).is_none());
    }

    #[test]
    fn yaw_zero_looks_down_minus_z() {
        let camera = Camera {
            target: Vec3::ZERO,
            yaw: 0.0,
            pitch: 0.0,
            distance: 2.0,
            fov_y: 1.0,
            orthographic: false,
        };
        assert!((camera.eye() - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-6);
    }

    #[test]
    fn the_orthographic_view_is_flat_and_frames_alike() {
        let mut camera = Camera {
            yaw: 0.0,
            pitch: 0.0,
            orthographic: true,
            ..Camera::default()
        };
        let bounds = Bounds::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 0.1));
        camera.frame_aspect(bounds, 2.0);
        let vp = camera.view_projection(2.0);
        // The same x at different depths lands on the same spot: no perspective.
        let near = vp.project_point3(Vec3::new(1.0, 0.5, 0.1));
        let far = vp.project_point3(Vec3::new(1.0, 0.5, -3.0));
        assert!((near.x - far.x).abs() < 1e-5 && (near.y - far.y).abs() < 1e-5);
        for corner in [bounds.min, bounds.max] {
            let p = vp.project_point3(corner);
            assert!(
                p.x.abs() < 1.0 && p.y.abs() < 1.0 && (0.0..1.0).contains(&p.z),
                "{p}"
            );
        }
    }

    #[test]
    fn framing_puts_the_box_in_view() {
        let mut camera = Camera::default();
        let bounds = Bounds::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 2.0, 1.0));
        camera.frame(bounds);
        assert_eq!(camera.target, Vec3::new(0.0, 1.0, 0.0));
        let vp = camera.view_projection(1.0);
        for corner in [bounds.min, bounds.max] {
            let p = vp.project_point3(corner);
            assert!(p.x.abs() < 1.0 && p.y.abs() < 1.0 && (0.0..1.0).contains(&p.z));
        }
    }

    #[test]
    fn framing_below_an_overlay_keeps_the_box_under_it() {
        for orthographic in [false, true] {
            for (aspect, top) in [(2.8, 0.45), (1.0, 0.3), (0.6, 0.6), (1.5, 0.0)] {
                let mut camera = Camera {
                    orthographic,
                    ..Camera::default()
                };
                let bounds = Bounds::new(Vec3::new(-2.0, -5.3, -3.6), Vec3::new(3.3, 1.5, 4.2));
                camera.frame_below(bounds, aspect, top);
                let vp = camera.view_projection(aspect);
                let mut highest = f32::MIN;
                for corner in 0..8u32 {
                    let c = Vec3::new(
                        [bounds.min.x, bounds.max.x][(corner & 1) as usize],
                        [bounds.min.y, bounds.max.y][((corner >> 1) & 1) as usize],
                        [bounds.min.z, bounds.max.z][((corner >> 2) & 1) as usize],
                    );
                    let p = vp.project_point3(c);
                    highest = highest.max(p.y);
                    assert!(
                        p.x.abs() < 1.0 && p.y > -1.0,
                        "{orthographic} {aspect} {top} {p}"
                    );
                    // Below the overlay: NDC y under 1 - 2·top.
                    assert!(p.y < 1.0 - 2.0 * top, "{orthographic} {aspect} {top} {p}");
                }
                // And not needlessly small: the box reaches most of the free part's height.
                assert!(highest > 0.6 - 2.0 * top || aspect < 1.0, "{highest}");
            }
        }
    }

    #[test]
    fn controls_orbit_zoom_and_pan() {
        let mut camera = Camera::default();
        let before = camera;
        camera.orbit(0.1, 10.0);
        assert_eq!(camera.pitch, Camera::MAX_PITCH);
        assert!((camera.yaw - (before.yaw - 0.1)).abs() < 1e-6);
        camera.zoom(0.5);
        assert!((camera.distance - before.distance * 0.5).abs() < 1e-5);
        camera.zoom(f32::NAN);
        assert!(camera.distance.is_finite());
        let mut camera = Camera::default();
        let eye = camera.eye();
        camera.pan(0.1, 0.0);
        let moved = camera.target - before.target;
        let look = (before.target - eye).normalize();
        assert!(moved.length() > 0.0 && moved.dot(look).abs() < 1e-4);
    }
}
