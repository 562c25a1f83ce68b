//! What the workspace's unit tests share: a small workspace and helpers that check an edit
//! undoes and redoes.

use clipscope_core::formats::{Document, Format};
use clipscope_core::model::{Clip, Track, TrackKind};

use crate::{Applied, ClipId, Edit, KeyRef, Workspace};

/// A workspace with one document holding one clip, "walk" (3 s): a vector track
/// `cube.position` with keys at 0, 1, 2, 3 s and a number track `.opacity` with keys at 0, 2 s.
pub(super) fn workspace() -> Workspace {
    let track = Track::numeric(
        "cube.position",
        TrackKind::Vector,
        vec![0.0, 1.0, 2.0, 3.0],
        vec![0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 2., 3.],
    );
    let flag = Track::numeric(
        ".opacity",
        TrackKind::Number,
        vec![0.0, 2.0],
        vec![1.0, 0.5],
    );
    let clip = Clip::new("walk", 3.0, vec![track, flag]);
    let mut ws = Workspace::new();
    ws.add(Document::new(Format::ThreeJs, vec![clip]));
    ws
}

/// The walk of [`workspace`].
pub(super) const CLIP: ClipId = ClipId { doc: 0, clip: 0 };

/// Component `component` of key `key` of track `track`.
pub(super) fn key(track: usize, key: usize, component: usize) -> KeyRef {
    KeyRef {
        track,
        key,
        component,
    }
}

/// The names of the first document's clips.
pub(super) fn names(ws: &Workspace) -> Vec<String> {
    ws.documents[0]
        .doc
        .clips
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

/// Applies `edit`, checks undo brings the document back and redo reapplies it.
pub(super) fn undoable(ws: &mut Workspace, edit: Edit) -> Applied {
    let before = ws.documents[0].doc.clips.clone();
    let label = edit.label();
    let applied = ws.apply(edit).unwrap();
    let after = ws.documents[0].doc.clips.clone();
    assert_ne!(before, after, "{label} changed nothing");
    assert_eq!(ws.undo().as_deref(), Some(label));
    assert_eq!(ws.documents[0].doc.clips, before, "undo {label}");
    ws.redo();
    assert_eq!(ws.documents[0].doc.clips, after, "redo {label}");
    applied
}
