//! Binding a track name to a property of a [`Pose`] (three.js `PropertyBinding`).
//!
//! The track name is parsed with three.js's grammar
//! ([`parse_track_name`]) and resolved like
//! `PropertyBinding.bind()`:
//!
//! * the node: no node name, `""`, `"."` or the root's name address the root; `.bones[name]`
//!   addresses the node called `name` (bones are ordinary nodes of a pose); any other node name
//!   must be a node of the pose;
//! * the property: `object.property` (or `object[index].property`) when the name has an object
//!   part (`material`, `materials`, `map`, or any other word), otherwise the property itself;
//! * the element: a property index selects one element (three.js's *ArrayElement* binding).
//!   For `morphTargetInfluences` the index is first looked up in the node's morph-target
//!   dictionary; `x`/`y`/`z`/`w` and `r`/`g`/`b` name the components of vectors,
//!   quaternions and colors (three.js reads `rotation['x']`); otherwise it must be a number.
//!   An index that names a property of an object, as in `.material[opacity]`, binds that
//!   property (`material.opacity`), like `material['opacity']` in JavaScript.
//!
//! Without an element, [`get_value`](PropertyBinding::get_value) and
//! [`set_value`](PropertyBinding::set_value) copy as many values as the property has, starting
//! at the buffer offset, like three.js's `toArray`/`fromArray` and entire-array bindings
//! (a value past the end of the buffer reads as NaN, like `undefined`).

use std::ops::Range;

use super::{Pose, PropertyKey};
use crate::model::binding::{TrackNameError, parse_track_name};

/// A track name resolved to a property of a pose, optionally to one element of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyBinding {
    /// The bound property.
    pub key: PropertyKey,
    /// The bound element, for names with a property index; `None` binds the whole property.
    pub element: Option<usize>,
}

/// Why a track could not be bound to a property (three.js warns or logs an error and the
/// binding then does nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindError {
    /// The track name does not follow the grammar (three.js throws).
    Unparsable(TrackNameError),
    /// No node of the pose has the track's node name.
    NoSuchNode(String),
    /// The node has no such property.
    NoSuchProperty(PropertyKey),
    /// The property index names no element of the property.
    NoSuchElement(PropertyKey, String),
    /// String tracks have no numeric value to put into a pose.
    StringTrack,
}

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BindError::Unparsable(e) => e.fmt(f),
            BindError::NoSuchNode(node) => write!(f, "no node named {node:?}"),
            BindError::NoSuchProperty(key) => write!(f, "no property {key}"),
            BindError::NoSuchElement(key, index) => write!(f, "no element [{index}] of {key}"),
            BindError::StringTrack => f.write_str("string tracks cannot be bound to a pose"),
        }
    }
}

impl std::error::Error for BindError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BindError::Unparsable(e) => Some(e),
            _ => None,
        }
    }
}

impl PropertyBinding {
    /// Resolves `track_name` against `pose`.
    pub fn bind(pose: &Pose, track_name: &str) -> Result<PropertyBinding, BindError> {
        let path = parse_track_name(track_name).map_err(BindError::Unparsable)?;
        let mut node = match path.node_name.as_deref() {
            None | Some("") | Some(".") => pose.root().to_string(),
            Some(name) => name.to_string(),
        };
        let mut property = path.property_name.clone();
        match (path.object_name.as_deref(), path.object_index.as_deref()) {
            (Some("bones"), Some(bone)) => node = bone.to_string(),
            (Some(object), Some(index)) => property = format!("{object}[{index}].{property}"),
            (Some(object), None) => property = format!("{object}.{property}"),
            (None, _) => {}
        }
        if !pose.has_node(&node) {
            return Err(BindError::NoSuchNode(node));
        }
        let key = PropertyKey::new(node, property);
        let Some(index) = path.property_index else {
            return match pose.property(&key) {
                Some(_) => Ok(PropertyBinding { key, element: None }),
                None => Err(BindError::NoSuchProperty(key)),
            };
        };
        let field = PropertyKey::new(key.node.clone(), format!("{}.{index}", key.property));
        if pose.property(&field).is_some() {
            return Ok(PropertyBinding {
                key: field,
                element: None,
            });
        }
        let Some(value) = pose.property(&key) else {
            return Err(BindError::NoSuchProperty(key));
        };
        let element = if key.property == "morphTargetInfluences" {
            pose.morph_target(&key.node, &index)
                .or_else(|| index.parse().ok())
        } else {
            component_index(&index).or_else(|| index.parse().ok())
        };
        match element {
            Some(e) if e < value.value.len() => Ok(PropertyBinding {
                key,
                element: Some(e),
            }),
            _ => Err(BindError::NoSuchElement(key, index)),
        }
    }

    /// Where in the pose's [`values`](Pose::values) this binding reads and writes: the whole
    /// property, or its one bound element (`None` when the property is missing or too short for
    /// the element). Valid while the pose's [`layout_id`](Pose::layout_id) stays the same.
    pub fn slot(&self, pose: &Pose) -> Option<Range<usize>> {
        let range = pose.slot(&self.key.node, &self.key.property)?;
        match self.element {
            Some(e) if e < range.len() => Some(range.start + e..range.start + e + 1),
            Some(_) => None,
            None => Some(range),
        }
    }

    /// Copies the property's current value into `buffer` at `offset` (three.js `getValue`).
    pub fn get_value(&self, pose: &Pose, buffer: &mut [f64], offset: usize) {
        if let Some(slot) = self.slot(pose) {
            read_slot(pose, slot, buffer, offset);
        }
    }

