//! What a clip plays on: a cube [`Rig`], a file's 3D model ([`ModelFigure`]), a [`MorphFigure`]
//! or a Lottie composition's [`LayerFigure`], chosen automatically or by name
//! (the viewport's picker and `clipscope render --rig`), and what one posed moment of it looks
//! like to the renderer.

use std::fmt;
use std::sync::Arc;

use glam::Mat4;

use clipscope_core::model::picture::Artwork;
use clipscope_core::model::{Clip, Model, MorphMesh, Skeleton};
use clipscope_core::playback::Pose;

use super::{
    BoxInstance, LayerFigure, MATCH_THRESHOLD, ModelFigure, MorphFigure, Origin, Rig, pick_rig_with,
};

/// The name that picks a proxy rig (one box per bone).
pub const PROXY: &str = "proxy";
/// The name that picks the document's morph mesh.
pub const MESH: &str = "mesh";
/// The name that picks the document's 3D model (its meshes, skinned by its skeleton).
pub const MODEL: &str = "model";
/// The name that picks a Lottie clip's layers.
pub const LAYERS: &str = "layers";
/// The name that picks the document's own skeleton.
pub const SKELETON: &str = "skeleton";
/// The name that picks a humanoid built from the clip's node names.
pub const NAMES: &str = "names";

/// The thing a clip plays on.
#[derive(Debug, Clone)]
pub enum Figure {
    /// A cube character (built in or a proxy).
    Rig(Rig),
    /// A morph-target mesh.
    Mesh(MorphFigure),
    /// A file's 3D model: meshes, skins, materials, posed by its skeleton.
    Model(ModelFigure),
    /// A Lottie composition's layers (a clip read from Lottie).
    Layers(LayerFigure),
}

/// One posed moment: the boxes of a rig, the target weights of a mesh, the matrices and
/// weights of a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FigureFrame {
    /// The boxes to draw (empty for a morph mesh; a model's bones).
    pub boxes: Vec<BoxInstance>,
    /// One weight per morph target (empty for a rig); for a model, the morph weights of each
    /// mesh instance with targets, one after the other.
    pub weights: Vec<f32>,
    /// A model's palettes: for each mesh instance in [`Model::instances`] order, its skin's
    /// joint matrices (`jointWorld · inverseBind`, none when unskinned) then its node's world
    /// matrix (empty for other figures).
    pub joints: Vec<Mat4>,
    /// A model's node world matrices, indexed like [`Model::nodes`] (empty for other figures).
    pub nodes: Vec<Mat4>,
}

/// Where a clip comes from, for choosing its figure: the document's model, mesh and skeleton,
/// and the figures of other files it may play on.
#[derive(Debug, Clone, Copy, Default)]
pub struct FigureSource<'a> {
    /// The document's morph mesh, if it has one.
    pub mesh: Option<&'a Arc<MorphMesh>>,
    /// The document's 3D model, if it has one.
    pub model: Option<&'a Arc<Model>>,
    /// The document's bone hierarchy, if it has one.
    pub skeleton: Option<&'a Skeleton>,
    /// The document's file name (what its skeleton's figure is called).
    pub file_name: Option<&'a str>,
    /// Figures of other files: the skeletons of other open documents, models picked from disk
    /// (chosen by their rig's name).
    pub others: &'a [Rig],
    /// The model next to the clip's file ([`companion_model`](super::skeleton_rig::companion_model)),
    /// played on automatically when it binds most of the clip's nodes.
    pub companion: Option<&'a Rig>,
    /// What draws the document's compositions ([`Document::artwork`](clipscope_core::formats::Document::artwork)):
    /// a Lottie clip's layers then show their art instead of tiles.
    pub artwork: Option<&'a Arc<dyn Artwork>>,
}

/// What a clip plays on and how much of it binds, as `info --json` and the viewport card
/// report it.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureReport {
    /// The figure's name.
    pub name: String,
    /// Where the figure comes from: `built-in`, `file`, `names` or `proxy`.
    pub source: &'static str,
    /// The file the figure comes from, when it comes from a file.
    pub file: Option<String>,
    /// Tracks that bind to the figure.
    pub bound: usize,
    /// Tracks of the clip.
    pub tracks: usize,
    /// The tracks that bind to nothing, by name.
    pub unbound: Vec<String>,
    /// The mesh drawn, when the figure is a mesh or a model.
    pub mesh: Option<MeshReport>,
}

/// The mesh a figure draws, as `info --json` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshReport {
    /// Vertices drawn.
    pub vertices: usize,
    /// Triangles drawn.
    pub triangles: usize,
    /// Whether a skin deforms it.
    pub skinned: bool,
    /// Textures its materials show.
    pub textures: usize,
    /// What of the model could not be drawn, one line each with its JSON path.
    pub notes: Vec<String>,
}

