//! Which rig a clip plays on: the nodes a clip animates, how well a rig covers them, and the
//! automatic choice between the built-in rigs and a proxy.

use super::{Rig, names};
use clipscope_core::model::Clip;
pub(crate) use clipscope_core::model::binding::animated_nodes;

/// The lowest [`Rig::match_score`] at which [`pick_rig`] plays a clip on a built-in rig.
pub const MATCH_THRESHOLD: f32 = 0.5;

impl Rig {
    /// The fraction of the nodes `clip` animates ([`animated_nodes`]) that bind to this rig
    /// ([`names::bind`]), as a part or as its root; 1 for a clip that only animates the root,
    /// which every rig has.
    pub fn match_score(&self, clip: &Clip) -> f32 {
        let names = animated_nodes(clip);
        if names.is_empty() {
            return 1.0;
        }
        let found = self.binding(&names).iter().filter(|b| b.is_some()).count()
            + names.iter().filter(|n| **n == self.name).count();
        found as f32 / names.len() as f32
    }

    /// The fraction of the nodes `clip` animates that this rig has under exactly their names
    /// (what the automatic choice between built-in rigs goes by: a rig made for other
    /// conventions only binds by normalised names when chosen).
    pub fn exact_score(&self, clip: &Clip) -> f32 {
        let names = animated_nodes(clip);
        if names.is_empty() {
            return 1.0;
        }
        let found = names
            .iter()
            .filter(|n| **n == self.name || self.part_index(n).is_some())
            .count();
        found as f32 / names.len() as f32
    }

    /// For each of `nodes`, the part it binds to by name ([`names::bind`]); the rig's own name
    /// binds to no part (it is the root).
    fn binding(&self, nodes: &[String]) -> Vec<Option<usize>> {
        let parts: Vec<String> = self.parts.iter().map(|p| p.name.clone()).collect();
        let mut bound = names::bind(nodes, &parts);
        for (b, n) in bound.iter_mut().zip(nodes) {
            if *n == self.name {
                *b = None;
            }
        }
        bound
    }

    /// This rig with every part that one of `clip`'s nodes binds to ([`names::bind`]) renamed
    /// to that node's name, so the clip's tracks find it (`mixamorig:Hips` → a part `Hips`
    /// becomes `mixamorig:Hips`). Parts nothing binds to keep their names.
    pub fn bound_to(&self, clip: &Clip) -> Rig {
        let nodes = animated_nodes(clip);
        let mut rig = self.clone();
        for (node, part) in nodes.iter().zip(self.binding(&nodes)) {
            if let Some(p) = part {
                rig.parts[p].name = node.clone();
            }
        }
        rig
    }
}

/// The rig `clip` plays on by default: the best-matching of `builtins` by exact names
/// ([`Rig::exact_score`], the first of equals) when it scores at least [`MATCH_THRESHOLD`],
/// otherwise a proxy rig for the clip's bones.
pub fn pick_rig(clip: &Clip, builtins: &[Rig]) -> Rig {
    pick_rig_with(clip, builtins, None)
}

/// [`pick_rig`] with the clip's bone hierarchy (bone, parent), which a proxy rig is laid out by.
pub fn pick_rig_with(
    clip: &Clip,
    builtins: &[Rig],
    hierarchy: Option<&[(String, Option<String>)]>,
) -> Rig {
    let mut best: Option<(&Rig, f32)> = None;
    for rig in builtins {
        let score = rig.exact_score(clip);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((rig, score));
        }
    }
    match best {
        Some((rig, score)) if score >= MATCH_THRESHOLD => rig.bound_to(clip),
        _ => Rig::proxy(clip, hierarchy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Track, TrackKind};

    fn clip(names: &[&str]) -> Clip {
        let tracks = names
            .iter()
            .map(|n| Track::numeric(*n, TrackKind::Vector, vec![0.0], vec![0.0, 0.0, 0.0]))
            .collect();
        Clip::new("c", 1.0, tracks)
    }

    #[test]
    fn nodes_of_a_clip() {
        let c = clip(&[
            ".bones[hips].position",
            "hips.quaternion",
            "Armature/spine.001.quaternion",
            ".position",
            ".morphTargetInfluences[blink]",
            "cube.material.opacity",
            "bad[",
        ]);
        assert_eq!(animated_nodes(&c), ["hips", "spine.001", "cube"]);
    }

    #[test]
    fn hero_matches_the_demo_walk_and_proxies_for_others() {
        let demo = clipscope_core::formats::read_bytes(
            clipscope_core::assets::DEMO_CLIPS,
            std::path::Path::new(clipscope_core::assets::DEMO_NAME),
        )
        .unwrap();
        let hero = Rig::builtin("hero").unwrap();
        for c in &demo.clips {
            assert_eq!(hero.match_score(c), 1.0, "{}", c.name);
            assert_eq!(pick_rig(c, Rig::builtins()).name, "Hero");
        }
        let dog = Rig::builtin("dog").unwrap();
        assert!((dog.match_score(&demo.clips[0]) - 1.0 / 9.0).abs() < 1e-6); // only `head`
        let c = clip(&[".bones[tail].quaternion", ".bones[head].quaternion"]);
        assert_eq!(pick_rig(&c, Rig::builtins()).name, "Dog");
        let c = clip(&[
            ".bones[head].quaternion",
            ".bones[wing.L].quaternion",
            ".bones[x].position",
        ]);
        assert!((hero.match_score(&c) - 1.0 / 3.0).abs() < 1e-6);
        let rig = pick_rig(&c, Rig::builtins());
        assert_eq!(rig.parts.len(), 3);
        assert_eq!(rig.part_index("wing.L"), Some(1));
        assert_eq!(clip(&[".position"]).tracks.len(), 1);
        assert_eq!(hero.match_score(&clip(&[".position"])), 1.0);
    }
}
