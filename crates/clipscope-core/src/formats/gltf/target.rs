//! What a track animates in glTF terms: a node (by name) and a channel path, or why glTF
//! cannot hold it.
//!
//! glTF 2.0 animates node translation, rotation, scale and morph weights. So `NODE.position`,
//! `NODE.quaternion`, `NODE.scale`, `NODE.morphTargetInfluences[T]` (one target) and
//! `NODE.morphTargetInfluences` (all targets per key) are writable, with `.bones[X].…` meaning
//! node `X` and a track without a node (`.position`) meaning the root object. A track named by
//! a JSON pointer (`/materials/0/emissiveFactor`, as the reader names `KHR_animation_pointer`
//! channels to anything but a node transform) is written as such a channel again. Everything
//! else (three.js material properties, Euler `rotation`, `visible`, …) has no glTF target and is
//! refused. Key times must be finite, start at 0 or later and strictly increase, and values
//! must be finite: glTF requires all three.

use std::fmt;

use super::pointer;
use crate::model::binding::parse_track_name;
use crate::model::{Track, TrackKind, Values};

/// The channel path a track feeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Property {
    /// `translation` (`.position`, 3 numbers per key).
    Translation,
    /// `rotation` (`.quaternion`, 4 per key).
    Rotation,
    /// `scale` (`.scale`, 3 per key).
    Scale,
    /// One morph target's weight (`.morphTargetInfluences[KEY]`, 1 per key): a target name or
    /// index, resolved against the node's mesh.
    Weight(String),
    /// Every morph weight at once (`.morphTargetInfluences`, one number per target per key).
    Weights,
    /// A `KHR_animation_pointer` target: the JSON pointer (any number of values per key).
    Pointer(String),
}

impl Property {
    /// The glTF path name.
    pub(crate) fn path(&self) -> &'static str {
        match self {
            Property::Translation => "translation",
            Property::Rotation => "rotation",
            Property::Scale => "scale",
            Property::Weight(_) | Property::Weights => "weights",
            Property::Pointer(_) => "pointer",
        }
    }
}

/// Which node a track addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum NodeKey {
    /// A node by name (`Hips.position`, or `.bones[Hips].position`).
    Named(String),
    /// The root object (`.position`, `.morphTargetInfluences[0]`).
    Root,
    /// No node: a `KHR_animation_pointer` target names what it animates.
    Pointer,
}

/// A track's node and property, once [`target`] accepted its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// The node.
    pub node: NodeKey,
    /// Whether the name used the `.bones[X]` form.
    pub bone: bool,
    /// The property.
    pub property: Property,
}

/// Why glTF has no channel for what a track names (the track is left out of a glTF file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NoTarget {
    /// The track name does not parse as a three.js property binding.
    Unparsable,
    /// A property of a three.js object of the node (`material.opacity`): the object's name.
    ObjectProperty(String),
    /// One component of a property (`position[x]`).
    Component {
        /// The property's name.
        property: String,
        /// The component.
        index: String,
    },
    /// A whole property glTF does not animate (`rotation`, `visible`): its name.
    Property(String),
}

impl fmt::Display for NoTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoTarget::Unparsable => f.write_str("the track name does not parse"),
            NoTarget::ObjectProperty(object) => write!(
                f,
                "glTF animates node transforms and morph weights, and what a \
                 KHR_animation_pointer JSON pointer names; '{object}' properties of three.js \
                 have no glTF target"
            ),
            NoTarget::Component { property, index } => write!(
                f,
                "glTF cannot animate one component ('{property}[{index}]'); it animates whole \
                 translations, rotations, scales and morph weights"
            ),
            NoTarget::Property(name) => write!(
                f,
                "glTF cannot animate '{name}' (only position, quaternion, scale and \
                 morphTargetInfluences)"
            ),
        }
    }
}

impl std::error::Error for NoTarget {}

