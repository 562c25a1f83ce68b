//! Lottie (Bodymovin JSON): layer transforms as clips, evaluated like lottie-web, and written
//! back into the file they came from.
//!
//! Each composition becomes one clip: the root composition first (named from `nm` or the file
//! stem, time 0 at its `ip`, `time = (frame − ip) / fr`), then every precomposition asset (its
//! own frames, time 0 at frame 0). Each layer's transform property becomes a track named
//! `<layer>.<property>` (`anchor`, `position`, `scale`, `rotation`, `opacity`, `skew`,
//! `skewAxis`; `rotationX/Y/Z` and `orientation` on 3D layers; `position[x]`/`[y]`/`[z]` number
//! tracks for a split position), values in the file's units. Layer names are sanitized like
//! three.js node names; a name shared by several layers gets `#<ind>` appended.
//!
//! How keyframes map onto the model (spec A5–A8):
//! * easing handles `o`/`i` become Bezier tangents in the (time, value) plane, per component,
//!   so the model's Bezier interpolant draws and evaluates lottie-web's easing curve (see
//!   [`easing`]); a track whose segments are all linear is a linear track;
//! * hold keys: a track of holds only is a discrete track; in a track mixing holds and eased
//!   segments each hold becomes a flat segment to a copy of its value at the next key's time,
//!   followed at that same time by the next key (the model, like lottie-web, lets the later of
//!   two keys at one time win), so every frame evaluates like lottie-web;
//! * motion paths (`to`/`ti`) and 3D orientation blends cannot be per-component curves: such a
//!   property is baked from lottie-web's evaluation ([`value`], [`spatial`]) into a linear track,
//!   one key per frame plus keys in between where the path bends more than 0.005 units, and the
//!   original keyframes stay in the file for writing back.
//!
//! Layer parenting, in/out points, `st`/`sr`, time remapping and the composition size go into
//! each clip's [`layers`](crate::model::Clip::layers) ([`layers`]), which [`matrix`] uses to evaluate a
//! layer's world matrix. Shapes, masks, effects, text, precomp time remapping (`tm`) and every
//! other field are not clip data (the artwork, [`art`], draws shapes, solids, precomps, masks
//! and mattes from the file for the viewport and `render`) and are kept byte for byte (a composition whose only motion is
//! there is listed as [`unread`](crate::formats::Document::unread) by [`unread`](mod@unread)): writing an imported document
//! replaces only the properties whose tracks were edited ([`write_back`]). Any other document is
//! written as a new composition of null layers, one per animated node ([`compose`]); [`write`](mod@write)
//! chooses between the two. [`codec`] is the format's entry in the format registry; [`rules`] holds
//! the registry entries of its raw-file rules ([`lint`]).

pub(crate) mod art;
pub(crate) mod codec;
pub(crate) mod compose;
pub(crate) mod easing;
pub(crate) mod emit;
pub(crate) mod lint;
pub(crate) mod matrix;
pub(crate) mod outline;
pub(crate) mod played;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod spatial;
pub(crate) mod unread;
pub(crate) mod value;
pub(crate) mod write;
pub(crate) mod write_back;

use std::ops::Range;
use std::sync::Arc;

pub use art::Art;
pub(crate) use codec::CODEC;
pub use matrix::{LayerTable, layers, local_matrix, world_matrix};
pub(crate) use rules::RULES;

use crate::model::Track;

/// What a Lottie document keeps of its file, so writing back replaces only edited properties.
#[derive(Clone)]
pub(crate) struct LottieSource(pub(crate) Arc<SourceData>);

impl std::fmt::Debug for LottieSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LottieSource({} bytes, {} compositions, {} properties)",
            self.0.bytes.len(),
            self.0.comps.len(),
            self.0.props.len()
        )
    }
}

/// The file and where each clip and track came from.
pub(crate) struct SourceData {
    /// The file as read (including a byte-order mark, if it had one).
    pub bytes: Vec<u8>,
    /// One entry per clip, in clip order.
    pub comps: Vec<CompBinding>,
    /// One entry per track, across all clips.
    pub props: Vec<PropBinding>,
    /// The file's artwork, made on first request (with the clips the document had then).
    pub art: std::sync::OnceLock<Option<Arc<Art>>>,
}

/// Where a clip came from: the composition object and what the clip was made of.
pub(crate) struct CompBinding {
    /// Byte range of the composition object (the top level, or a precomp asset).
    pub span: Range<usize>,
    /// Byte range of its `nm` value, when present.
    pub name_span: Option<Range<usize>>,
    /// Byte range of its `op` value (root composition only).
    pub op_span: Option<Range<usize>>,
    /// The clip name made at import.
    pub name: String,
    /// The clip duration made at import.
    pub duration: f64,
    /// Frames per second.
    pub fr: f64,
    /// The frame at clip time 0.
    pub origin: f64,
    /// The root composition (the one whose `markers` the clip's markers are).
    pub root: bool,
    /// Byte range of the root's `markers` value, when present.
    pub markers_span: Option<Range<usize>>,
    /// Each entry of `markers`: the marker read from it (`None` for one not understood, kept
    /// as it is) and its byte range.
    pub markers: Vec<(Option<crate::model::ops::Marker>, Range<usize>)>,
}

/// Where a track came from: one animatable property object.
pub(crate) struct PropBinding {
    /// Index of the clip holding the track.
    pub clip: usize,
    /// The track as made at import (its name included), to tell edited tracks.
    pub imported: Track,
    /// Byte range of the property object.
    pub span: Range<usize>,
    /// The property object's fields: name and byte range of the value, in file order.
    pub fields: Vec<(String, Range<usize>)>,
    /// Frames per second of its composition.
    pub fr: f64,
    /// The frame at clip time 0.
    pub origin: f64,
    /// Whether a static `k` was a bare number (`"k": 5` rather than `[5]`).
    pub number: bool,
    /// Whether the track was baked from a motion path or orientation blend.
    pub baked: bool,
    /// The file's keyframes (empty for a static value), for reuse when writing.
    pub keys: Vec<OriginalKey>,
}

/// One keyframe as it was in the file.
#[derive(Debug, Clone)]
pub(crate) struct OriginalKey {
    /// Its clip time, as the model stores it.
    pub time: f32,
    /// Byte range of its `t` value.
    pub t: Range<usize>,
    /// Its value, rounded like the model's, and the byte range of `s` (absent on old files'
    /// last keys).
    pub value: Vec<f32>,
    /// Byte range of `s`.
    pub s: Option<Range<usize>>,
    /// Byte ranges of `o` and `i`.
    pub o: Option<Range<usize>>,
    /// See `o`.
    pub i: Option<Range<usize>>,
    /// Hold key.
    pub hold: bool,
}
