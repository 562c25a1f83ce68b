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
pub mod clip;
pub mod extras;
pub mod handle_side;
pub mod hermite;
pub mod interpolant;
pub mod interpolation;
pub mod layers;
pub mod morph_mesh;
pub mod ops;
pub mod problem;
pub mod skeleton;
pub mod tangent_mode;
pub mod tangents;
pub mod track;
pub mod track_kind;
pub mod unsupported_interpolation;
pub mod values;

pub use clip::{BlendMode, Clip};
pub use extras::Extras;
pub use handle_side::HandleSide;
pub use interpolation::Interpolation;
pub use layers::{Composition, Layer, Layers};
pub use morph_mesh::{MorphMesh, MorphTarget};
pub use problem::{Problem, Severity};
pub use skeleton::{Bone, Skeleton};
pub use tangent_mode::TangentMode;
pub use tangents::Tangents;
pub use track::Track;
pub use track_kind::TrackKind;
pub use unsupported_interpolation::UnsupportedInterpolation;
pub use values::Values;
