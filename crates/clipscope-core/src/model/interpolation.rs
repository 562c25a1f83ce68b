//! How a track fills the time between its keys (three.js `Interpolate*` constants).

/// The interpolation mode of a track, with the numeric codes three.js uses in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// `InterpolateDiscrete` (2300): hold each key's value until the next key.
    Discrete,
    /// `InterpolateLinear` (2301): straight lines; quaternions use spherical interpolation.
    Linear,
    /// `InterpolateSmooth` (2302): three.js's cubic (Catmull-Rom-like) spline.
    Smooth,
    /// `InterpolateBezier` (2303): cubic bezier segments shaped by per-key tangent handles.
    Bezier,
}

impl Interpolation {
    /// Every mode, in code order.
    pub const ALL: [Interpolation; 4] = [
        Interpolation::Discrete,
        Interpolation::Linear,
        Interpolation::Smooth,
        Interpolation::Bezier,
    ];

    /// The three.js constant (2300..=2303).
    pub fn code(self) -> u32 {
        match self {
            Interpolation::Discrete => 2300,
            Interpolation::Linear => 2301,
            Interpolation::Smooth => 2302,
            Interpolation::Bezier => 2303,
        }
    }

    /// The mode for a three.js constant, or `None` for an unknown number.
    pub fn from_code(code: f64) -> Option<Interpolation> {
        Interpolation::ALL
            .into_iter()
            .find(|i| i.code() as f64 == code)
    }

    /// A short lowercase name for reports (`discrete`, `linear`, `smooth`, `bezier`).
    pub fn name(self) -> &'static str {
        match self {
            Interpolation::Discrete => "discrete",
            Interpolation::Linear => "linear",
            Interpolation::Smooth => "smooth",
            Interpolation::Bezier => "bezier",
        }
    }
}

impl std::fmt::Display for Interpolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
