//! The lenient read behind `validate`: every check of [`check`](super::check) on the raw file
//! (even one the strict read refuses), then the document read without the channels and skins
//! the checks found broken, plus three.js's validation of every clip.
//!
//! A file whose JSON does not parse, or whose typed parts do (a string where an index belongs,
//! say), is unreadable: the findings of the checks come with one `parse` error.

use super::check::{Doc, check};
use super::glb::split_input;
use super::read::{Mode, build, folder};
use super::schema::{Parsed, parse_root, parse_typed};
use crate::formats::codec::{Input, validate_clips};
use crate::formats::json::Located;
use crate::formats::{Linted, ReadError, ReadErrorKind};
use crate::model::Problem;

/// Reads `input` leniently (see the module docs).
pub(crate) fn lint(input: &Input<'_>) -> Result<Linted, ReadError> {
    let file = input.file;
    let in_file = |l: Located| l.in_file(file);
    let (format, text, bin) = split_input(input).map_err(in_file)?;
    let mut root = parse_root(text).map_err(in_file)?;
    let typed = parse_typed(text);
    let (mut buffers, missing) = match &typed {
        Ok(json) => super::buffers::load_available(json, &root, bin, folder(file)),
        Err(_) => (Vec::new(), Vec::new()),
    };
    let compressed = match missing.iter().all(Option::is_none) {
        true => super::pack::decompress::decompress(&mut root, &mut buffers),
        false => Ok(()),
    };
    let checked = check(&Doc {
        root: &root,
        json: typed.as_ref().ok(),
        buffers: &buffers,
        missing: &missing,
    });
    let mut problems = checked.problems.clone();
    let unreadable = |mut problems: Vec<Problem>, e: Located| {
        problems.push(Problem::error("parse", e.in_file(file).located_reason()));
        Ok(Linted {
            doc: None,
            problems,
            unstored: Vec::new(),
        })
    };
    let json = match typed {
        Ok(json) => json,
        Err(e) => return unreadable(problems, e),
    };
    if let Err(e) = compressed {
        return unreadable(problems, e);
    }
    input.step(0, 1).map_err(in_file)?;
    let parsed = Parsed { json, root };
    match build(input, format, parsed, buffers, Mode::Lenient(&checked)) {
        Ok(built) => {
            problems.extend(validate_clips(&built.doc));
            Ok(Linted {
                doc: Some(built.doc),
                problems,
                unstored: built.unstored,
            })
        }
        Err(e) if e.kind == ReadErrorKind::Cancelled => Err(in_file(e)),
        Err(e) => unreadable(problems, e),
    }
}
