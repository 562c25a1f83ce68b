//! Operations on clips and tracks, each in its own file and each matching three.js r187 exactly
//! (see `shared/spec/threejs.md` §2–§5). They are inherent methods on [`Clip`](super::Clip) and
//! [`Track`](super::Track), or free functions for the `AnimationUtils` helpers, and they return
//! reports instead of printing.
//!
//! * [`Track::shift`](super::Track::shift), [`Track::scale`](super::Track::scale),
//!   [`Track::trim`](super::Track::trim), [`Track::optimize`](super::Track::optimize),
//!   [`Track::validate`](super::Track::validate) and their `Clip` counterparts;
//! * [`Clip::reset_duration`](super::Clip::reset_duration) and
//!   [`Clip::duplicate`](super::Clip::duplicate) (three.js `clone`, new uuid);
//! * [`subclip`](fn@subclip), [`make_clip_additive`], [`find_by_name`](fn@find_by_name),
//!   [`create_from_morph_target_sequence`] and [`create_clips_from_morph_target_sequences`];
//! * curve editing, which is clipscope's own and has no three.js counterpart: key edits
//!   ([`Track::insert_key`](super::Track::insert_key), [`Track::move_keys`](super::Track::move_keys),
//!   [`Track::delete_keys`](super::Track::delete_keys), …), handle edits with Blender-like
//!   modes ([`Track::set_tangent_mode`](super::Track::set_tangent_mode),
//!   [`Track::set_handle`](super::Track::set_handle), …) and
//!   [`Track::convert_interpolation`](super::Track::convert_interpolation);
//! * lossy key reduction with a guaranteed world-space error ([`reduce`]), clipscope's own too;
//! * what changed between two versions of a file's clips ([`diff`]): clips, tracks, keys,
//!   the largest change of each curve and each joint's move in world space, clipscope's own;
//! * baking a track at its keys plus a frame grid ([`bake`]): the one implementation behind
//!   [`Clip::resample`](super::Clip::resample) and the writers that bake curves.
//! * the editor's clip and key operations, also clipscope's own: the key clipboard
//!   ([`KeyClipboard`], [`paste_keys`]), [`merge_clips`](fn@merge_clips), markers
//!   ([`Clip::markers`](super::Clip::markers), kept in `userData.markers`), [`Clip::split_at`](super::Clip::split_at),
//!   [`Clip::retime`](super::Clip::retime), [`Clip::resample`](super::Clip::resample),
//!   [`Clip::reverse`](super::Clip::reverse), [`Track::smooth_keys`](super::Track::smooth_keys),
//!   [`Track::scale_key_times`](super::Track::scale_key_times),
//!   [`Track::snap_keys_to_frames`](super::Track::snap_keys_to_frames),
//!   [`Clip::rename_tracks`](super::Clip::rename_tracks)
//!   [`Clip::unroll_quaternions`](super::Clip::unroll_quaternions),
//!   [`Clip::euler_filter`](super::Clip::euler_filter),
//!   [`Clip::duplicate_tracks`](super::Clip::duplicate_tracks) and
//!   [`Clip::set_tracks_muted`](super::Clip::set_tracks_muted).
//!
//! The operations that can refuse their arguments (a split outside the clip, a frame rate of 0,
//! …) check before changing anything and say why with an [`OpError`].

mod additive;
pub mod bake;
mod clipboard;
mod clone;
mod convert_interpolation;
#[cfg(test)]
mod curve_samples;
pub mod diff;
mod duplicate_tracks;
mod error;
mod euler_filter;
mod find_by_name;
mod fix;
mod handles;
mod keys;
pub mod lint;
mod markers;
mod merge;
mod morph_sequence;
mod optimize;
pub mod reduce;
mod rename;
mod resample;
mod reset_duration;
mod retime;
mod reverse;
mod scale;
mod shift;
mod smooth;
mod split;
mod subclip;
mod transform_keys;
mod trim;
mod unroll;
pub(crate) mod validate;

pub use crate::model::HandleSide;
pub use additive::make_clip_additive;
pub use clipboard::{CopiedTrack, KeyClipboard, PasteReport, PasteValues, paste_keys};
pub use error::OpError;
pub use euler_filter::closest_euler;
pub use find_by_name::find_by_name;
pub use fix::FixReport;
pub use keys::min_key_gap;
pub use markers::Marker;
pub use merge::merge_clips;
pub use morph_sequence::{
    create_clips_from_morph_target_sequences, create_from_morph_target_sequence,
    morph_sequence_prefix,
};
pub use optimize::OptimizeReport;
pub use rename::{Rename, preview_renames};
pub use resample::MAX_RESAMPLE_FRAMES;
pub use smooth::MAX_SMOOTH_PASSES;
pub use subclip::subclip;
pub use validate::QUATERNION_LENGTH_TOLERANCE;
