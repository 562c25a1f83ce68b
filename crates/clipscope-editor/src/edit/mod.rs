//! The edits a user can make, as data: [`Edit`] (one undoable change) and the indices it uses
//! ([`ClipId`], [`KeyRef`], [`ClipScope`]).
//!
//! An edit knows what it is called ([`Edit::label`]), which drag gesture it belongs to
//! ([`Edit::gesture`]) and whether its own numbers make sense ([`Edit::check`], in `check.rs`);
//! what it does to the documents is the workspace's business
//! ([`Workspace::apply`](crate::Workspace::apply)).

mod check;
mod ids;

use std::collections::BTreeMap;

use clipscope_core::model::ops::lint::LintSettings;
use clipscope_core::model::ops::{HandleSide, KeyClipboard, Marker, PasteValues};
use clipscope_core::model::{BlendMode, Clip, Interpolation, TangentMode};

pub use ids::{ClipId, ClipScope, KeyRef};

/// One undoable edit. Edits hold indices, not references, so they can be queued, logged and
/// replayed; [`Workspace::apply`](crate::Workspace::apply) checks them.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Renames a clip.
    RenameClip {
        /// The clip.
        clip: ClipId,
        /// Its new name.
        name: String,
    },
    /// Inserts a copy (new uuid, name with " copy") right after the clip.
    DuplicateClip {
        /// The clip to copy.
        clip: ClipId,
    },
    /// Appends a clip (a baked procedural cycle, say) to a document and selects it.
    AddClip {
        /// Index of the document in the workspace.
        doc: usize,
        /// The clip (boxed: it is much larger than the other edits).
        clip: Box<Clip>,
    },
    /// Puts new versions of clips in place (a reduction's result): one undo step for all of
    /// them. Each clip is checked to still be there.
    ReplaceClips {
        /// What the change is called in the undo history ("Reduce").
        label: &'static str,
        /// The clips and their new versions (boxed: they are much larger than other edits).
        clips: Vec<(ClipId, Box<Clip>)>,
    },
    /// Removes a clip from its document.
    DeleteClip {
        /// The clip.
        clip: ClipId,
    },
    /// Sets a clip's duration in seconds.
    SetDuration {
        /// The clip.
        clip: ClipId,
        /// New duration (seconds).
        duration: f64,
    },
    /// Sets a clip's blend mode.
    SetBlendMode {
        /// The clip.
        clip: ClipId,
        /// Normal or additive.
        mode: BlendMode,
    },
    /// Lossless key reduction (three.js `optimize`).
    Optimize(ClipScope),
    /// Cuts keys outside `[0, duration]` (three.js `trim`).
    Trim(ClipScope),
    /// Sets each clip's duration to its last key (three.js `resetDuration`).
    ResetDuration(ClipScope),
    /// Applies the safe fixes of `validate --fix` ([`Clip::fix`](clipscope_core::model::Clip::fix)):
    /// sort keys, normalize quaternions, lossless optimize, reset the duration.
    Fix {
        /// The clips to fix.
        scope: ClipScope,
        /// The settings each document's file validated with (by document index): its config's
        /// tolerances and the rules that run for its format. Documents not listed get the
        /// built-in settings.
        settings: BTreeMap<usize, LintSettings>,
    },
    /// Moves keys by `dt` seconds (clamped so keys never pass unselected neighbours) and the
    /// given components by `dv`. Edits with the same `gesture` merge into one undo step.
    MoveKeys {
        /// The clip.
        clip: ClipId,
        /// The selected key components (time moves apply to whole keys).
        keys: Vec<KeyRef>,
        /// Time offset in seconds.
        dt: f64,
        /// Value offset.
        dv: f64,
        /// A drag gesture id; consecutive edits of one gesture are one undo step.
        gesture: Option<u64>,
    },
    /// Places one bezier handle at `(time, value)`.
    SetHandle {
        /// The clip.
        clip: ClipId,
        /// The key and component whose handle moves.
        key: KeyRef,
        /// In or out handle.
        side: HandleSide,
        /// Handle time (seconds, absolute).
        time: f64,
        /// Handle value.
        value: f64,
        /// Break aligned handles (the key becomes free) instead of rotating the other side.
        break_handles: bool,
        /// A drag gesture id; consecutive edits of one gesture are one undo step.
        gesture: Option<u64>,
    },
    /// Sets a key's time and/or one component's value (inspector fields).
    SetKey {
        /// The clip.
        clip: ClipId,
        /// The key and component.
        key: KeyRef,
        /// New time, if it changes.
        time: Option<f64>,
        /// New value of `key.component`, if it changes.
        value: Option<f64>,
        /// A drag gesture id; consecutive edits of one gesture are one undo step.
        gesture: Option<u64>,
    },
    /// Deletes whole keys (all components); tracks left without keys are removed.
    DeleteKeys {
        /// The clip.
        clip: ClipId,
        /// Keys to delete (components are ignored).
        keys: Vec<KeyRef>,
    },
    /// Inserts a key at `time` in each track, on the current curve (the shape is unchanged).
    InsertKey {
        /// The clip.
        clip: ClipId,
        /// Track indices.
        tracks: Vec<usize>,
        /// Time in seconds.
        time: f64,
    },
    /// Changes the interpolation of tracks; to bezier keeps the curve's shape.
    SetInterpolation {
        /// The clip.
        clip: ClipId,
        /// Track indices.
        tracks: Vec<usize>,
        /// The new interpolation.
        interpolation: Interpolation,
    },
    /// Sets the handle type of keys (recomputing automatic handles).
    SetTangentMode {
        /// The clip.
        clip: ClipId,
        /// The keys (components are ignored).
        keys: Vec<KeyRef>,
        /// The handle type.
        mode: TangentMode,
    },
    /// Pastes copied keys into a clip (Ctrl+V), or duplicates keys (Shift+D): the earliest
    /// copied key lands at `time`, copied track `i` goes into track `targets[i]`.
    PasteKeys {
        /// The clip pasted into.
        clip: ClipId,
        /// The copied keys (boxed: it holds whole tracks).
        clipboard: Box<KeyClipboard>,
        /// The track each copied track goes into (see
        /// [`KeyClipboard::targets`](clipscope_core::model::ops::KeyClipboard::targets)).
        targets: Vec<Option<usize>>,
        /// Where the earliest copied key lands (seconds).
        time: f64,
        /// Values as copied, or offset onto the curves they land on.
        values: PasteValues,
        /// True for Duplicate keys (only the label differs).
        duplicate: bool,
    },
    /// Deletes whole tracks of a clip.
    DeleteTracks {
        /// The clip.
        clip: ClipId,
        /// Track indices.
        tracks: Vec<usize>,
    },
    /// Appends a copy of each track named `<name> copy` and selects the copies.
    DuplicateTracks {
        /// The clip.
        clip: ClipId,
        /// Track indices.
        tracks: Vec<usize>,
    },
    /// Mutes or unmutes tracks: a muted track stays in the clip (and in saved files) but the
    /// viewport does not play it.
    MuteTracks {
        /// The clip.
        clip: ClipId,
        /// Track indices.
        tracks: Vec<usize>,
        /// Mute (true) or unmute.
        muted: bool,
    },
    /// Find and replace in track names with a regular expression (`$1` for groups).
    RenameTracks {
        /// The clips.
        scope: ClipScope,
        /// The regular expression.
        pattern: String,
        /// The replacement.
        replacement: String,
    },
    /// Cuts a clip in two at `time`: the clip keeps what comes before, a new clip right after
    /// it (named `<name>.2`) holds the rest, starting at 0.
    SplitClip {
        /// The clip.
        clip: ClipId,
        /// Where to cut (seconds, strictly inside the clip).
        time: f64,
    },
    /// A new clip (inserted after the source, selected) holding the source's keys in
    /// `[start, end)` frames at `fps` (three.js `AnimationUtils.subclip`), or the source cut
    /// down to that range in place (`replace`: keeping its uuid).
    Subclip {
        /// The source clip.
        clip: ClipId,
        /// The new clip's name.
        name: String,
        /// First frame kept.
        start: f64,
        /// First frame not kept.
        end: f64,
        /// Frames per second (1 makes frames seconds).
        fps: f64,
        /// Replace the source (keeping its uuid) instead of adding a clip.
        replace: bool,
    },
    /// Multiplies key times by `factor`, then adds `offset` seconds; the duration follows.
    Retime {
        /// The clips.
        scope: ClipScope,
        /// Time factor (finite, above 0).
        factor: f64,
        /// Offset in seconds.
        offset: f64,
    },
    /// Bakes the clips to one key per frame at `fps`.
    Resample {
        /// The clips.
        scope: ClipScope,
        /// Frames per second.
        fps: f64,
    },
    /// A new clip (appended to the document, selected) holding the tracks of some of its clips;
    /// tracks they share are merged (see [`merge_clips`](clipscope_core::model::ops::merge_clips)).
    MergeClips {
        /// The document.
        doc: usize,
        /// Clip indices, in the order their tracks go in (at least two).
        clips: Vec<usize>,
        /// The new clip's name.
        name: String,
    },
    /// Replaces a clip's markers (add, rename, move, delete: the whole list, one undo step).
    SetMarkers {
        /// The clip.
        clip: ClipId,
        /// Its markers afterwards.
        markers: Vec<Marker>,
    },
    /// Plays the clips backwards.
    Reverse(ClipScope),
    /// Smooths the values of keys (Blender's Smooth Keys: towards the ¼-½-¼ average of each key
    /// and its neighbours).
    SmoothKeys {
        /// The clip.
        clip: ClipId,
        /// The keys (components are ignored: whole keys are smoothed).
        keys: Vec<KeyRef>,
        /// 0 (nothing) to 1 (the full average) per pass.
        strength: f64,
        /// How many passes.
        passes: usize,
    },
    /// Scales keys like a transform box: times around `pivot_time` by `time_factor` (refused
    /// when a key would pass an unselected neighbour), the given components' values around
    /// `pivot_value` by `value_factor`.
    ScaleKeys {
        /// The clip.
        clip: ClipId,
        /// The key components (time scaling applies to whole keys).
        keys: Vec<KeyRef>,
        /// The time that stays put.
        pivot_time: f64,
        /// Time factor (above 0; 1 leaves times).
        time_factor: f64,
        /// The value that stays put.
        pivot_value: f64,
        /// Value factor (1 leaves values; negative mirrors).
        value_factor: f64,
        /// Edits with the same gesture id merge into one undo step (the transform box's
        /// frames); `None` for a one-off scale.
        gesture: Option<u64>,
    },
    /// Moves keys to the nearest frame (keys whose frame is taken stay).
    SnapKeys {
        /// The clip.
        clip: ClipId,
        /// The keys.
        keys: Vec<KeyRef>,
        /// Frames per second.
        fps: f64,
    },
    /// Puts neighbouring quaternion keys in the same hemisphere (the same rotations).
    UnrollQuaternions(ClipScope),
    /// Makes the angles of Euler rotation tracks (`.rotation` vectors) continuous: each key
    /// takes the equivalent angle triple nearest the key before (Blender's Euler Filter).
    EulerFilter(ClipScope),
    /// Makes a clip additive against its pose (or another clip's) at a frame (three.js
    /// `AnimationUtils.makeClipAdditive`).
    MakeAdditive {
        /// The clip.
        clip: ClipId,
        /// The reference frame.
        frame: f64,
        /// Frames per second the frame counts in.
        fps: f64,
        /// The clip whose pose is subtracted; `None` for the clip itself.
        reference: Option<ClipId>,
    },
}

