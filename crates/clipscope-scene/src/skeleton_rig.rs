//! Figures made of bones: a [`Rig`] from a file's [`Skeleton`] (its rest transforms kept), from
//! a rig file or a model picked from disk ([`Rig::from_file`]), and the bone look shared with
//! the humanoids built from names ([`draw_as_bones`]): each bone a slim box from its joint to
//! its main child's joint, each leaf a small block, every joint a cube.

use std::fmt;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};

use super::rig::{Origin, parents_first};
use super::{Part, Rig, palette_colour};
use clipscope_core::formats::ReadError;
use clipscope_core::model::Skeleton;

impl Rig {
    /// The skeleton as a figure called `name`: one part per bone, parents first, at the bones'
    /// rest transforms, drawn as bones (each a slim box from its joint to its main child's, each
    /// leaf a small block, every joint a cube). `None` for a skeleton without bones.
    pub fn from_skeleton(name: &str, skeleton: &Skeleton) -> Option<Rig> {
        let bones = &skeleton.bones;
        if bones.is_empty() {
            return None;
        }
        let n = bones.len();
        // A parent that leads back to the bone (a cycle) or out of range makes it a root.
        let mut parent: Vec<Option<usize>> = bones.iter().map(|b| b.parent).collect();
        for i in 0..n {
            let (mut at, mut steps) = (parent[i], 0);
            while let Some(p) = at {
                steps += 1;
                if p >= n || p == i || steps > n {
                    parent[i] = None;
                    break;
                }
                at = parent[p];
            }
        }
        // Parents first, otherwise in file order; duplicate names keep the first.
        let order = parents_first(&parent);
        let mut new_index = vec![usize::MAX; n];
        let mut parts: Vec<Part> = Vec::with_capacity(n);
        let mut seen = std::collections::HashSet::new();
        for &k in &order {
            let b = &bones[k];
            if b.name.is_empty() || !seen.insert(b.name.as_str()) {
                continue;
            }
            new_index[k] = parts.len();
            let mut part = Part::new(
                b.name.clone(),
                parent[k].map(|p| new_index[p]).filter(|&p| p != usize::MAX),
                Vec3::ZERO,
                palette_colour(parts.len()),
            );
            part.position = Vec3::from(b.position);
            let q = Quat::from_array(b.rotation);
            part.rotation = if q.is_finite() && q.length() > 1e-6 {
                q.normalize()
            } else {
                Quat::IDENTITY
            };
            let s = Vec3::from(b.scale);
            part.scale = if s.is_finite() { s } else { Vec3::ONE };
            if !part.position.is_finite() {
                part.position = Vec3::ZERO;
            }
            parts.push(part);
        }
        let mut rig_name = name.to_string();
        while rig_name.is_empty() || parts.iter().any(|p| p.name == rig_name) {
            rig_name.push('_');
        }
        let mut rig = Rig {
            name: rig_name,
            parts,
            morph_targets: Vec::new(),
            origin: Origin::File(name.to_string()),
            joint_size: 0.0,
            model: None,
        };
        draw_as_bones(&mut rig);
        Some(rig)
    }

    /// The figure in a file picked from disk: a rig file (`{"name", "parts"}`, see
    /// [`Rig::from_json`]), or any file clipscope reads that has a skeleton (a glTF skin or node
    /// tree, a legacy three.js model's `bones`, a PlayCanvas or three.js file with a hierarchy).
    /// The rig is named after the file and carries the file's 3D model when it has meshes
    /// ([`Rig::with_model`]). The error is one line naming the file.
    pub fn from_file(path: &Path) -> Result<Rig, FigureFileError> {
        let bytes = std::fs::read(path).map_err(|source| FigureFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let file_name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        if looks_like_rig_file(&bytes) {
            let mut rig = Rig::from_json(&bytes, path)?;
            rig.origin = Origin::File(file_name);
            return Ok(rig);
        }
        let doc = clipscope_core::formats::read_bytes(&bytes, path)?;
        doc.skeleton
            .as_ref()
            .and_then(|s| Rig::from_skeleton(&file_name, s))
            .map(|rig| match &doc.model {
                Some(model) => rig.with_model(model.clone()),
                None => rig,
            })
            .ok_or_else(|| FigureFileError::NoSkeleton {
                path: path.to_path_buf(),
            })
    }
}

/// Why [`Rig::from_file`] found no figure in a file. Its [`Display`](fmt::Display) is one line
/// naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum FigureFileError {
    /// The file could not be read from disk.
    Io {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The file is a rig file with a problem, or not a file clipscope reads.
    Read(ReadError),
    /// The file reads but has no skeleton to play on.
    NoSkeleton {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for FigureFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FigureFileError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            FigureFileError::Read(e) => e.fmt(f),
            FigureFileError::NoSkeleton { path } => {
                write!(f, "{}: the file has no skeleton to play on", path.display())
            }
        }
    }
}

