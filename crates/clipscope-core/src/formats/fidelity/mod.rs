//! Playing right where a file ships: how each destination's player fills the time between the
//! keys a writer stores, keys added until that playback follows the source, and the measured
//! deviation between the two.
//!
//! The source is the model: a clip plays as three.js r187 plays it ([`Sampler`]). A destination
//! may play the same keys otherwise: the PlayCanvas anim system interpolates quaternion
//! components and normalizes (so keys in opposite hemispheres spin the long way round, and even
//! short arcs stray from a slerp between keys), its `localEulerAngles` curves interpolate Euler
//! degrees, the legacy PlayCanvas `Skeleton` slerps but averages keys closer than about 0.1°,
//! and players that only interpolate linearly cannot hold a curve at all. [`Player`] says how
//! one destination plays keys; [`fit`] adds keys where that playback strays from the source by
//! more than a [`Tolerance`]; [`measure`] compares what a written file plays with the source and
//! gives a [`Fidelity`] report, per track, which `clipscope convert` prints and `--max-deviation`
//! checks.
//!
//! Deviations are in the units of what a track animates ([`Quantity`]): rotations in degrees
//! (the angle between the two rotations, after normalization, either sign), positions in the
//! file's units, scales and other values relative to their magnitude (`|a − b| / max(|a|, 1)`).
//!
//! [`Sampler`]: crate::model::interpolant::Sampler

pub(crate) mod fit;
pub(crate) mod measure;
pub(crate) mod player;
pub(crate) mod readback;

use crate::model::{Track, TrackKind};

pub(crate) use measure::{Curve, Played, Unmap};
pub(crate) use player::Player;

/// How closely a writer makes the destination play the source: where the destination's
/// playback of the written keys strays further, the writer adds keys.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Rotations: the largest angle, in degrees, between the source's rotation and the
    /// destination's (default 0.05°).
    pub rotation_deg: f64,
    /// Positions, scales and other values: the largest difference relative to the value's
    /// magnitude above 1, `|a − b| / max(|a|, 1)` (default 2·10⁻⁵).
    pub relative: f64,
}

impl Default for Tolerance {
    fn default() -> Tolerance {
        Tolerance {
            rotation_deg: DEFAULT_ROTATION_DEG,
            relative: DEFAULT_RELATIVE,
        }
    }
}

/// The default rotation tolerance, degrees.
pub const DEFAULT_ROTATION_DEG: f64 = 0.05;

/// The default relative tolerance of other values.
pub const DEFAULT_RELATIVE: f64 = 2e-5;

impl Tolerance {
    /// The tolerance for a value of `quantity`, in [`Quantity::error`]'s units for the fit
    /// (degrees for rotations, relative otherwise).
    pub(crate) fn of(&self, quantity: Quantity) -> f64 {
        match quantity {
            Quantity::Rotation => self.rotation_deg,
            _ => self.relative,
        }
    }
}

/// What a track's values measure, which decides the unit of its deviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantity {
    /// A position (`.position`, Lottie `p`): deviations in the file's units.
    Position,
    /// A rotation (a quaternion track): deviations in degrees.
    Rotation,
    /// A scale: deviations relative to the value.
    Scale,
    /// Anything else (weights, colors, opacity, angles as numbers): relative.
    Value,
}

impl Quantity {
    /// Every quantity, in report order.
    pub const ALL: [Quantity; 4] = [
        Quantity::Position,
        Quantity::Rotation,
        Quantity::Scale,
        Quantity::Value,
    ];

    /// What `track` measures: quaternions are rotations, `…position` and `…scale` tracks
    /// positions and scales, anything else a value.
    pub fn of(track: &Track) -> Quantity {
        if track.kind == TrackKind::Quaternion {
            return Quantity::Rotation;
        }
        let property = track
            .name
            .rsplit(['.', '/'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if property.starts_with("position") || property == "localposition" {
            Quantity::Position
        } else if property.starts_with("scale") || property == "localscale" {
            Quantity::Scale
        } else {
            Quantity::Value
        }
    }

    /// `position`, `rotation`, `scale` or `value`.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Position => "position",
            Quantity::Rotation => "rotation",
            Quantity::Scale => "scale",
            Quantity::Value => "value",
        }
    }

