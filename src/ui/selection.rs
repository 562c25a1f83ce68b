//! What the user has selected: a clip, the tracks shown as curves, and keys.

use std::collections::BTreeSet;

use clipscope_core::model::{Clip, Interpolation};
use clipscope_editor::{ClipId, KeyRef};

/// The editor's selection. It is view state, not document data, so panels change it directly.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// The clip shown in the track tree, curve editor and timeline.
    pub clip: Option<ClipId>,
    /// Tracks shown in the curve editor and the dopesheet (indices into the clip).
    pub tracks: BTreeSet<usize>,
    /// Hidden components of shown tracks, as `(track, component)`.
    pub hidden: BTreeSet<(usize, usize)>,
    /// Selected key components.
    pub keys: BTreeSet<KeyRef>,
}

/// How many tracks a newly selected clip shows at first.
const FIRST_TRACKS: usize = 4;

impl Selection {
    /// Selects `clip`. A different clip starts with no keys selected and a few tracks shown:
    /// its bezier tracks first (their handles are what an artist edits), then the first ones.
    pub fn select_clip(&mut self, id: ClipId, clip: &Clip) {
        if self.clip == Some(id) {
            return;
        }
        self.clip = Some(id);
        let mut order: Vec<usize> = (0..clip.tracks.len()).collect();
        order.sort_by_key(|&t| clip.tracks[t].interpolation != Interpolation::Bezier);
        self.tracks = order.into_iter().take(FIRST_TRACKS).collect();
        self.hidden.clear();
        self.keys.clear();
    }

    /// Clears everything (no clip).
    pub fn clear(&mut self) {
        *self = Selection::default();
    }

    /// Drops indices that no longer exist in `clip` (after undo, delete keys, …).
    pub fn fit(&mut self, clip: &Clip) {
        let n = clip.tracks.len();
        self.tracks.retain(|&t| t < n);
        self.hidden.retain(|&(t, _)| t < n);
        self.keys.retain(|k| {
            clip.tracks
                .get(k.track)
                .is_some_and(|t| k.key < t.len() && k.component < t.value_size().max(1))
        });
    }

    /// Shows or hides a track.
    pub fn set_track_shown(&mut self, t: usize, shown: bool) {
        if shown {
            self.tracks.insert(t);
        } else {
            self.tracks.remove(&t);
            self.keys.retain(|k| k.track != t);
        }
    }

    /// Shows or hides one component of a track.
    pub fn set_component_shown(&mut self, t: usize, c: usize, shown: bool) {
        if shown {
            self.hidden.remove(&(t, c));
            self.tracks.insert(t);
        } else {
            self.hidden.insert((t, c));
            self.keys.retain(|k| !(k.track == t && k.component == c));
        }
    }
}
