//! The value type of a track (three.js's `KeyframeTrack` subclasses and their `ValueTypeName`).

use super::Interpolation;

/// What kind of values a track holds; mirrors three.js's Number/Vector/Color/Quaternion/
/// Boolean/StringKeyframeTrack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrackKind {
    /// `NumberKeyframeTrack` (`"number"`): scalars such as opacity or one morph influence.
    Number,
    /// `VectorKeyframeTrack` (`"vector"`): positions, scales, any float tuple.
    Vector,
    /// `ColorKeyframeTrack` (`"color"`): RGB triples.
    Color,
    /// `QuaternionKeyframeTrack` (`"quaternion"`): rotations, interpolated with slerp.
    Quaternion,
    /// `BooleanKeyframeTrack` (`"bool"`): visibility and other flags; always discrete.
    Bool,
    /// `StringKeyframeTrack` (`"string"`): names and other text; always discrete.
    String,
}

impl TrackKind {
    /// Every kind, in the order three.js lists them.
    pub const ALL: [TrackKind; 6] = [
        TrackKind::Number,
        TrackKind::Vector,
        TrackKind::Color,
        TrackKind::Quaternion,
        TrackKind::Bool,
        TrackKind::String,
    ];

    /// three.js's `ValueTypeName`, also the `type` written to JSON.
    pub fn type_name(self) -> &'static str {
        match self {
            TrackKind::Number => "number",
            TrackKind::Vector => "vector",
            TrackKind::Color => "color",
            TrackKind::Quaternion => "quaternion",
            TrackKind::Bool => "bool",
            TrackKind::String => "string",
        }
    }

    /// Maps a JSON `type` to a kind with three.js's case-insensitive alias table
    /// (`scalar`, `double`, `float`, `integer`, `vector3`, `boolean`, …).
    pub fn from_type_name(name: &str) -> Option<TrackKind> {
        let lower = name.to_ascii_lowercase();
        Some(match lower.as_str() {
            "scalar" | "double" | "float" | "number" | "integer" => TrackKind::Number,
            "vector" | "vector2" | "vector3" | "vector4" => TrackKind::Vector,
            "color" => TrackKind::Color,
            "quaternion" => TrackKind::Quaternion,
            "bool" | "boolean" => TrackKind::Bool,
            "string" => TrackKind::String,
            _ => return None,
        })
    }

    /// The interpolation a new track of this kind gets (`DefaultInterpolation`).
    pub fn default_interpolation(self) -> Interpolation {
        match self {
            TrackKind::Bool | TrackKind::String => Interpolation::Discrete,
            _ => Interpolation::Linear,
        }
    }

    /// Whether three.js has an interpolant factory for this mode on this kind: quaternions have
    /// no Smooth, bool and string tracks have neither Linear nor Smooth (Bezier is inherited).
    pub fn supports(self, interpolation: Interpolation) -> bool {
        !matches!(
            (self, interpolation),
            (TrackKind::Quaternion, Interpolation::Smooth)
                | (
                    TrackKind::Bool | TrackKind::String,
                    Interpolation::Linear | Interpolation::Smooth
                )
        )
    }

    /// True for kinds whose values are `f32` numbers (everything but bool and string).
    pub fn is_numeric(self) -> bool {
        !matches!(self, TrackKind::Bool | TrackKind::String)
    }
}

impl std::fmt::Display for TrackKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.type_name())
    }
}
