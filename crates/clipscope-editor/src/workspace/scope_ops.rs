//! Whole-clip operations over a [`ClipScope`]: the Clip menu and `clipscope edit` (optimize,
//! trim, reset duration, fix, retime, resample, reverse, unroll quaternions, Euler filter,
//! rename tracks).
//!
//! Each runs on a copy of every clip of the scope; the clips it changed are put back as one
//! undo step, and one line sums up what it did over all of them ("optimize: 6 -> 5 keys over
//! 2 clips").

use std::collections::BTreeMap;

use clipscope_core::model::Clip;
use clipscope_core::model::ops::lint::LintSettings;
use clipscope_core::text::thousands;

use super::Applied;
use super::recorder::Recorder;
use crate::{ClipId, ClipScope, EditError};

/// A whole-clip operation of the Clip menu.
pub(super) enum ClipOp {
    /// Lossless key reduction.
    Optimize,
    /// Cut keys outside the clip.
    Trim,
    /// Duration from the last key.
    ResetDuration,
    /// The safe fixes, with each document's settings (the built-in ones for a document not
    /// listed).
    Fix(BTreeMap<usize, LintSettings>),
    /// Times × factor + offset.
    Retime {
        /// Time factor.
        factor: f64,
        /// Offset (seconds).
        offset: f64,
    },
    /// One key per frame at this rate.
    Resample(f64),
    /// Play backwards.
    Reverse,
    /// Quaternion keys into one hemisphere.
    Unroll,
    /// Continuous Euler angles.
    EulerFilter,
    /// Find and replace in track names.
    Rename(regex::Regex, String),
}

/// What an operation did, summed over the clips of its scope.
#[derive(Debug, Default)]
struct Tally {
    /// Clips the operation ran on.
    clips: usize,
    /// Keys before and after (optimize, trim, resample).
    keys_before: usize,
    keys_after: usize,
    /// Keys changed and tracks they are in (unroll, Euler filter).
    keys_changed: usize,
    tracks_changed: usize,
    /// Clips whose duration changed (reset duration).
    durations_changed: usize,
    /// Fixes made.
    fixes: usize,
    /// Tracks renamed.
    renamed: usize,
}

impl ClipOp {
    /// Find `pattern` (a regular expression) and replace it with `replacement` (`$1` for
    /// groups) in track names; a pattern that does not parse is an error.
    pub(super) fn rename(pattern: String, replacement: String) -> Result<ClipOp, EditError> {
        match regex::Regex::new(&pattern) {
            Ok(re) => Ok(ClipOp::Rename(re, replacement)),
            Err(source) => Err(EditError::Pattern { pattern, source }),
        }
    }

    /// Runs the operation on `clip` (of document `doc`), adding what it did to `tally`.
    fn run(&self, doc: usize, clip: &mut Clip, tally: &mut Tally) -> Result<(), EditError> {
        match self {
            ClipOp::Optimize => {
                let r = clip.optimize();
                tally.keys_before += r.keys_before;
                tally.keys_after += r.keys_after;
            }
            ClipOp::Trim => {
                tally.keys_before += clip.key_count();
                clip.trim();
                tally.keys_after += clip.key_count();
            }
            ClipOp::ResetDuration => {
                let before = clip.duration;
                clip.reset_duration();
                if clip.duration != before {
                    tally.durations_changed += 1;
                }
            }
            ClipOp::Fix(settings) => {
                let report = match settings.get(&doc) {
                    Some(settings) => clip.fix(settings),
                    None => clip.fix(&LintSettings::default()),
                };
                tally.fixes += report.changes.len();
            }
            ClipOp::Retime { factor, offset } => clip.retime(*factor, *offset),
            ClipOp::Resample(fps) => {
                tally.keys_before += clip.key_count();
                tally.keys_after += clip.resample(*fps)?;
            }
            ClipOp::Reverse => {
                clip.reverse();
            }
            ClipOp::Unroll => {
                let (keys, tracks) = clip.unroll_quaternions();
                tally.keys_changed += keys;
                tally.tracks_changed += tracks;
            }
            ClipOp::EulerFilter => {
                let (keys, tracks) = clip.euler_filter();
                tally.keys_changed += keys;
                tally.tracks_changed += tracks;
            }
            ClipOp::Rename(re, replacement) => tally.renamed += clip.rename_tracks(re, replacement),
        }
        tally.clips += 1;
        Ok(())
    }

