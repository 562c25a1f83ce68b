//! Animated nodes that have a `matrix`: glTF animates translation, rotation and scale only,
//! so the writer gives such a node the parts its matrix decomposes into ([`trs`]). A matrix
//! with no decomposition in 32-bit floats cannot become an animated node: the write is refused
//! rather than a file with non-finite numbers made.

use std::collections::BTreeSet;

use super::Plan;
use crate::formats::gltf::GltfSource;
use crate::formats::gltf::trs;

/// One line for each node of `base` that `plan` animates by translation, rotation or scale and
/// whose matrix has no decomposition glTF can store.
pub(super) fn matrix_errors(plan: &Plan, base: &GltfSource) -> Vec<String> {
    animated_by_trs(plan)
        .into_iter()
        .filter_map(|i| {
            let matrix = base.json.nodes.get(i)?.matrix?;
            trs::decompose(&matrix).is_none().then(|| {
                let name = base.node_names.get(i).map_or("", String::as_str);
                format!(
                    "node {i} '{name}': its matrix does not decompose into a translation, \
                     rotation and scale within 32-bit floats, which an animated node needs"
                )
            })
        })
        .collect()
}

/// The nodes of the original file (their indices there) that `plan` animates by translation,
/// rotation or scale: those that may not keep a matrix.
pub(crate) fn animated_by_trs(plan: &Plan) -> BTreeSet<usize> {
    plan.animations
        .iter()
        .flat_map(|a| &a.channels)
        .filter(|c| matches!(c.path, "translation" | "rotation" | "scale"))
        .filter_map(|c| plan.nodes.get(c.node?)?.existing)
        .collect()
}
