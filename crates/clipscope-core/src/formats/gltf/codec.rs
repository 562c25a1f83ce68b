//! The glTF entry of the format registry, for both containers (`.gltf` and `.glb`).

use super::{detect, lint, plan, read, write};
use crate::formats::codec::{Codec, Input, other_fields};
use crate::formats::{Document, Format, Linted, NotWritable, ReadError, WriteOptions};

/// Reads and writes glTF 2.0 ([`Format::Gltf`] and [`Format::Glb`]).
pub(crate) struct GltfCodec;

/// The codec the registry lists.
pub(crate) static CODEC: GltfCodec = GltfCodec;

impl Codec for GltfCodec {
    fn detect(&self, bytes: &[u8]) -> Option<Format> {
        detect(bytes)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        read::read(input)
    }

    fn lint(&self, input: &Input<'_>) -> Result<Linted, ReadError> {
        lint::lint(input)
    }

    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable> {
        plan::check_writable(doc)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn write_checked(&self, doc: &Document, opts: &WriteOptions) -> Result<Vec<u8>, NotWritable> {
        write::write_checked(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, _to: Format) -> Vec<String> {
        // glTF output writes the morph mesh too (or keeps the glTF file's meshes).
        plan::losses(doc)
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        let Some(src) = plan::base(doc) else {
            return Vec::new();
        };
        let names = src
            .root
            .keys()
            .map(String::as_str)
            .filter(|k| !matches!(*k, "asset" | "animations"))
            .collect();
        other_fields(doc, names).into_iter().collect()
    }
}
