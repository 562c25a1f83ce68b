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
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PropertyValue<'p> {
    /// The current values, as the mixer last wrote them.
    pub value: &'p [f64],
    /// The rest values the property was defined with.
    pub rest: &'p [f64],
}

/// Where one property's values sit in the pose's flat value array.
#[derive(Debug, Clone)]
struct Property {
    name: String,
    start: usize,
    len: usize,
}

impl Property {
    fn range(&self) -> Range<usize> {
        self.start..self.start + self.len
    }
}

/// One node of the pose: its name, its properties (in definition order, with a name index) and
/// its morph-target dictionary.
#[derive(Debug, Clone, Default)]
struct Node {
    name: String,
    properties: Vec<Property>,
    by_name: BTreeMap<String, usize>,
    morph_targets: HashMap<String, usize>,
    /// Where the node's transform starts in the values, when its first three properties are
    /// `position`, `quaternion` and `scale` with 3, 4 and 3 values, one after the other.
    transform: Option<usize>,
}

impl Node {
    /// The property called `name`.
    fn get(&self, name: &str) -> Option<&Property> {
        self.by_name.get(name).map(|&i| &self.properties[i])
    }

    /// Finds [`transform`](Node::transform) again after the properties changed.
    fn find_transform(&mut self) {
        self.transform = match self.properties.get(..3) {
            Some([p, q, s])
                if p.name == "position"
                    && q.name == "quaternion"
                    && s.name == "scale"
                    && (p.len, q.len, s.len) == (3, 4, 3)
                    && q.start == p.start + 3
                    && s.start == q.start + 4 =>
            {
                Some(p.start)
            }
            _ => None,
        };
    }
}

/// The shape of a pose (its nodes, their properties and where their values sit) and its rest
/// values: everything but the current values, shared by clones until one of them is redefined.
#[derive(Debug, Clone)]
struct Layout {
    /// Changes whenever a property is added or changes length (see [`Pose::layout_id`]).
    id: u64,
    root: String,
    nodes: Vec<Node>,
    by_name: BTreeMap<String, usize>,
    rest: Vec<f64>,
}

/// A layout id no other layout had.
fn fresh_layout_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The values of every animatable property of a rig, keyed by node and property.
///
/// Nodes and properties keep the order they were first defined in and are never removed, so
/// besides the lookups by name a pose can be read by position ([`node_name`](Pose::node_name),
/// [`value_at`](Pose::value_at)): the root is node 0, and a rig that defines its pose in a known
/// order reads it back every frame without looking names up.
///
/// The current values of all properties live in one flat array ([`values`](Pose::values)), each
/// property a [`slot`](Pose::slot) of it; the names, the slots and the rest values are shared
/// between a pose and its clones until one of them defines something, so a crowd of characters
/// cloned from one rest pose stores little more than its values. A mixer caches the slots it
/// writes to and checks [`layout_id`](Pose::layout_id) before reusing them.
#[derive(Debug, Clone)]
pub struct Pose {
    layout: Arc<Layout>,
    values: Vec<f64>,
}

