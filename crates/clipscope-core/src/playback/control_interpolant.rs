//! The two-key ramps behind fades and warps (three.js's pooled "control interpolants").
//!
//! three.js builds them as `LinearInterpolant(Float32Array(2), Float32Array(2), 1,
//! Float32Array(1))`: the start and end times, the start and end values and the evaluated
//! result are all rounded to `f32`, while the arithmetic in between is `f64`.

/// A linear ramp from `values[0]` at `times[0]` to `values[1]` at `times[1]`, in `f32` storage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControlInterpolant {
    /// Start and end time (f32, like the `Float32Array` three.js stores them in).
    pub times: [f32; 2],
    /// Start and end value (f32).
    pub values: [f32; 2],
}

impl ControlInterpolant {
    /// A ramp from `from` at `now` to `to` at `now + duration`, each rounded to f32.
    pub fn new(now: f64, duration: f64, from: f64, to: f64) -> ControlInterpolant {
        ControlInterpolant {
            times: [now as f32, (now + duration) as f32],
            values: [from as f32, to as f32],
        }
    }

    /// The end time, widened to f64.
    pub fn end_time(&self) -> f64 {
        self.times[1] as f64
    }

    /// The ramp's value at `t`, rounded to f32 like the shared `Float32Array(1)` result:
    /// the start value before the start, the end value at or after the end (or for NaN), and
    /// `v0 * (1 - w) + v1 * w` with `w = (t - t0) / (t1 - t0)` in between.
    pub fn evaluate(&self, t: f64) -> f32 {
        let [t0, t1] = self.times.map(f64::from);
        let [v0, v1] = self.values.map(f64::from);
        if t < t0 {
            return self.values[0];
        }
        if t >= t1 || t.is_nan() {
            return self.values[1];
        }
        let w1 = (t - t0) / (t1 - t0);
        let w0 = 1.0 - w1;
        (v0 * w0 + v1 * w1) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fade_in_ramp_is_f32() {
        let ramp = ControlInterpolant::new(0.0, 0.3, 0.0, 1.0);
        assert_eq!(ramp.end_time(), 0.30000001192092896);
        assert_eq!(ramp.evaluate(0.1) as f64, 0.3333333134651184);
        assert_eq!(ramp.evaluate(-1.0), 0.0);
        assert_eq!(ramp.evaluate(0.30000001192092896), 1.0);
        assert_eq!(ramp.evaluate(f64::NAN), 1.0);
    }
}
