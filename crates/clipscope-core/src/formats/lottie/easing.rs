//! Lottie's easing curves: lottie-web's `BezierEaser.js`, which is the npm `bezier-easing` 2.x
//! algorithm (spec A7), reproduced operation for operation.
//!
//! A keyframe's `o` and `i` handles are the two inner control points of a cubic bezier from
//! (0, 0) to (1, 1), like CSS `cubic-bezier()`: the time fraction `x` is mapped to the curve
//! parameter `u` with `X(u) = x`, and the progress is `Y(u)`. The solver is bezier-easing's: an
//! 11-entry sample table (stored as `f32`, like its `Float32Array`) gives a first guess, then four
//! Newton–Raphson steps, or a bisection where the curve is too flat. npm `bezier-easing` 3.x
//! solves the cubic algebraically instead and differs in the last digits; lottie-web uses this.
//!
//! The same curve is a cubic bezier in the (time, value) plane: from key `(t0, v0)` through
//! `(t0 + o.x·dt, v0 + o.y·dv)` and `(t0 + i.x·dt, v0 + i.y·dv)` to `(t1, v1)`. That is how the
//! reader stores it as the model's Bezier tangents, whose interpolant solves for time with its
//! own (three.js) Newton iteration; both solvers converge to the same root, well within 1e-5 of
//! the value range (checked in the tests below).

/// Newton–Raphson steps (`NEWTON_ITERATIONS`).
const NEWTON_ITERATIONS: usize = 4;
/// Below this initial slope the solver bisects instead (`NEWTON_MIN_SLOPE`).
const NEWTON_MIN_SLOPE: f64 = 0.001;
/// Bisection stops when `|X(u) - x|` is at most this (`SUBDIVISION_PRECISION`).
const SUBDIVISION_PRECISION: f64 = 0.0000001;
/// Bisection steps at most (`SUBDIVISION_MAX_ITERATIONS`).
const SUBDIVISION_MAX_ITERATIONS: usize = 10;
/// Entries of the sample table (`kSplineTableSize`).
const TABLE_SIZE: usize = 11;
/// The parameter step between table entries (`kSampleStepSize`).
const SAMPLE_STEP: f64 = 1.0 / (TABLE_SIZE as f64 - 1.0);

/// One easing curve with handles `o = (x1, y1)` and `i = (x2, y2)`; [`Easing::get`] maps a time
/// fraction to a progress exactly like lottie-web's `BezierEasing.get`.
#[derive(Debug, Clone)]
pub struct Easing {
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    /// `X(i / 10)`, rounded to `f32` like bezier-easing's `Float32Array`.
    samples: [f32; TABLE_SIZE],
}

impl Easing {
    /// The curve through `(x1, y1)` (the key's `o` handle) and `(x2, y2)` (its `i` handle).
    /// Like lottie-web, handles outside `[0, 1]` are not rejected.
    pub fn new(x1: f64, y1: f64, x2: f64, y2: f64) -> Easing {
        let mut samples = [0.0; TABLE_SIZE];
        if !(x1 == y1 && x2 == y2) {
            for (i, s) in samples.iter_mut().enumerate() {
                *s = calc_bezier(i as f64 * SAMPLE_STEP, x1, x2) as f32;
            }
        }
        Easing {
            x1,
            y1,
            x2,
            y2,
            samples,
        }
    }

    /// The linear curve (`o = (0, 0)`, `i = (1, 1)`), which returns `x` unchanged.
    pub fn linear() -> Easing {
        Easing::new(0.0, 0.0, 1.0, 1.0)
    }

    /// The handles `(x1, y1, x2, y2)`.
    pub fn handles(&self) -> (f64, f64, f64, f64) {
        (self.x1, self.y1, self.x2, self.y2)
    }

    /// True when the curve is the identity (`x1 == y1 && x2 == y2`, bezier-easing's shortcut).
    pub fn is_linear(&self) -> bool {
        self.x1 == self.y1 && self.x2 == self.y2
    }

    /// The progress at time fraction `x` (not clamped: handles with `y` outside `[0, 1]`
    /// overshoot). `x == 0` gives 0 and `x == 1` gives 1 exactly.
    pub fn get(&self, x: f64) -> f64 {
        if self.is_linear() {
            return x;
        }
        if x == 0.0 {
            return 0.0;
        }
        if x == 1.0 {
            return 1.0;
        }
        calc_bezier(self.t_for_x(x), self.y1, self.y2)
    }

    /// bezier-easing's `getTForX`: table guess, then Newton or bisection.
    fn t_for_x(&self, x: f64) -> f64 {
        let (x1, x2) = (self.x1, self.x2);
        let samples = &self.samples;
        let mut interval_start = 0.0;
        let mut current = 1;
        let last = TABLE_SIZE - 1;
        while current != last && samples[current] as f64 <= x {
            interval_start += SAMPLE_STEP;
            current += 1;
        }
        current -= 1;
        let lo = samples[current] as f64;
        let hi = samples[current + 1] as f64;
        let dist = (x - lo) / (hi - lo);
        let guess = interval_start + dist * SAMPLE_STEP;
        let initial_slope = slope(guess, x1, x2);
        if initial_slope >= NEWTON_MIN_SLOPE {
            newton(x, guess, x1, x2)
        } else if initial_slope == 0.0 {
            guess
        } else {
            bisect(x, interval_start, interval_start + SAMPLE_STEP, x1, x2)
        }
    }
}

/// `A = 1 - 3·a2 + 3·a1`.
fn coef_a(a1: f64, a2: f64) -> f64 {
    1.0 - 3.0 * a2 + 3.0 * a1
}