impl std::error::Error for FigureFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FigureFileError::Io { source, .. } => Some(source),
            FigureFileError::Read(e) => Some(e),
            FigureFileError::NoSkeleton { .. } => None,
        }
    }
}

impl From<ReadError> for FigureFileError {
    fn from(e: ReadError) -> FigureFileError {
        FigureFileError::Read(e)
    }
}

/// Extensions of files that may hold a model with a skeleton.
const MODEL_EXTENSIONS: &[&str] = &["gltf", "glb", "json", "js"];
/// The most files of a folder [`companion`] reads, and the largest it reads.
const COMPANION_FILES: usize = 32;
const COMPANION_BYTES: u64 = 32 << 20;
/// The share of a clip's animated nodes a companion must bind.
pub const COMPANION_SHARE: f32 = 0.8;

/// The model a clip file without a skeleton plays on automatically: a file in the same folder
/// with the same stem (`walk.json` → `walk.glb`), else the only file there with a skeleton,
/// when it binds at least [`COMPANION_SHARE`] of the clip's animated nodes. Reads at most 32
/// files of up to 32 MiB; files that do not read are skipped.
pub fn companion(clip_path: &Path, clip: &clipscope_core::model::Clip) -> Option<Rig> {
    companion_model(clip_path).filter(|rig| rig.match_score(clip) >= COMPANION_SHARE)
}

/// The model next to `clip_path` that [`companion`] considers (same stem, else the only model
/// in the folder), whichever clip it is for.
pub fn companion_model(clip_path: &Path) -> Option<Rig> {
    let dir = clip_path.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let stem = clip_path.file_stem()?;
    let own = clip_path.file_name()?;
    let mut candidates: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name() != Some(own)
                && p.extension()
                    .is_some_and(|e| MODEL_EXTENSIONS.iter().any(|m| e.eq_ignore_ascii_case(m)))
                && std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= COMPANION_BYTES)
        })
        .collect();
    candidates.sort();
    if let Some(same) = candidates.iter().find(|p| p.file_stem() == Some(stem)) {
        return Rig::from_file(same).ok();
    }
    let mut models = candidates
        .iter()
        .take(COMPANION_FILES)
        .filter_map(|p| Rig::from_file(p).ok());
    let only = models.next()?;
    if models.next().is_some() {
        return None;
    }
    Some(only)
}

/// Whether `bytes` is a rig file: a JSON object whose top-level keys include `parts` and
/// `name` (and nothing a clip format has).
fn looks_like_rig_file(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        name: Option<serde::de::IgnoredAny>,
        parts: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Probe>(bytes).is_ok_and(|p| p.name.is_some() && p.parts.is_some())
}

/// Gives `rig` the look of a skeleton: each part with children becomes a bone to its main
/// child (the one heading the most parts), each leaf a small block continuing its parent's
/// direction, every joint a cube; thicknesses follow the figure's size at rest.
pub(crate) fn draw_as_bones(rig: &mut Rig) {
    draw_bones_preferring(rig, &[]);
}