/// The node and property of `track`, or why glTF cannot animate it.
pub(crate) fn target(track: &Track) -> Result<Target, NoTarget> {
    if track.name.starts_with('/') && pointer::is_valid(&track.name) {
        return Ok(Target {
            node: NodeKey::Pointer,
            bone: false,
            property: Property::Pointer(track.name.clone()),
        });
    }
    let path = parse_track_name(&track.name).map_err(|_| NoTarget::Unparsable)?;
    let (node, bone) = match (path.object_name.as_deref(), path.object_index) {
        (Some("bones"), Some(bone)) => (NodeKey::Named(bone), true),
        (Some(object), _) => return Err(NoTarget::ObjectProperty(object.to_string())),
        (None, _) => match path.node_name {
            Some(n) if !n.is_empty() => (NodeKey::Named(n), false),
            _ => (NodeKey::Root, false),
        },
    };
    let property = match (path.property_name.as_str(), path.property_index) {
        ("position", None) => Property::Translation,
        ("quaternion", None) => Property::Rotation,
        ("scale", None) => Property::Scale,
        ("morphTargetInfluences", Some(key)) => Property::Weight(key),
        ("morphTargetInfluences", None) => Property::Weights,
        (name, Some(index)) => {
            return Err(NoTarget::Component {
                property: name.to_string(),
                index,
            });
        }
        (name, None) => return Err(NoTarget::Property(name.to_string())),
    };
    Ok(Target {
        node,
        bone,
        property,
    })
}

/// Why a track's keys cannot be a glTF sampler's for its property (writing refuses the
/// document).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BadKeys {
    /// The values are not numbers: the track's kind.
    NotNumbers(TrackKind),
    /// The wrong number of values per key for the property.
    ValuesPerKey {
        /// The values per key the track has (values over keys).
        per_key: f64,
        /// The glTF path of the property.
        path: &'static str,
        /// What the property needs.
        want: usize,
    },
    /// The values are not a whole number per key.
    NotWhole,
    /// A key time that is not finite, is negative, or does not come after the one before.
    Time {
        /// The key.
        key: usize,
        /// Its time.
        time: f32,
    },
    /// A value that is not finite.
    Value {
        /// The key it belongs to.
        key: usize,
        /// The value.
        value: f32,
    },
    /// A rotation key whose quaternion is all zeros.
    ZeroQuaternion(usize),
    /// A quaternion track aimed at something other than a rotation.
    QuaternionNotRotation,
}

impl fmt::Display for BadKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadKeys::NotNumbers(kind) => write!(f, "{kind} tracks cannot be written to glTF"),
            BadKeys::ValuesPerKey {
                per_key,
                path,
                want,
            } => write!(f, "{per_key} values per key where glTF {path} needs {want}"),
            BadKeys::NotWhole => f.write_str("the values are not a whole number per key"),
            BadKeys::Time { key, time } => write!(
                f,
                "key {key} at time {time}: glTF key times must be finite, not negative and \
                 strictly increasing"
            ),
            BadKeys::Value { key, value } => {
                write!(f, "key {key}: the value {value} is not finite")
            }
            BadKeys::ZeroQuaternion(key) => {
                write!(f, "key {key}: a zero quaternion is no rotation")
            }
            BadKeys::QuaternionNotRotation => {
                f.write_str("a quaternion track can only animate a rotation")
            }
        }
    }
}

impl std::error::Error for BadKeys {}

