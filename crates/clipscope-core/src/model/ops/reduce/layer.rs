//! A composition layer's local transform ([`Local::Layer`](super::tree::Local::Layer)) as
//! lottie-web's `TransformProperty` builds it, step by step on a row-vector 4×4 matrix
//! (`p' = p · M`), so that 3D layers, skew and auto-orientation come out exactly as the player
//! draws them:
//!
//! ```text
//! translate(−a.x, −a.y, a.z) · scale(s / 100) · skewFromAxis(−sk, sa)
//!   · [2D] rotate(−r)  [3D] rotateZ(−rz) · rotateY(ry) · rotateX(rx) · rotateZ(−or.z) · rotateY(or.y) · rotateX(or.x)
//!   · rotate(−heading)  (auto-orient)
//!   · translate(p.x, p.y, −p.z)
//! ```
//!
//! Angles are in degrees as the file has them; the result is turned into a column-form
//! [`DAffine3`] (x right, y down, as the composition is drawn).

use glam::{DAffine3, DMat3, DVec3};

/// The values of a layer's transform at one moment, in the file's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LayerValues {
    /// Anchor point (px).
    pub anchor: [f64; 3],
    /// Position (px).
    pub position: [f64; 3],
    /// Scale (percent).
    pub scale: [f64; 3],
    /// Rotation (degrees): `r` of a 2D layer, `rz` of a 3D one.
    pub rotation: f64,
    /// Rotation about x (degrees, 3D layers).
    pub rotation_x: f64,
    /// Rotation about y (degrees, 3D layers).
    pub rotation_y: f64,
    /// Orientation (degrees, 3D layers).
    pub orientation: [f64; 3],
    /// Skew (degrees).
    pub skew: f64,
    /// Skew axis (degrees).
    pub skew_axis: f64,
    /// The auto-orient heading (degrees), for layers that turn with their motion.
    pub heading: Option<f64>,
}

impl Default for LayerValues {
    fn default() -> LayerValues {
        LayerValues {
            anchor: [0.0; 3],
            position: [0.0; 3],
            scale: [100.0; 3],
            rotation: 0.0,
            rotation_x: 0.0,
            rotation_y: 0.0,
            orientation: [0.0; 3],
            skew: 0.0,
            skew_axis: 0.0,
            heading: None,
        }
    }
}

/// A row-major 4×4 matrix applied to row vectors, like lottie-web's `Matrix`.
#[derive(Clone, Copy)]
struct Row([f64; 16]);