impl PartialEq for Pose {
    /// Poses are equal when they have the same root, nodes, properties (values and rest values)
    /// and morph dictionaries, whatever order they were defined in.
    fn eq(&self, other: &Pose) -> bool {
        let (a, b) = (&*self.layout, &*other.layout);
        a.root == b.root
            && a.by_name.len() == b.by_name.len()
            && a.by_name.iter().all(|(name, &i)| {
                let x = &a.nodes[i];
                b.by_name.get(name).is_some_and(|&j| {
                    let y = &b.nodes[j];
                    x.morph_targets == y.morph_targets
                        && x.by_name.len() == y.by_name.len()
                        && x.properties.iter().all(|p| {
                            y.get(&p.name).is_some_and(|q| {
                                self.values[p.range()] == other.values[q.range()]
                                    && a.rest[p.range()] == b.rest[q.range()]
                            })
                        })
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
            layout: Arc::new(Layout {
                id: fresh_layout_id(),
                root: String::new(),
                nodes: Vec::new(),
                by_name: BTreeMap::new(),
                rest: Vec::new(),
            }),
            values: Vec::new(),
        };
        let layout = Arc::make_mut(&mut pose.layout);
        node_entry(layout, &root);
        layout.root = root;
        pose
    }

    /// The node called `name`.
    fn node(&self, name: &str) -> Option<&Node> {
        self.layout
            .by_name
            .get(name)
            .map(|&i| &self.layout.nodes[i])
    }

    /// The root node's name.
    pub fn root(&self) -> &str {
        &self.layout.root
    }

    /// Defines (or redefines) `property` of `node` with its rest values; the current value starts
    /// at the rest value. The node is created if needed. A redefined property keeps its position.
    pub fn define(
        &mut self,
        node: impl Into<String>,
        property: impl Into<String>,
        rest: &[f64],
    ) -> &mut Pose {
        let node = node.into();
        let property = property.into();
        let layout = Arc::make_mut(&mut self.layout);
        let n = node_entry(layout, &node);
        let existing = layout.nodes[n].by_name.get(&property).copied();
        match existing {
            Some(i) => {
                let slot = layout.nodes[n].properties[i].range();
                if slot.len() == rest.len() {
                    layout.rest[slot.clone()].copy_from_slice(rest);
                    self.values[slot].copy_from_slice(rest);
                } else {
                    // Another length: move every later value along.
                    layout.rest.splice(slot.clone(), rest.iter().copied());
                    self.values.splice(slot.clone(), rest.iter().copied());
                    let shift = rest.len() as isize - slot.len() as isize;
                    for p in layout.nodes.iter_mut().flat_map(|n| &mut n.properties) {
                        if p.start > slot.start {
                            p.start = (p.start as isize + shift) as usize;
                        }
                    }
                    layout.nodes[n].properties[i].len = rest.len();
                    layout.nodes.iter_mut().for_each(Node::find_transform);
                    layout.id = fresh_layout_id();
                }
            }
            None => {
                let node = &mut layout.nodes[n];
                node.by_name.insert(property.clone(), node.properties.len());
                node.properties.push(Property {
                    name: property,
                    start: layout.rest.len(),
                    len: rest.len(),
                });
                node.find_transform();
                layout.rest.extend_from_slice(rest);
                self.values.extend_from_slice(rest);
                layout.id = fresh_layout_id();
            }
        }
        self
    }

    /// Sets the morph-target dictionary of `node` (three.js `morphTargetDictionary`): target `i`
    /// of `names` is element `i` of the node's `morphTargetInfluences`.
    pub fn set_morph_targets<S: AsRef<str>>(&mut self, node: &str, names: &[S]) -> &mut Pose {
        let layout = Arc::make_mut(&mut self.layout);
        let n = node_entry(layout, node);
        layout.nodes[n].morph_targets = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_ref().to_string(), i))
            .collect();
        self
    }

    /// True if a node called `name` exists.
    pub fn has_node(&self, name: &str) -> bool {
        self.layout.by_name.contains_key(name)
    }

    /// The index of morph target `name` on `node`, if the node's dictionary has it.
    pub fn morph_target(&self, node: &str, name: &str) -> Option<usize> {
        self.node(node)?.morph_targets.get(name).copied()
    }

    /// The property at `key`, if it is defined.
    pub fn property(&self, key: &PropertyKey) -> Option<PropertyValue<'_>> {
        let range = self.slot(&key.node, &key.property)?;
        Some(PropertyValue {
            value: &self.values[range.clone()],
            rest: &self.layout.rest[range],
        })
    }

    /// The current values of `property` of `node`.
    pub fn value(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.slot(node, property).map(|r| &self.values[r])
    }

    /// The rest values of `property` of `node`.
    pub fn rest(&self, node: &str, property: &str) -> Option<&[f64]> {
        self.slot(node, property).map(|r| &self.layout.rest[r])
    }