/// Checks that `track` (not empty) can be keys of a glTF sampler for `property`: numbers, the
/// right count per key, finite values, and times that are finite, not negative and strictly
/// increasing. Quaternions must not be zero.
pub(crate) fn check(track: &Track, property: &Property) -> Result<(), BadKeys> {
    let Values::Numbers(values) = &track.values else {
        return Err(BadKeys::NotNumbers(track.kind));
    };
    let vs = track.value_size();
    let want = match property {
        Property::Translation | Property::Scale => Some(3),
        Property::Rotation => Some(4),
        Property::Weight(_) => Some(1),
        Property::Weights | Property::Pointer(_) => None,
    };
    if let Some(want) = want
        && (vs != want || values.len() != track.len() * want)
    {
        return Err(BadKeys::ValuesPerKey {
            per_key: values.len() as f64 / track.len().max(1) as f64,
            path: property.path(),
            want,
        });
    }
    if values.len() != track.len() * vs || vs == 0 {
        return Err(BadKeys::NotWhole);
    }
    for (k, &t) in track.times.iter().enumerate() {
        if !t.is_finite() || t < 0.0 || (k > 0 && t <= track.times[k - 1]) {
            return Err(BadKeys::Time { key: k, time: t });
        }
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(BadKeys::Value {
            key: i / vs,
            value: values[i],
        });
    }
    if *property == Property::Rotation {
        for (k, q) in values.chunks_exact(4).enumerate() {
            if q.iter().all(|&c| c == 0.0) {
                return Err(BadKeys::ZeroQuaternion(k));
            }
        }
    }
    if track.kind == TrackKind::Quaternion && *property != Property::Rotation {
        return Err(BadKeys::QuaternionNotRotation);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `name` has no target, as its one line.
    fn why(name: &str) -> String {
        target_of(name).unwrap_err().to_string()
    }

    fn target_of(name: &str) -> Result<Target, NoTarget> {
        target(&Track::numeric(
            name,
            TrackKind::Vector,
            vec![0.0],
            vec![0.0; 3],
        ))
    }

    #[test]
    fn names_to_targets() {
        let named = |n: &str| NodeKey::Named(n.into());
        assert_eq!(
            target_of("Hips.position").unwrap(),
            Target {
                node: named("Hips"),
                bone: false,
                property: Property::Translation
            }
        );
        assert_eq!(
            target_of(".bones[leg.R].quaternion").unwrap().node,
            named("leg.R")
        );
        assert!(target_of(".bones[leg.R].quaternion").unwrap().bone);
        assert_eq!(target_of(".scale").unwrap().node, NodeKey::Root);
        assert_eq!(
            target_of("m.morphTargetInfluences[smile]")
                .unwrap()
                .property,
            Property::Weight("smile".into())
        );
        assert_eq!(
            target_of(".morphTargetInfluences").unwrap().property,
            Property::Weights
        );
        assert!(why("a.material.opacity").contains("have no glTF target"));
        assert_eq!(
            target_of("/materials/0/alphaCutoff").unwrap(),
            Target {
                node: NodeKey::Pointer,
                bone: false,
                property: Property::Pointer("/materials/0/alphaCutoff".into())
            }
        );
        assert!(why("a.rotation").contains("'rotation'"));
        assert!(why("a.position[x]").contains("one component"));
        assert_eq!(why("[bad"), "the track name does not parse");
        assert_eq!(
            target_of("a.rotation"),
            Err(NoTarget::Property("rotation".into()))
        );
        assert_eq!(
            target_of("a.material.opacity"),
            Err(NoTarget::ObjectProperty("material".into()))
        );
    }

    #[test]
    fn key_checks() {
        let ok = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0; 6],
        );
        assert!(check(&ok, &Property::Translation).is_ok());
        assert!(
            check(&ok, &Property::Rotation)
                .unwrap_err()
                .to_string()
                .contains("needs 4")
        );
        for times in [vec![-1.0, 1.0], vec![1.0, 1.0], vec![0.0, f32::NAN]] {
            let tr = Track::numeric("a.position", TrackKind::Vector, times, vec![0.0; 6]);
            assert!(
                check(&tr, &Property::Translation)
                    .unwrap_err()
                    .to_string()
                    .contains("strictly")
            );
        }
        let nan = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0],
            vec![0.0, f32::NAN, 0.0],
        );
        assert!(
            check(&nan, &Property::Translation)
                .unwrap_err()
                .to_string()
                .contains("not finite")
        );
        let zero = Track::numeric(
            "a.quaternion",
            TrackKind::Quaternion,
            vec![0.0],
            vec![0.0; 4],
        );
        assert!(
            check(&zero, &Property::Rotation)
                .unwrap_err()
                .to_string()
                .contains("zero")
        );
        assert_eq!(
            check(&zero, &Property::Rotation),
            Err(BadKeys::ZeroQuaternion(0))
        );
        let b = Track::new(
            "a.position",
            TrackKind::Bool,
            vec![0.0],
            Values::Bools(vec![true]),
        );
        assert!(
            check(&b, &Property::Translation)
                .unwrap_err()
                .to_string()
                .contains("bool")
        );
    }
}
