//! What a track animates on a node of the reduction's tree: a 3D node's transform or a
//! Lottie layer's, each property with the metric its own values are measured in.

use super::channel::Metric;
use super::tree::Local;

/// What a track animates on a node of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Property {
    /// A 3D node's position.
    Position,
    /// A 3D node's quaternion.
    Quaternion,
    /// A 3D node's Euler XYZ rotation (radians).
    Euler,
    /// A 3D node's scale.
    Scale,
    /// A layer's anchor point (px).
    Anchor,
    /// A layer's position (px).
    LayerPosition,
    /// A layer's split position, x (px).
    PositionX,
    /// A layer's split position, y (px).
    PositionY,
    /// A layer's split position, z (px).
    PositionZ,
    /// A layer's scale (percent).
    LayerScale,
    /// A layer's rotation (degrees; `rotationZ` of a 3D layer).
    Rotation,
    /// A 3D layer's rotation about x (degrees).
    RotationX,
    /// A 3D layer's rotation about y (degrees).
    RotationY,
    /// A 3D layer's orientation (degrees).
    Orientation,
    /// A layer's skew (degrees).
    Skew,
    /// A layer's skew axis (degrees).
    SkewAxis,
}

/// The number of [`Property`] values.
pub(crate) const PROPERTIES: usize = 16;

impl Property {
    /// The metric of the property's own values.
    pub fn metric(self) -> Metric {
        match self {
            Property::Position
            | Property::Anchor
            | Property::LayerPosition
            | Property::PositionX
            | Property::PositionY
            | Property::PositionZ => Metric::Translation,
            Property::Quaternion => Metric::Rotation,
            Property::Scale => Metric::Scale,
            Property::Euler
            | Property::LayerScale
            | Property::Rotation
            | Property::RotationX
            | Property::RotationY
            | Property::Orientation
            | Property::Skew
            | Property::SkewAxis => Metric::Absolute,
        }
    }

    /// Whether the property turns the node (for the angle budget).
    pub fn turns(self) -> bool {
        matches!(
            self,
            Property::Quaternion
                | Property::Euler
                | Property::Rotation
                | Property::RotationX
                | Property::RotationY
                | Property::Orientation
        )
    }

    /// The property a track named `name[index]` with `value_size` values animates on a node
    /// made like `local`, if it is part of the node's transform.
    pub fn of(
        local: Local,
        name: &str,
        index: Option<&str>,
        value_size: usize,
    ) -> Option<Property> {
        match local {
            Local::Trs { .. } => match (name, index, value_size) {
                ("position", None, 3) => Some(Property::Position),
                ("quaternion", None, 4) => Some(Property::Quaternion),
                ("rotation", None, 3) => Some(Property::Euler),
                ("scale", None, 3) => Some(Property::Scale),
                _ => None,
            },
            Local::Layer { ddd, .. } => match (name, index, value_size) {
                ("anchor", None, 2 | 3) => Some(Property::Anchor),
                ("position", None, 2 | 3) => Some(Property::LayerPosition),
                ("position", Some("x"), 1) => Some(Property::PositionX),
                ("position", Some("y"), 1) => Some(Property::PositionY),
                ("position", Some("z"), 1) => Some(Property::PositionZ),
                ("scale", None, 2 | 3) => Some(Property::LayerScale),
                ("rotation", None, 1) if !ddd => Some(Property::Rotation),
                ("rotationZ", None, 1) if ddd => Some(Property::Rotation),
                ("rotationX", None, 1) if ddd => Some(Property::RotationX),
                ("rotationY", None, 1) if ddd => Some(Property::RotationY),
                ("orientation", None, 3) if ddd => Some(Property::Orientation),
                ("skew", None, 1) => Some(Property::Skew),
                ("skewAxis", None, 1) => Some(Property::SkewAxis),
                _ => None,
            },
        }
    }
}
