//! Writing a document as Lottie: a document read from a Lottie file is written back into that
//! file ([`write_back`]), any other becomes a new composition of null layers
//! ([`compose`]).

use super::{LottieSource, compose, write_back};
use crate::formats::{Document, NotWritable, WriteOptions};

/// Whether `doc` can be written as Lottie: a document read from a Lottie file must fit back into
/// it ([`write_back::check_writable`]); any other becomes a new composition, which needs finite,
/// sorted key times ([`compose::check_writable`]).
pub(crate) fn check_writable(doc: &Document) -> Result<(), NotWritable> {
    match doc.source::<LottieSource>() {
        Some(source) => write_back::check_writable(doc, source),
        None => compose::check_writable(doc),
    }
}

/// The document as Lottie JSON: the original file with edited properties replaced, or a new
/// composition.
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    match doc.source::<LottieSource>() {
        Some(source) => write_back::write_back(doc, source, opts),
        None => compose::write(doc, opts),
    }
}