impl Figure {
    /// The mesh the figure draws, if it draws one.
    pub fn mesh_report(&self) -> Option<MeshReport> {
        match self {
            Figure::Model(m) => Some(MeshReport {
                vertices: m.model.vertex_count(),
                triangles: m.model.triangle_count(),
                skinned: m.model.is_skinned(),
                textures: m.model.texture_count(),
                notes: m.model.notes.clone(),
            }),
            Figure::Mesh(m) => Some(MeshReport {
                vertices: m.mesh.vertices.len(),
                triangles: m.mesh.triangles.len(),
                skinned: false,
                textures: 0,
                notes: Vec::new(),
            }),
            Figure::Rig(_) | Figure::Layers(_) => None,
        }
    }
}

/// Why [`Figure::for_clip`] cannot give the figure asked for. Its
/// [`Display`](fmt::Display) is the one-line message the picker and `--rig` show.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FigureError {
    /// [`LAYERS`] was asked for a clip not read from Lottie.
    NoLayers,
    /// [`MESH`] was asked for a file without a morph mesh.
    NoMesh,
    /// [`MODEL`] was asked for a file without a model to draw.
    NoModel,
    /// [`SKELETON`] was asked for a file without a skeleton.
    NoSkeleton,
    /// [`NAMES`] was asked for a clip whose node names follow no humanoid convention.
    NotHumanoid,
    /// The name asked for is no figure's.
    UnknownRig {
        /// The name asked for.
        name: String,
        /// The names that would have worked.
        choices: Vec<String>,
    },
}

impl fmt::Display for FigureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FigureError::NoLayers => {
                f.write_str("this clip was not read from Lottie: it has no layers")
            }
            FigureError::NoMesh => f.write_str("this file has no morph mesh"),
            FigureError::NoModel => f.write_str("this file has no meshes to draw"),
            FigureError::NoSkeleton => f.write_str("this file has no skeleton"),
            FigureError::NotHumanoid => {
                f.write_str("the clip's node names follow no humanoid convention")
            }
            FigureError::UnknownRig { name, choices } => write!(
                f,
                "no rig named {name:?} (choose from {})",
                choices.join(", ")
            ),
        }
    }
}

impl std::error::Error for FigureError {}

impl Figure {
    /// The figure's name: the rig's name or the mesh's.
    pub fn name(&self) -> &str {
        match self {
            Figure::Rig(rig) => &rig.name,
            Figure::Mesh(mesh) => mesh.name(),
            Figure::Model(model) => model.name(),
            Figure::Layers(_) => LAYERS,
        }
    }

    /// The pose a mixer plays clips on.
    pub fn rest_pose(&self) -> Pose {
        match self {
            Figure::Rig(rig) => rig.rest_pose(),
            Figure::Mesh(mesh) => mesh.rest_pose(),
            Figure::Model(model) => model.rest_pose(),
            // Layers read their clip directly; the mixer only needs a root.
            Figure::Layers(_) => Pose::new(LAYERS),
        }
    }

    /// `pose` (at clip time `time`) as the renderer needs it, written into `out` (cleared
    /// first).
    pub fn frame(&self, pose: &Pose, time: f64, out: &mut FigureFrame) {
        out.boxes.clear();
        out.weights.clear();
        out.joints.clear();
        out.nodes.clear();
        match self {
            Figure::Rig(rig) => rig.instances(pose, &mut out.boxes),
            Figure::Mesh(mesh) => mesh.weights(pose, &mut out.weights),
            Figure::Model(model) => model.frame(pose, out),
            Figure::Layers(layers) => layers.instances(time, &mut out.boxes),
        }
    }

    /// Where the figure comes from (see [`FigureReport::source`]) and the file, if any.
    pub fn origin(&self) -> (&'static str, Option<&str>) {
        match self {
            Figure::Rig(rig) => match &rig.origin {
                Origin::File(f) => ("file", Some(f.as_str())),
                other => (other.kind(), None),
            },
            Figure::Model(ModelFigure { rig: Some(rig), .. }) => match &rig.origin {
                Origin::File(f) => ("file", Some(f.as_str())),
                other => (other.kind(), None),
            },
            Figure::Mesh(_) | Figure::Layers(_) | Figure::Model(_) => ("file", None),
        }
    }