    /// The unit of a reported deviation: `°`, ` units` or ` (relative)`.
    pub fn unit(self) -> &'static str {
        match self {
            Quantity::Rotation => "°",
            Quantity::Position => " (file units)",
            _ => " (relative)",
        }
    }

    /// A deviation in this quantity's unit, as short text: `0.012°`, `0.0003 (file units)`,
    /// `2.00e-6 (relative)`; a value the player does not set says so.
    pub fn describe(self, d: f64) -> String {
        if !d.is_finite() {
            return "nothing (the player does not set it there)".to_string();
        }
        format!("{}{}", short(d), self.unit())
    }

    /// The fit's error between a source value `a` and a played value `b` (both of this
    /// quantity): degrees between rotations, else the largest relative difference.
    pub(crate) fn error(self, a: &[f64], b: &[f64]) -> f64 {
        match self {
            Quantity::Rotation => angle_deg(a, b),
            _ => relative(a, b),
        }
    }

    /// The reported deviation between `a` and `b`: degrees for rotations, the largest
    /// difference for positions, the largest relative difference otherwise.
    pub(crate) fn deviation(self, a: &[f64], b: &[f64]) -> f64 {
        match self {
            Quantity::Rotation => angle_deg(a, b),
            Quantity::Position => a
                .iter()
                .zip(b)
                .map(|(x, y)| nan_max((x - y).abs(), x, y))
                .fold(0.0, f64::max),
            _ => relative(a, b),
        }
    }
}

/// A number as short text: 4 decimals, exponent form below 10⁻³.
pub fn short(d: f64) -> String {
    if d == 0.0 {
        "0".into()
    } else if d.abs() < 1e-3 {
        format!("{d:.2e}")
    } else {
        format!("{}", (d * 1e4).round() / 1e4)
    }
}

/// `d`, or infinity when either value is NaN (a value the player did not produce).
fn nan_max(d: f64, x: &f64, y: &f64) -> f64 {
    if x.is_nan() != y.is_nan() {
        f64::INFINITY
    } else if x.is_nan() {
        0.0
    } else {
        d
    }
}

/// The largest `|a − b| / max(|a|, 1)` over the components.
pub(crate) fn relative(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| nan_max((x - y).abs() / x.abs().max(1.0), x, y))
        .fold(0.0, f64::max)
}

/// The angle in degrees between the rotations of two quaternions (normalized, either sign);
/// infinity when one is zero or NaN and the other is not.
pub(crate) fn angle_deg(a: &[f64], b: &[f64]) -> f64 {
    let (Some(a), Some(b)) = (unit(a), unit(b)) else {
        let zero = |q: &[f64]| unit(q).is_none();
        return if zero(a) && zero(b) {
            0.0
        } else {
            f64::INFINITY
        };
    };
    // 2·atan2(|a − b|, |a + b|) is accurate for tiny angles, where 2·acos(dot) is not.
    let sign = if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>() < 0.0 {
        -1.0
    } else {
        1.0
    };
    let diff: f64 = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - sign * y).powi(2))
        .sum::<f64>()
        .sqrt();
    let sum: f64 = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x + sign * y).powi(2))
        .sum::<f64>()
        .sqrt();
    (4.0 * diff.atan2(sum)).to_degrees()
}

