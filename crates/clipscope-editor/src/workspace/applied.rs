//! [`Applied`]: what an edit did, for the status line and the selection.

use crate::{ClipId, KeyRef};

/// What [`Workspace::apply`](crate::Workspace::apply) did: its report and what the editor
/// should select afterwards.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Applied {
    /// The edit's label ("Optimize").
    pub label: String,
    /// A report for the user ("optimize: 428,766 → 248,618 keys"), if the edit has one.
    pub message: Option<String>,
    /// A clip the editor should select afterwards (a duplicate, say).
    pub select_clip: Option<ClipId>,
    /// Keys the editor should select afterwards (inserted keys, say).
    pub select_keys: Vec<KeyRef>,
    /// Tracks of the edited clip the editor should show afterwards (duplicated tracks).
    pub select_tracks: Vec<usize>,
}

impl Applied {
    /// An edit that reports `message` and selects nothing.
    pub(super) fn reporting(message: String) -> Applied {
        Applied {
            message: Some(message),
            ..Applied::default()
        }
    }

    /// An edit after which the editor selects `clip`.
    pub(super) fn selecting_clip(clip: ClipId) -> Applied {
        Applied {
            select_clip: Some(clip),
            ..Applied::default()
        }
    }

    /// An edit after which the editor selects `keys`.
    pub(super) fn selecting_keys(keys: Vec<KeyRef>) -> Applied {
        Applied {
            select_keys: keys,
            ..Applied::default()
        }
    }
}
