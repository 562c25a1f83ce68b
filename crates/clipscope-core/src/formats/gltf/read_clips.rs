//! The clips a glTF file was read as, which writing a document back compares its clips with:
//! while they are unchanged, the file's animations are written back as they were.
//!
//! A long take's keys are megabytes, and copying them was a fifth of its read. So a strict
//! read keeps only how many keys each track had, which tells apart at once the documents a
//! reduction, a trim or added keys changed, and the file's animations are decoded again the
//! first time a document has that shape (the buffers they come from are kept anyway). A
//! lenient read (behind `validate`) copies its clips: the checks it left broken channels out
//! by are not kept to repeat.

use std::sync::OnceLock;

use crate::model::Clip;

/// The clips a glTF file was read as (see the module docs).
#[derive(Debug)]
pub(crate) struct ReadClips {
    /// Each clip's tracks' key counts.
    shape: Vec<Vec<usize>>,
    /// The clips: copied by a lenient read, else decoded again on first need.
    clips: OnceLock<Vec<Clip>>,
}

impl ReadClips {
    /// The clips of a strict read, decoded again from the file when first needed.
    pub(crate) fn later(clips: &[Clip]) -> ReadClips {
        ReadClips {
            shape: clips.iter().map(shape).collect(),
            clips: OnceLock::new(),
        }
    }

    /// `clips`, copied.
    pub(crate) fn copied(clips: Vec<Clip>) -> ReadClips {
        ReadClips {
            shape: clips.iter().map(shape).collect(),
            clips: OnceLock::from(clips),
        }
    }

    /// Whether `clips` equal the clips read; `decode` makes those again from the file when
    /// they were not copied and `clips` have their shape.
    pub(crate) fn equal(&self, clips: &[Clip], decode: impl FnOnce() -> Vec<Clip>) -> bool {
        let same_shape = clips.len() == self.shape.len()
            && clips.iter().zip(&self.shape).all(|(clip, keys)| {
                clip.tracks.len() == keys.len()
                    && clip
                        .tracks
                        .iter()
                        .zip(keys)
                        .all(|(t, &n)| t.times.len() == n)
            });
        same_shape && self.clips.get_or_init(decode).as_slice() == clips
    }
}

/// Each track's key count.
fn shape(clip: &Clip) -> Vec<usize> {
    clip.tracks.iter().map(|t| t.times.len()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    /// A clip of one number track keyed at `times`, all at `value` (clips made apart get
    /// uuids of their own: the tests compare copies of one).
    fn clip(times: Vec<f32>, value: f32) -> Clip {
        let values = vec![value; times.len()];
        let track = Track::numeric("a.x", TrackKind::Number, times, values);
        Clip::new("c", -1.0, vec![track])
    }

    /// `clip` with every value set to `value`.
    fn edited(clip: &Clip, value: f32) -> Clip {
        let mut c = clip.clone();
        let times = c.tracks[0].times.clone();
        c.tracks[0] = Track::numeric(
            "a.x",
            TrackKind::Number,
            times.clone(),
            vec![value; times.len()],
        );
        c
    }

    #[test]
    fn a_different_shape_is_told_apart_without_decoding() {
        let read = ReadClips::later(&[clip(vec![0.0, 1.0], 1.0)]);
        let never = || -> Vec<Clip> { panic!("decoded") };
        assert!(!read.equal(&[clip(vec![0.0], 1.0)], never));
        assert!(!read.equal(&[], never));
        assert!(!read.equal(&[clip(vec![0.0, 1.0], 1.0), clip(vec![0.0], 1.0)], never));
    }

    #[test]
    fn the_same_shape_is_compared_with_the_clips_decoded_once() {
        let original = clip(vec![0.0, 1.0], 1.0);
        let read = ReadClips::later(std::slice::from_ref(&original));
        let decodes = std::cell::Cell::new(0);
        let decode = || {
            decodes.set(decodes.get() + 1);
            vec![original.clone()]
        };
        assert!(read.equal(std::slice::from_ref(&original), decode));
        // An edited value has the same shape: compared with the clips already decoded.
        assert!(!read.equal(&[edited(&original, 2.0)], decode));
        assert_eq!(decodes.get(), 1);
    }

    #[test]
    fn copied_clips_are_compared_without_decoding() {
        let original = clip(vec![0.0, 1.0], 1.0);
        let read = ReadClips::copied(vec![original.clone()]);
        let never = || -> Vec<Clip> { panic!("decoded") };
        assert!(read.equal(std::slice::from_ref(&original), never));
        assert!(!read.equal(&[edited(&original, 3.0)], never));
    }
}
