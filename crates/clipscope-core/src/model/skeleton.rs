//! A file's bone hierarchy: what legacy three.js models (`bones`), glTF skins and PlayCanvas
//! node lists say about how the bones a clip animates hang together.
//!
//! Clips only name bones; a skeleton adds parents and rest transforms, so a proxy rig can be laid
//! out as a tree and unanimated bones still hold their place.

/// One bone: its name, its parent (an index into [`Skeleton::bones`]) and its rest transform
/// relative to the parent.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// The bone's name, as tracks address it (`.bones[name].position`).
    pub name: String,
    /// Index of the parent bone, `None` for a root.
    pub parent: Option<usize>,
    /// Rest position relative to the parent.
    pub position: [f32; 3],
    /// Rest rotation relative to the parent, a quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Rest scale.
    pub scale: [f32; 3],
}

impl Bone {
    /// A bone at the parent's origin with no rotation and unit scale.
    pub fn new(name: impl Into<String>, parent: Option<usize>) -> Bone {
        Bone {
            name: name.into(),
            parent,
            position: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
        }
    }
}

/// The bones of a file, parents before or after children in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// Every bone, in file order (track indices such as legacy `hierarchy[h]` refer to these).
    pub bones: Vec<Bone>,
}

impl Skeleton {
    /// The hierarchy as `(bone, parent name)` pairs, the shape a proxy rig is laid out by.
    pub fn hierarchy(&self) -> Vec<(String, Option<String>)> {
        self.bones
            .iter()
            .map(|b| {
                let parent = b
                    .parent
                    .and_then(|p| self.bones.get(p))
                    .map(|p| p.name.clone());
                (b.name.clone(), parent)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierarchy_names_parents() {
        let s = Skeleton {
            bones: vec![Bone::new("hip", None), Bone::new("knee", Some(0))],
        };
        assert_eq!(
            s.hierarchy(),
            vec![
                ("hip".to_string(), None),
                ("knee".to_string(), Some("hip".to_string()))
            ]
        );
    }
}
