//! The document's skeleton from the glTF node hierarchy.
//!
//! The bones are the nodes skins use as joints and the nodes animations move (translation,
//! rotation or scale channels), plus every ancestor of those, so a proxy rig lays them out as
//! the tree they are, and every node below them — static end bones such as Mixamo's
//! `HeadTop_End`, meshes and helpers hanging off a joint — which move with them and which a
//! reduction measures too. Each bone carries its node's track name, parent and rest transform (TRS,
//! or the decomposed `matrix`). A file with no skin and no moved node has no skeleton.

use std::collections::HashSet;

use super::schema::GltfJson;
use super::trs::decomposed;
use crate::formats::json::Located;
use crate::model::{Bone, Skeleton};

/// The parent of every node (the first node listing it as a child), checking child indices
/// and leaving out links that would close a cycle.
pub(crate) fn parents(json: &GltfJson) -> Result<Vec<Option<usize>>, Located> {
    let n = json.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in json.nodes.iter().enumerate() {
        for (j, child) in node.children.iter().flatten().enumerate() {
            let c = child.value();
            if c >= n {
                return Err(Located::new(
                    format!("nodes[{i}].children[{j}]"),
                    format!("node {c} does not exist (the file has {n})"),
                ));
            }
            if parent[c].is_some() || descends_from(&parent, i, c) {
                continue;
            }
            parent[c] = Some(i);
        }
    }
    Ok(parent)
}

/// Whether `node` is `ancestor` or lies below it.
pub(super) fn descends_from(parent: &[Option<usize>], node: usize, ancestor: usize) -> bool {
    let mut at = Some(node);
    let mut steps = 0;
    while let Some(i) = at {
        if i == ancestor {
            return true;
        }
        steps += 1;
        if steps > parent.len() {
            return false;
        }
        at = parent[i];
    }
    false
}

/// The skeleton of the joints and moved nodes (see the module docs), or `None`; the skins in
/// `ignored` (found broken by the lenient read's checks) are left out.
pub(crate) fn skeleton(
    json: &GltfJson,
    names: &[String],
    ignored: &HashSet<usize>,
) -> Result<Option<Skeleton>, Located> {
    let n = json.nodes.len();
    let parent = parents(json)?;
    let mut wanted = vec![false; n];
    for (s, skin) in json.skins.iter().enumerate() {
        if ignored.contains(&s) {
            continue;
        }
        let Some(joints) = &skin.joints else {
            return Err(Located::new(
                format!("skins[{s}]"),
                "missing field `joints`",
            ));
        };
        for (j, &joint) in joints.iter().enumerate() {
            let i = joint as usize;
            if i >= n {
                return Err(Located::new(
                    format!("skins[{s}].joints[{j}]"),
                    format!("node {i} does not exist (the file has {n})"),
                ));
            }
            wanted[i] = true;
        }
    }
    for animation in &json.animations {
        for channel in &animation.channels {
            if let Some(i) = channel.node()
                && matches!(channel.path(), Some("translation" | "rotation" | "scale"))
                && let Some(w) = wanted.get_mut(i as usize)
            {
                *w = true;
            }
        }
    }
    // Everything below a wanted node moves with it.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(c);
        }
    }
    let mut stack: Vec<usize> = (0..n).filter(|&i| wanted[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in &children[i] {
            if !wanted[c] {
                wanted[c] = true;
                stack.push(c);
            }
        }
    }
    for i in 0..n {
        if wanted[i] {
            let mut at = parent[i];
            while let Some(p) = at {
                if wanted[p] {
                    break;
                }
                wanted[p] = true;
                at = parent[p];
            }
        }
    }
    let mut index = vec![None; n];
    let mut bones = Vec::new();
    for i in (0..n).filter(|&i| wanted[i]) {
        index[i] = Some(bones.len());
        bones.push(i);
    }
    if bones.is_empty() {
        return Ok(None);
    }
    let bones = bones
        .into_iter()
        .map(|i| {
            let node = &json.nodes[i];
            let mut bone = Bone::new(names[i].clone(), parent[i].and_then(|p| index[p]));
            if let Some(m) = node.matrix {
                let (s, r, t) = decomposed(&m);
                bone.position = t.to_array();
                bone.rotation = r.to_array();
                bone.scale = s.to_array();
            } else {
                if let Some(t) = node.translation {
                    bone.position = t;
                }
                if let Some(r) = node.rotation {
                    bone.rotation = r.0;
                }
                if let Some(s) = node.scale {
                    bone.scale = s;
                }
            }
            bone
        })
        .collect();
    Ok(Some(Skeleton { bones }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::gltf::schema::parse;

    fn json(nodes: &str, extra: &str) -> GltfJson {
        let text = format!(r#"{{"asset":{{"version":"2.0"}},"nodes":{nodes}{extra}}}"#);
        parse(text.as_bytes()).unwrap().json
    }

    #[test]
    fn cycles_and_second_parents_are_ignored() {
        let j = json(
            r#"[{"children":[1]},{"children":[0,2]},{"children":[1]},{"children":[2]}]"#,
            "",
        );
        // 0 → 1 → 2; 1 → 0 would close a loop, 2 → 1 and 3 → 2 are second parents.
        assert_eq!(parents(&j).unwrap(), [None, Some(0), Some(1), None]);
    }

    #[test]
    fn joints_with_ancestors_descendants_and_matrix_rest_pose() {
        let j = json(
            r#"[{"name":"root","children":[1]},
                {"matrix":[2,0,0,0, 0,2,0,0, 0,0,2,0, 1,2,3,1],"children":[2]},
                {"name":"tip","children":[4]},
                {"name":"loose"},
                {"name":"tip_End"}]"#,
            r#","skins":[{"joints":[2]}]"#,
        );
        let names = vec![
            "root".into(),
            "node_1".into(),
            "tip".into(),
            "loose".into(),
            "tip_End".into(),
        ];
        let s = skeleton(&j, &names, &HashSet::new()).unwrap().unwrap();
        assert_eq!(
            s.hierarchy(),
            [
                ("root".to_string(), None),
                ("node_1".to_string(), Some("root".to_string())),
                ("tip".to_string(), Some("node_1".to_string())),
                ("tip_End".to_string(), Some("tip".to_string())),
            ]
        );
        assert_eq!(s.bones[1].position, [1.0, 2.0, 3.0]);
        assert_eq!(s.bones[1].scale, [2.0; 3]);
        let bad = json("[{}]", r#","skins":[{"joints":[4]}]"#);
        let e = skeleton(&bad, &["node_0".into()], &HashSet::new()).unwrap_err();
        assert_eq!(e.path, "skins[0].joints[0]");
    }
}
