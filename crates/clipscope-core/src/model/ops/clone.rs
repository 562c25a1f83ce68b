//! `clone`: three.js's `AnimationClip.clone()`, a copy that is a new clip in its own right.
//!
//! Unlike Rust's plain `Clone` (an exact copy, uuid included), [`Clip::duplicate`] behaves like
//! three.js: the copy gets a fresh uuid, goes through the constructor (so a negative duration is
//! recomputed from the keys), keeps every track's interpolation and tangents, and deep-copies
//! the user data. Unknown file fields (`extras`) are kept so the copy writes back the same way.

use crate::model::{Clip, clip::new_uuid};

impl Clip {
    /// A copy like three.js `clip.clone()`: same name, duration, tracks (with interpolation and
    /// tangents) and blend mode, deep-copied user data, and a NEW uuid.
    pub fn duplicate(&self) -> Clip {
        let mut copy = Clip {
            name: self.name.clone(),
            duration: self.duration,
            tracks: self.tracks.clone(),
            blend_mode: self.blend_mode,
            uuid: Some(new_uuid()),
            user_data: self.user_data.clone(),
            layers: self.layers.clone(),
            extras: self.extras.clone(),
        };
        if copy.duration < 0.0 {
            copy.reset_duration();
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{BlendMode, Clip, Interpolation, Tangents, Track, TrackKind};

    #[test]
    fn duplicate_gets_a_new_uuid_and_keeps_the_rest() {
        let mut t = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 10.0]);
        t.interpolation = Interpolation::Bezier;
        t.tangents = Some(Tangents {
            in_tangents: vec![0.0, 0.0, -0.25, -8.0],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        });
        let mut clip = Clip::new("walk", 2.0, vec![t]);
        clip.blend_mode = BlendMode::Additive;
        clip.user_data = serde_json::json!({"a": [1, {"b": "c"}]});
        let copy = clip.duplicate();
        assert_ne!(copy.uuid, clip.uuid);
        let uuid = copy.uuid.clone().unwrap();
        assert_eq!(uuid.len(), 36);
        assert_eq!(uuid.as_bytes()[14], b'4');
        assert_eq!(
            Clip {
                uuid: clip.uuid.clone(),
                ..copy
            },
            clip
        );
    }

    #[test]
    fn duplicate_recomputes_a_negative_duration() {
        let mut clip = Clip::new(
            "c",
            1.0,
            vec![Track::numeric(
                ".x",
                TrackKind::Number,
                vec![0.0, 3.0],
                vec![0.0; 2],
            )],
        );
        clip.duration = -1.0;
        assert_eq!(clip.duplicate().duration, 3.0);
    }
}
