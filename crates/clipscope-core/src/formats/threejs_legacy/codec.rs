//! The legacy three.js JSON entry of the format registry.

use super::{LegacyLayout, read, schema, write};
use crate::formats::codec::{Codec, Input, lost_mesh_unless_kept, other_fields};
use crate::formats::{Document, Format, NotWritable, ReadError, WriteOptions};

/// Reads and writes legacy three.js JSON ([`Format::ThreeJsLegacy`]).
pub(crate) struct LegacyCodec;

/// The codec the registry lists.
pub(crate) static CODEC: LegacyCodec = LegacyCodec;

impl Codec for LegacyCodec {
    fn detect(&self, bytes: &[u8]) -> Option<Format> {
        schema::detect(bytes).then_some(Format::ThreeJsLegacy)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        // Legacy files are small and rare: the lenient read is the strict one, whose first
        // problem stops it.
        read::read(input)
    }

    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable> {
        write::check_writable(doc)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, to: Format) -> Vec<String> {
        let mut lost = lost_mesh_unless_kept(doc, to);
        lost.extend(write::field_losses(doc));
        lost
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        doc.source::<LegacyLayout>()
            .and_then(|layout| other_fields(doc, layout.field_names()))
            .into_iter()
            .collect()
    }
}