    /// The figure `clip` plays on. `choice` names a built-in rig (any case), [`PROXY`],
    /// [`MESH`], [`MODEL`], [`LAYERS`], [`SKELETON`] (the file's bones alone), [`NAMES`] or one
    /// of `source.others`; `None` chooses automatically: a Lottie clip's layers; the document's
    /// model (its meshes on its skeleton) when it has one to draw; the document's morph mesh
    /// when the clip animates morph influences; the document's own skeleton; the best built-in
    /// rig by exact names; the companion model; a humanoid from the clip's names; else a proxy
    /// rig. Every rig is bound to the clip's node names ([`Rig::bound_to`]); a rig that carries
    /// a model (a companion or picked file with meshes) plays as that model.
    pub fn for_clip(
        clip: &Clip,
        source: FigureSource<'_>,
        choice: Option<&str>,
    ) -> Result<Figure, FigureError> {
        let hierarchy = source.skeleton.map(Skeleton::hierarchy);
        let proxy = || Figure::Rig(Rig::proxy(clip, hierarchy.as_deref()));
        let layers = || {
            LayerFigure::for_clip(Arc::new(clip.clone()))
                .map(|l| l.with_artwork(source.artwork.cloned()))
        };
        let own = || {
            source.skeleton.and_then(|s| {
                Rig::from_skeleton(source.file_name.unwrap_or(SKELETON), s)
                    .map(|r| r.bound_to(clip))
            })
        };
        let drawable = source.model.filter(|m| m.vertex_count() > 0);
        let own_model = || {
            let model = drawable?;
            let file = source.file_name.unwrap_or(MODEL);
            let rig = source
                .skeleton
                .and_then(|s| Rig::from_skeleton(file, s))
                .map(|r| r.with_model(model.clone()).bound_to(clip));
            Some(Figure::Model(ModelFigure::new(model.clone(), rig, file)))
        };
        match choice {
            None if clip.layers.is_some()
                && let Some(l) = layers() =>
            {
                Ok(Figure::Layers(l))
            }
            None => Ok(match (own_model(), source.mesh) {
                (Some(model), _) => model,
                (None, Some(mesh)) if animates_morphs(clip) => {
                    Figure::Mesh(MorphFigure::new(mesh.clone()))
                }
                _ => Figure::from_rig(auto_rig(clip, source, own, hierarchy.as_deref())),
            }),
            Some(name) if name.eq_ignore_ascii_case(PROXY) => Ok(proxy()),
            Some(name) if name.eq_ignore_ascii_case(LAYERS) => {
                layers().map(Figure::Layers).ok_or(FigureError::NoLayers)
            }
            Some(name) if name.eq_ignore_ascii_case(MESH) => match source.mesh {
                Some(mesh) => Ok(Figure::Mesh(MorphFigure::new(mesh.clone()))),
                None => Err(FigureError::NoMesh),
            },
            Some(name) if name.eq_ignore_ascii_case(MODEL) => {
                own_model().ok_or(FigureError::NoModel)
            }
            Some(name) if name.eq_ignore_ascii_case(SKELETON) => {
                own().map(Figure::Rig).ok_or(FigureError::NoSkeleton)
            }
            Some(name) if name.eq_ignore_ascii_case(NAMES) => Rig::humanoid(clip)
                .map(Figure::Rig)
                .ok_or(FigureError::NotHumanoid),
            Some(name) => source
                .others
                .iter()
                .chain(Rig::builtins())
                .find(|r| r.name == name)
                .or_else(|| {
                    source
                        .others
                        .iter()
                        .chain(Rig::builtins())
                        .find(|r| r.name.eq_ignore_ascii_case(name))
                })
                .map(|r| Figure::from_rig(r.bound_to(clip)))
                .ok_or_else(|| FigureError::UnknownRig {
                    name: name.to_string(),
                    choices: choice_names(source),
                }),
        }
    }
}

impl Figure {
    /// `rig` as a figure: the model it carries ([`Rig::model`]), or the rig itself.
    pub fn from_rig(rig: Rig) -> Figure {
        match rig.model.clone() {
            Some(rm) => Figure::Model(ModelFigure::new(rm.model, Some(rig), "")),
            None => Figure::Rig(rig),
        }
    }

    /// The bones of the figure, when it has them: a rig, or a model's skeleton.
    pub fn rig(&self) -> Option<&Rig> {
        match self {
            Figure::Rig(rig) => Some(rig),
            Figure::Model(model) => model.rig.as_ref(),
            Figure::Mesh(_) | Figure::Layers(_) => None,
        }
    }
}

/// The automatic rig (see [`Figure::for_clip`]): own skeleton, built-in, companion, names,
/// proxy.
fn auto_rig(
    clip: &Clip,
    source: FigureSource<'_>,
    own: impl FnOnce() -> Option<Rig>,
    hierarchy: Option<&[(String, Option<String>)]>,
) -> Rig {
    if let Some(rig) = own()
        && rig.match_score(clip) >= MATCH_THRESHOLD
    {
        return rig;
    }
    let builtin = pick_rig_with(clip, Rig::builtins(), None);
    if builtin.origin != Origin::Proxy {
        return builtin;
    }
    if let Some(rig) = source.companion
        && rig.match_score(clip) >= super::skeleton_rig::COMPANION_SHARE
    {
        return rig.bound_to(clip);
    }
    if hierarchy.is_none()
        && let Some(rig) = Rig::humanoid(clip)
    {
        return rig;
    }
    Rig::proxy(clip, hierarchy)
}

