//! Edits of one clip's own properties: its name, duration, blend mode and markers, and making
//! it additive. Each records the whole clip.

use clipscope_core::model::ops::{Marker, make_clip_additive};
use clipscope_core::model::{BlendMode, Clip};

use super::Applied;
use super::recorder::Recorder;
use crate::{ClipId, EditError};

impl Recorder<'_> {
    /// Changes clip `clip` with `f`, which cannot fail; such edits report nothing.
    fn change_clip(
        &mut self,
        clip: ClipId,
        f: impl FnOnce(&mut Clip),
    ) -> Result<Applied, EditError> {
        self.edit_clip(clip, |c| {
            f(c);
            Ok(())
        })?;
        Ok(Applied::default())
    }

    /// [`Edit::RenameClip`](crate::Edit::RenameClip).
    pub(super) fn rename_clip(&mut self, clip: ClipId, name: String) -> Result<Applied, EditError> {
        self.change_clip(clip, |c| c.name = name)
    }

    /// [`Edit::SetDuration`](crate::Edit::SetDuration) (the duration is checked already).
    pub(super) fn set_duration(
        &mut self,
        clip: ClipId,
        duration: f64,
    ) -> Result<Applied, EditError> {
        self.change_clip(clip, |c| c.duration = duration)
    }

    /// [`Edit::SetBlendMode`](crate::Edit::SetBlendMode).
    pub(super) fn set_blend_mode(
        &mut self,
        clip: ClipId,
        mode: BlendMode,
    ) -> Result<Applied, EditError> {
        self.change_clip(clip, |c| c.blend_mode = mode)
    }

    /// [`Edit::SetMarkers`](crate::Edit::SetMarkers): reports how many markers there were and
    /// are.
    pub(super) fn set_markers(
        &mut self,
        clip: ClipId,
        markers: &[Marker],
    ) -> Result<Applied, EditError> {
        let before = self.clip(clip)?.markers().len();
        self.edit_clip(clip, |c| Ok(c.set_markers(markers)?))?;
        Ok(Applied::reporting(format!(
            "markers: {before} -> {}",
            markers.len()
        )))
    }

    /// [`Edit::MakeAdditive`](crate::Edit::MakeAdditive) (the frame is checked already):
    /// against the clip's own pose, or `reference`'s when it names another clip.
    pub(super) fn make_additive(
        &mut self,
        clip: ClipId,
        frame: f64,
        fps: f64,
        reference: Option<ClipId>,
    ) -> Result<Applied, EditError> {
        let reference = match reference {
            Some(r) if r != clip => Some(
                self.ws
                    .clip(r)
                    .ok_or(EditError::NoSuchReferenceClip(r))?
                    .clone(),
            ),
            _ => None,
        };
        self.edit_clip(clip, |c| {
            make_clip_additive(c, frame, reference.as_ref(), fps);
            Ok(())
        })?;
        Ok(Applied::reporting(match &reference {
            Some(r) => format!("additive against {} at frame {frame}", r.name),
            None => format!("additive against its own frame {frame}"),
        }))
    }
}

#[cfg(test)]
mod tests {
    use clipscope_core::model::ops::Marker;

    use crate::Edit;
    use crate::workspace::test_support::{CLIP, undoable, workspace};

    #[test]
    fn markers_are_one_step() {
        let mut ws = workspace();
        let marker = Marker {
            name: "contact".into(),
            time: 1.5,
        };
        let applied = undoable(
            &mut ws,
            Edit::SetMarkers {
                clip: CLIP,
                markers: vec![marker.clone()],
            },
        );
        assert_eq!(applied.message.as_deref(), Some("markers: 0 -> 1"));
        assert_eq!(ws.clip(CLIP).unwrap().markers(), [marker]);
    }

    #[test]
    fn refusals_name_their_cause() {
        use std::error::Error;

        use crate::{ClipId, EditError};
        let mut ws = workspace();
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        let steps = ws.history.undo_label().map(str::to_owned);
        let mut odd = ws.clip(CLIP).unwrap().clone();
        odd.user_data = serde_json::json!("text");
        ws.apply(Edit::ReplaceClips {
            label: "Odd",
            clips: vec![(CLIP, Box::new(odd))],
        })
        .unwrap();
        let err = ws
            .apply(Edit::SetMarkers {
                clip: CLIP,
                markers: Vec::new(),
            })
            .unwrap_err();
        assert!(matches!(err, EditError::Op(_)), "{err:?}");
        assert!(err.source().is_some());
        assert_eq!(
            err.to_string(),
            "the clip's userData is not an object, so it cannot hold markers"
        );
        let gone = ClipId { doc: 0, clip: 4 };
        let err = ws
            .apply(Edit::MakeAdditive {
                clip: CLIP,
                frame: 0.0,
                fps: 30.0,
                reference: Some(gone),
            })
            .unwrap_err();
        assert_eq!(err, EditError::NoSuchReferenceClip(gone));
        assert_eq!(err.to_string(), "no such reference clip");
        ws.undo();
        assert_eq!(ws.history.undo_label().map(str::to_owned), steps);
    }
}
