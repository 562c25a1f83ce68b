//! The animated state of a rig: named nodes, each with named numeric properties.
//!
//! three.js animates scene objects (`Object3D`s, their materials, bones and morph influences).
//! clipscope does not have a scene graph in its model, so the mixer writes into a [`Pose`]
//! instead: a flat store of nodes, each holding properties as `f64` value arrays
//! (`position` → 3 values, `quaternion` → 4, `material.opacity` → 1, `morphTargetInfluences` →
//! one per target) together with their rest values. A node may also carry a morph-target
//! dictionary (name → index), which three.js keeps on the mesh as `morphTargetDictionary`.
//! [`PropertyBinding`](super::PropertyBinding) resolves track names against it.

use std::collections::{BTreeMap, HashMap};

/// Identifies one property of one node: the node name and the property path below it
/// (`position`, `material.opacity`, `materials[1].color`, …).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PropertyKey {
    /// The node name (the pose's root name for root properties).
    pub node: String,
    /// The property path on the node, with the object part joined by a dot.
    pub property: String,
}

impl PropertyKey {
    /// A key for `property` of `node`.
    pub fn new(node: impl Into<String>, property: impl Into<String>) -> PropertyKey {
        PropertyKey {
            node: node.into(),
            property: property.into(),
        }
    }
}

impl std::fmt::Display for PropertyKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.node, self.property)
    }
}

/// One animated property: its current values and the values it had when it was defined.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyValue {
    /// The current values, as the mixer last wrote them.
    pub value: Vec<f64>,
    /// The rest values the property was defined with.
    pub rest: Vec<f64>,
}

/// One node of the pose: its properties and its morph-target dictionary.
#[derive(Debug, Clone, Default, PartialEq)]
struct Node {
    properties: BTreeMap<String, PropertyValue>,
    morph_targets: HashMap<String, usize>,
}

/// The values of every animatable property of a rig, keyed by node and property.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    root: String,
    nodes: BTreeMap<String, Node>,
}

impl Pose {
    /// An empty pose whose root node is called `root` (track names without a node name, such as
    /// `.position`, address the root).
    pub fn new(root: impl Into<String>) -> Pose {
        let root = root.into();
        let mut nodes = BTreeMap::new();
        nodes.insert(root.clone(), Node::default());
        Pose { root, nodes }
    }

    /// The root node's name.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Defines (or redefines) `property` of `node` with its rest values; the current value starts
    /// at the rest value. The node is created if needed.
    pub fn define(
        &mut self,
        node: impl Into<String>,
        property: impl Into<String>,
        rest: &[f64],
    ) -> &mut Pose {
        let node = self.nodes.entry(node.into()).or_default();
        node.properties.insert(
            property.into(),
            PropertyValue {
                value: rest.to_vec(),
                rest: rest.to_vec(),
            },
        );
        self
    }

    /// Sets the morph-target dictionary of `node` (three.js `morphTargetDictionary`): target `i`
    /// of `names` is element `i` of the node's `morphTargetInfluences`.
    pub fn set_morph_targets<S: AsRef<str>>(&mut self, node: &str, names: &[S]) -> &mut Pose {
        let node = self.nodes.entry(node.to_string()).or_default();
        node.morph_targets = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_ref().to_string(), i))
            .collect();
        self
    }

    /// True if a node called `name` exists.
    pub fn has_node(&self, name: &str) -> bool {
        self.nodes.contains_key(name)
    }

    /// The index of morph target `name` on `node`, if the node's dictionary has it.
    pub fn morph_target(&self, node: &str, name: &str) -> Option<usize> {
        self.nodes.get(node)?.morph_targets.get(name).copied()
    }

    /// The property at `key`, if it is defined.
    pub fn property(&self, key: &PropertyKey) -> Option<&PropertyValue> {
        self.nodes.get(&key.node)?.properties.get(&key.property)
    }

    /// The property at `key` for writing, if it is defined.
    pub fn property_mut(&mut self, key: &PropertyKey) -> Option<&mut PropertyValue> {
        self.nodes
            .get_mut(&key.node)?
            .properties
            .get_mut(&key.property)
    }

    /// The current values of `property` of `node`.
    pub fn value(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.property(&PropertyKey::new(node, property))
            .map(|p| p.value.as_slice())
    }

    /// The rest values of `property` of `node`.
    pub fn rest(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.property(&PropertyKey::new(node, property))
            .map(|p| p.rest.as_slice())
    }

    /// Overwrites the current values of `property` of `node` (the length stays as defined;
    /// missing values are left alone). Returns false if the property is not defined.
    pub fn set_value(&mut self, node: &str, property: &str, values: &[f64]) -> bool {
        match self.property_mut(&PropertyKey::new(node, property)) {
            Some(p) => {
                for (d, s) in p.value.iter_mut().zip(values) {
                    *d = *s;
                }
                true
            }
            None => false,
        }
    }

    /// Puts every property back to its rest value.
    pub fn reset(&mut self) {
        for node in self.nodes.values_mut() {
            for p in node.properties.values_mut() {
                p.value.clone_from(&p.rest);
            }
        }
    }

    /// Every property with its current values, ordered by node and property.
    pub fn properties(&self) -> impl Iterator<Item = (PropertyKey, &[f64])> {
        self.nodes.iter().flat_map(|(node, n)| {
            n.properties.iter().map(move |(p, v)| {
                (
                    PropertyKey::new(node.as_str(), p.as_str()),
                    v.value.as_slice(),
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn define_read_write_and_reset() {
        let mut pose = Pose::new("root");
        pose.define("root", "position", &[1.0, 2.0, 3.0]).define(
            "arm",
            "quaternion",
            &[0.0, 0.0, 0.0, 1.0],
        );
        assert!(pose.has_node("arm"));
        assert!(pose.set_value("root", "position", &[4.0, 5.0]));
        assert_eq!(pose.value("root", "position"), Some(&[4.0, 5.0, 3.0][..]));
        assert_eq!(pose.rest("root", "position"), Some(&[1.0, 2.0, 3.0][..]));
        assert!(!pose.set_value("root", "scale", &[1.0]));
        pose.reset();
        assert_eq!(pose.value("root", "position"), Some(&[1.0, 2.0, 3.0][..]));
        let keys: Vec<String> = pose.properties().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["arm.quaternion", "root.position"]);
    }

    #[test]
    fn morph_dictionary() {
        let mut pose = Pose::new("face");
        pose.set_morph_targets("face", &["smile", "blink"]);
        assert_eq!(pose.morph_target("face", "blink"), Some(1));
        assert_eq!(pose.morph_target("face", "frown"), None);
    }
}
