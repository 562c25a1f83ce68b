//! What the viewport shows: cube-built rigs (from data or made up for a skeletal clip), their
//! poses, and the boxes the renderer draws for them.
//!
//! A [`Rig`] is a tree of named [`Part`]s, read from `assets/rigs/*.json` ([`Rig::from_json`])
//! or a model picked from disk ([`Rig::from_file`]), built from a file's skeleton
//! ([`Rig::from_skeleton`]) or from a clip's humanoid node names ([`Rig::humanoid`]), or made up
//! for a clip whose bones match no rig ([`Rig::proxy`]); [`pick_rig`] chooses between the
//! built-in ones and a proxy. A clip plays on a rig through [`clipscope_core::playback`], which
//! writes the animated properties into the rig's [`Pose`](clipscope_core::playback::Pose)
//! ([`Rig::rest_pose`]); forward kinematics turns the pose into one [`BoxInstance`] per part for
//! the renderer ([`Rig::instances`]). A clip that animates morph influences plays on the
//! document's morph mesh instead ([`MorphFigure`]), a file with meshes on its 3D model, skinned by
//! its skeleton ([`ModelFigure`]), a Lottie clip on its composition's layers
//! ([`LayerFigure`]); [`Figure`] is any of them, and [`Figure::for_clip`] chooses one,
//! automatically or by the names of [`figure`]. A [`Player`] ties clip, figure and mixer
//! together. Node names bind across files by the rules of [`names`]. Walk and run cycles
//! written as formulas of one phase live in [`procedural`].
//!
//! ```
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! use clipscope_core::assets::DEMO_CLIPS;
//! use clipscope_core::formats::read_bytes;
//! use clipscope_scene::{Figure, FigureFrame, FigureSource, Player};
//!
//! // The demo's walk, on the figure chosen for it (the built-in Hero).
//! let doc = read_bytes(DEMO_CLIPS, Path::new("walk.json")).expect("the demo reads");
//! let clip = &doc.clips[0];
//! let figure = Figure::for_clip(clip, FigureSource::default(), None).expect("a figure");
//! assert_eq!(figure.name(), "Hero");
//!
//! // Posed half a second in: one box per part of the Hero.
//! let mut player = Player::on(Arc::new(clip.clone()), figure);
//! let mut frame = FigureFrame::default();
//! player.frame_at(0.5, &mut frame);
//! let parts = player.rig().map_or(0, |rig| rig.parts.len());
//! assert!(parts > 0);
//! assert_eq!(frame.boxes.len(), parts);
//! ```

pub mod colour;
pub mod figure;
mod humanoid;
mod instance;
mod layer_figure;
mod model_figure;
mod morph_figure;
pub mod names;
mod player;
mod posing;
pub mod procedural;
mod proxy;
mod rig;
mod rig_error;
mod rig_match;
mod rig_schema;
mod skeleton_rig;

pub use figure::{Figure, FigureError, FigureFrame, FigureReport, FigureSource, MeshReport};
pub use instance::BoxInstance;
pub use layer_figure::LayerFigure;
pub use model_figure::{ModelFigure, RigModel};
pub use morph_figure::MorphFigure;
pub use player::{Layer, LayerMode, Player, posed_instances};
pub use procedural::Cycle;
pub use proxy::palette_colour;
pub use rig::{Origin, Part, Rig};
pub use rig_error::RigError;
pub use rig_match::{MATCH_THRESHOLD, pick_rig, pick_rig_with};
pub use rig_schema::parse_hex_colour;
pub use skeleton_rig::{COMPANION_SHARE, FigureFileError, companion, companion_model};

pub(crate) use rig_match::animated_nodes;