/// A cheap stand-in for [`angle_deg`] that grows with the angle: the squared sine of half the
/// angle between the rotations, `1 − (a·b)² / (|a|²·|b|²)`, with no root or arc function.
/// Exact to about 1e-15 of 1 (well inside [`ANGLE_ORDER_SLACK`]); `None` where `angle_deg`
/// has a special case (a zero, infinite or NaN quaternion).
pub(crate) fn angle_order(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != 4 || b.len() != 4 {
        return None;
    }
    let (mut dot, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for i in 0..4 {
        dot += a[i] * b[i];
        aa += a[i] * a[i];
        bb += b[i] * b[i];
    }
    let key = 1.0 - dot * dot / (aa * bb);
    (aa > 0.0 && bb > 0.0 && aa.is_finite() && bb.is_finite() && key.is_finite()).then_some(key)
}

/// How far below the largest [`angle_order`] so far a value must be for its angle to be
/// smaller for certain: far more than the key's rounding (about 1e-15), far less than any
/// angle worth reporting (a key of 1e-12 is an angle of about 1e-4°).
pub(crate) const ANGLE_ORDER_SLACK: f64 = 1e-12;

/// `q` (4 numbers) scaled to unit length; `None` when it has no length or is not finite.
pub(crate) fn unit(q: &[f64]) -> Option<[f64; 4]> {
    if q.len() != 4 {
        return None;
    }
    let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    (len > 0.0 && len.is_finite()).then(|| [q[0] / len, q[1] / len, q[2] / len, q[3] / len])
}

/// How one source track plays where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackFidelity {
    /// The source clip's name.
    pub clip: String,
    /// The source track's name.
    pub track: String,
    /// What the track measures (the unit of its deviation).
    pub quantity: Quantity,
    /// Where the written file puts it (`Hips/graph/localRotation`, `node 'Hips' rotation`);
    /// `None` when it is not written.
    pub target: Option<String>,
    /// The largest deviation between the source and the destination's playback, in the
    /// quantity's unit; 0 when not written or not measured.
    pub deviation: f64,
    /// When the largest deviation happens, in seconds.
    pub at: f64,
    /// Keys the writer added so the destination plays the source.
    pub keys_added: usize,
    /// Why the track is not written, or what the measurement cannot see of how the destination
    /// plays it (a Lottie property driven by an expression).
    pub note: Option<String>,
}

/// How every track of a written document plays in its destination.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fidelity {
    /// One entry per numeric source track with keys, in clip and track order.
    pub tracks: Vec<TrackFidelity>,
    /// Per quantity, the written track whose value jumps most at the loop seam (from the clip's
    /// end back to its start). Every destination's player loops by default (three.js's
    /// `LoopRepeat`, the PlayCanvas anim state and `Skeleton`, lottie-web) and does at the seam
    /// what the source does looped: it holds the last key to the clip's end and starts over at
    /// the first, never interpolating from the last key to the first; the players harness
    /// checks that across the seam. Only jumps beyond the [`Tolerance`] are listed.
    pub seams: Vec<Seam>,
}

/// A track whose value at the clip's end differs from its value at the start: looped, it jumps
/// there (in the source as in the destination).
#[derive(Debug, Clone, PartialEq)]
pub struct Seam {
    /// The source clip's name.
    pub clip: String,
    /// The source track's name.
    pub track: String,
    /// What the track measures.
    pub quantity: Quantity,
    /// The jump, in the quantity's unit (as [`TrackFidelity::deviation`]).
    pub jump: f64,
}

impl Fidelity {
    /// The largest deviation of `quantity` among written tracks (`None` when none has it).
    pub fn largest(&self, quantity: Quantity) -> Option<&TrackFidelity> {
        self.tracks
            .iter()
            .filter(|t| t.quantity == quantity && t.target.is_some())
            .max_by(|a, b| a.deviation.total_cmp(&b.deviation))
    }

    /// Keys added in all.
    pub fn keys_added(&self) -> usize {
        self.tracks.iter().map(|t| t.keys_added).sum()
    }

    /// The one-line summary `convert` and the editor's export dialog show: `plays in
    /// playcanvas-anim within position 3.55e-15 (file units) ('Hips.position' at 0.11 s),
    /// rotation 0.043° (…); 42 key(s) added so it plays the source`.
    pub fn summary(&self, to: crate::formats::Format) -> String {
        let parts: Vec<String> = Quantity::ALL
            .iter()
            .filter_map(|&q| self.largest(q))
            .map(|t| {
                format!(
                    "{} {} ('{}' at {} s)",
                    t.quantity.name(),
                    t.quantity.describe(t.deviation),
                    t.track,
                    short(t.at)
                )
            })
            .collect();
        let added = self.keys_added();
        let mut line = if parts.is_empty() {
            format!("plays in {to}: no numeric tracks written")
        } else {
            format!("plays in {to} within {}", parts.join(", "))
        };
        if added > 0 {
            line.push_str(&format!(
                "; {} key(s) added so it plays the source",
                crate::text::thousands(added)
            ));
        }
        line
    }

