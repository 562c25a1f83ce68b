//! A node's `matrix` as the translation, rotation and scale glTF animates instead: what the
//! writer gives an animated node that has a matrix, and the rest pose the reader takes from
//! one.
//!
//! glam's decomposition in `f32` serves ordinary matrices, bit for bit. Two kinds it cannot
//! serve are worked out in `f64`: an axis scaled to nothing (its rotation is undefined) and an
//! axis longer than `f32` can square (its scale overflows). A matrix whose parts do not fit in
//! `f32` at all has no decomposition glTF can store.

use glam::{DMat3, DMat4, DQuat, DVec3, Mat4, Quat, Vec3};

/// `m` (column-major, as glTF stores it) as scale, unit rotation and translation, each finite
/// in `f32`; `None` when a part is beyond `f32` (or the matrix holds no finite numbers).
pub(crate) fn decompose(m: &[f32; 16]) -> Option<(Vec3, Quat, Vec3)> {
    let (scale, rotation, translation) = Mat4::from_cols_array(m).to_scale_rotation_translation();
    if scale.is_finite() && rotation.is_finite() && translation.is_finite() {
        return Some((scale, rotation.normalize(), translation));
    }
    let (scale, rotation, translation) = decompose_f64(DMat4::from_cols_array(&m.map(f64::from)));
    let (scale, rotation, translation) =
        (scale.as_vec3(), rotation.as_quat(), translation.as_vec3());
    (scale.is_finite() && rotation.is_finite() && translation.is_finite())
        .then(|| (scale, rotation.normalize(), translation))
}

/// [`decompose`] for a rest pose, which needs a value even where there is none: then glam's
/// own `f32` decomposition (a part past `f32` stays infinite, as the matrix makes it).
pub(crate) fn decomposed(m: &[f32; 16]) -> (Vec3, Quat, Vec3) {
    decompose(m).unwrap_or_else(|| Mat4::from_cols_array(m).to_scale_rotation_translation())
}

/// `m` as scale, unit rotation and translation in `f64`. An axis scaled to nothing (a node
/// flattened or hidden by a zero scale) has no direction of its own: the rotation then
/// completes the other axes to a right-handed frame (any frame where none is left), which the
/// zero scale multiplies away again.
fn decompose_f64(m: DMat4) -> (DVec3, DQuat, DVec3) {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    if rotation.is_finite() {
        return (scale, rotation.normalize(), translation);
    }
    let axes = [m.x_axis, m.y_axis, m.z_axis].map(|a| a.truncate());
    let [x, y, z] = axes.map(DVec3::try_normalize);
    let frame = match (x, y, z) {
        (Some(x), Some(y), _) => [x, y, x.cross(y)],
        (None, Some(y), Some(z)) => [y.cross(z), y, z],
        (Some(x), None, Some(z)) => [x, z.cross(x), z],
        (Some(x), None, None) => {
            let y = x.any_orthonormal_vector();
            [x, y, x.cross(y)]
        }
        (None, Some(y), None) => {
            let z = y.any_orthonormal_vector();
            [y.cross(z), y, z]
        }
        (None, None, Some(z)) => {
            let x = z.any_orthonormal_vector();
            [x, z.cross(x), z]
        }
        (None, None, None) => [DVec3::X, DVec3::Y, DVec3::Z],
    };
    let rotation = DQuat::from_mat3(&DMat3::from_cols(frame[0], frame[1], frame[2])).normalize();
    let scale = DVec3::from_array(axes.map(DVec3::length));
    (scale, rotation, translation)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `scale`, `turn` and `at` as a glTF matrix.
    fn matrix(scale: Vec3, turn: Quat, at: Vec3) -> [f32; 16] {
        Mat4::from_scale_rotation_translation(scale, turn, at).to_cols_array()
    }

    #[test]
    fn an_ordinary_matrix_decomposes_as_glam_does() {
        let turn = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7);
        let m = matrix(Vec3::new(1.0, 2.0, 3.0), turn, Vec3::new(1.0, -2.0, 0.5));
        let (gs, gr, gt) = Mat4::from_cols_array(&m).to_scale_rotation_translation();
        assert_eq!(decompose(&m), Some((gs, gr.normalize(), gt)));
    }

    #[test]
    fn a_matrix_with_an_axis_scaled_to_nothing_decomposes_to_a_unit_rotation() {
        let turn = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7);
        let at = Vec3::new(1.0, -2.0, 0.5);
        for scale in [
            Vec3::new(0.0, 2.0, 3.0),
            Vec3::new(1.5, 0.0, 3.0),
            Vec3::new(1.5, 2.0, 0.0),
            Vec3::new(0.0, 0.0, 3.0),
            Vec3::new(1.5, 0.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
            Vec3::ZERO,
        ] {
            let m = matrix(scale, turn, at);
            let (s, r, t) = decompose(&m).unwrap();
            assert!((r.length() - 1.0).abs() < 1e-6, "{scale}: {r}");
            assert!(s.abs_diff_eq(scale, 1e-5) && t == at, "{scale}: {s} {t}");
            let back = Mat4::from_scale_rotation_translation(s, r, t);
            let m = Mat4::from_cols_array(&m);
            assert!(back.abs_diff_eq(m, 1e-5), "{scale}: {back} against {m}");
        }
    }

    #[test]
    fn an_axis_too_long_to_square_in_f32_decomposes_in_f64() {
        // Each column's squared length is past f32 (4e38 and more), its length is not.
        let m = [
            2e19, 2e19, 0.0, 0.0, //
            -1e19, 1e19, 0.0, 0.0, //
            0.0, 0.0, 3e19, 0.0, //
            1.0, 2.0, 3.0, 1.0,
        ];
        let (glam_scale, _, _) = Mat4::from_cols_array(&m).to_scale_rotation_translation();
        assert!(!glam_scale.is_finite(), "glam's f32 squares overflow");
        let (s, r, t) = decompose(&m).unwrap();
        let lengths = [2e19 * 2f32.sqrt(), 1e19 * 2f32.sqrt(), 3e19];
        assert!(s.abs_diff_eq(Vec3::from_array(lengths), 1e14), "{s}");
        let eighth = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        assert!(r.abs_diff_eq(eighth, 1e-6), "{r}");
        assert_eq!(t, Vec3::new(1.0, 2.0, 3.0));
    }

    #[test]
    fn a_scale_beyond_f32_has_no_decomposition() {
        // The first axis is 3e38 long in x and y: √2 × 3e38 is past f32's 3.4e38.
        let mut m = Mat4::IDENTITY.to_cols_array();
        m[0] = 3e38;
        m[1] = 3e38;
        assert_eq!(decompose(&m), None);
        // Not a number anywhere: none either.
        m[0] = f32::NAN;
        assert_eq!(decompose(&m), None);
    }
}
