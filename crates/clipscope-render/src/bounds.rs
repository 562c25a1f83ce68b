//! An axis-aligned bounding box in world space: what the camera frames and the shadow map
//! covers.

use glam::{Mat4, Vec3};

use clipscope_scene::BoxInstance;

/// An axis-aligned box from `min` to `max` (world units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The corner with the smallest coordinates.
    pub min: Vec3,
    /// The corner with the largest coordinates.
    pub max: Vec3,
}

impl Bounds {
    /// The box from `min` to `max`.
    pub fn new(min: Vec3, max: Vec3) -> Bounds {
        Bounds { min, max }
    }

    /// The bounds of every corner of every instance's box, or `None` for no instances (or
    /// only non-finite ones).
    pub fn of_instances(instances: &[BoxInstance]) -> Option<Bounds> {
        let mut bounds: Option<Bounds> = None;
        for instance in instances {
            if let Some(b) = Bounds::of_transform(&instance.transform) {
                bounds = Some(match bounds {
                    Some(a) => a.union(b),
                    None => b,
                });
            }
        }
        bounds
    }

    /// The bounds of the unit cube (−0.5…0.5) under `transform`; `None` if it is not finite.
    pub fn of_transform(transform: &Mat4) -> Option<Bounds> {
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        for corner in 0..8u32 {
            let local = Vec3::new(
                if corner & 1 == 0 { -0.5 } else { 0.5 },
                if corner & 2 == 0 { -0.5 } else { 0.5 },
                if corner & 4 == 0 { -0.5 } else { 0.5 },
            );
            let p = transform.transform_point3(local);
            min = min.min(p);
            max = max.max(p);
        }
        (min.is_finite() && max.is_finite()).then_some(Bounds { min, max })
    }

    /// The smallest box holding both.
    pub fn union(self, other: Bounds) -> Bounds {
        Bounds {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The centre point.
    pub fn centre(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half the diagonal: the radius of the sphere through the corners.
    pub fn radius(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn bounds_of_a_scaled_moved_box() {
        let t = Mat4::from_scale_rotation_translation(
            Vec3::new(2.0, 1.0, 4.0),
            Quat::IDENTITY,
            Vec3::new(0.0, 0.5, 0.0),
        );
        let b = Bounds::of_transform(&t).unwrap();
        assert_eq!(b.min, Vec3::new(-1.0, 0.0, -2.0));
        assert_eq!(b.max, Vec3::new(1.0, 1.0, 2.0));
        assert_eq!(b.centre(), Vec3::new(0.0, 0.5, 0.0));
    }

    #[test]
    fn no_instances_no_bounds() {
        assert_eq!(Bounds::of_instances(&[]), None);
    }
}
