//! Bezier tangent handles in the three.js r187 layout.

/// The in and out handles of a bezier track. Each array holds `keys × value_size × 2` numbers:
/// for key `k` and component `c`, the control point `(time, value)` sits at offset
/// `k * value_size * 2 + c * 2`. Handle times are absolute (seconds, not offsets from the key),
/// so shifting or scaling a track moves them with the keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tangents {
    /// Control points on the incoming side of each key (`settings.inTangents`).
    pub in_tangents: Vec<f32>,
    /// Control points on the outgoing side of each key (`settings.outTangents`).
    pub out_tangents: Vec<f32>,
}

impl Tangents {
    /// Applies `f` to every handle time (the even entries of both arrays), rounding to f32.
    pub fn map_times(&mut self, mut f: impl FnMut(f64) -> f64) {
        for arr in [&mut self.in_tangents, &mut self.out_tangents] {
            for t in arr.iter_mut().step_by(2) {
                *t = f(*t as f64) as f32;
            }
        }
    }
}
