//! A cube character as data: a [`Rig`] is a tree of named [`Part`]s, each a box hanging from a
//! pivot.
//!
//! Parts are listed parents first, so a single pass over them poses the whole tree. Each part has
//! a pivot (its joint) placed relative to its parent's pivot by a rest position, rotation and
//! scale, which a clip animates as the node's `position`, `quaternion` and `scale`; the part's box
//! sits at `offset` from the pivot, so a limb hangs from its joint and turns about it.
//!
//! Rigs are read from `assets/rigs/*.json` ([`rig_schema`](super::rig_schema)); the built-in
//! ones are compiled in ([`Rig::builtins`]).

use std::collections::HashSet;
use std::sync::OnceLock;

use glam::{Quat, Vec3};

use crate::{RigError, RigModel};
use clipscope_core::model::{Bone, Skeleton};

/// A cube character: a name (the name of the pose's root node) and its parts, parents first.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    /// The rig's name, e.g. `Hero`; also the root node of its pose.
    pub name: String,
    /// The parts; a part's parent comes before it.
    pub parts: Vec<Part>,
    /// Morph-target names the root node answers to (`.morphTargetInfluences[blink]`).
    pub morph_targets: Vec<String>,
    /// Where the rig comes from (what `info` and the viewport card report).
    pub origin: Origin,
    /// The edge of the cube drawn at every joint (0: none). Figures made of bones
    /// ([`Part::tip`]) draw their joints, so a skeleton reads as a body.
    pub joint_size: f32,
    /// The 3D model whose nodes the parts are, when the rig comes from a file with meshes: the
    /// rig then plays as a [`ModelFigure`](crate::ModelFigure) showing the model.
    pub model: Option<RigModel>,
}

/// Where a rig comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Origin {
    /// A rig compiled into the program (the Hero, the Dog).
    #[default]
    BuiltIn,
    /// The skeleton of a file (a model, a rig file, another open document), by its name.
    File(String),
    /// A humanoid built from the clip's node names.
    Names,
    /// One box per bone, made up for the clip.
    Proxy,
}

impl Origin {
    /// The name `info --json` reports: `built-in`, `file`, `names` or `proxy`.
    pub fn kind(&self) -> &'static str {
        match self {
            Origin::BuiltIn => "built-in",
            Origin::File(_) => "file",
            Origin::Names => "names",
            Origin::Proxy => "proxy",
        }
    }
}

/// One box of a rig, hanging from its pivot.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The node name clips address it by (`.bones[name]…` or `name.quaternion`).
    pub name: String,
    /// The index of the parent part (always smaller than this part's index); `None` hangs the
    /// part from the rig's root.
    pub parent: Option<usize>,
    /// The box's size along x, y and z (positive; all zero for a pivot without a box).
    pub size: Vec3,
    /// The box's colour, linear RGB 0–1.
    pub colour: [f32; 3],
    /// The box centre relative to the pivot, in the part's own frame.
    pub offset: Vec3,
    /// The pivot relative to the parent's pivot at rest (the node's rest `position`).
    pub position: Vec3,
    /// The rest rotation (the node's rest `quaternion`).
    pub rotation: Quat,
    /// The rest scale (the node's rest `scale`).
    pub scale: Vec3,
    /// The child part this part's bone points to: the part is drawn as a bone from its pivot
    /// to that child's pivot (wherever the pose puts it) instead of as its box.
    pub tip: Option<usize>,
}

impl Part {
    /// A part with a box of `size` centred on its pivot, the pivot at its parent's pivot,
    /// unrotated and unscaled.
    pub fn new(
        name: impl Into<String>,
        parent: Option<usize>,
        size: Vec3,
        colour: [f32; 3],
    ) -> Part {
        Part {
            name: name.into(),
            parent,
            size,
            colour,
            offset: Vec3::ZERO,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            tip: None,
        }
    }
}

/// The rig files compiled into the program, with the names they are shown under.
const BUILTIN_FILES: &[(&str, &[u8])] = &[
    (
        "rigs/hero.json",
        include_bytes!("../../../assets/rigs/hero.json"),
    ),
    (
        "rigs/dog.json",
        include_bytes!("../../../assets/rigs/dog.json"),
    ),
    (
        "rigs/block_hero.json",
        include_bytes!("../../../assets/rigs/block_hero.json"),
    ),
];

impl Rig {
    /// A rig from parts listed parents first, checked: a non-empty name, unique part names none
    /// of which is the rig's name, parents before their children, and positive finite sizes.
    /// The error names the culprit (`parts[3].parent: …`).
    pub fn new(
        name: impl Into<String>,
        parts: Vec<Part>,
        morph_targets: Vec<String>,
    ) -> Result<Rig, RigError> {
        let rig = Rig {
            name: name.into(),
            parts,
            morph_targets,
            origin: Origin::BuiltIn,
            joint_size: 0.0,
            model: None,
        };
        if rig.name.is_empty() {
            return Err(RigError::NoName);
        }
        let mut names = HashSet::with_capacity(rig.parts.len());
        for (i, part) in rig.parts.iter().enumerate() {
            rig.check_part(i, part, &mut names)?;
        }
        Ok(rig)
    }

