//! How a track's values are compared, and the unit a change is reported in.

use serde::Serialize;

use crate::model::binding::parse_track_name;
use crate::model::ops::reduce::rotation_angle;
use crate::model::{Track, TrackKind};

/// The smallest rotation change that counts, in degrees, even without a tolerance: about twice
/// what one step of `f32` in a unit quaternion's components turns (a writer that renormalizes
/// quaternions moves them by that much), far below anything visible.
pub const ROTATION_RESOLUTION: f64 = 1e-5;

/// How a change of a track's values is measured and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// The distance between two positions, in the file's length unit.
    Distance,
    /// The angle between two rotations (quaternions), in degrees.
    Rotation,
    /// Euler angles stored in radians (three.js `.rotation`): the largest component change,
    /// in degrees.
    EulerRadians,
    /// Angles the file stores in degrees (Lottie): the largest component change, in degrees.
    Degrees,
    /// A length the format measures in a unit of its own (Lottie's pixels): the distance.
    Length,
    /// Percentages (Lottie's scale and opacity): the largest component change.
    Percent,
    /// Scale factors: the largest component change.
    Scale,
    /// Morph target weights: the largest change.
    Weight,
    /// Any other number: the largest component change.
    Value,
    /// Bool and string values: how many sampled times differ.
    Discrete,
}

impl Measure {
    /// How `track`'s values are measured, given the properties its format measures in units of
    /// their own.
    pub fn of(track: &Track, own: &[(String, Measure)]) -> Measure {
        if !track.kind.is_numeric() {
            return Measure::Discrete;
        }
        if track.kind == TrackKind::Quaternion {
            return Measure::Rotation;
        }
        let Ok(path) = parse_track_name(&track.name) else {
            return Measure::Value;
        };
        let property = path.property_name.as_str();
        if let Some((_, m)) = own.iter().find(|(p, _)| p == property) {
            return *m;
        }
        match property {
            "position" => Measure::Distance,
            "quaternion" => Measure::Rotation,
            "rotation" => Measure::EulerRadians,
            "scale" => Measure::Scale,
            "morphTargetInfluences" => Measure::Weight,
            _ => Measure::Value,
        }
    }

    /// The unit a change is reported in: `°`, `%`, `×` for scales, or `None` for the file's
    /// length unit ([`Measure::Distance`], [`Measure::Length`]) and plain numbers.
    pub fn unit(self) -> Option<&'static str> {
        match self {
            Measure::Rotation | Measure::EulerRadians | Measure::Degrees => Some("°"),
            Measure::Percent => Some("%"),
            Measure::Scale => Some("×"),
            Measure::Distance | Measure::Length | Measure::Weight | Measure::Value => None,
            Measure::Discrete => None,
        }
    }

    /// Whether the change is a length in the file's unit.
    pub fn is_length(self) -> bool {
        matches!(self, Measure::Distance | Measure::Length)
    }

    /// How far `new` is from `old` (one value each, same size), in this measure's unit.
    pub fn amount(self, old: &[f64], new: &[f64]) -> f64 {
        // A value that became NaN (or stopped being one) is as changed as a value can be; NaN
        // on both sides is no change.
        if old.iter().zip(new).any(|(a, b)| a.is_nan() != b.is_nan()) {
            return f64::INFINITY;
        }
        let amount = match self {
            Measure::Rotation if old.len() == 4 => {
                let angle = rotation_angle(old, new).to_degrees();
                if angle < ROTATION_RESOLUTION {
                    0.0
                } else {
                    angle
                }
            }
            Measure::Distance | Measure::Length => old
                .iter()
                .zip(new)
                .filter(|(a, b)| !(a.is_nan() && b.is_nan()))
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
                .sqrt(),
            Measure::EulerRadians => largest_component(old, new).to_degrees(),
            _ => largest_component(old, new),
        };
        if amount.is_nan() { 0.0 } else { amount }
    }
}

/// The largest difference of two values' components.
fn largest_component(old: &[f64], new: &[f64]) -> f64 {
    old.iter()
        .zip(new)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_are_measured_by_what_they_animate() {
        let t = |name: &str, kind: TrackKind| Track::numeric(name, kind, vec![0.0], vec![0.0; 3]);
        assert_eq!(
            Measure::of(&t(".bones[hip].position", TrackKind::Vector), &[]),
            Measure::Distance
        );
        assert_eq!(
            Measure::of(&t("hip.quaternion", TrackKind::Quaternion), &[]),
            Measure::Rotation
        );
        assert_eq!(
            Measure::of(&t("hip.rotation", TrackKind::Vector), &[]),
            Measure::EulerRadians
        );
        assert_eq!(
            Measure::of(&t("face.morphTargetInfluences[0]", TrackKind::Number), &[]),
            Measure::Weight
        );
        let own = [("rotation".to_string(), Measure::Degrees)];
        assert_eq!(
            Measure::of(&t("layer.rotation", TrackKind::Number), &own),
            Measure::Degrees
        );
    }

    #[test]
    fn amounts_are_in_the_reported_unit() {
        let turn = |deg: f64| {
            let h = deg.to_radians() / 2.0;
            [0.0, h.sin(), 0.0, h.cos()]
        };
        let a = Measure::Rotation.amount(&turn(10.0), &turn(40.0));
        assert!((a - 30.0).abs() < 1e-9, "{a}");
        // The other hemisphere is the same rotation.
        let flipped = turn(10.0).map(|v| -v);
        assert!(Measure::Rotation.amount(&turn(10.0), &flipped) < 1e-9);
        // One step of f32 in a component is float noise, not a turn.
        let mut nudged = turn(10.0);
        nudged[3] = (nudged[3] as f32 - f32::EPSILON / 2.0) as f64;
        assert_eq!(Measure::Rotation.amount(&turn(10.0), &nudged), 0.0);
        assert_eq!(
            Measure::Distance.amount(&[0.0, 0.0, 0.0], &[3.0, 4.0, 0.0]),
            5.0
        );
        let e = Measure::EulerRadians.amount(&[0.0, 0.0, 0.0], &[0.0, std::f64::consts::PI, 0.0]);
        assert!((e - 180.0).abs() < 1e-9);
        assert_eq!(Measure::Value.amount(&[1.0, 2.0], &[1.5, 2.0]), 0.5);
        assert_eq!(Measure::Value.amount(&[1.0], &[f64::NAN]), f64::INFINITY);
        assert_eq!(Measure::Value.amount(&[f64::NAN], &[f64::NAN]), 0.0);
    }
}
