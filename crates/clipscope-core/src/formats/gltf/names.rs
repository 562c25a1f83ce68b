//! The names tracks give glTF nodes.
//!
//! Like three.js's GLTFLoader, a node's name is made track-safe with `sanitizeNodeName`
//! (whitespace to `_`, the reserved `[ ] . : /` removed) and made unique by appending `_1`,
//! `_2`, … in node order. A node without a name (or whose name sanitizes to nothing) is called
//! `node_N` after its index, where three.js would fall back to the object's random uuid.

use std::collections::HashSet;

use gltf_json::Node;

use crate::model::binding::sanitize_node_name;

/// The track name of every node, in node order.
pub(crate) fn node_names(nodes: &[Node]) -> Vec<String> {
    let mut used = HashSet::new();
    nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let base = node
                .name
                .as_deref()
                .map(sanitize_node_name)
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| format!("node_{i}"));
            unique(&base, &mut used)
        })
        .collect()
}

/// `base`, or `base_1`, `base_2`, … whichever is not in `used` yet; records it as used.
pub(crate) fn unique(base: &str, used: &mut HashSet<String>) -> String {
    let mut name = base.to_string();
    let mut n = 0;
    while used.contains(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    used.insert(name.clone());
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: Option<&str>) -> Node {
        let mut text = String::from("{");
        if let Some(n) = name {
            text.push_str(&format!("\"name\":{}", serde_json::to_string(n).unwrap()));
        }
        text.push('}');
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn sanitized_unique_and_numbered() {
        let nodes = [
            node(Some("Arm.L")),
            node(None),
            node(Some("Arm L")),
            node(Some("ArmL")),
            node(Some("...")),
            node(Some("ArmL")),
            node(Some("node_1")),
        ];
        assert_eq!(
            node_names(&nodes),
            [
                "ArmL", "node_1", "Arm_L", "ArmL_1", "node_4", "ArmL_2", "node_1_1"
            ]
        );
    }
}
