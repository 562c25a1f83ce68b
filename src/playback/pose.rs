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

/// One node of the pose: its name, its properties (in definition order, with a name index) and
/// its morph-target dictionary.
#[derive(Debug, Clone, Default)]
struct Node {
    name: String,
    properties: Vec<(String, PropertyValue)>,
    by_name: BTreeMap<String, usize>,
    morph_targets: HashMap<String, usize>,
}

impl Node {
    /// The property called `name`.
    fn get(&self, name: &str) -> Option<&PropertyValue> {
        self.by_name.get(name).map(|&i| &self.properties[i].1)
    }

    /// The property called `name`, for writing.
    fn get_mut(&mut self, name: &str) -> Option<&mut PropertyValue> {
        self.by_name.get(name).map(|&i| &mut self.properties[i].1)
    }
}

/// The values of every animatable property of a rig, keyed by node and property.
///
/// Nodes and properties keep the order they were first defined in and are never removed, so
/// besides the lookups by name a pose can be read by position ([`node_name`](Pose::node_name),
/// [`value_at`](Pose::value_at)): the root is node 0, and a rig that defines its pose in a known
/// order reads it back every frame without looking names up.
#[derive(Debug, Clone)]
pub struct Pose {
    root: String,
    nodes: Vec<Node>,
    by_name: BTreeMap<String, usize>,
}

impl PartialEq for Pose {
    /// Poses are equal when they have the same root, nodes, properties (values and rest values)
    /// and morph dictionaries, whatever order they were defined in.
    fn eq(&self, other: &Pose) -> bool {
        self.root == other.root
            && self.by_name.len() == other.by_name.len()
            && self.by_name.iter().all(|(name, &i)| {
                let a = &self.nodes[i];
                other.by_name.get(name).is_some_and(|&j| {
                    let b = &other.nodes[j];
                    a.morph_targets == b.morph_targets
                        && a.by_name.len() == b.by_name.len()
                        && a.properties.iter().all(|(p, v)| b.get(p) == Some(v))
                })
            })
    }
}

impl Pose {
    /// An empty pose whose root node is called `root` (track names without a node name, such as
    /// `.position`, address the root).
    pub fn new(root: impl Into<String>) -> Pose {
        let root = root.into();
        let mut pose = Pose {
            root: String::new(),
            nodes: Vec::new(),
            by_name: BTreeMap::new(),
        };
        pose.node_entry(&root);
        pose.root = root;
        pose
    }

    /// The node called `name`, created (at the end) if needed.
    fn node_entry(&mut self, name: &str) -> &mut Node {
        let index = match self.by_name.get(name) {
            Some(&i) => i,
            None => {
                self.nodes.push(Node {
                    name: name.to_string(),
                    ..Node::default()
                });
                self.by_name.insert(name.to_string(), self.nodes.len() - 1);
                self.nodes.len() - 1
            }
        };
        &mut self.nodes[index]
    }

    /// The node called `name`.
    fn node(&self, name: &str) -> Option<&Node> {
        self.by_name.get(name).map(|&i| &self.nodes[i])
    }

    /// The root node's name.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Defines (or redefines) `property` of `node` with its rest values; the current value starts
    /// at the rest value. The node is created if needed. A redefined property keeps its position.
    pub fn define(
        &mut self,
        node: impl Into<String>,
        property: impl Into<String>,
        rest: &[f64],
    ) -> &mut Pose {
        let node = self.node_entry(&node.into());
        let property = property.into();
        let value = PropertyValue {
            value: rest.to_vec(),
            rest: rest.to_vec(),
        };
        match node.by_name.get(&property) {
            Some(&i) => node.properties[i].1 = value,
            None => {
                node.by_name.insert(property.clone(), node.properties.len());
                node.properties.push((property, value));
            }
        }
        self
    }

