//! The edits a user can make, as data: [`Edit`] (one undoable change) and the indices it uses
//! ([`ClipId`], [`KeyRef`], [`ClipScope`]).

use std::collections::BTreeMap;

use crate::model::ops::HandleSide;
use crate::model::ops::lint::LintSettings;
use crate::model::{BlendMode, Clip, Interpolation, TangentMode};

/// A clip of an open document: `(document index, clip index)` in the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId {
    /// Index of the document in [`Workspace::documents`](super::Workspace::documents).
    pub doc: usize,
    /// Index of the clip in the document.
    pub clip: usize,
}

/// One component of one key of a track of a clip (the unit a curve editor selects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyRef {
    /// Track index in the clip.
    pub track: usize,
    /// Key index in the track.
    pub key: usize,
    /// Value component (0 for scalar tracks; x, y, z, w for vectors and quaternions).
    pub component: usize,
}

/// Which clips an operation such as optimize runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClipScope {
    /// One clip.
    Clip(ClipId),
    /// Every clip of every open document.
    All,
}

/// One undoable edit. Edits hold indices, not references, so they can be queued, logged and
/// replayed; [`Workspace::apply`](super::Workspace::apply) checks them.
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
    /// Applies the safe fixes of `validate --fix` ([`Clip::fix`](crate::model::Clip::fix)):
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
        }
    }
}
