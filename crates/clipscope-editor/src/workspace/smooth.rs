//! Smoothing the values of selected keys (Blender's Smooth Keys), shared by
//! [`Edit::SmoothKeys`](crate::Edit::SmoothKeys) and the dialog's preview
//! ([`smoothed_clip`]).

use clipscope_core::model::Clip;

use super::by_track::{ByTrack, group_by_track};
use crate::KeyRef;

/// Smooths the grouped keys of `clip` (what [`Edit::SmoothKeys`](crate::Edit::SmoothKeys)
/// does); returns how many moved.
pub(super) fn smooth_in_place(
    clip: &mut Clip,
    by_track: &ByTrack,
    strength: f64,
    passes: usize,
) -> usize {
    let mut moved = 0;
    for (&t, (whole, _)) in by_track {
        if let Some(track) = clip.tracks.get_mut(t) {
            moved += track.smooth_keys(whole, strength, passes);
            track.refresh_auto_handles();
        }
    }
    moved
}

/// `clip` as [`Edit::SmoothKeys`](crate::Edit::SmoothKeys) with these arguments would leave
/// it, without touching the workspace: what the Smooth Keys dialog previews over a ghost of
/// the original.
pub fn smoothed_clip(clip: &Clip, keys: &[KeyRef], strength: f64, passes: usize) -> Clip {
    let mut out = clip.clone();
    smooth_in_place(&mut out, &group_by_track(keys), strength, passes);
    out
}

#[cfg(test)]
mod tests {
    use super::smoothed_clip;
    use crate::Edit;
    use crate::workspace::test_support::{CLIP, key, workspace};

    #[test]
    fn the_preview_is_what_the_edit_makes() {
        let mut ws = workspace();
        let keys = vec![key(0, 2, 0), key(0, 3, 0), key(9, 0, 0)];
        let preview = smoothed_clip(ws.clip(CLIP).unwrap(), &keys, 0.5, 2);
        assert_ne!(&preview, ws.clip(CLIP).unwrap());
        ws.apply(Edit::SmoothKeys {
            clip: CLIP,
            keys: keys[..2].to_vec(),
            strength: 0.5,
            passes: 2,
        })
        .unwrap();
        assert_eq!(&preview, ws.clip(CLIP).unwrap());
    }
}