    /// The line that sums up what the operation did.
    fn report(&self, t: &Tally) -> String {
        let of = if t.clips == 1 {
            String::new()
        } else {
            format!(" over {} clips", t.clips)
        };
        let (before, after) = (thousands(t.keys_before), thousands(t.keys_after));
        match self {
            ClipOp::Optimize => format!("optimize: {before} -> {after} keys{of}"),
            ClipOp::Trim => format!("trim: {before} -> {after} keys{of}"),
            ClipOp::ResetDuration => format!(
                "reset duration: {} of {} clips changed",
                t.durations_changed, t.clips
            ),
            ClipOp::Fix(_) => format!("fix: {} change(s){of}", t.fixes),
            ClipOp::Retime { factor, offset } => {
                format!("retime: times × {factor} + {offset} s{of}")
            }
            ClipOp::Resample(fps) => {
                format!("resample at {fps} fps: {before} -> {after} keys{of}")
            }
            ClipOp::Reverse => format!("reverse: {} clip(s) play backwards", t.clips),
            ClipOp::Unroll => format!(
                "unroll quaternions: {} key(s) negated in {} track(s){of}",
                t.keys_changed, t.tracks_changed
            ),
            ClipOp::EulerFilter => format!(
                "euler filter: {} key(s) changed in {} rotation track(s){of}",
                t.keys_changed, t.tracks_changed
            ),
            ClipOp::Rename(..) => format!("rename: {} track(s) renamed{of}", t.renamed),
        }
    }
}

impl Recorder<'_> {
    /// Runs `op` over the clips of `scope`, putting back those it changed, and says what it
    /// did.
    pub(super) fn clip_op(&mut self, op: ClipOp, scope: ClipScope) -> Result<Applied, EditError> {
        let mut tally = Tally::default();
        for id in self.clips_of(scope)? {
            let before = self.clip(id)?.clone();
            let mut after = before.clone();
            op.run(id.doc, &mut after, &mut tally)?;
            if after != before {
                self.replace_clip(id, before, after);
            }
        }
        Ok(Applied::reporting(op.report(&tally)))
    }

    /// The clips of `scope`, each checked to be there.
    fn clips_of(&self, scope: ClipScope) -> Result<Vec<ClipId>, EditError> {
        match scope {
            ClipScope::Clip(id) => {
                self.clip(id)?;
                Ok(vec![id])
            }
            ClipScope::Clips(ids) => {
                for &id in &ids {
                    self.clip(id)?;
                }
                Ok(ids)
            }
            ClipScope::All => Ok(self.ws.clip_ids()),
        }
    }
}

#[cfg(test)]
mod tests {
    use clipscope_core::model::{Clip, Track, TrackKind};

    use crate::workspace::test_support::{CLIP, undoable, workspace};
    use crate::{ClipId, ClipScope, Edit};

    #[test]
    fn optimize_reports_undoes_and_redoes() {
        let mut ws = workspace();
        let before = ws.clip(CLIP).unwrap().clone();
        let applied = ws.apply(Edit::Optimize(ClipScope::Clip(CLIP))).unwrap();
        assert_eq!(applied.message.as_deref(), Some("optimize: 6 -> 5 keys"));
        assert!(ws.documents[0].is_dirty());
        let after = ws.clip(CLIP).unwrap().clone();
        assert_eq!(after.tracks[0].len(), 3);
        assert_eq!(ws.history.undo_label(), Some("Optimize"));
        assert_eq!(ws.undo().as_deref(), Some("Optimize"));
        assert_eq!(ws.clip(CLIP).unwrap(), &before);
        assert!(
            !ws.documents[0].is_dirty(),
            "undo back to the saved state is clean"
        );
        assert_eq!(ws.redo().as_deref(), Some("Optimize"));
        assert_eq!(ws.clip(CLIP).unwrap(), &after);
        assert!(ws.documents[0].is_dirty());
    }