/// [`draw_as_bones`], with the child each part's bone should point to where `prefer` names one
/// (by part index; a humanoid's spine points up the spine rather than to an arm).
pub(crate) fn draw_bones_preferring(rig: &mut Rig, prefer: &[Option<usize>]) {
    let n = rig.parts.len();
    let mut subtree = vec![1usize; n];
    for i in (0..n).rev() {
        if let Some(p) = rig.parts[i].parent {
            subtree[p] += subtree[i];
        }
    }
    let mut tip: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        if let Some(p) = rig.parts[i].parent
            && tip[p].is_none_or(|t| subtree[i] > subtree[t])
        {
            tip[p] = Some(i);
        }
    }
    for (i, t) in prefer.iter().enumerate().take(n) {
        if let Some(t) = *t
            && t < n
            && rig.parts[t].parent == Some(i)
        {
            tip[i] = Some(t);
        }
    }
    let joints = rig.joints(&rig.rest_pose());
    let (min, max) = joints.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(a, b), p| (a.min(*p), b.max(*p)),
    );
    let extent = if joints.is_empty() {
        1.0
    } else {
        (max - min).max_element()
    };
    let size = if extent.is_finite() && extent > 1e-6 {
        extent
    } else {
        1.0
    };
    // Leaves are sized in their own (scaled) space: the scale each part's frame has.
    let mut world_scale = vec![1.0f32; n];
    for i in 0..n {
        let own = rig.parts[i].scale.abs().max_element();
        let above = rig.parts[i]
            .parent
            .filter(|&p| p < i)
            .map_or(1.0, |p| world_scale[p]);
        world_scale[i] = if own.is_finite() && own > 1e-9 {
            above * own
        } else {
            above
        };
    }
    // Bones that are alone (a root with no children, as in a legacy three.js file listing only
    // its legs) have no neighbour to measure: they share the skeleton's extent.
    let has_child: Vec<bool> = {
        let mut v = vec![false; n];
        for part in &rig.parts {
            if let Some(p) = part.parent.filter(|&p| p < n) {
                v[p] = true;
            }
        }
        v
    };
    let alone: Vec<bool> = (0..n)
        .map(|i| rig.parts[i].parent.is_none() && !has_child[i])
        .collect();
    let lone = alone.iter().filter(|a| **a).count();
    for i in 0..n {
        let length = match tip[i] {
            Some(t) => joints[t].distance(joints[i]),
            None if alone[i] && lone > 1 => size * 0.4 / (lone as f32).sqrt(),
            None => {
                let from_parent = rig.parts[i]
                    .parent
                    .map_or(size * 0.05, |p| joints[i].distance(joints[p]) * 0.4);
                // A leaf on its parent's joint (a bone with no length) still shows its turn.
                if from_parent < size * 0.01 {
                    size * 0.15
                } else {
                    from_parent
                }
            }
        };
        let width = (length * 0.22).clamp(size * 0.012, size * 0.045);
        let alone_here = alone[i] && lone > 1;
        let part = &mut rig.parts[i];
        part.tip = tip[i];
        if tip[i].is_some() {
            part.size = Vec3::splat(width);
        } else {
            // A leaf: a block continuing the direction from the parent to this joint.
            // Alone, a bone runs along its own y (three.js and Blender bones do).
            let along = if alone_here {
                Vec3::Y
            } else {
                part.position
                    .try_normalize()
                    .map_or(Vec3::Y, |d| part.rotation.inverse() * d)
            };
            let length = length.max(width);
            let unscale = 1.0 / world_scale[i];
            part.size = (Vec3::splat(width) + along.abs() * (length - width)) * unscale;
            part.offset = along * length * 0.5 * unscale;
        }
    }
    rig.joint_size = size * 0.022;
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Bone, Clip, Track, TrackKind};

    /// A clip rotating `nodes`.
    fn clip_of(nodes: &[&str]) -> Clip {
        let tracks = nodes
            .iter()
            .map(|n| {
                Track::numeric(
                    format!("{n}.quaternion"),
                    TrackKind::Quaternion,
                    vec![0.0],
                    vec![0.0, 0.0, 0.0, 1.0],
                )
            })
            .collect();
        Clip::new("c", 1.0, tracks)
    }

    #[test]
    fn companions_by_stem_or_alone_and_binding_most_nodes() {
        let dir = tempfile::tempdir().unwrap();
        let rig = |name: &str, parts: &[&str]| {
            let parts: Vec<String> = parts
                .iter()
                .map(|p| format!(r##"{{"name": "{p}", "size": [1, 1, 1], "colour": "#ffffff"}}"##))
                .collect();
            format!(r#"{{"name": "{name}", "parts": [{}]}}"#, parts.join(","))
        };
        let clip_path = dir.path().join("walk.json");
        std::fs::write(&clip_path, "{}").unwrap();
        let clip = clip_of(&[
            "mixamorigHips",
            "mixamorigSpine",
            "mixamorigHead",
            "mixamorigNeck",
            "tail",
        ]);
        // Alone in the folder, binding 4 of 5 nodes: played on.
        std::fs::write(
            dir.path().join("model.json"),
            rig("M", &["Hips", "Spine", "Head", "Neck"]),
        )
        .unwrap();
        let found = companion(&clip_path, &clip).unwrap();
        assert_eq!(found.origin, Origin::File("model.json".into()));
        // Two models: neither is the only one; a same-stem model wins.
        std::fs::write(dir.path().join("other.json"), rig("O", &["Hips"])).unwrap();
        assert!(companion(&clip_path, &clip).is_none());
        std::fs::write(dir.path().join("walk.gltf"), "not json").unwrap();
        assert!(
            companion(&clip_path, &clip).is_none(),
            "an unreadable same-stem file"
        );
        std::fs::remove_file(dir.path().join("walk.gltf")).unwrap();
        std::fs::write(dir.path().join("walk.rig.json"), "{}").unwrap();
        std::fs::remove_file(dir.path().join("other.json")).unwrap();
        std::fs::remove_file(dir.path().join("walk.rig.json")).unwrap();
        // Binding too little: not used.
        let few = clip_of(&["a", "b", "c", "Hips"]);
        assert!(companion(&clip_path, &few).is_none());
    }

    fn bone(name: &str, parent: Option<usize>, y: f32) -> Bone {
        let mut b = Bone::new(name, parent);
        b.position = [0.0, y, 0.0];
        b
    }

    /// simple-skinned.json lists two legs, both roots, 3.75 apart: each is a bone a good part of
    /// that long along its own y, not a speck.
    #[test]
    fn bones_alone_share_the_extent() {
        let mut a = Bone::new("leg.R", None);
        a.position = [-1.25, 0.44, 0.19];
        let mut b = Bone::new("leg.L", None);
        b.position = [2.5, 0.28, 0.07];
        let rig = Rig::from_skeleton("s", &Skeleton { bones: vec![a, b] }).unwrap();
        for part in &rig.parts {
            assert!(part.size.y > 0.8, "{}: {}", part.name, part.size);
            assert!(
                part.size.y > part.size.x * 3.0,
                "{}: {}",
                part.name,
                part.size
            );
            assert!(part.offset.y > 0.0, "{}: {}", part.name, part.offset);
        }
    }

    #[test]
    fn a_skeleton_becomes_bones_parents_first() {
        // Children listed before parents, one self-parented bone.
        let s = Skeleton {
            bones: vec![
                bone("hand", Some(2), 0.3),
                bone("loop", Some(1), 0.0),
                bone("arm", Some(3), 0.5),
                bone("root", None, 1.0),
            ],
        };
        let rig = Rig::from_skeleton("model.gltf", &s).unwrap();
        let names: Vec<&str> = rig.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["root", "arm", "hand", "loop"]);
        assert_eq!(rig.origin, Origin::File("model.gltf".into()));
        assert_eq!(rig.parts[1].parent, Some(0));
        assert_eq!(rig.parts[0].tip, Some(1));
        assert_eq!(rig.parts[2].tip, None);
        assert!(Rig::new(rig.name.clone(), rig.parts.clone(), vec![]).is_ok());
        let joints = rig.joints(&rig.rest_pose());
        assert!(joints[2].abs_diff_eq(Vec3::new(0.0, 1.8, 0.0), 1e-6));
        // The root's bone spans root → arm; joints are drawn.
        let mut boxes = vec![];
        rig.instances(&rig.rest_pose(), &mut boxes);
        assert_eq!(boxes.len(), 8);
        let centre = boxes[0].transform.w_axis.truncate();
        assert!(
            centre.abs_diff_eq(Vec3::new(0.0, 1.25, 0.0), 1e-6),
            "{centre}"
        );
        assert!((boxes[0].transform.y_axis.truncate().length() - 0.5).abs() < 1e-6);
        assert_eq!(rig.part_of_box(5), Some(1));
        assert!(Rig::from_skeleton("x", &Skeleton::default()).is_none());
    }

    #[test]
    fn files_with_skeletons_and_rig_files() {
        let dir = tempfile::tempdir().unwrap();
        let rig = dir.path().join("r.json");
        std::fs::write(
            &rig,
            r##"{"name": "Robot", "parts": [{"name": "a", "size": [1, 1, 1], "colour": "#ffffff"}]}"##,
        )
        .unwrap();
        let r = Rig::from_file(&rig).unwrap();
        assert_eq!(r.name, "Robot");
        assert_eq!(r.origin, Origin::File("r.json".into()));
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, r#"{"name": "R", "parts": []}"#).unwrap();
        let e = Rig::from_file(&bad).unwrap_err();
        assert!(matches!(e, FigureFileError::Read(_)));
        assert!(
            e.to_string()
                .ends_with("bad.json: parts: the rig has no parts"),
            "{e}"
        );
        let e = Rig::from_file(&dir.path().join("none.json")).unwrap_err();
        assert!(e.to_string().contains("none.json"), "{e}");
        assert!(std::error::Error::source(&e).is_some(), "the io error");
        if let Some(path) = clipscope_test_support::sample_data("gltf/SimpleSkin.gltf") {
            let r = Rig::from_file(&path).unwrap();
            assert_eq!(r.origin.kind(), "file");
            assert!(r.parts.len() >= 2, "{:?}", r.parts);
        }
        if let Some(path) = clipscope_test_support::sample_data("playcanvas/cube.animation.json") {
            let e = Rig::from_file(&path).unwrap_err();
            assert!(e.to_string().ends_with("has no skeleton to play on"), "{e}");
        }
    }
}