    /// Where the values of `property` of `node` sit in [`values`](Pose::values). The slot stays
    /// valid as long as [`layout_id`](Pose::layout_id) does not change.
    pub fn slot(&self, node: &str, property: &str) -> Option<Range<usize>> {
        self.node(node)?.get(property).map(Property::range)
    }

    /// Identifies the pose's layout: which property sits at which [`slot`](Pose::slot). Defining
    /// a new property or changing a property's length gives the pose a new id that no pose had
    /// before; clones keep the id (and the layout) until they are redefined, and redefining a
    /// property with as many values as before keeps it. A slot found on a pose with the same
    /// id is the same property's slot.
    pub fn layout_id(&self) -> u64 {
        self.layout.id
    }

    /// The current values of every property, one after the other (see [`slot`](Pose::slot)).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The current values of every property, for writing (see [`slot`](Pose::slot)).
    pub fn values_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }

    /// The number of nodes, the root included.
    pub fn node_count(&self) -> usize {
        self.layout.nodes.len()
    }

    /// The name of node `index`, counting in the order nodes were first defined (the root is 0).
    pub fn node_name(&self, index: usize) -> Option<&str> {
        self.layout.nodes.get(index).map(|n| n.name.as_str())
    }

    /// Property `property` of node `node`, both counted in the order they were first defined:
    /// its name and current values. Reading by position does no lookup and no allocation; a
    /// reader that assumes a layout checks the name it gets back.
    pub fn value_at(&self, node: usize, property: usize) -> Option<(&str, &[f64])> {
        let p = self.layout.nodes.get(node)?.properties.get(property)?;
        Some((p.name.as_str(), &self.values[p.range()]))
    }

    /// The transform of node `node` (counted in definition order) as three.js's `Object3D` has
    /// it: `position` (3 values), `quaternion` (4) and `scale` (3), one after the other, when
    /// they are the node's first three properties in that order with those lengths (as a rig's
    /// rest pose defines them). No lookup and no name comparison: the layout knows.
    pub fn transform_at(&self, node: usize) -> Option<&[f64; 10]> {
        let start = self.layout.nodes.get(node)?.transform?;
        self.values[start..start + 10].try_into().ok()
    }

    /// Overwrites the current values of `property` of `node` (the length stays as defined;
    /// missing values are left alone). Returns false if the property is not defined.
    pub fn set_value(&mut self, node: &str, property: &str, values: &[f64]) -> bool {
        match self.slot(node, property) {
            Some(range) => {
                for (d, s) in self.values[range].iter_mut().zip(values) {
                    *d = *s;
                }
                true
            }
            None => false,
        }
    }

    /// Puts every property back to its rest value.
    pub fn reset(&mut self) {
        self.values.copy_from_slice(&self.layout.rest);
    }

    /// Every property with its current values, ordered by node and property.
    pub fn properties(&self) -> impl Iterator<Item = (PropertyKey, &[f64])> {
        let layout = &*self.layout;
        layout.by_name.iter().flat_map(move |(node, &i)| {
            let n = &layout.nodes[i];
            n.by_name.iter().map(move |(p, &j)| {
                (
                    PropertyKey::new(node.as_str(), p.as_str()),
                    &self.values[n.properties[j].range()],
                )
            })
        })
    }
}