    /// The tracks not written.
    pub fn not_written(&self) -> impl Iterator<Item = &TrackFidelity> {
        self.tracks.iter().filter(|t| t.target.is_none())
    }

    /// The written tracks whose deviation exceeds `limit` for their quantity.
    pub fn beyond<'a>(&'a self, limit: &'a Limits) -> impl Iterator<Item = &'a TrackFidelity> + 'a {
        self.tracks.iter().filter(move |t| {
            t.target.is_some() && limit.of(t.quantity).is_some_and(|l| t.deviation > l)
        })
    }
}

/// Largest deviations allowed per quantity (`convert --max-deviation`), each in its unit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Limits {
    /// Positions, in file units.
    pub position: Option<f64>,
    /// Rotations, in degrees.
    pub rotation: Option<f64>,
    /// Scales, relative.
    pub scale: Option<f64>,
    /// Other values, relative.
    pub value: Option<f64>,
}

impl Limits {
    /// The same limit for every quantity, each in its own unit.
    pub fn all(limit: f64) -> Limits {
        Limits {
            position: Some(limit),
            rotation: Some(limit),
            scale: Some(limit),
            value: Some(limit),
        }
    }

    /// The limit of `quantity`.
    pub fn of(&self, quantity: Quantity) -> Option<f64> {
        match quantity {
            Quantity::Position => self.position,
            Quantity::Rotation => self.rotation,
            Quantity::Scale => self.scale,
            Quantity::Value => self.value,
        }
    }

    /// Parses `0.1` (every quantity) or `rotation=0.05,position=0.001` (any of `position`,
    /// `rotation`, `scale`, `value`).
    pub fn parse(text: &str) -> Result<Limits, LimitsError> {
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| LimitsError::NotANumber(s.trim().to_string()))
        };
        if !text.contains('=') {
            return number(text).map(Limits::all);
        }
        let mut limits = Limits::default();
        for part in text.split(',') {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| LimitsError::NotAPair(part.trim().to_string()))?;
            let v = Some(number(value)?);
            match name.trim() {
                "position" => limits.position = v,
                "rotation" => limits.rotation = v,
                "scale" => limits.scale = v,
                "value" => limits.value = v,
                other => return Err(LimitsError::UnknownQuantity(other.to_string())),
            }
        }
        Ok(limits)
    }
}

/// Why a text is not [`Limits`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LimitsError {
    /// A limit that is not a finite number ≥ 0.
    NotANumber(String),
    /// A part of a list that is not `QUANTITY=NUMBER`.
    NotAPair(String),
    /// A quantity other than `position`, `rotation`, `scale` or `value`.
    UnknownQuantity(String),
}

impl std::fmt::Display for LimitsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitsError::NotANumber(s) => write!(f, "'{s}' is not a number ≥ 0"),
            LimitsError::NotAPair(s) => write!(f, "'{s}' is not QUANTITY=NUMBER"),
            LimitsError::UnknownQuantity(s) => write!(
                f,
                "unknown quantity '{s}' (expected position, rotation, scale or value)"
            ),
        }
    }
}

