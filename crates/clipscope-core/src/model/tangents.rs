//! Bezier tangent handles in the three.js r187 layout, plus the editor's per-key handle modes.

use super::{HandleSide, TangentMode};

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
    /// The handle mode of each key (editor state, never read from or written to files). Keys
    /// past the end of this list, or all keys when it is empty, are [`TangentMode::Free`].
    pub modes: Vec<TangentMode>,
}

impl Tangents {
    /// Handles from the two three.js arrays, with no modes (every key free).
    pub fn new(in_tangents: Vec<f32>, out_tangents: Vec<f32>) -> Tangents {
        Tangents {
            in_tangents,
            out_tangents,
            modes: Vec::new(),
        }
    }

    /// The handle mode of `key` ([`TangentMode::Free`] when the list does not reach it).
    pub fn mode(&self, key: usize) -> TangentMode {
        self.modes.get(key).copied().unwrap_or_default()
    }

    /// Sets the mode of `key`, filling the list with free modes up to it if needed.
    pub fn set_mode(&mut self, key: usize, mode: TangentMode) {
        if self.modes.len() <= key {
            if mode == TangentMode::Free {
                return;
            }
            self.modes.resize(key + 1, TangentMode::Free);
        }
        self.modes[key] = mode;
    }

    /// Keeps the modes of the keys listed in `kept` (old indices, ascending), in that order, so
    /// the list stays aligned with the keys after an operation drops some. Does nothing when
    /// the track has no modes.
    pub fn keep_modes(&mut self, kept: impl IntoIterator<Item = usize>) {
        if self.modes.is_empty() {
            return;
        }
        let old = std::mem::take(&mut self.modes);
        self.modes = kept
            .into_iter()
            .map(|k| old.get(k).copied().unwrap_or_default())
            .collect();
    }

    /// Applies `f` to every handle time (the even entries of both arrays), rounding to f32.
    pub fn map_times(&mut self, mut f: impl FnMut(f64) -> f64) {
        for arr in [&mut self.in_tangents, &mut self.out_tangents] {
            for t in arr.iter_mut().step_by(2) {
                *t = f(*t as f64) as f32;
            }
        }
    }

    /// The array of one side (`in_tangents` or `out_tangents`).
    pub fn side(&self, side: HandleSide) -> &[f32] {
        match side {
            HandleSide::In => &self.in_tangents,
            HandleSide::Out => &self.out_tangents,
        }
    }

    /// The mutable array of one side.
    pub fn side_mut(&mut self, side: HandleSide) -> &mut Vec<f32> {
        match side {
            HandleSide::In => &mut self.in_tangents,
            HandleSide::Out => &mut self.out_tangents,
        }
    }

    /// The control point `(time, value)` of `side` for `key` and `component` in a track with
    /// `value_size` values per key, or `None` when the array does not reach it.
    pub fn point(
        &self,
        side: HandleSide,
        key: usize,
        component: usize,
        value_size: usize,
    ) -> Option<(f64, f64)> {
        let at = (key * value_size + component) * 2;
        let arr = self.side(side);
        match (arr.get(at), arr.get(at + 1)) {
            (Some(&t), Some(&v)) => Some((t as f64, v as f64)),
            _ => None,
        }
    }

    /// Stores the control point `(time, value)` of `side` for `key` and `component`, rounded to
    /// f32; does nothing when the array does not reach it.
    pub fn set_point(
        &mut self,
        side: HandleSide,
        key: usize,
        component: usize,
        value_size: usize,
        (time, value): (f64, f64),
    ) {
        let at = (key * value_size + component) * 2;
        if let Some(slot) = self.side_mut(side).get_mut(at..at + 2) {
            slot[0] = time as f32;
            slot[1] = value as f32;
        }
    }
}

/// The time step the unused end handles of a one-key Hermite track are placed at.
const LONE_KEY_STEP: f64 = 1.0;

/// The interval before (`side = In`) or after (`Out`) key `k`, falling back to the interval on
/// the other side for the end keys (and to [`LONE_KEY_STEP`] for a single key).
fn step(times: &[f32], k: usize, side: HandleSide) -> f64 {
    let before = (k > 0).then(|| times[k] as f64 - times[k - 1] as f64);
    let after = (k + 1 < times.len()).then(|| times[k + 1] as f64 - times[k] as f64);
    let dt = match side {
        HandleSide::In => before.or(after),
        HandleSide::Out => after.or(before),
    };
    dt.filter(|d| d.is_finite() && *d > 0.0)
        .unwrap_or(if times.len() == 1 { LONE_KEY_STEP } else { 0.0 })
}

impl Tangents {
    /// Bezier handles for cubic Hermite keys (glTF's CUBICSPLINE): `values`, `in_slopes` (the
    /// derivative arriving at each key) and `out_slopes` (leaving it), in value per second, each
    /// hold `times.len() × value_size` numbers. The handles sit a third of each interval from
    /// their key, where the bezier draws exactly the Hermite segment; the end handles that shape
    /// no segment mirror the neighbouring interval.
    pub fn from_hermite(
        times: &[f32],
        values: &[f32],
        in_slopes: &[f32],
        out_slopes: &[f32],
        value_size: usize,
    ) -> Tangents {
        let n = times.len();
        let mut t = Tangents::new(vec![0.0; n * value_size * 2], vec![0.0; n * value_size * 2]);
        for k in 0..n {
            let tk = times[k] as f64;
            let dt_in = step(times, k, HandleSide::In) / 3.0;
            let dt_out = step(times, k, HandleSide::Out) / 3.0;
            for c in 0..value_size {
                let i = k * value_size + c;
                let v = values[i] as f64;
                let a = in_slopes[i] as f64;
                let b = out_slopes[i] as f64;
                t.set_point(
                    HandleSide::In,
                    k,
                    c,
                    value_size,
                    (tk - dt_in, v - a * dt_in),
                );
                t.set_point(
                    HandleSide::Out,
                    k,
                    c,
                    value_size,
                    (tk + dt_out, v + b * dt_out),
                );
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_default_to_free_and_follow_kept_keys() {
        let mut t = Tangents::new(vec![0.0; 6], vec![0.0; 6]);
        assert_eq!(t.mode(2), TangentMode::Free);
        t.set_mode(0, TangentMode::Free);
        assert!(t.modes.is_empty());
        t.set_mode(1, TangentMode::Vector);
        assert_eq!(t.modes, [TangentMode::Free, TangentMode::Vector]);
        t.keep_modes([1, 2]);
        assert_eq!(t.modes, [TangentMode::Vector, TangentMode::Free]);
    }

    #[test]
    fn points_by_key_and_component() {
        let mut t = Tangents::new(vec![0.0; 8], vec![0.0; 8]);
        t.set_point(HandleSide::Out, 1, 1, 2, (1.5, -2.0));
        assert_eq!(t.out_tangents, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, -2.0]);
        assert_eq!(t.point(HandleSide::Out, 1, 1, 2), Some((1.5, -2.0)));
        assert_eq!(t.point(HandleSide::In, 2, 0, 2), None);
        t.set_point(HandleSide::In, 5, 0, 2, (1.0, 1.0));
        assert_eq!(t.in_tangents, [0.0; 8]);
    }
}
