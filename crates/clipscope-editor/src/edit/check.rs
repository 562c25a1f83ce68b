//! [`Edit::check`]: the checks an edit's own numbers must pass before it touches a document.
//!
//! Frame rates, factors, times and frame ranges are checked here, without the workspace, so a
//! panel can refuse a value before it queues the edit and
//! [`Workspace::apply`](crate::Workspace::apply) refuses it before anything changes. Checks
//! that need the documents (is the clip still there, does it have that track) happen while the
//! edit is applied.

use crate::{Edit, EditError};

/// True for a frame rate an edit can use: finite and above 0.
fn frame_rate(fps: f64) -> bool {
    fps.is_finite() && fps > 0.0
}

impl Edit {
    /// Checks the edit's own numbers: a duration ≥ 0, a retime factor above 0, a frame rate
    /// above 0, a finite paste time, value factor or additive frame, and a subclip range whose
    /// end comes after its start. Edits without such numbers always pass.
    pub fn check(&self) -> Result<(), EditError> {
        match *self {
            Edit::SetDuration { duration, .. } if !(duration.is_finite() && duration >= 0.0) => {
                Err(EditError::Duration(duration))
            }
            Edit::Retime { factor, offset, .. }
                if !(factor.is_finite() && factor > 0.0 && offset.is_finite()) =>
            {
                Err(EditError::Retime { factor, offset })
            }
            Edit::Resample { fps, .. } if !frame_rate(fps) => Err(EditError::FrameRate {
                edit: "resample",
                fps,
            }),
            Edit::SnapKeys { fps, .. } if !frame_rate(fps) => Err(EditError::FrameRate {
                edit: "snap keys",
                fps,
            }),
            Edit::PasteKeys { time, .. } if !time.is_finite() => Err(EditError::PasteTime(time)),
            Edit::ScaleKeys {
                value_factor,
                pivot_value,
                ..
            } if !(value_factor.is_finite() && pivot_value.is_finite()) => {
                Err(EditError::ValueFactor(value_factor))
            }
            Edit::Subclip {
                start, end, fps, ..
            } => check_subclip(start, end, fps),
            Edit::MakeAdditive { frame, .. } if !frame.is_finite() => {
                Err(EditError::AdditiveFrame(frame))
            }
            _ => Ok(()),
        }
    }
}

/// A subclip's frames and rate: finite numbers, a rate above 0, the end after the start.
fn check_subclip(start: f64, end: f64, fps: f64) -> Result<(), EditError> {
    if !(frame_rate(fps) && start.is_finite() && end.is_finite()) {
        return Err(EditError::SubclipRange { start, end, fps });
    }
    if end <= start {
        return Err(EditError::SubclipOrder { start, end });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{ClipId, ClipScope, Edit, EditError};

    const CLIP: ClipId = ClipId { doc: 0, clip: 0 };

    #[test]
    fn numbers_are_checked_without_a_workspace() {
        let resample = |fps| Edit::Resample {
            scope: ClipScope::All,
            fps,
        };
        assert_eq!(resample(24.0).check(), Ok(()));
        assert_eq!(
            resample(0.0).check().map_err(|e| e.to_string()),
            Err("resample: 0 is not a frame rate above 0".into())
        );
        let snap = Edit::SnapKeys {
            clip: CLIP,
            keys: Vec::new(),
            fps: f64::NAN,
        };
        assert_eq!(
            snap.check().map_err(|e| e.to_string()),
            Err("snap keys: NaN is not a frame rate above 0".into())
        );
        let subclip = |start, end| Edit::Subclip {
            clip: CLIP,
            name: "s".into(),
            start,
            end,
            fps: 30.0,
            replace: false,
        };
        assert_eq!(subclip(0.0, 10.0).check(), Ok(()));
        assert_eq!(
            subclip(10.0, 10.0).check(),
            Err(EditError::SubclipOrder {
                start: 10.0,
                end: 10.0
            })
        );
        assert!(matches!(
            subclip(f64::INFINITY, 10.0).check(),
            Err(EditError::SubclipRange { .. })
        ));
        let duration = |duration| Edit::SetDuration {
            clip: CLIP,
            duration,
        };
        assert_eq!(duration(0.0).check(), Ok(()));
        assert_eq!(duration(-1.0).check(), Err(EditError::Duration(-1.0)));
        assert_eq!(Edit::Optimize(ClipScope::All).check(), Ok(()));
    }
}