/// The names [`Figure::for_clip`] accepts for `source`, for messages and pickers.
pub fn choices(source: FigureSource<'_>) -> String {
    choice_names(source).join(", ")
}

/// The names [`Figure::for_clip`] accepts for `source`: the built-in rigs, `source`'s other
/// figures, [`PROXY`], [`NAMES`], and [`MESH`], [`MODEL`] and [`SKELETON`] where `source` has
/// them.
fn choice_names(source: FigureSource<'_>) -> Vec<String> {
    let mut names: Vec<String> = Rig::builtins().iter().map(|r| r.name.clone()).collect();
    names.extend(source.others.iter().map(|r| r.name.clone()));
    names.push(PROXY.to_string());
    names.push(NAMES.to_string());
    if source.mesh.is_some() {
        names.push(MESH.to_string());
    }
    if source.model.is_some_and(|m| m.vertex_count() > 0) {
        names.push(MODEL.to_string());
    }
    if source.skeleton.is_some() {
        names.push(SKELETON.to_string());
    }
    names
}

/// Whether any track of `clip` animates `morphTargetInfluences`.
fn animates_morphs(clip: &Clip) -> bool {
    clip.tracks
        .iter()
        .any(|t| t.name.contains("morphTargetInfluences"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::ops::create_clips_from_morph_target_sequences;
    use clipscope_core::model::{MorphTarget, Track, TrackKind};

    fn mesh() -> Arc<MorphMesh> {
        let v = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        Arc::new(MorphMesh {
            name: "m".into(),
            vertices: v.clone(),
            triangles: vec![[0, 1, 2]],
            triangle_colours: vec![],
            targets: (1..=3)
                .map(|i| MorphTarget {
                    name: format!("run_{i}"),
                    vertices: v.clone(),
                })
                .collect(),
        })
    }

    #[test]
    fn morph_clips_pick_the_mesh_and_bone_clips_a_rig() {
        let mesh = mesh();
        let source = FigureSource {
            mesh: Some(&mesh),
            ..Default::default()
        };
        let clip = &create_clips_from_morph_target_sequences(&mesh.target_names(), 10.0, false)[0];
        let figure = Figure::for_clip(clip, source, None).unwrap();
        assert!(matches!(figure, Figure::Mesh(_)));
        let mut frame = FigureFrame::default();
        figure.frame(&figure.rest_pose(), 0.0, &mut frame);
        assert_eq!(frame.weights, vec![0.0; 3]);

        let bones = Clip::new(
            "b",
            -1.0,
            vec![Track::numeric(
                ".bones[hip].position",
                TrackKind::Vector,
                vec![0.0],
                vec![0.0, 1.0, 0.0],
            )],
        );
        let figure = Figure::for_clip(&bones, source, None).unwrap();
        assert!(matches!(figure, Figure::Rig(_)));
    }

    #[test]
    fn lottie_clips_play_as_layers() {
        let Some(path) = clipscope_test_support::sample_data("lottie/transform.json") else {
            return;
        };
        let doc = clipscope_core::formats::read_file(&path).unwrap();
        let figure = Figure::for_clip(&doc.clips[0], FigureSource::default(), None).unwrap();
        assert!(matches!(figure, Figure::Layers(_)), "{}", figure.name());
        let mut frame = FigureFrame::default();
        figure.frame(&figure.rest_pose(), 0.0, &mut frame);
        assert_eq!(
            frame.boxes.len(),
            4,
            "the composition card and three layers"
        );
    }

    #[test]
    fn choices_by_name() {
        let clip = Clip::new("c", 1.0, vec![]);
        let none = FigureSource::default();
        let hero = Figure::for_clip(&clip, none, Some("hero")).unwrap();
        assert_eq!(hero.name(), "Hero");
        assert!(matches!(
            Figure::for_clip(&clip, none, Some("Proxy")),
            Ok(Figure::Rig(_))
        ));
        let err = Figure::for_clip(&clip, none, Some("mesh")).unwrap_err();
        assert_eq!(err, FigureError::NoMesh);
        assert!(err.to_string().contains("no morph mesh"), "{err}");
        let err = Figure::for_clip(&clip, none, Some("layers")).unwrap_err();
        assert!(err.to_string().contains("not read from Lottie"), "{err}");
        let err = Figure::for_clip(&clip, none, Some("cat"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("no rig named \"cat\" (choose from Hero, "),
            "{err}"
        );
        assert!(err.ends_with(", proxy, names)"), "{err}");
    }
}
