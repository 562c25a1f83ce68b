//! The Lottie entry of the format registry.

use super::{LottieSource, compose, lint, read, schema, write, write_back};
use crate::formats::codec::{Codec, Input, lost_mesh_unless_kept};
use crate::formats::fidelity::Played;
use crate::formats::{Document, Format, NotWritable, ReadError, WriteOptions};
use crate::model::Problem;

/// Reads and writes Lottie / Bodymovin JSON ([`Format::Lottie`]).
pub(crate) struct LottieCodec;

/// The codec the registry lists.
pub(crate) static CODEC: LottieCodec = LottieCodec;

impl Codec for LottieCodec {
    fn detect(&self, bytes: &[u8]) -> Option<Format> {
        schema::detect(bytes).then_some(Format::Lottie)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        read::read(input)
    }

    fn rules(&self, input: &Input<'_>, doc: &Document) -> Vec<Problem> {
        // Hold keys in mixed tracks show up as duplicate-time warnings in the clip validation;
        // a file with no compositions has nothing for the raw-file rules to say.
        if doc.clips.is_empty() {
            Vec::new()
        } else {
            let mut found = lint::lint(input.bytes);
            found.extend(lint::lenient(doc));
            found
        }
    }

    fn check_writable(&self, doc: &Document) -> Result<(), NotWritable> {
        write::check_writable(doc)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, to: Format) -> Vec<String> {
        let mut lost = lost_mesh_unless_kept(doc, to);
        if doc.source::<LottieSource>().is_none() {
            lost.extend(compose::losses(doc));
        }
        lost
    }

    fn played(&self, doc: &Document, opts: &WriteOptions) -> Vec<Played> {
        super::played::played(doc, opts)
    }

    fn artwork(
        &self,
        doc: &Document,
    ) -> Option<std::sync::Arc<dyn crate::model::picture::Artwork>> {
        let source = doc.source::<LottieSource>()?;
        let art = source.0.art.get_or_init(|| art_of(doc, source)).clone()?;
        Some(art)
    }

    fn artwork_notes(&self, doc: &Document) -> Vec<(String, String)> {
        let Some(source) = doc.source::<LottieSource>() else {
            return Vec::new();
        };
        source
            .0
            .art
            .get_or_init(|| art_of(doc, source))
            .as_ref()
            .map(|a| a.notes().to_vec())
            .unwrap_or_default()
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        write_back::losses_leaving(doc)
    }
}

/// The artwork of `doc`, read from its source bytes; image files are looked for beside the
/// document's file.
fn art_of(doc: &Document, source: &LottieSource) -> Option<std::sync::Arc<super::Art>> {
    // A bare file name's folder is the current one.
    let folder = doc
        .path
        .as_deref()
        .and_then(std::path::Path::parent)
        .map(|p| {
            if p.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                p
            }
        });
    super::Art::read(&source.0.bytes, &doc.clips, folder).map(std::sync::Arc::new)
}
