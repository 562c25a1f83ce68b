//! The three.js JSON entry of the format registry: the format that takes every JSON file no
//! other format claims.

use std::io::Write;

use super::read::{Mode, read};
use super::{Layout, write};
use crate::formats::codec::{Codec, Input, lost_mesh, other_fields};
use crate::formats::fidelity::{Played, readback};
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

    fn played(&self, doc: &Document, opts: &WriteOptions) -> Vec<Played> {
        let mut played = readback::played(doc, opts);
        // io_three 4.3's clips written back in place play in no three.js: r187's ObjectLoader
        // refuses the file's legacy `Geometry`, and no loader ever bound geometry-level morph
        // animations.
        if let Some((geometry, _)) = write::kept_in_place(doc) {
            for p in &mut played {
                p.note = Some(
                    if p.clip < geometry {
                        "kept in the geometry's `animations` (io_three 4.3) as read: no three.js \
                         loader plays it (r187's ObjectLoader refuses the legacy Geometry, and no \
                         loader bound geometry-level morph animations)"
                    } else {
                        "kept on its object's `clips` (io_three 4.3) as read: three.js r187's \
                         ObjectLoader reads clips only from a top-level `animations` array"
                    }
                    .to_string(),
                );
            }
        }
        played
    }

    fn losses_entering(&self, doc: &Document, _to: Format) -> Vec<String> {
        // An object file is written back with its `object` and `geometries` verbatim: the
        // skeleton and the morph mesh read from them stay in the file.
        if matches!(doc.source::<Layout>(), Some(Layout::Scene { .. })) {
            return Vec::new();
        }
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