/// `B = 3·a2 - 6·a1`.
fn coef_b(a1: f64, a2: f64) -> f64 {
    3.0 * a2 - 6.0 * a1
}

/// `C = 3·a1`.
fn coef_c(a1: f64) -> f64 {
    3.0 * a1
}

/// `((A·u + B)·u + C)·u`: one coordinate of the curve at parameter `u`.
pub(crate) fn calc_bezier(u: f64, a1: f64, a2: f64) -> f64 {
    ((coef_a(a1, a2) * u + coef_b(a1, a2)) * u + coef_c(a1)) * u
}

/// `3A·u² + 2B·u + C`: its derivative.
fn slope(u: f64, a1: f64, a2: f64) -> f64 {
    3.0 * coef_a(a1, a2) * u * u + 2.0 * coef_b(a1, a2) * u + coef_c(a1)
}

/// `newtonRaphsonIterate`.
fn newton(x: f64, mut guess: f64, x1: f64, x2: f64) -> f64 {
    for _ in 0..NEWTON_ITERATIONS {
        let current_slope = slope(guess, x1, x2);
        if current_slope == 0.0 {
            return guess;
        }
        let current_x = calc_bezier(guess, x1, x2) - x;
        guess -= current_x / current_slope;
    }
    guess
}

/// `binarySubdivide`.
fn bisect(x: f64, mut a: f64, mut b: f64, x1: f64, x2: f64) -> f64 {
    let mut i = 0;
    loop {
        let current_t = a + (b - a) / 2.0;
        let current_x = calc_bezier(current_t, x1, x2) - x;
        if current_x > 0.0 {
            b = current_t;
        } else {
            a = current_t;
        }
        i += 1;
        if !(current_x.abs() > SUBDIVISION_PRECISION && i < SUBDIVISION_MAX_ITERATIONS) {
            return current_t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interpolant::Sampler;
    use crate::model::{Interpolation, Tangents, Track, TrackKind};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Spec A10: the two reference curves.
    #[test]
    fn reference_curves() {
        let e = Easing::new(0.333, 0.0, 0.667, 1.0);
        for (x, want) in [
            (0.1, 0.028039),
            (0.25, 0.156355),
            (0.5, 0.5),
            (0.75, 0.843645),
            (0.9, 0.971961),
        ] {
            assert!(close(e.get(x), want, 1e-6), "x {x}: {}", e.get(x));
        }
        let e = Easing::new(0.42, 0.0, 1.0, 1.0);
        for (x, want) in [
            (0.1, 0.017027),
            (0.25, 0.093465),
            (0.5, 0.315357),
            (0.75, 0.621862),
            (0.9, 0.839428),
        ] {
            assert!(close(e.get(x), want, 1e-6), "x {x}: {}", e.get(x));
        }
    }

    #[test]
    fn shortcuts_and_overshoot() {
        let e = Easing::new(0.2, 0.2, 0.7, 0.7);
        assert!(e.is_linear());
        assert_eq!(e.get(0.3), 0.3);
        let e = Easing::new(0.3, -0.5, 0.7, 1.5);
        assert_eq!(e.get(0.0), 0.0);
        assert_eq!(e.get(1.0), 1.0);
        assert!(e.get(0.1) < 0.0 && e.get(0.9) > 1.0);
        // A flat start (x1 = 0) takes the bisection path without failing.
        let e = Easing::new(0.0, 0.0, 0.0, 1.0);
        assert!(e.get(0.001).is_finite());
    }

    /// The model's Bezier interpolant, fed the handles the reader makes, follows lottie's easing
    /// to within 1e-5 of the value range over a spread of handles (A7 vs three.js r187).
    #[test]
    fn model_bezier_matches_lottie_easing() {
        let mut worst: f64 = 0.0;
        let handles = [
            (0.333, 0.0, 0.667, 1.0),
            (0.42, 0.0, 1.0, 1.0),
            (0.3, -0.5, 0.7, 1.5),
            (0.0, 0.0, 0.0, 1.0),
            (1.0, 0.0, 1.0, 1.0),
            (0.9, -0.4, 0.8, -0.2),
            (0.05, 0.9, 0.95, 0.1),
            (0.167, 0.167, 0.833, 0.833),
        ];
        for &(ox, oy, ix, iy) in &handles {
            let (t0, t1, v0, v1) = (100.0 / 30.0, 130.0 / 30.0, 0.0, 100.0);
            let dt: f64 = t1 - t0;
            let mut track = Track::numeric(
                "x.rotation",
                TrackKind::Number,
                vec![t0 as f32, t1 as f32],
                vec![v0 as f32, v1 as f32],
            );
            track.interpolation = Interpolation::Bezier;
            track.tangents = Some(Tangents::new(
                vec![
                    0.0,
                    0.0,
                    (t0 + ix * dt) as f32,
                    (v0 + iy * (v1 - v0)) as f32,
                ],
                vec![
                    (t0 + ox * dt) as f32,
                    (v0 + oy * (v1 - v0)) as f32,
                    0.0,
                    0.0,
                ],
            ));
            let e = Easing::new(ox, oy, ix, iy);
            let mut s = Sampler::new(&track);
            let mut out = [0.0];
            for k in 1..60 {
                let frame = 100.0 + 30.0 * k as f64 / 60.0;
                let want = v0 + (v1 - v0) * e.get((frame - 100.0) / 30.0);
                s.evaluate_f64((frame / 30.0) as f32 as f64, &mut out);
                worst = worst.max((out[0] - want).abs() / (v1 - v0));
            }
        }
        assert!(worst < 1e-5, "worst relative difference {worst}");
    }
}