/// The index of the node called `name`, created (at the end) if needed.
fn node_entry(layout: &mut Layout, name: &str) -> usize {
    match layout.by_name.get(name) {
        Some(&i) => i,
        None => {
            layout.nodes.push(Node {
                name: name.to_string(),
                ..Node::default()
            });
            layout
                .by_name
                .insert(name.to_string(), layout.nodes.len() - 1);
            layout.nodes.len() - 1
        }
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
    fn slots_layout_ids_and_shared_layouts() {
        let mut pose = Pose::new("root");
        pose.define("root", "position", &[1.0, 2.0, 3.0])
            .define("arm", "quaternion", &[0.0, 0.0, 0.0, 1.0])
            .define("arm", "scale", &[1.0, 1.0, 1.0]);
        assert_eq!(pose.slot("arm", "quaternion"), Some(3..7));
        assert_eq!(pose.values().len(), 10);
        assert_eq!(
            &pose.values()[pose.slot("arm", "scale").unwrap()],
            &[1.0; 3]
        );
        let id = pose.layout_id();

        // Clones share the layout; writing values or redefining with the same length keeps it.
        let mut clone = pose.clone();
        assert_eq!(clone.layout_id(), id);
        clone.values_mut()[0] = 9.0;
        clone.define("root", "position", &[4.0, 5.0, 6.0]);
        assert_eq!(clone.layout_id(), id);
        assert_eq!(clone.rest("root", "position"), Some(&[4.0, 5.0, 6.0][..]));
        assert_eq!(pose.rest("root", "position"), Some(&[1.0, 2.0, 3.0][..]));
        assert_eq!(pose.value("root", "position"), Some(&[1.0, 2.0, 3.0][..]));

        // A new property, or another length, is a new layout: later slots move along.
        let mut longer = pose.clone();
        longer.define("arm", "quaternion", &[0.0, 0.0, 0.0, 1.0, 7.0]);
        assert_ne!(longer.layout_id(), id);
        assert_eq!(longer.slot("arm", "scale"), Some(8..11));
        assert_eq!(longer.value("arm", "scale"), Some(&[1.0; 3][..]));
        assert_eq!(longer.value_at(1, 1), Some(("scale", &[1.0; 3][..])));
        let mut grown = pose.clone();
        grown.define("leg", "position", &[0.0; 3]);
        assert_ne!(grown.layout_id(), id);
        assert_ne!(grown.layout_id(), longer.layout_id());
        assert_eq!(pose.layout_id(), id);
        assert_eq!(pose.slot("leg", "position"), None);

        // Reading as a property: values and rest values.
        grown.set_value("leg", "position", &[1.0, 1.0, 1.0]);
        let leg = grown
            .property(&PropertyKey::new("leg", "position"))
            .unwrap();
        assert_eq!((leg.value, leg.rest), (&[1.0; 3][..], &[0.0; 3][..]));
        grown.reset();
        assert_eq!(grown.value("leg", "position"), Some(&[0.0; 3][..]));
    }

    #[test]
    fn transforms_in_rest_layout_read_in_one_piece() {
        let mut pose = Pose::new("root");
        pose.define("root", "position", &[1.0, 2.0, 3.0])
            .define("root", "quaternion", &[0.0, 0.0, 0.0, 1.0])
            .define("root", "scale", &[4.0, 5.0, 6.0])
            .define("root", "visible", &[1.0])
            .define("arm", "quaternion", &[0.0; 4])
            .define("arm", "position", &[0.0; 3])
            .define("arm", "scale", &[1.0; 3]);
        assert_eq!(
            pose.transform_at(0),
            Some(&[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0, 4.0, 5.0, 6.0])
        );
        assert_eq!(pose.transform_at(1), None, "another order");
        assert_eq!(pose.transform_at(2), None, "no such node");
        pose.set_value("root", "scale", &[7.0]);
        assert_eq!(pose.transform_at(0).unwrap()[7], 7.0);
        // A quaternion of another length breaks the layout; back to four mends it.
        pose.define("root", "quaternion", &[0.0; 3]);
        assert_eq!(pose.transform_at(0), None);
        pose.define("root", "quaternion", &[0.0, 0.0, 0.0, 1.0]);
        assert_eq!(pose.transform_at(0).unwrap()[..3], [1.0, 2.0, 3.0]);
    }

    #[test]
    fn morph_dictionary() {
        let mut pose = Pose::new("face");
        pose.set_morph_targets("face", &["smile", "blink"]);
        assert_eq!(pose.morph_target("face", "blink"), Some(1));
        assert_eq!(pose.morph_target("face", "frown"), None);
    }
}
