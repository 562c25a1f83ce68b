//! glTF 2.0: `.gltf` (JSON with data-URI or external buffers) and `.glb` (binary container).
//!
//! glTF keeps animation data in binary buffers that the JSON describes through accessors, so
//! the module is split by concept:
//!
//! * [`glb`] splits and builds the binary container (header, JSON chunk, BIN chunk);
//! * [`uri`] resolves buffer URIs: base64 `data:` URIs and relative files inside the file's own
//!   folder, refusing everything else (absolute paths, `..` escapes, `http:` and other schemes);
//! * [`schema`] deserializes the parts clipscope needs with the `gltf-json` types, keeping the
//!   whole JSON as a `serde_json::Value` for writing back;
//! * [`accessor`] decodes accessors with every bound checked (strides, sparse substitution,
//!   normalized integers per the spec) and [`bin`] builds them when writing;
//! * the model's [`hermite`](crate::model::hermite) converts CUBICSPLINE in/out tangents
//!   (derivatives) to the model's bezier handles and back;
//! * [`names`] gives every node the unique, track-safe name its tracks use;
//! * [`read`] turns animations into clips (and [`read_clips`] keeps what a write-back compares
//!   a document's clips with), [`skeleton`] and [`mesh`] the node hierarchy and the morph mesh
//!   into the document's skeleton and mesh, [`model`] the nodes, meshes, skins, materials and
//!   images into the document's model;
//! * [`target`] says which node property a track animates, the shared
//!   [`sampler_keys`](crate::formats::sampler_keys) how its keys become a sampler, [`weights`]
//!   how one-target morph tracks join into one `weights` channel, and the model's
//!   [`bake`](crate::model::ops::bake) resamples what glTF cannot hold exactly;
//! * [`indices`] finds and rewrites the indices into buffer views (for [`patch`] and [`pack`]);
//! * [`pack`] quantizes and meshopt-compresses animation data when writing, and decodes
//!   `EXT_meshopt_compression` buffer views when reading;
//! * [`pointer`] reads `KHR_animation_pointer` targets;
//! * [`buffers`] loads the buffers' bytes; [`check`] holds glTF's own rules on animation data
//!   and skins (on par with the Khronos glTF-Validator), which [`lint`], the lenient read behind
//!   `validate`, runs before reading what they leave readable; [`rules`] holds their entries in
//!   the rule registry;
//! * [`plan`] puts that together for a whole document (what is written, noted or refused);
//!   [`write`](mod@write) chooses between a [`fresh`] file and writing a file read from glTF back
//!   ([`patch`]) with only its animations replaced; both emit their parts through [`emit`].
//!
//! [`codec`] is the format's entry in the format registry.
//!
//! Track names follow three.js's GLTFLoader: `NODE.position`, `NODE.quaternion`, `NODE.scale`,
//! and one `NODE.morphTargetInfluences[TARGET]` number track per morph target.

pub(crate) mod accessor;
pub(crate) mod bin;
pub(crate) mod buffers;
pub(crate) mod check;
pub(crate) mod codec;
pub(crate) mod emit;
pub(crate) mod fresh;
pub(crate) mod glb;
pub(crate) mod indices;
pub(crate) mod lint;
pub(crate) mod mesh;
pub(crate) mod model;
pub(crate) mod names;
pub(crate) mod pack;
pub(crate) mod patch;
pub(crate) mod plan;
pub(crate) mod pointer;
pub(crate) mod read;
pub(crate) mod read_clips;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod skeleton;
pub(crate) mod target;
pub(crate) mod trs;
pub(crate) mod uri;
pub(crate) mod weights;
pub(crate) mod write;

pub(crate) use codec::CODEC;
pub(crate) use rules::RULES;

use crate::formats::Format;
use crate::model::Clip;

/// What a document read from glTF keeps so that writing it back replaces only the animations.
#[derive(Debug)]
pub(crate) struct GltfSource {
    /// The whole JSON as read (key order preserved).
    pub root: serde_json::Map<String, serde_json::Value>,
    /// Its typed parts (to check the animation data before writing it back unchanged).
    pub json: schema::GltfJson,
    /// The bytes of every buffer, truncated to its `byteLength`.
    pub buffers: Vec<Vec<u8>>,
    /// The track name of every node (see [`names`]).
    pub node_names: Vec<String>,
    /// The clips as read: when the document's clips still equal them
    /// ([`GltfSource::holds`]), the animations are written back verbatim.
    pub clips: read_clips::ReadClips,
    /// Channels that gave no track (paths glTF does not define, no target, or found broken by
    /// the lenient read's checks), as `animations[a].channels[c]` paths: lost if the
    /// animations are rewritten.
    pub skipped_channels: Vec<String>,
    /// The codes of glTF's rules the file's animation data breaks, once checked
    /// ([`plan::broken_animation_data`]).
    pub broken: std::sync::OnceLock<Vec<String>>,
}

impl GltfSource {
    /// Whether `clips` are the clips the file was read as (so its animations can be written
    /// back verbatim).
    pub(crate) fn holds(&self, clips: &[Clip]) -> bool {
        self.clips.equal(clips, || read::decode_clips(self))
    }
}

/// The glTF format `bytes` are in, by content: the GLB magic `glTF`, or a JSON object whose
/// top-level keys are glTF's and include `asset` (decided at the first key that is not a glTF
/// top-level key, so three.js files are rejected after one key).
pub(crate) fn detect(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(glb::MAGIC) {
        return Some(Format::Glb);
    }
    schema::looks_like_gltf_json(bytes).then_some(Format::Gltf)
}
