//! Which drawn box is under the pointer: a ray from the camera through a point of the picture,
//! tested against every box (the unit cube under its transform), nearest hit first.

use glam::{Vec2, Vec3};

use super::Camera;
use clipscope_scene::BoxInstance;

/// The index of the nearest box of `boxes` that the ray through `ndc` (normalised device
/// coordinates, −1…1, y up) hits, seen by `camera` on a picture of `aspect` (width / height).
/// Boxes with no volume (a degenerate transform) are skipped. Linear in the boxes.
pub fn pick(boxes: &[BoxInstance], camera: &Camera, aspect: f32, ndc: Vec2) -> Option<usize> {
    let inverse = camera.view_projection(aspect).inverse();
    let near = inverse.project_point3(ndc.extend(0.0));
    let far = inverse.project_point3(ndc.extend(1.0));
    let direction = far - near;
    if !direction.is_finite() || direction.length_squared() < 1e-20 {
        return None;
    }
    let mut best: Option<(usize, f32)> = None;
    for (i, b) in boxes.iter().enumerate() {
        if b.transform.determinant().abs() < 1e-18 {
            continue;
        }
        let to_local = b.transform.inverse();
        let origin = to_local.transform_point3(near);
        let dir = to_local.transform_vector3(direction);
        if let Some(t) = hit_unit_cube(origin, dir)
            && best.is_none_or(|(_, s)| t < s)
        {
            best = Some((i, t));
        }
    }
    best.map(|(i, _)| i)
}

/// The ray parameter (≥ 0) where `origin + t · dir` first meets the cube −0.5…0.5, if it does.
fn hit_unit_cube(origin: Vec3, dir: Vec3) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, f32::INFINITY);
    for axis in 0..3 {
        let (o, d) = (origin[axis], dir[axis]);
        if d.abs() < 1e-12 {
            if !(-0.5..=0.5).contains(&o) {
                return None;
            }
            continue;
        }
        let (a, b) = ((-0.5 - o) / d, (0.5 - o) / d);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat4;

    fn cube(at: Vec3, edge: f32) -> BoxInstance {
        BoxInstance {
            transform: Mat4::from_scale_rotation_translation(
                Vec3::splat(edge),
                glam::Quat::IDENTITY,
                at,
            ),
            colour: [1.0; 3],
            taper: 0.0,
        }
    }

    #[test]
    fn the_nearest_box_under_the_pointer() {
        let camera = Camera {
            target: Vec3::ZERO,
            yaw: 0.0,
            pitch: 0.0,
            distance: 10.0,
            ..Camera::default()
        };
        // The camera looks down −z from +z: the box at z = 2 hides the one at the origin.
        let boxes = [cube(Vec3::ZERO, 1.0), cube(Vec3::new(0.0, 0.0, 2.0), 0.5)];
        assert_eq!(pick(&boxes, &camera, 1.0, Vec2::ZERO), Some(1));
        assert_eq!(pick(&boxes[..1], &camera, 1.0, Vec2::ZERO), Some(0));
        assert_eq!(pick(&boxes, &camera, 1.0, Vec2::new(0.9, 0.9)), None);
        let flat = BoxInstance {
            transform: Mat4::ZERO,
            colour: [1.0; 3],
            taper: 0.0,
        };
        assert_eq!(pick(&[flat], &camera, 1.0, Vec2::ZERO), None);
    }
}
