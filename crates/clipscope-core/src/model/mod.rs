//! The format-neutral clip model, with the semantics of three.js r187's animation system.
//!
//! A [`Clip`] is a named set of [`Track`]s; a track animates one property with keyframes
//! (`times` and `values`) and an [`Interpolation`]. Times and numeric values are stored as `f32`,
//! exactly like three.js's `Float32Array`s, while all arithmetic runs in `f64` and rounds back to
//! `f32` where three.js writes into a typed array. That is what lets every operation in [`ops`]
//! and every interpolant in [`interpolant`] reproduce three.js bit for bit.
//!
//! Nothing here does I/O or knows a file format: readers and writers live in `crate::formats`.

pub mod binding;
pub(crate) mod clip;
pub(crate) mod extras;
pub(crate) mod handle_side;
pub(crate) mod hermite;
pub mod interpolant;
pub(crate) mod interpolation;
pub(crate) mod layers;
pub(crate) mod material;
pub(crate) mod mesh;
pub(crate) mod mesh_model;
pub(crate) mod morph_mesh;
pub mod ops;
pub mod picture;
pub(crate) mod prefetch;
pub(crate) mod problem;
pub(crate) mod shown;
pub(crate) mod skeleton;
pub(crate) mod skin;
pub(crate) mod skinning;
pub(crate) mod tangent_mode;
pub(crate) mod tangents;
pub(crate) mod track;
pub(crate) mod track_kind;
pub(crate) mod unsupported_interpolation;
pub(crate) mod values;

pub use clip::{BlendMode, Clip};
pub use extras::Extras;
pub use handle_side::HandleSide;
pub use interpolation::Interpolation;
pub use layers::{Composition, Layer, Layers};
pub use material::{AlphaMode, Image, Material, Sampler, TextureRef, Wrap};
pub use mesh::{MAX_INFLUENCES, Mesh, MorphDelta, Primitive, normalize_weights};
pub use mesh_model::{MeshInstance, Model, ModelNode};
pub use morph_mesh::{MorphMesh, MorphTarget};
pub use problem::{Problem, Severity};
pub use shown::{Window, shown_windows};
pub use skeleton::{Bone, Skeleton};
pub use skin::Skin;
pub use skinning::{JointInfluence, PosedPrimitive};
pub use tangent_mode::TangentMode;
pub use tangents::Tangents;
pub use track::Track;
pub use track_kind::TrackKind;
pub use unsupported_interpolation::UnsupportedInterpolation;
pub use values::Values;
