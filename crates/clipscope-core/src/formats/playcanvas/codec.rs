//! The PlayCanvas animation JSON entry of the format registry.

use super::{PlayCanvasLayout, lint, read, schema, write};
use crate::formats::codec::{Codec, Input, lost_mesh_unless_kept};
use crate::formats::fidelity::Played;
use crate::formats::{Document, Format, NotWritable, ReadError, WriteOptions};
use crate::model::Problem;

/// Reads and writes PlayCanvas animation JSON ([`Format::PlayCanvas`]).
pub(crate) struct PlayCanvasCodec;

/// The codec the registry lists.
pub(crate) static CODEC: PlayCanvasCodec = PlayCanvasCodec;

impl Codec for PlayCanvasCodec {
    fn detect(&self, bytes: &[u8]) -> Option<Format> {
        schema::detect(bytes).then_some(Format::PlayCanvas)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        // PlayCanvas files are small: the lenient read is the strict one, whose first problem
        // stops it.
        read::read(input)
    }

    fn rules(&self, input: &Input<'_>, doc: &Document) -> Vec<Problem> {
        let mut found = lint::lint(input.bytes);
        found.extend(lint::lenient(doc));
        found
    }

    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable> {
        write::check_writable(doc)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn played(&self, doc: &Document, opts: &WriteOptions) -> Vec<Played> {
        write::played(doc, opts)
    }

    fn write_played(&self, doc: &Document, opts: &WriteOptions) -> (Vec<u8>, Vec<Played>) {
        write::write_played(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, to: Format) -> Vec<String> {
        let mut lost = lost_mesh_unless_kept(doc, to);
        lost.extend(write::losses(doc));
        lost
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        doc.source::<PlayCanvasLayout>()
            .map(PlayCanvasLayout::losses)
            .unwrap_or_default()
    }
}