    #[test]
    fn the_euler_filter_is_one_step_over_the_chosen_clips() {
        let mut ws = workspace();
        let spin = Track::numeric(
            "arm.rotation",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 3.0, 0.0, 0.0, -3.0],
        );
        ws.apply(Edit::AddClip {
            doc: 0,
            clip: Box::new(Clip::new("spin", 1.0, vec![spin])),
        })
        .unwrap();
        let spin = ClipId { doc: 0, clip: 1 };
        let applied = undoable(&mut ws, Edit::EulerFilter(ClipScope::Clip(spin)));
        assert_eq!(
            applied.message.as_deref(),
            Some("euler filter: 1 key(s) changed in 1 rotation track(s)")
        );
        let z = ws.clip(spin).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()[5];
        assert_eq!(z, (-3.0f64 + std::f64::consts::TAU) as f32);
        // Nothing to filter in the walk: no step.
        let steps = ws.history.undo_label().map(str::to_owned);
        ws.apply(Edit::EulerFilter(ClipScope::Clip(CLIP))).unwrap();
        assert_eq!(ws.history.undo_label().map(str::to_owned), steps);
    }

    #[test]
    fn retime_resample_reverse_on_one_clip_or_all() {
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let applied = undoable(
            &mut ws,
            Edit::Retime {
                scope: ClipScope::All,
                factor: 2.0,
                offset: 0.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("retime: times × 2 + 0 s over 2 clips")
        );
        for c in &ws.documents[0].doc.clips {
            assert_eq!(c.duration, 6.0);
            assert_eq!(c.tracks[0].times, vec![0.0, 2.0, 4.0, 6.0]);
        }
        assert!(
            ws.apply(Edit::Retime {
                scope: ClipScope::All,
                factor: 0.0,
                offset: 0.0
            })
            .is_err()
        );
        let applied = undoable(
            &mut ws,
            Edit::Resample {
                scope: ClipScope::Clip(CLIP),
                fps: 1.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("resample at 1 fps: 6 -> 14 keys")
        );
        undoable(
            &mut ws,
            Edit::Reverse(ClipScope::Clips(vec![ClipId { doc: 0, clip: 1 }])),
        );
        let reversed = &ws.documents[0].doc.clips[1].tracks[1];
        assert_eq!(reversed.times, vec![2.0, 6.0]);
        assert_eq!(reversed.values.as_numbers().unwrap(), &[0.5, 1.0]);
        assert!(
            ws.apply(Edit::Reverse(ClipScope::Clips(vec![ClipId {
                doc: 0,
                clip: 9
            }])))
            .is_err()
        );
    }

    #[test]
    fn rename_tracks_unroll_and_make_additive() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::RenameTracks {
                scope: ClipScope::Clip(CLIP),
                pattern: r"^cube\.".into(),
                replacement: "hero.".into(),
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("rename: 1 track(s) renamed")
        );
        assert_eq!(ws.clip(CLIP).unwrap().tracks[0].name, "hero.position");
        let err = ws
            .apply(Edit::RenameTracks {
                scope: ClipScope::All,
                pattern: "(".into(),
                replacement: String::new(),
            })
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("rename: \"(\" is not a regular expression: "),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");

        let q = Track::numeric(
            "hero.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0],
        );
        ws.apply(Edit::AddClip {
            doc: 0,
            clip: Box::new(Clip::new("turn", 1.0, vec![q])),
        })
        .unwrap();
        let applied = undoable(&mut ws, Edit::UnrollQuaternions(ClipScope::All));
        assert_eq!(
            applied.message.as_deref(),
            Some("unroll quaternions: 1 key(s) negated in 1 track(s) over 2 clips")
        );
        let applied = undoable(
            &mut ws,
            Edit::MakeAdditive {
                clip: CLIP,
                frame: 0.0,
                fps: 30.0,
                reference: None,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("additive against its own frame 0")
        );
        let c = ws.clip(CLIP).unwrap();
        assert_eq!(c.blend_mode, clipscope_core::model::BlendMode::Additive);
        assert_eq!(c.tracks[1].values.as_numbers().unwrap(), &[0.0, -0.5]);
    }
}
