//! The PlayCanvas anim clip entry of the format registry.

use super::{detect, lint, read, write};
use crate::formats::codec::{Codec, Input, lost_mesh};
use crate::formats::fidelity::Played;
use crate::formats::{Document, Format, NotWritable, ReadError, WriteOptions};
use crate::model::Problem;

/// Reads and writes PlayCanvas anim clips ([`Format::PlayCanvasAnim`]).
pub(crate) struct AnimClipCodec;

/// The codec the registry lists.
pub(crate) static CODEC: AnimClipCodec = AnimClipCodec;

impl Codec for AnimClipCodec {
    fn detect(&self, bytes: &[u8]) -> Option<Format> {
        detect::detect(bytes).then_some(Format::PlayCanvasAnim)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        read::read(input)
    }

    fn rules(&self, input: &Input<'_>, _doc: &Document) -> Vec<Problem> {
        lint::lint(input.bytes)
    }

    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable> {
        write::check_writable(doc)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, _to: Format) -> Vec<String> {
        let mut lost: Vec<String> = lost_mesh(doc).into_iter().collect();
        lost.extend(write::losses(doc));
        lost
    }

    fn played(&self, doc: &Document, opts: &WriteOptions) -> Vec<Played> {
        write::played(doc, opts)
    }

    fn write_played(&self, doc: &Document, opts: &WriteOptions) -> (Vec<u8>, Vec<Played>) {
        write::write_played(doc, opts)
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        let Some(src) = doc.source::<super::AnimClipSource>() else {
            return Vec::new();
        };
        let names: Vec<&str> = src
            .fields
            .keys()
            .map(String::as_str)
            .filter(|k| !["name", "duration", "inputs", "outputs", "curves"].contains(k))
            .collect();
        crate::formats::codec::other_fields(doc, names)
            .into_iter()
            .collect()
    }
}