impl std::error::Error for LimitsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_between_rotations() {
        let id = [0.0, 0.0, 0.0, 1.0];
        let half = (45f64).to_radians();
        let z90 = [0.0, 0.0, half.sin(), half.cos()];
        assert!((angle_deg(&id, &z90) - 90.0).abs() < 1e-9);
        let neg: Vec<f64> = z90.iter().map(|x| -x * 3.0).collect();
        assert!(
            (angle_deg(&id, &neg) - 90.0).abs() < 1e-9,
            "either sign, any length"
        );
        let tiny = (1e-6f64).to_radians() / 2.0;
        let q = [tiny.sin(), 0.0, 0.0, tiny.cos()];
        assert!((angle_deg(&id, &q) - 1e-6).abs() < 1e-12);
        assert_eq!(angle_deg(&[0.0; 4], &id), f64::INFINITY);
    }

    #[test]
    fn the_angle_order_grows_with_the_angle_and_leaves_special_cases_to_it() {
        // Pairs at angles from a millionth of a degree to 180°, of any length and either sign:
        // a larger angle has a larger key, beyond the slack wherever the angles differ by
        // more than a ten-thousandth of a degree.
        let mut pairs = Vec::new();
        for (i, degrees) in [1e-6, 1e-4, 0.02, 0.5, 1.0, 30.0, 90.0, 179.0, 180.0]
            .into_iter()
            .enumerate()
        {
            let half = f64::to_radians(degrees) / 2.0;
            let axis = [0.6, 0.0, 0.8];
            let a = [0.1, 0.7, -0.1, 0.7];
            let b = [
                axis[0] * half.sin(),
                axis[1] * half.sin(),
                axis[2] * half.sin(),
                half.cos(),
            ];
            // b applied to a (Hamilton product), scaled and with its sign flipped on odd i.
            let r = [
                b[3] * a[0] + b[0] * a[3] + b[1] * a[2] - b[2] * a[1],
                b[3] * a[1] - b[0] * a[2] + b[1] * a[3] + b[2] * a[0],
                b[3] * a[2] + b[0] * a[1] - b[1] * a[0] + b[2] * a[3],
                b[3] * a[3] - b[0] * a[0] - b[1] * a[1] - b[2] * a[2],
            ];
            let scale = if i % 2 == 1 { -2.5 } else { 0.4 };
            let r: Vec<f64> = r.iter().map(|x| x * scale).collect();
            let angle = angle_deg(&a, &r);
            assert!(
                (angle - degrees).abs() < 1e-6 * degrees.max(1.0),
                "{degrees}: {angle}"
            );
            pairs.push((angle, angle_order(&a, &r).unwrap()));
        }
        for w in pairs.windows(2) {
            let ((a0, k0), (a1, k1)) = (w[0], w[1]);
            assert!(a1 > a0 && k1 >= k0, "{w:?}");
            if a1 - a0 > 1e-4 {
                assert!(k0 + ANGLE_ORDER_SLACK < k1, "{w:?}");
            }
        }
        // Where angle_deg has a special case, the order says nothing.
        let id = [0.0, 0.0, 0.0, 1.0];
        assert_eq!(angle_order(&[0.0; 4], &id), None);
        assert_eq!(angle_order(&id, &[f64::NAN, 0.0, 0.0, 1.0]), None);
        assert_eq!(angle_order(&id, &[f64::INFINITY, 0.0, 0.0, 1.0]), None);
        assert_eq!(angle_order(&id, &[0.0, 1.0]), None);
    }

    #[test]
    fn quantities_and_units() {
        let t = |name: &str, kind| Track::numeric(name, kind, vec![0.0], vec![0.0; 4]);
        assert_eq!(
            Quantity::of(&t("a.position", TrackKind::Vector)),
            Quantity::Position
        );
        assert_eq!(
            Quantity::of(&t(".bones[b].scale", TrackKind::Vector)),
            Quantity::Scale
        );
        assert_eq!(
            Quantity::of(&t("a.quaternion", TrackKind::Quaternion)),
            Quantity::Rotation
        );
        assert_eq!(
            Quantity::of(&t("A/graph/localPosition", TrackKind::Vector)),
            Quantity::Position
        );
        assert_eq!(
            Quantity::of(&t("l.opacity", TrackKind::Number)),
            Quantity::Value
        );
        assert!((relative(&[100.0], &[100.01]) - 1e-4).abs() < 1e-12);
        assert!((relative(&[0.5], &[0.5001]) - 1e-4).abs() < 1e-12);
        assert!((Quantity::Position.deviation(&[100.0], &[100.01]) - 0.01).abs() < 1e-9);
    }

    #[test]
    fn limits_parse() {
        assert_eq!(Limits::parse("0.1").unwrap(), Limits::all(0.1));
        let l = Limits::parse("rotation=0.05, position=0.001").unwrap();
        assert_eq!(
            (l.rotation, l.position, l.scale),
            (Some(0.05), Some(0.001), None)
        );
        assert_eq!(
            Limits::parse("angle=1").unwrap_err().to_string(),
            "unknown quantity 'angle' (expected position, rotation, scale or value)"
        );
        assert_eq!(
            Limits::parse("rotation").unwrap_err(),
            LimitsError::NotANumber("rotation".into())
        );
        assert!(Limits::parse("-1").is_err());
    }
}