impl Row {
    const IDENTITY: Row = Row([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);

    /// `self · m` (lottie-web's `_t`: the new step applied after the ones before).
    fn then(self, m: [f64; 16]) -> Row {
        let a = &self.0;
        let mut out = [0.0; 16];
        for r in 0..4 {
            for c in 0..4 {
                out[r * 4 + c] = (0..4).map(|k| a[r * 4 + k] * m[k * 4 + c]).sum();
            }
        }
        Row(out)
    }

    fn translate(self, x: f64, y: f64, z: f64) -> Row {
        if x == 0.0 && y == 0.0 && z == 0.0 {
            return self;
        }
        self.then([
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0,
        ])
    }

    fn scale(self, x: f64, y: f64, z: f64) -> Row {
        if x == 1.0 && y == 1.0 && z == 1.0 {
            return self;
        }
        self.then([
            x, 0.0, 0.0, 0.0, 0.0, y, 0.0, 0.0, 0.0, 0.0, z, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
    }

    /// lottie-web's `rotate` / `rotateZ` (radians).
    fn rotate_z(self, angle: f64) -> Row {
        if angle == 0.0 {
            return self;
        }
        let (s, c) = angle.sin_cos();
        self.then([
            c, -s, 0.0, 0.0, s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
    }

    fn rotate_x(self, angle: f64) -> Row {
        if angle == 0.0 {
            return self;
        }
        let (s, c) = angle.sin_cos();
        self.then([
            1.0, 0.0, 0.0, 0.0, 0.0, c, -s, 0.0, 0.0, s, c, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
    }

    fn rotate_y(self, angle: f64) -> Row {
        if angle == 0.0 {
            return self;
        }
        let (s, c) = angle.sin_cos();
        self.then([
            c, 0.0, s, 0.0, 0.0, 1.0, 0.0, 0.0, -s, 0.0, c, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
    }

    /// lottie-web's `skewFromAxis(ax, angle)` (radians).
    fn skew_from_axis(self, ax: f64, angle: f64) -> Row {
        let (s, c) = angle.sin_cos();
        self.then([
            c, s, 0.0, 0.0, -s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
        .then([
            1.0,
            0.0,
            0.0,
            0.0,
            ax.tan(),
            1.0,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ])
        .then([
            c, -s, 0.0, 0.0, s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ])
    }

    /// The same map in column form.
    fn affine(self) -> DAffine3 {
        let m = &self.0;
        DAffine3 {
            matrix3: DMat3::from_cols(
                DVec3::new(m[0], m[1], m[2]),
                DVec3::new(m[4], m[5], m[6]),
                DVec3::new(m[8], m[9], m[10]),
            ),
            translation: DVec3::new(m[12], m[13], m[14]),
        }
    }
}

/// The local matrix of a layer with values `v` (a 3D layer when `ddd`).
pub(crate) fn layer_matrix(v: &LayerValues, ddd: bool) -> DAffine3 {
    let rad = f64::to_radians;
    let mut m = Row::IDENTITY
        .translate(-v.anchor[0], -v.anchor[1], v.anchor[2])
        .scale(v.scale[0] / 100.0, v.scale[1] / 100.0, v.scale[2] / 100.0);
    if v.skew != 0.0 {
        m = m.skew_from_axis(-rad(v.skew), rad(v.skew_axis));
    }
    if ddd {
        m = m
            .rotate_z(-rad(v.rotation))
            .rotate_y(rad(v.rotation_y))
            .rotate_x(rad(v.rotation_x))
            .rotate_z(-rad(v.orientation[2]))
            .rotate_y(rad(v.orientation[1]))
            .rotate_x(rad(v.orientation[0]));
    } else {
        m = m.rotate_z(-rad(v.rotation));
    }
    if let Some(h) = v.heading {
        m = m.rotate_z(-rad(h));
    }
    m.translate(v.position[0], v.position[1], -v.position[2])
        .affine()
}

/// lottie-web's auto-orient heading in degrees: the direction from `before` to `at`, taken as
/// lottie-web takes it from its `Float32Array` values (positions rounded to `f32`): where the
/// two are a few ulps apart (after the last key, or along a slow segment) that rounding, not
/// the path's tangent, decides the angle the player turns the layer by.
pub(crate) fn heading(at: [f64; 2], before: [f64; 2]) -> f64 {
    let f = |v: f64| v as f32 as f64;
    (f(at[1]) - f(before[1]))
        .atan2(f(at[0]) - f(before[0]))
        .to_degrees()
}

/// The times a layer's auto-orient heading at clip time `t` compares its position at, for a
/// position whose keys run from `first` to `last` (seconds) at `fr` frames per second:
/// lottie-web's 0.01-frame backward difference, forward at or before the first key and 0.05
/// frames back at or after the last.
pub(crate) fn heading_times(t: f64, first: f64, last: f64, fr: f64) -> (f64, f64) {
    if t <= first {
        (first + 0.01 / fr, first)
    } else if t >= last {
        (last, last - 0.05 / fr)
    } else {
        (t, t - 0.01 / fr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(m: DAffine3, want: [f64; 6]) {
        let got = [
            m.matrix3.x_axis.x,
            m.matrix3.x_axis.y,
            m.matrix3.y_axis.x,
            m.matrix3.y_axis.y,
            m.translation.x,
            m.translation.y,
        ];
        for (a, b) in got.iter().zip(want) {
            assert!((a - b).abs() < 1e-5, "{got:?} vs {want:?}");
        }
    }

    /// The lottie-web matrices of spec A10.
    #[test]
    fn reference_matrices() {
        let v = LayerValues {
            anchor: [10.0, 20.0, 0.0],
            position: [100.0, 50.0, 0.0],
            scale: [200.0, 50.0, 100.0],
            rotation: 30.0,
            skew: 20.0,
            skew_axis: 45.0,
            ..LayerValues::default()
        };
        near(
            layer_matrix(&v, false),
            [1.234858, 1.133222, -0.374298, 0.466318, 95.137383, 29.34141],
        );
        let v = LayerValues {
            position: [100.0, 50.0, 0.0],
            rotation: 90.0,
            ..LayerValues::default()
        };
        near(layer_matrix(&v, false), [0.0, 1.0, -1.0, 0.0, 100.0, 50.0]);
        let v = LayerValues {
            skew: 30.0,
            ..LayerValues::default()
        };
        assert!((layer_matrix(&v, false).matrix3.y_axis.x + 0.57735).abs() < 1e-5);
        // Auto-orient turns like a rotation of the same angle.
        let v = LayerValues {
            heading: Some(90.0),
            ..LayerValues::default()
        };
        near(layer_matrix(&v, false), [0.0, 1.0, -1.0, 0.0, 0.0, 0.0]);
        assert_eq!(heading([1.0, 1.0], [0.0, 0.0]), 45.0);
    }

    /// Positions closer than an `f32` ulp turn the layer as their `f32` values do.
    #[test]
    fn headings_come_from_float32_positions() {
        // 1000.00001 rounds to 1000 in f32 (ulp 6.1e-5), so only y separates the two.
        assert_eq!(heading([1000.00001, 501.0], [1000.0, 500.0]), 90.0);
        let ulp = f64::from(f32::EPSILON) * 512.0;
        let h = heading([1000.0 + ulp, 500.0 + ulp], [1000.0, 500.0]);
        assert!((h - 45.0).abs() < 1e-9, "{h}");
    }

    #[test]
    fn a_3d_layer_turns_about_y_and_pushes_z_away() {
        let v = LayerValues {
            position: [0.0, 0.0, 10.0],
            rotation_y: 90.0,
            ..LayerValues::default()
        };
        let m = layer_matrix(&v, true);
        let p = m.transform_point3(DVec3::new(1.0, 0.0, 0.0));
        assert!((p - DVec3::new(0.0, 0.0, -9.0)).length() < 1e-12, "{p}");
    }
}