    /// Writes the values in `buffer` at `offset` into the property (three.js `setValue`).
    pub fn set_value(&self, pose: &mut Pose, buffer: &[f64], offset: usize) {
        if let Some(slot) = self.slot(pose) {
            write_slot(pose, slot, buffer, offset);
        }
    }
}

/// `getValue` for a binding found at `slot`: the slot's values into `buffer` from `offset`
/// (as many as fit).
pub(crate) fn read_slot(pose: &Pose, slot: Range<usize>, buffer: &mut [f64], offset: usize) {
    for (d, s) in buffer.iter_mut().skip(offset).zip(&pose.values()[slot]) {
        *d = *s;
    }
}

/// `setValue` for a binding found at `slot`: `buffer` from `offset` into the slot's values (a
/// value past the end of the buffer reads as NaN, like `undefined`).
#[inline]
pub(crate) fn write_slot(pose: &mut Pose, slot: Range<usize>, buffer: &[f64], offset: usize) {
    fn copy<const N: usize>(values: &mut [f64], source: &[f64]) {
        let v: [f64; N] = source.try_into().expect("N numbers");
        values.copy_from_slice(&v);
    }
    let values = &mut pose.values_mut()[slot];
    match buffer.get(offset..offset + values.len()) {
        // Fixed sizes copy without a call to `memcpy`.
        Some(source) => match source.len() {
            1 => copy::<1>(values, source),
            3 => copy::<3>(values, source),
            4 => copy::<4>(values, source),
            _ => values.copy_from_slice(source),
        },
        None => {
            for (i, d) in values.iter_mut().enumerate() {
                *d = buffer.get(offset + i).copied().unwrap_or(f64::NAN);
            }
        }
    }
}

/// The element a component name selects (`x`, `y`, `z`, `w`, `r`, `g`, `b`).
fn component_index(name: &str) -> Option<usize> {
    match name {
        "x" | "r" => Some(0),
        "y" | "g" => Some(1),
        "z" | "b" => Some(2),
        "w" => Some(3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose() -> Pose {
        let mut pose = Pose::new("mesh");
        pose.define("mesh", "position", &[0.0, 0.0, 0.0])
            .define("mesh", "rotation", &[0.0, 0.0, 0.0])
            .define("mesh", "material.opacity", &[0.0])
            .define("mesh", "morphTargetInfluences", &[0.0, 0.0])
            .set_morph_targets("mesh", &["smile", "blink"])
            .define("hip", "quaternion", &[0.0, 0.0, 0.0, 1.0]);
        pose
    }

    fn bound(name: &str) -> (String, Option<usize>) {
        let b = PropertyBinding::bind(&pose(), name).unwrap();
        (b.key.to_string(), b.element)
    }

    #[test]
    fn resolves_nodes_objects_and_elements() {
        assert_eq!(bound(".position"), ("mesh.position".into(), None));
        assert_eq!(bound("mesh.position"), ("mesh.position".into(), None));
        assert_eq!(bound("Scene/mesh.position"), ("mesh.position".into(), None));
        assert_eq!(bound(".rotation[x]"), ("mesh.rotation".into(), Some(0)));
        assert_eq!(bound(".position[2]"), ("mesh.position".into(), Some(2)));
        assert_eq!(
            bound(".bones[hip].quaternion"),
            ("hip.quaternion".into(), None)
        );
        assert_eq!(
            bound(".morphTargetInfluences[blink]"),
            ("mesh.morphTargetInfluences".into(), Some(1))
        );
        assert_eq!(
            bound(".morphTargetInfluences[0]"),
            ("mesh.morphTargetInfluences".into(), Some(0))
        );
    }

    #[test]
    fn material_opacity_both_spellings_set_the_value() {
        // PropertyBinding.tests.js setValue: '.material.opacity' and '.material[opacity]'.
        for name in [".material.opacity", ".material[opacity]"] {
            let mut p = pose();
            let b = PropertyBinding::bind(&p, name).unwrap();
            assert_eq!(p.value("mesh", "material.opacity"), Some(&[0.0][..]));
            b.set_value(&mut p, &[1.0], 0);
            assert_eq!(
                p.value("mesh", "material.opacity"),
                Some(&[1.0][..]),
                "{name}"
            );
        }
    }

    #[test]
    fn failures_are_reported() {
        let p = pose();
        let err = |n: &str| PropertyBinding::bind(&p, n).unwrap_err();
        assert_eq!(
            err("a[3].b"),
            BindError::Unparsable(TrackNameError {
                name: "a[3].b".into()
            })
        );
        assert_eq!(err("ghost.position"), BindError::NoSuchNode("ghost".into()));
        assert_eq!(
            err(".scale"),
            BindError::NoSuchProperty(PropertyKey::new("mesh", "scale"))
        );
        assert!(matches!(
            err(".morphTargetInfluences[frown]"),
            BindError::NoSuchElement(..)
        ));
        assert!(matches!(err(".position[7]"), BindError::NoSuchElement(..)));
    }

    #[test]
    fn whole_property_access_copies_the_property_length() {
        let mut p = pose();
        let b = PropertyBinding::bind(&p, "hip.quaternion").unwrap();
        let mut buffer = [9.0; 6];
        b.get_value(&p, &mut buffer, 1);
        assert_eq!(buffer, [9.0, 0.0, 0.0, 0.0, 1.0, 9.0]);
        b.set_value(&mut p, &[1.0, 2.0, 3.0, 4.0, 5.0], 2);
        let q = p.value("hip", "quaternion").unwrap();
        assert_eq!(&q[..3], &[3.0, 4.0, 5.0]);
        assert!(q[3].is_nan());
    }
}