    /// Sets the morph-target dictionary of `node` (three.js `morphTargetDictionary`): target `i`
    /// of `names` is element `i` of the node's `morphTargetInfluences`.
    pub fn set_morph_targets<S: AsRef<str>>(&mut self, node: &str, names: &[S]) -> &mut Pose {
        let node = self.node_entry(node);
        node.morph_targets = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_ref().to_string(), i))
            .collect();
        self
    }

    /// True if a node called `name` exists.
    pub fn has_node(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// The index of morph target `name` on `node`, if the node's dictionary has it.
    pub fn morph_target(&self, node: &str, name: &str) -> Option<usize> {
        self.node(node)?.morph_targets.get(name).copied()
    }

    /// The property at `key`, if it is defined.
    pub fn property(&self, key: &PropertyKey) -> Option<&PropertyValue> {
        self.node(&key.node)?.get(&key.property)
    }

    /// The property at `key` for writing, if it is defined.
    pub fn property_mut(&mut self, key: &PropertyKey) -> Option<&mut PropertyValue> {
        let &i = self.by_name.get(&key.node)?;
        self.nodes[i].get_mut(&key.property)
    }

    /// The current values of `property` of `node`.
    pub fn value(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.node(node)?.get(property).map(|p| p.value.as_slice())
    }

    /// The rest values of `property` of `node`.
    pub fn rest(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.node(node)?.get(property).map(|p| p.rest.as_slice())
    }

    /// The number of nodes, the root included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The name of node `index`, counting in the order nodes were first defined (the root is 0).
    pub fn node_name(&self, index: usize) -> Option<&str> {
        self.nodes.get(index).map(|n| n.name.as_str())
    }

    /// Property `property` of node `node`, both counted in the order they were first defined:
    /// its name and current values. Reading by position does no lookup and no allocation; a
    /// reader that assumes a layout checks the name it gets back.
    pub fn value_at(&self, node: usize, property: usize) -> Option<(&str, &[f64])> {
        let (name, value) = self.nodes.get(node)?.properties.get(property)?;
        Some((name.as_str(), value.value.as_slice()))
    }

    /// Overwrites the current values of `property` of `node` (the length stays as defined;
    /// missing values are left alone). Returns false if the property is not defined.
    pub fn set_value(&mut self, node: &str, property: &str, values: &[f64]) -> bool {
        let Some(&i) = self.by_name.get(node) else {
            return false;
        };
        match self.nodes[i].get_mut(property) {
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
        for node in &mut self.nodes {
            for (_, p) in &mut node.properties {
                p.value.clone_from(&p.rest);
            }
        }
    }

    /// Every property with its current values, ordered by node and property.
    pub fn properties(&self) -> impl Iterator<Item = (PropertyKey, &[f64])> {
        self.by_name.iter().flat_map(|(node, &i)| {
            let n = &self.nodes[i];
            n.by_name.iter().map(move |(p, &j)| {
                (
                    PropertyKey::new(node.as_str(), p.as_str()),
                    n.properties[j].1.value.as_slice(),
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
    fn read_by_position_in_definition_order() {
        let mut pose = Pose::new("root");
        pose.define("zeta", "scale", &[1.0, 1.0, 1.0])
            .define("zeta", "position", &[0.0, 2.0, 0.0])
            .define("alpha", "position", &[3.0, 0.0, 0.0])
            .define("zeta", "scale", &[2.0, 2.0, 2.0]);
        assert_eq!(pose.node_count(), 3);
        assert_eq!(pose.node_name(0), Some("root"));
        assert_eq!(pose.node_name(1), Some("zeta"));
        assert_eq!(pose.node_name(3), None);
        assert_eq!(pose.value_at(1, 0), Some(("scale", &[2.0, 2.0, 2.0][..])));
        assert_eq!(
            pose.value_at(1, 1),
            Some(("position", &[0.0, 2.0, 0.0][..]))
        );
        assert_eq!(pose.value_at(2, 1), None);
        let mut other = Pose::new("root");
        other
            .define("alpha", "position", &[3.0, 0.0, 0.0])
            .define("zeta", "position", &[0.0, 2.0, 0.0])
            .define("zeta", "scale", &[2.0, 2.0, 2.0]);
        assert_eq!(pose, other);
        other.set_value("alpha", "position", &[4.0]);
        assert_ne!(pose, other);
    }

    #[test]
    fn morph_dictionary() {
        let mut pose = Pose::new("face");
        pose.set_morph_targets("face", &["smile", "blink"]);
        assert_eq!(pose.morph_target("face", "blink"), Some(1));
        assert_eq!(pose.morph_target("face", "frown"), None);
    }
}