impl Edit {
    /// A short name for the undo menu and the status line ("Optimize", "Move keys", …).
    pub fn label(&self) -> &'static str {
        match self {
            Edit::RenameClip { .. } => "Rename clip",
            Edit::DuplicateClip { .. } => "Duplicate clip",
            Edit::AddClip { .. } => "Add clip",
            Edit::ReplaceClips { label, .. } => label,
            Edit::DeleteClip { .. } => "Delete clip",
            Edit::SetDuration { .. } => "Set duration",
            Edit::SetBlendMode { .. } => "Set blend mode",
            Edit::Optimize(_) => "Optimize",
            Edit::Trim(_) => "Trim",
            Edit::ResetDuration(_) => "Reset duration",
            Edit::Fix { .. } => "Fix",
            Edit::MoveKeys { .. } => "Move keys",
            Edit::SetHandle { .. } => "Move handle",
            Edit::SetKey { .. } => "Edit key",
            Edit::DeleteKeys { .. } => "Delete keys",
            Edit::InsertKey { .. } => "Insert key",
            Edit::SetInterpolation { .. } => "Set interpolation",
            Edit::SetTangentMode { .. } => "Set handle type",
            Edit::PasteKeys {
                duplicate: true, ..
            } => "Duplicate keys",
            Edit::PasteKeys { .. } => "Paste keys",
            Edit::DeleteTracks { .. } => "Delete tracks",
            Edit::DuplicateTracks { .. } => "Duplicate tracks",
            Edit::MuteTracks { muted: true, .. } => "Mute tracks",
            Edit::MuteTracks { .. } => "Unmute tracks",
            Edit::RenameTracks { .. } => "Rename tracks",
            Edit::SplitClip { .. } => "Split clip",
            Edit::Subclip { .. } => "Subclip",
            Edit::Retime { .. } => "Retime",
            Edit::Resample { .. } => "Resample",
            Edit::Reverse(_) => "Reverse",
            Edit::MergeClips { .. } => "Merge clips",
            Edit::SetMarkers { .. } => "Edit markers",
            Edit::SmoothKeys { .. } => "Smooth keys",
            Edit::ScaleKeys { .. } => "Scale keys",
            Edit::SnapKeys { .. } => "Snap keys to frames",
            Edit::UnrollQuaternions(_) => "Unroll quaternions",
            Edit::EulerFilter(_) => "Euler filter",
            Edit::MakeAdditive { .. } => "Make additive",
        }
    }

    /// The drag gesture the edit belongs to: consecutive edits of one gesture are one undo
    /// step. Only key moves, handle moves, key fields and key scaling come in gestures.
    pub fn gesture(&self) -> Option<u64> {
        match self {
            Edit::MoveKeys { gesture, .. }
            | Edit::SetHandle { gesture, .. }
            | Edit::SetKey { gesture, .. }
            | Edit::ScaleKeys { gesture, .. } => *gesture,
            _ => None,
        }
    }
}
