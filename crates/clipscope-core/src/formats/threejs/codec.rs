//! The three.js JSON entry of the format registry: the format that takes every JSON file no
//! other format claims.

use std::io::Write;

use super::read::{Mode, read};
use super::{Layout, write};
use crate::formats::codec::{Codec, Input, lost_mesh, other_fields};
use crate::formats::{Document, Format, Linted, NotWritable, ReadError, WriteOptions};

/// Reads and writes three.js JSON ([`Format::ThreeJs`]).
pub(crate) struct ThreeJsCodec;

/// The codec the registry lists.
pub(crate) static CODEC: ThreeJsCodec = ThreeJsCodec;

impl Codec for ThreeJsCodec {
    fn detect(&self, _bytes: &[u8]) -> Option<Format> {
        // Detection asks three.js last: whatever is left is read as three.js JSON, whose
        // errors then say what a clip file should look like.
        Some(Format::ThreeJs)
    }

    fn read(&self, input: &Input<'_>) -> Result<Document, ReadError> {
        read(input.bytes, input.file, Mode::Strict, Some(input.progress)).map(|(doc, _)| doc)
    }

    fn lint(&self, input: &Input<'_>) -> Result<Linted, ReadError> {
        let (doc, problems) = read(input.bytes, input.file, Mode::Lenient, Some(input.progress))?;
        Ok(Linted {
            doc: Some(doc),
            problems,
            unstored: Vec::new(),
        })
    }

    fn check_writable(&self, _doc: &Document) -> Result<(), NotWritable> {
        // three.js JSON holds whatever the model holds.
        Ok(())
    }

    fn write_to(
        &self,
        doc: &Document,
        opts: &WriteOptions,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        write::write_to(doc, opts, out)
    }

    fn write(&self, doc: &Document, opts: &WriteOptions) -> Vec<u8> {
        write::write(doc, opts)
    }

    fn losses_entering(&self, doc: &Document, _to: Format) -> Vec<String> {
        let mut lost: Vec<String> = lost_mesh(doc).into_iter().collect();
        if let Some(skeleton) = &doc.skeleton {
            lost.push(format!(
                "the skeleton ({} bones; three.js clip JSON has no bone hierarchy)",
                skeleton.bones.len()
            ));
        }
        lost
    }

    fn losses_leaving(&self, doc: &Document, _to: Format) -> Vec<String> {
        match doc.source::<Layout>() {
            Some(Layout::Scene { fields, .. }) => {
                other_fields(doc, fields.iter().map(|(k, _)| k.as_str()).collect())
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}
