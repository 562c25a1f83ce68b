//! What the viewport shows: cube-built rigs (from data or made up for a skeletal clip), their
//! poses, and the boxes the renderer draws for them.
//!
//! A [`Rig`] is a tree of named [`Part`]s, read from `assets/rigs/*.json` ([`rig_schema`]) or
//! made up for a clip whose bones match no rig ([`proxy`]); [`pick_rig`] chooses between them. A
//! clip plays on a rig through [`clipscope_core::playback`], which writes the animated properties into
//! the rig's [`Pose`](clipscope_core::playback::Pose) ([`Rig::rest_pose`]); forward kinematics turns the
//! pose into one [`BoxInstance`] per part for the renderer ([`Rig::instances`], [`posing`]). A
//! [`Player`] ties the three together for one clip. A clip that animates morph influences plays
//! on the document's morph mesh instead ([`MorphFigure`]); [`Figure`] is either. Walk and run
//! cycles written as formulas of one phase live in [`procedural`].

pub mod colour;
pub mod figure;
pub mod humanoid;
pub mod instance;
pub mod layer_figure;
pub mod morph_figure;
pub mod names;
pub mod player;
pub mod posing;
pub mod procedural;
pub mod proxy;
pub mod rig;
pub mod rig_match;
pub mod rig_schema;
pub mod skeleton_rig;

pub use figure::{Figure, FigureFrame, FigureReport, FigureSource};
pub use instance::BoxInstance;
pub use layer_figure::LayerFigure;
pub use morph_figure::MorphFigure;
pub use player::{Layer, LayerMode, Player, posed_instances};
pub use procedural::Cycle;
pub use proxy::palette_colour;
pub use rig::{Origin, Part, Rig};
pub use rig_match::{MATCH_THRESHOLD, animated_nodes, pick_rig, pick_rig_with};
pub use rig_schema::{PartFile, RigFile, parse_hex_colour};
pub use skeleton_rig::companion;
