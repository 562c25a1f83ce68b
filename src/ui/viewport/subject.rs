//! [`Subject`]: what the viewport is asked to show this frame, and [`ClipVersion`], which state
//! of which clip that is.

use std::collections::BTreeSet;
use std::path::Path;

use clipscope_core::model::Clip;
use clipscope_scene::FigureSource;

/// What the viewport shows: the selected clip, the other clips of its file (to blend with) and
/// the file's mesh and bones (to play on).
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// Which state of which clip this is.
    pub version: ClipVersion,
    /// The clip to play.
    pub clip: &'a Clip,
    /// Every clip of the clip's file.
    pub clips: &'a [Clip],
    /// The file's morph mesh and skeleton.
    pub source: FigureSource<'a>,
    /// The figure to play on regardless of the picker (a procedural cycle's rig), if any.
    pub figure: Option<&'a str>,
    /// The document's file, where its companion model is looked for.
    pub path: Option<&'a Path>,
    /// The clip's tracks shown in the curve editor: their bones are highlighted.
    pub selected: Option<&'a BTreeSet<usize>>,
    /// The open document the clip belongs to: a new version that only changed keys of some
    /// tracks is followed track by track ([`Player::update_tracks`]).
    ///
    /// [`Player::update_tracks`]: clipscope_scene::Player::update_tracks
    pub document: Option<&'a clipscope_editor::OpenDocument>,
    /// Another version of the clip to pose on the same figure as a pale ghost (the compare
    /// view), with a key that changes whenever that version does.
    pub ghost: Option<(u64, &'a Clip)>,
}

/// Identifies one state of one clip: `(document id, document version, clip index)`.
pub type ClipVersion = (u64, u64, usize);
