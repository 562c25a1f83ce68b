//! The JSON layer every format shares: reading JSON text without copying it, naming where in a
//! file something is, keeping fields clipscope does not model, and writing JSON numbers and text.
//!
//! - Reading: serde scans a file once into structures whose leaves stay borrowed raw text
//!   ([`RawFields`], [`Key`]); a node of the wrong JSON type is recorded as [`Shaped::Wrong`]
//!   with its [`JsonKind`] instead of failing. A [`Node`] is one raw value plus its JSON path and
//!   an [`Obj`] an object's fields plus its path; decoding either gives the value or a [`Located`]
//!   error, so every read error is one line with a JSON path ([`path`]).
//! - Detecting: [`detect`] scans as little of a file as it takes to tell a format.
//! - Writing: [`Out`] writes JSON with optional indentation, collected or streamed, through one
//!   number formatter ([`number`]: the shortest text that reads back to the same `f32`).
//!
//! Nothing here knows a format: the format modules build their schemas on top of it.

pub(crate) mod detect;
mod js_number;
mod key;
mod kind;
mod node;
pub mod number;
mod out;
pub mod path;
mod raw_fields;
mod shaped;

pub(crate) use js_number::js_number;
pub(crate) use key::Key;
pub(crate) use kind::JsonKind;
pub(crate) use node::{Located, Node, Obj, top_object};
pub(crate) use out::{Out, write_str};
pub(crate) use raw_fields::RawFields;
pub(crate) use shaped::{Container, Shaped};
