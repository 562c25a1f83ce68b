//! The indices edits use: a clip of an open document ([`ClipId`]), one component of one key
//! ([`KeyRef`]) and the clips an operation runs on ([`ClipScope`]).

/// A clip of an open document: `(document index, clip index)` in the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId {
    /// Index of the document in [`Workspace::documents`](crate::Workspace::documents).
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClipScope {
    /// One clip.
    Clip(ClipId),
    /// Some clips (`clipscope edit --clip NAME`), each once, in this order.
    Clips(Vec<ClipId>),
    /// Every clip of every open document.
    All,
}