    /// The checks of [`Rig::new`] on part `i`; `names` holds the names of the parts before it.
    fn check_part<'a>(
        &self,
        i: usize,
        part: &'a Part,
        names: &mut HashSet<&'a str>,
    ) -> Result<(), RigError> {
        if part.name.is_empty() {
            return Err(RigError::EmptyPartName { part: i });
        }
        if part.name == self.name {
            return Err(RigError::OwnName {
                part: i,
                name: part.name.clone(),
            });
        }
        if !names.insert(part.name.as_str()) {
            return Err(RigError::DuplicateName {
                part: i,
                name: part.name.clone(),
                first: None,
            });
        }
        if let Some(t) = part.tip
            && (t <= i || t >= self.parts.len() || self.parts[t].parent != Some(i))
        {
            return Err(RigError::TipNotChild { part: i, tip: t });
        }
        if let Some(p) = part.parent
            && p >= i
        {
            return Err(RigError::ParentAfter { part: i, parent: p });
        }
        let group = part.size == Vec3::ZERO;
        if !(group || part.size.cmpgt(Vec3::ZERO).all() && part.size.is_finite()) {
            return Err(RigError::Size {
                part: i,
                size: part.size,
            });
        }
        Ok(())
    }

    /// The index of the part called `name`.
    pub fn part_index(&self, name: &str) -> Option<usize> {
        self.parts.iter().position(|p| p.name == name)
    }

    /// The built-in rigs (the Hero, the Dog), parsed once.
    pub fn builtins() -> &'static [Rig] {
        static BUILTINS: OnceLock<Vec<Rig>> = OnceLock::new();
        BUILTINS.get_or_init(|| {
            BUILTIN_FILES
                .iter()
                .map(|(file, bytes)| {
                    Rig::from_json(bytes, file).unwrap_or_else(|e| panic!("built-in rig: {e}"))
                })
                .collect()
        })
    }

    /// The rig's joints as a skeleton: every part's pivot with its parent and rest transform
    /// (the boxes are left out), for tools that need the hierarchy a clip plays in.
    pub fn skeleton(&self) -> Skeleton {
        Skeleton {
            bones: self
                .parts
                .iter()
                .map(|p| Bone {
                    name: p.name.clone(),
                    parent: p.parent,
                    position: p.position.to_array(),
                    rotation: p.rotation.to_array(),
                    scale: p.scale.to_array(),
                })
                .collect(),
        }
    }

    /// The built-in rig called `name` (case-insensitive), e.g. `hero`.
    pub fn builtin(name: &str) -> Option<&'static Rig> {
        Rig::builtins()
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }
}

/// The order that lists every node after its parent (`parent` has one entry per node, without
/// cycles), otherwise in the given order.
pub(crate) fn parents_first(parent: &[Option<usize>]) -> Vec<usize> {
    let n = parent.len();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    for i in 0..n {
        let mut chain = Vec::new();
        let mut at = Some(i);
        while let Some(k) = at {
            if placed[k] {
                break;
            }
            chain.push(k);
            at = parent[k];
        }
        for &k in chain.iter().rev() {
            placed[k] = true;
            order.push(k);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(name: &str, parent: Option<usize>) -> Part {
        Part::new(name, parent, Vec3::ONE, [1.0; 3])
    }

    #[test]
    fn new_checks_the_tree() {
        assert!(Rig::new("r", vec![part("a", None), part("b", Some(0))], vec![]).is_ok());
        let e = Rig::new("r", vec![part("a", Some(1)), part("b", None)], vec![]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "parts[0].parent: parent 1 does not come before the part"
        );
        let e = Rig::new("r", vec![part("a", None), part("a", None)], vec![]).unwrap_err();
        assert_eq!(e.to_string(), "parts[1].name: duplicate part name \"a\"");
        let e = Rig::new("r", vec![part("r", None)], vec![]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("parts[0].name: \"r\" is the rig's own name"),
            "{e}"
        );
        let mut flat = part("a", None);
        flat.size.y = 0.0;
        let e = Rig::new("r", vec![flat], vec![]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("parts[0].size: sizes must be positive"),
            "{e}"
        );
    }

    #[test]
    fn parents_come_first() {
        assert_eq!(parents_first(&[Some(2), None, Some(1)]), [1, 2, 0]);
        assert_eq!(parents_first(&[None, Some(0)]), [0, 1]);
    }

    #[test]
    fn a_rig_gives_its_joints_as_a_skeleton() {
        let hero = Rig::builtin("hero").unwrap();
        let skeleton = hero.skeleton();
        assert_eq!(skeleton.bones.len(), hero.parts.len());
        for (bone, part) in skeleton.bones.iter().zip(&hero.parts) {
            assert_eq!(bone.name, part.name);
            assert_eq!(bone.parent, part.parent);
            assert_eq!(bone.position, part.position.to_array());
        }
    }

    #[test]
    fn builtins_load() {
        let names: Vec<&str> = Rig::builtins().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Hero", "Dog", "BlockHero"]);
        assert!(Rig::builtin("hero").is_some());
        assert!(Rig::builtin("dog").unwrap().parts.len() >= 8);
        assert!(Rig::builtin("dragon").is_none());
        for rig in Rig::builtins() {
            let again = Rig::new(
                rig.name.clone(),
                rig.parts.clone(),
                rig.morph_targets.clone(),
            );
            assert_eq!(again.as_ref(), Ok(rig));
        }
    }
}
