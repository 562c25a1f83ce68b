//! The time axis: how clip time maps to screen x, and the "nice" tick steps of a ruler.

use egui::Rangef;

/// A horizontal mapping between clip time (seconds) and screen x (points).
///
/// The visible time range `[start, end]` fills the screen range `x` less [`TimeAxis::MARGIN`]
/// on each side, so that keys at the very start and end are drawn whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeAxis {
    x: Rangef,
    start: f64,
    end: f64,
}

impl TimeAxis {
    /// Empty space (points) kept on each side of the visible time range.
    pub const MARGIN: f32 = 12.0;

    /// Maps `[start, end]` seconds onto the screen range `x` (less the margins). A degenerate
    /// range is widened so the mapping stays invertible.
    pub fn new(x: Rangef, start: f64, end: f64) -> TimeAxis {
        let (start, end) = if start.is_finite() && end.is_finite() && end > start {
            (start, end)
        } else {
            let start = if start.is_finite() { start } else { 0.0 };
            (start, start + 1.0)
        };
        TimeAxis { x, start, end }
    }

    /// The screen range the axis covers, margins included.
    pub fn x_range(&self) -> Rangef {
        self.x
    }

    /// First visible time (seconds) at the left margin.
    pub fn start(&self) -> f64 {
        self.start
    }

    /// Last visible time (seconds) at the right margin.
    pub fn end(&self) -> f64 {
        self.end
    }

    /// Screen x of `time`.
    pub fn x_of(&self, time: f64) -> f32 {
        let (left, width) = self.inner();
        left + ((time - self.start) / (self.end - self.start) * width) as f32
    }

    /// The time under screen x (not clamped: x in the margins gives times outside the range).
    pub fn time_at(&self, x: f32) -> f64 {
        let (left, width) = self.inner();
        self.start + f64::from(x - left) / width * (self.end - self.start)
    }

    /// Points per second of clip time.
    pub fn points_per_second(&self) -> f64 {
        self.inner().1 / (self.end - self.start)
    }

    /// Left edge and width of the range inside the margins (at least one point wide).
    fn inner(&self) -> (f32, f64) {
        let left = self.x.min + Self::MARGIN;
        let width = (self.x.max - Self::MARGIN - left).max(1.0);
        (left, f64::from(width))
    }
}

/// The smallest "nice" step (1, 2 or 5 × 10ⁿ) that is at least `min_step`.
pub(super) fn nice_step(min_step: f64) -> f64 {
    if !(min_step.is_finite() && min_step > 0.0) {
        return 1.0;
    }
    let decade = 10f64.powf(min_step.log10().floor());
    for factor in [1.0, 2.0, 5.0, 10.0] {
        let step = factor * decade;
        // Tolerate float noise in `decade` so that exactly 0.2 picks 0.2 and not 0.5.
        if step >= min_step * (1.0 - 1e-9) {
            return step;
        }
    }
    10.0 * decade
}

/// Decimals needed to print multiples of a nice `step` exactly (0 for steps of 1 or more).
pub(super) fn step_decimals(step: f64) -> usize {
    if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()).max(0.0) as usize
    }
}

/// The multiples of `step` within `[from, to]`, as `(index, value)` with `value = index·step`
/// (computed from the index so labels do not accumulate float error).
pub(super) fn ticks(from: f64, to: f64, step: f64) -> impl Iterator<Item = (i64, f64)> {
    let first = (from / step).ceil() as i64;
    let last = (to / step).floor() as i64;
    // A bound on the count guards against absurd inputs.
    let last = last.min(first.saturating_add(10_000));
    (first..=last).map(move |i| (i, i as f64 * step))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_maps_the_range_inside_the_margins_and_back() {
        let axis = TimeAxis::new(Rangef::new(100.0, 524.0), 0.0, 2.0);
        assert_eq!(axis.x_of(0.0), 112.0);
        assert_eq!(axis.x_of(2.0), 512.0);
        assert_eq!(axis.x_of(1.0), 312.0);
        assert!((axis.time_at(312.0) - 1.0).abs() < 1e-9);
        assert!((axis.points_per_second() - 200.0).abs() < 1e-9);
        assert!(axis.time_at(100.0) < 0.0, "the margin is before the start");
    }

    #[test]
    fn axis_survives_degenerate_input() {
        let axis = TimeAxis::new(Rangef::new(0.0, 10.0), 0.5, 0.5);
        assert_eq!(axis.end(), 1.5);
        assert!(axis.points_per_second().is_finite());
        let axis = TimeAxis::new(Rangef::new(0.0, 100.0), f64::NAN, 3.0);
        assert_eq!((axis.start(), axis.end()), (0.0, 1.0));
    }

    #[test]
    fn nice_steps_are_1_2_5_times_powers_of_ten() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(1.01), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(6.0), 10.0);
        assert_eq!(nice_step(0.2), 0.2);
        assert!((nice_step(0.03) - 0.05).abs() < 1e-12);
        assert_eq!(nice_step(120.0), 200.0);
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(nice_step(f64::NAN), 1.0);
    }

    #[test]
    fn decimals_follow_the_step() {
        assert_eq!(step_decimals(5.0), 0);
        assert_eq!(step_decimals(1.0), 0);
        assert_eq!(step_decimals(0.5), 1);
        assert_eq!(step_decimals(0.2), 1);
        assert_eq!(step_decimals(0.05), 2);
        assert_eq!(step_decimals(0.001), 3);
    }

    #[test]
    fn ticks_cover_the_range_on_multiples() {
        let t: Vec<_> = ticks(-0.1, 1.05, 0.5).map(|(_, v)| v).collect();
        assert_eq!(t, [0.0, 0.5, 1.0]);
        let t: Vec<_> = ticks(0.25, 0.26, 0.5).collect();
        assert!(t.is_empty());
        assert_eq!(ticks(0.0, 1e12, 1e-6).count(), 10_001);
    }
}
