//! three.js JSON: `AnimationClip.toJSON` clips, arrays of clips, and ObjectLoader object/scene
//! files with a top-level `animations` array (spec §3, §5).
//!
//! Split like linebender's velato: [`schema`] mirrors the file (borrowing the text), [`read`]
//! converts it into model clips with three.js's parsing rules, and [`write`] turns clips back
//! into the same shape (three.js `toJSON` key order, other top-level fields verbatim).

pub(crate) mod read;
pub(crate) mod schema;
pub(crate) mod write;

pub(crate) use schema::Layout;
