//! three.js model format 3 geometry (`vertices`, the bit-encoded `faces`, `morphTargets`,
//! `morphColors`), which two formats hold: legacy three.js JSON files at their top level
//! ([`threejs_legacy`](super::threejs_legacy)) and io_three object files (format 4.3) inside
//! their `geometries` ([`threejs`](super::threejs)). Shared here so that neither format reads
//! through the other's module: [`numbers`] reads numbers the format's way, [`model`] names the
//! arrays, [`mesh`] builds the morph mesh like three.js's JSONLoader, [`skinned`] a skinned model like its
//! `SkinnedMesh`.

pub(crate) mod mesh;
pub(crate) mod model;
pub(crate) mod numbers;
pub(crate) mod skinned;

pub(crate) use mesh::read_mesh;
pub(crate) use model::ModelJson;
pub(crate) use numbers::Numbers;
pub(crate) use skinned::read_skinned;
